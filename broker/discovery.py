"""LAN discovery with zeroconf (mDNS/DNS-SD): ``_cakeparty._tcp``.

A host advertises its broker; the TXT record carries the broker URL, the app's protocol
version and, when known, the room and game, so ``cakeparty join`` can list what is being
played on the LAN with no address typed by hand. Discovery only finds brokers: nothing
learnt here is trusted, every room still proves itself with signatures.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from dataclasses import dataclass
from typing import Any

SERVICE = "_cakeparty._tcp.local."
VERSION = "1"


@dataclass(frozen=True)
class Found:
    """A Cake Party broker seen on the LAN."""

    name: str
    broker: str  # mqtt://host:port
    room: str = ""
    game: str = ""
    version: str = VERSION


def local_address() -> str:
    """This machine's address on the LAN (the one used to reach the outside)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent
            address: str = probe.getsockname()[0]
            return address
        except OSError:
            return "127.0.0.1"


def _txt(info: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in (info.properties or {}).items():
        if isinstance(key, bytes) and isinstance(value, bytes):
            with contextlib.suppress(UnicodeDecodeError):
                out[key.decode()] = value.decode()
    return out


class Advertiser:
    """Announces one broker (and room) on the LAN while in use."""

    def __init__(
        self, *, name: str, port: int, broker: str, room: str = "", game: str = ""
    ) -> None:
        self.name = name
        self.port = port
        self.properties = {"broker": broker, "version": VERSION, "room": room, "game": game}
        self._zc: Any = None
        self._info: Any = None

    async def __aenter__(self) -> Advertiser:
        from zeroconf import ServiceInfo
        from zeroconf.asyncio import AsyncZeroconf

        address = local_address()
        label = "".join(c for c in self.name if c.isalnum() or c in " -")[:40] or "Cake Party"
        self._info = ServiceInfo(
            SERVICE,
            f"{label} {self.properties['room']}.{SERVICE}".replace("  ", " "),
            addresses=[socket.inet_aton(address)],
            port=self.port,
            properties=self.properties,
            server=f"{socket.gethostname().split('.')[0] or 'cakeparty'}.local.",
        )
        self._zc = AsyncZeroconf()
        try:
            # zeroconf sends the announcements from a task of its own and hands it back:
            # awaited here, so that no announcement is left behind, still pending, when
            # the app ends (a SIGTERM soon after hosting printed "Task was destroyed but
            # it is pending!" on the terminal on the way out)
            announced = await self._zc.async_register_service(self._info, allow_name_change=True)
            await announced
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        zc, self._zc = self._zc, None
        if zc is not None:
            # closing says goodbye for every service it announced, and waits until it is
            # said (``async_unregister_service`` would leave that to a task of its own,
            # which an ending event loop destroys while it is pending)
            await zc.async_close()


#: the most services one look on the LAN reads: anyone on the LAN may announce thousands
MOST_FOUND = 64
#: how long the services announced without their details are asked for them, all at once
ASK_MS = 1500


async def browse(seconds: float = 2.0) -> list[Found]:
    """The Cake Party brokers that answer on the LAN within ``seconds`` (and
    :data:`ASK_MS` more at most), :data:`MOST_FOUND` at most.

    A service announced whole (as :class:`Advertiser` announces it) is read from what was
    heard; the others are asked for their details all together, so that names announced
    alone, with nothing behind them, cost one wait, not one wait each (a stranger's
    hundred such names held a look up for two and a half minutes), and never crowd out a
    service announced whole."""
    from zeroconf import ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    names: set[str] = set()

    def seen(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.add(name)

    zc = AsyncZeroconf()
    found: list[Found] = []
    try:
        browser = AsyncServiceBrowser(zc.zeroconf, [SERVICE], handlers=[seen])
        await asyncio.sleep(seconds)
        await browser.async_cancel()
        heard: list[Any] = []
        unheard: list[Any] = []
        for name in sorted(names):
            info = AsyncServiceInfo(SERVICE, name)
            (heard if info.load_from_cache(zc.zeroconf) else unheard).append(info)
        heard = heard[:MOST_FOUND]
        unheard = unheard[: MOST_FOUND - len(heard)]
        answers = await asyncio.gather(
            *(info.async_request(zc.zeroconf, ASK_MS) for info in unheard)
        )
        for info in heard + [info for info, ok in zip(unheard, answers, strict=True) if ok]:
            txt = _txt(info)
            broker = txt.get("broker", "")
            if not broker:
                addresses = info.parsed_addresses()
                if not addresses:
                    continue
                broker = f"mqtt://{addresses[0]}:{info.port}"
            found.append(
                Found(
                    name=info.name.removesuffix("." + SERVICE),
                    broker=broker,
                    room=txt.get("room", ""),
                    game=txt.get("game", ""),
                    version=txt.get("version", ""),
                )
            )
    finally:
        await zc.async_close()
    return found

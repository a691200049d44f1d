"""The embedded MQTT broker (amqtt), for playing with no server set up.

It relays; it is never trusted with anything: every envelope is signed and checked by
every peer, and cards are encrypted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

DEFAULT_PORT = 1883

# The largest packet a client may send. The largest legitimate one is a mix of the biggest
# deck with its proof: 130 cards among 6 seats is 150 KB with today's proof at λ 32 (a few
# times that at λ 128); an envelope is refused by every peer above 2 MiB
# (``cakeparty.protocol.codec.MAX_ENVELOPE_BYTES``), so nothing larger is worth relaying.
# The margin covers the topic and MQTT's headers.
MAX_PACKET_BYTES = 2 * 1024 * 1024 + 64 * 1024
# What the broker keeps for clients to come: a room's advert, each player's presence, each
# spectator's word, a few hundred bytes to a few KiB each. Anyone who can connect can ask
# it to keep more; past these, a message on a new topic is relayed but not kept.
MAX_RETAINED = 10_000
MAX_RETAINED_BYTES = 64 * 1024 * 1024


#: Where :func:`free_port` looks: below the ports a system lends to outgoing connections
#: (Linux from 32768, macOS and Windows from 49152). A port the system itself picks comes
#: from that range, and any connection made meanwhile (a browser, another app's broker
#: client) may take it between its choice and the listener's bind.
FREE_PORTS = range(20000, 32768)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now, one no outgoing connection is given."""
    pick = random.SystemRandom()
    for _ in range(64):
        port = pick.choice(FREE_PORTS)
        if port_is_free(port, host):
            return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:  # a crowded range
        sock.bind((host, 0))
        chosen: int = sock.getsockname()[1]
        return chosen


def port_is_free(port: int, host: str = "0.0.0.0") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


#: amqtt's loggers: at INFO it logs every connection, and a slow client's PUBACK timeout
#: comes with a traceback. None of it is for the players' terminal.
AMQTT_LOGGERS = ("amqtt", "transitions")
#: the broker's own word, kept with amqtt's (see :func:`quiet_amqtt`)
log = logging.getLogger("amqtt.cakeparty")


def quiet_amqtt(log_file: str | Path | None = None) -> None:
    """Keep amqtt's logging off the terminal: into ``log_file`` (warnings and worse) when
    given, else nowhere below CRITICAL."""
    handler: logging.Handler | None = None
    if log_file is not None:
        handler = logging.FileHandler(log_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name in AMQTT_LOGGERS:
        logger = logging.getLogger(name)
        logger.propagate = False  # never to the root logger (a terminal)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        if handler is not None:
            logger.setLevel(logging.WARNING)
            logger.addHandler(handler)
        else:
            logger.setLevel(logging.CRITICAL)
            logger.addHandler(logging.NullHandler())


class Subscriptions(dict[str, list[Any]]):
    """amqtt's table of subscriptions (topic filter → sessions), iterated over a snapshot.

    amqtt walks this table with ``await`` inside the loop — a connecting client's retained
    messages, a session's removal, a broadcast — while another client's subscription
    changes it. A plain dict then raises "dictionary changed size during iteration" in the
    connecting client's handler: its connection stays open and acknowledges what it
    publishes, but nothing it sends is ever relayed (a message silently lost, about one
    connection in fifty while others subscribe)."""

    def __iter__(self) -> Iterator[str]:
        return iter(list(super().keys()))

    def keys(self) -> list[str]:  # type: ignore[override]
        return list(super().keys())

    def values(self) -> list[list[Any]]:  # type: ignore[override]
        return list(super().values())

    def items(self) -> list[tuple[str, list[Any]]]:  # type: ignore[override]
        return list(super().items())


def _bounded_broker(
    max_packet: int, counter: Callable[[int], None], max_retained: tuple[int, int]
) -> Any:
    """amqtt's broker, closing the connection of a client that sends a larger packet
    (amqtt has no setting for it: every packet's body is read with one ``read(n)``),
    keeping at most ``max_retained`` (messages, bytes) of retained messages (amqtt keeps
    every one it is given), and telling ``counter`` of every connection that opens (+1)
    and closes (-1).

    Two of amqtt's faults are mended here: its subscription table is walked over a
    snapshot (:class:`Subscriptions`), and a connecting client is sent the retained
    messages of its own subscriptions only — amqtt sends it those of every filter anyone
    on the broker subscribed to."""
    from amqtt.adapters import StreamReaderAdapter, StreamWriterAdapter
    from amqtt.broker import Broker

    class BoundedReader(StreamReaderAdapter):  # type: ignore[misc]
        async def read(self, n: int = -1) -> bytes:
            if n < 0 or n > max_packet:
                raise asyncio.IncompleteReadError(b"", n if n > 0 else None)
            data: bytes = await super().read(n)
            return data

    most, most_bytes = max_retained

    class BoundedBroker(Broker):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._subscriptions = Subscriptions()
            self.retained_bytes = 0
            self.retained_refused = 0

        async def retain_message(
            self, source_session: Any, topic_name: str | None, data: Any, qos: int | None = None
        ) -> None:
            kept = self._retained_messages
            before = len(kept[topic_name].data) if topic_name in kept else 0
            size = len(data) if data else 0
            if size and (
                (before == 0 and len(kept) >= most)
                or self.retained_bytes - before + size > most_bytes
            ):
                if not self.retained_refused:
                    log.warning("retained messages at their bound: new ones are relayed only")
                self.retained_refused += 1
                return  # relayed to those subscribed now; not kept for later ones
            await super().retain_message(source_session, topic_name, data, qos)
            self.retained_bytes += (size if topic_name in kept else 0) - before

        async def _publish_retained_messages_for_subscription(
            self, subscription: tuple[str, int], session: Any
        ) -> None:
            # called on a subscription (the session is subscribed by then) and, for every
            # filter on the broker, when a session connects: only its own count
            topic_filter = subscription[0]
            mine = self._subscriptions.get(topic_filter, [])
            if any(s.client_id == session.client_id for s, _qos in mine):
                await super()._publish_retained_messages_for_subscription(subscription, session)

        async def stream_connected(
            self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener_name: str
        ) -> None:
            counter(1)
            try:
                await self._client_connected(
                    listener_name, BoundedReader(reader), StreamWriterAdapter(writer)
                )
            finally:
                counter(-1)

    return BoundedBroker


class EmbeddedBroker:
    """An in-process MQTT 3.1.1 broker. ``async with EmbeddedBroker(port=0) as b: b.url``."""

    def __init__(
        self,
        *,
        host: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        max_packet: int = MAX_PACKET_BYTES,
        max_retained: tuple[int, int] = (MAX_RETAINED, MAX_RETAINED_BYTES),
    ) -> None:
        """``max_retained``: the retained messages kept at most (how many, bytes)."""
        self.host = host
        self.port = port or free_port()
        self.max_packet = max_packet
        self.max_retained = max_retained
        self._broker: Any = None
        self.clients = 0  # connections open now
        self.idle_since = time.monotonic()  # when the last connection closed

    def _count(self, change: int) -> None:
        self.clients += change
        if self.clients == 0:
            self.idle_since = time.monotonic()

    def idle_for(self) -> float:
        """Seconds with no client connected (0 while one is)."""
        return 0.0 if self.clients else time.monotonic() - self.idle_since

    @property
    def url(self) -> str:
        """The URL for clients on this machine."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"mqtt://{host}:{self.port}"

    async def start(self) -> None:
        if not logging.getLogger("amqtt").handlers:
            quiet_amqtt()  # unless the caller routed it to a file already
        # imported here: only a broker needs amqtt
        Broker = _bounded_broker(self.max_packet, self._count, self.max_retained)

        if not port_is_free(self.port, self.host):
            raise OSError(f"port {self.port} is already in use")
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
            },
        }
        self._broker = Broker(config)
        await self._broker.start()
        self.idle_since = time.monotonic()

    async def stop(self) -> None:
        if self._broker is not None:
            broker, self._broker = self._broker, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(broker.shutdown(), 10)

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


async def serve(
    host: str, port: int, ready: asyncio.Event | None = None, *, idle: float | None = None
) -> None:
    """Run a broker until cancelled (``cakeparty broker``) or, with ``idle``, until no
    client has been connected for that many seconds."""
    async with EmbeddedBroker(host=host, port=port) as broker:
        if ready is not None:
            ready.set()
        while idle is None or broker.idle_for() < idle:
            await asyncio.sleep(1.0 if idle is None else min(1.0, idle / 4))

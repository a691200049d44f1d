"""What the two servers of the app (``serve-web`` and ``serve-ssh``) share: the largest
terminal a visitor may ask for, the notice of a session closed for want of a key press,
and who counts as one visitor when connections are counted by address."""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from typing import Any

from cakeparty.core.i18n import ngettext

#: the largest terminal side, in cells, a browser page or an SSH client may ask for
MOST_CELLS = 1000


def idle_notice(timeout: float) -> str:
    """The lines a session closed after ``timeout`` seconds without a key press ends on."""
    seconds = round(timeout)
    if seconds < 120:
        text = ngettext(
            "Closed after {n} second without a key press; your unfinished games are kept.",
            "Closed after {n} seconds without a key press; your unfinished games are kept.",
            seconds,
        )
    else:
        text = ngettext(
            "Closed after {n} minute without a key press; your unfinished games are kept.",
            "Closed after {n} minutes without a key press; your unfinished games are kept.",
            round(seconds / 60),
        )
        seconds = round(seconds / 60)
    return "\r\n" + text.format(n=seconds) + "\r\n"


def address_key(peer: Any) -> str:
    """Whom a connection from ``peer`` (a socket's peer name, as asyncio gives it) counts
    against when connections are counted by address: its IPv4 address, or the /64 of its
    IPv6 address (one host is commonly given a whole /64), or ``""`` when there is none."""
    host = peer[0] if isinstance(peer, tuple) and peer else peer
    if not isinstance(host, str):
        return ""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class ByAddress:
    """Connections counted by their address (an :func:`address_key`), each address's
    oldest first: what a server bounds per address and in total, and where it finds the
    connection to close for a newcomer (:meth:`busiest`)."""

    def __init__(self) -> None:
        self.address_of: dict[Any, str] = {}
        self.by_address: dict[str, OrderedDict[Any, None]] = {}

    def __len__(self) -> int:
        return len(self.address_of)

    def __contains__(self, connection: object) -> bool:
        return connection in self.address_of

    def count(self, address: str) -> int:
        """The connections of ``address`` counted now."""
        return len(self.by_address.get(address, ()))

    def add(self, connection: Any, address: str) -> None:
        self.address_of[connection] = address
        self.by_address.setdefault(address, OrderedDict())[connection] = None

    def remove(self, connection: Any) -> str | None:
        """``connection`` counts no more: its address, or ``None`` if it did not count."""
        address = self.address_of.pop(connection, None)
        if address is None:
            return None
        theirs = self.by_address[address]
        del theirs[connection]
        if not theirs:
            del self.by_address[address]
        return address

    def busiest(self) -> tuple[str, int, Any]:
        """The address holding the most connections (the first counted of those tied),
        how many, and its oldest. Only while some are counted."""
        address, theirs = max(self.by_address.items(), key=lambda item: len(item[1]))
        return address, len(theirs), next(iter(theirs))

"""A room hosted beside the app under test: a host's runner on a test broker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress


@asynccontextmanager
async def hosted_duel(
    broker_url: str,
    room: str,
    *,
    name: str = "Hank",
    full: bool = True,
    timeout: int = 60,
    ready: bool = False,
) -> AsyncIterator[RoomRunner]:
    """``name`` hosts a two-seat cake-duel room ``room`` on the broker at ``broker_url``
    (the full deck or the core cards, ``timeout`` seconds a move; ready at once if
    ``ready``) while the block runs; its runner is stopped and awaited on the way out."""
    host = RoomRunner(
        broker=BrokerAddress.parse(broker_url),
        identity=Identity.generate(name),
        room=room,
        host=HostSetup("cake-duel", 2, {"full": full}, timeout=timeout),
    )
    if ready:
        host.set_ready(True)
    hosting = asyncio.create_task(host.run())
    try:
        yield host
    finally:
        host.stop()
        await asyncio.wait_for(hosting, 10)

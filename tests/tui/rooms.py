"""A room hosted beside the app under test: a host's runner on a test broker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from textual.pilot import Pilot

from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.netroom import JoinPlan
from cakeparty.tui.screens.lobby import LobbyScreen

from .pilot import until

GameScreen = TypeVar("GameScreen")


async def bots_then_start(
    app: Any, pilot: Pilot[Any], players: int, kind: type[GameScreen], wait: float, start: float
) -> GameScreen:
    """The host's lobby on ``app``'s screen seats bots (``a``), each in ``wait`` seconds,
    until ``players`` are seated, and starts the game on ready (``r``): its screen, of
    class ``kind``, within ``start`` seconds."""
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen) and lobby.room is not None
    room = lobby.room
    await until(pilot, lambda: room.connected and room.advert is not None, "the room", wait)

    def seated(seats: int) -> Callable[[], bool]:
        return lambda: len(room.runner.advert.taken) == seats

    for seats in range(2, players + 1):
        await pilot.press("a")
        await until(pilot, seated(seats), f"bot {seats - 1}", wait)
    await pilot.press("r")
    await until(pilot, lambda: isinstance(app.screen, kind), "the game", start)
    screen = app.screen
    assert isinstance(screen, kind)
    return screen


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


async def join_lobby(
    pilot: Pilot[Any], app: Any, code: str, broker: str, player: str, identity: Identity
) -> LobbyScreen:
    """``player``'s app opens the lobby of room ``code`` and waits for its host's advert."""
    join = JoinPlan(code, broker)
    await app.push_screen(LobbyScreen(join, player=player, bot_delay=0.0, identity=identity))
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), f"{player}'s lobby", 15)
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await until(
        pilot,
        lambda: lobby.room is not None and lobby.room.advert is not None,
        "the host's advert",
        15,
    )
    return lobby

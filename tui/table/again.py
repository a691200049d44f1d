"""Playing again after a networked game: the host opens a new room with the same options
and the same bots, and offers it to the same people. The same for every game.

The finished game's screen and its room's lobby make way for the new room's lobby (the
old room is left first), so however many games a night holds, the screen stack holds one
room's screens. A host's embedded broker outlives the old room: the new room lives on it,
takes it over, and stops it when it is left in turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from cakeparty.broker import runner as brokers
from cakeparty.core.i18n import _
from cakeparty.protocol import hosting
from cakeparty.protocol.transport import TransportError

#: Seconds to wait for the old room to close before the new one opens anyway.
LEAVE_WAIT = 10.0


async def host_again(
    app: Any, old: Any, *, leave: str = "pop", broker_pid: int | None = None
) -> Any:
    """Host: open a new room with ``old``'s options and bots on its broker (which stays
    up), then offer it to ``old``'s players with a signed message in ``old``; the new
    room's lobby, or ``None`` if it could not open. ``broker_pid``: ``old``'s embedded
    broker, handed over (see :func:`release_broker`): the new room stops it when it is
    left."""
    from cakeparty.tui.screens.lobby import LobbyScreen

    plan = replace(
        old.plan, broker=old.share if old.embedded else old.plan.broker, port=None, resume=None
    )
    settings = getattr(app, "settings", None)
    lobby = LobbyScreen(
        plan,
        player=old.identity.name,
        bot_level=getattr(settings, "bot_level", "normal"),
        bot_delay=getattr(settings, "bot_delay", 0.6),
        identity=old.identity,
        leave=leave,
    )
    await app.push_screen(lobby)
    if lobby.room is None:
        if broker_pid is not None and brokers.is_ours(broker_pid, old.port):
            brokers.stop(broker_pid)  # nothing lives on it any more
        return None
    if broker_pid is not None:
        adopt_broker(lobby.room, old.port, broker_pid)
    # the same bots sit down again, at their levels, and everyone keeps the seat they had
    # (in a game of teams, their team)
    order: list[bytes] = []
    for seat in old.runner.host_lobby.advert.taken:
        player = seat.player
        level = old.bot_levels.get(player)
        if level is None:
            order.append(player)
        else:
            bot = lobby.room.add_bot(level)
            if bot is not None:
                order.append(bot)
    lobby.room.runner.keep_order(order)
    lobby.refresh_lobby()
    # on the new room's own connection: a broker that takes a player's login as its client
    # id lets each player one connection at a time
    await lobby.room.runner.offer_next_room(old.room, lobby.room.code)
    return lobby


def release_broker(room: Any) -> int | None:
    """``room``'s embedded broker will outlive it (the next room takes it over): leaving
    ``room`` no longer stops it. Its process id, or ``None`` if it has none here."""
    record = room.record
    if not room.embedded or record is None or record.pid is None:
        return None
    room.record = record.with_(pid=None)
    return int(record.pid)


def adopt_broker(room: Any, port: int, pid: int) -> None:
    """``room`` (on the broker at ``port``) owns that broker from now on: it stops it when
    left, and ``host --resume`` finds it there."""
    room.port = port
    if room.record is not None:
        room.record = room.record.with_(port=port, pid=pid)
        with contextlib.suppress(OSError):  # written again when the game starts
            hosting.save(room.record, room.journal_dir)


def lobby_of(app: Any, screen: Any) -> Any:
    """The lobby on the stack whose room's game ``screen`` shows, if any."""
    return next((s for s in app.screen_stack if getattr(s, "game_screen", None) is screen), None)


async def leave_for_next(app: Any, screen: Any, open_next: Callable[[str], Awaitable[Any]]) -> Any:
    """Close the finished game's ``screen`` and leave its room (its lobby goes too), then
    open the next room with ``open_next(leave)`` where they were; what it returns.
    ``leave`` is what leaving the old lobby did ("pop", or "exit" the app), passed on."""
    lobby = lobby_of(app, screen)
    leave = "pop"
    if lobby is not None:
        leave, lobby.leave = lobby.leave, "pop"  # leaving it now must not quit the app
    if screen in app.screen_stack:
        while app.screen is not screen:
            await app.pop_screen()  # a dialog left over on it (none answers any more)
        screen.dismiss(None)  # its lobby leaves the room, then goes itself
    if lobby is not None:
        deadline = time.monotonic() + LEAVE_WAIT
        while lobby in app.screen_stack and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
    return await open_next(leave)


async def play_again(app: Any, screen: Any, room: Any) -> None:
    """Host: leave the finished game on ``screen`` (of ``room``) for a new room with the
    same options on the same broker, offered to the same people."""
    pid = release_broker(room)

    async def open_next(leave: str) -> Any:
        return await host_again(app, room, leave=leave, broker_pid=pid)

    try:
        await leave_for_next(app, screen, open_next)
    except Exception as exc:  # the new room stands; only the offer did not go out
        error = exc.said(_) if isinstance(exc, TransportError) else exc
        app.notify(
            _("Could not tell the others about the new room: {error}").format(error=error),
            severity="warning",
        )


async def join_again(app: Any, screen: Any, plan: Any) -> None:
    """Guest: leave the finished game on ``screen`` for the host's new room (``plan``)."""

    async def open_next(leave: str) -> None:
        open_room = getattr(app, "open_room", None)
        if open_room is not None:
            open_room(plan, leave)

    await leave_for_next(app, screen, open_next)

"""Playing again after a networked game: the host opens a new room with the same options
and offers it to the same people. The same for every game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any


async def host_again(app: Any, old: Any) -> Any:
    """Host: open a new room with ``old``'s options on its broker (which stays up below,
    as ``old`` is not left), then offer it to ``old``'s players with a signed message in
    ``old``; the new room's lobby, or ``None`` if it could not open."""
    from cakeparty.protocol.network import offer_next_room
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
    )
    await app.push_screen(lobby)
    if lobby.room is None:
        return None
    await offer_next_room(old.address, old.identity, old.room, lobby.room.code)
    return lobby

"""The networked game this player may go back to, which the menu offers.

A player whose app closed in the middle of a networked game (a crash, a dropped SSH
connection, a laptop that slept, or leaving the table on purpose) opens the app again
and the menu names that game, one key away:

* a room this player **hosts** and can come back to (:func:`cakeparty.protocol.hosting.
  resumable`, what ``cakeparty host --resume`` opens), however old: it stays offered
  until its game ends or the host leaves the room on purpose;
* else a room it **joined** (:func:`cakeparty.tui.recent.joined_rooms`) whose journal of
  this player's seat was written in the last :data:`GUEST_HOURS` hours and holds no end
  of the game: the join list then looks for it and joins it as soon as it is found.

A guest's journal cannot tell a game still going from one whose room closed while the
guest was away, so a guest's offer ends with the hours, not with the game. Nothing here
reaches the network; the menu asks from a worker, so its first screen never waits on the
disk. No UI library here.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass

from cakeparty.protocol import hosting, journal
from cakeparty.protocol.lobby import host_tag, parse_code
from cakeparty.tui.recent import joined_rooms

#: hours a guest's unfinished game stays offered after its journal was last written
GUEST_HOURS = 24.0


@dataclass(frozen=True)
class Unfinished:
    """A game to go back to: its room's code (the full code when known) and game;
    ``hosted``: what this player's room remembers, when it is the host."""

    code: str
    game: str
    hosted: hosting.HostRecord | None = None

    @property
    def room(self) -> str:
        """The room id (the code without its host's tag)."""
        return parse_code(self.code)[0]


def unfinished(
    me: bytes, directory: str | os.PathLike[str] | None = None, *, now: float | None = None
) -> Unfinished | None:
    """The game ``me`` may go back to (see the module's docstring), the most recent
    first; ``None`` if there is none."""
    record = hosting.resumable(me, None, directory)
    if record is not None:
        return Unfinished(record.room, record.game, record)
    joined = {parse_code(code)[0]: code for code in joined_rooms(directory)}
    if not joined:
        return None
    since = (time.time() if now is None else now) - GUEST_HOURS * 3600
    mine = f"-{me.hex()[:12]}.journal"
    for path in journal.journals(directory):  # the newest first
        with contextlib.suppress(OSError):
            if path.stat().st_mtime < since:
                break
        room = path.name.partition("-")[0]
        if not path.name.endswith(mine) or room not in joined:
            continue
        table = journal.game_on(path)  # None: ended, or a torn or foreign file
        if table is not None and table.room == room and me in table.players:
            return Unfinished(joined[room], table.game)
    return None


def hosted_room(
    me: bytes, code: str | None = None, directory: str | os.PathLike[str] | None = None
) -> hosting.HostRecord | None:
    """The room ``me`` hosted here and can come back to: the one ``code`` names (a bare
    room id, or the full code with this host's tag), or the latest; ``None`` if there is
    none (another host's room of the same id is not this one)."""
    if not code:
        return hosting.resumable(me, None, directory)
    room, tag = parse_code(code)
    if tag is not None and tag != host_tag(room, me):
        return None
    return hosting.resumable(me, room, directory)

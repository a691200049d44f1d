"""A room watched without a seat, as the watch screen wants it.

:class:`WatchTable` is a :class:`~cakeparty.tui.table.net.NetTable` over a
:class:`~cakeparty.protocol.spectator.SpectatorRunner`: the views are the public view, the
story is told from the spectator's own history (public steps only), and what the room
waits for and the audit's verdict are said in the same words a seat reads. No UI library
here, so it is tested headless.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from cakeparty.core import Action, get_game
from cakeparty.protocol.errors import Incidents
from cakeparty.protocol.names import distinct_names
from cakeparty.tui.table import registration
from cakeparty.tui.table.net import NetTable, own_bots


class _Watched:
    """What a seat's screen reads of its session, for a spectator: the votes that ended
    the game (the spectator counts them), and no incidents but its peer's."""

    #: a spectator keeps no journal: nothing it writes can stall the game
    stalled = None

    def __init__(self, spectator: Any) -> None:
        self.spectator = spectator
        self.incidents = Incidents()

    @property
    def abandoned(self) -> Any:
        return self.spectator.abandoned


class WatchTable(NetTable):
    """The public side of a room in progress, for a spectator's screen."""

    def __init__(self, runner: Any) -> None:
        """``runner``: a :class:`SpectatorRunner` that has the room's table."""
        spectator = runner.spectator
        if spectator is None:
            raise ValueError("the room's game has not started")
        self.runner = runner
        self.spectator = spectator
        self.session = _Watched(spectator)  # type: ignore[assignment]
        self.table = spectator.table
        self.seat = None  # type: ignore[assignment]
        self.game = get_game(self.table.game)
        self.registered = registration.any_game(self.table.game)
        self.names = distinct_names(self.table.names, self.table.players)
        self.options = self.table.option_map
        advert = runner.advert
        taken = advert.taken if advert is not None else ()
        self.bots = {s.player: s.bot for s in taken}
        self.own_bots = own_bots(advert)
        self.host = advert.host if advert is not None else None
        self._story = self._new_story()
        self.story: list[Any] = []
        self._incidents = 0
        self._step = (-1, "")
        self.step_since = time.monotonic()
        self.catch_up()

    @property
    def peer(self) -> Any:
        return self.spectator.peer

    @property
    def humans(self) -> tuple[int, ...]:
        return ()

    def legal(self, seat: int) -> tuple[Action, ...]:
        return ()

    def act(self, seat: int, action: Action) -> list[Any]:
        raise ValueError("a spectator makes no move")

    def waiting_on(self) -> tuple[int, ...]:
        if self.over and self.audited:
            return ()
        return tuple(self.peer.waiting_for)

    def lines(self, entries: Sequence[Any]) -> list[tuple[str, str]]:
        """Story entries as the spectator's log lines (the game's own words)."""
        tell = self.registered.watch_lines
        return [] if tell is None else tell(entries, self.names)

    def replay_lines(self) -> list[tuple[str, str]]:
        """The face-up replay's lines, once the audit found the game fair."""
        make = self.registered.replay_lines
        entries = self.replay()
        if make is None or not entries:
            return []
        return make(entries, self.names, self.view(None))

"""What a game screen needs from a game, whether it is played here or across a network.

:class:`~cakeparty.tui.table.local.LocalTable` (people and bots around a local dealer)
and a networked seat (this player's seat in a room) both fit it, so one screen per game
serves both. Views and story entries are the game's own values.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from cakeparty.core import Action, Game, Outcome


class TableSession(Protocol):
    """A game as its screen sees it: names, views, the story, and moves to make."""

    game: Game
    names: tuple[str, ...]
    story: list[Any]

    @property
    def players(self) -> int: ...

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played by people at this keyboard."""
        ...

    @property
    def hotseat(self) -> bool:
        """Several people share this keyboard (their hands hide between turns)."""
        ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def over(self) -> bool: ...

    def is_bot(self, seat: int) -> bool: ...

    def shown_as_bot(self, seat: int) -> bool:
        """A bot plays ``seat``: this app's, the host's, or one in a process of its own."""
        ...

    def away(self, seat: int) -> bool:
        """The player of ``seat`` is offline (a networked game)."""
        ...

    def view(self, seat: int | None) -> Any: ...

    def legal(self, seat: int) -> tuple[Action, ...]: ...

    def act(self, seat: int, action: Action) -> list[Any]: ...

    def forced(self, seat: int) -> Action | None: ...

    def catch_up(self) -> list[Any]: ...

    def replay(self) -> list[Any]: ...

    def past_moves(self) -> Iterator[tuple[int, Action, Any]]:
        """The moves made at this keyboard so far, each with the table as it stood before
        it (anything with ``view(seat)``): what a screen kept of them is read again from
        these when a game goes on from disk."""
        ...


def away_seats(table: Any) -> frozenset[int]:
    """The seats whose players are offline (a networked game, watched or played; none at
    one computer): the games' panels tag them."""
    return frozenset(seat for seat in range(len(table.names)) if table.away(seat))

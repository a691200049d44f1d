"""What the duel screen needs from a duel, whether it is played here or across a network.

:class:`~cakeparty.tui.local.LocalDuel` (people and bots around a local dealer) and
:class:`~cakeparty.tui.netduel.NetDuel` (this player's seat in a networked room) both
fit it, so one screen and one set of widgets serve both.
"""

from __future__ import annotations

from typing import Protocol

from cakeparty.core import Action, Game, Outcome
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.tui.chronicle import Entry


class DuelGame(Protocol):
    """A Cake Duel as the screen sees it: names, views, the story, and moves to make."""

    game: Game
    names: tuple[str, ...]
    story: list[Entry]

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

    def away(self, seat: int) -> bool:
        """The player of ``seat`` is offline (a networked game)."""
        ...

    def view(self, seat: int | None) -> DuelView: ...

    def legal(self, seat: int) -> tuple[Action, ...]: ...

    def act(self, seat: int, action: Action) -> list[Entry]: ...

    def forced(self, seat: int) -> Action | None: ...

    def catch_up(self) -> list[Entry]: ...

    def replay(self) -> list[Entry]: ...

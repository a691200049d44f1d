"""The story of a game: every public event in order, and after it every card face up.

A :class:`Story` follows a match's history action by action on its own copy of the
state, so it sees each event as it happens, and so the UI never needs more than the
history. Given the :class:`~cakeparty.core.LocalDealer`, it also tracks which card each
slot really holds (from the dealer's shuffle records, and the reveals and re-mixes in the
history), so a game's story can attach the real cards to every facedown play: the replay
shown after a game. What an event is, and what a game tells of it, is the game's own
(:meth:`Story.entries`). No UI library here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core import (
    Action,
    CakePartyError,
    Game,
    LocalDealer,
    Remixed,
    Revealed,
    Shuffled,
)


class Story:
    """Follows a match's history and turns it into a game's story entries."""

    def __init__(
        self,
        game: Game,
        players: int,
        options: Mapping[str, Any],
        dealer: LocalDealer | None = None,
    ) -> None:
        self.game = game
        self.state: Any = game.new_state(players, options)
        self.done = 0
        self._dealer = dealer
        self._truth: list[str] | None = list(game.box(self.state)) if dealer else None
        self._shuffles = 0

    @property
    def face_up(self) -> bool:
        """Whether the real cards are known (a replay)."""
        return self._truth is not None

    def follow(self, history: Sequence[tuple[int | None, Action]]) -> list[Any]:
        """The entries for every history item not followed yet."""
        out: list[Any] = []
        for seat, action in history[self.done :]:
            before = self.state
            after = self.game.apply(before, action, seat)
            self._learn(action)
            out.extend(self.entries(before, after, seat, action))
            self.state = after
        self.done = len(history)
        return out

    def entries(self, before: Any, after: Any, seat: int | None, action: Action) -> list[Any]:
        """What the step from ``before`` to ``after`` tells: the game's own."""
        raise NotImplementedError

    # -- the real cards --------------------------------------------------------------------

    def _learn(self, action: Action) -> None:
        truth = self._truth
        if truth is None or self._dealer is None:
            return
        if isinstance(action, Shuffled):
            slots, cards = self._dealer.shuffles[self._shuffles]
            self._shuffles += 1
            if slots != action.slots:
                raise CakePartyError("the dealer's shuffle records do not match the history")
            for slot, card in zip(slots, cards, strict=True):
                truth[slot] = card
        elif isinstance(action, Revealed | Remixed):
            # the local dealer answers with every card, a re-mixed hand's new order too
            for slot, shown in zip(action.slots, action.cards, strict=True):
                if shown is not None:
                    truth[slot] = shown

    def real(self, slots: Sequence[int]) -> tuple[str, ...]:
        """The real cards of ``slots`` (in a replay; empty otherwise)."""
        if self._truth is None:
            return ()
        return tuple(self._truth[s] for s in slots)

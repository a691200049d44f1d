"""A match: one game's state, its local dealer and its history, behind a small API.

>>> from cakeparty.core import new_match
>>> m = new_match("cake-duel", players=2, seed=7)
>>> seat = m.to_act[0]
>>> m.apply(m.legal_actions(seat)[0])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action, Committed, forfeit_words
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.errors import CakePartyError, IllegalActionError
from cakeparty.core.game import Bot, Game, Outcome, check_seat, get_game
from cakeparty.core.requests import Commit


class Match:
    """A game in progress with a :class:`LocalDealer` answering every request."""

    def __init__(self, game: Game, state: Any, dealer: LocalDealer) -> None:
        self.game = game
        self.state = state
        self.dealer = dealer
        self.history: list[tuple[int | None, Action]] = []
        self._sealed: dict[int, Action] = {}
        self._settle()

    # -- reading ------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now."""
        request = self.game.pending(self.state)
        if isinstance(request, Commit):
            return tuple(s for s in request.seats if s not in self._sealed)
        return self.game.to_act(self.state)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may make now."""
        check_seat(self.state, seat)
        if seat not in self.to_act:
            return []
        return self.game.legal_actions(self.state, seat)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator)."""
        check_seat(self.state, seat, spectator=True)
        return self.game.view(self.state, seat)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None``."""
        return self.game.outcome(self.state)

    # -- acting -------------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """``seat`` makes ``action`` (``seat`` may be left out if one seat is to act)."""
        if seat is not None:
            check_seat(self.state, seat)
        acting = self.to_act
        if seat is None:
            if len(acting) != 1:
                raise IllegalActionError(None, action, "say which seat acts")
            seat = acting[0]
        request = self.game.pending(self.state)
        if isinstance(request, Commit):
            self._seal(request, seat, action)
        else:
            after = self.game.apply(self.state, action, seat)
            self._refuse_breach(after, seat, action)
            self.state = after
            self.history.append((seat, action))
        self._settle()

    def _refuse_breach(self, after: Any, seat: int, action: Action) -> None:
        # A rule that peers can only check once hidden cards are known (a Summoner count)
        # is recorded as a breach so that every peer stays in step. The local dealer knows
        # every card: such a move is simply illegal here.
        before: tuple[Any, ...] = getattr(self.state, "breaches", ())
        breaches: tuple[Any, ...] = getattr(after, "breaches", ())
        if len(breaches) > len(before):
            breach = breaches[-1]
            reason = forfeit_words(breach.reason, getattr(breach, "params", ()))
            raise IllegalActionError(seat, action, reason)

    def _seal(self, request: Commit, seat: int, action: Action) -> None:
        # a simultaneous choice stays sealed until every seat of the commit has chosen
        if seat not in self.to_act:
            raise IllegalActionError(seat, action, "this seat has already chosen")
        if action not in self.game.legal_actions(self.state, seat):
            raise IllegalActionError(seat, action, "not a legal choice")
        self._sealed[seat] = action
        if len(self._sealed) == len(request.seats):
            choices = tuple(sorted(self._sealed.items()))
            self._sealed = {}
            self._fulfil(Committed(choices))

    def _fulfil(self, action: Action) -> None:
        self.state = self.game.apply(self.state, action, None)
        self.history.append((None, action))

    def _settle(self) -> None:
        while True:
            request = self.game.pending(self.state)
            if request is None or isinstance(request, Commit):
                return
            self._fulfil(self.dealer.fulfil(request, self.game.knowledge(self.state)))

    def play(
        self,
        bots: Mapping[int, Bot] | Sequence[Bot],
        rng: random.Random | None = None,
        *,
        max_actions: int = 100_000,
    ) -> Outcome:
        """Let ``bots`` (one per seat) play to the end; return the outcome."""
        rng = rng or random.Random(0)
        seats = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
        for _ in range(max_actions):
            result = self.outcome
            if result is not None:
                return result
            acting = self.to_act
            if not acting:
                raise CakePartyError("nobody can act and the game is not over")
            seat = acting[0]
            self.apply(seats[seat](self.view(seat), rng), seat)
        raise CakePartyError(f"no outcome after {max_actions} actions")


def new_match(
    game: str,
    players: int = 2,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    orders: Iterable[Sequence[str] | None] = (),
    randoms: Iterable[int] = (),
    remixes: Iterable[Sequence[str] | None] = (),
) -> Match:
    """Start a local match of ``game``; ``orders``/``randoms``/``remixes`` stack the dealer."""
    spec = get_game(game)
    if players not in spec.players:
        allowed = ", ".join(str(p) for p in spec.players)
        raise CakePartyError(f"{game} is for {allowed} players, not {players}")
    state = spec.new_state(players, options)
    dealer = LocalDealer(spec.box(state), seed, orders=orders, randoms=randoms, remixes=remixes)
    return Match(spec, state, dealer)

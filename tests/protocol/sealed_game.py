"""A tiny test-only game whose every round is a sealed choice, then a fair random draw.

"Sealed Pick": each round every seat picks a number 1..5 at once (a ``Commit``); the
highest number picked by exactly one seat scores its value for that seat; then a fair
``Random(players)`` names a lucky seat, who scores one more. Three rounds; the highest
score wins (ties shared). A ``Forfeited`` seat loses at once, whatever the step.

It exercises the networked commit-reveal path (``CHOICE_COMMIT``/``CHOICE_OPEN`` and
``RAND_COMMIT``/``RAND_OPEN``) without any cards. Importing this module registers it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from cakeparty.core import (
    Action,
    Commit,
    Committed,
    Forfeited,
    IllegalActionError,
    Outcome,
    Random,
    RandomResult,
)
from cakeparty.core.actions import Kind, register
from cakeparty.core.game import Game, get_game, register_game
from cakeparty.core.knowledge import Knowledge

NAME = "test-sealed-pick"
ROUNDS = 3
LOW, HIGH = 1, 5


@register
@dataclasses.dataclass(frozen=True)
class Pick(Action):
    """A seat's sealed number for this round."""

    n: int

    TAG: ClassVar[str] = "test-pick"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@dataclass(frozen=True)
class PickState:
    GAME: ClassVar[str] = NAME

    players: int
    round: int = 0
    phase: str = "pick"  # pick | luck | over
    scores: tuple[int, ...] = ()
    opened: tuple[tuple[int, int], ...] = ()  # every opened pick so far: (seat, n)
    lucky: tuple[int, ...] = ()
    forfeit: int | None = None


@dataclass(frozen=True)
class PickView:
    seat: int | None
    round: int
    phase: str
    scores: tuple[int, ...]
    opened: tuple[tuple[int, int], ...]
    legal: tuple[Action, ...]


class SealedPick(Game):
    name = NAME
    title = "Sealed Pick"
    players = (2, 3, 4)

    def __init__(self) -> None:
        self.bots = {
            "random": lambda view, rng: rng.choice(view.legal),
            "high": lambda view, rng: max(view.legal, key=lambda a: a.n),
        }

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> PickState:
        return PickState(players, scores=(0,) * players)

    def pending(self, state: PickState) -> Any:
        if state.phase == "pick":
            return Commit(tuple(range(state.players)))
        if state.phase == "luck":
            return Random(state.players)
        return None

    def to_act(self, state: PickState) -> tuple[int, ...]:
        return tuple(range(state.players)) if state.phase == "pick" else ()

    def legal_actions(self, state: PickState, seat: int) -> list[Action]:
        if state.phase != "pick":
            return []
        return [Pick(n) for n in range(LOW, HIGH + 1)]

    def apply(self, state: PickState, action: Action, seat: int | None) -> PickState:
        if seat is not None:
            raise IllegalActionError(seat, action, "every pick is sealed, then opened together")
        if isinstance(action, Forfeited):
            if state.phase == "over" or not 0 <= action.seat < state.players:
                raise IllegalActionError(None, action, "nobody may forfeit now")
            return replace(state, phase="over", forfeit=action.seat)
        if isinstance(action, Committed) and state.phase == "pick":
            picks = dict(action.choices)
            if sorted(picks) != list(range(state.players)) or not all(
                isinstance(p, Pick) and LOW <= p.n <= HIGH for p in picks.values()
            ):
                raise IllegalActionError(None, action, "one pick 1..5 per seat")
            numbers = [picks[s].n for s in range(state.players)]  # type: ignore[attr-defined]
            scores = list(state.scores)
            unique = [n for n in numbers if numbers.count(n) == 1]
            if unique:
                best = max(unique)
                scores[numbers.index(best)] += best
            opened = state.opened + tuple((s, numbers[s]) for s in range(state.players))
            return replace(state, phase="luck", scores=tuple(scores), opened=opened)
        if isinstance(action, RandomResult) and state.phase == "luck":
            if action.n != state.players:
                raise IllegalActionError(None, action, "a seat is drawn")
            scores = list(state.scores)
            scores[action.value] += 1
            done = state.round + 1 == ROUNDS
            return replace(
                state,
                round=state.round + 1,
                phase="over" if done else "pick",
                scores=tuple(scores),
                lucky=(*state.lucky, action.value),
            )
        raise IllegalActionError(None, action, f"does not answer the {state.phase} step")

    def view(self, state: PickState, seat: int | None) -> PickView:
        legal = tuple(self.legal_actions(state, seat)) if seat is not None else ()
        return PickView(seat, state.round, state.phase, state.scores, state.opened, legal)

    def outcome(self, state: PickState) -> Outcome | None:
        if state.phase != "over":
            return None
        seats = range(state.players)
        if state.forfeit is not None:
            winners = tuple(s for s in seats if s != state.forfeit)
            return Outcome(winners, "forfeit", state.scores, shared=len(winners) > 1)
        top = max(state.scores)
        winners = tuple(s for s in seats if state.scores[s] == top)
        return Outcome(winners, "points", state.scores, shared=len(winners) > 1)

    def knowledge(self, state: PickState) -> Knowledge:
        return Knowledge((), ())

    def box(self, state: PickState) -> tuple[str, ...]:
        return ()


def game() -> Game:
    """The registered Sealed Pick (registered on first use)."""
    try:
        return get_game(NAME)
    except Exception:
        return register_game(SealedPick())


def seeded_bots(players: int, seed: int, kind: str = "random") -> dict[int, Any]:
    """One seeded bot per seat, so two runs decide alike whatever order they run in."""
    bot = game().bots[kind]
    rngs = {s: random.Random(seed * 10 + s) for s in range(players)}
    return {s: (lambda view, _rng, s=s: bot(view, rngs[s])) for s in range(players)}


game()

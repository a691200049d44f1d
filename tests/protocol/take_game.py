"""A tiny test-only game of face-down pieces shown to all, passed sealed and taken at random.

"Piece Take" asks the dealer for the requests a trick-taking game with hidden takes needs:

1. the pile is shuffled; pieces are shown to everyone one by one (``Reveal(to=None)``) and
   each goes face down to a seat — two each (one with the option ``single``);
2. one more piece each is dealt privately (``Reveal(to=(seat,))``);
3. every seat gives one of its pieces to its left neighbour at once (a ``Commit``), each
   passed piece then shown to its receiver (the giver keeps knowing it);
4. each seat in turn takes a piece at random from its left neighbour: the victim first
   re-mixes its pieces, seen by itself alone (``Remix``), unless it holds one piece or
   nobody else knows any of them; then a fair ``Random`` picks one, which moves and is
   shown to the taker and the victim (``Reveal(to=(taker, victim))``);
5. every seat answers ``nope`` in turn, twice round the table (a run of one-seat steps);
6. every piece held is shown to all; the most gold pieces wins (ties shared).

Steps 2 and 3 are skipped with ``single``. Importing this module registers the game.
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
    IllegalActionError,
    Outcome,
    Random,
    RandomResult,
    Remix,
    Remixed,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
)
from cakeparty.core.actions import Kind, register
from cakeparty.core.game import Game, get_game, register_game
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request, check_answer

NAME = "test-piece-take"
BOX = tuple(f"gold-{n}" for n in range(1, 5)) + tuple(f"plain-{n}" for n in range(1, 9))
LAPS = 2  # rounds of ``nope`` answers


@register
@dataclasses.dataclass(frozen=True)
class Give(Action):
    """A seat's sealed choice: give the piece in ``slot`` to the left neighbour."""

    slot: int

    TAG: ClassVar[str] = "test-give"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclasses.dataclass(frozen=True)
class Take(Action):
    """Take a piece at random from the left neighbour."""

    TAG: ClassVar[str] = "test-take"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@register
@dataclasses.dataclass(frozen=True)
class Nope(Action):
    """Let the moment pass."""

    TAG: ClassVar[str] = "test-nope"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@dataclass(frozen=True)
class TakeState:
    GAME: ClassVar[str] = NAME

    players: int
    single: bool
    knowledge: Knowledge
    phase: str = "shuffle"  # shuffle show deal pass passed take remix pick tell answer end over
    pile: tuple[int, ...] = ()
    pieces: tuple[tuple[int, ...], ...] = ()
    count: int = 0  # pieces shown / dealt / takes made / answers given, by phase
    queue: tuple[tuple[int, int], ...] = ()  # passed pieces to show: (slot, receiver)
    picked: int = -1  # the slot just taken


@dataclass(frozen=True)
class TakeView:
    seat: int | None
    phase: str
    pieces: tuple[tuple[int, ...], ...]
    known: Mapping[int, str]
    legal: tuple[Action, ...]


def left(state: TakeState, seat: int) -> int:
    return (seat + 1) % state.players


def _with_piece(state: TakeState, seat: int, slot: int) -> tuple[tuple[int, ...], ...]:
    return tuple((*p, slot) if s == seat else p for s, p in enumerate(state.pieces))


def _without(state: TakeState, slot: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(x for x in p if x != slot) for p in state.pieces)


def needs_remix(state: TakeState, victim: int) -> bool:
    """A victim re-mixes before a random take unless it holds one piece, or nobody but
    itself knows any of its pieces (public facts: the knowledge masks)."""
    held = state.pieces[victim]
    if len(held) < 2:
        return False
    return any(state.knowledge.known_by[s] & ~(1 << victim) for s in held)


class PieceTake(Game):
    name = NAME
    title = "Piece Take"
    players = (2, 3, 4)

    def __init__(self) -> None:
        self.bots = {"random": lambda view, rng: rng.choice(view.legal)}

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> TakeState:
        single = bool((options or {}).get("single", False))
        return TakeState(players, single, Knowledge.public(BOX), pieces=((),) * players, queue=())

    def pending(self, state: TakeState) -> Request | None:
        phase = state.phase
        if phase == "shuffle":
            return Shuffle(tuple(range(len(BOX))))
        if phase == "show":
            return Reveal(state.pile[:1], None)
        if phase == "deal":
            return Reveal(state.pile[:1], (state.count,))
        if phase == "pass":
            return Commit(tuple(range(state.players)))
        if phase == "passed":
            slot, receiver = state.queue[0]
            return Reveal((slot,), (receiver,))
        victim = left(state, state.count)
        if phase == "remix":
            return Remix(victim, state.pieces[victim], (victim,))
        if phase == "pick":
            return Random(len(state.pieces[victim]))
        if phase == "tell":
            return Reveal((state.picked,), (state.count, victim))
        if phase == "end":
            return Reveal(tuple(sorted(s for p in state.pieces for s in p)), None)
        return None

    def to_act(self, state: TakeState) -> tuple[int, ...]:
        if state.phase == "pass":
            return tuple(range(state.players))
        if state.phase == "take":
            return (state.count,)
        if state.phase == "answer":
            return (state.count % state.players,)
        return ()

    def legal_actions(self, state: TakeState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "pass":
            return [Give(s) for s in state.pieces[seat]]
        if state.phase == "take":
            return [Take()]
        return [Nope()]

    def apply(self, state: TakeState, action: Action, seat: int | None) -> TakeState:
        if seat is not None:
            if action not in self.legal_actions(state, seat):
                raise IllegalActionError(seat, action, "not legal now")
            if isinstance(action, Take):
                return replace(
                    state, phase="remix" if needs_remix(state, left(state, seat)) else "pick"
                )
            count = state.count + 1
            done = count == LAPS * state.players
            return replace(state, phase="end" if done else "answer", count=count)
        check_answer(self.pending(state), action)
        knowledge = state.knowledge
        if isinstance(action, Shuffled):
            return replace(
                state, knowledge=knowledge.forget(action.slots), phase="show", pile=action.slots
            )
        if isinstance(action, Remixed):
            knowledge = knowledge.remix(action.slots, action.cards, action.to)
            return replace(state, knowledge=knowledge, phase="pick")
        if isinstance(action, RandomResult):
            victim = left(state, state.count)
            slot = state.pieces[victim][action.value]
            pieces = _with_piece(replace(state, pieces=_without(state, slot)), state.count, slot)
            return replace(state, pieces=pieces, phase="tell", picked=slot)
        if isinstance(action, Committed):
            queue = []
            pieces = state.pieces
            for giver, give in action.choices:
                assert isinstance(give, Give)
                queue.append((give.slot, left(state, giver)))
            for slot, _ in queue:
                pieces = tuple(tuple(x for x in p if x != slot) for p in pieces)
            for slot, receiver in queue:
                pieces = tuple((*p, slot) if s == receiver else p for s, p in enumerate(pieces))
            return replace(state, pieces=pieces, phase="passed", queue=tuple(queue))
        assert isinstance(action, Revealed)
        state = replace(state, knowledge=knowledge.reveal(action.slots, action.cards, action.to))
        phase, count = state.phase, state.count
        if phase == "show":
            slot = state.pile[0]
            pieces = _with_piece(state, count % state.players, slot)
            shown = count + 1
            each = 1 if state.single else 2
            if shown < each * state.players:
                return replace(state, pieces=pieces, pile=state.pile[1:], count=shown)
            nxt = "take" if state.single else "deal"
            return replace(state, pieces=pieces, pile=state.pile[1:], count=0, phase=nxt)
        if phase == "deal":
            pieces = _with_piece(state, count, state.pile[0])
            more = count + 1 < state.players
            return replace(
                state,
                pieces=pieces,
                pile=state.pile[1:],
                count=count + 1 if more else 0,
                phase="deal" if more else "pass",
            )
        if phase == "passed":
            queue = state.queue[1:]
            return replace(state, queue=queue, phase="passed" if queue else "take")
        if phase == "tell":
            more = count + 1 < state.players
            return replace(
                state, count=count + 1 if more else 0, phase="take" if more else "answer"
            )
        return replace(state, phase="over")

    def view(self, state: TakeState, seat: int | None) -> TakeView:
        legal = tuple(self.legal_actions(state, seat)) if seat is not None else ()
        return TakeView(seat, state.phase, state.pieces, state.knowledge.visible(seat), legal)

    def outcome(self, state: TakeState) -> Outcome | None:
        if state.phase != "over":
            return None
        cards = state.knowledge.cards
        golds = tuple(
            sum(1 for s in p if (cards[s] or "").startswith("gold")) for p in state.pieces
        )
        top = max(golds)
        winners = tuple(s for s, g in enumerate(golds) if g == top)
        return Outcome(winners, "gold", golds, shared=len(winners) > 1)

    def knowledge(self, state: TakeState) -> Knowledge:
        return state.knowledge

    def box(self, state: TakeState) -> tuple[str, ...]:
        return BOX


def game() -> Game:
    """The registered Piece Take (registered on first use)."""
    try:
        return get_game(NAME)
    except Exception:
        return register_game(PieceTake())


def seeded_bots(players: int, seed: int) -> dict[int, Any]:
    """One seeded random bot per seat, so two runs decide alike."""
    rngs = {s: random.Random(seed * 10 + s) for s in range(players)}
    return {s: (lambda view, _rng, s=s: rngs[s].choice(view.legal)) for s in range(players)}


game()

"""A small game to search: sealed bids for prizes, with hidden cards and chance.

Each seat holds the bid cards ``b1``–``b4``, shuffled so that only their holder knows
which slot is which; five prizes ``p1``–``p5`` are shuffled into a prize deck. A random
draw names the starting seat. Each of four rounds turns up a prize; every seat bids one
card from its hand — all at once (a ``Commit``) when the option ``sealed`` is on, else
facedown one after the other from the starting seat on — then the bids are turned over and
the single highest bid takes the prize's value in points (a tie at the top: nobody). The
most points win; a tie is a shared win. (Goofspiel with a hidden prize deck.)
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from cakeparty.core.actions import (
    Action,
    Committed,
    Kind,
    RandomResult,
    Revealed,
    Shuffled,
    register,
)
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.game import Game, Outcome, World
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Commit, Random, Request, Reveal, Shuffle

HAND = 4
ROUNDS = 4
BIDS = tuple(f"b{v}" for v in range(1, HAND + 1))
PRIZES = tuple(f"p{v}" for v in range(1, 6))
PRIZE_SLOTS = tuple(range(len(PRIZES)))


def box(players: int) -> tuple[str, ...]:
    """The prizes in slots 0–4, then each seat's bid cards."""
    return PRIZES + BIDS * players


def hand_slots(seat: int) -> tuple[int, ...]:
    start = len(PRIZES) + seat * HAND
    return tuple(range(start, start + HAND))


@register
@dataclass(frozen=True)
class Bid(Action):
    """Bid the card in ``slot`` from the hand."""

    slot: int

    TAG: ClassVar[str] = "sealed-bid"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@dataclass(frozen=True)
class ToyState:
    GAME: ClassVar[str] = "sealed-bids"

    players: int
    sealed: bool
    knowledge: Knowledge
    step: str = "shuffle-prizes"
    dealt: int = 0
    starter: int = 0
    turn: int = 0
    round: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    bids: tuple[int | None, ...] = ()
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class ToyView:
    seat: int
    legal: tuple[Action, ...]
    public: ToyState  # the state with the identities this seat may not know left out


def value(card: str | None) -> int:
    assert card is not None
    return int(card[1:])


class Toy(Game):
    name = "sealed-bids"
    title = "Toy bids"
    players = (2, 3)

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> ToyState:
        sealed = bool((options or {}).get("sealed", True))
        return ToyState(
            players=players,
            sealed=sealed,
            knowledge=Knowledge.public(box(players)),
            hands=tuple(hand_slots(s) for s in range(players)),
            bids=(None,) * players,
            scores=(0,) * players,
        )

    def pending(self, state: ToyState) -> Request | None:
        step = state.step
        if step == "shuffle-prizes":
            return Shuffle(PRIZE_SLOTS)
        if step == "shuffle-hands":
            return Shuffle(state.hands[state.dealt])
        if step == "first":
            return Random(state.players)
        if step == "deal":
            return Reveal(state.hands[state.dealt], (state.dealt,))
        if step == "prize":
            return Reveal((PRIZE_SLOTS[state.round],), None)
        if step == "bid" and state.sealed:
            return Commit(tuple(range(state.players)))
        if step == "open":
            return Reveal(tuple(s for s in state.bids if s is not None), None)
        return None

    def to_act(self, state: ToyState) -> tuple[int, ...]:
        return (state.turn,) if state.step == "bid" and not state.sealed else ()

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if state.step != "bid" or not (state.sealed or seat == state.turn):
            return []
        return [Bid(slot) for slot in state.hands[seat]]

    def apply(self, state: ToyState, action: Action, seat: int | None) -> ToyState:
        know = state.knowledge
        if isinstance(action, Shuffled):
            know = know.forget(action.slots)
            if state.step == "shuffle-prizes":
                return replace(state, knowledge=know, step="shuffle-hands")
            dealt = state.dealt + 1
            if dealt < state.players:
                return replace(state, knowledge=know, dealt=dealt)
            return replace(state, knowledge=know, dealt=0, step="first")
        if isinstance(action, RandomResult):
            return replace(state, starter=action.value, turn=action.value, step="deal")
        if isinstance(action, Revealed):
            know = know.reveal(action.slots, action.cards, action.to)
            if state.step == "deal":
                dealt = state.dealt + 1
                step = "prize" if dealt == state.players else "deal"
                return replace(state, knowledge=know, dealt=dealt, step=step)
            if state.step == "prize":
                return replace(state, knowledge=know, step="bid")
            return self._open(replace(state, knowledge=know))
        if isinstance(action, Committed):
            state2 = state
            for who, choice in action.choices:
                state2 = self._bid(state2, who, choice)
            return replace(state2, step="open")
        if seat is None or state.sealed or seat != state.turn:
            raise IllegalActionError(seat, action, "not this seat's turn")
        after = self._bid(state, seat, action)
        if all(b is not None for b in after.bids):
            return replace(after, step="open")
        return replace(after, turn=(seat + 1) % state.players)

    def _bid(self, state: ToyState, seat: int, action: Action) -> ToyState:
        if not isinstance(action, Bid) or action.slot not in state.hands[seat]:
            raise IllegalActionError(seat, action, "bid a card from the hand")
        hands = list(state.hands)
        hands[seat] = tuple(s for s in hands[seat] if s != action.slot)
        bids = list(state.bids)
        bids[seat] = action.slot
        return replace(state, hands=tuple(hands), bids=tuple(bids))

    def _open(self, state: ToyState) -> ToyState:
        cards = state.knowledge.cards
        bids = [value(cards[slot]) for slot in state.bids if slot is not None]
        top = max(bids)
        scores = list(state.scores)
        if bids.count(top) == 1:
            scores[bids.index(top)] += value(cards[PRIZE_SLOTS[state.round]])
        rnd = state.round + 1
        return replace(
            state,
            scores=tuple(scores),
            bids=(None,) * state.players,
            round=rnd,
            turn=(state.starter + rnd) % state.players,
            step="over" if rnd == ROUNDS else "prize",
        )

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        assert seat is not None
        know = state.knowledge
        cards = tuple(c if know.knows(seat, i) else None for i, c in enumerate(know.cards))
        public = replace(state, knowledge=Knowledge(cards, know.known_by))
        legal = tuple(self.legal_actions(state, seat))
        return ToyView(seat, legal, public)

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.step != "over":
            return None
        top = max(state.scores)
        winners = tuple(s for s in range(state.players) if state.scores[s] == top)
        return Outcome(winners, "points", state.scores, shared=len(winners) > 1)

    def knowledge(self, state: ToyState) -> Knowledge:
        return state.knowledge

    def box(self, state: ToyState) -> tuple[str, ...]:
        return box(state.players)

    def determinize(self, view: Any, rng: random.Random) -> World | None:
        public: ToyState = view.public
        know = public.knowledge
        truth = list(know.cards)
        groups = [(PRIZE_SLOTS, PRIZES)]
        groups += [(hand_slots(seat), BIDS) for seat in range(public.players)]
        for slots, names in groups:
            open_slots = [s for s in slots if truth[s] is None]
            left = list((Counter(names) - Counter(truth[s] for s in slots)).elements())
            rng.shuffle(left)
            for slot, card in zip(open_slots, left, strict=True):
                truth[slot] = card
        cards = tuple(
            card if mask else None for card, mask in zip(truth, know.known_by, strict=True)
        )
        state = dataclasses.replace(public, knowledge=Knowledge(cards, know.known_by))
        return World(state, tuple(c for c in truth if c is not None))


TOY = Toy()


def random_bot(view: ToyView, rng: random.Random) -> Action:
    return rng.choice(view.legal)


def greedy_bot(view: ToyView, rng: random.Random) -> Action:
    """Bids the highest card it holds: a fixed policy a search should learn to exploit."""
    known = view.public.knowledge.cards
    return max(view.legal, key=lambda a: value(known[a.slot]) if isinstance(a, Bid) else 0)


Toy.bots = {"random": random_bot}

"""Cake Master bots. Each is a pure function of the seat's view and a random source.

``random`` picks uniformly among the legal choices. ``normal`` judges cakes by the taste
they can still reach and the customers still within reach (see :mod:`.judge`): it places
its three cards where the whole of its cakes is worth most; it keeps the card it needs
most and passes each neighbour the card that helps that neighbour's face-up cakes least
(never, when it can help it, the card that completes their cake or their customer); solo
it plays for customers alone and spends an exchange when its cards would spoil its cakes.
"""

from __future__ import annotations

import random

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.judge import chances, expected_taste, gain, value, weighed
from cakeparty.core.games.cake_master.scoring import Cake
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.core.games.cake_master.view import MasterView

#: How much a taste point is worth against a customer (a star) in a game with rivals.
TASTE_WEIGHT = 0.3
#: Solo: taste does not score; it only breaks ties between equal placements.
SOLO_TASTE_WEIGHT = 0.01
#: How much a card's help to a neighbour counts against passing it.
FEED = 0.7
#: Solo: exchange when the best placement loses more than this much of the cakes' worth.
SPOIL = 0.2


def random_bot(view: MasterView, rng: random.Random) -> Action:
    """Uniformly at random among the legal choices."""
    return rng.choice(view.legal)


class _Mind:
    """What the bot works from: its view, its cards by name, the customers."""

    def __init__(self, view: MasterView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.customers = view.customer_names
        self.weight = SOLO_TASTE_WEIGHT if view.solo else TASTE_WEIGHT

    def name(self, slot: int) -> str:
        card = self.view.card(slot)
        assert card is not None, "a bot knows the cards in its hand"
        return card

    def cakes(self, seat: int) -> tuple[Cake, ...]:
        return self.view.seat_cakes(seat)

    def worth(self, cakes: tuple[Cake, ...]) -> float:
        return value(cakes, self.customers, self.weight)

    def gain(self, seat: int, slot: int) -> float:
        return gain(self.cakes(seat), self.name(slot), self.customers, self.weight)


def _best_place(mind: _Mind) -> tuple[float, Place]:
    """The placement whose cakes are worth most (:func:`.judge.value`, each cake judged
    once however many placements share it)."""
    own = mind.cakes(mind.seat)
    names = {slot: mind.name(slot) for slot in mind.view.hand}
    customers, weight = mind.customers, mind.weight
    judged: dict[Cake, tuple[float, tuple[float, ...]]] = {}
    best: tuple[float, Place] | None = None
    for action in mind.view.legal:
        if isinstance(action, Place):
            cakes = [list(cake) for cake in own]
            for slot, cake, quarter in zip(
                action.slots, action.cakes, action.quarters, strict=True
            ):
                cakes[cake][quarter] = names[slot]
            parts = []
            for quarters in cakes:
                cake_ = tuple(quarters)
                part = judged.get(cake_)
                if part is None:
                    part = judged[cake_] = (expected_taste(cake_), chances(cake_, customers))
                parts.append(part)
            score = weighed(weight, [t for t, _ in parts], tuple([r for _, r in parts]))
            if best is None or score > best[0]:
                best = (score, action)
    assert best is not None
    return best


def _place(mind: _Mind) -> Action:
    score, action = _best_place(mind)
    if mind.view.solo and mind.view.exchanges_left > 0:
        before = mind.worth(mind.cakes(mind.seat))
        if score < before - SPOIL:
            hand = mind.view.hand
            worst = tuple(sorted(s for s in hand if mind.gain(mind.seat, s) < 0))
            if worst and Exchange(worst) in mind.view.legal:
                return Exchange(worst)
    return action


def _pass(mind: _Mind) -> Action:
    view = mind.view
    left, right = (mind.seat + 1) % view.players, (mind.seat - 1) % view.players
    mine = {s: mind.gain(mind.seat, s) for s in view.hand}
    to_left = {s: mind.gain(left, s) for s in view.hand}
    to_right = {s: mind.gain(right, s) for s in view.hand}
    best: tuple[float, Action] | None = None
    for action in view.legal:
        assert isinstance(action, PassCards)
        kept = next(s for s in view.hand if s not in (action.left, action.right))
        score = mine[kept] - FEED * (to_left[action.left] + to_right[action.right])
        if best is None or score > best[0]:
            best = (score, action)
    assert best is not None
    return best[1]


def _keep(mind: _Mind) -> Action:
    """Two players: keep what helps most; what is given helps the opponent least."""
    view = mind.view
    other = 1 - mind.seat
    among = view.received if view.phase is Phase.KEEP_BACK else view.hand
    best: tuple[float, Action] | None = None
    for slot in among:
        given = [s for s in among if s != slot]
        theirs = max((mind.gain(other, s) for s in given), default=0.0)
        score = mind.gain(mind.seat, slot) - FEED * theirs
        if best is None or score > best[0]:
            best = (score, Keep(slot))
    assert best is not None
    return best[1]


def normal_bot(view: MasterView, rng: random.Random) -> Action:
    """Bakes for taste and customers from its own view; reads what it passes."""
    if len(view.legal) == 1:
        return view.legal[0]
    mind = _Mind(view)
    if view.phase is Phase.PLACE:
        return _place(mind)
    if view.phase is Phase.PASS:
        return _pass(mind)
    if view.phase in (Phase.KEEP, Phase.KEEP_BACK):
        return _keep(mind)
    return rng.choice(view.legal)

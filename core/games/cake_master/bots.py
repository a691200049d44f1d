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
from collections.abc import Iterable

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.judge import (
    best_assignment,
    chances,
    expected_taste,
    gain,
    value,
)
from cakeparty.core.games.cake_master.legal import Listing
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


def _scored_places(
    mind: _Mind,
) -> Iterable[tuple[float, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]]:
    """Every legal placement, in listed order, with what its cakes are worth
    (:func:`.judge.value`; each cake judged once however many placements share it)."""
    legal = mind.view.legal
    if isinstance(legal, Listing):
        spots: Iterable[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]
        spots = legal.placements()
    else:
        spots = ((a.slots, a.cakes, a.quarters) for a in legal if isinstance(a, Place))
    own = [list(cake) for cake in mind.cakes(mind.seat)]
    names = {slot: mind.name(slot) for slot in mind.view.hand}
    customers, weight = mind.customers, mind.weight
    judged: dict[Cake, tuple[float, tuple[float, ...]]] = {}
    for spot in spots:
        slots, on, at = spot
        cakes = [own[0][:], own[1][:], own[2][:]]
        for slot, cake, quarter in zip(slots, on, at, strict=True):
            cakes[cake][quarter] = names[slot]
        parts = []
        for quarters in cakes:
            key = tuple(quarters)
            part = judged.get(key)
            if part is None:
                part = judged[key] = (expected_taste(key), chances(key, customers))
            parts.append(part)
        a, b, c = parts
        # what judge.value gives, from each cake's parts
        yield weight * sum([a[0], b[0], c[0]]) + best_assignment((a[1], b[1], c[1])), spot


def _best_place(mind: _Mind) -> tuple[float, Place]:
    """The placement whose cakes are worth most, the first listed among equals."""
    best: tuple[float, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] | None = None
    for score, spot in _scored_places(mind):
        if best is None or score > best[0]:
            best = (score, spot)
    assert best is not None
    return best[0], Place(*best[1])


def best_places(view: MasterView, count: int) -> list[Action]:
    """The ``count`` placements whose cakes are worth most to ``view``'s seat, best first
    (the first listed among equals): the ones worth a closer look."""
    ranked = sorted(enumerate(_scored_places(_Mind(view))), key=lambda item: (-item[1][0], item[0]))
    return [Place(*spot) for _, (_, spot) in ranked[:count]]


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

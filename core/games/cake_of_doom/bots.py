"""Cake of Doom bots. Each is a pure function of the seat's view and a random source.

``random`` picks uniformly among the legal actions.

``normal`` plays from its own view (see :mod:`.judge` for how it weighs things):

* it plays every Tractor Beam on a discard pile whose top card is worth having, and every
  Abduction against the most dangerous player who holds cards;
* it weighs every target it may bribe — a neutral region by its minimum, one held by
  another player by the value lying on it, DOOM by the game itself — against the cheapest
  offer of each value it can make, with the chance that offer survives the sabotage it can
  expect (the sabotage cards not seen yet, each other player's mischief cards, Krell, the
  Force Fields it is ready to spend); it bribes the best of them, or passes;
* asked to sabotage, it sabotages when its card can sink a bribe worth stopping — DOOM
  always, a region of its own, the leader's bribe before another's — with the smallest
  card that does it, and removes the cards the briber would miss most;
* it answers a sabotage with a Force Field only when the bribe needs it, and keeps one
  for DOOM once it holds a region (its decisive bribe);
* it draws the mix its hand lacks (a few mischief cards, the rest cake) and discards the
  cards it values least.

Every choice is one of ``view.legal``; the random source is never read, so a decision
depends on the view alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_of_doom.actions import (
    Abduct,
    Bribe,
    ChooseMix,
    Discard,
    Draw,
    ForceField,
    Grab,
    NoBribe,
    NoForceField,
    NoSabotage,
    PickCard,
    Remove,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import (
    DOOM,
    FREYA,
    ROUNDS,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.judge import (
    MISCHIEF_KEEP,
    Mind,
    sabotage_amount,
    survival,
)
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.view import DoomView


def random_bot(view: Any, rng: random.Random) -> Action:
    """Uniformly at random among the legal actions."""
    choice: Action = rng.choice(view.legal)
    return choice


#: A bribe is made only when it is expected to be worth more than this, in regions.
BRIBE_THRESHOLD = 0.05
#: The most value above its need an offer is built with.
MAX_MARGIN = 8
#: What a failed bribe costs besides the turn (cards sabotaged away), before scarcity.
FAIL_COST = 0.08
#: A region's value lying on it guards it against thieves: worth this much per point.
GUARD = 0.03
#: Mischief cards the normal bot likes to hold.
MISCHIEF_WANTED = 3
#: Cake cards the normal bot opens with in the advanced game.
OPENING_CAKES = 6


# -- phase 1: grab and steal -----------------------------------------------------------


def _grab(mind: Mind) -> Action | None:
    best: tuple[float, Action] | None = None
    for action in mind.view.legal:
        if isinstance(action, Grab):
            pile = mind.view.cake_discard if action.pile == "cake" else mind.view.mischief_discard
            name = mind.view.card(pile[-1])
            if name is None:
                continue
            worth = mind.keep(name)
            if worth > MISCHIEF_KEEP["tractor-beam"] * mind.scarcity and (
                best is None or worth > best[0]
            ):
                best = (worth, action)
    return None if best is None else best[1]


def _victim_score(mind: Mind, seat: int) -> tuple[float, int]:
    return (mind.threat(seat) + 0.1 * mind.view.hand_sizes[seat], -seat)


def _abduct(mind: Mind) -> Action | None:
    choices = [a for a in mind.view.legal if isinstance(a, Abduct)]
    if not choices:
        return None
    return max(choices, key=lambda a: _victim_score(mind, a.victim))


# -- phase 2: the bribe ----------------------------------------------------------------


def _reserve(mind: Mind, target: str) -> int:
    """Force Fields kept back from a region's bribe for the DOOM bribe to come."""
    if target == DOOM or not mind.mine or mind.view.round >= ROUNDS:
        return 0
    return 1


def offer_chance(mind: Mind, target: str, margin: int, seat: int | None = None) -> float:
    """The chance an offer ``margin`` above its need for ``target`` succeeds."""
    seat = mind.seat if seat is None else seat
    if mind.protected(seat):
        return 1.0 if margin >= 0 else 0.0
    shields = max(0, len(mind.shields()) - _reserve(mind, target))
    chances = mind.sabotage_chances(mind.others(seat))
    return survival(margin, chances, shields, mind.weights)


def _offers(mind: Mind, target: str) -> dict[int, tuple[float, tuple[int, ...]]]:
    """For each value reachable, the cheapest offer (its cost in hand worth, its slots)."""
    need = mind.need(target)
    assert need is not None
    extra = mind.freya(target)
    groups: dict[int, list[int]] = {1: [], 2: []}
    for slot in mind.cakes():
        groups[mind.units(mind.names[slot], target)].append(slot)
    for units in groups:
        groups[units].sort(key=lambda s: (mind.keep(mind.names[s]), s))
    cost = {u: [0.0] for u in groups}
    for units, slots in groups.items():
        for s in slots:
            cost[units].append(cost[units][-1] + mind.keep(mind.names[s]))
    best: dict[int, tuple[float, tuple[int, ...]]] = {}
    for twos in range(len(groups[2]) + 1):
        for ones in range(len(groups[1]) + 1):
            if twos + ones == 0:
                continue
            value = 2 * twos + ones + extra
            if value < need or value > need + MAX_MARGIN:
                continue
            spent = cost[2][twos] + cost[1][ones]
            if value not in best or spent < best[value][0]:
                best[value] = (spent, tuple(sorted(groups[2][:twos] + groups[1][:ones])))
    return best


def _legal_bribe(mind: Mind, target: str, slots: tuple[int, ...]) -> Bribe | None:
    """``slots`` as the engine lists it; the engine lists large hands by value class."""
    bribe = Bribe(target, slots)
    legal = mind.legal_set
    if bribe in legal:
        return bribe
    by_value: dict[int, list[int]] = {}
    for s in sorted(mind.cakes()):
        by_value.setdefault(mind.units(mind.names[s], target), []).append(s)
    counts: dict[int, int] = {}
    for s in slots:
        u = mind.units(mind.names[s], target)
        counts[u] = counts.get(u, 0) + 1
    mapped = tuple(sorted(s for u, k in counts.items() for s in by_value[u][:k]))
    bribe = Bribe(target, mapped)
    return bribe if bribe in legal else None


def _bribe(mind: Mind) -> Action:
    targets = sorted({a.target for a in mind.view.legal if isinstance(a, Bribe)})
    best: tuple[float, Action] = (BRIBE_THRESHOLD, NoBribe())
    fail = FAIL_COST * mind.scarcity
    for target in targets:
        need = mind.need(target)
        if need is None:
            continue
        gain = mind.gain(target)
        for value, (spent, slots) in sorted(_offers(mind, target).items()):
            p = offer_chance(mind, target, value - need)
            guard = GUARD * value if target != DOOM else 0.0
            score = p * (gain + guard - spent) - (1 - p) * fail
            if score > best[0]:
                action = _legal_bribe(mind, target, slots)
                if action is not None:
                    best = (score, action)
    return best[1]


def _play(mind: Mind) -> Action:
    return _grab(mind) or _abduct(mind) or _bribe(mind)


# -- sabotage, Force Fields, removals --------------------------------------------------


def _estimate(mind: Mind) -> int:
    """The offer's value now: as shown, or (blind) as the briber's card count suggests."""
    offer = mind.view.offer
    assert offer is not None
    if offer.value is not None:
        return offer.value
    guess = round(1.2 * len(offer.slots)) + offer.freya
    return max(offer.need, guess)


def _stake(mind: Mind) -> float:
    """How much this seat wants the bribe on the table to fail."""
    offer = mind.view.offer
    assert offer is not None
    if offer.target == DOOM:
        return 3 * mind.gain(DOOM, offer.seat)
    held = mind.region(offer.target)
    assert held is not None
    stake = mind.gain(offer.target, offer.seat)
    if held.holder == mind.seat:
        stake += 1.0
    elif held.holder is not None:
        stake -= 0.5  # a region changes hands between two others
    if offer.seat == mind.leader():
        stake += 0.4
    return stake


def _sabotage(mind: Mind) -> Action:
    view = mind.view
    offer = view.offer
    assert offer is not None
    value = _estimate(mind)
    margin = value - offer.need
    if margin < 0:
        return NoSabotage()
    later = mind.sabotage_chances([s for s in view.asking if s != offer.seat])
    shielded = mind.holds_shield(offer.seat)
    fails_anyway = 1 - survival(margin, later, 0, mind.weights)
    stake = _stake(mind)
    best: tuple[float, Action] = (0.0, NoSabotage())
    for action in view.legal:
        if not isinstance(action, Sabotage):
            continue
        bite = sabotage_amount(action.kind, value)
        fails = 1 - survival(margin - bite, later, 0, mind.weights)
        helps = (1 - shielded) * (fails - fails_anyway)
        score = stake * helps - MISCHIEF_KEEP[action.kind] * mind.scarcity
        if score > best[0]:
            best = (score, action)
    return best[1]


def _force_field(mind: Mind) -> Action:
    view = mind.view
    offer = view.offer
    assert offer is not None
    shields = [a for a in view.legal if isinstance(a, ForceField)]
    if not shields:
        return NoForceField()
    value = offer.value
    if value is None:  # blind: this seat knows its own offer
        names = [view.card(s) for s in offer.slots]
        value = sum(mind.units(n, offer.target) for n in names if n is not None) + offer.freya
    reserve = _reserve(mind, offer.target)
    if reserve >= len(mind.shields()):
        return NoForceField()  # the last Force Field is kept for DOOM
    play = offer.sabotages[-1]
    bite = sabotage_amount(play.kind, value)
    margin = value - offer.need
    later = mind.sabotage_chances(list(view.asking))
    spare = max(0, len(mind.shields()) - 1 - reserve)
    without = survival(margin - bite, later, spare, mind.weights)
    with_it = survival(margin, later, spare, mind.weights)
    keep = MISCHIEF_KEEP["force-field"] * mind.scarcity
    gain = mind.gain(offer.target)
    if gain * (with_it - without) > keep:
        return shields[0]
    return NoForceField()


def _remove(mind: Mind) -> Action:
    """Take away the cards the briber would miss most (a card gone is not returned)."""
    view = mind.view
    offer = view.offer
    assert offer is not None
    left = dict(zip(offer.slots, offer.left, strict=True))
    best: tuple[float, Action] | None = None
    for action in view.legal:
        assert isinstance(action, Remove)
        score = 0.0
        for slot in set(action.slots):
            if left.get(slot, 0) - action.slots.count(slot) <= 0:
                name = view.card(slot)
                score += 1.0 + (0.5 if name is not None and card(name).specialty else 0.0)
        if best is None or score > best[0]:
            best = (score, action)
    assert best is not None
    return best[1]


# -- draws, discards, picks ------------------------------------------------------------


def _draw(mind: Mind) -> Action:
    view = mind.view
    held = len(view.hand)
    mischief = sum(1 for s in view.hand if not is_cake_slot(s))
    draws = [a for a in view.legal if isinstance(a, Draw)]
    count = draws[0].count
    wanted = max(2, min(MISCHIEF_WANTED + 1, round(0.3 * (held + count))))
    want = max(0, wanted - mischief)
    return min(draws, key=lambda a: (abs(a.mischief - want), a.mischief))


def _discard(mind: Mind) -> Action:
    view = mind.view
    task = view.task
    assert task is not None
    legal = [a for a in view.legal if isinstance(a, Discard)]
    if task.upto:
        # North Africa: swap the cards worth less than a fresh draw
        fresh = 0.15 * mind.scarcity
        poor = sorted(
            (s for s in view.hand if mind.keep(mind.names[s]) < fresh),
            key=lambda s: (mind.keep(mind.names[s]), s),
        )
        wanted = set(poor[: task.count])
        for action in legal:
            if _same_sorts(mind, action.slots, wanted):
                return action
        return min(legal, key=lambda a: len(a.slots))
    return min(legal, key=lambda a: (_discard_cost(mind, a.slots), a.slots))


def _same_sorts(mind: Mind, slots: tuple[int, ...], wanted: set[int]) -> bool:
    def sorts(group: Any) -> list[str]:
        return sorted(card(mind.names[s]).sort for s in group)

    return sorts(slots) == sorts(wanted)


def _discard_cost(mind: Mind, slots: tuple[int, ...]) -> float:
    """What discarding ``slots`` loses: their worth, more for the kind the hand lacks."""
    mischief = sum(1 for s in mind.view.hand if not is_cake_slot(s))
    cakes = len(mind.view.hand) - mischief
    total = 0.0
    for s in slots:
        worth = mind.keep(mind.names[s])
        if not is_cake_slot(s) and mischief > MISCHIEF_WANTED + 1:
            worth *= 0.6
        if is_cake_slot(s) and cakes <= 4:
            worth *= 1.5
        total += worth
    return total


def _pick(mind: Mind) -> Action:
    best: tuple[float, Action] | None = None
    for action in mind.view.legal:
        assert isinstance(action, PickCard)
        name = mind.view.card(action.slot)
        worth = mind.keep(name) if name is not None else 0.0
        if best is None or worth > best[0]:
            best = (worth, action)
    assert best is not None
    return best[1]


def _victim(mind: Mind) -> Action:
    def victim(action: Any) -> tuple[float, int]:
        return _victim_score(mind, action.victim)

    return max(mind.view.legal, key=victim)


def _mix(mind: Mind) -> Action:
    wanted = OPENING_CAKES + (1 if mind.alien == FREYA else 0)
    return min(
        (a for a in mind.view.legal if isinstance(a, ChooseMix)),
        key=lambda a: abs(a.cakes - wanted),
    )


_PHASES: dict[Phase, Callable[[Mind], Action]] = {
    Phase.MIX: _mix,
    Phase.PLAY: _play,
    Phase.SABOTAGE: _sabotage,
    Phase.FORCE_FIELD: _force_field,
    Phase.REMOVE: _remove,
    Phase.DRAW: _draw,
    Phase.DISCARD: _discard,
    Phase.PICK: _pick,
    Phase.ROB: _victim,
    Phase.PEEK: _victim,
}


def normal_bot(view: DoomView, rng: random.Random) -> Action:
    """Bribes, sabotages and keeps its Force Fields by the odds it reads from its view."""
    if len(view.legal) == 1:
        return view.legal[0]
    mind = Mind(view)
    decide = _PHASES.get(view.phase)
    if decide is None:
        return view.legal[0]
    return decide(mind)


#: every level of bot this game has, by name
BOTS: Mapping[str, Callable[[Any, random.Random], Action]] = {
    "random": random_bot,
    "normal": normal_bot,
}

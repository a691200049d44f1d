"""Cake Duel bots. Each is a pure function of the seat's view and a random source.

``random`` picks uniformly among the legal actions. ``normal`` counts cards and plays for
the bout: every choice is scored as a chance of winning the bout, where a challenge is
worth the chance that the claim is a bluff and letting a claim stand is worth the cake
position it leaves (see :func:`position`). It tells the truth when it can, bluffs with the
cards it needs least when the odds of being caught are low enough, and challenges claims
that are improbable or impossible from what it has seen (a third Wizard while it holds
two is caught every time).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from operator import itemgetter

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_duel.actions import (
    AGREE,
    CHALLENGE,
    KEEP_HIDDEN,
    NO_ACTION,
    NO_TRADE,
    PASS,
    Block,
    Claim,
    Declare,
    Lead,
    Summon,
    Take,
    Trade,
)
from cakeparty.core.games.cake_duel.beliefs import Beliefs, at_least
from cakeparty.core.games.cake_duel.cards import (
    ANGEL,
    ASSASSIN,
    CARDS,
    CORE_NAMES,
    MIMIC,
    ORACLE,
    PIERROT,
    PRIEST,
    QUARTERMASTER,
    SCOUT,
    SUMMONER,
)
from cakeparty.core.games.cake_duel.claims import (
    Blocking,
    attack_names,
    block_names,
    claim_cap,
    max_block,
)
from cakeparty.core.games.cake_duel.state import Phase, Play
from cakeparty.core.games.cake_duel.view import DuelView


def random_bot(view: DuelView, rng: random.Random) -> Action:
    """Uniformly at random among the legal actions."""
    return rng.choice(view.legal)


# -- judging a position ----------------------------------------------------------------

#: How much one cake of lead is worth, in the logistic curve of :func:`position`.
LEAD_WEIGHT = 0.3

#: What keeping a card in hand is worth, in cakes, when the deck cannot replace it.
KEEP = {
    "soldier": 1.0,
    "archer": 1.0,
    "wizard": 1.6,
    "defender": 0.9,
    "scientist": 0.8,
    "sir-wolfy": 0.1,
    ASSASSIN: 2.0,
    SCOUT: 1.2,
    SUMMONER: 1.2,
    QUARTERMASTER: 0.9,
    ORACLE: 1.0,
    PRIEST: 1.3,
    ANGEL: 1.5,
    PIERROT: 1.4,
    MIMIC: 0.6,
}


def position(mine: float, theirs: float) -> float:
    """Chance of winning the bout with ``mine`` cakes against ``theirs``."""
    if theirs <= 0:
        return 1.0
    if mine <= 0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-LEAD_WEIGHT * (mine - theirs)))


class _Mind:
    """One decision: the view, what it implies, and the scoring helpers."""

    def __init__(self, view: DuelView, rng: random.Random) -> None:
        assert view.seat is not None
        self.view = view
        self.rng = rng
        self.seat = view.seat
        self.side = view.seat % 2
        self.beliefs = Beliefs.of(view)
        self.legal = frozenset(view.legal)
        # one decision asks the same questions of its beliefs many times over
        self.block_chances: dict[tuple[int, tuple[str, ...]], float] = {}
        self.summoned: dict[int, float] = {}
        self.count_total: int | None = None
        self.costs: dict[tuple[str, ...], float] = {}

    @property
    def mine(self) -> int:
        return self.view.cakes[self.side]

    @property
    def theirs(self) -> int:
        return self.view.cakes[1 - self.side]

    def hand(self, seat: int | None = None) -> list[tuple[int, str]]:
        seat = self.seat if seat is None else seat
        return [(s, self.view.known[s]) for s in self.view.hands[seat] if s in self.view.known]

    def card_cost(self, cards: Iterable[str]) -> float:
        """What playing ``cards`` costs, in cakes: little while the deck refills the hand."""
        key = tuple(cards)
        cost = self.costs.get(key)
        if cost is None:
            factor = 0.08 if self.view.deck_count >= 2 * len(key) else 0.35
            cost = factor * sum(KEEP[c] for c in key)
            self.costs[key] = cost
        return cost

    def best(self, scored: Iterable[tuple[float, Action]]) -> Action:
        gauss, allowed = self.rng.gauss, self.legal
        legal = [(score + gauss(0.0, 0.01), a) for score, a in scored if a in allowed]
        if not legal:
            return self.rng.choice(self.view.legal)
        return max(legal, key=itemgetter(0))[1]


# -- attacking -------------------------------------------------------------------------


def _theft(name: str, count: int, mind: _Mind, target: int) -> float:
    """Cakes a claim would take if it stands unblocked."""
    if name == SUMMONER:
        expect = mind.summoned.get(target)
        if expect is None:
            expect = mind.beliefs.most_expected_in_hand(target)
            mind.summoned[target] = expect
        return count * 2 * expect
    return count * CARDS[name].steal


def _bonus(name: str, count: int) -> float:
    """The worth, in cakes, of what a claim does besides stealing."""
    if name in (SCOUT, ORACLE):
        return 0.6
    if name == QUARTERMASTER:
        return 0.5 * count
    return 0.0


def _block_chance(mind: _Mind, target: int, name: str) -> float:
    """Chance the target truly holds a card able to block an attacker called ``name``."""
    names = block_names(name, mind.view.options)
    key = (target, names)
    chance = mind.block_chances.get(key)
    if chance is None:
        chance = mind.beliefs.holds(target, names)
        mind.block_chances[key] = chance
    return chance


def _plausible(mind: _Mind, name: str, count: int, hand_size: int) -> float:
    """How believable ``count`` × ``name`` looks to someone who cannot see this hand."""
    if mind.count_total is None:
        mind.count_total = max(1, sum(mind.beliefs.counts.values()))
    total = mind.count_total
    p = mind.beliefs.counts[name] / total
    if name in CORE_NAMES:
        p += mind.beliefs.counts[PIERROT] / total
    return max(0.02, at_least(count, hand_size, p))


def _caught(mind: _Mind, name: str, count: int, hand_size: int, stake: float) -> float:
    """Chance a bluff of ``count`` × ``name`` is challenged; bigger stakes draw more."""
    doubt = 1.0 - _plausible(mind, name, count, hand_size)
    weight = min(1.0, 0.3 + 0.2 * stake)
    return min(0.95, 0.05 + 0.5 * doubt * weight)


def _claim_value(mind: _Mind, name: str, cards: list[str], target: int, true: bool) -> float:
    count = len(cards)
    theft = _theft(name, count, mind, target)
    blocked = _block_chance(mind, target, name)
    expect = theft * (1.0 - 0.6 * blocked) + _bonus(name, count)
    after = position(mind.mine + expect, mind.theirs - expect)
    if true:
        challenged = 0.1  # a challenge of a true claim wins the bout
        value = challenged * 1.0 + (1 - challenged) * after
    else:
        hand_size = len(mind.view.hands[mind.seat])
        caught = _caught(mind, name, count, hand_size, theft)
        value = (1 - caught) * after
    return value - mind.card_cost(cards) / 10


def _claims(mind: _Mind, target: int) -> list[tuple[float, Action]]:
    """Candidate claims: every true claim, and bluffs made with the least useful cards."""
    options = mind.view.options
    known = mind.view.known
    hand = mind.hand()
    scored: list[tuple[float, Action]] = []
    spare = sorted(hand, key=lambda pair: KEEP[pair[1]])
    held: dict[str, list[int]] = {}
    for s, c in hand:
        held.setdefault(c, []).append(s)
    jokers = held.get(PIERROT, [])
    mimics = held.get(MIMIC, [])
    # the bluffs play the one or two cards needed least, whatever the name claimed
    bluffs = [tuple(s for s, _ in spare[:n]) for n in range(1, min(2, len(spare)) + 1)]
    for name in attack_names(options):
        cap = claim_cap(name, options)
        real = held.get(name, [])
        truthful = real + (jokers if name in CORE_NAMES else []) + (mimics if real else [])
        for n in range(1, min(cap, len(truthful)) + 1):
            slots = tuple(truthful[:n])
            cards = [known[s] for s in slots]
            value = _claim_value(mind, name, cards, target, true=True)
            scored.append((value, Claim(slots, name, target)))
        for slots in bluffs[:cap]:
            cards = [known[s] for s in slots]
            if all(c == name for c in cards):
                continue
            value = _claim_value(mind, name, cards, target, true=False)
            scored.append((value, Claim(slots, name, target)))
    return scored


def _attack(mind: _Mind) -> Action:
    view = mind.view
    others_passed = view.passes >= view.players - 1
    if others_passed:
        # passing now ends the bout: the side with more cakes takes it
        pass_value = 1.0 if mind.mine > mind.theirs else 0.0
    else:
        pass_value = position(mind.mine, mind.theirs) - 0.03
    scored: list[tuple[float, Action]] = [(pass_value, PASS)]
    targets = [s for s in range(view.players) if s % 2 != mind.side]
    for target in targets:
        scored.extend(_claims(mind, target))
    return mind.best(scored)


# -- defending -------------------------------------------------------------------------


def _loss(mind: _Mind, attack: Play, blocking: Blocking) -> float:
    """Cakes this seat's side loses if the attack resolves with ``blocking``."""
    active = attack.count - blocking.cancelled
    stealing = max(0, active - blocking.blocked)
    if attack.name == SUMMONER:
        mine = [c for _, c in mind.hand()]
        most = max((mine.count(n) for n in set(mine)), default=0)
        return 2 * most * stealing
    loss = float(stealing * CARDS[attack.name].steal)
    if attack.name in (SCOUT, ORACLE) and active:
        loss += 0.5
    if attack.name == QUARTERMASTER:
        loss += 0.3 * active
    return loss


def _after_loss(mind: _Mind, loss: float) -> float:
    taken = min(loss, mind.mine)
    return position(mind.mine - taken, mind.theirs + taken)


def _respond(mind: _Mind) -> Action:
    view = mind.view
    attack = view.attack
    assert attack is not None
    truth = mind.beliefs.truth(attack)
    unblocked = Blocking(0, 0, 0)
    stake = _loss(mind, attack, unblocked)
    scored: list[tuple[float, Action]] = [
        (1.0 - truth, CHALLENGE),
        (_after_loss(mind, stake), NO_ACTION),
    ]
    hand = mind.hand()
    spare = sorted(hand, key=lambda pair: KEEP[pair[1]])
    # many blocks leave the attack the same effect: each outcome is weighed once
    outcomes: dict[Blocking, float] = {}

    def after(play: Play) -> float:
        blocking = Blocking.of(attack, play)
        value = outcomes.get(blocking)
        if value is None:
            value = outcomes[blocking] = _after_loss(mind, _loss(mind, attack, blocking))
        return value

    for name in block_names(attack.name, view.options):
        most = max_block(attack, name, view.options)
        real = [s for s, c in hand if c == name]
        jokers = [s for s, c in hand if c == PIERROT and name in CORE_NAMES]
        mimics = [s for s, c in hand if c == MIMIC]
        truthful = real + jokers + (mimics if real else [])
        for n in range(1, min(most, len(truthful)) + 1):
            play = Play(mind.seat, tuple(truthful[:n]), name)
            cost = mind.card_cost(view.known[s] for s in play.slots) / 10
            scored.append((0.1 + 0.9 * after(play) - cost, Block(play.slots, name)))
        for n in range(1, min(most, len(spare)) + 1):
            slots = tuple(s for s, _ in spare[:n])
            cards = [view.known[s] for s in slots]
            if all(c == name for c in cards):
                continue
            play = Play(mind.seat, slots, name)
            caught = _caught(mind, name, n, len(view.hands[mind.seat]) + n, stake)
            scored.append(
                ((1 - caught) * after(play) - mind.card_cost(cards) / 10, Block(slots, name))
            )
    return mind.best(scored)


def _reply(mind: _Mind) -> Action:
    view = mind.view
    attack, block = view.attack, view.block
    assert attack is not None and block is not None
    truth = mind.beliefs.truth(block)
    # what the attack still takes if the block stands, seen from the attacker's side
    blocking = Blocking.of(attack, block)
    active = attack.count - blocking.cancelled
    stealing = max(0, active - blocking.blocked)
    gain = stealing * CARDS[attack.name].steal + (_bonus(attack.name, active) if active else 0)
    accept = position(mind.mine + gain, mind.theirs - gain)
    return mind.best([(1.0 - truth, CHALLENGE), (accept, NO_ACTION)])


# -- the rest ----------------------------------------------------------------------------


def _summon(mind: _Mind) -> Action:
    target = mind.view.target
    assert target is not None
    scored = [(mind.beliefs.expected_in_hand(target, name), Summon(name)) for name in CARDS]
    return mind.best(scored)


def _lead(mind: _Mind) -> Action:
    view = mind.view
    scored = []
    for action in view.legal:
        assert isinstance(action, Lead)
        cards = [view.known.get(s) for s in view.hands[action.seat]]
        strength = sum(CARDS[c].steal for c in cards if c is not None and CARDS[c].type.attacker)
        scored.append((float(strength), action))
    return mind.best(scored)


def _trade(mind: _Mind) -> Action:
    """Give the teammate an attacker for a blocker when it holds none to attack with."""
    view = mind.view
    mate = (mind.seat + 2) % 4
    mine = mind.hand()
    theirs = mind.hand(mate)
    if any(CARDS[c].type.attacker for _, c in theirs):
        return NO_TRADE
    gives = [s for s, c in mine if CARDS[c].type.attacker]
    takes = [s for s, c in theirs if not CARDS[c].type.attacker]
    if gives and takes:
        offer = Trade((gives[0],), (takes[0],))
        if offer in mind.legal:
            return offer
    del view
    return NO_TRADE


def normal_bot(view: DuelView, rng: random.Random) -> Action:
    """A card-counting player that tells the truth when it can and bluffs when it pays."""
    if len(view.legal) == 1:
        return view.legal[0]
    mind = _Mind(view, rng)
    phase = view.phase
    if phase is Phase.ATTACK:
        return _attack(mind)
    if phase is Phase.RESPOND:
        return _respond(mind)
    if phase is Phase.REPLY:
        return _reply(mind)
    if phase is Phase.SUMMON:
        return _summon(mind)
    if phase is Phase.LEAD:
        return _lead(mind)
    if phase is Phase.TRADE:
        return _trade(mind)
    if phase is Phase.TRADE_ANSWER:
        return AGREE
    if phase is Phase.PRIEST:
        return mind.best([(0.0, a) for a in view.legal if isinstance(a, Take)])
    if phase is Phase.DECLARE:
        return next(a for a in view.legal if isinstance(a, Declare))
    if phase is Phase.WOLFY and KEEP_HIDDEN in view.legal:
        # a tournament leaves the reveal to its owner: a Sir Wolfy kept hidden leaves the
        # other side less sure of every card still unseen
        return KEEP_HIDDEN
    return rng.choice(view.legal)

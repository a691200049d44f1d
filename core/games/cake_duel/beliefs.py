"""What a seat can infer about hidden cards from its own view: card counting and odds.

Everything here reads a :class:`DuelView` only, so a bot using it never knows more than a
human in its seat would.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from typing import Any

from cakeparty.core.games.cake_duel.cards import (
    CARDS,
    CORE_NAMES,
    MIMIC,
    PIERROT,
)
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.events import Challenged, Claimed
from cakeparty.core.games.cake_duel.flow import build_box
from cakeparty.core.games.cake_duel.state import DuelOptions, Play
from cakeparty.core.games.cake_duel.view import DuelView


@lru_cache(maxsize=4096)
def at_least(k: int, draws: int, p: float) -> float:
    """P(at least ``k`` successes in ``draws`` independent tries of chance ``p``)."""
    if k <= 0:
        return 1.0
    if k > draws or p <= 0.0:
        return 0.0
    p = min(p, 1.0)
    return sum(comb(draws, j) * p**j * (1 - p) ** (draws - j) for j in range(k, draws + 1))


@cache
def _box_counts(options: DuelOptions) -> tuple[tuple[tuple[str, int], ...], ...]:
    box = Counter(build_box(options))
    core = tuple((name, n) for name, n in box.items() if not CARDS[name].special)
    specials = tuple((name, n) for name, n in box.items() if CARDS[name].special)
    return core, specials


def prior_counts(view: DuelView) -> Counter[str]:
    """Expected copies of each card in the deck before anything is seen."""
    return Counter(_prior_counts(view.options))


@cache
def _prior_counts(options: DuelOptions) -> Counter[str]:
    core, specials = _box_counts(options)
    counts, pool = Counter(dict(core)), Counter(dict(specials))
    k = options.specials
    if k:
        size = sum(pool.values())
        for name, n in pool.items():
            counts[name] += k * n / size  # type: ignore[assignment]
    return counts


def game_counts(view: DuelView) -> tuple[Counter[str], Counter[str]]:
    """Expected and greatest possible copies of each card in this duel's deck.

    The core cards are certain. Each special drawn into the deck is one of the special set;
    the specials already seen this duel are certainly in, the rest are equally likely.
    """
    counts, most = _shared_game_counts(view)
    return Counter(counts), Counter(most)


def _shared_game_counts(view: DuelView) -> tuple[Counter[str], Counter[str]]:
    """:func:`game_counts`, shared by every view alike: read them, never change them."""
    if not view.options.specials:
        return _game_counts(view.options, (), ())
    # what the seat sees right now may show more copies than the names seen so far
    # (in the order the view gives them: the same sums in the same order, to the last bit)
    now = tuple(card for card in view.known.values() if CARDS[card].special)
    return _game_counts(view.options, tuple(view.specials_seen), now)


@lru_cache(maxsize=1024)
def _game_counts(
    options: DuelOptions, specials_seen: tuple[str, ...], now: tuple[str, ...]
) -> tuple[Counter[str], Counter[str]]:
    core, specials = _box_counts(options)
    counts, pool = Counter(dict(core)), Counter(dict(specials))
    most = Counter(counts)
    k = options.specials
    if not k:
        return counts, most
    seen = Counter(specials_seen)
    present = seen | Counter(now)
    for name, n in present.items():
        counts[name] += n
        most[name] += n
        pool[name] -= n
    left = k - sum(present.values())
    size = sum(pool.values())
    if left > 0 and size > 0:
        for name, n in pool.items():
            if n > 0:
                counts[name] += left * n / size  # type: ignore[assignment]
                most[name] += min(n, left)
    return counts, most


@dataclass
class Beliefs:
    """Card counting for one seat: what is unknown, and how likely a claim is true."""

    view: DuelView
    counts: Counter[str]  # expected copies in the deck of this duel
    prior: Counter[str]  # the same before anything was seen
    unknown: dict[str, float]  # expected copies among the slots this seat does not know
    possible: dict[str, int]  # greatest possible copies among those slots
    unknown_total: int
    bluff_rate: dict[int, float]  # per opposing side: how often its claims are bluffs

    @classmethod
    def of(cls, view: DuelView) -> Beliefs:
        # the counts and the prior are shared values: a belief only reads them
        counts, most = _shared_game_counts(view)
        total = view.deck_count + view.discard_count + sum(len(h) for h in view.hands)
        known = Counter(view.known.values())
        for cards in view.glimpses.values():
            known.update(cards)  # seen in a hand, which slot unknown: still not in the pool
        # (``max(0, x)`` written out: the same values, without a call per card name)
        unknown: dict[str, float] = {}
        possible: dict[str, int] = {}
        for name in CARDS:
            seen = known.get(name, 0)
            left = counts.get(name, 0) - seen
            unknown[name] = left if left > 0.0 else 0.0
            most_left = most.get(name, 0) - seen
            possible[name] = most_left if most_left > 0 else 0
        unknown_total = max(0, total - sum(known.values()))
        prior = _prior_counts(view.options)
        return cls(view, counts, prior, unknown, possible, unknown_total, _bluff_rates(view))

    def chance(self, name: str) -> float:
        """Chance that one slot this seat does not know holds ``name``."""
        if self.unknown_total <= 0:
            return 0.0
        return min(1.0, self.unknown[name] / self.unknown_total)

    def chance_as(self, name: str, count: int) -> float:
        """Chance that an unknown slot would pass as ``name`` in a claim of ``count``."""
        p = self.chance(name)
        if name in CORE_NAMES:
            p += self.chance(PIERROT)
        if count >= 2:
            p += self.chance(MIMIC)
        return min(1.0, p)

    def public_chance_as(self, name: str, count: int) -> float:
        """The same for someone who has seen nothing: how plausible the claim looks."""
        total = max(1.0, sum(self.prior.values()))
        p = self.prior[name]
        if name in CORE_NAMES:
            p += self.prior[PIERROT]
        if count >= 2:
            p += self.prior[MIMIC]
        return min(1.0, p / total)

    def unknown_slots(self, slots: tuple[int, ...]) -> list[int]:
        return [s for s in slots if s not in self.view.known]

    def truth(self, play: Play) -> float:
        """Probability that ``play`` is a true claim, from this seat's knowledge."""
        view = self.view
        known = [view.known[s] for s in play.slots if s in view.known]
        hidden = play.count - len(known)
        for card in known:
            if card != play.name and not (
                (card == PIERROT and play.name in CORE_NAMES) or card == MIMIC
            ):
                return 0.0
        if hidden == 0:
            return 1.0 if is_truthful(play.name, known) else 0.0
        wild = self.possible[PIERROT] if play.name in CORE_NAMES else 0
        if hidden >= 2:
            wild += self.possible[MIMIC]
        if self.possible[play.name] + wild < hidden:
            return 0.0  # not enough copies left anywhere this seat cannot see
        # the claimer's hand before the claim: its unknown cards plus the ones played
        hand = self.unknown_slots(view.hands[play.seat])
        draws = len(hand) + hidden
        has = at_least(hidden, draws, self.chance_as(play.name, play.count))
        if has <= 0:
            return 0.0
        # A bluffer picks claims that look plausible to everyone, an honest player claims
        # what it holds: what this seat knows (its own hand above all) makes the claim more
        # or less likely than it looks in public, and that ratio is the evidence.
        looks = at_least(hidden, draws, self.public_chance_as(play.name, play.count))
        evidence = min(1.5, has / max(looks, 1e-9))
        f = self.bluff_rate.get(view.side(play.seat), 0.2)
        odds = (1 - f) / f * evidence
        return odds / (1 + odds)

    def holds(self, seat: int, names: tuple[str, ...], count: int = 1) -> float:
        """Chance that ``seat``'s hand holds at least ``count`` cards among ``names``."""
        view = self.view
        glimpsed = view.glimpses.get(seat, ())
        sure = sum(1 for s in view.hands[seat] if view.known.get(s) in names)
        sure += sum(1 for c in glimpsed if c in names)
        hidden = max(0, len(self.unknown_slots(view.hands[seat])) - len(glimpsed))
        p = sum(self.chance(n) for n in names)
        return at_least(count - sure, hidden, p)

    def expected_in_hand(self, seat: int, name: str) -> float:
        """Expected copies of ``name`` in ``seat``'s hand (seen slots and glimpses count)."""
        view = self.view
        glimpsed = view.glimpses.get(seat, ())
        sure = sum(1 for s in view.hands[seat] if view.known.get(s) == name)
        sure += glimpsed.count(name)
        hidden = max(0, len(self.unknown_slots(view.hands[seat])) - len(glimpsed))
        return sure + hidden * self.chance(name)

    def most_expected_in_hand(self, seat: int) -> float:
        """The most :meth:`expected_in_hand` gives ``seat`` for any one card name."""
        view = self.view
        glimpsed = view.glimpses.get(seat, ())
        known = [view.known.get(s) for s in view.hands[seat]]
        hidden = max(0, len(self.unknown_slots(view.hands[seat])) - len(glimpsed))
        return max(
            known.count(name) + glimpsed.count(name) + hidden * self.chance(name) for name in CARDS
        )


# A match's log only grows, and every decision reads it whole: the challenges counted in
# the last log read are kept, and a longer log that begins with it is read from there on.
_counted: list[tuple[tuple[Any, ...], tuple[int, int, int, int]]] = []


def _challenges(log: tuple[Any, ...]) -> tuple[int, int, int, int]:
    """Challenges in ``log`` whose claim was true, per side of the claimer, then bluffs."""
    start, told = 0, (0, 0, 0, 0)
    if _counted:
        seen, counts = _counted[0]
        if len(seen) <= len(log) and log[: len(seen)] == seen:
            start, told = len(seen), counts
    tally = list(told)
    for event in log[start:]:
        if isinstance(event, Challenged):
            tally[(0 if event.truthful else 2) + event.claimer % 2] += 1
    result = (tally[0], tally[1], tally[2], tally[3])
    _counted[:] = [(log, result)]
    return result


def _bluff_rates(view: DuelView) -> dict[int, float]:
    """How often each side's claims turned out (or must be) bluffs, with a prior of 20 %."""
    told = _challenges(view.log)
    truths: Counter[int] = Counter({0: told[0], 1: told[1]})
    bluffs: Counter[int] = Counter({0: told[2], 1: told[3]})
    for claim in [e for e in view.events if isinstance(e, Claimed)]:
        # this bout's claims whose cards this seat has since seen (a look, a Priest)
        if claim.seat % 2 != view.my_side and all(s in view.known for s in claim.slots):
            cards = [view.known[s] for s in claim.slots]
            if not is_truthful(claim.name, cards):
                bluffs[view.side(claim.seat)] += 1
    return {side: (bluffs[side] + 0.6) / (bluffs[side] + truths[side] + 3.0) for side in (0, 1)}

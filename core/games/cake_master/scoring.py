"""Scoring a cake: its geometry, its taste points, the customers it meets, and stars.

A cake is a ring of 4 quarters (0–3, shown as 1–4); quarter 3 touches quarter 0. The seam
after quarter ``i`` joins the right edge of quarter ``i`` to the left edge of quarter
``i + 1``. A seam where both edges carry a half-rosette is a complete rosette; a
half-rosette facing a plain edge or an empty quarter is unmatched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from cakeparty.core.games.cake_master.cards import CARDS, CUSTOMERS, CakeCard

QUARTERS = 4

#: A cake: the card name on each quarter, ``None`` where the quarter is empty.
Cake = tuple[str | None, ...]

EMPTY_CAKE: Cake = (None,) * QUARTERS

#: icing points by the number of colours on a cake
ICING_POINTS = {0: 0, 1: 3, 2: 1, 3: 0}


def cards_of(cake: Cake) -> list[CakeCard]:
    return [CARDS[c] for c in cake if c is not None]


def finished(cake: Cake) -> bool:
    return all(c is not None for c in cake)


def seams(cake: Cake) -> tuple[tuple[CakeCard | None, CakeCard | None], ...]:
    """Each seam as (card on its left, card on its right), ``None`` for an empty quarter."""
    cards = [None if c is None else CARDS[c] for c in cake]
    return tuple((cards[i], cards[(i + 1) % QUARTERS]) for i in range(QUARTERS))


def rosettes(cake: Cake) -> int:
    """Complete rosettes: seams where both edges carry a half-rosette."""
    return sum(1 for a, b in seams(cake) if a is not None and b is not None and a.right and b.left)


def unmatched(cake: Cake) -> int:
    """Half-rosettes facing a plain edge or an empty quarter."""
    count = 0
    for a, b in seams(cake):
        if a is not None and a.right and not (b is not None and b.left):
            count += 1
        if b is not None and b.left and not (a is not None and a.right):
            count += 1
    return count


@dataclass(frozen=True)
class Taste:
    """A cake's taste points, item by item."""

    icing: int = 0
    rosettes: int = 0
    no_half: int = 0
    pairs: int = 0

    @property
    def total(self) -> int:
        return self.icing + self.rosettes + self.no_half + self.pairs


@lru_cache(maxsize=65536)
def taste(cake: Cake) -> Taste:
    """The taste points of ``cake`` as it stands (the no-half point only when finished)."""
    cards = cards_of(cake)
    colours = len({c.icing for c in cards})
    raspberries = sum(c.raspberries for c in cards)
    blueberries = sum(c.blueberries for c in cards)
    no_half = 1 if finished(cake) and unmatched(cake) == 0 else 0
    return Taste(ICING_POINTS[colours], rosettes(cake), no_half, min(raspberries, blueberries))


@lru_cache(maxsize=65536)
def meets(customer: str, cake: Cake) -> bool:
    """Does the finished ``cake`` meet ``customer``'s request? (An unfinished cake never.)"""
    if not finished(cake):
        return False
    cards = cards_of(cake)
    number = CUSTOMERS[customer].number
    r = sum(c.raspberries for c in cards)
    b = sum(c.blueberries for c in cards)
    icings = [c.icing for c in cards]
    colours = set(icings)
    if number <= 3:
        return r == number + 3
    if number <= 6:
        return b == number
    if number <= 9:
        return icings.count(("pink", "white", "chocolate")[number - 7]) == QUARTERS
    if number == 10:
        return rosettes(cake) >= 3
    if number == 11:
        return rosettes(cake) == 4
    if number == 12:
        return all(c.plain for c in cards)
    if number == 13:
        return r + b == 0
    if number == 14:
        return r == b >= 3
    if number == 15:
        return len(colours) == 3
    if number == 16:
        return len(colours) == 2 and all(icings.count(i) == 2 for i in colours)
    if number == 17:
        return r + b >= 8
    return r >= 2 and b == 0


def best_matching(cakes: Sequence[Cake], customers: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """A maximum matching of cakes to customers they meet: ``(cake, customer)`` index pairs.

    A cake wins one customer at most and a customer one of this player's cakes at most.
    Among maximum matchings the first in a fixed order is returned, so every peer agrees.
    """
    ok = [[meets(customer, cake) for customer in customers] for cake in cakes]
    best: tuple[tuple[int, int], ...] = ()
    slots = list(range(len(customers))) + [-1] * len(cakes)
    for order in dict.fromkeys(permutations(slots, len(cakes))):
        pairs = tuple((c, k) for c, k in enumerate(order) if k >= 0 and ok[c][k])
        if len(pairs) > len(best):
            best = pairs
            if len(best) == min(len(cakes), len(customers)):
                break
    return best


def taste_stars(totals: Sequence[int]) -> tuple[int, ...]:
    """Stars for taste: most 2, fewest 0, the rest 1; ties share; all tied: all get 2."""
    high, low = max(totals), min(totals)
    if high == low:
        return (2,) * len(totals)
    return tuple(2 if t == high else 0 if t == low else 1 for t in totals)

"""How the normal bot judges cakes: taste it can expect and customers it can still meet.

Every figure here is a heuristic over public facts (cakes are face up, customers too) and
the bot's own cards; nothing reads a card the seat may not know.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from cakeparty.core.games.cake_master.cards import CARDS, CUSTOMERS
from cakeparty.core.games.cake_master.scoring import QUARTERS, Cake, meets, seams

#: Roughly how often a card drawn keeps a customer's request within reach.
FIT_RATE: dict[int, float] = {
    1: 0.45, 2: 0.4, 3: 0.35, 4: 0.45, 5: 0.4, 6: 0.35,
    7: 0.33, 8: 0.33, 9: 0.33, 10: 0.4, 11: 0.25, 12: 0.25,
    13: 0.17, 14: 0.4, 15: 0.8, 16: 0.6, 17: 0.5, 18: 0.5,
}  # fmt: skip


def _counts(cake: Cake) -> tuple[int, int, list[str], int]:
    cards = [CARDS[c] for c in cake if c is not None]
    r = sum(c.raspberries for c in cards)
    b = sum(c.blueberries for c in cards)
    return r, b, [c.icing for c in cards], QUARTERS - len(cards)


def possible_rosettes(cake: Cake) -> int:
    """Rosettes the cake could still have: seams whose sides are half or empty."""
    return sum(1 for a, b in seams(cake) if (a is None or a.right) and (b is None or b.left))


def reachable(customer: str, cake: Cake) -> bool:
    """Could cards still to come make ``cake`` meet ``customer``?"""
    r, b, icings, free = _counts(cake)
    if free == 0:
        return meets(customer, cake)
    number = CUSTOMERS[customer].number
    cards = [CARDS[c] for c in cake if c is not None]
    colours = set(icings)
    if number <= 3:
        return r <= number + 3 <= r + 2 * free
    if number <= 6:
        return b <= number <= b + 2 * free
    if number <= 9:
        return colours <= {("pink", "white", "chocolate")[number - 7]}
    if number == 10:
        return possible_rosettes(cake) >= 3
    if number == 11:
        return possible_rosettes(cake) == 4
    if number == 12:
        return all(c.plain for c in cards)
    if number == 13:
        return r + b == 0
    if number == 14:
        t = max(3, r, b)
        return (t - r) + (t - b) <= 2 * free
    if number == 15:
        return 3 - len(colours) <= free
    if number == 16:
        return len(colours) <= 2 and all(icings.count(i) <= 2 for i in colours)
    if number == 17:
        return r + b == 2 * len(cards) and r + b + 2 * free >= 8
    return b == 0 and r + 2 * free >= 2


@lru_cache(maxsize=200_000)
def chances(cake: Cake, customers: tuple[str, ...]) -> tuple[float, ...]:
    """For each customer, a rough chance that ``cake`` ends up meeting it."""
    free = sum(1 for c in cake if c is None)
    return tuple(
        (FIT_RATE[CUSTOMERS[k].number] ** free if reachable(k, cake) else 0.0) for k in customers
    )


@lru_cache(maxsize=200_000)
def expected_taste(cake: Cake) -> float:
    """Taste points the cake is likely to end with, counting what it may still become."""
    r, b, icings, free = _counts(cake)
    if free == QUARTERS:
        return EMPTY_TASTE
    colours = len(set(icings))
    icing = {1: 3.0 - 0.35 * free, 2: 1.0 - 0.1 * free, 3: 0.0}[colours]
    complete = open_halves = dead = 0
    for left, right in seams(cake):
        if left is not None and right is not None:
            if left.right and right.left:
                complete += 1
            elif left.right or right.left:
                dead += 1
        elif (left is not None and left.right) or (right is not None and right.left):
            open_halves += 1
    rosette = complete + 0.45 * open_halves
    if dead:
        no_half = 0.0
    elif free == 0:
        no_half = 1.0
    else:
        no_half = 0.5 * 0.7**open_halves
    pairs = min(r, b) + 0.3 * min(free, abs(r - b))
    return icing + rosette + no_half + pairs


@lru_cache(maxsize=200_000)
def best_assignment(rows: tuple[tuple[float, ...], ...]) -> float:
    """The largest sum of chances with each cake given one customer at most, and each
    customer one cake at most (a weighted matching; three cakes, three customers)."""
    if not rows or not rows[0]:
        return 0.0
    k = len(rows[0])
    slots = list(range(k)) + [-1] * len(rows)
    best = 0.0
    for order in set(permutations(slots, len(rows))):
        total = sum(rows[c][j] for c, j in enumerate(order) if j >= 0)
        best = max(best, total)
    return best


def value(cakes: Sequence[Cake], customers: tuple[str, ...], taste_weight: float) -> float:
    """What a seat's cakes are worth: expected taste (weighted) plus customers in reach."""
    return weighed(
        taste_weight,
        [expected_taste(c) for c in cakes],
        tuple([chances(c, customers) for c in cakes]),
    )


def weighed(
    taste_weight: float, tastes: Sequence[float], rows: tuple[tuple[float, ...], ...]
) -> float:
    """:func:`value` from each cake's expected taste and chances with the customers."""
    return taste_weight * sum(tastes) + best_assignment(rows)


def with_card(cakes: Sequence[Cake], card: str, cake: int, quarter: int) -> tuple[Cake, ...]:
    out = list(cakes)
    quarters = list(out[cake])
    quarters[quarter] = card
    out[cake] = tuple(quarters)
    return tuple(out)


def gain(
    cakes: Sequence[Cake], card: str, customers: tuple[str, ...], taste_weight: float
) -> float:
    """The most ``card`` alone adds to ``cakes`` on any empty quarter."""
    before = value(cakes, customers, taste_weight)
    best = None
    for c, cake in enumerate(cakes):
        for q, slot in enumerate(cake):
            if slot is None:
                after = value(with_card(cakes, card, c, q), customers, taste_weight)
                best = after if best is None else max(best, after)
    return 0.0 if best is None else best - before


#: An empty cake is worth what its first card makes of it on average: starting a cake is
#: no gain in itself, so a card is judged by what it adds, wherever it goes.
EMPTY_TASTE = sum(expected_taste((name, None, None, None)) for name in CARDS) / len(CARDS)

"""The cards of Cake Master: 72 cake cards and 18 customers.

A cake card has one icing colour, a left and a right edge (clockwise; each plain or with a
half-rosette) and a fruit pattern. Every combination of 3 icings × 4 edge patterns × 6 fruit
patterns is in the box once, so a card's name says everything about it:
``pink-hp-rb`` is Pink, half-rosette on the left edge, plain right edge, 1 raspberry and
1 blueberry. Customers are ``customer-1`` … ``customer-18``, in the order of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from cakeparty.core.i18n import N_

ICINGS = ("pink", "white", "chocolate")
#: left edge, right edge: ``h`` a half-rosette, ``p`` plain
EDGES = ("pp", "hp", "ph", "hh")
#: fruit pattern → (raspberries, blueberries)
FRUITS: dict[str, tuple[int, int]] = {
    "none": (0, 0),
    "r": (1, 0),
    "b": (0, 1),
    "rb": (1, 1),
    "rr": (2, 0),
    "bb": (0, 2),
}

ICING_TITLES: dict[str, str] = {
    "pink": N_("Pink"),
    "white": N_("White"),
    "chocolate": N_("Chocolate"),
}


@dataclass(frozen=True)
class CakeCard:
    """One quarter of a cake."""

    name: str
    icing: str
    left: bool  # a half-rosette on the left edge
    right: bool  # a half-rosette on the right edge
    raspberries: int
    blueberries: int

    @property
    def fruit(self) -> int:
        return self.raspberries + self.blueberries

    @property
    def plain(self) -> bool:
        """No half-rosette printed on either edge."""
        return not (self.left or self.right)


def _make_cards() -> dict[str, CakeCard]:
    cards: dict[str, CakeCard] = {}
    for icing in ICINGS:
        for edges in EDGES:
            for fruit, (r, b) in FRUITS.items():
                name = f"{icing}-{edges}-{fruit}"
                cards[name] = CakeCard(name, icing, edges[0] == "h", edges[1] == "h", r, b)
    return cards


CARDS: dict[str, CakeCard] = _make_cards()
CAKE_CARDS: tuple[str, ...] = tuple(CARDS)


@dataclass(frozen=True)
class Customer:
    """A customer asks for one cake with a property; ``number`` is its id in the rules."""

    name: str
    number: int
    request: str  # marked for translation; translate when shown


_REQUESTS = (
    N_("exactly 4 raspberries"),
    N_("exactly 5 raspberries"),
    N_("exactly 6 raspberries"),
    N_("exactly 4 blueberries"),
    N_("exactly 5 blueberries"),
    N_("exactly 6 blueberries"),
    N_("all Pink"),
    N_("all White"),
    N_("all Chocolate"),
    N_("at least 3 complete rosettes"),
    N_("4 complete rosettes"),
    N_("no half-rosette printed on any card"),
    N_("no fruit"),
    N_("at least 3 raspberries and as many blueberries"),
    N_("exactly 3 icing colours"),
    N_("exactly 2 icing colours, 2 cards each"),
    N_("at least 8 fruit"),
    N_("at least 2 raspberries and no blueberries"),
)

CUSTOMERS: dict[str, Customer] = {
    f"customer-{i}": Customer(f"customer-{i}", i, request)
    for i, request in enumerate(_REQUESTS, start=1)
}
CUSTOMER_CARDS: tuple[str, ...] = tuple(CUSTOMERS)

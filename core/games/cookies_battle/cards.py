"""The box of Cookies Battle: 54 cards, 36 cookie pieces and 18 magic markers.

Every physical item is a slot with a unique name, so a name says everything about it:

- cards: ``blue-7``, ``green-12``, ``red-1``, ``gold-5`` (the gold trumps), the three
  zeros ``zero-a`` … ``zero-c``, the two thirteens ``thirteen-a``/``thirteen-b`` and the
  ``magician``;
- pieces: ``traditional-1`` … ``traditional-16``, ``sprinkle-1`` … ``sprinkle-8``,
  ``strawberry-1`` … ``strawberry-4``, ``rotten-1`` … ``rotten-8``;
- markers: ``theft-1`` … ``theft-3`` and the same for ``puppet``, ``swap``,
  ``right-breeze``, ``left-breeze`` and ``defense``.

The box holds the cards of the variant played, then every piece, then (unless the duel)
every marker, in that order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cakeparty.core.i18n import N_

COLOURS = ("blue", "green", "red")
GOLD = "gold"
SUITS = (*COLOURS, GOLD)
VALUES = tuple(range(1, 13))
ZEROS = ("zero-a", "zero-b", "zero-c")
THIRTEENS = ("thirteen-a", "thirteen-b")
MAGICIAN = "magician"
SPECIALS = (*ZEROS, *THIRTEENS, MAGICIAN)

#: the duel keeps these values of two colours and the gold (red leaves the box)
DUEL_COLOURS = ("blue", "green")
DUEL_VALUES = (1, 6, 8, 10, 12)

#: piece kind → (pieces in the box, points per piece, points of a whole cookie of 4)
PIECE_KINDS: dict[str, tuple[int, int, int]] = {
    "traditional": (16, 1, 6),
    "sprinkle": (8, 2, 10),
    "strawberry": (4, 4, 20),
    "rotten": (8, 0, 0),
}
ROTTEN = "rotten"
WHOLE = 4  # pieces of one kind to a whole cookie

MARKER_KINDS = ("theft", "puppet", "swap", "right-breeze", "left-breeze", "defense")
MARKERS_PER_KIND = 3
MARKER_POINTS = 2  # per marker unused at the end

#: cards dealt to each player by player count; the rest stay out of the round, unseen
DEAL = {2: 10, 3: 12, 4: 12, 5: 9, 6: 8}


def dealt_to(slot: int, players: int) -> int:
    """The seat a card slot is dealt to: a deal gives each seat consecutive slots."""
    return slot // DEAL[players]


ROUNDS = 3

SUIT_TITLES: dict[str, str] = {
    "blue": N_("Blue"),
    "green": N_("Green"),
    "red": N_("Red"),
    "gold": N_("Gold"),
}
#: A numbered card by suit: its own sentence each, so that a language may agree the colour
#: with its word for a card ("Niebieska 7") while the suit alone reads as a suit.
CARD_TITLES: dict[str, str] = {
    "blue": N_("Blue {value}"),
    "green": N_("Green {value}"),
    "red": N_("Red {value}"),
    "gold": N_("Gold {value}"),
}
PIECE_TITLES: dict[str, str] = {
    "traditional": N_("Traditional"),
    "sprinkle": N_("Sprinkle"),
    "strawberry": N_("Strawberry"),
    "rotten": N_("Rotten"),
}
MARKER_TITLES: dict[str, str] = {
    "theft": N_("Theft"),
    "puppet": N_("Puppet"),
    "swap": N_("Swap"),
    "right-breeze": N_("Right Breeze"),
    "left-breeze": N_("Left Breeze"),
    "defense": N_("Defense"),
}


@dataclass(frozen=True)
class Card:
    """One playing card.

    ``suit`` is a colour or ``"gold"`` for numbered cards and ``None`` for the specials;
    ``value`` is 1–12, 0 or 13 (``None`` for the Magician).
    """

    name: str
    suit: str | None
    value: int | None

    @property
    def special(self) -> bool:
        """A 0, a 13 or the Magician: may always be played."""
        return self.suit is None

    @property
    def gold(self) -> bool:
        return self.suit == GOLD

    @property
    def colour(self) -> bool:
        """A numbered card of a colour suit (the only cards that set the turn suit)."""
        return self.suit in COLOURS

    @property
    def magician(self) -> bool:
        return self.name == MAGICIAN


def _card(name: str) -> Card:
    if name == MAGICIAN:
        return Card(name, None, None)
    if name in ZEROS:
        return Card(name, None, 0)
    if name in THIRTEENS:
        return Card(name, None, 13)
    suit, _, value = name.rpartition("-")
    if suit not in SUITS or not value.isdigit() or int(value) not in VALUES:
        raise KeyError(name)
    return Card(name, suit, int(value))


@cache
def card(name: str) -> Card:
    """The card called ``name``; :class:`KeyError` if no card has that name."""
    return _card(name)


@cache
def is_card(name: str) -> bool:
    try:
        card(name)
    except KeyError:
        return False
    return True


@cache
def cards(variant: str = "standard") -> tuple[str, ...]:
    """The playing cards of ``variant`` (``standard``, ``beginners`` or ``duel``)."""
    if variant == "duel":
        numbered = [f"{s}-{v}" for s in (*DUEL_COLOURS, GOLD) for v in DUEL_VALUES]
        return (*numbered, *ZEROS, *THIRTEENS)
    numbered = [f"{s}-{v}" for s in SUITS for v in VALUES]
    if variant == "beginners":
        return tuple(numbered)
    if variant != "standard":
        raise ValueError(f"unknown variant {variant!r}")
    return (*numbered, *SPECIALS)


@cache
def pieces() -> tuple[str, ...]:
    """The 36 cookie pieces."""
    return tuple(
        f"{kind}-{n}" for kind, (count, _, _) in PIECE_KINDS.items() for n in range(1, count + 1)
    )


@cache
def markers() -> tuple[str, ...]:
    """The 18 magic markers."""
    return tuple(f"{kind}-{n}" for kind in MARKER_KINDS for n in range(1, MARKERS_PER_KIND + 1))


@cache
def piece_kind(name: str) -> str:
    """``traditional``, ``sprinkle``, ``strawberry`` or ``rotten``; KeyError otherwise."""
    kind, _, n = name.rpartition("-")
    if kind not in PIECE_KINDS or not n.isdigit() or not 1 <= int(n) <= PIECE_KINDS[kind][0]:
        raise KeyError(name)
    return kind


@cache
def marker_kind(name: str) -> str:
    """One of :data:`MARKER_KINDS`; KeyError otherwise."""
    kind, _, n = name.rpartition("-")
    if kind not in MARKER_KINDS or not n.isdigit() or not 1 <= int(n) <= MARKERS_PER_KIND:
        raise KeyError(name)
    return kind


#: every card's suit by name (``None`` for the specials), for the rules that read it often
SUIT: dict[str, str | None] = {name: _card(name).suit for name in cards("standard")}


@cache
def box(variant: str = "standard") -> tuple[str, ...]:
    """Every slot of a game of ``variant``: its cards, the pieces, then the markers."""
    items = (*cards(variant), *pieces())
    return items if variant == "duel" else (*items, *markers())

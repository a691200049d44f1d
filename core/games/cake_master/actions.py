"""The choices of Cake Master. Every one is sealed, then opened with the other seats'.

Text forms (``str(action)``; :func:`cakeparty.core.actions.parse` reads them back)::

    give 12 40             pass slot 12 to the left neighbour, slot 40 to the right
    keep 12                two players: keep slot 12, give the others to the opponent
    place 3,7,9 0,0,2 1,2,0
                           slot 3 on cake 0 quarter 1, slot 7 on cake 0 quarter 2,
                           slot 9 on cake 2 quarter 0 (cakes and quarters count from 0)
    exchange 3,9           solo: swap slots 3 and 9 for new cards from the deck

A placement names all three cards of the turn at once (slots in ascending order), so a
turn asks one sealed choice per seat to pass and one to place. In solo the hand holds four
cards: the one not placed is discarded.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

from cakeparty.core.actions import Action, Kind, register

CAKES = 3
QUARTERS = 4
PLACED = 3  # cards placed each turn


def _ascending(slots: tuple[int, ...]) -> bool:
    return all(a < b for a, b in itertools.pairwise(slots))


@register
@dataclass(frozen=True)
class PassCards(Action):
    """Pass ``left`` to the left neighbour and ``right`` to the right one; keep the third."""

    left: int
    right: int

    TAG: ClassVar[str] = "give"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INT)

    def __post_init__(self) -> None:
        if self.left == self.right:
            raise ValueError("one card to each neighbour")


@register
@dataclass(frozen=True)
class Keep(Action):
    """Two players: keep ``slot`` and give the rest of the cards in play to the opponent."""

    slot: int

    TAG: ClassVar[str] = "keep"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Place(Action):
    """Put ``slots[i]`` on cake ``cakes[i]``, quarter ``quarters[i]``."""

    slots: tuple[int, ...]
    cakes: tuple[int, ...]
    quarters: tuple[int, ...]

    TAG: ClassVar[str] = "place"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.INTS, Kind.INTS)

    def __post_init__(self) -> None:
        if not len(self.slots) == len(self.cakes) == len(self.quarters) == PLACED:
            raise ValueError(f"a placement puts {PLACED} cards")
        if not _ascending(self.slots):
            raise ValueError("the cards of a placement are listed in ascending slot order")
        if any(c >= CAKES for c in self.cakes) or any(q >= QUARTERS for q in self.quarters):
            raise ValueError(f"{CAKES} cakes of {QUARTERS} quarters")
        if len(set(zip(self.cakes, self.quarters, strict=True))) != PLACED:
            raise ValueError("one card per quarter")

    @classmethod
    def of(cls, spots: dict[int, tuple[int, int]]) -> Place:
        """The placement of ``{slot: (cake, quarter)}``, in its one written form."""
        slots = tuple(sorted(spots))
        return cls(slots, tuple(spots[s][0] for s in slots), tuple(spots[s][1] for s in slots))

    @property
    def spots(self) -> dict[int, tuple[int, int]]:
        """``{slot: (cake, quarter)}``."""
        return {s: (c, q) for s, c, q in zip(self.slots, self.cakes, self.quarters, strict=True)}


@register
@dataclass(frozen=True)
class Exchange(Action):
    """Solo: put ``slots`` from the hand on the discard pile and draw as many new cards."""

    slots: tuple[int, ...]

    TAG: ClassVar[str] = "exchange"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS,)

    def __post_init__(self) -> None:
        if not self.slots or not _ascending(self.slots):
            raise ValueError("exchange one card or more, in ascending slot order")

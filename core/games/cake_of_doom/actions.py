"""The moves of Cake of Doom.

Text forms (``str(action)``; :func:`cakeparty.core.actions.parse` reads them back)::

    choose-mix 5           advanced: take 5 cake and 3 mischief cards as the opening hand
    grab 101 cake          play slot 101 as a Tractor Beam: take the top card of the cake
                           discard pile (``cake`` or ``mischief``)
    abduct 95 2            play slot 95 as an Abduction against seat 2
    bribe western-europe 3,17,40
                           offer slots 3, 17 and 40 (cake cards) for Western Europe
                           (a region's name, or ``doom``)
    no-bribe               pass the bribe step
    sabotage 97 laser-fork play slot 97 as a Laser Fork against the bribe
    no-sabotage            let the bribe be
    force-field 120        the briber cancels the sabotage just played with slot 120
    no-force-field         the briber lets the sabotage stand
    remove 3,17,17 0       the saboteur removes 1 value from slot 3 and 2 from slot 17
                           (a slot named once loses its +1 first: it turns sideways), and
                           0 or 1 of Freya's +1
    draw 1 2               draw 1 card from the cake pile and 2 from the mischief pile
    discard 3,95           put slots 3 and 95 on their discard piles (face up)
    pick-card 40           take slot 40 (Zix's look, Middle East, Australia, Vashti)
    rob 2                  East Asia: steal a random card from seat 2
    peek 2                 Middle East: look at seat 2's hand

A card played from a hand names what it is claimed to be and is shown to everyone as it is
played; a card that is not what was claimed ends the game with that seat named as a cheat.
Slot lists are written in ascending order (``remove`` repeats a slot for 2 value).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import ClassVar

from cakeparty.core.actions import Action, Kind, register
from cakeparty.core.games.cake_of_doom.cards import DOOM, OPENING, REGIONS, SABOTAGES

PILES = ("cake", "mischief")


def _ascending(slots: tuple[int, ...]) -> bool:
    return all(a < b for a, b in itertools.pairwise(slots))


@register
@dataclass(frozen=True)
class ChooseMix(Action):
    """Advanced: the opening hand holds ``cakes`` cake cards and the rest mischief."""

    cakes: int

    TAG: ClassVar[str] = "choose-mix"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)

    def __post_init__(self) -> None:
        if not 0 <= self.cakes <= OPENING:
            raise ValueError(f"an opening hand holds {OPENING} cards")

    @property
    def mischief(self) -> int:
        return OPENING - self.cakes


@register
@dataclass(frozen=True)
class Grab(Action):
    """Play ``slot`` as a Tractor Beam: take the top card of the ``pile`` discard pile."""

    slot: int
    pile: str

    TAG: ClassVar[str] = "grab"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.NAME)

    def __post_init__(self) -> None:
        if self.pile not in PILES:
            raise ValueError("grab from the cake or the mischief discard pile")


@register
@dataclass(frozen=True)
class Abduct(Action):
    """Play ``slot`` as an Abduction: take a random card from ``victim``'s hand."""

    slot: int
    victim: int

    TAG: ClassVar[str] = "abduct"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INT)


@register
@dataclass(frozen=True)
class Bribe(Action):
    """Offer the cake cards ``slots`` for ``target`` (a region's name or ``doom``)."""

    target: str
    slots: tuple[int, ...]

    TAG: ClassVar[str] = "bribe"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.NAME, Kind.INTS)

    def __post_init__(self) -> None:
        if self.target != DOOM and self.target not in REGIONS:
            raise ValueError(f"no region is called {self.target!r}")
        if not self.slots or not _ascending(self.slots):
            raise ValueError("offer one cake card or more, in ascending slot order")


@register
@dataclass(frozen=True)
class NoBribe(Action):
    """Pass the bribe step."""

    TAG: ClassVar[str] = "no-bribe"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@register
@dataclass(frozen=True)
class Sabotage(Action):
    """Play ``slot`` as the sabotage card ``kind`` against the bribe."""

    slot: int
    kind: str

    TAG: ClassVar[str] = "sabotage"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.NAME)

    def __post_init__(self) -> None:
        if self.kind not in SABOTAGES:
            raise ValueError(f"{self.kind!r} is not a sabotage card")


@register
@dataclass(frozen=True)
class NoSabotage(Action):
    """Let the bribe be."""

    TAG: ClassVar[str] = "no-sabotage"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@register
@dataclass(frozen=True)
class ForceField(Action):
    """The briber plays ``slot`` as a Force Field: the sabotage just played is cancelled."""

    slot: int

    TAG: ClassVar[str] = "force-field"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class NoForceField(Action):
    """The briber lets the sabotage stand."""

    TAG: ClassVar[str] = "no-force-field"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@register
@dataclass(frozen=True)
class Remove(Action):
    """The saboteur's choice: 1 value from each slot of ``slots`` (a slot twice: 2, the
    whole of a card with its +1) and ``freya`` (0 or 1) of Freya's +1."""

    slots: tuple[int, ...]
    freya: int

    TAG: ClassVar[str] = "remove"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.INT)

    def __post_init__(self) -> None:
        if list(self.slots) != sorted(self.slots):
            raise ValueError("the slots of a removal are listed in ascending order")
        if any(self.slots.count(s) > 2 for s in self.slots):
            raise ValueError("a card holds 2 value at most")
        if self.freya not in (0, 1):
            raise ValueError("Freya's bonus is +1")

    @property
    def value(self) -> int:
        return len(self.slots) + self.freya


@register
@dataclass(frozen=True)
class Draw(Action):
    """Draw ``cakes`` cards from the cake pile and ``mischief`` from the mischief pile."""

    cakes: int
    mischief: int

    TAG: ClassVar[str] = "draw"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INT)

    def __post_init__(self) -> None:
        if self.cakes + self.mischief > 64:
            raise ValueError("too many cards")

    @property
    def count(self) -> int:
        return self.cakes + self.mischief


@register
@dataclass(frozen=True)
class Discard(Action):
    """Put ``slots`` from the hand face up on their discard piles."""

    slots: tuple[int, ...]

    TAG: ClassVar[str] = "discard"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS,)

    def __post_init__(self) -> None:
        if not _ascending(self.slots):
            raise ValueError("the slots of a discard are listed in ascending order")


@register
@dataclass(frozen=True)
class PickCard(Action):
    """Take the card in ``slot`` (from a hand looked at, a discard pile, eaten cakes)."""

    slot: int

    TAG: ClassVar[str] = "pick-card"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Rob(Action):
    """East Asia: steal a random card from ``victim``."""

    victim: int

    TAG: ClassVar[str] = "rob"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Peek(Action):
    """Middle East: look at ``victim``'s hand (then take a cake card from it)."""

    victim: int

    TAG: ClassVar[str] = "peek"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


#: the documented constant for passing the bribe step
PASS = NoBribe()

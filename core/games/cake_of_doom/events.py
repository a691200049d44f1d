"""What happened, in public terms: the story every seat and spectator may read.

Events never hold a hidden identity: a card name appears only once the card is face up
(played, offered in the open, discarded, lying on a region); ``None`` stands for a card
that stays hidden (a stolen card, a blind offer before it opens).
"""

from __future__ import annotations

from dataclasses import dataclass

from cakeparty.core.actions import ReasonParams


@dataclass(frozen=True)
class GameSetUp:
    aliens: tuple[str, ...]
    regions: tuple[str, ...]
    favourite: str
    first: int


@dataclass(frozen=True)
class MixChosen:
    seat: int
    cakes: int
    mischief: int


@dataclass(frozen=True)
class RoundStarted:
    round: int


@dataclass(frozen=True)
class TurnStarted:
    seat: int
    round: int


@dataclass(frozen=True)
class Grabbed:
    """A Tractor Beam took the top card of a discard pile (face up: everyone saw it)."""

    seat: int
    pile: str
    card: str | None


@dataclass(frozen=True)
class Abducted:
    """An Abduction was played against ``victim``."""

    seat: int
    victim: int


@dataclass(frozen=True)
class Stole:
    """``thief`` took a card from ``victim``'s hand (which: the two of them know)."""

    thief: int
    victim: int
    why: str  # "abduction", a region's name


@dataclass(frozen=True)
class Looked:
    seat: int
    victim: int


@dataclass(frozen=True)
class Picked:
    """``seat`` took a card: from a hand (``card`` hidden), a discard pile or eaten cakes."""

    seat: int
    source: str  # "hand", "cake-discard", "mischief-discard", "eaten"
    owner: int | None
    card: str | None


@dataclass(frozen=True)
class Bribed:
    seat: int
    target: str
    cards: tuple[str | None, ...]  # None while face down (blind)
    need: int


@dataclass(frozen=True)
class OfferOpened:
    seat: int
    target: str
    cards: tuple[str, ...]
    value: int  # the cards, their +1 on the target's continent, and Freya's +1
    freya: int = 0  # Freya's +1 (0 or 1)


@dataclass(frozen=True)
class Protected:
    """Advanced: the briber holds two regions of one continent; nobody may sabotage."""

    seat: int


@dataclass(frozen=True)
class Sabotaged:
    seat: int
    kind: str


@dataclass(frozen=True)
class NotSabotaged:
    seat: int


@dataclass(frozen=True)
class Shielded:
    """The briber cancelled the sabotage just played with a Force Field."""

    seat: int
    saboteur: int


@dataclass(frozen=True)
class Removed:
    seat: int
    cards: tuple[str | None, ...]  # the cards gone from the offer (all their value)
    sideways: tuple[str | None, ...]  # the cards that lost their +1 (turned sideways)
    freya: int
    value: int  # the offer's value afterwards


@dataclass(frozen=True)
class BribeWon:
    seat: int
    target: str
    value: int
    previous: int | None  # who held the region before
    eaten: int  # cake cards eaten from a stolen region


@dataclass(frozen=True)
class BribeFailed:
    seat: int
    target: str
    value: int
    need: int
    returned: int  # cards back to the briber's hand


@dataclass(frozen=True)
class Passed:
    seat: int


@dataclass(frozen=True)
class ControlBonus:
    seat: int
    region: str


@dataclass(frozen=True)
class BonusVoid:
    """The control bonus just taken finds nothing to act on (an empty pile, no hand)."""

    seat: int
    region: str


@dataclass(frozen=True)
class Drew:
    seat: int
    cakes: int
    mischief: int


@dataclass(frozen=True)
class Discarded:
    seat: int
    cards: tuple[str | None, ...]


@dataclass(frozen=True)
class Refilled:
    pile: str
    count: int


@dataclass(frozen=True)
class Cheated:
    seat: int
    reason: str  # untranslated: read it with forfeit_words(reason, params)
    params: ReasonParams = ()


@dataclass(frozen=True)
class Forfeited:
    seat: int
    reason: str


@dataclass(frozen=True)
class GameOver:
    winners: tuple[int, ...]
    reason: str  # "doom", "rounds", "cheated", "forfeit"
    shared: bool


Event = (
    GameSetUp
    | MixChosen
    | RoundStarted
    | TurnStarted
    | Grabbed
    | Abducted
    | Stole
    | Looked
    | Picked
    | Bribed
    | OfferOpened
    | Protected
    | Sabotaged
    | NotSabotaged
    | Shielded
    | Removed
    | BribeWon
    | BribeFailed
    | Passed
    | ControlBonus
    | Drew
    | Discarded
    | Refilled
    | Cheated
    | Forfeited
    | GameOver
)

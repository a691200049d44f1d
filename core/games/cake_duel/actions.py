"""The actions of Cake Duel.

Text forms (``str(action)``; :func:`cakeparty.core.actions.parse` reads them back)::

    claim 3,7 wizard 1     play slots 3 and 7 facedown as "2 × Wizard" against seat 1
    pass                   PASS: no attack this turn
    block 12 defender      play slot 12 facedown as "1 × Defender"
    challenge              CHALLENGE: flip the claim just made
    accept                 NO_ACTION: let the claim stand
    take 5                 (Priest) take slot 5 of the attack into your hand
    summon wizard          (Summoner) name the card to look for
    declare 2              (Summoner's target) how many copies of it the hand holds
    lead 2                 (team mode) the starting team's attacker A
    trade 4 9              (team mode) give slot 4 to your teammate for their slot 9
    trade 4 -              give slot 4 (deck empty); ``trade - 9`` receives slot 9
    no-trade               NO_TRADE
    agree / refuse         AGREE / REFUSE: the teammate's answer to a trade
    taunt 8                reveal your played Sir Wolfy (slot 8) to taunt
    keep-hidden            KEEP_HIDDEN: end the turn revealing no Sir Wolfy
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from cakeparty.core.actions import Action, Kind, register


@register
@dataclass(frozen=True)
class Claim(Action):
    """Attack: ``slots`` played facedown, claimed as ``len(slots)`` × ``name``."""

    slots: tuple[int, ...]
    name: str
    target: int

    TAG: ClassVar[str] = "claim"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.NAME, Kind.INT)


@register
@dataclass(frozen=True)
class Pass(Action):
    """The attacker does not attack this turn."""

    TAG: ClassVar[str] = "pass"


@register
@dataclass(frozen=True)
class Block(Action):
    """Block: ``slots`` played facedown, claimed as ``len(slots)`` × ``name``."""

    slots: tuple[int, ...]
    name: str

    TAG: ClassVar[str] = "block"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.NAME)


@register
@dataclass(frozen=True)
class Challenge(Action):
    """Flip the claim just made: a bluff loses the bout, a true claim wins it."""

    TAG: ClassVar[str] = "challenge"


@register
@dataclass(frozen=True)
class NoAction(Action):
    """Let the claim just made stand."""

    TAG: ClassVar[str] = "accept"


@register
@dataclass(frozen=True)
class Take(Action):
    """The Priest's holder takes these attack cards into hand (one per Priest)."""

    slots: tuple[int, ...]

    TAG: ClassVar[str] = "take"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS,)


@register
@dataclass(frozen=True)
class Summon(Action):
    """The Summoner's attacker names a card to look for in the opponent's hand."""

    name: str

    TAG: ClassVar[str] = "summon"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.NAME,)


@register
@dataclass(frozen=True)
class Declare(Action):
    """The Summoner's target states how many copies of the named card its hand holds."""

    count: int

    TAG: ClassVar[str] = "declare"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Lead(Action):
    """Team mode: the starting team names which teammate attacks first (player A)."""

    seat: int

    TAG: ClassVar[str] = "lead"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Trade(Action):
    """Team mode: offer ``give`` (own slots) for ``take`` (the teammate's), at most one each."""

    give: tuple[int, ...]
    take: tuple[int, ...]

    TAG: ClassVar[str] = "trade"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.INTS)

    def __post_init__(self) -> None:
        if len(self.give) > 1 or len(self.take) > 1 or not (self.give or self.take):
            raise ValueError("a trade moves one card each way, or one card one way")


@register
@dataclass(frozen=True)
class NoTrade(Action):
    """Team mode: the attacker does not trade."""

    TAG: ClassVar[str] = "no-trade"


@register
@dataclass(frozen=True)
class Agree(Action):
    """Team mode: the teammate accepts the trade offered."""

    TAG: ClassVar[str] = "agree"


@register
@dataclass(frozen=True)
class Refuse(Action):
    """Team mode: the teammate refuses the trade offered."""

    TAG: ClassVar[str] = "refuse"


@register
@dataclass(frozen=True)
class Taunt(Action):
    """Reveal a Sir Wolfy you played, unflipped, in the turn just ended."""

    slot: int

    TAG: ClassVar[str] = "taunt"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class KeepHidden(Action):
    """End of the turn: reveal no Sir Wolfy (none was played, or a tournament keeps it)."""

    TAG: ClassVar[str] = "keep-hidden"


PASS = Pass()
CHALLENGE = Challenge()
NO_ACTION = NoAction()
NO_TRADE = NoTrade()
AGREE = Agree()
REFUSE = Refuse()
KEEP_HIDDEN = KeepHidden()

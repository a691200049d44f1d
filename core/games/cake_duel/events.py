"""What happened in a bout, in public terms: the log the players and bots read.

Events never hold a hidden identity: cards appear only once flipped for everyone
(a challenge or a taunt). What a seat saw privately lives in its view's ``known`` map.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BoutStarted:
    bout: int
    starter: int  # side
    cakes: tuple[int, int]


@dataclass(frozen=True)
class LeadChosen:
    seat: int


@dataclass(frozen=True)
class Claimed:
    seat: int
    target: int
    name: str
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Passed:
    seat: int
    auto: bool  # no cards in hand


@dataclass(frozen=True)
class Blocked:
    seat: int
    name: str
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Accepted:
    seat: int


@dataclass(frozen=True)
class Challenged:
    seat: int  # the challenger
    claimer: int
    name: str
    slots: tuple[int, ...]
    cards: tuple[str, ...]  # as flipped
    truthful: bool


@dataclass(frozen=True)
class Took:
    seat: int  # the Priest's holder
    owner: int  # the attacker the cards came from
    slots: tuple[int, ...]


@dataclass(frozen=True)
class Stole:
    seat: int
    target: int
    cakes: int


@dataclass(frozen=True)
class HandSizeUp:
    seat: int
    size: int


@dataclass(frozen=True)
class Summoned:
    seat: int
    name: str


@dataclass(frozen=True)
class Declared:
    seat: int
    name: str
    count: int


@dataclass(frozen=True)
class Looked:
    seat: int
    target: int


@dataclass(frozen=True)
class ExtraTurn:
    seat: int


@dataclass(frozen=True)
class Drew:
    seat: int
    count: int


@dataclass(frozen=True)
class Traded:
    seat: int
    mate: int
    give: tuple[int, ...]
    take: tuple[int, ...]
    agreed: bool


@dataclass(frozen=True)
class Taunted:
    seat: int
    slot: int


@dataclass(frozen=True)
class BoutWon:
    side: int
    reason: str  # "challenge", "cakes" or "passes"
    trophies: tuple[int, int]


@dataclass(frozen=True)
class Forfeited:
    seat: int  # the seat proven to have broken a rule; its side loses at once
    reason: str


@dataclass(frozen=True)
class DuelWon:
    side: int
    duels: tuple[int, int]


Event = (
    BoutStarted
    | LeadChosen
    | Claimed
    | Passed
    | Blocked
    | Accepted
    | Challenged
    | Took
    | Stole
    | HandSizeUp
    | Summoned
    | Declared
    | Looked
    | ExtraTurn
    | Drew
    | Traded
    | Taunted
    | BoutWon
    | DuelWon
    | Forfeited
)

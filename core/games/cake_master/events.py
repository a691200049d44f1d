"""What happened, in public terms: the story every seat and spectator may read.

Events never hold a hidden identity: cards appear only once face up on a cake, customers
once drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from cakeparty.core.games.cake_master.state import RoundResult


@dataclass(frozen=True)
class RoundStarted:
    round: int


@dataclass(frozen=True)
class CustomersArrived:
    customers: tuple[str, ...]


@dataclass(frozen=True)
class CardsPassed:
    """Every seat passed (or, two players, gave) its cards."""

    turn: int
    back: bool = False  # two players: the second pass, one card back


@dataclass(frozen=True)
class Exchanged:
    seat: int
    count: int
    left: int  # exchanges left this game


@dataclass(frozen=True)
class Placed:
    seat: int
    cards: tuple[str, ...]
    cakes: tuple[int, ...]
    quarters: tuple[int, ...]


@dataclass(frozen=True)
class RoundScored:
    result: RoundResult


@dataclass(frozen=True)
class Forfeited:
    seat: int
    reason: str


@dataclass(frozen=True)
class GameOver:
    winners: tuple[int, ...]
    shared: bool


Event = (
    RoundStarted
    | CustomersArrived
    | CardsPassed
    | Exchanged
    | Placed
    | RoundScored
    | Forfeited
    | GameOver
)

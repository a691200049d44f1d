"""What happened, in public terms: the story every seat and spectator may read.

An event holds a hidden identity only where some seats may know it (a marker's kind for
its earner, a piece taken for its taker and victim, the pieces of a Swap for the two
players): the view (:func:`redact`) blanks it for every other seat.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class RoundStarted:
    round: int
    first: int  # the seat that leads the first trick


@dataclass(frozen=True)
class Dealt:
    round: int
    cards: int  # per player


@dataclass(frozen=True)
class Passed:
    round: int
    duel: bool = False  # one card to the opponent rather than one to each neighbour
    #: every card passed, as ``(giver, receiver, slot)``: a seat reads its own only
    moves: tuple[tuple[int, int, int], ...] = ()


@dataclass(frozen=True)
class PieceShown:
    trick: int
    piece: str | None


@dataclass(frozen=True)
class CardPlayed:
    seat: int
    card: str | None
    forced: bool = False  # drawn at random by a Puppet


@dataclass(frozen=True)
class TrickWon:
    seat: int
    piece: str | None
    cards: tuple[str | None, ...]  # the trick in play order
    trick: int


@dataclass(frozen=True)
class MarkerEarned:
    seat: int
    kind: str | None  # known to the earner only


@dataclass(frozen=True)
class MarkerUsed:
    seat: int
    kind: str
    target: int | None


@dataclass(frozen=True)
class Defended:
    seat: int
    against: int  # the seat whose marker is cancelled
    kind: str  # the kind cancelled


@dataclass(frozen=True)
class Puppeted:
    seat: int
    target: int
    waiting: int = 1  # the target's cards a Puppet draws from now on, this one's the last


@dataclass(frozen=True)
class PieceTaken:
    taker: int
    victim: int
    piece: str | None  # known to the taker and the victim only


@dataclass(frozen=True)
class Swapped:
    seat: int
    target: int
    given: str | None  # the user's piece, now the target's (known to both)
    received: str | None  # the target's piece, now the user's (known to both)


@dataclass(frozen=True)
class RoundEnded:
    round: int
    pieces: tuple[int, ...]  # piece counts per seat


@dataclass(frozen=True)
class PiecesRevealed:
    pieces: tuple[tuple[str | None, ...], ...]  # per seat, everyone's pieces face up


@dataclass(frozen=True)
class Cheated:
    seat: int
    reason: str


@dataclass(frozen=True)
class GameOver:
    winners: tuple[int, ...]
    shared: bool
    totals: tuple[int, ...]  # per seat (empty when a cheat ended the game)
    tummy_ache: tuple[int, ...] = ()


Event = (
    RoundStarted
    | Dealt
    | Passed
    | PieceShown
    | CardPlayed
    | TrickWon
    | MarkerEarned
    | MarkerUsed
    | Defended
    | Puppeted
    | PieceTaken
    | Swapped
    | RoundEnded
    | PiecesRevealed
    | Cheated
    | GameOver
)


#: the events that hold an identity only some seats may know
SECRET = (MarkerEarned, PieceTaken, Swapped, Passed)


@lru_cache(maxsize=8192)
def redact(event: Any, seat: int | None) -> Any:
    """``event`` as ``seat`` (``None``: a spectator) may read it."""
    if isinstance(event, MarkerEarned) and event.seat != seat and event.kind is not None:
        return replace(event, kind=None)
    if (
        isinstance(event, PieceTaken)
        and seat not in (event.taker, event.victim)
        and event.piece is not None
    ):
        return replace(event, piece=None)
    if (
        isinstance(event, Swapped)
        and seat not in (event.seat, event.target)
        and (event.given is not None or event.received is not None)
    ):
        return replace(event, given=None, received=None)
    if isinstance(event, Passed) and event.moves:
        own = tuple(move for move in event.moves if seat in move[:2])
        if own != event.moves:
            return replace(event, moves=own)
    return event

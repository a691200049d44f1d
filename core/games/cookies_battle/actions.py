"""The actions of Cookies Battle.

Text forms (``str(action)``; :func:`cakeparty.core.actions.parse` reads them back)::

    pass-on 12 40          pass slot 12 to the left neighbour, slot 40 to the right
                           (chosen by every seat at once, a sealed choice)
    hand-over 12           the duel: give slot 12 to the opponent (sealed, at once)
    play 12                play the card in slot 12 to the trick
    marker 60 theft 2 -    use the marker in slot 60 as a Theft against seat 2
    marker 70 swap 1 88    a Swap with seat 1, giving them your piece in slot 88
    marker 75 defense - -  a Defense against the marker just used
    no-marker              let the marker window pass
    give-piece 90          (the target of a Swap) give your piece in slot 90

A marker names its kind: the slot is shown to everyone as it is used, and a kind that is
not the marker's is a cheat that names the seat. ``target`` is one seat (Theft, Puppet,
Swap) or empty; ``piece`` is one of your pieces (Swap) or empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeGuard

from cakeparty.core.actions import Action, Kind, register
from cakeparty.core.games.cookies_battle.cards import MARKER_KINDS


@register
@dataclass(frozen=True)
class PassOn(Action):
    """Pass ``left`` to the left neighbour and ``right`` to the right one."""

    left: int
    right: int

    TAG: ClassVar[str] = "pass-on"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INT)

    def __post_init__(self) -> None:
        if self.left == self.right:
            raise ValueError("one card to each neighbour")


@register
@dataclass(frozen=True)
class HandOver(Action):
    """The duel: give ``slot`` to the opponent."""

    slot: int

    TAG: ClassVar[str] = "hand-over"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class Play(Action):
    """Play the card in ``slot`` to the trick."""

    slot: int

    TAG: ClassVar[str] = "play"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@register
@dataclass(frozen=True)
class UseMarker(Action):
    """Use the marker in ``slot``, claimed to be a ``kind``, against ``target``; a Swap
    gives ``piece``."""

    slot: int
    kind: str
    target: tuple[int, ...] = ()
    piece: tuple[int, ...] = ()

    TAG: ClassVar[str] = "marker"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.NAME, Kind.INTS, Kind.INTS)

    def __post_init__(self) -> None:
        if self.kind not in MARKER_KINDS:
            raise ValueError(f"no marker is called {self.kind!r}")
        if len(self.target) > 1 or len(self.piece) > 1:
            raise ValueError("one target and one piece at most")


def spends(action: Action) -> TypeGuard[UseMarker]:
    """Whether ``action`` spends a marker for its effect (a Defense only answers one)."""
    return isinstance(action, UseMarker) and action.kind != "defense"


@register
@dataclass(frozen=True)
class NoMarker(Action):
    """Let the marker window pass."""

    TAG: ClassVar[str] = "no-marker"
    KINDS: ClassVar[tuple[Kind, ...]] = ()


@register
@dataclass(frozen=True)
class GivePiece(Action):
    """The target of a Swap gives its piece in ``slot``."""

    slot: int

    TAG: ClassVar[str] = "give-piece"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)

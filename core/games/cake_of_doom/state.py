"""The state of a game of Cake of Doom: a frozen value, changed only by ``apply``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from cakeparty.core.actions import ReasonParams
from cakeparty.core.errors import CakePartyError
from cakeparty.core.games.cake_of_doom.cards import (
    GLORP,
    GLORP_LIMIT,
    HAND_LIMIT,
    PIB,
    REGIONS,
    is_cake_slot,
)
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

GAME = "cake-of-doom"

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` for these plain frozen values, without re-running
    ``__init__``: the engine makes tens of thousands of them a game. A :class:`Draft` is
    changed where it lies (nobody else holds it)."""
    fields = obj.__dict__
    if not changes.keys() <= fields.keys():
        raise TypeError(f"no field {sorted(changes.keys() - fields.keys())}")
    if type(obj) is Draft:
        fields.update(changes)
        return obj
    new = object.__new__(type(obj))
    new.__dict__.update(fields)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class DoomOptions:
    """How this game is played: the advanced game (chosen opening mix, control bonuses,
    the protection of two regions of a continent) and blind sabotaging, each on or off."""

    players: int = 4
    advanced: bool = False
    blind: bool = False

    @classmethod
    def parse(cls, players: int, options: Mapping[str, Any] | None) -> DoomOptions:
        """Options from a plain mapping, checked; unknown keys are an error."""
        opts = dict(options or {})
        if isinstance(players, bool) or players not in (3, 4, 5, 6):
            raise CakePartyError(f"Cake of Doom is for 3 to 6 players, not {players}")
        unknown = set(opts) - {"advanced", "blind"}
        if unknown:
            raise CakePartyError(f"unknown Cake of Doom option(s): {', '.join(sorted(unknown))}")
        for key, value in opts.items():
            if not isinstance(value, bool):
                raise CakePartyError(f"option {key} must be true or false")
        return cls(players=players, **opts)


class Phase(enum.StrEnum):
    """Where a game stands: whose choice it waits on (cards may be moving meanwhile)."""

    SETUP = "setup"  # waiting: aliens, continent, regions and first player; shuffles
    MIX = "mix"  # advanced: a seat chooses its opening mix of 8
    PLAY = "play"  # the turn player plays grab and steal cards, then bribes or passes
    SABOTAGE = "sabotage"  # a seat asked: sabotage the bribe, or not
    FORCE_FIELD = "force-field"  # the briber answers a sabotage with a Force Field, or not
    REMOVE = "remove"  # a saboteur chooses which cards and bonuses its sabotage removes
    PICK = "pick"  # a seat takes one card (Zix, Middle East, Australia, Vashti)
    DRAW = "draw"  # a seat chooses how many cards from each pile
    DISCARD = "discard"  # a seat discards (hand limit, control bonuses)
    ROB = "rob"  # East Asia: whom to steal from
    PEEK = "peek"  # Middle East: whose hand to look at
    WAITING = "waiting"  # cards are moving; no seat chooses
    OVER = "over"


@dataclass(frozen=True)
class Task:
    """The choice a game waits on: ``seat`` must act in ``phase``.

    ``count``: cards to draw or discard (``upto``: any number up to it); ``among``: the
    slots a pick chooses from, or the seats a rob or peek chooses from, or (REMOVE) the
    index of the sabotage; ``hold``: a hand looked at that stays as it is until the pick;
    ``why``: what asked for it (``turn``, ``limit``, ``mumbo``, a region's name …).
    """

    phase: Phase
    seat: int
    count: int = 0
    upto: bool = False
    among: tuple[int, ...] = ()
    hold: int | None = None
    why: str = "turn"


@dataclass(frozen=True)
class Held:
    """A region in play: who controls it, the cake cards lying on it and their value as it
    stood when won."""

    name: str
    holder: int | None = None
    cards: tuple[int, ...] = ()
    value: int = 0

    @property
    def continent(self) -> str:
        return REGIONS[self.name].continent

    @property
    def minimum(self) -> int:
        return REGIONS[self.name].minimum


@dataclass(frozen=True)
class SabotagePlay:
    """One sabotage against the current bribe: who played which card as what, whether a
    Force Field cancelled it, and what it removed (``None`` until chosen)."""

    seat: int
    slot: int
    kind: str
    blocked_by: int | None = None
    removal: tuple[int, ...] | None = None
    freya: int = 0

    @property
    def stands(self) -> bool:
        return self.blocked_by is None


@dataclass(frozen=True)
class Offer:
    """The bribe on the table.

    ``units[i]`` is the value of ``slots[i]`` at full value (1, or 2 with its +1), known once
    the offer is face up (empty before); ``removed[i]`` the value sabotage took from it;
    ``freya`` Freya's +1 (0 or 1) and ``freya_removed`` whether a saboteur took it.
    ``need`` is what the value must reach.
    """

    seat: int
    target: str
    slots: tuple[int, ...]
    need: int
    opened: bool = False
    units: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    freya: int = 0
    freya_removed: int = 0
    protected: bool = False  # advanced: two regions of one continent, no sabotage
    sabotages: tuple[SabotagePlay, ...] = ()

    @property
    def full_value(self) -> int | None:
        if not self.opened:
            return None
        return sum(self.units) + self.freya

    @property
    def value(self) -> int | None:
        """The value now, with every bonus and every removal so far (``None`` face down)."""
        if not self.opened:
            return None
        return sum(self.units) - sum(self.removed) + self.freya - self.freya_removed

    def left(self, slot: int) -> int:
        """What is left of ``slot``'s value."""
        i = self.slots.index(slot)
        return self.units[i] - self.removed[i]

    @property
    def remaining(self) -> tuple[int, ...]:
        """The cards not fully sabotaged."""
        return tuple(s for s in self.slots if self.left(s) > 0)

    @property
    def gone(self) -> tuple[int, ...]:
        """The cards fully sabotaged."""
        return tuple(s for s in self.slots if self.left(s) <= 0)


@dataclass(frozen=True)
class Breach:
    """A rule found broken once cards were shown: who, by which move, and why (``reason``
    untranslated, filled from ``params`` in the reader's language: see
    :func:`~cakeparty.core.actions.forfeit_words`)."""

    seat: int
    action: str
    reason: str
    turn: int
    params: ReasonParams = ()


Step = tuple[Any, ...]


@dataclass(frozen=True)
class DoomState:
    """Everything about a game, as far as the peer holding it knows the cards."""

    GAME: ClassVar[str] = GAME

    options: DoomOptions
    box: tuple[str, ...]
    knowledge: Knowledge
    phase: Phase
    queue: tuple[Request, ...] = ()
    agenda: tuple[Step, ...] = ()  # the automatic steps still to run, the first next
    task: Task | None = None
    draws: tuple[int, ...] = ()  # random results not yet used
    aliens: tuple[str, ...] = ()
    favourite: str | None = None  # DOOM's favourite continent
    regions: tuple[Held, ...] = ()  # the regions in play, in the order drawn
    first: int = 0  # the first player
    current: int = 0  # the turn player
    round: int = 0  # 1–10
    turn: int = 0  # turns begun
    cake_pile: tuple[int, ...] = ()  # top first
    mischief_pile: tuple[int, ...] = ()
    cake_discard: tuple[int, ...] = ()  # top last, face up
    mischief_discard: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    played: tuple[int, ...] = ()  # grab and steal cards on the table until they resolve
    offer: Offer | None = None
    asking: tuple[int, ...] = ()  # seats still to be asked to sabotage
    breaches: tuple[Breach, ...] = ()
    cheat: int | None = None
    doom: int | None = None  # the seat that won DOOM
    doom_cards: tuple[int, ...] = ()  # the cake cards that won it
    forfeit: int | None = None
    bribes_won: tuple[int, ...] = ()
    sabotages_played: tuple[int, ...] = ()
    events: tuple[Any, ...] = ()
    state_id: int = 0

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def pending(self) -> Request | None:
        return self.queue[0] if self.queue else None

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.queue or self.task is None or self.phase is Phase.OVER:
            return ()
        return (self.task.seat,)

    def left(self, seat: int) -> int:
        """The player on ``seat``'s left (the next seat)."""
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        """The player on ``seat``'s right (the previous seat)."""
        return (seat - 1) % self.players

    def limit(self, seat: int) -> int:
        """``seat``'s hand limit."""
        return GLORP_LIMIT if self.aliens and self.aliens[seat] == GLORP else HAND_LIMIT

    def draw_count(self, seat: int) -> int:
        """Cards ``seat`` draws in its draw step this round."""
        return self.round + (1 if self.aliens and self.aliens[seat] == PIB else 0)

    def held(self, name: str) -> Held | None:
        return next((r for r in self.regions if r.name == name), None)

    def regions_of(self, seat: int) -> tuple[Held, ...]:
        return tuple(r for r in self.regions if r.holder == seat)

    def cakes_in_hand(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.hands[seat] if is_cake_slot(s))

    def mischief_in_hand(self, seat: int) -> tuple[int, ...]:
        return tuple(s for s in self.hands[seat] if not is_cake_slot(s))

    def available(self, pile: str) -> int:
        """Cards a draw can still take from ``pile`` (the discard refills it, all but its
        top card)."""
        if pile == "cake":
            return len(self.cake_pile) + max(0, len(self.cake_discard) - 1)
        return len(self.mischief_pile) + max(0, len(self.mischief_discard) - 1)

    def name_of(self, slot: int) -> str | None:
        return self.knowledge.cards[slot]


class Draft(DoomState):
    """A state being worked on inside one ``apply``: a private copy of the state it began
    from, which :func:`replace` changes in place instead of copying it at every step.
    ``apply`` starts from :func:`draft` and hands back :func:`settled`, so no caller ever
    sees one, and the state it was given stays as it was."""


def draft(state: DoomState) -> Draft:
    """A private copy of ``state`` to work on."""
    new = object.__new__(Draft)
    new.__dict__.update(state.__dict__)
    return new


def settled(state: DoomState) -> DoomState:
    """``state`` as the plain frozen value it is from now on."""
    if type(state) is Draft:
        object.__setattr__(state, "__class__", DoomState)
    return state

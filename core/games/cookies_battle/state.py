"""The state of a Cookies Battle game: a frozen value, changed only by ``apply``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cakeparty.core.errors import CakePartyError
from cakeparty.core.games.cookies_battle.actions import UseMarker
from cakeparty.core.games.cookies_battle.cards import DEAL, cards, pieces
from cakeparty.core.games.cookies_battle.scoring import SeatScore
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Commit, Request

GAME = "cookies-battle"
VARIANTS = ("standard", "beginners")
DUEL = "duel"


@dataclass(frozen=True)
class CookiesOptions:
    """How this game is played: the number of players and the variant.

    Two players always play the duel; three to six play ``standard`` (the default) or
    ``beginners``.
    """

    players: int = 4
    variant: str = "standard"

    @property
    def duel(self) -> bool:
        return self.variant == DUEL

    @property
    def beginners(self) -> bool:
        return self.variant == "beginners"

    @property
    def markers(self) -> bool:
        """Whether magic markers are in the game (not in the duel)."""
        return not self.duel

    @property
    def tummy_ache(self) -> bool:
        """Whether the highest score has a tummy ache (the standard game only)."""
        return self.variant == "standard"

    @classmethod
    def parse(cls, players: int, options: Mapping[str, Any] | None) -> CookiesOptions:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
            raise CakePartyError(
                _("Cookies Battle is for 2 to 6 players, not {players}").format(players=players)
            )
        options = dict(options or {})
        unknown = sorted(str(k) for k in options if k != "variant")
        if unknown:
            raise CakePartyError(
                _("unknown Cookies Battle option(s): {names} (known: variant)").format(
                    names=", ".join(unknown)
                )
            )
        variant = options.get("variant")
        if players == 2:
            if variant not in (None, DUEL):
                raise CakePartyError(
                    _("two players always play the duel, not the {variant!r} variant").format(
                        variant=variant
                    )
                )
            return cls(players=2, variant=DUEL)
        if variant is None:
            variant = "standard"
        if variant not in VARIANTS:
            raise CakePartyError(
                _("unknown variant {variant!r} for {players} players (known: {known})").format(
                    variant=variant, players=players, known=", ".join(VARIANTS)
                )
            )
        return cls(players=players, variant=str(variant))


class Phase(enum.StrEnum):
    """Where a game stands."""

    SETUP = "setup"  # waiting: shuffles, the deal, pieces and cards shown
    PASS = "pass"  # sealed: each seat passes its cards (the duel: one card each way)
    PLAY = "play"  # the seat to play plays a card, or first uses a marker
    MARKER = "marker"  # the marker window after a card: the seat asked uses one or not
    DEFENSE = "defense"  # the window after a marker: the seat asked defends or not
    SWAP = "swap"  # the target of a Swap chooses the piece it gives
    OVER = "over"


@dataclass(frozen=True)
class Breach:
    """A rule found broken: who, by which move, and why (named by the audit)."""

    seat: int
    action: str
    reason: str
    round: int
    trick: int


@dataclass(frozen=True)
class CookiesState:
    """Everything about a game, as far as the peer holding it knows the slots."""

    GAME: ClassVar[str] = GAME

    options: CookiesOptions
    box: tuple[str, ...]
    knowledge: Knowledge
    phase: Phase
    queue: tuple[Request, ...] = ()
    then: str = ""  # what happens once the queue is empty
    draws: tuple[tuple[str, int, int], ...] = ()  # what each queued Random is for
    picks: tuple[tuple[int, int, int], ...] = ()  # random takes (taker, victim, slot)
    awarded: tuple[tuple[int, int], ...] = ()  # markers just earned (seat, slot)
    actor: int | None = None  # the one seat asked (play, marker, defense, swap)
    piece_pile: tuple[int, ...] = ()  # top first
    marker_pile: tuple[int, ...] = ()  # top first
    hands: tuple[tuple[int, ...], ...] = ()
    out: tuple[int, ...] = ()  # cards left out of this round, unseen
    played: tuple[int, ...] = ()  # cards of this round's finished tricks, face up
    pieces: tuple[tuple[int, ...], ...] = ()  # per seat, face down
    markers: tuple[tuple[int, ...], ...] = ()  # per seat, face down
    used: tuple[int, ...] = ()  # markers that left the game, face up
    round: int = 0
    trick_no: int = 0  # tricks begun this round
    first: int = 0  # this round's first player
    leader: int = 0
    trick: tuple[tuple[int, int], ...] = ()  # (seat, slot) in play order
    last_trick: tuple[tuple[int, int], ...] = ()
    last_winner: int | None = None
    turn_suit: str | None = None
    dispute: int | None = None  # the piece in dispute (slot)
    puppets: tuple[int, ...] = ()  # seats whose next card is drawn at random
    window: tuple[int, ...] = ()  # the marker window: seats still to ask after the actor
    defense: tuple[int, ...] = ()  # the Defense window: seats still to ask after the actor
    user: int | None = None  # the seat whose marker is being resolved
    using: UseMarker | None = None
    defender: int | None = None
    resume: str = ""  # after a marker: "play" (the player's own turn) or "window"
    given: int | None = None  # a Swap: the piece the target gives
    won_face_up: tuple[tuple[str, ...], ...] = ()  # per seat, the pieces won (public)
    tricks_won: tuple[int, ...] = ()
    markers_earned: tuple[int, ...] = ()
    markers_used: tuple[int, ...] = ()
    results: tuple[SeatScore, ...] = ()  # per seat, once the game is over
    winners: tuple[int, ...] = ()
    tummy_ache: tuple[int, ...] = ()  # seats out of the win for the highest score
    shared: bool = False
    breaches: tuple[Breach, ...] = ()
    cheat: int | None = None  # a seat that cheated: the game ended there
    cheat_reason: str = ""
    events: tuple[Any, ...] = ()
    # the events some seats may not read whole: (index, the event as each seat reads it,
    # then as a spectator does)
    secrets: tuple[tuple[int, tuple[Any, ...]], ...] = ()
    state_id: int = 0

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def pending(self) -> Request | None:
        return self.queue[0] if self.queue else None

    @property
    def choosing(self) -> tuple[int, ...]:
        """The seats whose sealed choice the game waits on."""
        request = self.pending
        return request.seats if isinstance(request, Commit) else ()

    @property
    def card_slots(self) -> range:
        return range(len(cards(self.options.variant)))

    @property
    def piece_slots(self) -> range:
        start = len(self.card_slots)
        return range(start, start + len(pieces()))

    @property
    def marker_slots(self) -> range:
        start = self.piece_slots.stop
        return range(start, len(self.box))

    @property
    def turn(self) -> int:
        """Tricks begun this game (what a simulation counts as turns)."""
        return (self.round - 1) * DEAL[self.players] + self.trick_no if self.round else 0

    @property
    def to_play(self) -> int:
        """The seat whose card the trick waits on."""
        return (self.leader + len(self.trick)) % self.players

    def evolve(self, **changes: Any) -> CookiesState:
        """A copy with ``changes``: ``dataclasses.replace`` without re-running ``__init__``
        (the state has no checks to re-run, and a game makes thousands of copies)."""
        if not changes.keys() <= _FIELDS:
            unknown = sorted(changes.keys() - _FIELDS)
            raise TypeError(f"CookiesState has no field(s) {unknown}")
        mine = self.__dict__
        if _DRAFT in mine:
            mine.update(changes)
            return self
        fields = mine.copy()  # a copy of the whole table at once, faster than field by field
        fields.update(changes)
        new = object.__new__(CookiesState)
        _set(new, "__dict__", fields)
        return new

    def draft(self) -> CookiesState:
        """A private copy that :meth:`evolve` changes in place until :meth:`done`: the
        working copy of one ``apply``, which takes a dozen steps and hands out only the
        last (the state given to ``apply`` never changes)."""
        new = self.evolve()
        new.__dict__[_DRAFT] = True
        return new

    def done(self) -> CookiesState:
        """This draft, frozen again: :meth:`evolve` copies it from now on."""
        self.__dict__.pop(_DRAFT, None)
        return self

    def left(self, seat: int) -> int:
        """The left neighbour: the next seat clockwise."""
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        """The right neighbour: the previous seat."""
        return (seat - 1) % self.players

    def name(self, slot: int) -> str | None:
        """The identity of ``slot`` as far as this state knows it."""
        return self.knowledge.cards[slot]


_FIELDS = frozenset(f.name for f in fields(CookiesState))
_set = object.__setattr__
#: the mark of a draft (not a field: equality, ``repr`` and copies of fields ignore it)
_DRAFT = "_draft"

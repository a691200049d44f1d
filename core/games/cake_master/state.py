"""The state of a Cake Master game: a frozen value, changed only by ``apply``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cakeparty.core.errors import CakePartyError
from cakeparty.core.games.cake_master.cards import CAKE_CARDS
from cakeparty.core.games.cake_master.scoring import Cake, Taste
from cakeparty.core.i18n import _, ngettext
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Commit, Request

GAME = "cake-master"
ROUNDS = 3
TURNS = 4  # turns per round
CAKES = 3
SOLO_EXCHANGES = 3
SOLO_CUSTOMERS = 3
CAKE_SLOTS = tuple(range(len(CAKE_CARDS)))

#: A seat's three cakes as slots, ``None`` where a quarter is empty.
SlotCake = tuple[int | None, ...]
EMPTY_SLOTS: SlotCake = (None,) * 4
NO_CAKES: tuple[SlotCake, ...] = (EMPTY_SLOTS,) * CAKES


@dataclass(frozen=True)
class MasterOptions:
    """How this game is played: only the number of players (1 is solo)."""

    players: int = 4

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def duo(self) -> bool:
        """Two players pass by keeping one card and giving the others."""
        return self.players == 2

    @property
    def hand_size(self) -> int:
        return 4 if self.solo else 3

    @classmethod
    def parse(cls, players: int, options: Mapping[str, Any] | None) -> MasterOptions:
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 6:
            raise CakePartyError(
                _("Cake Master is for 1 to 6 players, not {players}").format(players=players)
            )
        if options:
            unknown = sorted(str(k) for k in options)
            raise CakePartyError(
                ngettext(
                    "unknown Cake Master option: {names} (it has none)",
                    "unknown Cake Master options: {names} (it has none)",
                    len(unknown),
                ).format(names=", ".join(unknown))
            )
        return cls(players=players)


class Phase(enum.StrEnum):
    """Where a game stands."""

    SETUP = "setup"  # waiting: shuffles, new customers, the deal
    PASS = "pass"  # sealed: each seat picks a card for the left and one for the right
    KEEP = "keep"  # two players, sealed: keep one of three, give two
    KEEP_BACK = "keep-back"  # two players, sealed: keep one of the two received, give one back
    PASSING = "passing"  # waiting: passed cards are shown to their receivers
    PLACE = "place"  # sealed: each seat places its three cards (solo: or exchanges)
    EXCHANGING = "exchanging"  # solo, waiting: the new cards are shown
    PLACING = "placing"  # waiting: the placed cards are turned face up
    OVER = "over"


@dataclass(frozen=True)
class SeatScore:
    """One seat's round: its cakes, their taste, the customers they won."""

    cakes: tuple[Cake, ...]
    tastes: tuple[Taste, ...]
    taste_stars: int
    matches: tuple[tuple[int, int], ...]  # (cake, index into the round's customers)

    @property
    def taste(self) -> int:
        return sum(t.total for t in self.tastes)

    @property
    def stars(self) -> int:
        return self.taste_stars + len(self.matches)


@dataclass(frozen=True)
class RoundResult:
    """How a round was scored (public: cakes are face up, customers too)."""

    round: int
    customers: tuple[str, ...]
    seats: tuple[SeatScore, ...]
    stars: tuple[int, ...]  # totals after this round


@dataclass(frozen=True)
class MasterState:
    """Everything about a game, as far as the peer holding it knows the cards."""

    GAME: ClassVar[str] = GAME

    options: MasterOptions
    box: tuple[str, ...]  # 72 cake cards, then 18 customers
    knowledge: Knowledge
    deck: tuple[int, ...]  # cake cards, top first
    discard: tuple[int, ...]
    customer_deck: tuple[int, ...]
    customers: tuple[int, ...]  # open customers
    customer_discard: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    cakes: tuple[tuple[SlotCake, ...], ...]  # per seat, 3 cakes of 4 quarters
    phase: Phase
    queue: tuple[Request, ...] = ()
    received: tuple[tuple[int, ...], ...] = ()  # two players: the cards just given to a seat
    round: int = 0
    turn: int = 0  # turns played so far, this one included (1–12)
    stars: tuple[int, ...] = ()
    last_taste: tuple[int, ...] = ()  # per seat, taste points of the last round scored
    results: tuple[RoundResult, ...] = ()
    exchanges: int = 0  # solo: exchanges made this game
    met: int = 0  # solo: customers met this game
    forfeit: int | None = None
    placing: tuple[tuple[int, Any], ...] = ()  # the placements opened, until shown face up
    events: tuple[Any, ...] = field(default=())
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
    def turn_in_round(self) -> int:
        return (self.turn - 1) % TURNS + 1 if self.turn else 0

    def left(self, seat: int) -> int:
        """The left neighbour (the next seat)."""
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        """The right neighbour (the previous seat)."""
        return (seat - 1) % self.players

    def cake_cards(self, seat: int, cake: int) -> Cake:
        """The names on a cake's quarters, where this state knows them."""
        return tuple(None if s is None else self.knowledge.cards[s] for s in self.cakes[seat][cake])

    def seat_cakes(self, seat: int) -> tuple[Cake, ...]:
        return tuple(self.cake_cards(seat, c) for c in range(CAKES))


def evolve(state: MasterState, **changes: Any) -> MasterState:
    """A copy of ``state`` with ``changes``: what :func:`dataclasses.replace` gives, without
    running ``__init__`` again (the fields of a state are already checked; this is the
    engine's hottest path)."""
    new = object.__new__(MasterState)
    fields = new.__dict__
    fields.update(state.__dict__)
    for name in changes:
        if name not in fields:
            raise TypeError(f"MasterState has no field {name!r}")
    fields.update(changes)
    return new

"""The state of a Cake Duel: a frozen value, changed only by ``apply``."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from cakeparty.core.actions import ReasonParams
from cakeparty.core.errors import CakePartyError
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

GAME = "cake-duel"
TROPHIES_TO_WIN = 3
DUELS_TO_WIN = 3  # tournament: best of five
HAND_SIZE = 4


@dataclass(frozen=True)
class DuelOptions:
    """How this duel is played."""

    players: int = 2
    full: bool = True  # add hidden specials to the deck
    show_specials: bool = False  # reveal the specials drawn (for learning)
    tournament: bool = False  # best of five duels; revealing Sir Wolfy is optional

    @property
    def team(self) -> bool:
        return self.players == 4

    @property
    def sides(self) -> int:
        return 2

    @property
    def specials(self) -> int:
        """How many specials join the deck."""
        if not self.full:
            return 0
        return 3 if self.team else 2

    @property
    def sets(self) -> int:
        """How many copies of the game are combined (two in team mode)."""
        return 2 if self.team else 1

    @property
    def cakes(self) -> tuple[int, int]:
        """Cakes of the starting side and of the other side at the start of a bout."""
        return (4, 5) if self.team else (3, 4)

    @classmethod
    def parse(cls, players: int, options: Mapping[str, Any] | None) -> DuelOptions:
        """Options from a plain mapping, checked; unknown keys are an error."""
        opts = dict(options or {})
        if players not in (2, 4):
            raise CakePartyError(f"Cake Duel is for 2 players, or 4 in team mode, not {players}")
        known = {"full", "show_specials", "tournament"}
        unknown = set(opts) - known
        if unknown:
            raise CakePartyError(f"unknown Cake Duel option(s): {', '.join(sorted(unknown))}")
        for key, value in opts.items():
            if not isinstance(value, bool):
                raise CakePartyError(f"option {key} must be true or false")
        return cls(players=players, **opts)


class Phase(enum.StrEnum):
    """Where a duel stands; each decision phase names who decides what."""

    SPECIALS = "specials"  # waiting: the special set is shuffled, some join the deck
    SHUFFLE = "shuffle"  # waiting: the deck is shuffled for a new bout
    START = "start"  # waiting: fair random choice of the first attacker
    DEAL = "deal"  # waiting: hands are shown to their holders
    LEAD = "lead"  # team mode: the starting team picks its attacker A
    ATTACK = "attack"  # the attacker claims an attack or passes
    RESPOND = "respond"  # the target challenges, blocks or takes no action
    REPLY = "reply"  # the attacker challenges the block or takes no action
    FLIP = "flip"  # waiting: challenged cards are flipped
    PRIEST = "priest"  # the blocker picks which attack cards its Priests take
    TAKEN = "taken"  # waiting: the taken cards are shown to their new holder
    SUMMON = "summon"  # the attacker names a card for its Summoner
    DECLARE = "declare"  # the target says how many copies of the named card it holds
    LOOK = "look"  # waiting: the target's hand is shown to the attacker
    REMIX = "remix"  # waiting: a hand another seat saw is re-mixed by its holder
    TRADE = "trade"  # team mode: the attacker may trade with its teammate
    TRADE_ANSWER = "trade-answer"  # team mode: the teammate agrees or refuses
    RESUPPLY = "resupply"  # waiting: drawn cards are shown to their holders
    WOLFY = "wolfy"  # end of a turn: who played cards reveals a Sir Wolfy among them, or not
    OVER = "over"  # the duel (or the tournament) is over


@dataclass(frozen=True)
class Play:
    """A claim on the table: who played which slots as how many of what."""

    seat: int
    slots: tuple[int, ...]
    name: str

    @property
    def count(self) -> int:
        return len(self.slots)


@dataclass(frozen=True)
class Declaration:
    """A Summoner count stated by its target, checked when the hand is known."""

    seat: int
    slots: tuple[int, ...]
    name: str
    count: int


@dataclass(frozen=True)
class Breach:
    """A rule found broken once hidden cards were known: who, by which move, and why.

    The game goes on (every peer must stay in step, and only some may see the cards); the
    seats in ``witnesses`` see the breach at once, and the end-of-game audit names it to all.
    """

    seat: int
    action: str
    reason: str  # untranslated: read it with forfeit_words(reason, params)
    turn: int
    witnesses: int  # mask of the seats able to see it
    params: ReasonParams = ()


@dataclass(frozen=True)
class DuelState:
    """Everything about a duel, as far as the peer holding it knows the cards."""

    GAME: ClassVar[str] = GAME

    options: DuelOptions
    box: tuple[str, ...]  # every slot's card as it comes out of the box
    knowledge: Knowledge
    deck: tuple[int, ...]  # top first
    discard: tuple[int, ...]  # facedown, in the order played
    unused: tuple[int, ...]  # specials left out of this duel, never seen
    hands: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    cakes: tuple[int, int]  # per side
    trophies: tuple[int, int]  # per side, this duel
    duels: tuple[int, int]  # per side, duels won (tournament)
    phase: Phase
    queue: tuple[Request, ...] = ()  # requests waiting, the first is pending
    starter: int | None = None  # side that attacks first this bout
    order: tuple[int, ...] = ()  # turn order of seats, starting with the bout's first
    turn_index: int = 0  # position in ``order`` of the attacker
    attack: Play | None = None
    target: int | None = None
    block: Play | None = None
    passes: int = 0  # attacking turns in a row that ended in a pass
    extra_turn: bool = False
    summons: int = 0  # Summoner namings still to make this turn
    summon_thefts: int = 0  # of which steal cakes (not Scientist-blocked)
    summon_name: str | None = None
    oracle: bool = False  # an Oracle still to look this turn
    offer: Any = None  # team mode: the trade on offer (a Trade action)
    tauntable: tuple[tuple[int, ...], ...] = ()  # per seat: cards played unflipped this turn
    wolfy_seats: tuple[int, ...] = ()  # seats still to reveal a Sir Wolfy, or not, this turn
    taunting: int | None = None  # seat whose taunt is being revealed
    seen_specials: tuple[frozenset[str], ...] = ()  # per seat: specials known in this duel
    public_specials: frozenset[str] = frozenset()
    # (looker, holder, cards): cards a seat saw in another's hand, which slot unknown since
    # the holder re-mixed it; dropped once that hand loses a card
    glimpses: tuple[tuple[int, int, tuple[str | None, ...]], ...] = ()
    declarations: tuple[Declaration, ...] = ()
    breaches: tuple[Breach, ...] = ()
    bout: int = 1
    turn: int = 1
    events: tuple[Any, ...] = ()  # everything that happened, oldest first
    bout_start: int = 0  # index in ``events`` where this bout began
    winner: int | None = None  # side that won the duel (or the tournament)
    forfeit: int | None = None  # seat whose proven breach ended the game
    state_id: int = 0

    # -- derived facts ----------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.options.players

    def side(self, seat: int) -> int:
        """The side (team) of ``seat``: seats 0 and 2 against 1 and 3."""
        return seat % 2

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s % 2 == side)

    def teammate(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.options.team else None

    def holders(self, seat: int) -> tuple[int, ...]:
        """Who sees ``seat``'s hand: the seat, and its teammate in team mode."""
        mate = self.teammate(seat)
        return (seat,) if mate is None else tuple(sorted((seat, mate)))

    @property
    def attacker(self) -> int | None:
        return self.order[self.turn_index] if self.order else None

    @property
    def pending(self) -> Request | None:
        return self.queue[0] if self.queue else None

    def card_for(self, seat: int | None, slot: int) -> str | None:
        """The identity of ``slot`` if ``seat`` may know it and this state holds it."""
        if self.knowledge.knows(seat, slot):
            return self.knowledge.cards[slot]
        return None

    def game_slots(self) -> tuple[int, ...]:
        """Every slot in play this duel (not the unused specials)."""
        slots = [*self.deck, *self.discard]
        for hand in self.hands:
            slots.extend(hand)
        return tuple(sorted(slots))


_STATE_FIELDS = frozenset(f.name for f in fields(DuelState))


def evolve(state: DuelState, **changes: Any) -> DuelState:
    """``state`` with ``changes``: what :func:`dataclasses.replace` gives, made for a state
    that changes on every action.

    ``replace`` calls ``__init__`` with all of the state's fields; a duel's state is a flat
    value with no ``__post_init__``, so copying its ``__dict__`` gives the same new value
    at a small part of the cost. The old state is left as it was.
    """
    new = object.__new__(DuelState)
    attrs = new.__dict__
    attrs.update(state.__dict__)
    for name, value in changes.items():
        if name not in _STATE_FIELDS:
            raise TypeError(f"DuelState has no field {name!r}")
        attrs[name] = value
    return new

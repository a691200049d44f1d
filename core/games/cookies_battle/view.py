"""What one seat may see of a game: the only thing the UI and the bots read.

Identities appear only in ``known``, and only for slots this seat may know: its hand, the
cards it passed, every card played, the pieces in dispute, its own pieces (and pieces
whose slot it still knows), its own markers' kinds and every marker used. Events are
redacted for the seat (:func:`.events.redact`).
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass
from itertools import compress
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.cards import marker_kind
from cakeparty.core.games.cookies_battle.events import Event
from cakeparty.core.games.cookies_battle.legal import legal_actions, to_act
from cakeparty.core.games.cookies_battle.scoring import SeatScore, seat_score
from cakeparty.core.games.cookies_battle.state import CookiesOptions, CookiesState, Phase
from cakeparty.core.knowledge import PUBLIC, Knowledge


@dataclass(frozen=True)
class MarkerWindow:
    """A marker being resolved: who used what against whom, and what awaits."""

    user: int
    kind: str
    target: int | None
    awaiting: str  # "defense" (the Defense window), "swap" (the target's piece), "effect"
    on_turn: bool = False  # used on its user's turn to play (else in the window after a card)
    piece: int | None = None  # a Swap: the user's piece offered (slot)


@dataclass(frozen=True)
class CookiesView:
    """A game as seen from ``seat`` (``None``: a spectator, who sees only public facts)."""

    seat: int | None
    options: CookiesOptions
    phase: Phase
    to_act: tuple[int, ...]
    waiting: bool  # cards or pieces are being shuffled, dealt, drawn or shown
    hand: tuple[int, ...]
    known: Mapping[int, str]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, slot) in play order
    last_trick: tuple[tuple[int, int], ...]  # the trick just won
    last_winner: int | None
    leader: int
    to_play: int  # the seat whose card the trick waits on
    turn_suit: str | None
    dispute: int | None  # the piece in dispute (slot)
    pieces: tuple[tuple[int, ...], ...]  # per seat, slots (names in ``known`` where known)
    piece_counts: tuple[int, ...]
    won_face_up: tuple[tuple[str, ...], ...]  # per seat, the pieces it won (public)
    markers: tuple[tuple[int, str], ...]  # this seat's markers (slot, kind)
    marker_counts: tuple[int, ...]
    used_markers: tuple[str, ...]  # kinds of the markers that left the game
    marker_pile: int
    piece_pile: int
    round: int
    trick_no: int
    first: int  # this round's first player
    results: tuple[SeatScore, ...]  # per seat, once the game is over
    winners: tuple[int, ...]
    tummy_ache: tuple[int, ...]
    shared: bool
    window: MarkerWindow | None
    puppets: tuple[int, ...]  # seats whose next card is drawn at random
    cheat: int | None
    events: tuple[Event, ...]
    over: bool
    legal: tuple[Action, ...]
    state_id: int
    played: tuple[int, ...] = ()  # cards of this round's finished tricks, face up
    out: int = 0  # cards left out of this round, unseen
    # per slot, who may know its identity (a mask of seats, bit 30 for everyone): public
    # facts, the same at every peer, that follow from the public moves alone
    known_by: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def variant(self) -> str:
        return self.options.variant

    def card(self, slot: int | None) -> str | None:
        """The identity of ``slot`` if this seat knows it."""
        return None if slot is None else self.known.get(slot)

    @property
    def hand_cards(self) -> tuple[str | None, ...]:
        return tuple(self.known.get(s) for s in self.hand)

    @property
    def trick_cards(self) -> tuple[tuple[int, str | None], ...]:
        """The trick as (seat, card name)."""
        return tuple((seat, self.known.get(slot)) for seat, slot in self.trick)

    @property
    def dispute_piece(self) -> str | None:
        return self.card(self.dispute)

    def piece_names(self, seat: int) -> tuple[str | None, ...]:
        """``seat``'s pieces, by name where this seat knows them."""
        return tuple(self.known.get(s) for s in self.pieces[seat])

    def score(self, seat: int) -> SeatScore | None:
        """``seat``'s score as its pieces and unused markers stand now, if this seat knows
        every one of those pieces (its own always), else ``None``."""
        names = self.piece_names(seat)
        if any(n is None for n in names):
            return None
        return seat_score([n for n in names if n is not None], self.marker_counts[seat])

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act


def _window(state: CookiesState) -> MarkerWindow | None:
    user, using = state.user, state.using
    if user is None or using is None:
        return None
    if state.phase is Phase.DEFENSE:
        awaiting = "defense"
    elif state.phase is Phase.SWAP:
        awaiting = "swap"
    else:
        awaiting = "effect"
    target = using.target[0] if using.target else None
    piece = using.piece[0] if using.piece else None
    return MarkerWindow(user, using.kind, target, awaiting, state.resume == "play", piece)


def _events(state: CookiesState, seat: int | None) -> tuple[Event, ...]:
    if not state.secrets:
        return state.events
    events = list(state.events)
    reader = -1 if seat is None else seat
    for index, readings in state.secrets:
        events[index] = readings[reader]
    return tuple(events)


#: what each seat may see of a knowledge value, kept for the last few values (a value
#: often outlives many moves: a marker window, a pass, a search's playouts); a value is
#: held here with its entry, so its ``id`` is not reused while the entry lives
_SEEN: dict[int, tuple[Knowledge, dict[int | None, dict[int, str]]]] = {}
_SEEN_MAX = 256


def _visible(knowledge: Knowledge, seat: int | None) -> dict[int, str]:
    """:meth:`Knowledge.visible`, remembered per value: the dict is shared, never change it."""
    entry = _SEEN.get(id(knowledge))
    if entry is None or entry[0] is not knowledge:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        entry = _SEEN[id(knowledge)] = (knowledge, {})
    seen = entry[1]
    known = seen.get(seat)
    if known is None:
        bit = PUBLIC if seat is None else 1 << seat
        cards = knowledge.cards
        known = seen[seat] = {
            slot: name
            for slot in compress(range(len(cards)), map(bit.__and__, knowledge.known_by))
            if (name := cards[slot]) is not None
        }
    return known


class Known(Mapping[int, str]):
    """The identities a seat may know, by slot: worked out at the first look (a random
    bot, or a search that only plays on, never looks)."""

    __slots__ = ("_knowledge", "_names", "_seat")

    def __init__(self, knowledge: Knowledge, seat: int | None) -> None:
        self._knowledge = knowledge
        self._seat = seat
        self._names: dict[int, str] | None = None

    def _look(self) -> dict[int, str]:
        if self._names is None:
            self._names = _visible(self._knowledge, self._seat)
        return self._names

    def __getitem__(self, slot: int) -> str:
        return self._look()[slot]

    def __iter__(self) -> Iterator[int]:
        return iter(self._look())

    def __len__(self) -> int:
        return len(self._look())

    def __contains__(self, slot: object) -> bool:
        return slot in self._look()

    def get(self, slot: int, default: Any = None) -> Any:
        return self._look().get(slot, default)

    def keys(self) -> KeysView[int]:
        return self._look().keys()

    def values(self) -> ValuesView[str]:
        return self._look().values()

    def items(self) -> ItemsView[int, str]:
        return self._look().items()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Known):
            return self._look() == other._look()
        if isinstance(other, Mapping):
            return self._look() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Known({self._look()!r})"


def view(state: CookiesState, seat: int | None) -> CookiesView:
    """The game as ``seat`` may see it."""
    knowledge = state.knowledge
    bit = PUBLIC if seat is None else 1 << seat
    names, masks = knowledge.cards, knowledge.known_by
    mine: tuple[tuple[int, str], ...] = ()
    if seat is not None:
        mine = tuple(
            (slot, marker_kind(name))
            for slot in state.markers[seat]
            if masks[slot] & bit and (name := names[slot]) is not None
        )
    used = tuple(
        marker_kind(name)
        for slot in state.used
        if masks[slot] & bit and (name := names[slot]) is not None
    )
    acting = to_act(state)
    legal: tuple[Action, ...] = ()
    if seat is not None and seat in acting:
        legal = tuple(legal_actions(state, seat))
    over = state.phase is Phase.OVER
    # built as the dataclass would be, without its field-by-field frozen ``__init__``:
    # bots and searches ask for a view at every move
    out = object.__new__(CookiesView)
    out.__dict__.update(
        seat=seat,
        options=state.options,
        phase=state.phase,
        to_act=acting,
        waiting=bool(state.queue) and not state.choosing,
        hand=() if seat is None else state.hands[seat],
        known=Known(knowledge, seat),
        hand_sizes=tuple(map(len, state.hands)),
        trick=state.trick,
        last_trick=state.last_trick,
        last_winner=state.last_winner,
        leader=state.leader,
        to_play=state.to_play,
        turn_suit=state.turn_suit,
        dispute=state.dispute,
        pieces=state.pieces,
        piece_counts=tuple(map(len, state.pieces)),
        won_face_up=state.won_face_up,
        markers=mine,
        marker_counts=tuple(map(len, state.markers)),
        used_markers=used,
        marker_pile=len(state.marker_pile),
        piece_pile=len(state.piece_pile),
        round=state.round,
        trick_no=state.trick_no,
        first=state.first,
        results=state.results,
        winners=state.winners if over else (),
        tummy_ache=state.tummy_ache,
        shared=state.shared,
        window=_window(state),
        puppets=state.puppets,
        cheat=state.cheat,
        events=_events(state, seat),
        over=over,
        legal=legal,
        state_id=state.state_id,
        played=state.played,
        out=len(state.out),
        known_by=state.knowledge.known_by,
    )
    return out

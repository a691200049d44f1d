"""What one seat may see of a game: the only thing the UI and the bots read.

Identities appear only in ``known``, and only for slots this seat may know: its own hand,
the cards it passed or was given this turn, the cakes (face up) and the customers. Where
every card lies, as slots, is public, and so is who may know each slot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.events import Event
from cakeparty.core.games.cake_master.legal import choices, exchanges_left
from cakeparty.core.games.cake_master.scoring import Cake
from cakeparty.core.games.cake_master.state import (
    CAKES,
    MasterOptions,
    MasterState,
    Phase,
    RoundResult,
    SlotCake,
)


@dataclass(frozen=True)
class MasterView:
    """A game as seen from ``seat`` (``None``: a spectator, who sees only public facts)."""

    seat: int | None
    options: MasterOptions
    phase: Phase
    to_act: tuple[int, ...]  # seats whose sealed choice the game waits on
    waiting: bool  # cards are being shuffled, dealt or shown
    hand: tuple[int, ...]
    received: tuple[int, ...]  # two players: the cards just given to this seat
    known: Mapping[int, str]
    hand_sizes: tuple[int, ...]
    #: Public facts every peer holds (every choice names slots, never identities): each
    #: seat's hand as slots, the slots each seat was just given (two players), and who may
    #: know each slot (:attr:`cakeparty.core.knowledge.Knowledge.known_by`).
    hands: tuple[tuple[int, ...], ...]
    given: tuple[tuple[int, ...], ...]
    known_by: tuple[int, ...]
    cakes: tuple[tuple[SlotCake, ...], ...]  # per seat, slots
    customers: tuple[int, ...]  # open customers, slots
    deck_count: int
    discard_count: int
    customers_left: int  # still in the customer deck
    round: int
    turn: int
    stars: tuple[int, ...]
    last_taste: tuple[int, ...]
    results: tuple[RoundResult, ...]
    exchanges_left: int  # solo
    met: int  # solo: customers met so far
    events: tuple[Event, ...]
    over: bool
    state_id: int

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def solo(self) -> bool:
        return self.options.solo

    @property
    def turn_in_round(self) -> int:
        return (self.turn - 1) % 4 + 1 if self.turn else 0

    def card(self, slot: int | None) -> str | None:
        """The identity of ``slot`` if this seat knows it."""
        return None if slot is None else self.known.get(slot)

    @property
    def hand_cards(self) -> tuple[str | None, ...]:
        return tuple(self.known.get(s) for s in self.hand)

    def cake(self, seat: int, cake: int) -> Cake:
        """The card names on one of ``seat``'s cakes (face up), ``None`` where empty."""
        return tuple(self.card(s) for s in self.cakes[seat][cake])

    def seat_cakes(self, seat: int) -> tuple[Cake, ...]:
        return tuple(self.cake(seat, c) for c in range(CAKES))

    @property
    def customer_names(self) -> tuple[str, ...]:
        return tuple(self.known.get(s, "?") for s in self.customers)

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """Every choice this seat may seal now."""
        if self.seat is None or self.seat not in self.to_act:
            return ()
        return tuple(
            choices(
                self.phase, self.hand, self.received, self.cakes[self.seat], self.exchanges_left
            )
        )


def view(state: MasterState, seat: int | None) -> MasterView:
    """The game as ``seat`` may see it."""
    hand: tuple[int, ...] = () if seat is None else state.hands[seat]
    received: tuple[int, ...] = () if seat is None or not state.received else state.received[seat]
    return MasterView(
        seat=seat,
        options=state.options,
        phase=state.phase,
        to_act=state.choosing,
        waiting=bool(state.queue) and not state.choosing,
        hand=hand,
        received=received,
        known=MappingProxyType(state.knowledge.visible(seat)),
        hand_sizes=tuple(len(h) for h in state.hands),
        hands=state.hands,
        given=state.received,
        known_by=state.knowledge.known_by,
        cakes=state.cakes,
        customers=state.customers,
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        customers_left=len(state.customer_deck),
        round=state.round,
        turn=state.turn,
        stars=state.stars,
        last_taste=state.last_taste,
        results=state.results,
        exchanges_left=exchanges_left(state),
        met=state.met,
        events=state.events,
        over=state.phase is Phase.OVER,
        state_id=state.state_id,
    )

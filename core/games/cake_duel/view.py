"""What one seat may see of a duel: the only thing the UI and the bots read.

A view is built from the state by this observer alone; the state knows nothing of views.
Identities appear only in ``known`` (and in the public events of flipped cards), and only
for slots this seat may know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.claims import Blocking
from cakeparty.core.games.cake_duel.events import Event
from cakeparty.core.games.cake_duel.legal import legal_actions, to_act
from cakeparty.core.games.cake_duel.state import Breach, DuelOptions, DuelState, Phase, Play


@dataclass(frozen=True)
class DuelView:
    """A duel as seen from ``seat`` (``None``: a spectator, who sees only public facts)."""

    seat: int | None
    options: DuelOptions
    phase: Phase
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]
    waiting: bool  # a request (deal, reveal, shuffle) is being fulfilled
    hand: tuple[int, ...]  # this seat's hand, slot ids
    known: Mapping[int, str]  # every identity this seat may know now
    # per other seat: cards this seat saw in that hand, which slot unknown (re-mixed since)
    glimpses: Mapping[int, tuple[str, ...]]
    hands: tuple[tuple[int, ...], ...]  # every seat's hand as slot ids (public)
    hand_sizes: tuple[int, ...]
    cakes: tuple[int, int]  # per side
    trophies: tuple[int, int]
    duels: tuple[int, int]
    attacker: int | None
    target: int | None
    attack: Play | None
    block: Play | None
    order: tuple[int, ...]
    deck_count: int
    discard_count: int
    specials_in_deck: int  # hidden specials shuffled into this duel's deck
    specials_seen: frozenset[str]  # specials this seat knows to be in the deck
    passes: int
    summon_name: str | None
    trade_offer: Action | None
    bout: int
    turn: int
    events: tuple[Event, ...]  # this bout, public
    log: tuple[Event, ...]  # the whole match so far, public
    winner: int | None  # side
    breaches: tuple[Breach, ...]  # rules this seat has seen broken
    state_id: int

    @property
    def players(self) -> int:
        return self.options.players

    def side(self, seat: int) -> int:
        return seat % 2

    @property
    def my_side(self) -> int | None:
        return None if self.seat is None else self.seat % 2

    def card(self, slot: int) -> str | None:
        """The identity of ``slot`` if this seat knows it."""
        return self.known.get(slot)

    @property
    def hand_cards(self) -> tuple[str | None, ...]:
        return tuple(self.known.get(s) for s in self.hand)


def view(state: DuelState, seat: int | None) -> DuelView:
    """The duel as ``seat`` may see it."""
    hand: tuple[int, ...] = () if seat is None else state.hands[seat]
    legal: tuple[Action, ...] = () if seat is None else tuple(legal_actions(state, seat))
    seen = state.public_specials if seat is None else state.seen_specials[seat]
    # a view is built for every decision (and every search step): filling the frozen
    # value's ``__dict__`` at once is several times cheaper than its ``__init__``
    built = object.__new__(DuelView)
    built.__dict__.update(
        seat=seat,
        options=state.options,
        phase=state.phase,
        to_act=to_act(state),
        legal=legal,
        waiting=bool(state.queue),
        hand=hand,
        known=MappingProxyType(state.knowledge.visible(seat)),
        glimpses=MappingProxyType(
            {
                holder: tuple(c for c in cards if c is not None)
                for looker, holder, cards in state.glimpses
                if looker == seat
            }
        ),
        hands=state.hands,
        hand_sizes=state.hand_sizes,
        cakes=state.cakes,
        trophies=state.trophies,
        duels=state.duels,
        attacker=state.attacker,
        target=state.target,
        attack=state.attack,
        block=state.block,
        order=state.order,
        deck_count=len(state.deck),
        discard_count=len(state.discard),
        specials_in_deck=state.options.specials,
        specials_seen=seen,
        passes=state.passes,
        summon_name=state.summon_name,
        trade_offer=state.offer,
        bout=state.bout,
        turn=state.turn,
        events=state.events[state.bout_start :],
        log=state.events,
        winner=state.winner,
        breaches=tuple(b for b in state.breaches if seat is not None and b.witnesses >> seat & 1),
        state_id=state.state_id,
    )
    return built


def summons_left(view: DuelView) -> tuple[int, int]:
    """Summoner namings still to make this turn, and of those the ones that steal."""
    attack = view.attack
    if attack is None or view.phase not in (Phase.SUMMON, Phase.DECLARE):
        return 0, 0
    blocking = Blocking.of(attack, view.block)
    active = attack.count - blocking.cancelled
    stealing = max(0, active - blocking.blocked)
    named = declared = 0
    for event in reversed(view.events):
        if isinstance(event, ev.Claimed):
            break
        named += isinstance(event, ev.Summoned)
        declared += isinstance(event, ev.Declared)
    if view.phase is Phase.DECLARE:
        named -= 1  # the one being counted is not done yet
    return active - named, stealing - declared

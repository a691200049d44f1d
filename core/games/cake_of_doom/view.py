"""What one seat may see of a game: the only thing the UI and the bots read.

Identities appear only in ``known``, and only for slots this seat may know: its own hand,
a card it stole or saw in a look (until the hand is re-mixed), the cards face up (played,
offered in the open, lying on regions, in the discard piles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from types import MappingProxyType

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_of_doom.cards import CAKES, DOOM_MINIMUM, REGIONS, is_cake_slot
from cakeparty.core.games.cake_of_doom.events import Event
from cakeparty.core.games.cake_of_doom.legal import legal_actions
from cakeparty.core.games.cake_of_doom.state import (
    Breach,
    DoomOptions,
    DoomState,
    Held,
    Phase,
    SabotagePlay,
    Step,
    Task,
)
from cakeparty.core.knowledge import PUBLIC, Knowledge


@dataclass(frozen=True)
class RegionView:
    """A region in play as everyone sees it."""

    name: str
    continent: str
    minimum: int
    holder: int | None
    cards: tuple[int, ...]  # the cake cards lying on it (face up)
    value: int  # their value as it stood when won
    bonus: str | None  # the control bonus text (advanced; marked for translation)


@dataclass(frozen=True)
class DoomInfo:
    favourite: str | None
    minimum: int
    holder: int | None
    cards: tuple[int, ...] = ()  # the cake cards that won it


@dataclass(frozen=True)
class OfferView:
    """The bribe on the table. ``slots`` are face down until ``opened`` (blind); ``value``
    is the value now with every bonus and removal (``None`` face down); ``need`` is what it
    must reach; ``left`` per slot the value still lying (face up only)."""

    seat: int
    target: str
    slots: tuple[int, ...]
    opened: bool
    value: int | None
    full_value: int | None
    need: int
    freya: int
    freya_removed: int
    protected: bool
    left: tuple[int, ...]
    sabotages: tuple[SabotagePlay, ...]
    units: tuple[int, ...] = ()  # per slot its full value (face up only)
    removed: tuple[int, ...] = ()  # per slot the value sabotage took (face up only)


@dataclass(frozen=True)
class DoomView:
    """A game as seen from ``seat`` (``None``: a spectator, who sees only public facts)."""

    seat: int | None
    options: DoomOptions
    phase: Phase
    to_act: tuple[int, ...]
    waiting: bool  # cards are being shuffled, dealt, shown or re-mixed
    task: Task | None
    round: int
    turn: int
    current: int  # the turn player
    first: int
    hand: tuple[int, ...]
    known: Mapping[int, str]
    hand_sizes: tuple[int, ...]
    hand_cakes: tuple[int, ...]  # per seat, cake cards in hand (public: the backs differ)
    aliens: tuple[str, ...]
    regions: tuple[RegionView, ...]
    doom: DoomInfo
    cake_pile: int
    mischief_pile: int
    cake_discard: tuple[int, ...]  # top last, face up
    mischief_discard: tuple[int, ...]
    offer: OfferView | None
    asking: tuple[int, ...]  # seats still to be asked to sabotage
    bribes_won: tuple[int, ...]
    sabotages_played: tuple[int, ...]
    events: tuple[Event, ...]
    over: bool
    winners: tuple[int, ...]
    cheat: int | None
    legal: tuple[Action, ...]  # every move this seat may make now
    state_id: int
    # public facts the table keeps, so that a game can be rebuilt from a view
    played: tuple[int, ...] = ()  # grab and steal cards on the table (face up)
    agenda: tuple[Step, ...] = ()  # the automatic steps still to run, the first next
    draws: tuple[int, ...] = ()  # fair random results not yet used
    breaches: tuple[Breach, ...] = ()
    forfeit: int | None = None

    @property
    def players(self) -> int:
        return self.options.players

    def card(self, slot: int | None) -> str | None:
        """The identity of ``slot`` if this seat knows it."""
        return None if slot is None else self.known.get(slot)

    @property
    def hand_cards(self) -> tuple[str | None, ...]:
        return tuple(self.known.get(s) for s in self.hand)

    @property
    def cake_hand(self) -> tuple[int, ...]:
        return tuple(s for s in self.hand if is_cake_slot(s))

    @property
    def mischief_hand(self) -> tuple[int, ...]:
        return tuple(s for s in self.hand if not is_cake_slot(s))

    def regions_of(self, seat: int) -> tuple[RegionView, ...]:
        return tuple(r for r in self.regions if r.holder == seat)


def _offer_view(state: DoomState) -> OfferView | None:
    offer = state.offer
    if offer is None:
        return None
    left = tuple(offer.left(s) for s in offer.slots) if offer.opened else ()
    return OfferView(
        seat=offer.seat,
        target=offer.target,
        slots=offer.slots,
        opened=offer.opened,
        value=offer.value,
        full_value=offer.full_value,
        need=offer.need,
        freya=offer.freya,
        freya_removed=offer.freya_removed,
        protected=offer.protected,
        left=left,
        sabotages=offer.sabotages,
        units=offer.units,
        removed=offer.removed,
    )


@lru_cache(maxsize=4096)
def _region_view(held: Held, advanced: bool) -> RegionView:
    info = REGIONS[held.name]
    return RegionView(
        name=held.name,
        continent=info.continent,
        minimum=info.minimum,
        holder=held.holder,
        cards=held.cards,
        value=held.value,
        bonus=info.bonus if advanced else None,
    )


def _known(knowledge: Knowledge, seat: int | None) -> Mapping[int, str]:
    """The identities ``seat`` may know, read-only (:meth:`Knowledge.visible`, read with
    the masks filtered first: most slots are hidden from a seat)."""
    bit = PUBLIC if seat is None else 1 << seat
    cards = knowledge.cards
    seen = compress(range(len(cards)), [mask & bit for mask in knowledge.known_by])
    return MappingProxyType({slot: name for slot in seen if (name := cards[slot]) is not None})


def view(state: DoomState, seat: int | None) -> DoomView:
    """The game as ``seat`` may see it."""
    from cakeparty.core.games.cake_of_doom.flow import winners

    hand: tuple[int, ...] = () if seat is None else state.hands[seat]
    won = winners(state)[0] if state.phase is Phase.OVER else ()
    # a view is made for every decision; its fields are set at once, as ``__init__`` would
    made = object.__new__(DoomView)
    made.__dict__.update(
        seat=seat,
        options=state.options,
        phase=state.phase,
        to_act=state.to_act,
        waiting=bool(state.queue),
        task=state.task,
        round=state.round,
        turn=state.turn,
        current=state.current,
        first=state.first,
        hand=hand,
        known=_known(state.knowledge, seat),
        hand_sizes=tuple(map(len, state.hands)),
        hand_cakes=tuple(len([s for s in h if s < CAKES]) for h in state.hands),
        aliens=state.aliens,
        regions=tuple(_region_view(r, state.options.advanced) for r in state.regions),
        doom=DoomInfo(state.favourite, DOOM_MINIMUM, state.doom, state.doom_cards),
        cake_pile=len(state.cake_pile),
        mischief_pile=len(state.mischief_pile),
        cake_discard=state.cake_discard,
        mischief_discard=state.mischief_discard,
        offer=_offer_view(state),
        asking=state.asking,
        bribes_won=state.bribes_won,
        sabotages_played=state.sabotages_played,
        events=state.events,
        over=state.phase is Phase.OVER,
        winners=won,
        cheat=state.cheat,
        legal=() if seat is None else tuple(legal_actions(state, seat)),
        state_id=state.state_id,
        played=state.played,
        agenda=state.agenda,
        draws=state.draws,
        breaches=state.breaches,
        forfeit=state.forfeit,
    )
    return made

"""A bribe from offer to resolution: the offer (face up at once, or blind), sabotage asked
seat by seat from the briber's left (Krell once more), the briber's Force Field after each
sabotage, the removals, then success (the region and its cards, eaten cakes, Vashti, a
control bonus; DOOM wins at once) or failure (the cards back to hand, Mumbo).

See :mod:`.flow` for the decisions taken where the printed rules leave room.
"""

from __future__ import annotations

from typing import Any

from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Bribe,
    ForceField,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import (
    DOOM,
    FORCE_FIELD,
    KRELL,
    MUMBO,
    VASHTI,
)
from cakeparty.core.games.cake_of_doom.rules import (
    amount,
    freya_bonus,
    protected,
    requirement,
    target_continent,
    units,
)
from cakeparty.core.games.cake_of_doom.state import (
    DoomState,
    Held,
    Offer,
    Phase,
    SabotagePlay,
    Task,
    replace,
)
from cakeparty.core.games.cake_of_doom.steps import (
    add,
    ask,
    cheat,
    draw_task,
    drop,
    game_over,
    log,
    plus_one,
    public_names,
    show_all,
    then,
)
from cakeparty.core.i18n import N_


def bribe(state: DoomState, seat: int, action: Bribe) -> DoomState:
    """The offer goes on the table: face up at once, or (blind) face down until every saboteur
    has answered."""
    need = requirement(state, seat, action.target)
    assert need is not None
    offer = Offer(
        seat=seat,
        target=action.target,
        slots=action.slots,
        need=need,
        freya=freya_bonus(state, seat, action.target),
        protected=protected(state, seat),
    )
    state = replace(drop(state, seat, action.slots), offer=offer)
    blind = state.options.blind
    state = log(state, ev.Bribed(seat, action.target, (None,) * len(action.slots), need))
    steps: list[tuple[Any, ...]] = []
    if not blind:
        state = show_all(state, action.slots)
        steps.append(("open-offer", str(action)))
    steps += [("asking",), ("closing", str(action)), ("resolve",)]
    steps += [("draw-step",), ("limit",), ("end-turn",)]
    return replace(state, agenda=tuple(steps))


def open_offer(state: DoomState, move: str) -> DoomState:
    """The offer is face up: its value with every +1; below what its target needs, the briber
    cheated."""
    offer = state.offer
    assert offer is not None
    names = tuple(state.knowledge.cards[s] for s in offer.slots)
    if any(n is None for n in names):
        raise IllegalActionError(None, move, "the offer was not shown")
    continent = target_continent(state, offer.target)
    alien = state.aliens[offer.seat]
    worth = tuple(units(n, continent, alien) for n in names if n is not None)
    offer = replace(offer, opened=True, units=worth, removed=(0,) * len(worth))
    state = replace(state, offer=offer)
    value = offer.value
    assert value is not None
    shown = tuple(n for n in names if n is not None)
    state = log(state, ev.OfferOpened(offer.seat, offer.target, shown, value, offer.freya))
    if any(w == 0 for w in worth):
        return cheat(state, offer.seat, move, N_("offered a card that is no cake"))
    full = offer.full_value
    assert full is not None
    if full < offer.need:
        reason = N_("offered {value} where {need} is needed")
        return cheat(state, offer.seat, move, reason, (("value", full), ("need", offer.need)))
    return state


def asking(state: DoomState) -> DoomState:
    """Ask each other seat in turn from the briber's left, unless the briber is protected."""
    offer = state.offer
    assert offer is not None
    if offer.protected:
        return log(state, ev.Protected(offer.seat))
    seats = tuple((offer.seat + i) % state.players for i in range(1, state.players))
    return then(replace(state, asking=seats), ("ask",))


def ask_next(state: DoomState) -> DoomState:
    """Ask the next seat that holds a mischief card (the backs are public) whether it sabotages."""
    while state.asking:
        seat, rest = state.asking[0], state.asking[1:]
        state = replace(state, asking=rest)
        if state.mischief_in_hand(seat):
            return ask(state, Task(Phase.SABOTAGE, seat, why="sabotage"))
    return state


def sabotaged(state: DoomState, seat: int, action: Sabotage) -> DoomState:
    """A sabotage card is played: shown to all, then the briber's Force Field answer."""
    offer = state.offer
    assert offer is not None
    play = SabotagePlay(seat, action.slot, action.kind)
    offer = replace(offer, sabotages=(*offer.sabotages, play))
    state = replace(
        drop(state, seat, (action.slot,)),
        offer=offer,
        sabotages_played=plus_one(state.sabotages_played, seat),
    )
    state = show_all(log(state, ev.Sabotaged(seat, action.kind)), (action.slot,))
    return then(
        state,
        ("claim", seat, action.slot, action.kind, str(action)),
        ("ff-ask",),
        ("after-ff",),
        ("ask",),
    )


def ff_ask(state: DoomState) -> DoomState:
    """The briber may answer the sabotage just played, if it holds a mischief card."""
    offer = state.offer
    assert offer is not None
    if not state.mischief_in_hand(offer.seat):
        return state
    return ask(state, Task(Phase.FORCE_FIELD, offer.seat, why="force-field"))


def shielded(state: DoomState, seat: int, action: ForceField) -> DoomState:
    """A Force Field cancels the sabotage just played."""
    offer = state.offer
    assert offer is not None
    last = replace(offer.sabotages[-1], blocked_by=action.slot)
    offer = replace(offer, sabotages=(*offer.sabotages[:-1], last))
    state = replace(drop(state, seat, (action.slot,)), offer=offer)
    state = show_all(log(state, ev.Shielded(seat, last.seat)), (action.slot,))
    return then(state, ("claim", seat, action.slot, FORCE_FIELD, str(action)))


def after_ff(state: DoomState) -> DoomState:
    """Krell is asked once more; a standing sabotage in the open game removes value now."""
    offer = state.offer
    assert offer is not None
    index = len(offer.sabotages) - 1
    last = offer.sabotages[index]
    mine = sum(1 for s in offer.sabotages if s.seat == last.seat)
    if state.aliens[last.seat] == KRELL and mine == 1:
        state = replace(state, asking=(last.seat, *state.asking))
    if last.stands and offer.opened:
        return then(state, ("removal", index))
    return state


def removal(state: DoomState, index: int) -> DoomState:
    """The saboteur of sabotage ``index`` chooses what it removes (nothing to choose: nothing)."""
    offer = state.offer
    assert offer is not None and offer.value is not None
    play = offer.sabotages[index]
    if amount(play.kind, offer.value) == 0:
        return record_removal(state, index, (), 0)
    return ask(state, Task(Phase.REMOVE, play.seat, among=(index,), why="remove"))


def record_removal(state: DoomState, index: int, slots: tuple[int, ...], freya: int) -> DoomState:
    """Take the chosen value off the offer's cards and Freya's +1."""
    offer = state.offer
    assert offer is not None
    removed = list(offer.removed)
    for slot in slots:
        removed[offer.slots.index(slot)] += 1
    play = replace(offer.sabotages[index], removal=slots, freya=freya)
    sabotages = (*offer.sabotages[:index], play, *offer.sabotages[index + 1 :])
    offer = replace(
        offer,
        removed=tuple(removed),
        freya_removed=offer.freya_removed + freya,
        sabotages=sabotages,
    )
    state = replace(state, offer=offer)
    value = offer.value
    assert value is not None
    chosen = tuple(dict.fromkeys(slots))  # a slot twice: the card and its +1
    gone = tuple(s for s in chosen if offer.left(s) <= 0)
    sideways = tuple(s for s in chosen if offer.left(s) > 0)
    names = public_names(state, gone), public_names(state, sideways)
    return log(state, ev.Removed(play.seat, *names, freya, value))


def closing(state: DoomState, move: str) -> DoomState:
    """Every saboteur has answered: a blind offer is shown, then its removals come in order."""
    offer = state.offer
    assert offer is not None
    if offer.opened:
        return state
    state = show_all(state, offer.slots)
    return then(state, ("open-offer", move), ("blind-removals",))


def blind_removals(state: DoomState) -> DoomState:
    """Blind: each standing sabotage, in the order played, chooses its removal."""
    offer = state.offer
    assert offer is not None
    steps = [("removal", i) for i, play in enumerate(offer.sabotages) if play.stands]
    return then(state, *steps)


def resolve(state: DoomState) -> DoomState:
    """Success: the region and the cards left on it (its old cards eaten), or DOOM and the
    game; failure: the cards not removed back to hand."""
    offer = state.offer
    assert offer is not None and offer.value is not None
    seat, value = offer.seat, offer.value
    played = tuple(
        slot
        for play in offer.sabotages
        for slot in (play.slot, play.blocked_by)
        if slot is not None
    )
    state = replace(state, offer=None, mischief_discard=state.mischief_discard + played)
    if value < offer.need:
        state = add(state, seat, offer.remaining)
        state = replace(state, cake_discard=state.cake_discard + offer.gone)
        state = log(
            state,
            ev.BribeFailed(seat, offer.target, value, offer.need, len(offer.remaining)),
        )
        if state.aliens[seat] == MUMBO:
            return then(state, ("mumbo", seat))
        return state
    state = replace(state, bribes_won=plus_one(state.bribes_won, seat))
    if offer.target == DOOM:
        state = replace(
            state,
            doom_cards=offer.remaining,
            cake_discard=state.cake_discard + offer.gone,
        )
        state = log(state, ev.BribeWon(seat, DOOM, value, None, 0))
        return game_over(replace(state, doom=seat), "doom")
    held = state.held(offer.target)
    assert held is not None
    eaten = held.cards
    won = Held(offer.target, seat, offer.remaining, value)
    regions = tuple(won if r.name == offer.target else r for r in state.regions)
    state = replace(state, regions=regions, cake_discard=state.cake_discard + offer.gone + eaten)
    state = log(state, ev.BribeWon(seat, offer.target, value, held.holder, len(eaten)))
    steps: list[tuple[Any, ...]] = []
    if eaten and held.holder is not None and state.aliens[held.holder] == VASHTI:
        steps.append(("vashti", held.holder, eaten))
    if state.options.advanced:
        steps.append(("bonus", seat, offer.target))
    return then(state, *steps)


def vashti(state: DoomState, seat: int, eaten: tuple[int, ...]) -> DoomState:
    """Vashti, whose region was taken, picks one of its eaten cakes."""
    among = tuple(s for s in eaten if s in state.cake_discard)
    if not among:
        return state
    return ask(state, Task(Phase.PICK, seat, among=among, why="vashti"))


def mumbo(state: DoomState, seat: int) -> DoomState:
    """Mumbo's failed bribe: draw 1 card from the pile of its choice."""
    return draw_task(state, seat, 1, "mumbo")

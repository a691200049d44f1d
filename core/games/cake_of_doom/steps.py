"""The small moves every part of a turn shares: logging, asking a seat, requests, moving
cards between hands, piles and discards, drawing (with the refill of a pile), re-mixing a
hand others know, checking a claim, and the end of the game.

Steps and moves return a new state; a step that needs a seat's choice sets ``state.task``,
one that needs a dealer queues a request, and ``then`` puts steps to run next in front of
the agenda (see :mod:`.flow`).
"""

from __future__ import annotations

from typing import Any

from cakeparty.core.actions import ReasonParams
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.cards import (
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.state import (
    Breach,
    DoomState,
    Phase,
    Task,
    replace,
)
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import EVERYONE
from cakeparty.core.requests import Remix, Reveal, Shuffle


def log(state: DoomState, *events: Any) -> DoomState:
    """Add public events to the story."""
    return replace(state, events=state.events + events)


def then(state: DoomState, *steps: tuple[Any, ...]) -> DoomState:
    """Run ``steps`` next, before the rest of the agenda."""
    return replace(state, agenda=(*steps, *state.agenda))


def ask(state: DoomState, task: Task) -> DoomState:
    """Wait on ``task``: a seat's choice."""
    return replace(state, task=task, phase=task.phase)


def request(state: DoomState, *requests: Any) -> DoomState:
    """Queue requests for the dealer."""
    return replace(state, queue=(*state.queue, *requests))


def set_hand(state: DoomState, seat: int, hand: tuple[int, ...]) -> DoomState:
    """``seat``'s hand is now ``hand``."""
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def add(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    """Put ``slots`` into ``seat``'s hand."""
    return set_hand(state, seat, state.hands[seat] + slots)


def drop(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    """Take ``slots`` out of ``seat``'s hand."""
    return set_hand(state, seat, tuple(s for s in state.hands[seat] if s not in slots))


def plus_one(values: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """``values`` with one more for ``seat``."""
    return tuple(v + 1 if i == seat else v for i, v in enumerate(values))


def show_all(state: DoomState, slots: tuple[int, ...]) -> DoomState:
    """Have ``slots`` turned face up where they are not yet."""
    hidden = tuple(s for s in slots if not state.knowledge.knows(None, s))
    return request(state, Reveal(hidden, None)) if hidden else state


def show(state: DoomState, slots: tuple[int, ...], seats: tuple[int, ...]) -> DoomState:
    """Have ``slots`` shown to those of ``seats`` that do not know them yet.

    A seat that already knows a card (the victim of a steal) is left out of the reveal: it
    reads nothing new, and a mental deck need not open the card to it again.
    """
    knows = state.knowledge.knows
    readers = tuple(t for t in seats if not all(knows(t, s) for s in slots))
    unknown = tuple(s for s in slots if not all(knows(t, s) for t in readers))
    return request(state, Reveal(unknown, readers)) if unknown and readers else state


def discard_to_piles(state: DoomState, slots: tuple[int, ...]) -> DoomState:
    """Put ``slots`` on the discard pile of their deck."""
    cakes = tuple(s for s in slots if is_cake_slot(s))
    mischief = tuple(s for s in slots if not is_cake_slot(s))
    return replace(
        state,
        cake_discard=state.cake_discard + cakes,
        mischief_discard=state.mischief_discard + mischief,
    )


def public_names(state: DoomState, slots: tuple[int, ...]) -> tuple[str | None, ...]:
    """The names of ``slots`` where they are face up, ``None`` elsewhere."""
    return tuple(
        state.knowledge.cards[s] if state.knowledge.knows(None, s) else None for s in slots
    )


def take(state: DoomState, pile: str, n: int) -> tuple[DoomState, tuple[int, ...]]:
    """Take ``n`` cards from the top of ``pile``, refilling it from its discard pile."""
    cake = pile == "cake"
    cards = state.cake_pile if cake else state.mischief_pile
    discard = state.cake_discard if cake else state.mischief_discard
    if len(cards) < n and len(discard) > 1:
        back, discard = discard[:-1], discard[-1:]
        cards = cards + back
        state = log(request(state, Shuffle(back)), ev.Refilled(pile, len(back)))
    taken, cards = cards[:n], cards[n:]
    if cake:
        state = replace(state, cake_pile=cards, cake_discard=discard)
    else:
        state = replace(state, mischief_pile=cards, mischief_discard=discard)
    return state, taken


def draw(state: DoomState, seat: int, cakes: int, mischief: int) -> DoomState:
    """``seat`` draws ``cakes`` + ``mischief`` cards, each shown to ``seat`` alone."""
    state, a = take(state, "cake", cakes)
    state, b = take(state, "mischief", mischief)
    drawn = a + b
    if not drawn:
        return state
    # every drawn card is shown, known or not: a refill's shuffle is still to come
    state = request(add(state, seat, drawn), Reveal(drawn, (seat,)))
    return log(state, ev.Drew(seat, len(a), len(b)))


def draw_task(state: DoomState, seat: int, count: int, why: str) -> DoomState:
    """Ask ``seat`` to draw ``count`` cards, or what both piles can still give."""
    n = min(count, state.available("cake") + state.available("mischief"))
    if n <= 0:
        return state
    return ask(state, Task(Phase.DRAW, seat, count=n, why=why))


def remix(state: DoomState, seat: int) -> DoomState:
    """Have ``seat`` re-mix each part of its hand (cake, mischief) that another seat knows
    a card of."""
    outside = (EVERYONE & ~(1 << seat)).__and__
    mask = state.knowledge.known_by.__getitem__
    if not any(map(outside, map(mask, state.hands[seat]))):
        return state
    for part in (state.cakes_in_hand(seat), state.mischief_in_hand(seat)):
        if part and any(map(outside, map(mask, part))):
            state = request(state, Remix(seat, part, (seat,)))
    return state


def where(state: DoomState, slot: int) -> tuple[str, int | None]:
    """Where ``slot`` lies: a discard pile or a seat's hand."""
    if slot in state.cake_discard:
        return "cake-discard", None
    if slot in state.mischief_discard:
        return "mischief-discard", None
    for seat, hand in enumerate(state.hands):
        if slot in hand:
            return "hand", seat
    raise AssertionError(slot)


def pick(state: DoomState, seat: int, slot: int, why: str = "") -> DoomState:
    """``seat`` takes ``slot`` into its hand from wherever it lies."""
    source, owner = where(state, slot)
    if source == "cake-discard":
        state = replace(state, cake_discard=tuple(s for s in state.cake_discard if s != slot))
    elif source == "mischief-discard":
        state = replace(
            state, mischief_discard=tuple(s for s in state.mischief_discard if s != slot)
        )
    else:
        assert owner is not None
        state = drop(state, owner, (slot,))
    shown = None if source == "hand" else public_names(state, (slot,))[0]
    if why == "vashti":
        source = "eaten"
    state = log(add(state, seat, (slot,)), ev.Picked(seat, source, owner, shown))
    if owner is not None:
        state = show(state, (slot,), (seat, owner))
    return state


def claim(state: DoomState, seat: int, slot: int, sort: str, move: str) -> DoomState:
    """A card played as ``sort`` is face up now: end the game if it is something else."""
    name = state.knowledge.cards[slot]
    if name is None:
        raise IllegalActionError(None, move, f"slot {slot} was not shown")
    if card(name).sort != sort:
        params = (("card", card(name).title), ("claimed", card(f"{sort}-1").title))
        return cheat(state, seat, move, N_("played {card} as {claimed}"), params)
    return state


def cheat(
    state: DoomState, seat: int, move: str, reason: str, params: ReasonParams = ()
) -> DoomState:
    """``seat`` is proven to have cheated: the game ends, and no cheat wins. ``reason`` is
    kept untranslated (marked with ``N_``), with the ``params`` that fill it: each reader
    says it in its own language."""
    state = replace(
        state,
        breaches=(*state.breaches, Breach(seat, move, reason, state.turn, params)),
        cheat=seat if state.cheat is None else state.cheat,
    )
    return game_over(log(state, ev.Cheated(seat, reason, params)), "cheated")


def standing(state: DoomState, seat: int) -> tuple[int, int, int]:
    """What ranks ``seat`` at the end: regions, cake value in front of it, cards in hand."""
    mine = state.regions_of(seat)
    return len(mine), sum(r.value for r in mine), len(state.hands[seat])


def winners(state: DoomState) -> tuple[tuple[int, ...], bool]:
    """The winning seats and whether the win is shared."""
    if state.doom is not None:
        return (state.doom,), False
    out = {b.seat for b in state.breaches}
    if state.forfeit is not None:
        out.add(state.forfeit)
    seats = [s for s in range(state.players) if s not in out]
    if not seats:
        return (), False
    best = max(standing(state, s) for s in seats)
    top = tuple(s for s in seats if standing(state, s) == best)
    return top, len(top) > 1


def game_over(state: DoomState, reason: str) -> DoomState:
    """The game ends for ``reason``; the winners are logged."""
    state = replace(state, phase=Phase.OVER, task=None, agenda=(), queue=())
    won, shared = winners(state)
    return log(state, ev.GameOver(won, reason, shared))

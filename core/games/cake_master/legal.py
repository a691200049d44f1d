"""Who chooses, and which choices are legal — from public facts and the seat's own slots.

Every choice names slots only (never an identity), so any peer can list and check another
seat's choices: the cards in a hand are public slot ids, the empty quarters are public.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations

from cakeparty.core.actions import Action
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_master.actions import PLACED, Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.state import (
    SOLO_EXCHANGES,
    MasterState,
    Phase,
    SlotCake,
)
from cakeparty.core.i18n import _


def to_act(state: MasterState) -> tuple[int, ...]:
    """The seats whose sealed choice the game waits on (none while cards move)."""
    return state.choosing


def free_quarters(cakes: Sequence[SlotCake]) -> list[tuple[int, int]]:
    """Every empty (cake, quarter) of a seat, in order."""
    return [(c, q) for c, cake in enumerate(cakes) for q, slot in enumerate(cake) if slot is None]


def choices(
    phase: Phase,
    hand: Sequence[int],
    received: Sequence[int],
    cakes: Sequence[SlotCake],
    exchanges_left: int,
) -> list[Action]:
    """Every choice a seat holding ``hand`` may seal in ``phase``."""
    return list(_choices(phase, tuple(hand), tuple(received), tuple(cakes), exchanges_left))


def _placement(slots: tuple[int, ...], spots: tuple[tuple[int, int], ...]) -> Place:
    # built by the generator below, whose placements are valid by construction: skip the
    # checks a placement read from outside goes through (they dominate the listing time)
    place = object.__new__(Place)
    object.__setattr__(place, "slots", slots)
    object.__setattr__(place, "cakes", tuple(c for c, _q in spots))
    object.__setattr__(place, "quarters", tuple(q for _c, q in spots))
    return place


@lru_cache(maxsize=1024)
def _choices(
    phase: Phase,
    hand: tuple[int, ...],
    received: tuple[int, ...],
    cakes: tuple[SlotCake, ...],
    exchanges_left: int,
) -> tuple[Action, ...]:
    if phase is Phase.PASS:
        return tuple(PassCards(a, b) for a in hand for b in hand if a != b)
    if phase is Phase.KEEP:
        return tuple(Keep(s) for s in hand)
    if phase is Phase.KEEP_BACK:
        return tuple(Keep(s) for s in received)
    if phase is not Phase.PLACE:
        return ()
    free = free_quarters(cakes)
    out: list[Action] = []
    for cards in combinations(sorted(hand), PLACED):
        out.extend(_placement(cards, spots) for spots in permutations(free, PLACED))
    if exchanges_left > 0:
        ordered = sorted(hand)
        for size in range(1, len(ordered) + 1):
            out.extend(Exchange(s) for s in combinations(ordered, size))
    return tuple(out)


def exchanges_left(state: MasterState) -> int:
    return SOLO_EXCHANGES - state.exchanges if state.options.solo else 0


def legal_actions(state: MasterState, seat: int) -> list[Action]:
    """Every choice ``seat`` may seal now."""
    if seat not in state.choosing:
        return []
    received = state.received[seat] if state.received else ()
    return choices(
        state.phase, state.hands[seat], received, state.cakes[seat], exchanges_left(state)
    )


def check(state: MasterState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is a choice ``seat`` may seal."""

    def illegal(reason: str) -> IllegalActionError:
        return IllegalActionError(seat, action, reason)

    if seat not in state.choosing:
        raise illegal(_("this seat has no choice to make now"))
    hand = state.hands[seat]
    phase = state.phase
    if phase is Phase.PASS:
        if not isinstance(action, PassCards):
            raise illegal(_("choose a card for the left and one for the right"))
        if action.left not in hand or action.right not in hand:
            raise illegal(_("pass cards from your hand"))
    elif phase in (Phase.KEEP, Phase.KEEP_BACK):
        if not isinstance(action, Keep):
            raise illegal(_("choose the card to keep"))
        among = hand if phase is Phase.KEEP else state.received[seat]
        if action.slot not in among:
            raise illegal(_("keep one of the cards offered"))
    elif phase is Phase.PLACE:
        if isinstance(action, Exchange):
            if exchanges_left(state) <= 0:
                raise illegal(_("no exchange is left"))
            if not set(action.slots) <= set(hand):
                raise illegal(_("exchange cards from your hand"))
        elif isinstance(action, Place):
            if not set(action.slots) <= set(hand):
                raise illegal(_("place cards from your hand"))
            cakes = state.cakes[seat]
            if any(cakes[c][q] is not None for c, q in action.spots.values()):
                raise illegal(_("a quarter holds one card"))
        else:
            raise illegal(_("place your three cards"))
    else:
        raise illegal(_("nobody chooses now"))

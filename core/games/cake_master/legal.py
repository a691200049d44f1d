"""Who chooses, and which choices are legal — from public facts and the seat's own slots.

Every choice names slots only (never an identity), so any peer can list and check another
seat's choices: the cards in a hand are public slot ids, the empty quarters are public.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, permutations, product

from cakeparty.core.actions import Action
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_master.actions import (
    PLACED,
    QUARTERS,
    Exchange,
    Keep,
    PassCards,
    Place,
)
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


class Listing(list[Action]):
    """The choices of one seat in their listed order, which tells at once whether an
    action is among them (a placement listing holds over a thousand actions: comparing
    each would cost more than listing them)."""

    def __init__(
        self,
        items: tuple[Action, ...],
        phase: Phase,
        hand: tuple[int, ...],
        among: tuple[int, ...],
        free: frozenset[tuple[int, int]],
        exchanges_left: int,
    ) -> None:
        super().__init__(items)
        self._facts = (phase, hand, among, free, exchanges_left)

    def __contains__(self, action: object) -> bool:
        return listed(action, *self._facts)


def listed(
    action: object,
    phase: Phase,
    hand: tuple[int, ...],
    among: tuple[int, ...],
    free: frozenset[tuple[int, int]],
    exchanges_left: int,
) -> bool:
    """Whether :func:`choices` lists ``action`` (``among``: the cards a keep picks from,
    ``free``: the seat's empty quarters)."""
    if phase is Phase.PASS:
        return (
            isinstance(action, PassCards)
            and action.left in hand
            and action.right in hand
            and action.left != action.right
        )
    if phase is Phase.KEEP or phase is Phase.KEEP_BACK:
        return isinstance(action, Keep) and action.slot in among
    if phase is not Phase.PLACE:
        return False
    if isinstance(action, Place):
        slots = action.slots
        spots = set(zip(action.cakes, action.quarters, strict=False))
        return (
            len(slots) == len(action.cakes) == len(action.quarters) == PLACED
            and _ascending(slots)
            and all(s in hand for s in slots)
            and len(spots) == PLACED
            and spots <= free
        )
    if isinstance(action, Exchange):
        return (
            exchanges_left > 0
            and bool(action.slots)
            and _ascending(action.slots)
            and all(s in hand for s in action.slots)
        )
    return False


def _ascending(slots: Sequence[int]) -> bool:
    return all(slots[i] < slots[i + 1] for i in range(len(slots) - 1))


def choices(
    phase: Phase,
    hand: Sequence[int],
    received: Sequence[int],
    cakes: Sequence[SlotCake],
    exchanges_left: int,
) -> Listing:
    """Every choice a seat holding ``hand`` may seal in ``phase``."""
    hand, received, cakes = tuple(hand), tuple(received), tuple(cakes)
    return Listing(
        _choices(phase, hand, received, cakes, exchanges_left),
        phase,
        hand,
        received if phase is Phase.KEEP_BACK else hand,
        frozenset(free_quarters(cakes)),
        exchanges_left,
    )


#: Every (cake, quarter) triple a placement may name, one shared tuple each.
_TRIPLES: dict[tuple[int, ...], tuple[int, ...]] = {
    t: t for t in product(range(QUARTERS), repeat=PLACED)
}


@lru_cache(maxsize=2048)  # there are 1,365 sets of free quarters a placement can meet
def _spot_table(
    free: tuple[tuple[int, int], ...],
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Every ordered choice of 3 of the ``free`` quarters, as (all cakes, all quarters)."""
    spots = tuple(permutations(free, PLACED))
    cakes = tuple(_TRIPLES[a[0], b[0], c[0]] for a, b, c in spots)
    quarters = tuple(_TRIPLES[a[1], b[1], c[1]] for a, b, c in spots)
    return cakes, quarters


_new = object.__new__


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
    table = _spot_table(tuple(free_quarters(cakes)))
    out: list[Action] = []
    append = out.append
    for cards in combinations(sorted(hand), PLACED):
        # valid by construction: skip the checks a placement read from outside goes
        # through (they would dominate the listing time)
        for on, at in zip(*table, strict=True):
            place = _new(Place)
            fields = place.__dict__
            fields["slots"] = cards
            fields["cakes"] = on
            fields["quarters"] = at
            append(place)
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

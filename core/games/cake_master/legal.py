"""Who chooses, and which choices are legal — from public facts and the seat's own slots.

Every choice names slots only (never an identity), so any peer can list and check another
seat's choices: the cards in a hand are public slot ids, the empty quarters are public.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, permutations, product
from typing import Any, SupportsIndex, overload

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


#: Every (cake, quarter) triple a placement may name, one shared tuple each.
_TRIPLES: dict[tuple[int, ...], tuple[int, ...]] = {
    t: t for t in product(range(QUARTERS), repeat=PLACED)
}

#: (all cakes, all quarters) of the placements on some free quarters, in listed order.
SpotTable = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


@lru_cache(maxsize=2048)  # there are 1,365 sets of free quarters a placement can meet
def _spot_table(free: tuple[tuple[int, int], ...]) -> SpotTable:
    """Every ordered choice of 3 of the ``free`` quarters, as (all cakes, all quarters)."""
    spots = tuple(permutations(free, PLACED))
    cakes = tuple(_TRIPLES[a[0], b[0], c[0]] for a, b, c in spots)
    quarters = tuple(_TRIPLES[a[1], b[1], c[1]] for a, b, c in spots)
    return cakes, quarters


_new = object.__new__


def _placement(cards: tuple[int, ...], on: tuple[int, ...], at: tuple[int, ...]) -> Place:
    # valid by construction: skip the checks a placement read from outside goes through
    # (they would dominate the listing time)
    place = _new(Place)
    fields = place.__dict__
    fields["slots"] = cards
    fields["cakes"] = on
    fields["quarters"] = at
    return place


class Listing(list[Action]):
    """Every choice of one seat, in its one listed order: a list that makes its actions
    only when they are all asked for.

    A placement listing holds up to 5,295 actions; a player at random needs one of them,
    a check needs none (``in`` asks :func:`listed`), so ``len``, an index and ``in`` answer
    without making the others. Anything else (iterating, slicing, comparing, changing it)
    first makes them all, and from then on it is a plain list.
    """

    def __init__(
        self,
        phase: Phase,
        hand: tuple[int, ...],
        received: tuple[int, ...],
        cakes: tuple[SlotCake, ...],
        exchanges_left: int,
    ) -> None:
        super().__init__()
        free = tuple(free_quarters(cakes))
        among = received if phase is Phase.KEEP_BACK else hand
        self._facts: tuple[Phase, tuple[int, ...], tuple[int, ...], frozenset[Any], int] | None
        self._facts = (phase, hand, among, frozenset(free), exchanges_left)
        self._head, self._cards, self._table, self._tail = _recipe(
            phase, hand, received, free, exchanges_left
        )
        self._each = len(self._table[0])
        self._size = len(self._head) + len(self._cards) * self._each + len(self._tail)
        self._made = False

    def _make(self) -> None:
        if self._made:
            return
        self._made = True
        super().extend(self._head)
        table = tuple(zip(*self._table, strict=True))
        super().extend(_placement(cards, on, at) for cards in self._cards for on, at in table)
        super().extend(self._tail)

    def __len__(self) -> int:
        return self._size if not self._made else super().__len__()

    @overload
    def __getitem__(self, index: SupportsIndex) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Action | list[Action]:
        if self._made or isinstance(index, slice):
            self._make()
            return super().__getitem__(index)
        i = operator.index(index)
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError("list index out of range")
        if i < len(self._head):
            return self._head[i]
        i -= len(self._head)
        if i < len(self._cards) * self._each:
            which, k = divmod(i, self._each)
            return _placement(self._cards[which], self._table[0][k], self._table[1][k])
        return self._tail[i - len(self._cards) * self._each]

    def placements(self) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
        """The ``(slots, cakes, quarters)`` of every placement listed, in listed order,
        without making the actions."""
        ons, ats = self._table
        for cards in self._cards:
            for on, at in zip(ons, ats, strict=True):
                yield cards, on, at

    def __contains__(self, action: object) -> bool:
        if self._facts is None:
            return super().__contains__(action)
        return listed(action, *self._facts)

    def __iter__(self) -> Iterator[Action]:
        self._make()
        return super().__iter__()

    def __reversed__(self) -> Iterator[Action]:
        self._make()
        return super().__reversed__()

    def __eq__(self, other: object) -> bool:
        self._make()
        return super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        self._make()
        return super().__ne__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._make()
        return super().__repr__()

    def __reduce__(self) -> tuple[type[list[Action]], tuple[list[Action]]]:
        return list, (list(self),)


def _made_first(name: str, changes: bool) -> Callable[..., Any]:
    plain = getattr(list, name)

    def method(self: Listing, *args: Any, **kwargs: Any) -> Any:
        self._make()
        if changes:
            self._facts = None
        return plain(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name in ("index", "count", "copy", "__add__", "__mul__", "__rmul__", "__lt__", "__le__"):
    setattr(Listing, _name, _made_first(_name, changes=False))
for _name in ("__gt__", "__ge__", "__reduce_ex__"):
    setattr(Listing, _name, _made_first(_name, changes=False))
for _name in ("append", "extend", "insert", "pop", "remove", "sort", "reverse", "clear"):
    setattr(Listing, _name, _made_first(_name, changes=True))
for _name in ("__setitem__", "__delitem__", "__iadd__", "__imul__"):
    setattr(Listing, _name, _made_first(_name, changes=True))


def choices(
    phase: Phase,
    hand: Sequence[int],
    received: Sequence[int],
    cakes: Sequence[SlotCake],
    exchanges_left: int,
) -> Listing:
    """Every choice a seat holding ``hand`` may seal in ``phase``."""
    return Listing(phase, tuple(hand), tuple(received), tuple(cakes), exchanges_left)


_NO_TABLE: SpotTable = ((), ())


@lru_cache(maxsize=1024)
def _recipe(
    phase: Phase,
    hand: tuple[int, ...],
    received: tuple[int, ...],
    free: tuple[tuple[int, int], ...],
    exchanges_left: int,
) -> tuple[tuple[Action, ...], tuple[tuple[int, ...], ...], SpotTable, tuple[Action, ...]]:
    """How a listing is made: the actions before the placements, the cards of each
    placement, the quarters they may go to, the actions after (solo exchanges)."""
    if phase is Phase.PASS:
        return tuple(PassCards(a, b) for a in hand for b in hand if a != b), (), _NO_TABLE, ()
    if phase is Phase.KEEP:
        return tuple(Keep(s) for s in hand), (), _NO_TABLE, ()
    if phase is Phase.KEEP_BACK:
        return tuple(Keep(s) for s in received), (), _NO_TABLE, ()
    if phase is not Phase.PLACE:
        return (), (), _NO_TABLE, ()
    cards = tuple(combinations(sorted(hand), PLACED))
    tail: list[Action] = []
    if exchanges_left > 0:
        ordered = sorted(hand)
        for size in range(1, len(ordered) + 1):
            tail.extend(Exchange(s) for s in combinations(ordered, size))
    return (), cards, _spot_table(free), tuple(tail)


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

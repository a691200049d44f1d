"""Stack a game of Cake of Doom: aliens, regions, DOOM's continent, the first player and
the cards each seat is dealt; then set the table (a region held, a discard pile) by moving
slots, so the dealer's cards and the table always agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from cakeparty.core import Match, new_match
from cakeparty.core.games.cake_of_doom.cards import (
    ALIEN_NAMES,
    CONTINENTS,
    REGION_NAMES,
    REGIONS_IN_PLAY,
    cake_cards,
    card,
    mischief_cards,
)
from cakeparty.core.games.cake_of_doom.state import DoomState, Held

NAMES = ["Sally", "Paulo", "Quinn", "Rosa", "Tomas", "Uma"]


def _pick(pool: list[str], sort: str) -> str:
    """The first card of ``sort`` left in ``pool`` (a full name is taken as it is)."""
    for name in pool:
        if name == sort or card(name).sort == sort:
            pool.remove(name)
            return name
    raise ValueError(f"no {sort} left")


def _order(pool_all: tuple[str, ...], wanted: Sequence[str]) -> list[str]:
    pool = list(pool_all)
    top = [_pick(pool, sort) for sort in wanted]
    return [*top, *pool]


def setup_randoms(
    players: int,
    aliens: Sequence[str],
    regions: Sequence[str],
    favourite: str,
    first: int,
) -> list[int]:
    out = []
    pool = list(ALIEN_NAMES)
    for alien in aliens:
        out.append(pool.index(alien))
        pool.remove(alien)
    out.append(CONTINENTS.index(favourite))
    wanted = list(regions)
    for name in REGION_NAMES:
        if len(wanted) >= REGIONS_IN_PLAY[players]:
            break
        if name not in wanted:
            wanted.append(name)
    pool = list(REGION_NAMES)
    for name in wanted:
        out.append(pool.index(name))
        pool.remove(name)
    out.append(first)
    return out


def stacked(
    players: int = 3,
    *,
    aliens: Sequence[str] = ("glorp", "mumbo", "vashti", "zix", "krell", "pib"),
    regions: Sequence[str] = (),
    favourite: str = "europe",
    first: int = 0,
    cakes: Mapping[int, Sequence[str]] | Sequence[str] = (),
    mischief: Mapping[int, Sequence[str]] | Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    randoms: Sequence[int] = (),
    later: Sequence[Sequence[str] | None] = (),
    seed: int = 0,
) -> Match:
    """A game with these ``aliens`` (seat 0 first), these ``regions`` in play (the rest
    of the count in box order), DOOM favouring ``favourite``, ``first`` to start.

    ``cakes``/``mischief``: per seat, the sorts (or names) it is dealt first, filled up in
    box order; or, as a plain list, the top of the pile in deal order. ``randoms``: the
    random draws after setup (steals); ``later``: the orders of later shuffles.
    """
    order = [(first + i) % players for i in range(players)]
    cake_top = _top(cakes, order, 5, players)
    mischief_top = _top(mischief, order, 3, players)
    return new_match(
        "cake-of-doom",
        players=players,
        seed=seed,
        options=dict(options or {}),
        orders=[_order(cake_cards(), cake_top), _order(mischief_cards(), mischief_top), *later],
        randoms=[
            *setup_randoms(players, aliens[:players], regions, favourite, first),
            *randoms,
        ],
    )


def _top(
    spec: Mapping[int, Sequence[str]] | Sequence[str], order: list[int], size: int, players: int
) -> list[str]:
    if not isinstance(spec, Mapping):
        return list(spec)
    if not spec:
        return []
    filler = "sponge" if size == 5 else None
    out: list[str] = []
    for seat in order:
        mine = list(spec.get(seat, ()))
        if filler is None and len(mine) < size:
            raise ValueError("give every seat's 3 mischief cards")
        out += mine + [filler or ""] * (size - len(mine))
    return out


def slot_of(m: Match, name: str) -> int:
    """The slot holding the card ``name`` now."""
    return next(s for s in range(130) if m.dealer.card(s) == name)


def slots_of(m: Match, seat: int, sort: str) -> list[int]:
    """The slots of ``seat``'s hand holding cards of ``sort``, lowest first."""
    return sorted(s for s in m.state.hands[seat] if card(m.dealer.card(s)).sort == sort)


def one(m: Match, seat: int, sort: str) -> int:
    return slots_of(m, seat, sort)[0]


def hand_sorts(m: Match, seat: int) -> list[str]:
    return sorted(card(m.dealer.card(s)).sort for s in m.state.hands[seat])


def _face_up(state: DoomState, slots: Sequence[int], m: Match) -> DoomState:
    names = [m.dealer.card(s) for s in slots]
    return replace(state, knowledge=state.knowledge.reveal(slots, names, None))


def _take_from_pile(
    state: DoomState, sorts: Sequence[str], m: Match
) -> tuple[DoomState, list[int]]:
    taken = []
    for sort in sorts:
        pile = state.cake_pile if card(f"{sort}-1").cake else state.mischief_pile
        slot = next(s for s in pile if card(m.dealer.card(s)).sort == sort)
        taken.append(slot)
        if card(f"{sort}-1").cake:
            state = replace(state, cake_pile=tuple(s for s in state.cake_pile if s != slot))
        else:
            state = replace(state, mischief_pile=tuple(s for s in state.mischief_pile if s != slot))
    return state, taken


def hold(m: Match, region: str, seat: int, sorts: Sequence[str], value: int | None = None) -> None:
    """Give ``region`` to ``seat`` with cake cards of ``sorts`` (from the pile) lying on it."""
    state, slots = _take_from_pile(m.state, sorts, m)
    state = _face_up(state, slots, m)
    held = Held(region, seat, tuple(slots), len(slots) if value is None else value)
    regions = tuple(held if r.name == region else r for r in state.regions)
    assert any(r.name == region for r in regions), f"{region} is not in play"
    m.state = replace(state, regions=regions)


def discard_pile(m: Match, pile: str, sorts: Sequence[str]) -> None:
    """Put cards of ``sorts`` (from the draw piles) on the ``pile`` discard pile, the last
    on top."""
    state, slots = _take_from_pile(m.state, sorts, m)
    state = _face_up(state, slots, m)
    if pile == "cake":
        state = replace(state, cake_discard=state.cake_discard + tuple(slots))
    else:
        state = replace(state, mischief_discard=state.mischief_discard + tuple(slots))
    m.state = state


def give(m: Match, seat: int, sorts: Sequence[str]) -> list[int]:
    """Put cards of ``sorts`` from the draw piles into ``seat``'s hand (known to it)."""
    state, slots = _take_from_pile(m.state, sorts, m)
    names = [m.dealer.card(s) for s in slots]
    state = replace(state, knowledge=state.knowledge.reveal(slots, names, (seat,)))
    hands = list(state.hands)
    hands[seat] = hands[seat] + tuple(slots)
    m.state = replace(state, hands=tuple(hands))
    return slots


def events_of(m: Match, kind: type) -> list[Any]:
    return [e for e in m.state.events if isinstance(e, kind)]

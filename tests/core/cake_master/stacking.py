"""Stack a Cake Master game: the customers drawn, the cards dealt; drive sealed choices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cakeparty.core import Match, new_match
from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.cards import CAKE_CARDS, CUSTOMER_CARDS


def deck_order(top: Sequence[str]) -> list[str]:
    """A full deck order: ``top`` first, then every other cake card in box order."""
    if len(set(top)) != len(top) or not set(top) <= set(CAKE_CARDS):
        raise ValueError(f"not distinct cake cards: {top}")
    return [*top, *(c for c in CAKE_CARDS if c not in top)]


def stacked(
    players: int,
    top: Sequence[str] = (),
    *,
    customers: Sequence[str] = (),
    later: Sequence[Sequence[str] | None] = (),
    seed: int = 0,
) -> Match:
    """A game whose customers come in the order ``customers`` (then the rest), and whose
    first round deals ``top`` (seat 0's hand, seat 1's, …, then the next turn's).
    ``later``: the orders of later shuffles (``None``: random)."""
    order = [*customers, *(c for c in CUSTOMER_CARDS if c not in customers)]
    return new_match(
        "cake-master", players=players, seed=seed, orders=[order, deck_order(top), *later]
    )


def choose(m: Match, choices: Mapping[int, Action]) -> None:
    """Seal each seat's choice (in the order given)."""
    for seat, action in choices.items():
        m.apply(action, seat)


def slot(m: Match, name: str) -> int:
    """The slot holding the cake card ``name`` now."""
    return next(s for s in range(len(CAKE_CARDS)) if m.dealer.card(s) == name)


def hand_names(m: Match, seat: int) -> list[str]:
    return sorted(m.dealer.card(s) for s in m.state.hands[seat])

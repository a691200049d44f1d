"""Seeded random games at 1–6 players: every game ends, the cards are conserved, no view
holds a card its seat may not know, and the order in which sealed choices arrive never
changes the game."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cakeparty.core import Action, CakePartyError, Committed, Match, new_match
from cakeparty.core.games.cake_master import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.bots import normal_bot, random_bot
from cakeparty.core.games.cake_master.cards import CAKE_CARDS, CUSTOMER_CARDS
from cakeparty.core.games.cake_master.state import MasterState

CAKE_SET = set(range(len(CAKE_CARDS)))
CUSTOMER_SET = set(range(len(CAKE_CARDS), len(CAKE_CARDS) + len(CUSTOMER_CARDS)))


def check_conserved(state: MasterState) -> None:
    """Every cake card lies in exactly one place; every customer too."""
    zones = [*state.deck, *state.discard]
    for hand in state.hands:
        zones.extend(hand)
    for cakes in state.cakes:
        zones.extend(s for cake in cakes for s in cake if s is not None)
    assert sorted(zones) == sorted(CAKE_SET)
    people = [*state.customer_deck, *state.customers, *state.customer_discard]
    assert sorted(people) == sorted(CUSTOMER_SET)


class Witness:
    """What each seat may know, worked out from the table alone: the cards that passed
    through its hand this round, the cards face up on cakes, the customers drawn."""

    def __init__(self, players: int) -> None:
        self.held: list[set[int]] = [set() for _ in range(players)]
        self.round = 0

    def update(self, state: MasterState) -> None:
        if state.round != self.round:
            self.round = state.round
            self.held = [set() for _ in self.held]  # every card reshuffled
        for seat, hand in enumerate(state.hands):
            self.held[seat] |= set(hand)

    def check(self, m: Match) -> None:
        state = m.state
        self.update(state)
        public = {s for cakes in state.cakes for cake in cakes for s in cake if s is not None}
        public |= set(state.customers) | set(state.customer_discard)
        hidden_to_all = set(state.deck) | set(state.customer_deck)
        for seat in [None, *range(state.players)]:
            known = set(m.view(seat).known)
            allowed = public | (set() if seat is None else self.held[seat])
            assert known <= allowed, (seat, sorted(known - allowed))
            assert not known & hidden_to_all
            if seat is not None:
                for other in range(state.players):
                    if other != seat:
                        # another's hand: only the cards this seat passed or was given
                        assert set(state.hands[other]) & known <= self.held[seat]


Policy = Callable[[int], Callable[..., object]]


def play(
    players: int,
    seed: int,
    bots: list[Callable[..., object]],
    *,
    order_rng: random.Random | None = None,
    witness: bool = True,
) -> Match:
    m = new_match("cake-master", players=players, seed=seed)
    watch = Witness(players) if witness else None
    for _ in range(10_000):
        check_conserved(m.state)
        if watch is not None:
            watch.check(m)
        if m.outcome is not None:
            return m
        acting = list(m.to_act)
        if order_rng is not None:
            order_rng.shuffle(acting)
        seat = acting[0]
        view = m.view(seat)
        # each seat's decision depends on its view and a stream of its own
        rng = random.Random(f"{seed}/{seat}/{m.state.state_id}")
        choice = bots[seat](view, rng)
        others = [s for s in m.to_act if s != seat]
        before = {s: m.view(s) for s in [None, *others]}
        state_id = m.state.state_id
        m.apply(choice, seat)  # type: ignore[arg-type]
        if others:
            # sealed, not opened while others still choose: nobody sees anything new
            assert m.state.state_id == state_id
            assert {s: m.view(s) for s in before} == before
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_end_conserve_cards_and_leak_nothing(players: int) -> None:
    for seed in range(4):
        m = play(players, seed, [random_bot] * players)
        assert m.outcome is not None
        assert len(m.state.results) == 3


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_normal_games_end_conserve_cards_and_leak_nothing(players: int) -> None:
    bots = [normal_bot if s % 2 == 0 else random_bot for s in range(players)]
    m = play(players, 11, bots)
    assert m.outcome is not None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=6), seed=st.integers(0, 10_000))
def test_the_order_sealed_choices_arrive_in_never_changes_the_game(players: int, seed: int) -> None:
    bots = [random_bot] * players
    first = play(players, seed, bots, witness=False)
    again = play(players, seed, bots, order_rng=random.Random(seed), witness=False)
    assert again.outcome == first.outcome
    assert again.state == first.state


def _any_choice(data: st.DataObject) -> Action | None:
    """A choice of any kind over any slots, cakes and quarters; ``None`` if it cannot
    even be written (those are refused when read, see test_flow)."""
    kind = data.draw(st.sampled_from(["give", "keep", "place", "exchange"]))
    n = data.draw(st.lists(st.integers(0, 95), min_size=3, max_size=3))
    spots = data.draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3)), min_size=3))
    try:
        if kind == "give":
            return PassCards(n[0], n[1])
        if kind == "keep":
            return Keep(n[0])
        if kind == "place":
            return Place.of(dict(zip(n, spots, strict=False)))
        return Exchange(tuple(sorted(set(n))))
    except ValueError:
        return None


@settings(max_examples=60, deadline=None)
@given(players=st.integers(1, 4), seed=st.integers(0, 50), data=st.data())
def test_any_opened_choice_is_applied_or_refused_with_a_named_error(
    players: int, seed: int, data: st.DataObject
) -> None:
    m = new_match("cake-master", players=players, seed=seed)
    for _ in range(data.draw(st.integers(0, 3))):  # a little way into the game
        for seat in m.to_act:
            m.apply(m.legal_actions(seat)[-1], seat)
    state = m.state
    choices = []
    for seat in state.choosing:
        choice = _any_choice(data)
        choices.append((seat, choice if choice is not None else m.legal_actions(seat)[0]))
    with contextlib.suppress(CakePartyError):
        m.game.apply(state, Committed(tuple(choices)), None)

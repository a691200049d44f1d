"""Worlds drawn from a seat's view: consistent with everything the seat has seen, drawn
from the view alone, and varied wherever the seat cannot know the cards."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cakeparty.core import LocalDealer, Match, get_game, new_match
from cakeparty.core.games.cake_master import MasterState, Phase
from cakeparty.core.games.cake_master.bots import normal_bot, random_bot
from cakeparty.core.games.cake_master.state import evolve
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.knowledge import Knowledge

GAME = get_game("cake-master")


def positions(players: int, seed: int, every: int, normal: bool = False) -> Iterator[Match]:
    """A seeded game, stopped every ``every`` decisions (passes, keeps, placements and
    solo exchanges alike) and at its end."""
    bot = normal_bot if normal else random_bot
    m = new_match("cake-master", players=players, seed=seed)
    rng = random.Random(seed)
    count = 0
    while m.outcome is None:
        if count % every == 0:
            yield m
        seat = m.to_act[0]
        m.apply(bot(m.view(seat), rng), seat)
        count += 1
    yield m


def check_world(state: MasterState, seat: int, seed: int, play_on: bool) -> None:
    view = GAME.view(state, seat)
    world = GAME.determinize(view, random.Random(seed))
    assert world is not None
    assert GAME.view(world.state, seat) == view
    assert sorted(world.truth) == sorted(GAME.box(world.state))
    knowledge = GAME.knowledge(world.state)
    for slot, card in enumerate(knowledge.cards):
        if card is not None:
            assert world.truth[slot] == card, slot
    # what the seat knows is what the table holds
    for slot, card in view.known.items():
        assert world.truth[slot] == card
    if play_on:
        match = Match(GAME, world.state, LocalDealer(world.truth, seed))
        outcome = match.play([random_bot] * state.players, random.Random(seed))
        assert outcome is not None


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_a_world_shows_the_seat_exactly_its_view_and_plays_on(players: int) -> None:
    checked = 0
    every = 2 if players == 1 else 5
    for n, m in enumerate(positions(players, seed=40 + players, every=every)):
        for seat in sorted({0, players - 1, n % players}):
            check_world(m.state, seat, seed=n, play_on=n % 6 == 0 and seat == 0)
            checked += 1
    assert checked >= 8


@pytest.mark.parametrize("players", [2, 4])
def test_worlds_hold_for_normal_bots_and_for_spectators_too(players: int) -> None:
    for n, m in enumerate(positions(players, seed=7, every=9, normal=True)):
        check_world(m.state, n % players, seed=n, play_on=n == 2)
        world = GAME.determinize(GAME.view(m.state, None), random.Random(n))
        assert world is not None
        assert GAME.view(world.state, None) == GAME.view(m.state, None)


def test_every_phase_a_seat_chooses_in_is_met() -> None:
    phases = set()
    for players in (1, 2, 3):
        for m in positions(players, seed=3, every=1):
            phases.add(m.state.phase)
    assert {Phase.PASS, Phase.KEEP, Phase.KEEP_BACK, Phase.PLACE, Phase.OVER} <= phases
    # and a solo exchange was made along the way (its draw is checked with the rest)
    solo = list(positions(1, seed=3, every=1))
    assert solo[-1].state.exchanges > 0


def hidden_from(state: MasterState, seat: int) -> list[int]:
    return [s for s in range(len(state.box)) if not state.knowledge.knows(seat, s)]


def swapped(state: MasterState, a: int, b: int) -> MasterState:
    """The same table with the identities of slots ``a`` and ``b`` exchanged."""
    cards = list(state.knowledge.cards)
    cards[a], cards[b] = cards[b], cards[a]
    return evolve(state, knowledge=Knowledge(tuple(cards), state.knowledge.known_by))


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (4, 1), (6, 3)])
def test_a_world_is_drawn_from_the_view_alone(players: int, seat: int) -> None:
    for m in positions(players, seed=12, every=4):
        state = m.state
        # an opponent's card against a card of the deck: a different table, the same view
        others = [s for s in hidden_from(state, seat) if state.knowledge.cards[s] is not None]
        deck = list(state.deck)
        if not others or not deck:
            continue
        other = swapped(state, others[0], deck[-1])
        assert other.knowledge.cards != state.knowledge.cards
        view, other_view = GAME.view(state, seat), GAME.view(other, seat)
        assert view == other_view
        a = GAME.determinize(view, random.Random(5))
        b = GAME.determinize(other_view, random.Random(5))
        assert a is not None and b is not None
        assert a.truth == b.truth and a.state == b.state


def test_the_cards_a_seat_cannot_know_vary_from_world_to_world() -> None:
    m = next(p for i, p in enumerate(positions(4, seed=21, every=1)) if i == 6)
    view: MasterView = GAME.view(m.state, 2)
    hidden = hidden_from(m.state, 2)
    assert hidden
    truths = []
    for seed in range(30):
        world = GAME.determinize(view, random.Random(seed))
        assert world is not None
        truths.append(world.truth)
    assert len(set(truths)) == 30
    # one card in a neighbour's hand takes many different identities
    slot = next(s for s in m.state.hands[3] if s in hidden)
    assert len({t[slot] for t in truths}) > 15
    # and what the seat knows never moves
    for slot, card in view.known.items():
        assert {t[slot] for t in truths} == {card}

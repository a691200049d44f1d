"""What the strong bot's search reads from Cake of Doom: the judgement of a position, where a
walk stops to be judged, and the settings."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.games.cake_of_doom import search as doom_search
from cakeparty.core.games.cake_of_doom.actions import Discard
from cakeparty.core.games.cake_of_doom.state import DoomState, Phase, replace
from cakeparty.core.search import Budget, search

GAME = get_game("cake-of-doom")


def states(seed: int, players: int = 4) -> list[DoomState]:
    """Every state of a seeded game of normal bots where a seat chooses."""
    match = new_match("cake-of-doom", players=players, seed=seed)
    normal = GAME.bots["normal"]
    rng = random.Random(seed)
    out = []
    while match.outcome is None:
        seat = match.to_act[0]
        out.append(match.state)
        match.apply(normal(match.view(seat), rng), seat)
    return out


def test_the_judgement_is_a_chance_per_seat_summing_to_one() -> None:
    for players in (3, 4, 6):
        for state in states(21, players)[::7]:
            chances = doom_search.evaluate(state)
            assert len(chances) == players
            assert all(0.0 <= c <= 1.0 for c in chances)
            assert sum(chances) == pytest.approx(1.0)


def test_a_seat_with_more_regions_and_cake_is_judged_likelier_to_win() -> None:
    state = next(s for s in states(22) if s.round >= 3)
    regions = tuple(
        replace(r, holder=0, value=6) if i < 2 else replace(r, holder=None, cards=())
        for i, r in enumerate(state.regions)
    )
    ahead = replace(state, regions=regions)
    chances = doom_search.evaluate(ahead)
    assert chances[0] == max(chances)
    assert chances[0] > doom_search.evaluate(state)[0]


def test_a_walk_is_judged_only_at_the_start_of_a_turn_past_its_own() -> None:
    game = states(23)
    start = game[10]
    judged = 0
    for state in game[10:]:
        value = GAME.cutoff(start, state)
        due = state.turn >= start.turn + doom_search.HORIZON and state.phase is Phase.PLAY
        assert (value is not None) == due
        if value is not None:
            judged += 1
            assert len(value) == state.players
            assert all(0.0 <= v <= 1.0 for v in value)
    assert judged > 0
    # the very state a walk begins in is never judged: the seat's choice is played first
    assert GAME.cutoff(start, start) is None


def test_the_rollout_policy_plays_only_legal_moves() -> None:
    bot = GAME.rollout_bot()
    assert bot is not None
    rng = random.Random(4)
    for state in states(24)[::3]:
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        assert bot(view, rng) in view.legal


def test_the_search_stops_its_walks_early_and_makes_many() -> None:
    # judged a turn ahead, a walk is short: a fixed number of walks are all finished
    state = next(s for s in states(25) if s.phase is Phase.PLAY and s.round >= 2)
    seat = GAME.to_act(state)[0]
    view = GAME.view(state, seat)
    settings = dict(GAME.search_settings(view))
    result = search(GAME, view, random.Random(1), Budget(iterations=30, **settings))
    assert result.iterations == 30
    assert result.action in view.legal


def test_the_settings_are_fields_of_a_budget() -> None:
    view = GAME.view(states(26)[5], GAME.to_act(states(26)[5])[0])
    Budget(iterations=1, **dict(GAME.search_settings(view)))


def test_the_weights_follow_the_stretch_of_the_game() -> None:
    assert doom_search.weights_of(1) == doom_search.WEIGHTS[0]
    assert doom_search.weights_of(5) == doom_search.WEIGHTS[1]
    assert doom_search.weights_of(10) == doom_search.WEIGHTS[2]
    assert all(len(w) == len(doom_search.FEATURES) for w in doom_search.WEIGHTS)
    state = next(s for s in states(27) if s.round >= 7)
    assert doom_search.evaluate(state) == doom_search.evaluate(state, doom_search.WEIGHTS[2])
    assert doom_search.evaluate(state) != doom_search.evaluate(state, doom_search.WEIGHTS[0])


def test_the_search_leaves_out_a_discard_of_the_turn_s_own_accord() -> None:
    """Every other move of the turn is searched; no other step is narrowed."""
    narrowed = 0
    for state in states(23)[:60]:
        seat = state.to_act[0]
        view = GAME.view(state, seat)
        moves = GAME.search_moves(view)
        if view.phase is not Phase.PLAY:
            assert moves is None
            continue
        assert moves is not None
        assert moves == [a for a in view.legal if not isinstance(a, Discard)]
        assert any(isinstance(a, Discard) for a in view.legal)
        narrowed += 1
    assert narrowed >= 5

"""What the strong bot's search asks of Cake Master: a walk judged at the end of its
round, the placements worth a look, and a quick greedy policy for the rest of a walk."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from cakeparty.core import Match, get_game, new_match
from cakeparty.core.games.cake_master import MasterView, Phase
from cakeparty.core.games.cake_master.bots import normal_bot
from cakeparty.core.games.cake_master.search import (
    PLACES,
    cutoff,
    rollout_bot,
    search_moves,
    win_chances,
)

GAME = get_game("cake-master")


def decisions(players: int, seed: int) -> Iterator[tuple[Match, MasterView]]:
    """Every real choice of a game of normal bots, with the match before it is made."""
    match = new_match("cake-master", players=players, seed=seed)
    rng = random.Random(seed)
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        if len(view.legal) > 1:
            yield match, view
        match.apply(normal_bot(view, rng), seat)


def test_chances_follow_the_stars_and_tighten_as_the_rounds_run_out() -> None:
    early = win_chances([5, 3], [0, 0], 2)
    late = win_chances([5, 3], [0, 0], 1)
    assert sum(early) == pytest.approx(1) and sum(late) == pytest.approx(1)
    assert 0.5 < early[0] < late[0] < 1
    assert win_chances([4, 4, 4], [1, 1, 1], 3) == pytest.approx([1 / 3] * 3)
    # with no round left the leader wins; a tie of stars goes by taste, then is shared
    assert win_chances([6, 6], [9, 7], 0) == [1.0, 0.0]
    assert win_chances([6, 6], [8, 8], 0) == [0.5, 0.5]


@pytest.mark.parametrize("players", [2, 4])
def test_a_walk_is_judged_once_the_round_it_began_in_is_scored(players: int) -> None:
    match = new_match("cake-master", players=players, seed=3)
    start = match.state
    rng = random.Random(3)
    judged = None
    while match.outcome is None:
        state = match.state
        judged = cutoff(start, state)
        if judged is not None:
            break
        seat = match.to_act[0]
        match.apply(normal_bot(match.view(seat), rng), seat)
    assert judged is not None, "no round was ever judged"
    state = match.state
    # not before: the round the walk began in has just been scored, and not later
    assert state.round == start.round + 1 and len(state.results) == start.round
    assert len(judged) == players and all(0 <= p <= 1 for p in judged)
    assert sum(judged) == pytest.approx(1)
    leader = max(range(players), key=lambda s: state.stars[s])
    assert judged[leader] == max(judged)


def test_the_solo_game_is_never_cut_short() -> None:
    match = new_match("cake-master", players=1, seed=1)
    start = match.state
    rng = random.Random(1)
    while match.outcome is None:
        assert cutoff(start, match.state) is None
        match.apply(normal_bot(match.view(0), rng), 0)


def test_the_placements_searched_are_the_normal_bot_s_best_and_legal() -> None:
    met = 0
    for _, view in decisions(2, seed=5):
        moves = search_moves(view)
        if view.phase is not Phase.PLACE or len(view.legal) <= PLACES:
            # few enough to search them all
            assert moves is None
            continue
        assert moves is not None and len(moves) == PLACES
        assert len(set(moves)) == PLACES
        assert all(move in view.legal for move in moves)
        assert moves[0] == normal_bot(view, random.Random(0))
        met += 1
    assert met >= 10


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_rollout_policy_plays_only_legal_moves_to_the_end(players: int) -> None:
    match = new_match("cake-master", players=players, seed=players)
    rng = random.Random(players)
    greedy = differed = 0
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        action = rollout_bot(view, rng)
        assert action in view.legal
        if view.phase is Phase.PLACE and len(view.legal) > 1:
            greedy += 1
            differed += action != normal_bot(view, random.Random(0))
        match.apply(action, seat)
    assert greedy >= 12
    # greedy placing is not the normal bot's weighing of every placement
    assert differed > 0


def test_the_search_walks_moves_in_pairs_except_alone() -> None:
    views = {players: next(decisions(players, seed=2))[1] for players in (2, 4)}
    for view in views.values():
        assert GAME.search_settings(view)["paired"] is True
    solo = new_match("cake-master", players=1, seed=2)
    assert GAME.search_settings(solo.view(0)) == {}

"""Whole games between random bots at every table size and variant: every game ends with
an outcome, and nothing breaks on the way."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.state import Phase

TABLES = [(2, None), *((p, v) for p in (3, 4, 5, 6) for v in ("standard", "beginners"))]


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_random_bots_finish_whole_games(players: int, variant: str | None) -> None:
    options = {} if variant is None else {"variant": variant}
    for seed in range(2):
        m = new_match("cookies-battle", players=players, seed=seed, options=options)
        result = m.play([random_bot] * players, random.Random(seed))
        state = m.state
        assert state.phase is Phase.OVER
        assert state.round == 3
        assert not any(state.hands)
        assert result.winners and set(result.winners) <= set(range(players))
        assert result.reason == ("tummy-ache" if variant == "standard" else "points")
        assert result.scores == tuple(s.total for s in state.results)
        assert not state.breaches
        for seat, score in enumerate(state.results):
            assert score.markers == len(state.markers[seat])  # 2 points each
            assert score.pieces == len(state.pieces[seat])

"""Tournament mode: best of five duels, the loser of a duel starts the next, new specials."""

from __future__ import annotations

import pytest

from cakeparty.core import Match, Outcome, RandomResult, Shuffled, new_match
from cakeparty.core.games.cake_duel import Phase
from cakeparty.core.games.cake_duel.events import DuelWon
from tests.core.cake_duel.play import events, win_bout

SPECIAL_SLOTS = tuple(range(20, 30))  # the box holds the 20 core cards, then the specials


def _tournament(seed: int = 4) -> Match:
    return new_match("cake-duel", 2, seed=seed, options={"tournament": True})


def _win_duel(m: Match, side: int) -> None:
    for _ in range(3):
        win_bout(m, side)


def _special_draws(m: Match) -> int:
    return sum(1 for _, a in m.history if a == Shuffled(SPECIAL_SLOTS))


def test_best_of_five_the_loser_of_a_duel_starts_the_next() -> None:
    m = _tournament()
    assert _special_draws(m) == 1
    played = []
    for n, side in enumerate((0, 1, 1, 0), start=1):
        _win_duel(m, side)
        played.append(side)
        assert m.outcome is None
        assert m.state.duels == (played.count(0), played.count(1))
        assert events(m, DuelWon)[-1] == DuelWon(side, m.state.duels)
        # a new duel: trophies reset, new specials drawn, the duel's loser attacks first
        assert m.state.trophies == (0, 0)
        assert _special_draws(m) == n + 1
        assert m.to_act == (1 - side,)
        cakes = [4, 4]
        cakes[1 - side] = 3
        assert m.state.cakes == tuple(cakes)
        assert m.view(0).specials_seen <= {m.dealer.card(s) for s in m.state.hands[0]}
    assert m.state.duels == (2, 2)
    _win_duel(m, 1)
    assert m.outcome == Outcome(winners=(1,), reason="tournament", scores=(2, 3))
    assert m.state.phase is Phase.OVER
    # only the first duel's first attacker was drawn at random
    assert sum(1 for _, a in m.history if isinstance(a, RandomResult)) == 1


def test_three_duels_in_a_row_end_the_tournament() -> None:
    m = _tournament(seed=9)
    for _ in range(3):
        assert m.outcome is None
        _win_duel(m, 0)
    assert m.outcome == Outcome(winners=(0,), reason="tournament", scores=(3, 0))
    assert m.state.duels == (3, 0)
    assert _special_draws(m) == 3


@pytest.mark.parametrize("seed", [1, 2])
def test_without_the_tournament_option_one_duel_is_the_match(seed: int) -> None:
    m = new_match("cake-duel", 2, seed=seed)
    _win_duel(m, 1)
    assert m.outcome == Outcome(winners=(1,), reason="trophies", scores=(0, 3))
    assert m.state.duels == (0, 1)
    assert _special_draws(m) == 1

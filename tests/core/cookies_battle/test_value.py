"""The learned judgement of a Cookies Battle table: what it reads, and what it says."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.games.cookies_battle import search, value, weights
from cakeparty.core.games.cookies_battle.bots import normal_bot
from cakeparty.core.games.cookies_battle.cards import marker_kind
from cakeparty.core.games.cookies_battle.judge import count_score, counts_of
from cakeparty.core.games.cookies_battle.state import CookiesState

GAME = get_game("cookies-battle")


def _tables(players: int, seed: int, options: dict[str, str] | None = None) -> list[CookiesState]:
    """The table at the end of every trick of a game of normal bots."""
    m = new_match("cookies-battle", players=players, seed=seed, options=options or {})
    rng = random.Random(seed)
    out, won = [], 0
    while m.outcome is None:
        seat = m.to_act[0]
        m.apply(normal_bot(m.view(seat), rng), seat)
        if sum(m.state.tricks_won) != won and m.outcome is None:
            won = sum(m.state.tricks_won)
            out.append(m.state)
    return out


def test_the_weights_read_rows_of_today_s_features() -> None:
    assert weights.FEATURES == value.ROW
    assert weights.HIDDEN and all(len(column) == value.ROW for _, column, _ in weights.HIDDEN)


def test_a_row_reads_each_seat_s_lead_markers_and_pieces() -> None:
    for state in _tables(4, seed=5)[::6]:
        names = state.knowledge.cards
        worth = [
            count_score(counts_of(names[s] for s in state.pieces[seat]))
            + 2 * len(state.markers[seat])
            for seat in range(4)
        ]
        left = value.features(state)
        # the pieces still to come: the pile's and the next one, once it is shown
        future = len(state.piece_pile) + (state.dispute is not None)
        assert future == 36 - sum(state.tricks_won)
        spread = (future + 1) ** 0.5
        for seat, row in enumerate(left):
            assert len(row) == value.ROW
            others = sorted((worth[s] for s in range(4) if s != seat), reverse=True)
            leads = [worth[seat] - x for x in others]
            assert row[6:9] == pytest.approx([d / 5 for d in leads])
            assert row[0:3] == pytest.approx([d / spread for d in leads])
            kinds = [marker_kind(names[s]) for s in state.markers[seat]]
            by_kind = [
                kinds.count("theft"),
                kinds.count("puppet"),
                kinds.count("swap"),
                kinds.count("right-breeze") + kinds.count("left-breeze"),
                kinds.count("defense"),
            ]
            assert row[9:14] == pytest.approx([k / 3 for k in by_kind])
            assert row[18] == pytest.approx(len(state.pieces[seat]) / 10)
            assert row[20] == float(state.leader == seat)


def test_the_chances_are_a_distribution_that_follows_the_table() -> None:
    tables = _tables(4, seed=6)
    for state in tables:
        chances = value.chances(state)
        assert len(chances) == 4 and sum(chances) == pytest.approx(1)
        assert all(0 < c < 1 for c in chances)
        # the search's judgement at 4 players under the tummy ache is this one
        assert search.evaluate(state) == pytest.approx(chances)
    # early on nobody is far ahead; one trick from the end the table says much more
    assert max(value.chances(tables[0])) < 0.4
    assert max(max(value.chances(s)) for s in tables[-3:]) > max(value.chances(tables[0]))


@pytest.mark.parametrize(
    ("players", "options"), [(3, None), (5, None), (4, {"variant": "beginners"})]
)
def test_other_tables_keep_the_normal_guess(players: int, options: dict[str, str] | None) -> None:
    # the weights were fitted on 4-player games under the tummy ache only
    for state in _tables(players, seed=2, options=options)[::5]:
        assert not value.fits(state)
        assert search.evaluate(state, 0) == search.chances(search.table(state, 0))


def test_a_table_one_piece_from_the_end_favours_the_clear_second() -> None:
    # the last trick: the seat alone in second place, 2 points or more from the seats above
    # and below it, is the likeliest winner (the top seat has the tummy ache)
    found = 0
    for seed in range(10):
        state = _tables(4, seed=seed)[-1]
        names = state.knowledge.cards
        worth = [
            count_score(counts_of(names[s] for s in state.pieces[seat]))
            + 2 * len(state.markers[seat])
            for seat in range(4)
        ]
        order = sorted(range(4), key=lambda s: -worth[s])
        top, second, third = (worth[s] for s in order[:3])
        if top - second < 2 or second - third < 2:
            continue
        chances = value.chances(state)
        assert max(range(4), key=lambda s: chances[s]) == order[1]
        assert chances[order[0]] < chances[order[1]]
        found += 1
    assert found >= 2, "too few games ended with a clear second place"

"""Scoring: the worked example, the optimal assembly (against brute force), marker
points, the tummy ache and every tie rule."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from cakeparty.core.games.cookies_battle.cards import PIECE_KINDS, WHOLE
from cakeparty.core.games.cookies_battle.scoring import (
    GOOD,
    SeatScore,
    assemble,
    assemble_counts,
    decide,
    seat_score,
)


def pieces_of(**counts: int) -> list[str]:
    return [f"{kind}-{n}" for kind, count in counts.items() for n in range(1, count + 1)]


def test_the_worked_example_scores_17() -> None:
    # a whole traditional cookie 6 + one sprinkle 2 + two strawberry 8 + one traditional 1
    score = seat_score(pieces_of(traditional=5, sprinkle=1, strawberry=2), 0)
    assert score.total == 17
    assert score.assembly.cookies == (1, 0, 0)
    assert score.assembly.loose == (1, 1, 2)


def test_every_whole_cookie_value() -> None:
    assert assemble(pieces_of(traditional=4)).points == 6
    assert assemble(pieces_of(sprinkle=4)).points == 10
    assert assemble(pieces_of(strawberry=4)).points == 20
    assert assemble(pieces_of(traditional=8, sprinkle=5)).points == 12 + 10 + 2


def test_rotten_pieces_score_nothing_and_cannot_be_assembled() -> None:
    assert assemble(pieces_of(rotten=8)).points == 0


def test_a_rotten_piece_cancels_the_cheapest_good_piece() -> None:
    a = assemble(pieces_of(traditional=1, strawberry=1, rotten=1))
    assert a.cancelled == (1, 0, 0)
    assert a.points == 4


def test_a_rotten_piece_spares_a_whole_cookie_when_that_costs_less() -> None:
    # 4 traditional (6) + 1 sprinkle (2): losing the sprinkle costs 2, a traditional 3
    a = assemble(pieces_of(traditional=4, sprinkle=1, rotten=1))
    assert a.cancelled == (0, 1, 0)
    assert a.points == 6


def test_a_rotten_piece_breaks_the_cookie_when_that_costs_less() -> None:
    # 4 traditional (6) + 1 strawberry (4): losing a traditional costs 3, the strawberry 4
    a = assemble(pieces_of(traditional=4, strawberry=1, rotten=1))
    assert a.cancelled == (1, 0, 0)
    assert a.points == 3 + 4


def test_more_rotten_than_good_pieces_cancel_everything() -> None:
    a = assemble(pieces_of(sprinkle=2, rotten=5))
    assert a.points == 0
    assert a.cancelled == (0, 2, 0)
    assert a.pieces == 7


def _brute_force(names: Sequence[str]) -> int:
    """Try every set of good pieces the rotten ones could cancel; score what is left."""
    good = [n for n in names if not n.startswith("rotten")]
    rotten = len(names) - len(good)
    best = 0
    for cancelled in itertools.combinations(range(len(good)), min(rotten, len(good))):
        kept = [g for i, g in enumerate(good) if i not in cancelled]
        points = 0
        for kind in GOOD:
            n = sum(1 for k in kept if k.startswith(kind))
            _, per, whole = PIECE_KINDS[kind]
            points += (n // WHOLE) * whole + (n % WHOLE) * per
        best = max(best, points)
    return best


def test_the_assembly_is_optimal_against_brute_force() -> None:
    rng = random.Random(11)
    every = pieces_of(traditional=16, sprinkle=8, strawberry=4, rotten=8)
    for _ in range(400):
        held = rng.sample(every, rng.randint(0, 11))
        assert assemble(held).points == _brute_force(held), held


def test_every_small_count_is_optimal() -> None:
    for t, s, w, r in itertools.product(range(7), range(6), range(5), range(4)):
        held = pieces_of(traditional=t, sprinkle=s, strawberry=w, rotten=r)
        assert assemble_counts((t, s, w), r).points == _brute_force(held)


def test_each_unused_marker_scores_2() -> None:
    assert seat_score(pieces_of(traditional=1), 3).total == 1 + 6


# -- who wins --------------------------------------------------------------------------------


def score(total: int, pieces: int = 1, rotten: int = 0) -> SeatScore:
    """An even ``total`` (as unused markers), with ``pieces`` and ``rotten`` for the
    tie-breaks."""
    return SeatScore(assemble([]), total // 2, pieces, rotten)


def test_the_highest_score_has_a_tummy_ache_and_the_second_wins() -> None:
    assert decide([score(20), score(14), score(8)], tummy_ache=True) == ((1,), (0,))


def test_every_player_tied_for_the_highest_is_out() -> None:
    assert decide([score(20), score(20), score(8), score(4)], tummy_ache=True) == ((2,), (0, 1))


def test_all_tied_the_tie_breaks_apply_to_all() -> None:
    won, out = decide([score(10, 3), score(10, 5), score(10, 4)], tummy_ache=True)
    assert (won, out) == ((1,), ())


def test_a_tie_for_the_win_goes_to_most_pieces() -> None:
    won, _ = decide([score(20), score(10, 3), score(10, 5)], tummy_ache=True)
    assert won == (2,)


def test_then_to_fewest_rotten_pieces() -> None:
    won, _ = decide([score(20), score(10, 5, 2), score(10, 5, 1)], tummy_ache=True)
    assert won == (2,)


def test_then_the_win_is_shared() -> None:
    won, _ = decide([score(20), score(10, 5, 1), score(10, 5, 1)], tummy_ache=True)
    assert won == (1, 2)


def test_without_the_tummy_ache_the_highest_wins() -> None:
    # beginners and the duel
    assert decide([score(20), score(14), score(8)], tummy_ache=False) == ((0,), ())
    assert decide([score(8, 2), score(8, 3)], tummy_ache=False) == ((1,), ())

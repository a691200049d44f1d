"""The Cookies Battle bots: they see only their view, and ``normal`` plays a real strategy."""

from __future__ import annotations

import itertools

import pytest

from cakeparty.core.games.cookies_battle.judge import (
    Holding,
    Outlook,
    count_score,
    marker_earners,
    may_play,
    piece_score,
    place_chance,
    trick_winner,
)

# -- the judge's restatement of the rules --------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["blue-5", "blue-9", "red-12", "blue-2"], 1),  # the highest of the turn suit
        (["blue-5", "blue-9", "gold-2", "red-12"], 2),  # any gold beats the turn suit
        (["blue-5", "zero-a", "red-12", "gold-11"], 1),  # a 0 with a 12 on the table
        (["blue-5", "zero-a", "zero-b", "gold-12"], 1),  # the first 0 of them
        (["zero-a", "red-12", "thirteen-b", "thirteen-a"], 2),  # the first 13 beats all
        (["zero-a", "gold-3", "blue-2"], 1),  # a 0 without a 12 never wins
        (["magician", "zero-b", "zero-c"], 1),  # only specials: the first 0
        (["magician", "gold-1"], 1),
        (["magician"], 0),
    ],
)
def test_the_trick_winner_follows_the_printed_order(cards: list[str], winner: int) -> None:
    assert trick_winner(cards) == winner


@pytest.mark.parametrize(
    ("cards", "earners"),
    [
        (["blue-7", "blue-3", "red-9", "gold-8"], (1,)),  # the lowest 2–5
        (["blue-7", "blue-3", "red-1", "gold-8"], ()),  # a 1 is lower and stops it
        (["blue-7", "blue-3", "zero-a", "magician"], (3,)),  # a 0 blocks, not the Magician
        (["blue-3", "red-3", "gold-3", "magician"], (1, 3)),  # off-suit is the weakest
        (["blue-3", "red-3", "green-3"], (1, 2)),  # two off-suit 3s: both earn
        (["blue-3", "gold-3"], (0,)),  # the turn suit is weaker than gold
        (["blue-6", "red-9"], ()),  # nothing as low as 5
    ],
)
def test_markers_go_to_the_magician_and_the_weakest_lowest_card(
    cards: list[str], earners: tuple[int, ...]
) -> None:
    assert marker_earners(cards) == earners


def test_a_seat_holding_the_turn_suit_follows_it_or_plays_a_special() -> None:
    hand = ["blue-4", "gold-9", "red-2", "zero-a", "magician"]
    assert may_play(hand, "blue") == ["blue-4", "zero-a", "magician"]
    assert may_play(hand, "green") == hand
    assert may_play(hand, None) == hand


def test_the_worked_example_scores_17() -> None:
    names = [
        *(f"traditional-{i}" for i in range(1, 6)),
        "sprinkle-1",
        "strawberry-1",
        "strawberry-2",
    ]
    assert piece_score(names) == 17


def _brute(t: int, s: int, w: int, r: int) -> int:
    """Every choice of the good pieces the rotten ones cancel, the best kept."""
    goods = ["t"] * t + ["s"] * s + ["w"] * w
    cancel = min(r, len(goods))
    points = {"t": (1, 6), "s": (2, 10), "w": (4, 20)}
    best = 0
    for gone in itertools.combinations(range(len(goods)), cancel):
        kept = [g for i, g in enumerate(goods) if i not in gone]
        total = 0
        for kind, (per, whole) in points.items():
            n = kept.count(kind)
            total += (n // 4) * whole + (n % 4) * per
        best = max(best, total)
    return best


def test_the_assembly_by_counts_matches_every_choice_of_cancelled_pieces() -> None:
    for t, s, w, r in itertools.product(range(7), range(6), range(5), range(4)):
        assert count_score((t, s, w, r)) == _brute(t, s, w, r), (t, s, w, r)


def test_the_second_place_chance_peaks_between_the_others() -> None:
    others = [(10.0, 1.0), (20.0, 1.0), (30.0, 1.0)]
    chances = {mine: place_chance((mine, 1.0), others, 1) for mine in (5, 15, 25, 35)}
    assert max(chances, key=chances.__getitem__) == 25
    assert chances[25] > 0.9 and chances[35] < 0.05 and chances[5] < 0.05
    # the first place: the higher the better
    assert place_chance((35.0, 1.0), others, 0) > place_chance((25.0, 1.0), others, 0)


def test_the_outlook_knows_a_whole_cookie_is_worth_more_than_its_pieces() -> None:
    three = Holding((3, 0, 0, 0))
    outlook = Outlook(seat=0, holdings=(three, Holding((0, 0, 0, 0), unknown=4)), future=0, aim=0)
    assert three.plus("traditional").score(1.3) == 6
    assert three.plus("rotten").score(1.3) == 2
    assert outlook.chance() < 0.5 < outlook.chance(outlook.with_piece(0, "traditional"))

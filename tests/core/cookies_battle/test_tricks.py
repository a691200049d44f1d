"""The rules of a trick on literal tricks: the turn suit, following suit, the winner in
each case of its order, and the markers earned (FAQ rulings included)."""

from __future__ import annotations

import pytest

from cakeparty.core.games.cookies_battle.tricks import (
    earners,
    may_play,
    playable,
    turn_suit,
    winner,
)

# -- the turn suit ---------------------------------------------------------------------------


def test_the_first_colour_card_sets_the_turn_suit() -> None:
    assert turn_suit(["blue-3", "red-9"]) == "blue"


def test_specials_and_gold_led_do_not_set_the_turn_suit() -> None:
    assert turn_suit(["gold-7", "zero-a", "magician", "thirteen-a"]) is None
    assert turn_suit(["gold-7", "zero-a", "green-2", "red-12"]) == "green"


# -- following suit --------------------------------------------------------------------------

HAND = ["blue-2", "blue-9", "red-5", "gold-11", "zero-a", "magician", "thirteen-b"]


def test_before_a_turn_suit_anything_goes() -> None:
    assert all(may_play(HAND, None, c) for c in HAND)


def test_holding_the_turn_suit_a_seat_plays_it_or_a_special() -> None:
    assert set(playable(HAND, "blue")) == {"blue-2", "blue-9", "zero-a", "magician", "thirteen-b"}


def test_gold_may_not_be_played_while_holding_the_turn_suit() -> None:
    assert not may_play(HAND, "blue", "gold-11")


def test_another_colour_may_not_be_played_while_holding_the_turn_suit() -> None:
    assert not may_play(HAND, "blue", "red-5")


def test_with_no_card_of_the_turn_suit_anything_goes_gold_included() -> None:
    assert set(playable(HAND, "green")) == set(HAND)


@pytest.mark.parametrize("special", ["zero-a", "magician", "thirteen-b"])
def test_a_special_may_always_be_played(special: str) -> None:
    assert may_play(HAND, "blue", special)
    assert may_play(HAND, "red", special)


# -- the winner ------------------------------------------------------------------------------


def test_a_13_wins_and_the_first_of_two_13s() -> None:
    assert winner(["gold-12", "thirteen-b", "zero-a", "thirteen-a"]) == 1


def test_a_13_beats_a_0_with_a_12() -> None:
    assert winner(["zero-a", "blue-12", "thirteen-a"]) == 2


def test_a_0_wins_when_any_12_is_on_the_table() -> None:
    assert winner(["blue-5", "zero-b", "gold-12", "zero-a"]) == 1


def test_a_gold_12_counts_as_a_12_for_the_0() -> None:
    assert winner(["red-1", "gold-12", "zero-c"]) == 2


def test_an_off_suit_12_counts_for_the_0() -> None:
    assert winner(["blue-5", "red-12", "zero-c"]) == 2


def test_without_a_12_the_highest_gold_wins() -> None:
    assert winner(["blue-11", "gold-2", "gold-9", "zero-a"]) == 2


def test_without_gold_the_highest_of_the_turn_suit_wins() -> None:
    assert winner(["green-3", "red-11", "green-8", "magician"]) == 2


def test_an_off_suit_card_never_wins_over_the_turn_suit() -> None:
    assert winner(["blue-1", "red-12", "green-12"]) == 0


def test_magician_and_0_without_12_never_win_the_first_0_does_if_alone() -> None:
    assert winner(["magician", "zero-b", "zero-a"]) == 1


def test_only_the_magician_the_first_card_wins() -> None:
    assert winner(["magician"]) == 0


# -- markers earned --------------------------------------------------------------------------


def test_the_magician_always_earns_a_marker() -> None:
    assert earners(["blue-9", "magician", "blue-10"]) == (1,)
    assert earners(["zero-a", "magician"]) == (1,)


def test_the_lowest_2_to_5_earns_a_marker() -> None:
    assert earners(["blue-9", "blue-4", "red-7"]) == (1,)


def test_a_lowest_card_above_5_earns_nothing() -> None:
    assert earners(["blue-9", "blue-6", "red-7"]) == ()


def test_a_1_on_the_table_is_lower_and_stops_it() -> None:
    assert earners(["blue-9", "blue-2", "red-1"]) == ()


def test_any_0_blocks_every_low_award() -> None:
    assert earners(["blue-9", "blue-2", "zero-a"]) == ()


def test_a_0_does_not_block_the_magician() -> None:
    assert earners(["blue-9", "blue-2", "zero-a", "magician"]) == (3,)


def test_the_magician_does_not_stop_a_low_award_and_both_earn() -> None:
    assert earners(["blue-3", "magician", "blue-8"]) == (0, 1)


def test_13s_do_not_count_as_low_or_block() -> None:
    assert earners(["thirteen-a", "green-5", "green-7"]) == (1,)


def test_equal_low_cards_the_off_suit_one_is_weaker() -> None:
    # turn suit blue: the red 3 is off suit, weaker than the blue 3 and the gold 3
    assert earners(["blue-3", "gold-3", "red-3"]) == (2,)


def test_equal_low_cards_the_turn_suit_is_weaker_than_gold() -> None:
    assert earners(["gold-4", "green-4", "green-9"]) == (1,)


def test_equal_weak_low_cards_both_earn() -> None:
    # turn suit blue: red 2 and green 2 are both off suit
    assert earners(["blue-8", "red-2", "green-2"]) == (1, 2)


def test_gold_alone_at_the_lowest_earns() -> None:
    assert earners(["gold-5", "blue-9"]) == (0,)

"""A game's registration: its options completed, stated to the rules, and said in the lobby."""

from __future__ import annotations

import pytest

from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.registration import (
    any_game,
    bare,
    count_words,
    find,
    lookup,
    registered,
)

DUEL = "cake-duel"


def test_options_are_completed_in_the_game_s_order_whatever_was_given() -> None:
    duel = lookup(DUEL)
    assert duel.complete({"tournament": True}) == (
        ("full", True),
        ("tournament", True),
        ("show_specials", False),
    )
    assert GameSetup(options={"tournament": True}) == GameSetup(
        options=(("show_specials", False), ("tournament", True))
    )
    with pytest.raises(ValueError, match="no option colour"):
        duel.complete({"colour": "red"})


def test_the_rules_are_told_the_options_away_from_default_and_those_always_stated() -> None:
    duel = lookup(DUEL)
    assert duel.rule_options({}) == {"full": True}
    assert duel.rule_options({"full": False, "show_specials": True}) == {
        "full": False,
        "show_specials": True,
    }
    assert HostPlan(options={"tournament": True}).rule_options == {"full": True, "tournament": True}


def test_the_lobby_says_the_count_s_note_and_the_chosen_options() -> None:
    duel = lookup(DUEL)
    assert duel.summary(2, {"full": True}) == ["Full game: hidden specials"]
    assert duel.summary(4, {"full": False, "tournament": True}) == [
        "Team mode: 1+3 vs 2+4",
        "Core cards only · tournament (best of 5)",
    ]


def test_how_many_may_play_is_said_as_a_run_or_as_the_counts() -> None:
    assert count_words([3]) == "3 players"
    assert count_words([1]) == "1 player"
    assert count_words([2, 3, 4, 5, 6]) == "2–6 players"
    assert count_words([2, 3]) == "2 or 3 players"
    assert count_words([2, 4]) == "2 or 4 players"
    assert count_words([1, 2, 4, 5]) == "1, 2, 4 or 5 players"
    assert count_words([]) == ""
    master = lookup("cake-master")  # its solo is played at one computer only
    assert master.players_words(networked=False) == "1–6 players"
    assert master.players_words(networked=True) == "2–6 players"
    assert master.players_words() == "1–6 players"
    assert all(game.kind for game in registered())


def test_blank_setups_take_the_first_game_and_its_usual_players() -> None:
    first = registered()[0]
    setup = GameSetup()
    assert (setup.game, setup.players) == (first.name, first.usual())
    plan = HostPlan()
    assert (plan.game, plan.players) == (first.name, first.usual(networked=True))


def test_the_usual_count_is_the_one_a_game_marks_else_its_fewest() -> None:
    # Cookies Battle's fewest is the duel, a variant: its own game is offered first
    cookies = lookup("cookies-battle")
    assert cookies.players()[0] == 2 and cookies.usual() == cookies.usual(networked=True) == 4
    assert GameSetup(game="cookies-battle").players == 4
    assert HostPlan(game="cookies-battle").players == 4
    assert lookup(DUEL).usual() == 2
    master = lookup("cake-master")  # alone at one computer, two at least in a room
    assert (master.usual(), master.usual(networked=True)) == (
        master.players()[0],
        master.players(networked=True)[0],
    )
    assert master.usual() != master.usual(networked=True)


def test_an_option_for_some_counts_is_not_said_at_the_others() -> None:
    cookies = lookup("cookies-battle")
    variant = cookies.option("variant")
    assert variant is not None and not variant.applies(2) and variant.applies(3)
    assert any("Beginners" in line for line in cookies.summary(4, {"variant": "beginners"}))
    assert not any("Beginners" in line for line in cookies.summary(2, {"variant": "beginners"}))


def test_a_game_without_a_screen_is_described_by_its_rules_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import cakeparty.tui.games as games

    monkeypatch.setattr(games, "GAMES", ())
    assert find(DUEL) is None
    assert any_game(DUEL) == bare(DUEL)
    assert bare(DUEL).players() == (2, 4) and bare(DUEL).options == ()
    with pytest.raises(ValueError, match="cannot be played here yet"):
        lookup(DUEL)
    with pytest.raises(ValueError, match="cannot be played here yet"):
        GameSetup(game=DUEL)

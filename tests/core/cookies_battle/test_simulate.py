"""Simulating Cookies Battle: the normal bot against random players, at four players under
the tummy ache, in the beginners' game and in the duel."""

from __future__ import annotations

import random

from cakeparty.core.simulate import simulate


def test_normal_wins_well_above_its_share_against_three_random_players() -> None:
    # the chance rate is 25 %; over 500 games the normal bot wins about half
    report = simulate(
        "cookies-battle", games=40, seed=2, bots=["normal", "random", "random", "random"], players=4
    )
    assert report.errors == 0
    assert report.wins["normal"] >= 16  # 40 %


def test_normal_wins_most_beginners_games_against_two_random_players() -> None:
    report = simulate(
        "cookies-battle",
        games=12,
        seed=2,
        bots=["normal", "random", "random"],
        players=3,
        options={"variant": "beginners"},
    )
    assert report.errors == 0
    assert report.wins["normal"] >= 8  # two in three; the chance rate is one in three


def test_normal_wins_the_duel_against_a_random_player_nearly_always() -> None:
    report = simulate("cookies-battle", games=20, seed=2, bots=["normal", "random"], players=2)
    assert report.errors == 0
    assert report.wins["normal"] >= 17  # 85 %
    # the summary says how many sat at each table
    assert report.summary().startswith("20 games of Cookies Battle, 2 players, in ")


def test_the_figures_are_per_bot_and_reproducible() -> None:
    def run() -> dict[str, object]:
        data = simulate(
            "cookies-battle", games=3, seed=4, bots=["normal", "random", "random"], players=3
        ).as_json()
        data.pop("seconds")
        return data

    first = run()
    assert first == run()
    assert first["errors"] == 0 and first["games"] == 3 and first["players"] == 3
    assert sum(first["wins"].values()) + first["shared"] == 3  # type: ignore[union-attr, operator]


def test_a_run_split_in_parts_plays_the_same_games() -> None:
    bots = ["normal", "random", "random", "random"]
    whole = simulate("cookies-battle", games=6, seed=3, bots=bots, players=4)
    first = simulate("cookies-battle", games=2, seed=3, bots=bots, players=4)
    rest = simulate("cookies-battle", games=4, seed=3, bots=bots, players=4, first=2)
    first.add(rest)
    merged, one = first.as_json(), whole.as_json()
    merged.pop("seconds"), one.pop("seconds")
    assert merged == one
    assert rest.as_json()["wins"] != one["wins"]  # the parts are different games


def test_the_figures_tell_how_often_each_bot_ended_with_the_tummy_ache() -> None:
    from cakeparty.core import get_game, new_match
    from cakeparty.core.games.cookies_battle.bots import normal_bot

    spec = get_game("cookies-battle")
    for seed in (1, 2, 3):
        m = new_match("cookies-battle", players=4, seed=seed)
        m.play([normal_bot] * 4, random.Random(seed))
        aches = spec.stats(m.state)["tummy_ache"]
        totals = [r.total for r in m.state.results]
        top = max(totals)
        # the seats with the highest score, unless every seat is tied
        expected = [float(t == top and len(set(totals)) > 1) for t in totals]
        assert list(aches) == expected, (totals, aches)
    report = simulate(
        "cookies-battle", games=6, seed=3, bots=["normal", "random", "random", "random"], players=4
    ).as_json()
    per_game = report["tummy_ache_per_game"]
    assert set(per_game) == {"normal", "random#1", "random#2", "random#3"}  # type: ignore[arg-type]
    # someone ends on top in every game that is not tied all round
    assert sum(per_game.values()) >= 5 / 6  # type: ignore[union-attr]
    # neither the duel nor the beginners' game has a tummy ache to tell
    duel = simulate("cookies-battle", games=1, seed=3, bots=["normal", "random"], players=2)
    assert "tummy_ache_per_game" not in duel.as_json()


def test_the_text_summary_keeps_to_80_columns_at_a_full_table() -> None:
    bots = ["normal", "random", "random", "random", "random", "random"]
    report = simulate("cookies-battle", games=1, seed=2, bots=bots, players=6)
    text = report.summary()
    assert all(len(line) < 80 for line in text.splitlines()), text
    # a wrapped figure keeps every seat's mean, under its name
    flat = " ".join(text.split())
    lines = text.splitlines()
    words = {
        "tricks_won_per_game": "tricks won a game",
        "markers_earned_per_game": "markers earned a game",
        "markers_used_per_game": "markers used a game",
        "tummy_ache_per_game": "share of the games with the tummy ache",
    }
    assert "ended by the tummy ache " in text
    for key, means in report.figures().items():
        said = f"{words[key]}: " + ", ".join(f"{label} {m}" for label, m in means.items())
        assert said in flat
        # never a seat's name on one line and its mean on the next
        for label, m in means.items():
            assert any(f"{label} {m}" in line for line in lines), (label, text)

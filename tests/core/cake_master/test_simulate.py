"""Simulating Cake Master: solo with one bot or several, and the game's own figures."""

from __future__ import annotations

import pytest

from cakeparty.core.simulate import SimulationError, simulate


def test_solo_with_one_bot_reports_customers_met_per_game() -> None:
    report = simulate("cake-master", games=3, seed=2, bots=["random"], players=1)
    data = report.as_json()
    # nobody to beat: no wins counted, the games played and the customers met tell it
    assert report.errors == 0 and report.wins["random"] == 0 and report.seats == {"random": 3}
    assert set(data["customers_met_per_game"]) == {"random"}
    assert 0 <= data["customers_met_per_game"]["random"] <= 9
    assert "customers met a game: random" in report.summary()


def test_solo_bots_take_turns_game_by_game() -> None:
    report = simulate("cake-master", games=4, seed=2, bots=["normal", "random"], players=1)
    assert report.seats == {"normal": 2, "random": 2}


def test_figures_are_per_seat_and_reproducible() -> None:
    def run() -> dict[str, object]:
        data = simulate(
            "cake-master", games=3, seed=4, bots=["random", "random", "normal"], players=3
        ).as_json()
        data.pop("seconds")
        return data

    first = run()
    assert first == run()
    assert set(first["taste_per_game"]) == {"random#0", "random#1", "normal"}  # type: ignore[arg-type]


def test_a_game_without_figures_reports_none() -> None:
    data = simulate("cake-duel", games=2, seed=1, bots=["random", "random"], players=2).as_json()
    assert not any(key.endswith("_per_game") and isinstance(v, dict) for key, v in data.items())


def test_a_bot_count_that_fits_no_seating_is_refused() -> None:
    with pytest.raises(SimulationError):
        simulate("cake-master", games=1, seed=1, bots=["random"] * 2, players=3)

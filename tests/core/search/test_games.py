"""The strong bot on every real game that can draw worlds: legal, and blind to hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.game import SEARCH_LEVEL, Game, bot_levels
from cakeparty.core.search import Budget, search
from cakeparty.core.simulate import simulate

# (game, players): two seats where the game allows, else the fewest
TABLES = {"cake-duel": 2, "cake-master": 2, "cookies-battle": 3, "cake-of-doom": 3}


def searchable() -> list[Any]:
    cases = []
    for name, players in TABLES.items():
        game = get_game(name)
        marks = () if SEARCH_LEVEL in bot_levels(game) else (pytest.mark.skip("no determinize"),)
        cases.append(pytest.param(name, players, marks=marks, id=name))
    return cases


def decisions(game: Game, name: str, players: int, seed: int, count: int) -> list[Any]:
    """Views of real choices (more than one legal action) met in a game of normal bots."""
    match = new_match(name, players=players, seed=seed)
    normal = game.bots["normal"]
    rng = random.Random(seed)
    views = []
    step = 0
    while match.outcome is None and len(views) < count:
        seat = match.to_act[0]
        view = match.view(seat)
        if len(view.legal) > 1 and step % 5 == 0:
            views.append(view)
        step += 1
        match.apply(normal(view, rng), seat)
    return views


@pytest.mark.parametrize(("name", "players"), searchable())
def test_the_strong_bot_decides_alike_whatever_the_hidden_cards(name: str, players: int) -> None:
    # Two worlds drawn from one seat's view hold the hidden cards differently; the seat sees
    # the same in both, so the search, seeded alike, makes the same choice.
    game = get_game(name)
    budget = Budget(iterations=3, max_actions=400, rollout="random")
    differed = 0
    for view in decisions(game, name, players, seed=7, count=2):
        worlds = [game.determinize(view, random.Random(draw)) for draw in (1, 2)]
        assert all(w is not None for w in worlds)
        states = [w.state for w in worlds if w is not None]
        views = [game.view(state, view.seat) for state in states]
        assert views[0] == views[1] == view
        differed += game.knowledge(states[0]) != game.knowledge(states[1])
        choices = [search(game, v, random.Random(5), budget) for v in views]
        assert choices[0].action == choices[1].action
        assert choices[0].visits == choices[1].visits
        assert choices[0].action in view.legal
    assert differed, "the worlds drawn never held the hidden cards differently"


def test_a_simulation_times_the_strong_decisions() -> None:
    # one short game of the quickest game that can be searched
    quick = [n for n in ("cake-master", "cake-duel") if SEARCH_LEVEL in bot_levels(get_game(n))]
    if not quick:
        pytest.skip("no quick game can be searched")
    name, players = quick[0], 2
    others = ["normal"] * (players - 1)
    report = simulate(name, games=1, seed=3, bots=["strong", *others], players=players, think=0.005)
    data = report.as_json()
    assert report.errors == 0, report.failures
    assert data["strong_decisions"] > 0
    assert 0 < data["strong_ms_median"] <= data["strong_ms_p95"]


def test_without_a_searching_bot_a_simulation_times_nothing() -> None:
    report = simulate("cake-duel", games=1, seed=3, bots=["random", "random"], players=2)
    assert "strong_ms_median" not in report.as_json()


def test_a_searching_bot_may_be_given_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import cakeparty.core.simulate as sim

    asked: list[tuple[str, float | None]] = []
    real = sim.make_bot

    def spy(game: Game, level: str, think: float | None = None, clock: Any = None) -> Any:
        asked.append((level, think))
        return real(game, level, think, clock)

    monkeypatch.setattr(sim, "make_bot", spy)
    report = simulate(
        "cake-duel", games=1, seed=3, bots=["strong@0.004", "strong"], players=2, think=0.002
    )
    assert report.errors == 0, report.failures
    assert sorted(asked) == [("strong", 0.002), ("strong", 0.004)]
    assert report.labels == ("strong@0.004", "strong")
    assert sum(report.wins.values()) + report.shared == 1


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("strong@1", ("strong", 1.0)),
        ("strong@0.25", ("strong", 0.25)),
        ("strong@60", ("strong", 60.0)),
        ("strong", ("strong", 7.0)),
        ("normal", ("normal", 7.0)),
    ],
)
def test_a_bot_name_gives_its_level_and_budget(name: str, expected: tuple[str, float]) -> None:
    from cakeparty.core.simulate import bot_budget

    assert bot_budget(name, 7.0) == expected


@pytest.mark.parametrize(
    "name",
    [
        "strong@",
        "strong@x",
        "strong@0",
        "strong@-1",
        "strong@nan",
        "strong@inf",
        "strong@61",
        "normal@1",
    ],
)
def test_a_bad_budget_in_a_bot_name_is_a_clear_error(name: str) -> None:
    from cakeparty.core.simulate import SimulationError

    with pytest.raises(SimulationError, match=r"seconds|thinks|at most 60 s"):
        simulate("cake-duel", games=1, seed=3, bots=[name, "random"], players=2)


def test_the_bots_move_round_the_seats_from_one_game_to_the_next() -> None:
    from cakeparty.core.simulate import game_seed, seat_owners

    # one bot per seat: the first bot sits one seat further back each game
    assert [seat_owners(i, 4, 4).index(0) for i in range(5)] == [0, 3, 2, 1, 0]
    assert [seat_owners(i, 2, 2) for i in range(3)] == [[0, 1], [1, 0], [0, 1]]
    # two sides of a 4-seat game: partners across the table, the sides swapping each game
    assert [seat_owners(i, 2, 4, 2) for i in range(2)] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert len({game_seed(s, i) for s in (1, 2) for i in range(100)}) == 200

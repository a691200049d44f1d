"""Simulating Cake of Doom: how the games ended (by DOOM or after round 10), the game's own
figures, and the command line's one JSON object."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from cakeparty.core.simulate import simulate


def test_a_simulation_counts_games_ended_by_doom_and_by_regions_after_round_ten() -> None:
    report = simulate(
        "cake-of-doom", games=8, seed=2, bots=["normal", "random", "random"], players=3
    )
    data = report.as_json()
    assert report.errors == 0
    endings = data["endings"]
    assert set(endings) <= {"doom", "regions"}
    assert sum(endings.values()) == 8
    # the game's own ``doom`` figure is 1 for every seat of a game DOOM ended
    for share in data["doom_per_game"].values():
        assert round(share * 8) == endings.get("doom", 0)
    assert set(data["regions_per_game"]) == {"normal", "random#1", "random#2"}
    assert data["bribes_won_per_game"]["normal"] > 0


def test_a_simulation_is_reproducible() -> None:
    def run() -> dict[str, object]:
        data = simulate(
            "cake-of-doom",
            games=4,
            seed=7,
            bots=["random", "normal", "random", "random"],
            players=4,
            options={"blind": True},
        ).as_json()
        data.pop("seconds")
        return data

    assert run() == run()


def test_normal_bots_finish_every_game_among_themselves() -> None:
    for players, options in ((3, {"advanced": True}), (6, {"blind": True})):
        report = simulate(
            "cake-of-doom",
            games=3,
            seed=5,
            bots=["normal"] * players,
            players=players,
            options=options,
        )
        assert report.errors == 0
        assert sum(report.endings.values()) == 3


BIN = shutil.which("cakeparty") or str(Path(sys.executable).with_name("cakeparty"))


def test_the_command_prints_one_json_object_with_the_endings() -> None:
    out = subprocess.run(
        [BIN, "simulate", "cake-of-doom", "--players", "4", "--bots",
         "normal,random,random,random", "--games", "4", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["game"] == "cake-of-doom" and report["errors"] == 0
    assert sum(report["wins"].values()) + report["shared"] == 4
    assert sum(report["endings"].values()) == 4

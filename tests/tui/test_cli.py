"""The command line: `play` checks its arguments; headless commands stay free of the UI."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from cakeparty.tui import cli
from cakeparty.tui.table.local import GameSetup


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "cake-duel", "--players", "3"], "2 or 4 players"),
        (["play", "cake-duel", "--bots", "godlike"], "not a bot level"),
        (["play", "cake-duel", "--seed", "x"], "not a whole number"),
        (["play", "cake-duel", "--full", "--core"], "not allowed with argument"),
        (["play", "cake-duel", "--hotseat", "--bots", "random"], "leave out --bots"),
        (["play", "cake-of-doom", "--players", "2"], "cake-of-doom is for 3–6 players, not 2"),
        (["play", "cookies-battle", "--players", "7"], "is for 2–6 players, not 7"),
        (["play", "cookies-battle", "--players", "2", "--beginners"], "--beginners is for 3–6"),
        (["simulate", "cookies-battle", "--players", "2", "--beginners"], "is for 3–6 players"),
        (["host", "cookies-battle", "--players", "2", "--beginners"], "is for 3–6 players, not 2"),
        # another game's flag is named as typed, with its game (it said "has no option
        # variant", the option's inner key)
        (["play", "cake-duel", "--beginners"], "--beginners is an option of Cookies Battle, not"),
        (["host", "cake-master", "--core"], "--core is an option of Cake Duel, not Cake Master"),
        (["simulate", "cake-duel", "--blind"], "--blind is an option of Cake of Doom, not Cake"),
        (["play", "chess"], "invalid choice"),
    ],
)
def test_bad_play_arguments_exit_2_with_a_clear_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_play_opens_the_app_with_the_game_asked_for(
    opened: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    started = opened
    assert cli.main(["play", "cake-duel", "--players", "4", "--core", "--seed", "9"]) == 0
    assert cli.main(["play", "cake-duel", "--hotseat"]) == 0
    assert cli.main([]) == 0
    assert started[0] == GameSetup(players=4, bots="normal", options={"full": False}, seed=9)
    assert started[1] is not None and started[1].hotseat and started[1].players == 2
    assert started[2] is None  # the menu


def test_without_players_a_game_is_played_at_its_usual_count(
    opened: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", "cookies-battle", "--seed", "2"]) == 0
    assert cli.main(["play", "cake-of-doom", "--seed", "2"]) == 0
    assert [s.players for s in opened] == [4, 3]  # Cookies Battle's 4; Doom's fewest
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "cookies-battle 4" in " ".join(capsys.readouterr().out.split())


def test_headless_modules_do_not_import_textual() -> None:
    code = (
        "import sys\n"
        "import cakeparty.tui.cli, cakeparty.tui.table.local\n"
        "import cakeparty.tui.games.cake_duel.chronicle\n"
        "import cakeparty.tui.games, cakeparty.tui.table.registration, cakeparty.tui.table.story\n"
        "import cakeparty.tui.settings, cakeparty.core.games.cake_duel.text\n"
        "import cakeparty.tui.table.net, cakeparty.tui.netroom, cakeparty.tui.roomcli\n"
        "assert cakeparty.tui.cli.main(['rules', 'cake-duel']) == 0\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Cake Duel" in done.stdout

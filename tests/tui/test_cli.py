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


def test_a_bot_s_and_a_self_play_s_results_name_the_seats_a_person_reads() -> None:
    """The JSON counts seats from 0 ("abandoned by seat 0", "winner": [1]); the words
    name the players and count from 1 (they said "seat 1: winner None, audit: abandoned
    by seat 0", and "won by seat 4" of a bot that was not Bot 4)."""
    from cakeparty.tui import netcli

    names = ["Bot 1", "Bot 2", "Bot 3"]
    abandoned = {"seat": 1, "names": names, "winner": None, "audit": "abandoned by seat 0"}
    assert netcli.bot_line(abandoned, "Bot 2") == (
        "Bot 2 in seat 2 of 3: no winner, abandoned by Bot 1, no audit"
    )
    cheat = {"seat": 0, "names": names, "winner": [0, 2], "audit": "seat 1: #12: a bad share"}
    assert netcli.bot_line(cheat, "Bot 1") == (
        "Bot 1 in seat 1 of 3: won by Bot 1 and Bot 3, audit: Bot 2 cheated (#12): a bad share"
    )
    assert netcli.bot_line({"seat": None, "winner": None, "audit": "no game"}, "Mia") == (
        "Mia: no game was played"
    )
    report = {
        "game": "cake-duel",
        "players": 3,
        "names": names,
        "winner": [2],
        "audit": ["abandoned by seat 1", "no result"],
        "seconds": 1.5,
        "messages": 20,
        "bytes": 300,
    }
    assert netcli.report_line(report) == (
        "Cake Duel, 3 players: won by Bot 3, abandoned by Bot 2, no audit; a bot gave no "
        "result, 1.5 s, 20 messages, 300 bytes"
    )


def test_a_bot_s_breach_reads_in_the_reader_s_language_fields_and_all() -> None:
    """The ``audit`` line is the protocol's English, its fields already filled; the JSON's
    ``breach`` keeps the reason and its fields, so that a bot's and a self-play's words
    say it in ``--lang`` (they translated the filled English line, and so said it in
    English)."""
    import json

    from cakeparty.protocol.audit import Verdict
    from cakeparty.tui import netcli

    from .languages import speaking

    verdict = Verdict(
        False,
        1,
        "#12",
        "offered {value} where {need} is needed",
        params=(("value", 2), ("need", 3)),
    )
    names = ["Ann", "Ben"]
    result = json.loads(
        json.dumps(
            {
                "seat": 0,
                "names": names,
                "winner": [0],
                "audit": str(verdict),
                "breach": netcli.breach_of(verdict),
            }
        )
    )
    assert result["audit"] == "seat 1: #12: offered 2 where 3 is needed"
    report = {
        "game": "cake-of-doom",
        "players": 2,
        "names": names,
        "winner": [0],
        "audit": [result["audit"]],
        "breaches": {result["audit"]: result["breach"]},
        "seconds": 1.5,
        "messages": 20,
        "bytes": 300,
    }
    with speaking("es"):
        line = netcli.bot_line(result, "Ann")
        said = netcli.report_line(report)
        plain = netcli.bot_line({**result, "breach": None}, "Ann")
    assert "ofreció 2 donde hacía falta 3" in line, line
    assert "ofreció 2 donde hacía falta 3" in said, said
    assert "offered 2 where 3 is needed" in plain  # without it: the English line, as before
    assert netcli.bot_line(result, "Ann").endswith("Ben cheated (#12): offered 2 where 3 is needed")

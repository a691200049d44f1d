"""Full duels between separate ``cakeparty`` processes through real brokers."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
from pathlib import Path

import pytest

from cakeparty.protocol import topics
from cakeparty.protocol.network import list_rooms
from cakeparty.protocol.transport import BrokerAddress, Transport

from .netgame import BIN, NetGame, assert_fair_and_agreed


def selfplay(broker: str, players: int, tmp_path: Path) -> dict[str, object]:
    out = subprocess.run(
        [
            BIN,
            "selfplay",
            "cake-duel",
            "--players",
            str(players),
            "--broker",
            broker,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, object] = json.loads(out.stdout)
    # a fair game leaves none of its throwaway keys and journals behind
    assert list(tmp_path.glob("cakeparty-selfplay-*")) == []
    # nor its room: it is closed, its advert gone from the broker (it stayed "playing",
    # its players for ever awaited by a spectator)
    assert list(asyncio.run(list_rooms(BrokerAddress.parse(broker)))) == []
    # the room's code in full, as the bots were given it; Bot N sat in seat N (they sat
    # as they came, and "won by seat 4" was Bot 3's win)
    assert re.fullmatch(r"\w{6}-\w{5}-\w{5}", str(report["room"])), report
    assert report["names"] == [f"Bot {n}" for n in range(1, players + 1)], report
    return report


@pytest.mark.parametrize("players", [2, 4])
def test_selfplay_through_mosquitto(mosquitto: object, players: int, tmp_path: Path) -> None:
    report = selfplay(mosquitto.url, players, tmp_path)  # type: ignore[attr-defined]
    assert report["audit"] == "fair"
    assert report["players"] == players and report["winner"]
    assert int(report["messages"]) > 50 and int(report["bytes"]) > 10_000  # type: ignore[call-overload]


@pytest.mark.parametrize("players", [2, 4])
def test_selfplay_through_the_embedded_broker(embedded: str, players: int, tmp_path: Path) -> None:
    report = selfplay(embedded, players, tmp_path)
    assert report["audit"] == "fair" and report["players"] == players


def test_selfplay_reports_in_words_in_the_chosen_language(embedded: str, tmp_path: Path) -> None:
    """Without --json: the game's title, the winners by name (Bot N in seat N) and the
    verdict, in the language asked for (the JSON keeps the codes)."""
    out = subprocess.run(
        [BIN, "--lang", "es", "selfplay", "cake-duel", "--players", "4", "--broker", embedded],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    line = out.stdout.strip()
    # a side of two wins: seats 1 and 3, or 2 and 4, named (it said "ganan los asientos
    # 1, 3", seats of bots that sat in any order)
    assert line.startswith("Duelo de Pasteles, 4 jugadores: ganan Bot "), line
    assert "ganan Bot 1 y Bot 3," in line or "ganan Bot 2 y Bot 4," in line, line
    assert "auditoría: justa" in line, line


async def test_bots_as_processes_agree_on_the_outcome(broker_url: str, tmp_path: Path) -> None:
    async with NetGame(broker_url, 2, tmp_path) as game:
        assert_fair_and_agreed(await game.results())
        # each said it is a bot, at its level; the room shows them so
        assert game.host.advert is not None
        assert [s.own_bot for s in game.host.advert.taken] == ["normal", "normal"]


@pytest.mark.parametrize("as_json", [False, True], ids=["words", "json"])
def test_selfplay_with_no_broker_there_says_so_in_one_line(tmp_path: Path, as_json: bool) -> None:
    """Nothing listens on port 1: selfplay says the broker cannot be reached, and nothing
    else. It printed a report of no game ("no winner, audit , … 0 messages"; with --json
    "audit": []) after each bot's own failure, and kept an empty game's folder."""
    out = subprocess.run(
        [BIN, "selfplay", "cake-duel", "--broker", "mqtt://127.0.0.1:1", "--timeout", "60"]
        + (["--json"] if as_json else []),
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert out.stdout == ""
    assert out.stderr == (
        "cakeparty selfplay: cannot reach the broker at mqtt://127.0.0.1:1: "
        "nothing answers on that port\n"
    )
    assert list(tmp_path.glob("cakeparty-selfplay-*")) == []  # nothing was played


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (and has not reaped)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


async def test_selfplay_says_which_bots_gave_no_result(embedded: str, tmp_path: Path) -> None:
    """Its bots killed in the middle of the game (by the machine running out of memory,
    say): selfplay says which bot gave no result and how it ended, reports no fair audit
    (exit status 1), keeps the players' keys and journals, and closes its room."""
    broker = BrokerAddress.parse(embedded)
    async with Transport(broker, client_id="watch-selfplay") as watch:
        await watch.subscribe(topics.Topic(f"{topics.PREFIX}/rooms/+/log"))
        proc = await asyncio.create_subprocess_exec(
            *(BIN, "--lang", "en", "selfplay", "cake-duel", "--broker", embedded, "--json"),
            env={**os.environ, "TMPDIR": str(tmp_path)},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:

            async def under_way() -> None:  # the bots' first move is on the room's log
                async for _message in watch.messages():
                    return

            await asyncio.wait_for(under_way(), 120)
            bots = children(proc.pid)
            assert len(bots) == 2, bots
            for bot in bots:
                os.kill(bot, signal.SIGKILL)
            out, err = await asyncio.wait_for(proc.communicate(), 120)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert proc.returncode == 1, out.decode() + err.decode()
    report = json.loads(out)
    assert report["audit"] == ["no result"] and report["winner"] is None, report
    kept = list(tmp_path.glob("cakeparty-selfplay-*"))
    assert len(kept) == 1
    assert err.decode().splitlines() == [
        "cakeparty selfplay: bot 1 gave no result: killed by SIGKILL",
        "cakeparty selfplay: bot 2 gave no result: killed by SIGKILL",
        f"cakeparty selfplay: the players' keys and journals are kept in {kept[0]}",
    ]
    assert list(await list_rooms(broker)) == []

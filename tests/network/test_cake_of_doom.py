"""Cake of Doom between separate processes through real brokers: both decks shuffled by
every seat, hands dealt privately, grab and steal cards shown as they are played, a steal
drawn by joint randomness and shown to the thief and the victim only, hands re-mixed after
a card left them, offers face up or (blind) face down until every saboteur has answered,
piles refilled from their discards.

``selfplay`` of four bots on a real Mosquitto ends with the audit finding the game fair,
in the open game and in the blind variant; then bot processes, each at its own seat with
its own key and journal, play a room of the advanced blind game hosted here (the options
carried in the advert and the table) to the same fair end on the embedded broker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cakeparty.core import get_game
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.table.registration import any_game

from .netgame import BIN
from .test_sealed_crash import DEADLINE, kill_bots, start_bot, until

GAME = "cake-of-doom"
#: the strongest bot the game has
LEVEL = "normal" if "normal" in get_game(GAME).bots else "random"
#: the least a 4-player game takes before its first turn: 13 fair draws (aliens, DOOM's
#: continent, 7 regions, the first player), each a commitment and an opening of 4 seats
LEAST_MESSAGES = 13 * 2 * 4
BLIND_FLAG = "the blind variant is chosen with --blind, which Cake of Doom's screen registers"


def selfplay(broker: str, players: int, *flags: str) -> subprocess.Popen[str]:
    """A ``cakeparty selfplay`` process, started."""
    return subprocess.Popen(
        [
            BIN,
            "selfplay",
            GAME,
            "--players",
            str(players),
            "--broker",
            broker,
            "--level",
            LEVEL,
            *flags,
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def report_of(proc: subprocess.Popen[str]) -> dict[str, Any]:
    """The JSON report of a ``selfplay`` process, once it has ended well."""
    try:
        out, err = proc.communicate(timeout=400)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, out + err
    report: dict[str, Any] = json.loads(out)
    return report


def test_selfplay_of_four_through_mosquitto_ends_fair_open_and_blind(mosquitto: object) -> None:
    """The open game and the blind variant, side by side on one Mosquitto."""
    url = mosquitto.url  # type: ignore[attr-defined]
    runs = {"open": selfplay(url, 4)}
    if any_game(GAME).option("blind") is not None:
        runs["blind"] = selfplay(url, 4, "--blind")
    try:
        reports = {variant: report_of(proc) for variant, proc in runs.items()}
    finally:
        for proc in runs.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    for variant, report in reports.items():
        assert report["audit"] == "fair", (variant, report)
        assert report["game"] == GAME and report["players"] == 4 and report["winner"], report
        assert int(report["messages"]) > LEAST_MESSAGES, (variant, report)
    if "blind" not in runs:
        pytest.skip(f"the open game ends fair; {BLIND_FLAG}")


async def test_bot_processes_at_every_seat_play_an_advanced_blind_room_to_a_fair_end(
    embedded: str, tmp_path: Path
) -> None:
    players = 3
    room = new_room_code()
    host = RoomRunner(
        broker=BrokerAddress.parse(embedded),
        identity=Identity.generate("Referee"),
        room=room,
        host=HostSetup(GAME, players, {"advanced": True, "blind": True}, timeout=120),
        seated=False,
        journal_dir=tmp_path / "host",
    )
    task = asyncio.create_task(host.run())
    bots = [
        await start_bot(
            tmp_path / f"bot{n}", room, embedded, game=GAME, name=f"Bot {n + 1}", command=(BIN,)
        )
        for n in range(players)
    ]
    try:
        await until(lambda: host.log_messages > 0, "the game starts")
        # the options every seat's process accepted with the table
        table = host.table
        assert table is not None and table.game == GAME
        assert table.option_map == {"advanced": True, "blind": True}
        results = []
        for bot in bots:
            out, err = await asyncio.wait_for(bot.communicate(), 4 * DEADLINE)
            lines = out.decode().strip().splitlines()
            assert lines, err.decode()[-2000:]
            results.append(json.loads(lines[-1]))
        assert [r["audit"] for r in results] == ["fair"] * players, results
        assert sorted(r["seat"] for r in results) == list(range(players))
        assert len({json.dumps(r["winner"]) for r in results}) == 1, results
        assert results[0]["winner"], results
        assert all(r["messages"] > 10 * players * 2 for r in results), results
        assert all(r["incidents"] == [] for r in results), results  # nobody misbehaved
    finally:
        await kill_bots(bots)
        host.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)

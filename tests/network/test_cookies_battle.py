"""Cookies Battle between separate processes through real brokers: the sealed pass, the
piece in dispute shown to all, markers earned privately and used out of turn with a
window after every card, random takes revealed to the taker and the victim only.

``selfplay`` of four bots on a real Mosquitto and of the duel on the embedded broker end
with the audit finding the game fair; then bot processes, each at its own seat with its
own key and journal, play a room of the beginners' variant hosted here (the variant a
room option, carried in the advert and the table) to the same fair end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
from pathlib import Path
from typing import Any

from cakeparty.core import get_game
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

from .netgame import BIN
from .test_sealed_crash import DEADLINE, kill_bots, start_bot, until

GAME = "cookies-battle"
#: the strongest bot the game has
LEVEL = "normal" if "normal" in get_game(GAME).bots else "random"


def selfplay(broker: str, players: int) -> dict[str, Any]:
    out = subprocess.run(
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
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def test_selfplay_of_four_through_mosquitto_ends_fair(mosquitto: object) -> None:
    report = selfplay(mosquitto.url, 4)  # type: ignore[attr-defined]
    assert report["audit"] == "fair", report
    assert report["game"] == GAME and report["players"] == 4 and report["winner"]
    # three rounds of twelve tricks of four cards, each card followed by its marker window
    assert int(report["messages"]) > 3 * 12 * 4


def test_selfplay_of_the_duel_through_the_embedded_broker_ends_fair(embedded: str) -> None:
    report = selfplay(embedded, 2)
    assert report["audit"] == "fair", report
    assert report["game"] == GAME and report["players"] == 2 and report["winner"]
    assert int(report["messages"]) > 3 * 10 * 2  # three rounds of ten tricks of two cards


async def test_bot_processes_at_every_seat_play_a_beginners_room_to_a_fair_end(
    embedded: str, tmp_path: Path
) -> None:
    players = 3
    room = new_room_code()
    host = RoomRunner(
        broker=BrokerAddress.parse(embedded),
        identity=Identity.generate("Referee"),
        room=room,
        host=HostSetup(GAME, players, {"variant": "beginners"}, timeout=120),
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
        # every card played is one message at least
        assert all(r["messages"] > 3 * 12 * players for r in results), results
        assert all(r["incidents"] == [] for r in results), results  # nobody misbehaved
    finally:
        await kill_bots(bots)
        host.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)

"""Networked games for tests: a host in this process, bots as separate processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

BIN = str(Path(sys.executable).with_name("cakeparty"))


@dataclass
class BotProcess:
    """One ``cakeparty bot`` process with its own key and journal."""

    seat: int
    home: Path
    room: str
    broker: str
    proc: asyncio.subprocess.Process | None = None
    results: list[dict[str, Any]] = field(default_factory=list)

    async def start(self) -> None:
        env = {
            **os.environ,
            "CAKEPARTY_CONFIG_DIR": str(self.home / "config"),
            "CAKEPARTY_DATA_DIR": str(self.home / "data"),
        }
        self.proc = await asyncio.create_subprocess_exec(
            BIN,
            "bot",
            "cake-duel",
            "--room",
            self.room,
            "--broker",
            self.broker,
            "--name",
            f"Bot {self.seat + 1}",
            "--json",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)

    async def finish(self, timeout: float) -> dict[str, Any]:
        assert self.proc is not None
        out, err = await asyncio.wait_for(self.proc.communicate(), timeout)
        lines = out.decode().strip().splitlines()
        assert lines, f"bot {self.seat} printed nothing: {err.decode()[-2000:]}"
        result: dict[str, Any] = json.loads(lines[-1])
        return result


class NetGame:
    """A room hosted here (no seat), ``players`` bot processes joining it."""

    def __init__(self, broker: str, players: int, tmp: Path, *, timeout: int = 60) -> None:
        self.broker = broker
        self.room = new_room_code()
        self.host = RoomRunner(
            broker=BrokerAddress.parse(broker),
            identity=Identity.generate("Referee"),
            room=self.room,
            host=HostSetup("cake-duel", players, {"full": True}, timeout=timeout),
            seated=False,
            journal_dir=tmp / "host",
        )
        self.bots = [BotProcess(i, tmp / f"bot{i}", self.room, broker) for i in range(players)]
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> NetGame:
        self.task = asyncio.create_task(self.host.run())
        for bot in self.bots:
            await bot.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        for bot in self.bots:
            if bot.proc is not None and bot.proc.returncode is None:
                bot.proc.kill()
                await bot.proc.wait()
        self.host.stop()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 10)

    async def log_reaches(self, messages: int, timeout: float = 60) -> None:
        """Wait until the room's log has carried ``messages`` messages (game under way)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.host.log_messages < messages:
            assert asyncio.get_running_loop().time() < deadline, "the game did not get going"
            await asyncio.sleep(0.05)

    async def results(self, timeout: float = 240) -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(b.finish(timeout) for b in self.bots)))


def assert_fair_and_agreed(results: list[dict[str, Any]]) -> None:
    assert [r["audit"] for r in results] == ["fair"] * len(results), results
    assert len({json.dumps(r["winner"]) for r in results}) == 1, results
    assert sorted(r["seat"] for r in results) == list(range(len(results)))

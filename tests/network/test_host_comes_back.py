"""A host that comes back: its app killed mid-game (``kill -9``), its broker still up — or
gone too and started again on the same port —, the host resumes its room from its journal
and record, the guest reconnects by itself, and the game finishes with a fair audit.

The host is a real process (``hostproc.py``: the app's ``NetRoom`` without its screen),
the guest a real ``cakeparty bot`` process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.broker.embedded import free_port
from cakeparty.broker.runner import is_ours, listening
from cakeparty.protocol import hosting, topics
from cakeparty.protocol.transport import BrokerAddress, Transport

from .netgame import BotProcess, assert_fair_and_agreed

HOSTPROC = str(Path(__file__).with_name("hostproc.py"))


class HostProcess:
    """The host's app as a process, with its own key, journals and record."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.env = {
            **os.environ,
            "CAKEPARTY_CONFIG_DIR": str(home / "config"),
            "CAKEPARTY_DATA_DIR": str(home / "data"),
        }
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, *args: str) -> dict[str, Any]:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            HOSTPROC,
            *args,
            env=self.env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        assert line, (await self.proc.stderr.read()).decode()[-2000:]  # type: ignore[union-attr]
        opened: dict[str, Any] = json.loads(line)
        return opened

    async def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()

    async def result(self, timeout: float) -> dict[str, Any]:
        assert self.proc is not None
        out, err = await asyncio.wait_for(self.proc.communicate(), timeout)
        lines = out.decode().strip().splitlines()
        assert self.proc.returncode == 0 and len(lines) >= 1, err.decode()[-3000:]
        result: dict[str, Any] = json.loads(lines[-1])
        return result

    def record(self, room: str) -> hosting.HostRecord | None:
        return hosting.load(room, self.home / "data")


async def count_log(url: str, room: str, seen: list[int], stop: asyncio.Event) -> None:
    """Counts the room log's messages (the game under way), across broker restarts."""
    transport = Transport(BrokerAddress.parse(url), client_id=f"watch-{room}")
    async with transport:
        await transport.subscribe(topics.log(room))

        async def read() -> None:
            async for _message in transport.messages():
                seen[0] += 1

        reader = asyncio.create_task(read())
        await stop.wait()
        reader.cancel()


async def until(test: Any, what: str, timeout: float = 60) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not test():
        assert asyncio.get_running_loop().time() < deadline, f"waited {timeout}s for {what}"
        await asyncio.sleep(0.05)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid)


def _state(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/status").read_text().lower()
    return ""


@dataclass
class GameUnderWay:
    """A host process and a bot guest in a game that is under way."""

    host: HostProcess
    bot: BotProcess
    opened: dict[str, Any]  # what the host printed when its room opened
    port: int
    brokers: list[int] = field(default_factory=list)  # broker pids to end, if still ours

    @property
    def room(self) -> str:
        return str(self.opened["room"])


@asynccontextmanager
async def game_under_way(tmp_path: Path, *host_args: str) -> AsyncIterator[GameUnderWay]:
    """A host process (``host_args`` added to its command line) on a free port and a bot
    guest, their game some 40 log messages in; on the way out every process still running
    is killed, and every broker in ``brokers`` that is still ours."""
    port = free_port()
    url = f"mqtt://127.0.0.1:{port}"
    host = HostProcess(tmp_path / "host")
    opened = await host.start("--port", str(port), *host_args)
    game = GameUnderWay(host, BotProcess(1, tmp_path / "guest", opened["code"], url), opened, port)
    seen = [0]
    stop = asyncio.Event()
    watcher = asyncio.create_task(count_log(url, game.room, seen, stop))
    try:
        await game.bot.start()
        await until(lambda: seen[0] >= 40, "the game to get going", 120)
        yield game
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(watcher, 10)
        for proc in (host.proc, game.bot.proc):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
        for pid in game.brokers:
            if is_ours(pid, port):
                os.kill(pid, signal.SIGKILL)


async def _host_killed_and_resumed(tmp_path: Path, *, broker_dies_too: bool) -> None:
    async with game_under_way(tmp_path) as game:
        host, room, port = game.host, game.room, game.port
        assert game.opened["port"] == port
        record = host.record(room)
        assert record is not None and record.table and record.pid is not None
        game.brokers.append(record.pid)
        await host.kill()  # mid-game: no goodbye, no clean-up
        # the broker is a process of its own: the app's death leaves it up
        assert listening(port) and is_ours(record.pid, port)
        if broker_dies_too:
            os.kill(record.pid, signal.SIGKILL)
            await until(lambda: not listening(port), "the broker to go", 20)
        reopened = await host.start("--resume", room)
        assert reopened == game.opened  # the same room, code and port
        resumed = host.record(room)
        assert resumed is not None and resumed.pid is not None
        game.brokers.append(resumed.pid)
        assert (resumed.pid == record.pid) is not broker_dies_too
        results = [await host.result(240), await game.bot.finish(240)]
        assert_fair_and_agreed(results)
        # a game over, left cleanly: the room is forgotten and its broker stops
        assert host.record(room) is None
        await until(lambda: not pid_alive(resumed.pid), "the broker to stop", 30)  # type: ignore[arg-type]


async def test_a_host_killed_mid_game_resumes_on_its_surviving_broker(tmp_path: Path) -> None:
    await _host_killed_and_resumed(tmp_path, broker_dies_too=False)


async def test_a_host_killed_with_its_broker_starts_it_again_and_the_game_ends_fair(
    tmp_path: Path,
) -> None:
    await _host_killed_and_resumed(tmp_path, broker_dies_too=True)


async def test_a_host_laptop_that_sleeps_past_the_keepalive_finds_the_game_where_it_was(
    tmp_path: Path,
) -> None:
    """The host's app and its broker stop together (a laptop's lid closed) for longer than
    the MQTT keepalive: the guest's connection times out and retries; on waking, both
    sides reconnect by themselves, resync, and the game finishes fair."""
    async with game_under_way(tmp_path, "--timeout", "300") as game:
        host, bot = game.host, game.bot
        record = host.record(game.room)
        assert record is not None and record.pid is not None and host.proc is not None
        game.brokers.append(record.pid)
        asleep = (host.proc.pid, record.pid)
        for pid in asleep:
            os.kill(pid, signal.SIGSTOP)
        try:
            # keepalive 20 s: a peer silent for 1.5 times that is dropped, here the guest
            await asyncio.sleep(35)
            assert bot.proc is not None and bot.proc.returncode is None
        finally:
            for pid in asleep:
                os.kill(pid, signal.SIGCONT)
        results = [await host.result(240), await bot.finish(240)]
        assert_fair_and_agreed(results)


async def test_a_new_room_on_a_taken_port_points_to_the_room_that_may_still_be_on(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import socket

    from cakeparty.protocol.identity import Identity
    from cakeparty.tui import netroom
    from cakeparty.tui.netroom import HostPlan, NetRoom

    me = Identity.generate("Ann")
    with socket.socket() as taken:  # as a broker left by a crashed host would
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        monkeypatch.setattr(netroom, "DEFAULT_PORT", taken.getsockname()[1])
        fresh = NetRoom(me, HostPlan(lan=False), journal_dir=tmp_path)
        assert fresh.port != netroom.DEFAULT_PORT and "is taken" in fresh.port_note
        assert "--resume" not in fresh.port_note  # nothing hosted here before
        hosting.save(
            hosting.HostRecord(room="K7QM2X", host=me.player_id.hex(), game="cake-duel", players=2),
            tmp_path,
        )
        again = NetRoom(me, HostPlan(lan=False), journal_dir=tmp_path)
        assert "cakeparty host --resume" in again.port_note

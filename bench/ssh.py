"""How the app feels over SSH, and how many players one machine serves.

Starts ``cakeparty serve-ssh`` on a free loopback port (its data in a temporary folder) and
connects to it with asyncssh clients, each with a key of its own, at 80×24:

* connect to first frame: from opening the TCP connection (key exchange, login, session,
  the app's start) to the menu (a returning player) and to a duel (``play cake-duel``);
* key press to update: in a duel, from sending a key (``l``/``h``, along the hand) to
  the end of the screen update it causes (the last byte before a 30 ms silence);
* concurrent sessions: N clients each in a duel, each pressing a key ``--rate`` times a
  second at random moments; N grows (1, 2, 4, 8, …) until the 95th percentile of key to
  update passes 100 ms or ``--max`` is reached. The clients run in this process, on the
  same machine, so their own SSH work counts against the server's.

Usage: python bench/ssh.py [--starts 5] [--presses 50] [--max 48] [--seconds 10] [--rate 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

BINARY = Path(sys.executable).with_name("cakeparty")
QUIET = 0.03  # seconds without output that end a screen update
AIM = 0.100
DUEL = "play cake-duel --seed 3 --bots random"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    def __init__(self, folder: Path, max_sessions: int) -> None:
        self.data = folder / "server"
        self.port = free_port()
        env = {**os.environ, "CAKEPARTY_DATA_DIR": str(self.data)}
        env.pop("CAKEPARTY_CONFIG_DIR", None)
        self.log = open(folder / "serve-ssh.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                *(str(BINARY), "serve-ssh", "--host", "127.0.0.1", "--port", str(self.port)),
                *("--max-sessions", str(max_sessions), "--idle-timeout", "0"),
            ],
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=self.log,
            env=env,
        )
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise SystemExit("serve-ssh did not start")
            time.sleep(0.05)

    def returning(self, key: asyncssh.SSHKey, name: str) -> None:
        """Make ``key`` a player who has been here before (no name question)."""
        config = self.data / "ssh-players" / hashlib.sha256(key.public_data).hexdigest() / "config"
        config.mkdir(parents=True, mode=0o700)
        (config / "settings.json").write_text(json.dumps({"name": name, "bot_delay": 0.3}))

    def session_rss(self) -> list[int]:
        """Resident memory (KiB) of each session's app: the server's children."""
        sizes = []
        for status in Path("/proc").glob("[0-9]*/status"):
            with contextlib.suppress(OSError):
                fields = dict(
                    line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
                )
                if fields.get("PPid", "").strip() == str(self.proc.pid):
                    sizes.append(int(fields.get("VmRSS", "0 kB").split()[0]))
        return sizes

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class Client:
    """One player: an SSH connection with a pseudo-terminal, its output watched."""

    def __init__(self, port: int, key: asyncssh.SSHKey, user: str) -> None:
        self.port, self.key, self.user = port, key, user
        self.seen = bytearray()
        self.last = 0.0
        self.arrived = asyncio.Event()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.proc: asyncssh.SSHClientProcess[bytes] | None = None
        self.reader: asyncio.Task[None] | None = None

    async def open(self, command: str | None) -> float:
        """Seconds from connecting until the session runs."""
        started = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=self.user,
            client_keys=[self.key],
            known_hosts=None,
            agent_path=None,
        )
        self.proc = await self.conn.create_process(
            command, term_type="xterm-256color", term_size=(80, 24), encoding=None
        )
        self.reader = asyncio.create_task(self._read())
        return time.perf_counter() - started

    async def _read(self) -> None:
        assert self.proc is not None
        while True:
            data = await self.proc.stdout.read(1 << 16)
            if not data:
                return
            self.last = time.perf_counter()
            self.seen += data
            self.arrived.set()

    async def wait_for(self, marker: bytes, timeout: float = 120) -> None:
        async with asyncio.timeout(timeout):
            while marker not in self.seen:
                self.arrived.clear()
                await self.arrived.wait()

    async def settle(self, quiet: float = 0.3) -> None:
        while True:
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), quiet)
            except TimeoutError:
                return

    async def press(self, key: bytes) -> float | None:
        """Seconds from sending ``key`` to the end of the update it causes."""
        assert self.proc is not None
        self.arrived.clear()
        sent = time.perf_counter()
        self.proc.stdin.write(key)
        try:
            await asyncio.wait_for(self.arrived.wait(), 5)
        except TimeoutError:
            return None
        await self.settle(QUIET)
        return self.last - sent

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await self.conn.wait_closed()
        if self.reader is not None:
            self.reader.cancel()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def first_frames(server: Server, starts: int) -> None:
    menu, duel, login = [], [], []
    for i in range(starts):
        key = asyncssh.generate_private_key("ssh-ed25519")
        server.returning(key, f"P{i}")
        for command, marker, times in ((None, b"Join a game", menu), (DUEL, b"Your hand", duel)):
            client = Client(server.port, key, f"p{i}")
            started = time.perf_counter()
            login.append(await client.open(command))
            await client.wait_for(marker)
            times.append(time.perf_counter() - started)
            await client.close()
    print(
        f"connect to first frame, {starts} starts: menu median {statistics.median(menu):.2f} s "
        f"(worst {max(menu):.2f} s), duel median {statistics.median(duel):.2f} s "
        f"(worst {max(duel):.2f} s); of which SSH login and session median "
        f"{ms(statistics.median(login))}"
    )


async def open_duel(server: Server, n: int) -> Client:
    key = asyncssh.generate_private_key("ssh-ed25519")
    server.returning(key, f"Player {n}")
    client = Client(server.port, key, f"player{n}")
    await client.open(DUEL)
    await client.wait_for(b"Your hand")
    await client.settle(1.0)
    return client


async def key_presses(server: Server, presses: int) -> None:
    client = await open_duel(server, 0)
    times = []
    for i in range(presses):
        took = await client.press(b"l" if i % 2 == 0 else b"h")
        if took is not None:
            times.append(took)
    await client.close()
    print(
        f"key press to screen update over SSH: median {ms(statistics.median(times))}, "
        f"p95 {ms(pct(times, 0.95))}, worst {ms(max(times))} over {len(times)} presses"
    )


async def typing(
    client: Client,
    seed: int,
    seconds: float,
    rate: float,
    results: list[float],
    missed: list[bytes],
) -> None:
    """Keys at random moments, ``rate`` a second on average, for ``seconds``."""
    rng = random.Random(seed)
    end = time.perf_counter() + seconds
    turn = 0
    while time.perf_counter() < end:
        await asyncio.sleep(rng.uniform(0, 2 / rate))
        key = b"l" if turn % 2 == 0 else b"h"
        took = await client.press(key)
        turn += 1
        if took is None:
            missed.append(key)
        else:
            results.append(took)


async def concurrency(server: Server, top: int, seconds: float, rate: float) -> None:
    clients: list[Client] = []
    held = 0
    levels = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128]
    try:
        for n in [lv for lv in levels if lv <= top]:
            while len(clients) < n:  # a few at a time: each start is a second of CPU
                batch = min(4, n - len(clients))
                clients += await asyncio.gather(
                    *(open_duel(server, len(clients) + i) for i in range(batch))
                )
            await asyncio.gather(*(c.settle(1.0) for c in clients))
            results: list[float] = []
            missed: list[bytes] = []
            load = os.getloadavg()[0]
            await asyncio.gather(
                *(typing(c, i, seconds, rate, results, missed) for i, c in enumerate(clients))
            )
            rss = server.session_rss()
            p95 = pct(results, 0.95)
            print(
                f"{n:3d} sessions: key to update median {ms(statistics.median(results))}, "
                f"p95 {ms(p95)}, worst {ms(max(results))} over {len(results)} presses"
                f"{f', {len(missed)} unanswered' if missed else ''}; "
                f"{statistics.mean(rss) / 1024:.0f} MiB per app; load {load:.1f}",
                flush=True,
            )
            if p95 >= AIM or missed:
                break
            held = n
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    print(
        f"held with p95 key to update under {ms(AIM)}: {held} concurrent sessions "
        f"({rate:g} key/s each, for {seconds:g} s per level; {os.cpu_count()} cores)"
    )


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cakeparty-bench-ssh-"))
    server = Server(folder, max_sessions=args.max + 8)
    try:
        if args.only in (None, "connect"):
            await first_frames(server, args.starts)
        if args.only in (None, "keys"):
            await key_presses(server, args.presses)
        if args.only in (None, "sessions"):
            await concurrency(server, args.max, args.seconds, args.rate)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--presses", type=int, default=50)
    parser.add_argument("--max", type=int, default=48, help="the most sessions to try")
    parser.add_argument("--seconds", type=float, default=10, help="seconds of typing per level")
    parser.add_argument("--rate", type=float, default=1.0, help="keys a second per player")
    parser.add_argument("--only", choices=("connect", "keys", "sessions"), default=None)
    asyncio.run(main(parser.parse_args()))

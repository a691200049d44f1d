"""How fast the app feels: start to first frame, help, and key press to screen update.

Runs the installed ``cakeparty`` in a pseudo-terminal of 80×24, as a player's terminal
would, and times what it writes:

* menu start, side by side: an empty Textual app (one line of text) and ``cakeparty``
  (the main menu) are started in turn, ``--starts`` times each; the ratio of the medians
  is what the app adds to Textual's own start (aim ≤ 1.5×);
* game start: from launching ``cakeparty play cake-duel`` to the frame with the hand;
* help: from pressing ``?`` in a duel to the frame that shows the help, and to the end of
  the update that draws it (the first open in a fresh app, ``--starts`` times);
* key press: from writing a key (``l``/``h``, moving along the hand) to the end of the
  screen update it causes; median and worst over ``--presses`` presses.

Usage: python bench/tui.py [--presses 100] [--starts 5] [--seed 3] [--only help]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import select
import shlex
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

BINARY = Path(sys.executable).with_name("cakeparty")
QUIET = 0.03  # seconds without output that end a screen update


class Terminal:
    """A child process on a pseudo-terminal of a given size."""

    def __init__(self, command: list[str], env: dict[str, str], cols: int, rows: int) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.seen = b""

    def read(self, timeout: float) -> bytes:
        """Whatever arrives within ``timeout`` seconds (empty if nothing)."""
        ready, _w, _x = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            return b""
        self.seen += data
        return data

    def wait_for(self, marker: bytes, timeout: float = 10.0) -> float:
        """Seconds since start until ``marker`` has been written."""
        deadline = time.perf_counter() + timeout
        while marker not in self.seen:
            if time.perf_counter() > deadline:
                raise SystemExit(f"no {marker!r} within {timeout}s")
            self.read(0.05)
        return time.perf_counter() - self.started

    def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until nothing has been written for ``quiet`` seconds."""
        deadline = time.perf_counter() + timeout
        while self.read(quiet) and time.perf_counter() < deadline:
            pass

    def press(self, key: bytes) -> float | None:
        """Seconds from writing ``key`` to the end of the update it causes."""
        sent = time.perf_counter()
        os.write(self.master, key)
        if not self.read(2.0):
            return None
        last = time.perf_counter()
        while self.read(QUIET):
            last = time.perf_counter()
        return last - sent

    def press_until(self, key: bytes, marker: bytes, timeout: float = 10.0) -> tuple[float, float]:
        """Seconds from writing ``key`` until ``marker`` is drawn, and until the update that
        draws it ends (nothing more written for a moment)."""
        start = len(self.seen)
        sent = time.perf_counter()
        os.write(self.master, key)
        deadline = sent + timeout
        while marker not in self.seen[start:]:
            if time.perf_counter() > deadline:
                raise SystemExit(f"no {marker!r} within {timeout}s of {key!r}")
            self.read(0.05)
        drawn = last = time.perf_counter()
        while self.read(QUIET):
            last = time.perf_counter()
        return drawn - sent, last - sent

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        os.close(self.master)


EMPTY_APP = """
from textual.app import App, ComposeResult
from textual.widgets import Static


class Empty(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("empty app ready")


Empty().run()
"""


def start_time(command: list[str], env: dict[str, str], marker: bytes) -> float:
    term = Terminal(command, env, 80, 24)
    try:
        return term.wait_for(marker, timeout=60)
    finally:
        term.close()


def environment(config: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm-256color", CAKEPARTY_CONFIG_DIR=str(config))
    return env


def measure_menu(env: dict[str, str], config: Path, starts: int) -> None:
    empty = config / "empty_app.py"
    empty.write_text(EMPTY_APP)
    bare, menu = [], []
    for _ in range(starts):  # in turn, so both see the same load on the machine
        bare.append(start_time([sys.executable, str(empty)], env, b"empty app ready"))
        menu.append(start_time([str(BINARY)], env, b"Join a game"))
    ratio = statistics.median(menu) / statistics.median(bare)
    print(
        f"start to first frame, side by side over {len(menu)} starts each: empty Textual app "
        f"median {statistics.median(bare):.2f} s, cakeparty menu median "
        f"{statistics.median(menu):.2f} s: {ratio:.2f}x (aim <= 1.5x)"
    )


def measure_help(env: dict[str, str], command: list[str], opens: int) -> None:
    drawn, settled = [], []
    for _ in range(opens):  # a fresh app each time: the first open is the slow one
        term = Terminal(command, env, 80, 24)
        try:
            term.wait_for(b"Your hand")
            term.settle()
            first, end = term.press_until(b"?", b"Core deck")
            drawn.append(first)
            settled.append(end)
        finally:
            term.close()
    print(
        f"help (?) in a duel, first open: drawn after median {statistics.median(drawn) * 1000:.0f}"
        f" ms (worst {max(drawn) * 1000:.0f} ms), its update ended after median "
        f"{statistics.median(settled) * 1000:.0f} ms (worst {max(settled) * 1000:.0f} ms) "
        f"over {len(settled)} opens (aim < 100 ms)"
    )


def measure_game(env: dict[str, str], command: list[str], starts: int) -> None:
    times = []
    for _ in range(starts):
        term = Terminal(command, env, 80, 24)
        try:
            times.append(term.wait_for(b"Your hand"))
        finally:
            term.close()
    print(
        f"start to first frame (play cake-duel): median {statistics.median(times):.2f} s, "
        f"worst {max(times):.2f} s over {len(times)} starts (aim < 1 s)"
    )


def measure_keys(env: dict[str, str], command: list[str], presses: int) -> bool:
    term = Terminal(command, env, 80, 24)
    try:
        term.wait_for(b"Your hand")
        term.settle()
        ms = []
        for n in range(presses):
            took = term.press(b"l" if n % 8 < 4 else b"h")
            if took is not None:
                ms.append(took * 1000)
    finally:
        term.close()
    print(
        f"key press to screen update: median {statistics.median(ms):.1f} ms, "
        f"worst {max(ms):.1f} ms over {len(ms)} presses (aim < 50 ms)"
    )
    return len(ms) == presses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--only",
        choices=("menu", "help", "game", "keys"),
        default=None,
        help="measure only this: the menu's start, help, the game's start or key presses",
    )
    args = parser.parse_args()
    wanted = {args.only} if args.only else {"menu", "help", "game", "keys"}
    command = [str(BINARY), "play", "cake-duel", "--seed", str(args.seed), "--bots", "random"]
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder)
        (config / "settings.json").write_text(json.dumps({"name": "Ann", "bot_delay": 0}))
        env = environment(config)
        if "menu" in wanted:
            measure_menu(env, config, args.starts)
        print(f"command: {shlex.join(command)} (pty 80x24, bot delay 0)")
        if "help" in wanted:
            measure_help(env, command, args.starts)
        if "game" in wanted:
            measure_game(env, command, args.starts)
        if "keys" in wanted:
            ok = measure_keys(env, command, args.presses)
    print(f"reproduce: {shlex.join([sys.executable, *sys.argv])}")
    print(f"load average: {' '.join(f'{n:.1f}' for n in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

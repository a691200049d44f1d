"""The installed `cakeparty` binary, played in a real terminal (tmux) at 80×24."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
BINARY = Path(sys.executable).with_name("cakeparty")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed (pip install -e .)"),
]


class Terminal:
    """One tmux session running a command, read with capture-pane."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        assert TMUX is not None
        self.name = name
        settings = [f"{key}={value}" for key, value in env.items()]
        args = [TMUX, "new-session", "-d", "-s", name, "-x", "80", "-y", "24"]
        for item in settings:
            args += ["-e", item]
        subprocess.run([*args, " ".join(command)], check=True)

    def screen(self) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        assert TMUX is not None
        subprocess.run([TMUX, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, test: Callable[[str], bool], what: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if test(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"waited {timeout}s for {what}; the screen was:\n{screen}")

    def close(self) -> None:
        assert TMUX is not None
        subprocess.run([TMUX, "kill-session", "-t", self.name], capture_output=True)


def _turn(screen: str) -> int:
    found = re.search(r"turn (\d+)", screen)
    return int(found.group(1)) if found else 0


def _log(screen: str) -> str:
    """The log panel's text (the right-hand column), joined into one line."""
    return " ".join(line[46:].strip(" │") for line in screen.splitlines()[1:14])


def test_the_binary_plays_a_claim_at_80x24(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"name": "Ann", "bot_delay": 0.1}))
    env = {"CAKEPARTY_CONFIG_DIR": str(config), "TERM": "xterm-256color"}
    command = [str(BINARY), "play", "cake-duel", "--seed", "3", "--bots", "random"]
    term = Terminal(f"cakeparty-e2e-{os.getpid()}", command, env)
    try:
        panels = ("Players", "Table", "Log", "Your hand — Ann")
        screen = term.wait_for(lambda s: all(p in s for p in panels), "the game screen")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        # play until Ann has claimed an attack: answer the bot's claims, then claim
        claimed = False
        deadline = time.monotonic() + 20
        while not claimed and time.monotonic() < deadline:
            screen = term.wait_for(
                lambda s: "c Claim" in s or "n No action" in s or "enter to continue" in s,
                "a decision for Ann",
            )
            if "enter to continue" in screen:
                term.keys("Enter")
            elif "c Claim" in screen:
                turn = _turn(screen)
                term.keys("1", "c")
                term.wait_for(lambda s: "Claim 1 facedown card as" in s, "the list of claims")
                term.keys("1")
                screen = term.wait_for(
                    lambda s: "Ann claims 1 ×" in _log(s),
                    "Ann's claim in the log",
                )
                claimed = True
            else:
                term.keys("n")
                term.wait_for(lambda s: "n No action" not in s, "the answer to be taken")
        assert claimed, "Ann never had a turn to attack"
        assert "Ann claims 1 ×" in _log(screen)
        # the bout moves on: the bot answers the claim, and the turn (or the bout) ends
        screen = term.wait_for(
            lambda s: re.search(r"Muffin (blocks|takes no action|challenges)", _log(s)) is not None,
            "the bot's answer in the log",
        )
        deadline = time.monotonic() + 15
        while _turn(screen) <= turn and "wins bout" not in screen and "bout 2" not in screen:
            assert time.monotonic() < deadline, f"the bout did not move on:\n{screen}"
            if "n No action" in screen:
                term.keys("n")
            time.sleep(0.1)
            screen = term.screen()
        term.keys("q")
        term.wait_for(lambda s: "Quit this duel?" in s or "over" in s, "the quit question")
        term.keys("y")
        term.wait_for(lambda s: "Your hand" not in s, "the app to quit")
    finally:
        term.close()

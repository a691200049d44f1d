"""The installed `cakeparty` binary plays Cookies Battle in a real terminal (tmux) at
80×24: the pass, then cards until a trick is won on screen."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from .test_e2e_tmux import BINARY, TMUX, Terminal, player_home

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed (pip install -e .)"),
]

#: Where the log panel starts on each line (the table and the hand are left of it).
LOG_COLUMN = 55


def _log(screen: str) -> str:
    """The log panel's text (the right-hand column), joined into one line."""
    return " ".join(line[LOG_COLUMN:].strip(" │▄▃▁") for line in screen.splitlines()[1:20])


def _status(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-2] if len(lines) >= 2 else ""


def test_the_binary_plays_a_trick_at_80x24(tmp_path: Path) -> None:
    env = player_home(tmp_path, "Ann", bot_delay=0.1)
    command = [str(BINARY), "play", "cookies-battle", "--players", "3"]
    command += ["--seed", "3", "--bots", "random"]
    term = Terminal(f"cakeparty-cookies-{os.getpid()}", command, env)
    try:
        panels = ("Table", "Log", "Your hand — Ann", "round 1/3")
        screen = term.wait_for(lambda s: all(p in s for p in panels), "the game screen")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "your turn — pass a card to each neighbour" in screen and "l gives it to" in screen
        # the pass: the card under the cursor left, the next one right, then enter
        term.keys("l", "r")
        term.wait_for(lambda s: "enter: pass them" in s, "both cards marked")
        term.keys("Enter")
        term.wait_for(lambda s: "Everyone passes one" in _log(s), "the pass opened")
        # play the card the cursor rests on (the first playable) until a trick is won
        deadline = time.monotonic() + 40
        played = 0
        while "wins the trick" not in _log(screen):
            assert time.monotonic() < deadline, f"no trick was won:\n{screen}"
            screen = term.wait_for(
                lambda s: (
                    "your turn — play a card" in _status(s)
                    or "wins the trick" in _log(s)
                    or "marker window" in _status(s)
                ),
                "a decision for Ann, or a trick won",
            )
            if "marker window" in _status(screen):
                term.keys("n")
                term.wait_for(lambda s: "marker window" not in _status(s), "the window to pass")
            elif "your turn — play a card" in _status(screen):
                found = re.search(r"enter plays (.+?)(?: ·|$)", screen, re.MULTILINE)
                assert found, screen
                card = found.group(1).strip()
                term.keys("Enter")
                screen = term.wait_for(
                    lambda s, c=card: f"Ann plays {c}" in _log(s), "Ann's card in the log"
                )
                played += 1
        assert played >= 1
        assert re.search(r"(Ann|Muffin|Eclair) wins the trick", _log(screen))
        term.keys("q")
        term.wait_for(lambda s: "Quit this game?" in s, "the quit question")
        term.keys("y")
        term.wait_for(lambda s: "Your hand" not in s, "the app to quit")
    finally:
        term.close()

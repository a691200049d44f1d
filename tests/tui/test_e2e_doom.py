"""The installed `cakeparty` binary plays a Cake of Doom bribe in a real terminal (tmux) at
80×24: the target is chosen from its list, cake cards are added until the offer line says
it reaches what the target needs, the offer is made, and the log tells how it ended."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from .test_e2e_tmux import BINARY, Terminal, player_home, pytestmark  # noqa: F401  (skips without tmux)


def _offer(screen: str) -> str:
    """The line of the offer being built."""
    return next((line for line in screen.splitlines() if "Offer for" in line), "")


def _log(screen: str) -> str:
    """The right-hand column (players and log), joined into one line."""
    return " ".join(" ".join(line[45:].strip(" │").split()) for line in screen.splitlines()[1:16])


def _footer(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def test_the_binary_plays_a_bribe_at_80x24(tmp_path: Path) -> None:
    env = player_home(tmp_path, "Ann", bot_delay=0.05)
    command = [str(BINARY), "play", "cake-of-doom", "--players", "3", "--seed", "3"]
    command += ["--bots", "random"]
    term = Terminal(f"cakeparty-doom-{os.getpid()}", command, env)
    try:
        panels = ("Earth", "Players", "Log", "Your hand — Ann", "DOOM", "round 1 of 10")
        screen = term.wait_for(lambda s: all(p in s for p in panels), "the game screen", 30)
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        # Ann's turn: the bribe key is offered (a pass, a discard or a bot's move first)
        deadline = time.monotonic() + 60
        while "b Bribe" not in _footer(screen):
            assert time.monotonic() < deadline, f"Ann never could bribe:\n{screen}"
            footer = _footer(screen)
            if "Choose" in footer:  # a draw: the list is open, take its first split
                term.keys("Enter")
            elif "p Pass" in footer:
                term.keys("p")
            elif "Discard" in footer or "Let it stand" in footer or "Sabotage" in footer:
                term.keys("n" if "No sabotage" in footer or "Let it stand" in footer else "Enter")
            time.sleep(0.3)
            screen = term.screen()
        term.keys("b")
        screen = term.wait_for(lambda s: "Bribe which target?" in s, "the list of targets")
        found = re.search(r"1\. (.+?)  needs (\d+)", screen)
        assert found, screen
        target, need = found.group(1), int(found.group(2))
        term.keys("1")
        screen = term.wait_for(lambda s: f"Offer for {target} =" in s, "the offer builder")
        assert f"needs {need} ✗" in _offer(screen)
        # cake cards one by one (a sort used up, space goes on with the next)
        for _ in range(20):
            if "✓" in _offer(screen):
                break
            before = _offer(screen)
            term.keys("Space")
            screen = term.wait_for(lambda s, b=before: _offer(s) != b, "a card added")
        offer = _offer(screen)
        value = re.search(r"= (\d+), needs (\d+) ✓", offer)
        assert value, offer
        assert int(value.group(1)) >= need == int(value.group(2))
        term.keys("Enter")
        screen = term.wait_for(
            lambda s: f"Ann bribes {target}" in _log(s) or f"Ann bribes {target}" in s,
            "the bribe on the table",
        )
        # the others answer; Ann lets a sabotage stand; the log tells the end of it
        deadline = time.monotonic() + 30
        ended = re.compile(rf"Ann takes {target} with|Ann's bribe for {target} fails")
        while not ended.search(_log(screen)):
            assert time.monotonic() < deadline, f"the bribe did not end:\n{screen}"
            if "Let it stand" in _footer(screen):
                term.keys("n")
            elif "↑/↓ and enter" in screen:  # the draw step's list, over the log: put away
                term.keys("Escape")
            time.sleep(0.2)
            screen = term.screen()
        term.keys("q")
        term.wait_for(lambda s: "Quit this game?" in s, "the quit question")
        term.keys("y")
        term.wait_for(lambda s: "Your hand" not in s, "the app to quit")
    finally:
        term.close()

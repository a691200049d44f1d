"""The installed `cakeparty` binary, played in a real terminal (tmux) at 80×24."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from .tmuxterm import TMUX, TmuxTerminal

BINARY = Path(sys.executable).with_name("cakeparty")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed (pip install -e .)"),
]


class Terminal(TmuxTerminal):
    """One tmux session running ``command`` with ``env`` set, read with capture-pane."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        super().__init__(name, " ".join(command), env)


def _turn(screen: str) -> int:
    found = re.search(r"turn (\d+)", screen)
    return int(found.group(1)) if found else 0


def _log(screen: str) -> str:
    """The log panel's text (the right-hand column), joined into one line."""
    return " ".join(line[46:].strip(" │") for line in screen.splitlines()[1:14])


def test_the_binary_plays_a_claim_at_80x24(tmp_path: Path) -> None:
    env = player_home(tmp_path, "Ann")
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
                lambda s: "c Claim" in s or "a Accept" in s or "enter to continue" in s,
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
                term.keys("a")
                term.wait_for(lambda s: "a Accept" not in s, "the answer to be taken")
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
            if "a Accept" in screen:
                term.keys("a")
            time.sleep(0.1)
            screen = term.screen()
        term.keys("q")
        term.wait_for(lambda s: "Quit this duel?" in s or "over" in s, "the quit question")
        term.keys("y")
        term.wait_for(lambda s: "Your hand" not in s, "the app to quit")
    finally:
        term.close()


def _footer(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def _attacker(players: dict[str, Terminal], timeout: float = 30) -> str:
    """The name of the player whose footer offers a claim (the attacker, by fair lots)."""
    deadline = time.monotonic() + timeout
    while True:
        for name, term in players.items():
            if "c Claim" in _footer(term.screen()):
                return name
        first = next(iter(players.values()))
        assert time.monotonic() < deadline, f"nobody may attack:\n{first.screen()}"
        time.sleep(0.05)


def player_home(tmp_path: Path, name: str, bot_delay: float = 0.1) -> dict[str, str]:
    """The environment of a player with their own config (settings, key) and data
    (journals) dirs, named and with the bots' delay set."""
    config = tmp_path / name / "config"
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"name": name, "bot_delay": bot_delay}))
    return {
        "CAKEPARTY_CONFIG_DIR": str(config),
        "CAKEPARTY_DATA_DIR": str(tmp_path / name / "data"),
        "TERM": "xterm-256color",
    }


def test_two_players_host_join_and_play_a_turn_over_the_network(tmp_path: Path) -> None:
    from cakeparty.broker.embedded import free_port

    port = free_port()
    tag = f"{os.getpid()}-{port}"
    host_cmd = [str(BINARY), "host", "cake-duel", "--port", str(port)]
    ann = Terminal(f"cakeparty-host-{tag}", host_cmd, player_home(tmp_path, "Ann"))
    bob: Terminal | None = None
    try:
        screen = ann.wait_for(lambda s: "cakeparty join" in s, "the host's lobby")
        found = re.search(r"cakeparty join ([A-Z0-9]+-[A-Z2-7]{5}-[A-Z2-7]{5}) --broker", screen)
        assert found, screen
        room = found.group(1)
        assert " ".join(room) in screen  # the whole code (the host's tag too), spaced out
        assert all(len(line) <= 80 for line in screen.splitlines())
        join_cmd = [str(BINARY), "join", room, "--broker", f"mqtt://127.0.0.1:{port}"]
        bob = Terminal(f"cakeparty-join-{tag}", join_cmd, player_home(tmp_path, "Bob"))
        # the joiner finds the room and takes the free seat; both see both
        bob.wait_for(lambda s: "Bob (you)" in s and "Ann (host)" in s, "Bob's seat")
        ann.wait_for(lambda s: "Ann (you, host)" in s and "Bob " in s, "Bob at the host")
        bob.keys("r")
        ann.wait_for(lambda s: "Press r when you are ready" in s, "Ann's turn to ready up")
        ann.keys("r")
        panels = ("Players", "Table", "Log")
        ann.wait_for(lambda s: all(p in s for p in panels) and "Your hand — Ann" in s, "Ann's duel")
        bob.wait_for(lambda s: all(p in s for p in panels) and "Your hand — Bob" in s, "Bob's duel")
        # the attacker (decided by fair lots) claims; the defender answers
        players = {"Ann": ann, "Bob": bob}
        attacker = _attacker(players)
        defender = "Bob" if attacker == "Ann" else "Ann"
        attack, defend = players[attacker], players[defender]
        defend.wait_for(lambda s: f"{attacker} attacks: claim or pass" in s, "the defender waiting")
        attack.keys("1", "c")
        attack.wait_for(lambda s: "Claim 1 facedown card as" in s, "the list of claims")
        attack.keys("1")
        claim = f"{attacker} claims 1 ×"
        screen = defend.wait_for(
            lambda s: claim in _log(s) and "x Challenge" in _footer(s), "the claim at the defender"
        )
        assert "a Accept" in _footer(screen)
        defend.keys("a")
        answer = f"{defender} takes no action"
        attack.wait_for(lambda s: answer in _log(s), "the answer at the attacker")
        defend.wait_for(lambda s: answer in _log(s), "the answer at the defender")
        # leaving a game in progress asks first; the host's leaving closes the room, and
        # the guest is told so (no move key left), then leaves without a question
        ann.keys("q")
        ann.wait_for(lambda s: "Leave this game?" in s, "the question")
        ann.keys("y")
        ann.wait_for(lambda s: "Your hand" not in s, "the host to leave")
        closed = "Ann closed the room: this game ends here, unfinished. q to leave."
        keys = ["?", "Help", "q", "Leave", "m", "Chat"]  # no move key any more
        bob.wait_for(lambda s: closed in s and _footer(s).split() == keys, "the guest's notice", 30)
        bob.keys("q")
        bob.wait_for(lambda s: "Your hand" not in s, "the guest to leave")
    finally:
        ann.close()
        if bob is not None:
            bob.close()


def _hand(screen: str) -> list[str]:
    """The rows of the hand panel, as drawn."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "Your hand — Ann" in line)
    end = next(i for i in range(start + 1, len(lines)) if "Pieces:" in lines[i])
    return [line[:54] for line in lines[start:end]]


def test_a_game_whose_app_was_killed_is_continued_from_the_menu(tmp_path: Path) -> None:
    env = player_home(tmp_path, "Ann", bot_delay=0.0)
    command = ["exec", str(BINARY), "play", "cookies-battle", "--seed", "3", "--bots", "random"]
    first = Terminal(f"cakeparty-kept-{os.getpid()}", command, env)
    try:
        first.wait_for(lambda s: "pass a card to each neighbour" in s, "the pass")
        first.keys("l", "Right", "r", "Enter")  # a card each way, passed
        screen = first.wait_for(lambda s: "your turn — play a card" in s, "Ann's first card")
        hand = _hand(screen)
        assert sum(row.count("+") for row in hand) == 2  # the two cards received
        # the app dies at once: no quit, no goodbye (as a closed terminal or a crash)
        pid = int(first.tmux("list-panes", "-t", first.name, "-F", "#{pane_pid}").stdout)
        os.kill(pid, signal.SIGKILL)
    finally:
        first.close()
    second = Terminal(f"cakeparty-kept2-{os.getpid()}", [str(BINARY)], env)
    try:
        second.wait_for(lambda s: "c  Resume Cookies Battle against bots" in s, "the offer")
        second.keys("c")
        screen = second.wait_for(lambda s: "your turn — play a card" in s, "the game again")
        assert _hand(screen) == hand  # the same cards, the received ones marked
        assert "round 1/3 · trick 1/12" in screen
    finally:
        second.close()

"""Two real `cakeparty` apps in tmux at 80×24 on a real broker: the clock runs out on a
slow player who is online (warned, not forfeited; the other is asked), then on a killed
joiner, who comes back after the ending and is shown the same ending."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .test_e2e_tmux import BINARY, Terminal, _attacker, _footer, player_home, pytestmark  # noqa: F401


def flat(screen: str) -> str:
    """The screen's words on one line (borders and line breaks dropped)."""
    return re.sub(r"[│╭╮╰╯─\s]+", " ", screen)


def test_the_clock_asks_instead_of_killing_and_a_killed_joiner_sees_the_one_ending(
    tmp_path: Path,
) -> None:
    from cakeparty.broker.embedded import free_port

    port = free_port()
    tag = f"{os.getpid()}-{port}"
    host_cmd = [str(BINARY), "host", "cake-duel", "--port", str(port), "--timeout", "4"]
    ann = Terminal(f"cakeparty-clock-host-{tag}", host_cmd, player_home(tmp_path, "Ann"))
    bob_home = player_home(tmp_path, "Bob")
    bob: Terminal | None = None
    try:
        screen = ann.wait_for(lambda s: "cakeparty join" in s, "the host's lobby")
        assert "the others are asked" in flat(screen)  # the room's rule, in its options
        found = re.search(r"cakeparty join ([A-Z0-9]+-[A-Z2-7]{5}-[A-Z2-7]{5}) --broker", screen)
        assert found, screen
        join_cmd = [str(BINARY), "join", found.group(1), "--broker", f"mqtt://127.0.0.1:{port}"]
        bob = Terminal(f"cakeparty-clock-join-{tag}", join_cmd, bob_home)
        bob.wait_for(lambda s: "Bob (you)" in s and "Ann (host)" in s, "Bob's seat")
        bob.keys("r")
        ann.wait_for(lambda s: "Press r when you are ready" in s, "Ann's turn to ready up")
        ann.keys("r")
        players = {"Ann": ann, "Bob": bob}
        attacker = _attacker(players)
        defender = "Bob" if attacker == "Ann" else "Ann"
        slow, other = players[attacker], players[defender]
        # the mover sees its clock, then is told its time is up, and is not forfeited
        slow.wait_for(lambda s: "Your clock:" in s, "the mover's clock")
        slow.wait_for(lambda s: "Your time is up" in s, "the mover told", 20)
        # the other is asked: the mover is online but slow
        screen = other.wait_for(lambda s: f"{attacker}'s time is up" in s, "the question", 20)
        assert f"{attacker} is online but" in flat(screen)
        other.keys("1")  # wait longer
        other.wait_for(lambda s: f"{attacker}'s time is up" not in s, "the question answered")
        assert "abandoned" not in flat(other.screen()) and "abandoned" not in flat(slow.screen())
        if attacker == "Ann":
            # Ann claims at last: now Bob owes the answer
            ann.keys("1", "c")
            ann.wait_for(lambda s: "Claim 1 facedown card as" in s, "the list of claims")
            ann.keys("1")
            bob.wait_for(lambda s: "x Challenge" in _footer(s), "the claim at Bob")
        # Bob's app dies while the room waits for him
        bob.close()
        screen = ann.wait_for(lambda s: "Bob's time is up" in s, "Ann asked about Bob", 30)
        if "Bob is offline" not in flat(screen):
            screen = ann.wait_for(lambda s: "Bob is offline" in flat(s), "Bob offline", 10)
        ann.keys("2")  # end the game as abandoned by Bob
        ann.wait_for(lambda s: "abandoned by Bob" in flat(s), "Ann's ending", 20)
        # Bob comes back (same key, same journal): he is shown the ending, not a game
        bob = Terminal(f"cakeparty-clock-join2-{tag}", join_cmd, bob_home)
        screen = bob.wait_for(
            lambda s: "Ann ended the game as abandoned by you" in flat(s), "Bob's ending", 40
        )
        assert "Your hand — Bob" not in screen or "abandoned" in flat(screen)
        assert "abandoned by Bob" in flat(ann.screen())
    finally:
        ann.close()
        if bob is not None:
            bob.close()

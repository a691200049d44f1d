"""The host's app killed mid-game in a real terminal (tmux, 80×24) and brought back with
``cakeparty host --resume``: the guest never loses the broker, the host's duel screen
comes back; then the guest's app killed and opened again as a new player would, its menu
offering the game first, ``g`` back into the duel. The game goes on between the two to its
end, the audit fair on both screens, and the guest's menu no longer offers it."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

from .test_e2e_tmux import BINARY, Terminal, _footer, player_home, pytestmark

__all__ = ["pytestmark"]


def _app_pid(term: Terminal) -> int:
    """The ``cakeparty`` process in ``term``'s pane (the pane's shell may have exec'd it)."""
    shown = term.tmux("display", "-p", "-t", term.name, "#{pane_pid}")
    pane = int(shown.stdout.strip())
    candidates = [pane]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pane:
            candidates.append(int(stat.parent.name))
    for pid in candidates:
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"cakeparty" in args and b"cakeparty.broker" not in args:
            return pid
    raise AssertionError(f"no cakeparty process in pane {pane}")


def _winner(screen: str) -> str | None:
    found = re.search(r"(\w+) wins the duel!", screen)
    return found.group(1) if found else None


def play_to_the_end(players: dict[str, Terminal], timeout: float) -> dict[str, str]:
    """Drive both terminals by keys until each shows the end of the duel; their screens.

    The attacker claims one card (the first claim offered), the defender challenges;
    notices are closed with enter and a list that opens by itself takes its first entry.
    """
    deadline = time.monotonic() + timeout
    ends: dict[str, str] = {}
    seen: dict[str, tuple[str, float]] = {}
    while len(ends) < len(players):
        assert time.monotonic() < deadline, "the duel did not end:\n" + "\n".join(
            term.screen() for term in players.values()
        )
        for name, term in players.items():
            if name in ends:
                continue
            screen = term.screen()
            footer = _footer(screen)
            if "The duel is over" in screen and "Audit:" in screen:
                ends[name] = screen
            elif "Claim 1 facedown card as" in screen:
                term.keys("1")
            elif "c Claim" in footer:
                term.keys("1", "c")
            elif "x Challenge" in footer:
                term.keys("x")
            elif "enter to continue" in screen:
                term.keys("Enter")
            else:
                # the same screen for a while and nothing above applies: a list that
                # opened by itself (a look, a card to name) takes its first entry
                last, since = seen.get(name, ("", time.monotonic()))
                if screen != last:
                    seen[name] = (screen, time.monotonic())
                elif time.monotonic() - since > 3 and "Enter Choose" in footer:
                    term.keys("1")
                    seen.pop(name)
        time.sleep(0.1)
    return ends


def test_a_killed_host_resumes_its_game_in_the_terminal(tmp_path: Path) -> None:
    from cakeparty.broker.embedded import free_port
    from cakeparty.broker.runner import is_ours, listening
    from cakeparty.protocol import hosting

    port = free_port()
    tag = f"{os.getpid()}-{port}"
    ann_env = player_home(tmp_path, "Ann")
    host_cmd = [str(BINARY), "host", "cake-duel", "--port", str(port), "--no-lan"]
    ann = Terminal(f"cakeparty-rhost-{tag}", host_cmd, ann_env)
    bob: Terminal | None = None
    back: Terminal | None = None
    broker_pid: int | None = None
    try:
        ann.wait_for(lambda s: "cakeparty join" in s, "the host's lobby")
        deadline = time.monotonic() + 20
        while not (records := list(hosting.records(ann_env["CAKEPARTY_DATA_DIR"]))):
            assert time.monotonic() < deadline, "the hosted room was not recorded"
            time.sleep(0.05)
        broker_pid = records[0].pid
        screen = ann.screen()
        join = screen[screen.index("cakeparty join") :].split()
        room = join[2]
        join_cmd = [str(BINARY), "join", room, "--broker", f"mqtt://127.0.0.1:{port}"]
        bob_env = player_home(tmp_path, "Bob")
        bob = Terminal(f"cakeparty-rjoin-{tag}", join_cmd, bob_env)
        bob.wait_for(lambda s: "Bob (you)" in s and "Ann (host)" in s, "Bob's seat")
        bob.keys("r")
        ann.wait_for(lambda s: "Press r when you are ready" in s, "Ann's turn to ready up")
        ann.keys("r")
        ann.wait_for(lambda s: "Your hand — Ann" in s, "Ann's duel", 30)
        bob.wait_for(lambda s: "Your hand — Bob" in s, "Bob's duel", 30)
        # the host's app dies: no goodbye; its broker is a process of its own and stays
        os.kill(_app_pid(ann), signal.SIGKILL)
        ann.close()
        assert broker_pid is not None and is_ours(broker_pid, port) and listening(port)
        # the host comes back to its room from its journal
        back = Terminal(f"cakeparty-rback-{tag}", [str(BINARY), "host", "--resume"], ann_env)
        back.wait_for(lambda s: "Your hand — Ann" in s, "Ann's duel again", 30)
        # the guest's app dies too; opened again, its menu offers the game, g goes back
        os.kill(_app_pid(bob), signal.SIGKILL)
        bob.close()
        bob = Terminal(f"cakeparty-rguest-{tag}", [str(BINARY)], bob_env)
        code = room.split("-")[0]
        bob.wait_for(
            lambda s: f"g  Go back to Cake Duel in room {code}" in s and "g Go back" in s,
            "Bob's menu offering the game",
        )
        bob.keys("g")
        bob.wait_for(lambda s: "Your hand — Bob" in s, "Bob's duel again", 30)
        # and the game goes on to its end: whoever attacks claims one card, the other
        # challenges it (each challenge ends a bout), notices are closed, lists take their
        # first entry; both screens then show the same winner and a fair audit
        players = {"Ann": back, "Bob": bob}
        ends = play_to_the_end(players, timeout=75)
        winners = {name: _winner(screen) for name, screen in ends.items()}
        assert winners["Ann"] == winners["Bob"] in ("Ann", "Bob"), ends
        specials = {re.findall(r"The hidden specials were [\w, ]+", s)[0] for s in ends.values()}
        assert len(specials) == 1, ends  # the same two specials named on both screens
        for screen in ends.values():
            assert "The duel is over" in screen
            assert "Audit: fair. Every card and every move checked out." in screen, screen
        # the guest leaves the game that ended: its menu has nothing to go back to
        bob.keys("q")
        # (the entry it showed before the game goes once the menu has looked again)
        bob.wait_for(lambda s: "j  Join a game" in s and "Go back" not in s, "Bob's menu")
        # the host leaves on purpose: its broker stops with the room
        back.keys("q")
        back.wait_for(lambda s: "The duel is over" not in s, "the host to leave")
        deadline = time.monotonic() + 20
        while is_ours(broker_pid, port):
            assert time.monotonic() < deadline, "the broker outlived a room left on purpose"
            time.sleep(0.1)
    finally:
        for term in (ann, bob, back):
            if term is not None:
                term.close()
        if broker_pid is not None and is_ours(broker_pid, port):
            os.kill(broker_pid, signal.SIGKILL)

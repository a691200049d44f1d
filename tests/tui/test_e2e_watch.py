"""The installed `cakeparty` binary watches a room in a real terminal (tmux) at 80×24: two
``cakeparty bot`` processes play Cake Duel through a broker process, in a room the test
hosts without a seat, and ``cakeparty watch`` shows the table as it goes (the bout, each
seat's cakes and cards), the players and the log, then the audit and how the game ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.transport import BrokerAddress

from ..brokers import embedded_broker_process
from ..network.test_sealed_crash import kill_bots, start_bot
from ..network.test_watch import seatless_host
from .test_e2e_tmux import BINARY, Terminal, player_home, pytestmark  # noqa: F401  (skips without tmux)
from .test_watch import panel

DEADLINE = 240.0


async def _screen(term: Terminal, test: Callable[[str], bool], what: str) -> str:
    """Wait, letting the room's tasks run, until ``test`` holds of the terminal's screen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while True:
        screen = term.screen()
        if test(screen):
            return screen
        assert loop.time() < deadline, f"timed out waiting for {what}; the screen:\n{screen}"
        await asyncio.sleep(0.1)


def _panel(screen: str, title: str) -> list[str]:
    """The rows inside the panel whose top border names ``title``, stripped."""
    return [row.strip() for row in panel(screen.splitlines(), title)]


async def test_the_binary_watches_two_bots_play_with_the_table_at_80x24(tmp_path: Path) -> None:
    with embedded_broker_process() as url:
        room = new_room_code()
        host = seatless_host(BrokerAddress.parse(url), room, tmp_path, linger=600)
        hosting = asyncio.create_task(host.run())
        env = player_home(tmp_path, "Watcher")
        command = [str(BINARY), "watch", host.code, "--broker", url]
        term = Terminal(f"cakeparty-watch-{os.getpid()}", command, env)
        bots: list[asyncio.subprocess.Process] = []
        try:
            screen = await _screen(term, lambda s: "has not started" in s, "the waiting room")
            for i in range(2):
                bot = await start_bot(
                    tmp_path / f"bot{i}", room, url, game="cake-duel", name=f"Bot{i}", delay=0.2
                )
                bots.append(bot)
            # the game runs: the table is drawn from the public view, live
            screen = await _screen(term, lambda s: "╭─ Table" in s, "the table")
            lines = screen.splitlines()
            assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
            board = _panel(screen, "Table")
            assert board[0].startswith("Cake Duel · bout ")
            assert sorted(row.split()[0].lstrip("▶") for row in board[2:4]) == ["Bot0", "Bot1"]
            assert any(row.startswith("deck ") for row in board)
            players = _panel(screen, "Players")  # joined by themselves: people to the room
            assert sorted(row.split()[0] for row in players if row) == ["Bot0", "Bot1"]
            # to the end: the verdict on the status line, and the table says it is over
            screen = await _screen(term, lambda s: "audit: fair" in s, "the audit")
            assert "Game over" in _panel(screen, "Table")
            assert " · won " in " ".join(_panel(screen, "Players")) + " "
            for bot in bots:
                await asyncio.wait_for(bot.wait(), DEADLINE)
            term.keys("q")
            await _screen(term, lambda s: "Table" not in s, "the app closing")
        finally:
            term.close()
            await kill_bots(bots)
            host.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(hosting, 10)

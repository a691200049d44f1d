"""A bot process killed between publishing its sealed choice and opening it comes back
from its journal, opens the very choice it committed, and the game ends fair.

The room plays the test-only simultaneous pick game (``tests/protocol/sealed_game.py``):
the host seat is played here, by the test, so the bot's commitment is known to be out and
its opening known not to be, with no timing involved: the bot cannot open before the
host has committed, and the host commits only once the bot is dead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from cakeparty.protocol import steps as st
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

from ..protocol.sealed_game import NAME, Pick

ROOT = Path(__file__).resolve().parents[2]
# a ``cakeparty bot`` that knows the test-only game
LAUNCH = (
    f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tests.protocol.sealed_game; "
    "from cakeparty.tui.cli import main; sys.exit(main(sys.argv[1:]))"
)
DEADLINE = 120.0


#: how to run ``cakeparty``: here with the test-only game loaded
COMMAND = (sys.executable, "-c", LAUNCH)


async def start_bot(
    home: Path,
    room: str,
    broker: str,
    *,
    game: str = NAME,
    name: str = "Picker",
    command: tuple[str, ...] = COMMAND,
    delay: float = 0.0,
) -> asyncio.subprocess.Process:
    """A ``cakeparty bot`` process of ``game`` in ``room``, keeping its key and journal in
    ``home`` (so starting it again there resumes the same seat), ``delay`` seconds before
    each of its moves."""
    env = {
        **os.environ,
        "CAKEPARTY_CONFIG_DIR": str(home / "config"),
        "CAKEPARTY_DATA_DIR": str(home / "data"),
    }
    return await asyncio.create_subprocess_exec(
        *command,
        "bot",
        game,
        "--room",
        room,
        "--broker",
        broker,
        "--level",
        "random",
        "--name",
        name,
        "--delay",
        str(delay),
        "--json",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def kill_bots(bots: list[asyncio.subprocess.Process]) -> None:
    """Kill the bot processes still running (a test that failed on the way)."""
    for bot in bots:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()


async def until(check: Any, what: str, timeout: float = DEADLINE) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting until {what}"
        await asyncio.sleep(0.05)


async def test_a_bot_killed_between_commitment_and_opening_opens_the_same_choice(
    embedded: str, tmp_path: Path
) -> None:
    room = new_room_code()
    host = RoomRunner(
        broker=BrokerAddress.parse(embedded),
        identity=Identity.generate("Host"),
        room=room,
        host=HostSetup(NAME, 2, {}, timeout=120),
        seated=True,
        journal_dir=tmp_path / "host",
    )
    task = asyncio.create_task(host.run())
    host.set_ready()
    bot = await start_bot(tmp_path / "bot", room, embedded)
    try:
        await until(lambda: host.session is not None, "the game starts")
        session = host.session
        assert session is not None
        me = host.my_seat
        assert me is not None
        other = 1 - me
        peer = session.peer(me)
        assert peer is not None
        # round 1 goes by; in round 2 the bot commits first (the host waits)
        await until(lambda: peer.step.kind == st.CHOICE_COMMIT, "the first choice")
        host.act(Pick(2))
        await until(lambda: peer.state.round == 1, "round 1 ends")
        await until(
            lambda: peer.step.kind == st.CHOICE_COMMIT and other in peer.got,
            "the bot's commitment in round 2",
        )
        bot.send_signal(signal.SIGKILL)
        await bot.wait()
        opened_before = len(peer.state.opened)
        bot = await start_bot(tmp_path / "bot", room, embedded)  # same key, same journal
        host.act(Pick(4))
        await until(lambda: len(peer.state.opened) > opened_before, "round 2's choices open")
        # then the game plays on to its end, the host picking as the test says
        while not session.finished:
            if session.due():
                host.act(Pick(3))
            await asyncio.sleep(0.05)
        out, err = await asyncio.wait_for(bot.communicate(), DEADLINE)
        lines = out.decode().strip().splitlines()
        assert lines, err.decode()[-2000:]
        result = json.loads(lines[-1])
        assert result["audit"] == "fair", result
        assert peer.verdict is not None and peer.verdict.fair, str(peer.verdict)
        assert peer.forfeit is None and session.abandoned is None
        assert peer.outcome is not None and result["winner"] == list(peer.outcome.winners)
        assert len(peer.state.opened) == 2 * 3  # both seats, every round
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
        host.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)

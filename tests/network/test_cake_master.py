"""Cake Master between separate processes through real brokers: every pass and every
placement a sealed choice on the room log.

``selfplay`` runs three bot processes on a real Mosquitto and the audit finds the game
fair. Then a bot process is killed after it sealed its placement and before it opened
it: the seat played here by the test waits for that commitment before it commits its
own, so the bot cannot have opened (nobody opens before every seat has committed), with
no timing involved. Restarted with the same key and journal, the bot opens the very
placement it sealed, and the game ends fair.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import subprocess
from pathlib import Path
from typing import Any

from cakeparty.core import Committed, from_data, get_game
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.protocol import journal
from cakeparty.protocol import steps as st
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

from .netgame import BIN
from .test_sealed_crash import DEADLINE, start_bot, until

GAME = "cake-master"


def test_selfplay_of_three_through_mosquitto_ends_fair(mosquitto: object) -> None:
    out = subprocess.run(
        [BIN, "selfplay", GAME, "--players", "3", "--broker", mosquitto.url, "--json"],  # type: ignore[attr-defined]
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["audit"] == "fair", report
    assert report["game"] == GAME and report["players"] == 3 and report["winner"]
    assert int(report["messages"]) > 100


async def test_a_bot_killed_between_its_placement_and_its_opening_opens_the_same(
    embedded: str, tmp_path: Path
) -> None:
    room = new_room_code()
    host = RoomRunner(
        broker=BrokerAddress.parse(embedded),
        identity=Identity.generate("Host"),
        room=room,
        host=HostSetup(GAME, 3, {}, timeout=120),
        seated=True,
        journal_dir=tmp_path / "host",
    )
    task = asyncio.create_task(host.run())
    host.set_ready()
    homes = {"Ann": tmp_path / "ann", "Bob": tmp_path / "bob"}
    bots = {
        n: await start_bot(home, room, embedded, game=GAME, name=n, command=(BIN,))
        for n, home in homes.items()
    }
    mine = get_game(GAME).bots["normal"]
    rng = random.Random(9)
    try:
        await until(lambda: host.session is not None, "the game starts")
        session = host.session
        assert session is not None
        me = host.my_seat
        assert me is not None
        peer = session.peer(me)
        assert peer is not None
        table = session.table
        victim = next(s for s in range(3) if s != me)
        name = table.names[victim]

        async def play_until(done: Any, what: str) -> None:
            """This seat makes its moves until ``done()`` holds."""
            deadline = asyncio.get_running_loop().time() + DEADLINE
            while not done():
                assert asyncio.get_running_loop().time() < deadline, f"timed out: {what}"
                for _peer, view in session.due():
                    host.act(mine(view, rng))
                await asyncio.sleep(0.05)

        # the passes go by; at the first placement this seat waits for the victim's seal
        await play_until(
            lambda: peer.step.kind == st.CHOICE_COMMIT and peer.state.phase is Phase.PLACE,
            "the first placement",
        )
        assert me in peer.waiting_for  # this seat has not committed: nobody can open
        await until(lambda: victim in peer.got, f"{name}'s sealed placement")
        step = peer.seq
        bots[name].send_signal(signal.SIGKILL)
        await bots[name].wait()
        kept = journal.journal_path(table, table.players[victim], homes[name] / "data")
        sealed = journal.read_sealed(kept)
        assert step in sealed, sorted(sealed)  # what it sealed, never sent in the clear
        placed = from_data(sealed[step])
        bots[name] = await start_bot(
            homes[name], room, embedded, game=GAME, name=name, command=(BIN,)
        )  # same key, journal

        def opened() -> list[Committed]:
            return [a for _s, a in peer.history if isinstance(a, Committed)]

        before = len(opened())
        [(_peer, view)] = session.due()
        host.act(mine(view, rng))
        await until(lambda: len(opened()) > before, "the placements open")
        assert dict(opened()[before].choices)[victim] == placed, "it opened another placement"
        # then the game plays on to its end
        await play_until(lambda: session.finished, "the game ends")
        for bot_name, bot in bots.items():
            out, err = await asyncio.wait_for(bot.communicate(), DEADLINE)
            lines = out.decode().strip().splitlines()
            assert lines, err.decode()[-2000:]
            result = json.loads(lines[-1])
            assert result["audit"] == "fair", (bot_name, result)
            assert peer.outcome is not None and result["winner"] == list(peer.outcome.winners)
        assert peer.verdict is not None and peer.verdict.fair, str(peer.verdict)
        assert peer.forfeit is None and session.abandoned is None
    finally:
        for bot in bots.values():
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        host.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 10)

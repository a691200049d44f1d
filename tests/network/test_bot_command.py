"""``cakeparty bot``: it plays only the game it was started for, says when it is seated,
and tells how the game ended in words: seats counted from 1, players by name."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from pathlib import Path

from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import Advert, new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

from .netgame import BIN


def seatless_host(broker: str, tmp_path: Path, players: int) -> RoomRunner:
    return RoomRunner(
        broker=BrokerAddress.parse(broker),
        identity=Identity.generate("Referee"),
        room=new_room_code(),
        host=HostSetup("cake-duel", players),
        seated=False,
        journal_dir=tmp_path / "host",
    )


async def advert_where(host: RoomRunner, holds: object) -> Advert:
    """The first advert of ``host``'s room (from now on) for which ``holds(advert)``."""
    while True:
        event = await host.events.get()
        if event.kind == "advert" and holds(event.data):  # type: ignore[operator]
            advert: Advert = event.data
            return advert


async def bot(
    broker: str, home: Path, game: str, code: str, name: str
) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "CAKEPARTY_CONFIG_DIR": str(home / "config"),
        "CAKEPARTY_DATA_DIR": str(home / "data"),
    }
    return await asyncio.create_subprocess_exec(
        *(BIN, "--lang", "en", "bot", game, "--room", code, "--broker", broker, "--name", name),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_a_bot_for_another_game_is_refused_before_it_takes_a_seat(
    embedded: str, tmp_path: Path
) -> None:
    """It sat down in a Cake Duel room as a Cake Master bot, said nothing, and would have
    played Cake Duel. Now it leaves at once, exit 2, and the lobby never shows it."""
    host = seatless_host(embedded, tmp_path, 2)
    running = asyncio.create_task(host.run())
    proc = None
    try:
        await asyncio.wait_for(advert_where(host, lambda a: True), 30)  # the room is up
        proc = await bot(embedded, tmp_path / "bot", "cake-master", host.code, "Mia")
        ended = asyncio.create_task(proc.communicate())
        seated = asyncio.create_task(advert_where(host, lambda a: a.taken))
        await asyncio.wait({ended, seated}, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        assert not seated.done(), f"the bot sat down: {seated.result().taken}"
        seated.cancel()
        assert ended.done(), "the bot is still there"
        out, err = ended.result()
        assert proc.returncode == 2, err.decode()
        assert out == b""
        said = err.decode().strip().splitlines()[-1]
        assert said == (
            f"cakeparty bot: error: room {host.code} is a Cake Duel room, not Cake Master"
        )
    finally:
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        host.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(running, 30)


async def test_a_bot_says_where_it_sits_and_who_won_by_name(embedded: str, tmp_path: Path) -> None:
    """It said only "[connection] connected", then "seat 0: winner [1], audit: fair":
    seats counted from 0, while the lobby and the spectators count from 1 and name them."""
    host = seatless_host(embedded, tmp_path, 2)
    running = asyncio.create_task(host.run())
    procs = []
    try:
        await asyncio.wait_for(advert_where(host, lambda a: True), 30)
        for name in ("Ann", "Bob"):
            procs.append(await bot(embedded, tmp_path / name, "cake-duel", host.code, name))
        outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 240)
        table = host.table
        assert table is not None
        lines = []
        for name, proc, (out, err) in zip(("Ann", "Bob"), procs, outs, strict=True):
            assert proc.returncode == 0, err.decode()
            seat = table.names.index(name) + 1
            seated = f"[seated] {name} sits in seat {seat} of 2 in room {host.code} (Cake Duel)"
            assert seated in err.decode().splitlines(), err.decode()
            line = out.decode().strip()
            assert re.fullmatch(rf"{name} in seat {seat} of 2: won by (Ann|Bob), audit: fair", line)
            lines.append(line.split(": ", 1)[1])
        assert lines[0] == lines[1]  # the same winner for both
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        host.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(running, 30)

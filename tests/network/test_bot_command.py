"""``cakeparty bot``: it plays only the game it was started for, says when it is seated,
and tells how the game ended in words: seats counted from 1, players by name."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
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
    broker: str, home: Path, game: str, code: str, name: str, lang: str = "en"
) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "CAKEPARTY_CONFIG_DIR": str(home / "config"),
        "CAKEPARTY_DATA_DIR": str(home / "data"),
    }
    return await asyncio.create_subprocess_exec(
        *(BIN, "--lang", lang, "bot", game, "--room", code, "--broker", broker, "--name", name),
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


async def bot_left_a_closed_lobby(
    embedded: str, tmp_path: Path, lang: str
) -> tuple[str, list[str]]:
    """A bot seated in a room whose host then closes the lobby, before the game: the
    room's code, and the lines the bot said on its standard error as it left."""
    host = seatless_host(embedded, tmp_path, 2)
    running = asyncio.create_task(host.run())
    proc = None
    try:
        await asyncio.wait_for(advert_where(host, lambda a: True), 30)
        proc = await bot(embedded, tmp_path / "bot", "cake-duel", host.code, "Mia", lang)
        await asyncio.wait_for(advert_where(host, lambda a: a.taken), 60)
        host.stop()  # its lobby open: the room closes
        await asyncio.wait_for(running, 30)
        out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 1, err.decode()
        assert out == b""
        return host.code, err.decode().strip().splitlines()
    finally:
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        host.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(running, 30)


async def test_a_bot_leaves_a_room_its_host_closed_before_the_game(
    embedded: str, tmp_path: Path
) -> None:
    """The host left its lobby (or quit its app) before the game: the bot waited for ever
    in a room that was gone. Now it says so and ends, exit status 1."""
    code, said = await bot_left_a_closed_lobby(embedded, tmp_path, "en")
    assert said == [
        f"[connection] connected to {embedded}",
        f"[seated] Mia sits in seat 1 of 2 in room {code} (Cake Duel)",
        f"cakeparty bot: Referee closed room {code} before its game started",
    ]


async def test_a_bot_says_what_happens_in_the_chosen_language(
    embedded: str, tmp_path: Path
) -> None:
    """Its lines on standard error were in English whatever the language ("[connection]
    connected to …"): now they are in the language asked for, tags and all."""
    code, said = await bot_left_a_closed_lobby(embedded, tmp_path, "es")
    assert said == [
        f"[conexión] conectado a {embedded}",
        f"[sentado] Mia ocupa el asiento 1 de 2 en la sala {code} (Duelo de Pasteles)",
        f"cakeparty bot: Referee cerró la sala {code} antes de que empezara su partida",
    ]


#: A host's app as a process of its own (to be killed): it hosts room ``argv[2]`` on
#: broker ``argv[1]`` with the key kept in ``argv[3]``, prints its code once the room is
#: up, and closes the room on SIGTERM.
HOST = """
import asyncio, signal, sys
from pathlib import Path
from cakeparty.protocol.identity import load_or_create
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress

broker, room, home = sys.argv[1], sys.argv[2], Path(sys.argv[3])
runner = RoomRunner(
    broker=BrokerAddress.parse(broker),
    identity=load_or_create("Referee", directory=home / "config"),
    room=room,
    host=HostSetup("cake-duel", 2),
    seated=False,
    journal_dir=home / "data",
)

async def main():
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, runner.close)
    task = asyncio.create_task(runner.run())
    while (await runner.events.get()).kind != "advert":
        pass
    print(runner.code, flush=True)
    await task

asyncio.run(main())
"""


async def test_a_bot_says_when_its_host_is_away_and_back(embedded: str, tmp_path: Path) -> None:
    """The host's app killed in its lobby: the bot waited without a word. Now it says the
    host is away and that it waits for it; it says when the host is back, and leaves when
    the host then closes the room."""
    room = new_room_code()
    hosts: list[asyncio.subprocess.Process] = []
    proc = None
    said: list[str] = []

    async def start_host() -> str:
        host = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            HOST,
            embedded,
            room,
            str(tmp_path / "host"),
            stdout=asyncio.subprocess.PIPE,
        )
        hosts.append(host)
        assert host.stdout is not None
        return (await asyncio.wait_for(host.stdout.readline(), 60)).decode().strip()

    async def until_said(start: str) -> str:
        assert proc is not None and proc.stderr is not None
        while True:
            line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
            assert line, f"the bot ended, having said {said}"
            said.append(line.rstrip("\n"))
            if line.startswith(start):
                return said[-1]

    try:
        code = await start_host()
        proc = await bot(embedded, tmp_path / "bot", "cake-duel", code, "Mia")
        await until_said("[seated]")
        os.kill(hosts[0].pid, signal.SIGKILL)
        await hosts[0].wait()
        away = await until_said("[host away]")
        assert away == (
            f"[host away] Referee, the host of room {code}, is offline: waiting for it to "
            "come back (Ctrl-C to leave)"
        )
        assert await start_host() == code  # the same host, its room again
        back = await until_said("[host back]")
        assert back == f"[host back] Referee, the host of room {code}, is back online"
        await until_said("[seated]")  # the host seats it again
        hosts[1].send_signal(signal.SIGTERM)  # the host closes the room
        assert await asyncio.wait_for(hosts[1].wait(), 60) == 0
        _out, err = await asyncio.wait_for(proc.communicate(), 60)
        assert proc.returncode == 1, said
        assert err.decode().strip().splitlines()[-1] == (
            f"cakeparty bot: Referee closed room {code} before its game started"
        )
    finally:
        for p in [*hosts, proc]:
            if p is not None and p.returncode is None:
                p.kill()
                await p.wait()

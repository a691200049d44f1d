"""A room of game sessions in this process, each with its own connection to a real broker.

No lobby: the table is made here, so that a test can hold one seat's key as an attacker
would (it signs what it likes, when it likes) while the other seats are honest peers whose
bots play. A seat's connection can drop and come back, as a laptop's Wi-Fi does, and its
app can be started again from its journal. The seats
answer spectators' catch-up requests as the app's do, and the first seat's advert (kept on
the broker, :meth:`LiveRoom.advertise`) shows spectators the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from cakeparty.core import get_game
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.spectator import Backlog, read_catch_up
from cakeparty.protocol.table import Table
from cakeparty.protocol.transport import BrokerAddress, Transport

WAIT = 120.0  # seconds a condition may take on a busy machine before the test fails


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for it to end. Asked again until it does: Python 3.11's
    ``wait_for`` (which the MQTT client's calls use) loses a cancellation that arrives as
    the call it waits on completes, and the task then runs on."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=1.0)
    with contextlib.suppress(asyncio.CancelledError):
        task.result()


class LiveSeat:
    """One seat: its session, its bot, and its connection (which may be down)."""

    def __init__(self, room: LiveRoom, seat: int, identity: Identity, tmp: Path) -> None:
        self.room = room
        self.seat = seat
        self.identity = identity
        self.folder = tmp / f"seat{seat}"  # its journal's
        self.session = GameSession(room.table, [identity], journal_dir=self.folder)
        self.bot = get_game(room.table.game).bots["random"]
        self.rng = random.Random(seat)
        self.playing = True  # its bot makes its moves
        self.transport: Transport | None = None
        self.backlog = Backlog()  # its answers to spectators' catch-up requests
        self._task: asyncio.Task[None] | None = None
        self._connections = 0
        self._turn = asyncio.Lock()  # the room's loop steps it, or the test changes it

    @property
    def peer(self) -> Any:
        return self.session.peers[0]

    async def connect(self) -> None:
        self._connections += 1
        transport = Transport(
            BrokerAddress.parse(self.room.url),
            client_id=f"live-{self.room.table.room}-{self.seat}-{self._connections}",
        )
        await transport.__aenter__()
        await transport.subscribe(topics.log(self.room.table.room))
        await transport.subscribe(topics.catch_up(self.room.table.room))
        self.transport = transport
        self.session.sync(time.monotonic())  # ask for what passed while away
        self._task = asyncio.create_task(self._read(transport))

    async def disconnect(self) -> None:
        async with self._turn:  # never while the room's loop sends what it put out
            transport, self.transport = self.transport, None
            if self._task is not None:
                await stop(self._task)
            if transport is not None:
                await transport.close()

    async def restart(self) -> None:
        """Its app stops, and starts again from its journal (as after a crash: what it
        had not sent yet is lost)."""
        await self.disconnect()
        for peer in self.session.peers:
            if peer.journal is not None:
                peer.journal.close()
        self.session = GameSession(self.room.table, [self.identity], journal_dir=self.folder)
        self.backlog = Backlog()
        await self.connect()

    async def _read(self, transport: Transport) -> None:
        room = self.room.table.room
        async for message in transport.messages():
            if message.topic == str(topics.catch_up(room)):
                with contextlib.suppress(ValueError):  # anyone may write there
                    self.backlog.ask(read_catch_up(message.payload, room))
            else:
                self.session.receive(message.payload, time.monotonic())

    async def step(self) -> None:
        """Play the bot's moves that are due, tick, and send what the session put out."""
        async with self._turn:
            if self.transport is None:
                return
            now = time.monotonic()
            if self.playing:
                for peer, view in self.session.due():
                    peer.act(self.bot(view, self.rng))
            self.session.tick(now)
            await self.flush()
            votes = self.session.standing_votes()
            for data in self.backlog.due(self.peer, now, votes):
                await self.transport.publish(topics.backlog(self.room.table.room), data)

    async def flush(self) -> None:
        assert self.transport is not None
        outbox = self.session.outbox
        while outbox:
            batch, outbox[:] = list(outbox), []
            for data in batch:
                await self.transport.publish(topics.log(self.room.table.room), data)


class LiveRoom:
    """``players`` seats of ``game`` on the broker at ``url``, all connected and running."""

    def __init__(self, url: str, game: str, players: int, tmp: Path, seed: int = 0) -> None:
        self.url = url
        rng = random.Random(seed)
        identities = [
            Identity.generate(f"P{i}", random_bytes=rng.randbytes) for i in range(players)
        ]
        self.table = Table.of(
            new_room_code(),
            game,
            [(i.player_id, i.name) for i in identities],
            nonce=os.urandom(16),
        )
        self.seats = [LiveSeat(self, n, i, tmp) for n, i in enumerate(identities)]
        self._runner: asyncio.Task[None] | None = None
        self._more: list[asyncio.Task[None]] = []  # what the test runs beside the seats

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` beside the seats (a spectator's, say) until the room closes."""
        task = asyncio.create_task(coro)
        self._more.append(task)
        return task

    async def __aenter__(self) -> LiveRoom:
        for seat in self.seats:
            await seat.connect()
        self._runner = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._more:
            with contextlib.suppress(Exception):  # its failure is its test's to report
                await stop(task)
        if self._runner is not None:
            await stop(self._runner)
        for seat in self.seats:
            await seat.disconnect()

    async def advertise(self) -> str:
        """Put the first seat's advert of the room's game, under way, on the broker (kept,
        as a host's is) and return the room's code, which a spectator watches."""
        table, host = self.table, self.seats[0]
        advert = lb.Advert(
            room=table.room, game=table.game, host=host.identity.player_id,
            host_name=host.identity.name, seats=table.seats, options=table.options,
            timeout=table.timeout, on_timeout=table.on_timeout,
            taken=tuple(lb.Seat(p, n) for p, n in zip(table.players, table.names, strict=True)),
            state=lb.PLAYING, table=table, serial=1,
        )  # fmt: skip
        data = lb.sign(host.identity.signing_key, table.room, lb.ADVERT, advert.to_data())
        topic = topics.lobby(table.room, topics.presence_id(host.identity.player_id))
        assert host.transport is not None
        await host.transport.publish(topic, data, retain=True)
        return lb.room_code(table.room, host.identity.player_id)

    async def _run(self) -> None:
        while True:
            for seat in self.seats:
                await seat.step()
            await asyncio.sleep(0.02)

    async def until(self, what: Callable[[], bool], why: str, timeout: float = WAIT) -> None:
        """Wait until ``what()`` holds; fail saying ``why`` if it never does."""
        deadline = time.monotonic() + timeout
        while not what():
            if self._runner is not None and self._runner.done():
                self._runner.result()  # a crash of a seat's loop: raised here
            assert time.monotonic() < deadline, f"never happened: {why}"
            await asyncio.sleep(0.05)

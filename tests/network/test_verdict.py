"""One verdict for everyone, on a real broker: real room runners are stopped and started
again around the timeout, and every peer reports the same ending; a player online but
slow is never voted out by itself, and the other is asked."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.transport import BrokerAddress


async def until(test: Callable[[], object], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        await asyncio.sleep(0.05)


class Room:
    """A two-seat Cake Duel room: a host and a joiner, each a real :class:`RoomRunner`
    with its own key and journal, in this process, on a real broker. Used with ``async
    with``, it cancels every runner it started on the way out."""

    def __init__(self, url: str, tmp: Path, *, bots: bool, on_timeout: str = "ask") -> None:
        self.url = url
        self.tmp = tmp
        self.code = new_room_code()
        self.bots = bots
        self.ids = [Identity.generate("Hana"), Identity.generate("Jo")]
        setup = HostSetup("cake-duel", 2, {"full": True}, timeout=2, on_timeout=on_timeout)
        self.host = RoomRunner(
            broker=BrokerAddress.parse(url),
            identity=self.ids[0],
            room=self.code,
            host=setup,
            bot="random" if bots else None,
            bot_delay=0.05 if bots else 0.0,
            journal_dir=tmp / "host",
            seed=1,
            linger=120.0,  # stays to answer a player coming back
        )
        if not bots:
            self.host.set_ready(True)
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.joiner = self.join()

    def join(self) -> RoomRunner:
        """The joiner, with its key and journal: the first time, or coming back."""
        return RoomRunner(
            broker=BrokerAddress.parse(self.url),
            identity=self.ids[1],
            room=self.host.code,
            bot="random" if self.bots else None,
            bot_delay=0.05 if self.bots else 0.0,
            journal_dir=self.tmp / "joiner",
            seed=2,
            linger=120.0,
        )

    async def start(self, runner: RoomRunner) -> None:
        self.tasks[id(runner)] = asyncio.create_task(runner.run())
        if runner is self.joiner and not self.bots:
            await until(lambda: runner.advert is not None, "the advert")
            runner.set_ready(True)

    async def under_way(self) -> GameSession:
        """The host and the joiner started, their game 25 steps in: the host's session."""
        await self.start(self.host)
        await self.start(self.joiner)
        host = self.host
        await until(lambda: host.session is not None and host.session.seq >= 25, "the game")
        assert host.session is not None
        return host.session

    async def come_back(self) -> RoomRunner:
        """The joiner's process starts again, from its key and journal."""
        self.joiner = self.join()
        await self.start(self.joiner)
        return self.joiner

    async def kill(self, runner: RoomRunner) -> None:
        """The runner's process is gone (its task cancelled): it says nothing more."""
        task = self.tasks.pop(id(runner))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def __aenter__(self) -> Room:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        for runner_task in self.tasks.values():
            runner_task.cancel()
        for runner_task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner_task


async def test_a_joiner_killed_and_back_after_the_timeout_shows_the_one_ending(
    broker_url: str, tmp_path: Path
) -> None:
    async with Room(broker_url, tmp_path, bots=True) as room:
        session = await room.under_way()
        await room.kill(room.joiner)
        # the joiner is offline; past the timeout the host's bot votes, and it is final
        await until(lambda: session.abandoned is not None, "the host's verdict")
        ended = session.abandoned
        assert ended is not None and ended.seat == 1 and ended.voters == {0}
        # the joiner's process starts again from its journal: it learns the ending from the
        # room, instead of playing on (or declaring the host gone)
        back = await room.come_back()
        await until(lambda: back.session is not None and back.session.finished, "the ending")
        assert back.session is not None and back.session.abandoned == ended
        assert session.abandoned == ended  # and the host's stands


async def test_a_killed_joiner_back_before_the_timeout_plays_on(
    embedded: str, tmp_path: Path
) -> None:
    async with Room(embedded, tmp_path, bots=True) as room:
        session = await room.under_way()
        await room.kill(room.joiner)
        back = await room.come_back()  # at once: well within the timeout
        await until(lambda: session.finished, "the end of the game", 180)
        await until(lambda: back.session is not None and back.session.finished, "its end", 60)
        assert back.session is not None
        # whatever the race, both tell one story: the same ending, or the same game
        assert back.session.abandoned == session.abandoned
        if session.abandoned is None:
            me, them = session.peers[0], back.session.peers[0]
            assert me.outcome == them.outcome


async def test_a_slow_player_online_is_not_voted_out_and_the_other_is_asked(
    embedded: str, tmp_path: Path
) -> None:
    async with Room(embedded, tmp_path, bots=False) as room:
        await room.start(room.host)
        await room.start(room.joiner)
        host, joiner = room.host, room.joiner
        await until(lambda: host.session is not None and joiner.session is not None, "the game")
        hs, js = host.session, joiner.session
        assert hs is not None and js is not None
        # both people reach the first decision; the mover thinks, and thinks
        await until(lambda: any(s.due() for s in (hs, js)), "the first decision")
        slow, other = (js, hs) if js.due() else (hs, js)
        slow_seat = slow.peers[0].seat
        await until(lambda: other.overdue(time.monotonic()) == (slow_seat,), "the timeout")
        # told: your time is up (by its own clock, which started when it saw the step)
        await until(lambda: slow.late(time.monotonic()), "the slow seat told")
        # under "ask", the room waits on its own: several timeouts pass, nobody is voted out
        await until(lambda: other.clock(time.monotonic()) < -4, "two more timeouts")
        assert hs.abandoned is None and js.abandoned is None
        assert not other.voted(slow_seat)
        # the other person chooses to end it: one ending on both screens
        runner = host if other is hs else joiner
        assert runner.vote_out(slow_seat)
        await until(lambda: hs.abandoned is not None and js.abandoned is not None, "the ending")
        assert hs.abandoned == js.abandoned
        assert hs.abandoned is not None and hs.abandoned.seat == slow_seat


def test_a_bot_run_by_a_host_that_is_gone_counts_as_offline() -> None:
    from cakeparty.protocol import lobby as lb
    from cakeparty.protocol.table import Table

    hana, bot, jo = (Identity.generate(n) for n in ("Hana", "Bot 1", "Jo"))
    code = new_room_code()
    runner = RoomRunner(broker=BrokerAddress.parse("mqtt://127.0.0.1:1"), identity=jo, room=code)
    runner.advert = lb.Advert(
        room=code,
        game="cake-duel",
        host=hana.player_id,
        host_name="Hana",
        seats=2,
        taken=(lb.Seat(bot.player_id, "Bot 1", True), lb.Seat(jo.player_id, "Jo")),
    )
    table = Table.of(code, "cake-duel", [(bot.player_id, "Bot 1"), (jo.player_id, "Jo")])
    runner.online = {hana.player_id: True, jo.player_id: True}
    assert runner._offline_seats(table) == frozenset()
    runner.online[hana.player_id] = False  # the host's last will: its bots went with it
    assert runner._offline_seats(table) == {0}


async def test_two_players_gone_the_two_left_end_the_game_as_one(
    embedded: str, tmp_path: Path
) -> None:
    """Four bots in a team duel; two processes die. Past the timeout the two left vote the
    mover out, each signing the other dead seat gone: one ending, with their votes only."""
    ids = [Identity.generate(n) for n in ("Hana", "Jo", "Kim", "Lee")]
    code = new_room_code()
    setup = HostSetup("cake-duel", 4, {"full": True}, timeout=2)
    runners = [
        RoomRunner(
            broker=BrokerAddress.parse(embedded),
            identity=ids[0],
            room=code,
            host=setup,
            bot="random",
            bot_delay=0.05,
            journal_dir=tmp_path / "p0",
            seed=1,
            linger=120.0,
        )
    ]
    tasks = [asyncio.create_task(runners[0].run())]
    try:
        for n in (1, 2, 3):
            runner = RoomRunner(
                broker=BrokerAddress.parse(embedded),
                identity=ids[n],
                room=runners[0].code,
                bot="random",
                bot_delay=0.05,
                journal_dir=tmp_path / f"p{n}",
                seed=n + 1,
                linger=120.0,
            )
            runners.append(runner)
            tasks.append(asyncio.create_task(runner.run()))
        host = runners[0]
        await until(lambda: host.session is not None and host.session.seq >= 25, "the game")
        seats = {r.my_seat: n for n, r in enumerate(runners)}
        assert set(seats) == {0, 1, 2, 3}
        # the processes of two seats die (not the host's)
        dead = [1, 2]
        for n in dead:
            tasks[n].cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await tasks[n]
        left = [n for n in range(4) if n not in dead]
        sessions = [runners[n].session for n in left]
        await until(
            lambda: all(s is not None and s.abandoned is not None for s in sessions),
            "the verdict of the two left",
        )
        ends = [s.abandoned for s in sessions if s is not None]
        assert ends[0] == ends[1]
        ended = ends[0]
        assert ended is not None
        dead_seats = {runners[n].my_seat for n in dead}
        assert ended.seat in dead_seats and ended.away == dead_seats - {ended.seat}
        assert ended.voters == {runners[n].my_seat for n in left}
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

"""The lobby on a real broker: nothing a stranger, an impostor or a replay posts there
changes a room or a game, and a joiner starts only the table its lobby showed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from cakeparty.broker.embedded import free_port
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import (
    MAX_STRANGERS,
    RESTORE_EVERY,
    HostSetup,
    RoomEvent,
    RoomRunner,
    list_rooms,
    presence_id,
)
from cakeparty.protocol.transport import BrokerAddress, Transport, stop_task

from ..brokers import embedded_broker_process


async def until(test: Callable[[], object], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        await asyncio.sleep(0.05)


class Room:
    """A host (seated, ready) and a guest joining by the room's code, in this process."""

    def __init__(self, url: str, tmp: Path, *, timeout: int = 60) -> None:
        self.address = address = BrokerAddress.parse(url)
        self.host = RoomRunner(
            broker=address,
            identity=Identity.generate("Hank"),
            room=lb.new_room_code(),
            host=HostSetup("cake-duel", 2, {"full": True}, timeout=timeout),
            journal_dir=tmp / "hank",
        )
        self.host.set_ready(True)
        self.guest = RoomRunner(
            broker=address, identity=Identity.generate("Ann"), room=self.host.code,
            journal_dir=tmp / "ann",
        )  # fmt: skip
        self.events: list[RoomEvent] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def watch(self) -> None:
        while True:
            self.events.append(await self.guest.events.get())

    def kinds(self, kind: str) -> list[RoomEvent]:
        return [e for e in self.events if e.kind == kind]

    @contextlib.asynccontextmanager
    async def running(self, *, guest: bool = True) -> AsyncIterator[Room]:
        self.tasks.append(asyncio.create_task(self.host.run()))
        await until(lambda: self.host.transport is not None, "the host")
        if guest:
            await self.start_guest()
        try:
            yield self
        finally:
            for runner in (self.host, self.guest):
                runner.stop()
            for task in self.tasks:
                await stop_task(task)

    @contextlib.asynccontextmanager
    async def with_stranger(self, client: str, *, guest: bool = True) -> AsyncIterator[Transport]:
        """The room running, and a connection of a stranger to it on its broker (``client``:
        its client id), which may publish anything a broker lets anyone publish."""
        async with self.running(guest=guest), Transport(self.address, client_id=client) as eve:
            yield eve

    async def start_guest(self) -> None:
        self.tasks.append(asyncio.create_task(self.guest.run()))
        self.tasks.append(asyncio.create_task(self.watch()))
        seated = lambda: self.guest.advert is not None and len(self.guest.advert.taken) == 2  # noqa: E731
        await until(seated, "Ann to be seated")


async def recording(eve: Transport, topic: topics.Topic) -> tuple[list[bytes], asyncio.Task[None]]:
    """What ``eve`` hears on ``topic`` from now on, and the task that listens."""
    await eve.subscribe(topic)
    seen: list[bytes] = []

    async def record() -> None:
        async for message in eve.messages():
            seen.append(message.payload)

    return seen, asyncio.create_task(record())


async def mark_read(eve: Transport, runner: RoomRunner) -> None:
    """Wait until ``runner`` has read what ``eve`` published so far (a presence of a new
    stranger, published last, arrives after the rest)."""
    marker = Identity.generate("Marker")
    body = lb.Presence(marker.player_id, marker.name).to_data()
    data = lb.sign(marker.signing_key, runner.room, lb.PRESENCE, body)
    await eve.publish(topics.presence(runner.room, presence_id(marker.player_id)), data)
    await until(lambda: marker.player_id in runner.online, "the marker")


async def test_a_replayed_old_advert_mid_game_changes_nothing(
    broker_url: str, tmp_path: Path
) -> None:
    room = Room(broker_url, tmp_path)
    async with room.with_stranger("replayer") as eve:
        host_topic = topics.lobby(room.host.room, presence_id(room.host.identity.player_id))
        seen, recorder = await recording(eve, host_topic)
        await until(lambda: seen, "the host's open advert")
        room.guest.set_ready(True)
        await until(lambda: room.guest.session is not None, "the game to start")
        table, seat = room.guest.table, room.guest.my_seat
        assert seat == 1 and table is not None
        # the host's own old adverts (the room still open, no table), replayed, retained
        for old in list(seen):
            await eve.publish(host_topic, old, retain=True)
        await eve.publish(host_topic, b"", retain=True)  # and an empty one
        await mark_read(eve, room.guest)
        assert room.guest.table == table and room.guest.my_seat == seat
        assert room.guest.advert is not None and room.guest.advert.table == table
        assert room.guest.view() is not None  # the duel screen's view of the seat
        await stop_task(recorder)


async def test_an_impostors_advert_is_ignored_and_noted(broker_url: str, tmp_path: Path) -> None:
    room = Room(broker_url, tmp_path)
    impostor = Identity.generate("Hank")  # the same name, another key
    fake = lb.Advert(
        room=room.host.room,
        game="cake-duel",
        host=impostor.player_id,
        host_name="Hank",
        seats=2,
        options=(("full", False),),
        serial=2**62,
    )
    data = lb.sign(impostor.signing_key, room.host.room, lb.ADVERT, fake.to_data())
    async with room.with_stranger("impostor", guest=False) as eve:
        # on its own topic, and over the host's (a broker with no ACL lets it)
        await eve.publish(
            topics.lobby(room.host.room, presence_id(impostor.player_id)), data, retain=True
        )
        await room.start_guest()
        await eve.publish(
            topics.lobby(room.host.room, presence_id(room.host.identity.player_id)), data
        )
        await until(lambda: room.kinds("incident"), "the impostor to be noted")
        assert room.guest.advert is not None
        assert room.guest.advert.host == room.host.identity.player_id
        assert dict(room.guest.advert.options) == {"full": True}
        await mark_read(eve, room.guest)
        noted = [e.text for e in room.kinds("incident")]
        assert len(noted) == 1 and impostor.fingerprint in noted[0]  # once, however often
        room.guest.set_ready(True)
        await until(lambda: room.guest.session is not None, "the real host's game")
        assert room.guest.table is not None and room.guest.table.option_map == {"full": True}


async def test_a_joiner_refuses_a_table_other_than_its_lobby_showed(
    broker_url: str, tmp_path: Path
) -> None:
    room = Room(broker_url, tmp_path)
    lobby = room.host.host_lobby
    assert lobby is not None
    honest = lobby.start

    def forged() -> lb.Table:
        # the advert said 60 s a move; the table says a day
        table = replace(honest(), timeout=86400)
        lobby.advert = replace(lobby.advert, table=table)
        return table

    lobby.start = forged  # type: ignore[method-assign]
    async with room.running():
        room.guest.set_ready(True)
        await until(lambda: room.kinds("refused"), "the refusal")
        refusal = room.guest.refused
        assert refusal is not None and refusal.peer == room.host.identity.player_id
        assert "timeout" in str(refusal)
        assert room.guest.session is None and room.host.session is not None


async def test_a_joiner_refuses_a_table_made_before_its_ready_mark(
    broker_url: str, tmp_path: Path
) -> None:
    room = Room(broker_url, tmp_path)
    lobby = room.host.host_lobby
    assert lobby is not None
    honest = lobby.start

    def stale() -> lb.Table:
        # an old table, or one made up without this seat's fresh bytes
        table = replace(honest(), seeds=(lb.new_mark(), lb.new_mark()))
        lobby.advert = replace(lobby.advert, table=table)
        return table

    lobby.start = stale  # type: ignore[method-assign]
    async with room.running():
        room.guest.set_ready(True)
        await until(lambda: room.kinds("refused"), "the refusal")
        assert "ready mark" in str(room.guest.refused) and room.guest.session is None


async def test_a_flood_of_strangers_presences_is_not_kept(embedded: str, tmp_path: Path) -> None:
    room = Room(embedded, tmp_path)
    async with room.with_stranger("flood") as eve:
        for i in range(4 * MAX_STRANGERS):
            who = Identity.generate(f"Eve {i}")
            body = lb.Presence(who.player_id, who.name).to_data()
            data = lb.sign(who.signing_key, room.host.room, lb.PRESENCE, body)
            await eve.publish(topics.presence(room.host.room, presence_id(who.player_id)), data)
        await eve.publish(topics.log(room.host.room), b"flush")
        await until(lambda: room.guest.log_messages > 0, "the flood to pass")
        assert len(room.guest.online) <= MAX_STRANGERS + 2
        assert len(room.host.online) <= MAX_STRANGERS + 2
        assert room.host.identity.player_id in room.guest.online


async def test_a_forged_name_takes_no_seat_and_a_chat_line_forges_no_other(
    embedded: str, tmp_path: Path
) -> None:
    """A joiner whose name would forge a seat's row or reach the terminal (a line break, an
    escape sequence), or shows nothing (a Hangul filler), is not seated; a seated player's
    chat line with a line break in it ("hi\nHank: I give up") is shown as one line of its
    own, and its escape sequences as spaces."""
    room = Room(embedded, tmp_path)
    async with room.with_stranger("eve") as eve:
        eve_id = Identity.generate("Eve")
        await until(lambda: room.host.advert is not None, "the advert")
        for name in ("Eve\nHank (host)", "Eve\x1b[2J", "\u3164"):
            body = {"name": name, "state": lb.ONLINE, "ready": False, "mark": b""}
            data = lb.sign(eve_id.signing_key, room.host.room, lb.PRESENCE, body)
            await eve.publish(topics.presence(room.host.room, presence_id(eve_id.player_id)), data)
        ann = room.guest.identity.player_id
        await until(
            lambda: (
                room.host.advert is not None and ann in [s.player for s in room.host.advert.taken]
            ),
            "Ann's seat",
        )
        room.guest.say("hi\nHank: I give up \x1b[2J")
        await until(lambda: room.host.chat, "Ann's line")
        assert room.host.chat == [("Ann", "hi Hank: I give up  [2J")]
        await until(lambda: room.host.ignored >= 3, "her presences counted and dropped")
        assert room.host.advert is not None
        assert [s.name for s in room.host.advert.taken] == ["Hank", "Ann"]  # no Eve


async def test_a_chat_line_sent_again_by_a_stranger_is_shown_once_and_a_flood_is_slowed(
    embedded: str, tmp_path: Path
) -> None:
    """Anyone on the broker can send a player's signed chat line again: it is shown once.
    A player sending thirty lines at once (a client of its own, signing them with its key)
    is shown a few, then one a second."""
    room = Room(embedded, tmp_path)
    async with room.with_stranger("eve") as eve:
        heard, listening = await recording(eve, topics.chat(room.host.room))
        seated = lambda: room.host.advert is not None and len(room.host.advert.taken) == 2  # noqa: E731
        await until(seated, "Ann's seat")
        started = time.monotonic()
        room.guest.say("let's end it here")
        await until(lambda: heard and room.host.chat, "Ann's line, heard by Eve too")
        for _ in range(5):
            await eve.publish(topics.chat(room.host.room), heard[0])
        gate = room.host._chat_gate
        await until(lambda: gate.dropped >= 5, "the copies to arrive")
        assert room.host.chat == [("Ann", "let's end it here")]
        key, code = room.guest.identity.signing_key, room.host.room
        for n in range(30):
            line = lb.sign(
                key, code, lb.CHAT, lb.chat_body(time.time_ns() // 1000 + n, f"spam {n}")
            )
            await eve.publish(topics.chat(code), line)
        await until(lambda: len(room.host.chat) - 1 + gate.dropped - 5 >= 30, "the flood")
        spent = time.monotonic() - started
        shown = len(room.host.chat)  # her first line too
        assert lb.CHAT_BURST <= shown <= lb.CHAT_BURST + spent / lb.CHAT_EVERY
        assert room.host.chat[1:][:3] == [("Ann", "spam 0"), ("Ann", "spam 1"), ("Ann", "spam 2")]
        listening.cancel()


async def test_the_app_sends_no_faster_than_the_others_show(embedded: str, tmp_path: Path) -> None:
    """A player's own app holds back the lines the others would not show: of ten lines at
    once it sends a few, every one of them shown, and says the rest were not sent."""
    room = Room(embedded, tmp_path)
    async with room.running():
        seated = lambda: room.host.advert is not None and len(room.host.advert.taken) == 2  # noqa: E731
        await until(seated, "Ann's seat")
        now = time.monotonic()
        sent = [room.guest.say(f"line {n}", now=now) for n in range(10)]
        assert sent == [True] * lb.SAY_BURST + [False] * (10 - lb.SAY_BURST)
        await until(lambda: len(room.host.chat) == lb.SAY_BURST, "the lines sent")
        assert room.host.chat == [("Ann", f"line {n}") for n in range(lb.SAY_BURST)]
        assert room.host._chat_gate.dropped == 0
        # a moment later the next line goes
        assert room.guest.say("later", now=now + lb.SAY_EVERY)
        await until(lambda: room.host.chat[-1:] == [("Ann", "later")], "the later line")


async def test_a_room_its_host_closes_says_so_before_and_during_its_game(
    broker_url: str, tmp_path: Path
) -> None:
    """A host leaving its lobby closes the room: the guest's lobby reads the signed advert
    saying so. Mid-game, a host merely stopping (its app closing, to come back) leaves the
    room as it is; a host leaving for good tells the guest its room is closed — and an
    impostor's advert saying so, or the host's own old ones replayed, change nothing."""
    lobby_room = Room(broker_url, tmp_path / "lobby")
    async with lobby_room.running():
        lobby_room.host.stop()
        await until(
            lambda: (
                lobby_room.guest.advert is not None and lobby_room.guest.advert.state == lb.CLOSED
            ),
            "the guest to read that the room closed",
        )
    room = Room(broker_url, tmp_path / "game")
    impostor = Identity.generate("Hank")
    async with room.with_stranger("impostor") as eve:
        host_topic = topics.lobby(room.host.room, presence_id(room.host.identity.player_id))
        seen, recorder = await recording(eve, host_topic)
        room.guest.set_ready(True)
        await until(lambda: room.guest.session is not None, "the game to start")
        playing = room.guest.advert
        assert playing is not None and playing.state == lb.PLAYING
        closed = replace(playing, host=impostor.player_id, state=lb.CLOSED, serial=2**62)
        fake = lb.sign(impostor.signing_key, room.host.room, lb.ADVERT, closed.to_data())
        await eve.publish(host_topic, fake)
        await eve.publish(topics.lobby(room.host.room, presence_id(impostor.player_id)), fake)
        for old in list(seen):  # the host's own adverts so far, replayed
            await eve.publish(host_topic, old)
        await mark_read(eve, room.guest)
        assert not room.guest.closed_by_host and not room.kinds("closed")
        # the host leaves for good: its last advert says the room is closed
        room.host.close()
        await asyncio.wait_for(room.tasks[0], 20)
        await until(lambda: room.kinds("closed"), "the guest to hear the room closed")
        (event,) = room.kinds("closed")
        assert room.guest.closed_by_host and event.data.state == lb.CLOSED
        assert event.data.host == room.host.identity.player_id and event.data.host_name == "Hank"
        assert room.guest.table == playing.table  # the game's table stays what it was
        assert "Hank closed the room" in event.text
        # nothing is left to play: the guest's runner ends by itself after its linger (a
        # `cakeparty bot` in that seat exits)
        await asyncio.wait_for(room.tasks[1], 20)
        await stop_task(recorder)


async def test_a_host_stopping_mid_game_to_come_back_does_not_close_its_room(
    broker_url: str, tmp_path: Path
) -> None:
    room = Room(broker_url, tmp_path)
    async with room.with_stranger("marker") as eve:
        room.guest.set_ready(True)
        await until(lambda: room.guest.session is not None, "the game to start")
        room.host.stop()
        await asyncio.wait_for(room.tasks[0], 20)
        await mark_read(eve, room.guest)  # all the host said on its way out was read
        assert not room.guest.closed_by_host and not room.kinds("closed")


@pytest.mark.parametrize("how", ["cleared", "impostor", "replayed"])
async def test_a_hosts_advert_cleared_or_replaced_is_published_again_at_a_bounded_pace(
    broker_url: str, tmp_path: Path, how: str
) -> None:
    """Anyone on a broker without an ACL may publish on a host's advert topic: an empty
    retained message there (or an impostor's advert, or an old advert of the host's
    replayed) took the room off every list, and a spectator joining by its code heard "no
    room" for as long as the lobby lasted, while the host saw nothing. The host hears what
    took its advert's place and publishes it again — once every RESTORE_EVERY seconds at
    most, however fast a stranger keeps at it — and not at all while nobody meddles."""
    room = Room(broker_url, tmp_path)
    host = room.host
    async with room.with_stranger(f"meddler-{how}") as eve:
        topic = topics.lobby(host.room, presence_id(host.identity.player_id))
        seen, recorder = await recording(eve, topic)

        def newest_is_last() -> bool:  # what the broker keeps: the last it passed on
            return bool(seen) and bool(seen[-1]) and _serial(seen[-1]) == host.advert.serial

        await until(newest_is_last, "the host's advert with Ann seated")
        host.set_ready(False)  # a newer advert: the one before is an old one now
        await until(lambda: len(seen) > 1 and newest_is_last(), "the host's next advert")
        assert host.adverts_restored == 0  # its own adverts, close together, are no alarm
        impostor = Identity.generate("Hank")
        fake = lb.Advert(host.room, "cake-duel", impostor.player_id, "Hank", 2, serial=2**62)
        payload = {
            "cleared": b"",
            "impostor": lb.sign(impostor.signing_key, host.room, lb.ADVERT, fake.to_data()),
            "replayed": seen[0],  # an old advert of the host's
        }[how]
        assert _serial(seen[0]) < host.advert.serial
        began = time.monotonic()
        while time.monotonic() - began < 2.0:  # a stranger at it as fast as it can
            await eve.publish(topic, payload, retain=True)
        await until(newest_is_last, "the host's advert again", 20)
        # what the broker keeps, as anyone looking now reads it
        listed = [
            r.advert for r in await list_rooms(room.address, 1.5) if r.advert.room == host.room
        ]
        assert [(a.host, a.serial) for a in listed] == [
            (host.identity.player_id, host.advert.serial)
        ]
        took = time.monotonic() - began
        assert 1 <= host.adverts_restored <= 2 + took / RESTORE_EVERY
        await stop_task(recorder)


def _serial(data: bytes) -> int:
    return lb.Advert.from_envelope(lb.decode(data)).serial


async def test_a_host_whose_broker_restarts_with_nothing_kept_advertises_again(
    tmp_path: Path,
) -> None:
    """The embedded broker keeps nothing across a restart: the host connected again, but
    its room's advert was gone for good, and nobody could find the room (a guest's list
    to go back to it, a spectator). A host connected again publishes its advert again."""
    port = free_port()
    broker = embedded_broker_process(port)
    url = broker.__enter__()
    room = Room(url, tmp_path)
    host = room.host
    try:
        async with room.running(guest=False):

            async def listed() -> list[lb.Advert]:
                found = await list_rooms(room.address, 1.5)
                return [r.advert for r in found if r.advert.room == host.room]

            assert [a.host for a in await listed()] == [host.identity.player_id]
            broker.__exit__(None, None, None)
            await until(lambda: host.transport is not None and not host.transport.connected,
                        "the host to lose its broker")  # fmt: skip
            broker = embedded_broker_process(port)
            broker.__enter__()
            deadline = time.monotonic() + 30
            while not await listed():
                assert time.monotonic() < deadline, "waited 30s for the room's advert"
    finally:
        broker.__exit__(None, None, None)


@contextlib.asynccontextmanager
async def ann_s_presences(
    room: Room, client: str
) -> AsyncIterator[tuple[Transport, topics.Topic, Callable[[], list[tuple[bytes, lb.Presence]]]]]:
    """The room running; a stranger's connection to its broker (``client``: its id), Ann's
    presence topic, and what the stranger has heard said there since: each presence as
    sent, and as read."""
    async with room.with_stranger(client) as eve:
        topic = topics.presence(room.host.room, presence_id(room.guest.identity.player_id))
        seen, listening = await recording(eve, topic)

        def heard() -> list[tuple[bytes, lb.Presence]]:
            read = (lb.read(data, room.host.room, lb.PRESENCE) for data in seen)
            return [(d, lb.Presence.from_envelope(e)) for d, e in zip(seen, read, strict=True)]

        try:
            yield eve, topic, heard
        finally:
            await stop_task(listening)


async def test_a_player_s_old_word_that_it_went_offline_sent_again_is_not_believed(
    broker_url: str, tmp_path: Path
) -> None:
    """Anyone may send a player's signed presence again. Ann's app closed, saying she was
    offline; she came back. Eve sends that old word again: every app in the room took Ann
    for offline until her next heartbeat (past her clock, in a room whose rule ends the
    game then, the others' apps voted her out while she played on). It is older than what
    Ann said since: believed by nobody, and counted."""
    room = Room(broker_url, tmp_path)
    async with ann_s_presences(room, "eve-replay") as (eve, topic, heard):
        ann = room.guest.identity.player_id
        await until(lambda: room.host.online.get(ann) is True, "Ann online")
        room.guest.stop()  # her app closes: it says so
        await asyncio.wait_for(room.tasks[-2], 30)
        await until(lambda: room.host.online.get(ann) is False, "Ann offline")

        def goodbyes() -> list[bytes]:
            return [data for data, presence in heard() if presence.state == lb.OFFLINE]

        await until(goodbyes, "Eve to hear her goodbye")
        goodbye = goodbyes()[-1]
        # Ann comes back, in a new app
        room.guest = RoomRunner(
            broker=room.address, identity=room.guest.identity, room=room.host.code,
            journal_dir=tmp_path / "ann",
        )  # fmt: skip
        await room.start_guest()
        await until(lambda: room.host.online.get(ann) is True, "Ann back online")
        await eve.publish(topic, goodbye)
        stale = lambda: getattr(room.host, "stale_presences", 0)  # noqa: E731
        await until(lambda: stale() or room.host.online.get(ann) is False, "the old goodbye heard")
        assert room.host.online[ann] is True
        assert stale() == 1
        assert room.guest.online.get(ann) is True  # her own app hears it too: not believed


async def test_a_player_whose_clock_was_set_back_between_two_runs_is_heard_at_once(
    broker_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's app closed, saying she was offline; her clock was then set back an hour, and
    she came back in a new app. Her presences are numbered by the clock: the new app's
    read as older than her goodbye, so nobody believed she was back (nor answered her
    catch-up requests) until her clock passed the old numbers. Her data dir keeps the
    clock's latest reading: she is back, and seated, at once."""
    room = Room(broker_url, tmp_path)
    async with room.running():
        ann = room.guest.identity.player_id
        await until(lambda: room.host.online.get(ann) is True, "Ann online")
        room.guest.stop()
        await asyncio.wait_for(room.tasks[-2], 30)
        await until(lambda: room.host.online.get(ann) is False, "Ann offline")
        real = time.time_ns
        monkeypatch.setattr(time, "time_ns", lambda: real() - 3600 * 10**9)
        room.guest = RoomRunner(
            broker=room.address, identity=room.guest.identity, room=room.host.code,
            journal_dir=tmp_path / "ann",
        )  # fmt: skip
        await room.start_guest()  # seated again: the host believed her
        await until(lambda: room.host.online.get(ann) is True, "Ann back online")
        assert getattr(room.host, "stale_presences", 0) == 0


async def test_a_player_s_old_ready_sent_again_does_not_make_it_ready(
    embedded: str, tmp_path: Path
) -> None:
    """Ann was ready, then not. Eve sends her old "ready" again: the host took her for ready
    (with her old ready mark) until her next heartbeat, and could start a game her app
    would refuse. It is older than her "not ready": believed by nobody."""
    room = Room(embedded, tmp_path)
    async with ann_s_presences(room, "eve-ready") as (eve, topic, heard):
        ann = room.guest.identity.player_id

        def host_sees_ready() -> bool | None:
            advert = room.host.advert
            seats = [s for s in advert.taken if s.player == ann] if advert else []
            return seats[0].ready if seats else None

        def readies() -> list[bytes]:
            return [data for data, presence in heard() if presence.ready]

        await until(lambda: host_sees_ready() is False, "Ann seated, not ready")
        room.guest.set_ready(True)
        await until(lambda: host_sees_ready() is True, "Ann ready")
        await until(readies, "Eve to hear her ready")
        ready = readies()[-1]
        room.guest.set_ready(False)
        await until(lambda: host_sees_ready() is False, "Ann not ready any more")
        await eve.publish(topic, ready)
        stale = lambda: getattr(room.host, "stale_presences", 0)  # noqa: E731
        await until(lambda: stale() or host_sees_ready(), "the old ready heard")
        assert host_sees_ready() is False
        assert stale() == 1

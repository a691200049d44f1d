"""A spectator on a real broker, against what anyone there may publish on its room's
topics: replays of the seats' own words, as fast as the broker passes them, and a host's
table no game can be played on. The watch never stops for them, keeps what it holds
bounded, and names the culprit where one can be named."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity, fingerprint
from cakeparty.protocol.lobby import OPEN, PLAYING, Advert, Seat, new_room_code, room_code
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.spectator import SpectatorRunner
from cakeparty.protocol.table import Table
from cakeparty.protocol.topics import presence_id
from cakeparty.protocol.transport import BrokerAddress, Transport, stop_task

FLOOD = 3000


async def until(test: Callable[[], object], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        await asyncio.sleep(0.05)


def playing_advert(room: str, host: Identity, guest: Identity, **table: object) -> bytes:
    """``host``'s signed advert of ``room`` with its game of Cake Duel on, ``guest`` and
    ``host`` seated (the table's settings ``table``, if any, replacing the usual ones)."""
    seats = ((host.player_id, host.name), (guest.player_id, guest.name))
    made = Table.of(room, "cake-duel", list(seats), nonce=bytes(range(16)))
    made = Table(**{**made.__dict__, **table})  # type: ignore[arg-type]
    advert = Advert(
        room=room, game=made.game, host=host.player_id, host_name=host.name, seats=2,
        taken=tuple(Seat(p, n) for p, n in seats), state=PLAYING, table=made, serial=5,
    )  # fmt: skip
    return lb.sign(host.signing_key, room, lb.ADVERT, advert.to_data())


@contextlib.asynccontextmanager
async def watching(
    publisher: Transport, broker: BrokerAddress, room: str, host: Identity, advert: bytes
) -> AsyncIterator[tuple[SpectatorRunner, asyncio.Task[None]]]:
    """``publisher`` puts ``host``'s signed ``advert`` of ``room`` on the broker (kept),
    and a spectator watches the room: the spectator and its running task, stopped after."""
    await publisher.publish(topics.lobby(room, presence_id(host.player_id)), advert, retain=True)
    code = room_code(room, host.player_id)
    watcher = SpectatorRunner(broker=broker, identity=Identity.generate("W"), room=code)
    task = asyncio.create_task(watcher.run())
    try:
        yield watcher, task
    finally:
        watcher.stop()
        await stop_task(task)


def drained(watcher: SpectatorRunner) -> list[Any]:
    """The events waiting for the spectator's screen, taken."""
    events = []
    while not watcher.events.empty():
        events.append(watcher.events.get_nowait())
    return events


@contextlib.asynccontextmanager
async def ann_watched(
    embedded: str, client: str
) -> AsyncIterator[tuple[Transport, str, Identity, SpectatorRunner, Any]]:
    """A game Hank hosts with Ann, watched by a spectator, and a stranger's connection to
    its broker (``client``: its id), once the spectator has the table: (the stranger, the
    room, Ann, the spectator, its copy of the game)."""
    broker = BrokerAddress.parse(embedded)
    room = new_room_code()
    host, guest = Identity.generate("Hank"), Identity.generate("Ann")
    async with (
        Transport(broker, client_id=client) as eve,
        watching(eve, broker, room, host, playing_advert(room, host, guest)) as (watcher, _),
    ):
        await until(lambda: watcher.spectator is not None, "the table")
        yield eve, room, guest, watcher, watcher.spectator


def presence(who: Identity, room: str, state: str, connection: int = 0) -> bytes:
    """``who``'s signed presence in ``room`` (said on its ``connection``-th connection; 0:
    unstamped): what it published once, anyone may send again."""
    stamp = lb.presence_stamp(connection, state) if connection else 0
    body = lb.Presence(who.player_id, who.name, state, stamp=stamp).to_data()
    return lb.sign(who.signing_key, room, lb.PRESENCE, body)


async def test_a_flood_of_a_seat_s_presences_sent_again_piles_up_no_events(embedded: str) -> None:
    """Anyone may send again a seat's presences (online, and the offline its last will
    said once), as many as the broker passes on: each was an event for the screen, so a
    spectator whose screen read more slowly than the broker delivered held every one of
    them, without bound, and redrew the screen for each long after the flood. Now a
    presence that changes nothing is no event, and one event waiting unread stands for
    the rest; the seat's last word is the one shown."""
    async with ann_watched(embedded, "eve-flood") as (eve, room, guest, watcher, spectator):
        said = {state: presence(guest, room, state) for state in (lb.ONLINE, lb.OFFLINE)}
        topic = topics.presence(room, presence_id(guest.player_id))
        # nobody reads the events meanwhile: a screen busy drawing, say
        for i in range(FLOOD):
            await eve.publish(topic, said[lb.ONLINE] if i % 2 else said[lb.OFFLINE])
        await eve.publish(topic, said[lb.ONLINE])
        for _ in range(FLOOD):  # the same word, over and over
            await eve.publish(topic, said[lb.ONLINE])
        await eve.publish(topics.log(room), b"flush")
        await until(lambda: spectator.peer.ignored > 0, "the flood to pass", 300)
        kinds = [e.kind for e in drained(watcher)]
        assert kinds.count("presence") <= 2, kinds.count("presence")
        assert watcher.online[guest.player_id] is True


async def test_a_seat_s_old_goodbye_sent_again_does_not_show_it_offline(embedded: str) -> None:
    """Ann's app said she was offline when one connection of hers ended, and online on the
    next. Eve sends the old goodbye again: older than what Ann said since, the spectator
    does not believe it (it showed her offline until her next heartbeat)."""
    async with ann_watched(embedded, "eve-goodbye") as (eve, room, guest, watcher, spectator):
        topic = topics.presence(room, presence_id(guest.player_id))
        await eve.publish(topic, presence(guest, room, lb.ONLINE, connection=2000))
        await until(lambda: watcher.online.get(guest.player_id) is True, "Ann online")
        await eve.publish(topic, presence(guest, room, lb.OFFLINE, connection=1000))
        await eve.publish(topics.log(room), b"flush")
        await until(lambda: spectator.peer.ignored > 0, "the goodbye to pass")
        assert watcher.online[guest.player_id] is True
        # her goodbye from this connection is news, and believed
        await eve.publish(topic, presence(guest, room, lb.OFFLINE, connection=2000))
        await until(lambda: watcher.online.get(guest.player_id) is False, "Ann offline")


async def test_a_host_s_table_no_game_can_be_played_on_is_refused_naming_the_host(
    embedded: str,
) -> None:
    """A host whose advert's table the game cannot be played on (an option the game does
    not have): the spectator failed making its copy of the game, said "ignored a message:
    CakePartyError(…)" naming nobody, and waited for ever, its screen saying the game had
    not started. It now says the host set a table that cannot be played, naming the host
    by name and key, and stops."""
    broker = BrokerAddress.parse(embedded)
    room = new_room_code()
    host, guest = Identity.generate("Hank"), Identity.generate("Ann")
    advert = playing_advert(room, host, guest, options=(("bogus", True),))
    async with (
        Transport(broker, client_id="eve-table") as eve,
        watching(eve, broker, room, host, advert) as (watcher, task),
    ):
        await asyncio.wait_for(task, 60)  # it stops by itself
        events = drained(watcher)
        assert "error" not in [e.kind for e in events]
        (refused,) = [e for e in events if e.kind == "refused"]
        assert refused.said(str) == (
            f"Hank ({fingerprint(host.player_id)}) set a table that cannot be played: "
            "unknown Cake Duel option(s): bogus"
        )
        assert refused.data.peer == host.player_id
        assert watcher.spectator is None


async def test_a_room_of_a_game_this_app_does_not_have_is_said_and_the_watch_stops(
    embedded: str,
) -> None:
    """A room whose table is for a game this app does not have (one of a later version,
    say): the screen said the game had not started, for ever. The spectator now says the
    room plays a game this app does not have, and stops."""
    broker = BrokerAddress.parse(embedded)
    room = new_room_code()
    host, guest = Identity.generate("Hank"), Identity.generate("Ann")
    advert = playing_advert(room, host, guest, game="cake-future")
    async with (
        Transport(broker, client_id="eve-game") as eve,
        watching(eve, broker, room, host, advert) as (watcher, task),
    ):
        await asyncio.wait_for(task, 60)  # it stops by itself
        (refused,) = [e for e in drained(watcher) if e.kind == "refused"]
        code = room_code(room, host.player_id)
        assert refused.said(str) == f"room {code} plays cake-future, a game this app does not have"
        assert watcher.spectator is None


async def test_a_host_flooding_new_adverts_piles_up_no_events(embedded: str) -> None:
    """A host may publish a new advert of its open room as fast as the broker takes
    them, each newer than the last: each was an event a spectator's screen had to read,
    held without bound while it read more slowly. One advert event waiting unread now
    stands for those after it; the spectator holds the newest advert."""
    broker = BrokerAddress.parse(embedded)
    room = new_room_code()
    host = Identity.generate("Hank")
    topic = topics.lobby(room, presence_id(host.player_id))
    advert = Advert(
        room=room, game="cake-duel", host=host.player_id, host_name=host.name, seats=2,
        taken=(Seat(host.player_id, host.name),), state=OPEN,
    )  # fmt: skip
    first = lb.sign(host.signing_key, room, lb.ADVERT, advert.to_data())
    async with (
        Transport(broker, client_id="hank-flood") as hank,
        watching(hank, broker, room, host, first) as (watcher, _),
    ):
        await until(lambda: watcher.advert is not None, "the advert")
        for serial in range(1, FLOOD + 1):  # nobody reads the events meanwhile
            newer = replace(advert, serial=serial)
            await hank.publish(topic, lb.sign(host.signing_key, room, lb.ADVERT, newer.to_data()))
        await until(
            lambda: watcher.advert is not None and watcher.advert.serial == FLOOD,
            "the flood to pass",
            300,
        )
        kinds = [e.kind for e in drained(watcher)]
        assert kinds.count("advert") <= 2, kinds.count("advert")


async def test_a_host_showing_spectators_another_table_is_named_not_its_players(
    embedded: str,
) -> None:
    """A host whose advert shows spectators another table than the one its players play
    (another nonce): every seat's first envelope then fails to follow the spectator's
    log, and the spectator blamed each player ("envelope does not follow the log") while
    it waited for ever. Once every seat has begun from one other table, it now names the
    host as the one who misled it, blames no player, and stops."""
    broker = BrokerAddress.parse(embedded)
    room = new_room_code()
    match = MentalMatch("cake-duel", 2, 11, room=room)
    host = match.identities[0]
    shown = replace(match.table, nonce=bytes(16))  # not the table played
    advert = Advert(
        room=room, game="cake-duel", host=host.player_id, host_name=host.name, seats=2,
        taken=tuple(Seat(p, n) for p, n in zip(shown.players, shown.names, strict=True)),
        state=PLAYING, table=shown, serial=5,
    )  # fmt: skip
    signed = lb.sign(host.signing_key, room, lb.ADVERT, advert.to_data())
    async with (
        Transport(broker, client_id="host-lies") as liar,
        watching(liar, broker, room, host, signed) as (watcher, task),
    ):
        await until(lambda: watcher.spectator is not None, "the table")
        for data in match.peers[0].envelopes_since(0):  # the game, as its seats play it
            await liar.publish(topics.log(room), data)
        await asyncio.wait_for(task, 60)  # it stops by itself
        (refused,) = [e for e in drained(watcher) if e.kind == "refused"]
        assert refused.said(str) == (
            f"{host.name} ({fingerprint(host.player_id)}) showed spectators another table "
            "than its players play"
        )
        assert refused.data.peer == host.player_id
        spectator = watcher.spectator
        assert spectator is not None and list(spectator.peer.incidents) == []

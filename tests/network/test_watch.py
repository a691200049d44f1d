"""A spectator watches two bots play Cake Duel on a real Mosquitto, joining late.

Two ``cakeparty bot`` processes play a room hosted (without a seat) by the test; once the
game is under way a spectator starts. It catches up from the seats' backlog, follows the
log live, never holds a card that is not public in any state, and after the audit holds
the face-up replay, the same one the seats' audit reached. The log the players keep holds
no envelope of the spectator's key, and the spectator wrote nothing on the log topic; the
lobby side counted it as watching.
"""

from __future__ import annotations

import asyncio
import contextlib
import gettext
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cakeparty.core.i18n import DOMAIN, locale_dir
from cakeparty.protocol import steps as st
from cakeparty.protocol import topics
from cakeparty.protocol.codec import decode
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import read_game
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner, client_id
from cakeparty.protocol.spectator import SpectatorRunner, WatchEvent, hidden_cards
from cakeparty.protocol.transport import BrokerAddress, Transport

from ..brokers import Mosquitto
from .test_sealed_crash import kill_bots, start_bot, until

DEADLINE = 300.0


def seatless_host(broker: BrokerAddress, room: str, tmp_path: Path, **more: Any) -> RoomRunner:
    """A runner hosting a two-seat Cake Duel ``room`` without a seat of its own."""
    return RoomRunner(
        broker=broker,
        identity=Identity.generate("Host"),
        room=room,
        host=HostSetup("cake-duel", 2, {}, timeout=300),
        seated=False,
        journal_dir=tmp_path / "host",
        **more,
    )


def in_language(language: str) -> Callable[[str], str]:
    """The app's catalog of ``language``, as a user interface translates with it."""
    return gettext.translation(DOMAIN, locale_dir(), [language]).gettext


def log_of(home: Path) -> list[bytes]:
    """The envelopes of the game's log a bot kept in its journal."""
    (path,) = (home / "data" / "rooms").glob("*.journal")
    _table, _secret, records = read_game(path)
    return [r for r in records if decode(r).kind in st.KINDS]


async def test_a_late_spectator_sees_public_cards_only_then_the_replay(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    broker = BrokerAddress.parse(mosquitto.url)
    room = new_room_code()
    host = seatless_host(broker, room, tmp_path, linger=600)
    hosting = asyncio.create_task(host.run())
    bots = [
        await start_bot(tmp_path / f"bot{i}", room, mosquitto.url, game="cake-duel", name=f"B{i}")
        for i in range(2)
    ]
    heard: list[bytes] = []  # everything on the log topic, as any listener hears it
    watcher = Identity.generate("Watcher")
    watching: asyncio.Task[None] | None = None
    async with Transport(broker, client_id=client_id()) as tap:
        await tap.subscribe(topics.log(room))

        async def listen() -> None:
            async for message in tap.messages():
                heard.append(message.payload)

        listening = asyncio.create_task(listen())
        try:
            await until(lambda: len(heard) >= 12, "the game is under way", DEADLINE)
            spectator = SpectatorRunner(broker=broker, identity=watcher, room=host.code)
            watching = asyncio.create_task(spectator.run())
            await until(lambda: spectator.peer is not None, "the spectator has the table")
            peer = spectator.peer
            assert peer is not None
            await until(
                lambda: host.watchers.count(time.monotonic()) == 1, "the lobby counts a watcher"
            )
            leaks: list[list[int]] = []
            seqs: set[int] = set()

            def check() -> bool:
                if not peer.finished:
                    seqs.add(peer.seq)
                    found = hidden_cards(peer)
                    if found:
                        leaks.append(found)
                return peer.verdict is not None

            await until(check, "the spectator's audit", DEADLINE)
            results = []
            for bot in bots:
                out, err = await asyncio.wait_for(bot.communicate(), DEADLINE)
                lines = out.decode().strip().splitlines()
                assert lines, err.decode()[-2000:]
                results.append(json.loads(lines[-1]))
        finally:
            await kill_bots(bots)
            host.stop()
            if watching is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(watching, 10)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(hosting, 10)
            listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listening

    # it caught up from the seats (it came late) and then followed live
    assert max(seqs) > 20  # it followed the room to the end of the game
    assert str(topics.catch_up(room)) in {topic for topic, _ in spectator.published}
    # never a hidden identity in any state it held: polled live, and every state rebuilt
    assert leaks == []
    game = peer.game
    state = game.new_state(peer.table.seats, peer.table.option_map)
    for seat, action in peer.history:
        state = game.apply(state, action, seat)
        assert hidden_cards(peer, state) == []
    # after the audit: the face-up replay, as the seats' own audits found it
    verdict = peer.verdict
    assert verdict.fair and verdict.replay is not None
    assert verdict.replay.history and verdict.replay.outcome == peer.outcome
    assert all(r["audit"] == "fair" for r in results), results
    assert list(peer.outcome.winners) == results[0]["winner"]
    # the players' log: what the spectator checked, and nothing of the spectator's
    logs = [log_of(tmp_path / f"bot{i}") for i in range(2)]
    assert logs[0] == logs[1]
    assert logs[0] == [e.to_bytes() for step in peer.log for e in step]
    assert all(decode(d).sender != watcher.player_id for d in logs[0])
    senders = {decode(d).sender for d in heard if d}
    assert watcher.player_id not in senders
    assert str(topics.log(room)) not in {topic for topic, _ in spectator.published}
    assert {topic for topic, _ in spectator.published} <= {
        str(topics.watchers(room, watcher.player_id.hex()[:32])),
        str(topics.catch_up(room)),
    }


async def test_a_host_closing_its_room_mid_game_ends_it_for_bots_and_spectators(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    """Two ``cakeparty bot`` processes play a room its host (seatless) closes mid-game:
    a spectator watching hears that the host closed it, and each bot process ends by
    itself, saying so."""
    broker = BrokerAddress.parse(mosquitto.url)
    room = new_room_code()
    host = seatless_host(broker, room, tmp_path)
    hosting = asyncio.create_task(host.run())
    bots = [  # slow enough that the game is still on when its host leaves
        await start_bot(
            tmp_path / f"bot{i}", room, mosquitto.url, game="cake-duel", name=f"B{i}", delay=2
        )
        for i in range(2)
    ]
    spectator = SpectatorRunner(broker=broker, identity=Identity.generate("W"), room=host.code)
    watching = asyncio.create_task(spectator.run())
    heard: list[WatchEvent] = []

    async def listen() -> None:
        while True:
            heard.append(await spectator.events.get())

    listening = asyncio.create_task(listen())
    try:
        await until(lambda: spectator.peer is not None, "the spectator has the table", DEADLINE)
        assert spectator.peer is not None and not spectator.peer.finished
        host.close()
        await asyncio.wait_for(hosting, 20)
        await until(lambda: spectator.closed_by_host, "the spectator hears it", DEADLINE)
        # said in the user's language (the words were English whatever it was)
        (closed,) = [event for event in heard if event.kind == "closed"]
        assert closed.said(in_language("es")) == "Host cerró la sala"
        assert closed.said(in_language("pl")) == "Host zamyka pokój"
        (connected, *_more) = [event for event in heard if event.kind == "connection"]
        assert connected.said(in_language("es")) == f"conectado a {broker}"
        for bot in bots:
            out, err = await asyncio.wait_for(bot.communicate(), DEADLINE)
            result = json.loads(out.decode().strip().splitlines()[-1])
            assert bot.returncode == 1, err.decode()[-2000:]
            assert result["audit"] == "room closed by its host", result
    finally:
        await kill_bots(bots)
        host.stop()
        spectator.stop()
        for task in (watching, hosting):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, 10)
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening

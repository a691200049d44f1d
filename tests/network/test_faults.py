"""A networked duel survives the real network: peers that die, a broker that restarts,
duplicated and re-ordered envelopes, and strangers who publish garbage or forgeries."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

from cakeparty.protocol import topics
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.transport import BrokerAddress, Transport

from ..brokers import Mosquitto, embedded_broker_process
from .netgame import NetGame, assert_fair_and_agreed


async def test_a_peer_killed_mid_bout_comes_back_and_the_duel_completes(
    broker_url: str, tmp_path: Path
) -> None:
    async with NetGame(broker_url, 2, tmp_path) as game:
        await game.log_reaches(40)  # keys, shuffles, deals and a few moves are done
        victim = game.bots[1]
        victim.kill()
        await victim.proc.wait()  # type: ignore[union-attr]
        await asyncio.sleep(0.5)
        await victim.start()  # same key, same journal: it resumes and catches up
        results = await game.results()
        assert_fair_and_agreed(results)


async def test_a_mosquitto_restart_mid_bout_is_survived(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    async with NetGame(mosquitto.url, 2, tmp_path) as game:
        await game.log_reaches(40)
        mosquitto.stop()
        await asyncio.sleep(1.0)
        mosquitto.start()
        assert_fair_and_agreed(await game.results())


async def test_an_embedded_broker_restart_mid_bout_is_survived(tmp_path: Path) -> None:
    # the embedded broker keeps nothing across a restart: the peers resync from each other
    from cakeparty.broker.embedded import free_port

    port = free_port()
    broker = embedded_broker_process(port)
    url = broker.__enter__()
    try:
        async with NetGame(url, 2, tmp_path) as game:
            await game.log_reaches(40)
            broker.__exit__(None, None, None)
            await asyncio.sleep(1.0)
            broker = embedded_broker_process(port)
            broker.__enter__()
            assert_fair_and_agreed(await game.results())
    finally:
        broker.__exit__(None, None, None)


async def test_a_subscription_the_broker_answers_late_holds_and_raises_no_error(
    mosquitto: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    """A broker frozen past the client's wait for a subscription (5 s) acknowledges it once
    it runs again: the subscription holds, and the late acknowledgement is no error on
    stderr (the MQTT library reports one as an exception with a traceback)."""
    caplog.set_level(logging.WARNING)
    address = BrokerAddress.parse(mosquitto.url)
    topic = topics.chat("LATE01")
    async with (
        Transport(address, client_id="late-reader") as reader,
        Transport(address, client_id="late-writer") as writer,
    ):
        assert mosquitto.process is not None
        pid = mosquitto.process.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            await reader.subscribe(topic)  # gives up waiting after 5 s, quietly
        finally:
            os.kill(pid, signal.SIGCONT)
        received: asyncio.Queue[bytes] = asyncio.Queue()

        async def read() -> None:
            async for message in reader.messages():
                received.put_nowait(message.payload)

        reading = asyncio.create_task(read())
        # the broker may read the publish before the subscription it has waiting: publish
        # again until one arrives (a message on the topic follows the acknowledgement)
        payload = b""
        try:
            for attempt in range(60):
                await writer.publish(topic, b"hello %d" % attempt)
                with contextlib.suppress(TimeoutError):
                    payload = await asyncio.wait_for(received.get(), 1.0)
                    break
        finally:
            reading.cancel()
        assert payload.startswith(b"hello")
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not loud, [r.getMessage() for r in loud]


async def chaos(url: str, room: str, stop: asyncio.Event, seed: int) -> int:
    """Publishes every log message again, late and out of order."""
    rng = random.Random(seed)
    sent = 0
    async with Transport(BrokerAddress.parse(url), client_id=f"chaos-{seed}") as t:
        await t.subscribe(topics.log(room))
        held: list[bytes] = []

        async def read() -> None:
            async for message in t.messages():
                held.append(message.payload)

        reader = asyncio.create_task(read())
        while not stop.is_set():
            await asyncio.sleep(0.05)
            rng.shuffle(held)
            for data in held[: rng.randint(0, len(held))]:
                await t.publish(topics.log(room), data)
                sent += 1
            del held[: len(held) // 2]
        reader.cancel()
    return sent


async def test_duplicated_and_reordered_envelopes_change_nothing(
    broker_url: str, tmp_path: Path
) -> None:
    stop = asyncio.Event()
    async with NetGame(broker_url, 2, tmp_path) as game:
        agent = asyncio.create_task(chaos(broker_url, game.room, stop, 1))
        results = await game.results()
        stop.set()
        assert await agent > 50
    assert_fair_and_agreed(results)
    assert all(r["incidents"] == [] for r in results), results


async def stranger(url: str, room: str, stop: asyncio.Event) -> int:
    """Publishes garbage, forged and replayed envelopes on the room's log topic."""
    rng = random.Random(2)
    eve = Identity.generate("Eve")
    sent = 0
    async with Transport(BrokerAddress.parse(url), client_id="stranger") as t:
        await t.subscribe(topics.log(room))
        seen: list[bytes] = []

        async def read() -> None:
            async for message in t.messages():
                if message.payload:  # the empty garbage it sent itself comes back too
                    seen.append(message.payload)

        reader = asyncio.create_task(read())
        while not stop.is_set():
            await asyncio.sleep(0.1)
            junk = [
                os.urandom(rng.randint(0, 300)),
                b"\x88\xa1v\x01",
                seal(
                    eve.signing_key,
                    room=room,
                    seq=rng.randint(0, 50),
                    prev=bytes(32),
                    kind="action",
                    body={"a": ["pass"]},
                ).to_bytes(),
            ]
            if seen:
                old = bytearray(rng.choice(seen))
                junk.append(bytes(old))  # replayed as is
                if old:
                    old[rng.randrange(len(old))] ^= 0x40
                    junk.append(bytes(old))  # altered: the signature breaks
            for data in junk:
                await t.publish(topics.log(room), data)
                sent += 1
        reader.cancel()
    return sent


async def test_a_stranger_publishing_garbage_forgeries_and_replays_changes_nothing(
    broker_url: str, tmp_path: Path
) -> None:
    stop = asyncio.Event()
    async with NetGame(broker_url, 2, tmp_path) as game:
        agent = asyncio.create_task(stranger(broker_url, game.room, stop))
        results = await game.results()
        stop.set()
        assert await agent > 30
    assert_fair_and_agreed(results)


async def test_a_peer_gone_past_the_timeout_leaves_the_game_abandoned(
    mosquitto: Mosquitto, tmp_path: Path
) -> None:
    async with NetGame(mosquitto.url, 2, tmp_path, timeout=3) as game:
        await game.log_reaches(40)
        game.bots[1].kill()  # and it never comes back
        result = await game.bots[0].finish(60)
    # the survivor's table seat need not be its process number
    assert result["audit"] == f"abandoned by seat {1 - result['seat']}"


async def seated_flood(url: str, room: str, game: NetGame, seat: int, stop: asyncio.Event) -> int:
    """Seat ``seat``'s own key (stolen from its bot) floods the room while its bot plays:
    far-future and next-step envelopes with big bodies, sync requests, replays, junk."""
    import importlib.util
    import sys

    from cakeparty.protocol.codec import decode
    from cakeparty.protocol.identity import load

    path = Path(__file__).resolve().parents[2] / "bench" / "soak.py"
    spec = importlib.util.spec_from_file_location("bench_soak", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_soak"] = bench
    spec.loader.exec_module(bench)
    seated = load(game.bots[seat].home / "config")
    assert seated is not None
    table = game.host.table
    assert table is not None
    rng = random.Random(11)
    sent = 0
    async with Transport(BrokerAddress.parse(url), client_id="seated-flood") as t:
        await t.subscribe(topics.log(room))
        log: list[Any] = []

        async def read() -> None:
            async for message in t.messages():
                with contextlib.suppress(Exception):
                    log.append(decode(message.payload))
                    del log[:-200]

        reader = asyncio.create_task(read())
        while not stop.is_set():
            seq = max((e.seq for e in log), default=0)
            for data in bench.flood(rng, table, seated, log, seq):
                await t.publish(topics.log(room), data)
                sent += 1
            await asyncio.sleep(0.2)
        reader.cancel()
    return sent


async def test_a_seated_player_flooding_the_room_neither_crashes_nor_wedges_the_other(
    broker_url: str, tmp_path: Path
) -> None:
    from cakeparty.protocol.identity import load

    stop = asyncio.Event()
    async with NetGame(broker_url, 2, tmp_path) as game:
        await game.log_reaches(20)
        agent = asyncio.create_task(seated_flood(broker_url, game.room, game, 1, stop))
        try:
            results = await game.results()  # both processes finish: nothing crashed or hung
        finally:
            stop.set()
        assert await agent > 100
        table = game.host.table
        stolen = load(game.bots[1].home / "config")
        assert table is not None and stolen is not None
        flooder = table.seat_of(stolen.player_id)
    (honest,) = [r for r in results if r["seat"] != flooder]
    # the honest seat's game ends with a winner, and its audit is fair or names the
    # flooder (whose key signed the junk), never the honest seat itself
    assert honest["winner"] is not None, results
    assert honest["audit"] == "fair" or honest["audit"].startswith(f"seat {flooder}:"), results

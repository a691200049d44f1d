"""The MQTT transport against real brokers: the embedded one and Mosquitto."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable

import pytest

from cakeparty.broker.embedded import EmbeddedBroker, free_port
from cakeparty.protocol import topics
from cakeparty.protocol.transport import BrokerAddress, Message, Transport, TransportError

from ..brokers import NO_MOSQUITTO, Mosquitto, mosquitto_binary

ROOM = "TEST42"
PLAYER = "a1b2c3d4e5f6"


@pytest.fixture(params=["embedded", "mosquitto"])
async def broker_url(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    if request.param == "embedded":
        async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
            yield broker.url
    else:
        if mosquitto_binary() is None:
            pytest.skip(NO_MOSQUITTO)
        with Mosquitto() as mosquitto:
            yield mosquitto.url


async def next_message(
    t: Transport, where: Callable[[Message], bool], timeout: float = 10
) -> Message:
    async def find() -> Message:
        async for message in t.messages():
            if where(message):
                return message
        raise AssertionError("transport closed")

    return await asyncio.wait_for(find(), timeout)


def test_broker_addresses_parse() -> None:
    assert BrokerAddress.parse("mqtt://example.org") == BrokerAddress("example.org", 1883)
    assert BrokerAddress.parse("example.org:1999") == BrokerAddress("example.org", 1999)
    tls = BrokerAddress.parse("mqtts://ann:s%40cret@broker.example:8884")
    assert tls == BrokerAddress("broker.example", 8884, True, "ann", "s@cret")
    assert str(tls) == "mqtts://ann@broker.example:8884"  # no password when shown
    assert BrokerAddress.parse("mqtts://h").port == 8883
    for bad in ("http://x", "mqtt://", "mqtt://h:notaport", "mqtt://h/path", "mqtt://h:99999"):
        with pytest.raises(ValueError):
            BrokerAddress.parse(bad)
    # an address is shown: what is no text for a screen (here, escape sequences) is none
    for bad in ("mqtt://h\x1b[2J:1883", "mqtt://%1b%5b2J@h:1883", "mqtt://a\nb"):
        with pytest.raises(ValueError):
            BrokerAddress.parse(bad)
    odd = BrokerAddress.parse("mqtt://a%40b:pw@h")  # a user name with an @ in it
    assert odd.username == "a@b" and str(odd) == "mqtt://a%40b@h:1883"
    assert BrokerAddress.parse(str(odd)).username == "a@b"
    # to connect again: the password too; for others: no login at all
    assert BrokerAddress.parse(tls.url) == tls and tls.url.startswith("mqtts://ann:s%40cret@")
    assert str(tls.public) == "mqtts://broker.example:8884" and tls.public.password is None


def test_topics_come_from_one_place_and_check_themselves() -> None:
    assert str(topics.log(ROOM)) == "cakeparty/v1/rooms/TEST42/log"
    assert str(topics.lobby(ROOM, PLAYER)) == f"cakeparty/v1/lobby/TEST42/{PLAYER}"
    assert topics.lobby_host(str(topics.lobby(ROOM, PLAYER))) == PLAYER
    assert topics.room_of(str(topics.lobby(ROOM, PLAYER))) == ROOM
    assert str(topics.presence(ROOM, PLAYER)) == f"cakeparty/v1/rooms/TEST42/presence/{PLAYER}"
    assert topics.lobby_all().is_filter and not topics.chat(ROOM).is_filter
    assert topics.room_of("cakeparty/v1/rooms/TEST42/chat") == ROOM
    for bad in ("x/#/y", "a//b", "a/b+", ""):
        with pytest.raises(ValueError):
            topics.Topic(bad)
    for bad_room in ("test42", "A", "ROOM/1", "+"):
        with pytest.raises(ValueError):
            topics.log(bad_room)


async def test_publish_subscribe_and_retained_adverts(broker_url: str) -> None:
    address = BrokerAddress.parse(broker_url)
    async with (
        Transport(address, client_id="reader") as reader,
        Transport(address, client_id="writer") as writer,
    ):
        await reader.subscribe(topics.log(ROOM))
        await writer.publish(topics.log(ROOM), b"\x00\x01envelope")
        got = await next_message(reader, lambda m: m.topic == str(topics.log(ROOM)))
        assert got.payload == b"\x00\x01envelope" and not got.retained
        await writer.publish(topics.lobby(ROOM, PLAYER), b"advert", retain=True)
        await asyncio.sleep(0)  # the advert is retained by the broker for late readers
    async with Transport(address, client_id="late") as late:
        await late.subscribe(topics.lobby_all())
        advert = await next_message(late, lambda m: m.topic == str(topics.lobby(ROOM, PLAYER)))
        assert advert.payload == b"advert" and advert.retained
        await late.clear_retained(topics.lobby(ROOM, PLAYER))
    async with Transport(address, client_id="later") as later:
        await later.subscribe(topics.lobby_all())
        await later.subscribe(topics.log("EMPTY1"))
        # a fresh message proves the subscription works; the cleared advert never comes
        async with Transport(address, client_id="w2") as w2:
            await w2.publish(topics.log("EMPTY1"), b"ping")
        first = await next_message(later, lambda m: True)
        assert first.topic == str(topics.log("EMPTY1"))


async def test_an_unreachable_broker_is_a_clear_error() -> None:
    address = BrokerAddress("127.0.0.1", free_port())
    with pytest.raises(
        TransportError, match=f"cannot reach the broker at mqtt://127.0.0.1:{address.port}"
    ):
        async with Transport(address, client_id="lonely", connect_timeout=1.5):
            pass


async def test_a_refused_first_connection_fails_at_once_not_after_the_timeout() -> None:
    # nobody listens: the first attempt is refused, which no retry changes. With a timeout
    # of ten minutes, only failing on the refusal itself ends this within the watchdog.
    address = BrokerAddress("127.0.0.1", free_port())
    transport = Transport(address, client_id="refused", connect_timeout=600)
    with pytest.raises(TransportError, match="Connection refused"):
        await asyncio.wait_for(transport.__aenter__(), 60)
    assert transport.connections == 0 and transport.closing


async def test_a_transport_cancelled_while_connecting_leaves_no_loop_behind() -> None:
    """Its owner stopped while the broker had not answered yet (an app closed as a room
    opens): the connection loop ends with it, and nothing keeps reconnecting (a loop left
    behind hung the event loop's shutdown)."""

    async def silent(_reader: asyncio.StreamReader, _writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(3600)  # accepts the connection, never answers it

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        transport = Transport(BrokerAddress("127.0.0.1", port), client_id="cut", connect_timeout=60)
        entering = asyncio.create_task(transport.__aenter__())
        while transport._runner is None:
            await asyncio.sleep(0)
        entering.cancel()
        with pytest.raises(asyncio.CancelledError):
            await entering
        assert transport.closing and transport._runner.done()
        assert not [t for t in asyncio.all_tasks() if t.get_name() == "mqtt:cut"]
    finally:
        server.close()


async def test_a_refused_first_connection_is_retried_when_asked_to_wait() -> None:
    # a host's own broker may still be starting: fail_fast=False keeps trying until it is up
    from ..brokers import embedded_broker_process

    port = free_port()
    address = BrokerAddress("127.0.0.1", port)
    transport = Transport(address, client_id="patient", connect_timeout=60, fail_fast=False)
    entering = asyncio.create_task(transport.__aenter__())
    while transport.last_error is None:  # refused at least once
        await asyncio.sleep(0.05)
    assert not entering.done()
    with embedded_broker_process(port):
        await asyncio.wait_for(entering, 60)
        assert transport.connected
        await transport.close()


PEER = textwrap.dedent(
    """
    import asyncio, sys
    from cakeparty.protocol import topics
    from cakeparty.protocol.transport import BrokerAddress, Transport

    async def main():
        presence = topics.presence("TEST42", "a1b2c3d4e5f6")
        async with Transport(BrokerAddress.parse(sys.argv[1]), client_id="doomed",
                             will=(presence, b"offline"), online=(presence, b"online")):
            print("up", flush=True)
            await asyncio.Event().wait()

    asyncio.run(main())
    """
)


async def test_a_vanished_peer_is_announced_by_its_last_will(broker_url: str) -> None:
    address = BrokerAddress.parse(broker_url)
    async with Transport(address, client_id="watcher") as watcher:
        await watcher.subscribe(topics.presence_all(ROOM))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", PEER, broker_url, stdout=subprocess.PIPE
        )
        assert proc.stdout is not None
        assert (await asyncio.wait_for(proc.stdout.readline(), 20)).strip() == b"up"
        online = await next_message(watcher, lambda m: m.payload in (b"online", b"offline"))
        assert online.payload == b"online"
        os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
        gone = await next_message(watcher, lambda m: m.payload == b"offline", timeout=30)
        assert gone.topic == str(topics.presence(ROOM, PLAYER))


async def test_a_clean_exit_says_goodbye_last_whatever_the_heartbeat(broker_url: str) -> None:
    """The goodbye is the last word on the presence topic: a heartbeat due while it is
    said never repeats "online" after it (a watcher would count a spectator who left)."""
    address = BrokerAddress.parse(broker_url)
    presence = topics.presence(ROOM, PLAYER)
    for attempt in range(5):
        leaving = Transport(
            address, client_id=f"leaving{attempt}", heartbeat=0.005,
            will=(presence, b"offline"), online=(presence, b"online"), offline=b"offline",
        )  # fmt: skip
        async with leaving:
            await asyncio.sleep(0.05)  # several beats
        async with Transport(address, client_id=f"late{attempt}") as late:
            await late.subscribe(topics.presence_all(ROOM))
            last = await next_message(late, lambda m: m.topic == str(presence))
            assert (attempt, last.payload) == (attempt, b"offline") and last.retained


async def test_the_transport_survives_a_broker_restart() -> None:
    if mosquitto_binary() is None:
        pytest.skip(NO_MOSQUITTO)
    with Mosquitto() as mosquitto:
        address = BrokerAddress.parse(mosquitto.url)
        async with (
            Transport(address, client_id="steady", backoff=(0.05, 0.5)) as steady,
            Transport(address, client_id="talker", backoff=(0.05, 0.5)) as talker,
        ):
            await steady.subscribe(topics.log(ROOM))
            mosquitto.stop()
            await asyncio.sleep(0.3)
            # published while the broker is down: kept, in order, and sent on reconnection
            await talker.publish(topics.log(ROOM), b"one")
            await talker.publish(topics.log(ROOM), b"two")
            mosquitto.start()
            await steady.wait_connected(15)
            await talker.wait_connected(15)
            # Mosquitto kept the persistent session of "steady" across the restart
            first = await next_message(steady, lambda m: True, timeout=15)
            second = await next_message(steady, lambda m: True, timeout=15)
            assert (first.payload, second.payload) == (b"one", b"two")
            assert steady.connections >= 2 and talker.connections >= 2
            await talker.publish(topics.log(ROOM), b"three")
            third = await next_message(steady, lambda m: True, timeout=15)
            assert third.payload == b"three"


async def test_the_embedded_broker_refuses_a_port_in_use() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        with pytest.raises(OSError, match="already in use"):
            await EmbeddedBroker(host="127.0.0.1", port=broker.port).start()


async def test_the_embedded_broker_drops_a_client_that_sends_an_oversized_packet() -> None:
    from cakeparty.broker.embedded import MAX_PACKET_BYTES
    from cakeparty.protocol.codec import MAX_ENVELOPE_BYTES

    assert MAX_PACKET_BYTES > MAX_ENVELOPE_BYTES  # the largest envelope peers accept passes
    async with EmbeddedBroker(host="127.0.0.1", port=0, max_packet=64 * 1024) as broker:
        address = BrokerAddress.parse(broker.url)
        async with Transport(address, client_id="listener") as listener:
            await listener.subscribe(topics.log(ROOM))
            async with Transport(address, client_id="flooder") as flooder:
                await flooder.publish(topics.log(ROOM), b"x" * (65 * 1024))
            async with Transport(address, client_id="honest") as honest:
                await honest.publish(topics.log(ROOM), b"ok" * 1000)
            message = await next_message(listener, lambda m: True)
            assert message.payload == b"ok" * 1000  # the oversized one was never relayed


async def test_what_arrives_faster_than_it_is_read_is_bounded_in_bytes() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        address = BrokerAddress.parse(broker.url)
        async with Transport(address, client_id="slow", max_queued_bytes=10_000) as slow:
            await slow.subscribe(topics.log(ROOM))
            async with Transport(address, client_id="fast") as fast:
                for n in range(30):
                    await fast.publish(topics.log(ROOM), bytes([n]) * 1000)
                await fast.publish(topics.log(ROOM), b"")  # a marker, zero bytes: always kept

            async def all_arrived() -> None:
                while slow.received() + slow.dropped < 31:
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(all_arrived(), 10)  # kept or dropped, before any is read
            got: list[bytes] = []
            while not got or got[-1] != b"":
                got.append((await next_message(slow, lambda m: True)).payload)
            assert len(got) == 11 and slow.dropped == 20
            assert got[:3] == [bytes([0]) * 1000, bytes([1]) * 1000, bytes([2]) * 1000]


async def test_the_embedded_broker_keeps_a_bounded_number_of_retained_messages() -> None:
    """Anyone who can connect can ask the broker to keep messages for clients to come:
    past its bound, a message on a new topic is relayed but not kept; one kept may still
    change or be cleared, which makes room again."""
    async with EmbeddedBroker(host="127.0.0.1", port=0, max_retained=(20, 4000)) as broker:
        address = BrokerAddress.parse(broker.url)
        async with Transport(address, client_id="listener") as listener:
            await listener.subscribe(topics.lobby_all())
            async with Transport(address, client_id="flooder") as flooder:
                for n in range(50):  # 50 topics, 100 bytes each: 20 are kept
                    await flooder.publish(
                        topics.lobby(f"ROOM{n:02d}", "e" * 32), b"x" * 100, retain=True
                    )
                await flooder.publish(topics.lobby("ROOM00", "e" * 32), b"y" * 100, retain=True)
                await flooder.publish(topics.lobby("ROOM01", "e" * 32), b"", retain=True)
                await flooder.publish(topics.lobby("ROOM99", "e" * 32), b"late", retain=True)
                await flooder.publish(topics.lobby("ROOM98", "e" * 32), b"z" * 3000, retain=True)
            # every one was relayed to the client subscribed then
            seen = 0
            while seen < 54:
                await next_message(listener, lambda m: True)
                seen += 1
        kept: dict[str, bytes] = {}
        async with Transport(address, client_id="late") as late:
            await late.subscribe(topics.lobby_all())
            await late.publish(topics.lobby("ROOM97", "e" * 32), b"end")  # not retained
            while True:
                message = await next_message(late, lambda m: True)
                if message.payload == b"end":
                    break
                kept[message.topic.split("/")[3]] = message.payload
    assert len(kept) == 20  # the bound
    assert kept["ROOM00"] == b"y" * 100  # a kept one changed
    assert "ROOM01" not in kept and kept["ROOM99"] == b"late"  # cleared: room for another
    assert "ROOM98" not in kept  # over the bound in bytes
    assert set(kept) == {f"ROOM{n:02d}" for n in (0, *range(2, 20))} | {"ROOM99"}


async def test_an_attempt_a_silent_broker_never_answers_lets_its_socket_go() -> None:
    """A broker that takes the connection and never answers it: once the attempt gives
    up, its socket is closed there and then, before the next attempt (the broker reads
    the end of the first connection before the second comes), not left open until the
    client is collected, when closing it called back into a closed event loop
    ("Exception ignored in: Client.__del__")."""
    import gc

    ended: list[asyncio.Event] = []
    open_before: list[int] = []  # at each connection: how many earlier ones were open

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        open_before.append(sum(not e.is_set() for e in ended))
        done = asyncio.Event()
        ended.append(done)
        while await reader.read(1024):
            pass  # never a CONNACK
        done.set()
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = Transport(BrokerAddress("127.0.0.1", port), client_id="x", fail_fast=False)
    entering = asyncio.create_task(transport.__aenter__())
    gc.disable()  # no collection closes the socket in its place
    try:
        while len(open_before) < 2:  # the first attempt timed out; the second came
            await asyncio.sleep(0.05)
        assert transport.last_error is not None
        assert open_before[:2] == [0, 0], open_before
    finally:
        gc.enable()
        entering.cancel()
        with contextlib.suppress(BaseException):
            await entering
        await transport.close()
        server.close()

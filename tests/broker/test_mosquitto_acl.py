"""The sample Mosquitto policy: a player writes its own presence and adverts and no one
else's, and nobody can take over another player's connection."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cakeparty.broker.embedded import free_port
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import (
    NEXT_ROOM,
    HostSetup,
    RoomRunner,
    offer_next_room,
    presence_id,
    wait_next_room,
)
from cakeparty.protocol.transport import BrokerAddress, Transport, TransportError

from ..brokers import NO_MOSQUITTO, configured_mosquitto, mosquitto_binary

SAMPLE = Path(__file__).resolve().parents[2] / "broker"
ANN = "a" * 32
BOB = "b" * 32
HANK = Identity.generate("Hank", lambda n: bytes(range(n)))  # a host, with its own login
HANK_LOGIN = presence_id(HANK.player_id)
GINA = Identity.generate("Gina", lambda n: bytes(range(1, n + 1)))  # a guest with a login
GINA_LOGIN = presence_id(GINA.player_id)


@pytest.fixture
def guarded() -> Iterator[int]:
    passwd = shutil.which("mosquitto_passwd")
    if mosquitto_binary() is None or passwd is None:
        pytest.skip(NO_MOSQUITTO)
    # started as root, Mosquitto drops to its own user: it must be able to read these
    tmp_path = Path(tempfile.mkdtemp(prefix="cakeparty-acl-"))
    tmp_path.chmod(0o755)
    secrets = tmp_path / "passwd"
    subprocess.run([passwd, "-c", "-b", str(secrets), ANN, "ann-pw"], check=True)
    subprocess.run([passwd, "-b", str(secrets), BOB, "bob-pw"], check=True)
    subprocess.run([passwd, "-b", str(secrets), HANK_LOGIN, "hank-pw"], check=True)
    subprocess.run([passwd, "-b", str(secrets), GINA_LOGIN, "gina-pw"], check=True)
    secrets.chmod(0o644)
    acl = tmp_path / "acl"
    acl.write_text((SAMPLE / "mosquitto.acl").read_text())
    acl.chmod(0o644)
    port = free_port()
    # the sample's policy with this test's paths and port (no TLS here)
    sample = (SAMPLE / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in sample and "acl_file" in sample
    assert "\nuse_username_as_clientid true\n" in sample
    conf = (
        f"listener {port} 127.0.0.1\nallow_anonymous false\n"
        f"password_file {secrets}\nacl_file {acl}\nuse_username_as_clientid true\n"
    )
    with configured_mosquitto(tmp_path, conf, port):
        yield port


async def test_a_player_writes_its_own_presence_only(guarded: int) -> None:
    port = guarded
    watcher = BrokerAddress("127.0.0.1", port, username=BOB, password="bob-pw")
    ann = BrokerAddress("127.0.0.1", port, username=ANN, password="ann-pw")
    async with Transport(watcher, client_id="watch") as bob, Transport(ann, client_id="ann") as a:
        await bob.subscribe(topics.presence_all("ROOM1"))
        await bob.subscribe(topics.log("ROOM1"))
        await a.publish(topics.presence("ROOM1", BOB), b"forged", retain=True)  # refused
        await a.publish(topics.presence("ROOM1", ANN), b"mine", retain=True)
        await a.publish(topics.log("ROOM1"), b"envelope")

        async def first_two() -> list[bytes]:
            got = []
            async for message in bob.messages():
                got.append(message.payload)
                if len(got) == 2:
                    return got
            return got

        got = await asyncio.wait_for(first_two(), 10)
        assert sorted(got) == [b"envelope", b"mine"]


async def test_no_login_no_entry(guarded: int) -> None:
    from cakeparty.protocol.transport import TransportError

    with pytest.raises(TransportError, match="cannot reach the broker"):
        async with Transport(BrokerAddress("127.0.0.1", guarded), client_id="x", connect_timeout=2):
            pass


async def test_only_a_host_writes_its_room_advert(guarded: int) -> None:
    port = guarded
    ann = BrokerAddress("127.0.0.1", port, username=ANN, password="ann-pw")
    bob = BrokerAddress("127.0.0.1", port, username=BOB, password="bob-pw")
    async with Transport(ann, client_id="ann") as a:
        await a.publish(topics.lobby("ROOM1", ANN), b"ann's advert", retain=True)
        async with Transport(bob, client_id="bob") as b:
            # an impostor overwrites, replays over or clears Ann's advert: all refused
            await b.publish(topics.lobby("ROOM1", ANN), b"fake advert", retain=True)
            await b.clear_retained(topics.lobby("ROOM1", ANN))
            await b.publish(topics.lobby("ROOM1", BOB), b"bob's own", retain=True)
            await b.publish(topics.log("ROOM1"), b"flush")  # after the others, in order
    async with Transport(bob, client_id="late") as late:
        await late.subscribe(topics.lobby_room("ROOM1"))

        async def both() -> dict[str, bytes]:
            got: dict[str, bytes] = {}
            async for message in late.messages():
                got[message.topic] = message.payload
                if len(got) == 2:
                    return got
            return got

        got = await asyncio.wait_for(both(), 10)
    assert got == {
        str(topics.lobby("ROOM1", ANN)): b"ann's advert",
        str(topics.lobby("ROOM1", BOB)): b"bob's own",
    }


async def test_nobody_takes_over_a_players_connection_with_its_client_id(guarded: int) -> None:
    port = guarded
    ann = BrokerAddress("127.0.0.1", port, username=ANN, password="ann-pw")
    bob = BrokerAddress("127.0.0.1", port, username=BOB, password="bob-pw")
    async with Transport(ann, client_id="cp-ann-ROOM1") as a:
        await a.subscribe(topics.log("ROOM1"))
        # Bob connects with Ann's client id: without the binding, the broker would drop
        # Ann's connection in favour of the newcomer's
        async with Transport(bob, client_id="cp-ann-ROOM1") as b:
            await b.publish(topics.log("ROOM1"), b"hello")

            async def first() -> bytes:
                async for message in a.messages():
                    return message.payload
                return b""

            assert await asyncio.wait_for(first(), 10) == b"hello"
            assert a.connections == 1 and a.connected  # never dropped


async def test_only_a_host_offers_the_next_room_and_a_refused_offer_is_reported(
    guarded: int,
) -> None:
    hank = BrokerAddress("127.0.0.1", guarded, username=HANK_LOGIN, password="hank-pw")
    bob = BrokerAddress("127.0.0.1", guarded, username=BOB, password="bob-pw")
    new = lb.room_code(lb.new_room_code(), HANK.player_id)
    await offer_next_room(hank, HANK, "ROOM1", new)
    # Bob overwrites or clears Hank's retained offer: both refused by the broker
    elsewhere = lb.room_code(lb.new_room_code(), HANK.player_id)
    async with Transport(bob, client_id="bob") as b:
        forged = lb.sign(HANK.signing_key, "ROOM1", NEXT_ROOM, elsewhere)  # signed by Hank once
        await b.publish(topics.next_room("ROOM1", HANK_LOGIN), forged, retain=True)
        await b.clear_retained(topics.next_room("ROOM1", HANK_LOGIN))
    assert await asyncio.wait_for(wait_next_room(bob, "ROOM1", HANK.player_id), 10) == new
    # Hank's offer sent through Bob's login is acknowledged by the broker, never relayed:
    # the host is told instead of believing the others were offered the room
    with pytest.raises(TransportError, match="did not pass the offer"):
        await offer_next_room(bob, HANK, "ROOM2", new, confirm=2.0)


async def test_a_guest_hears_the_next_room_on_its_own_connection(
    guarded: int, tmp_path: Path
) -> None:
    """The policy lets each login one connection at a time (its client id is its login): a
    guest waiting for the host's offer after the game hears it on its room's connection,
    and the host sends it on its new room's; neither is taken over by a second one of the
    same player's (online, offline, online again at every game's end)."""
    hank = BrokerAddress("127.0.0.1", guarded, username=HANK_LOGIN, password="hank-pw")
    gina = BrokerAddress("127.0.0.1", guarded, username=GINA_LOGIN, password="gina-pw")
    host = RoomRunner(
        broker=hank, identity=HANK, room=lb.new_room_code(),
        host=HostSetup("cake-duel", 2, {"full": True}), journal_dir=tmp_path / "hank",
    )  # fmt: skip
    guest = RoomRunner(broker=gina, identity=GINA, room=host.code, journal_dir=tmp_path / "gina")
    runners = [host, guest]
    tasks = [asyncio.create_task(host.run()), asyncio.create_task(guest.run())]
    try:

        async def seated() -> None:
            while guest.advert is None or len(guest.advert.taken) < 2:
                await asyncio.sleep(0.05)

        await asyncio.wait_for(seated(), 20)
        offered = asyncio.create_task(guest.next_room())
        await asyncio.sleep(0.5)  # the guest listens (an offer kept by the broker counts too)
        new = lb.room_code(lb.new_room_code(), HANK.player_id)  # the room Hank opens next
        # the host leaves the room for the new one, and offers it on that room's connection
        host.stop()
        await asyncio.wait_for(tasks[0], 20)
        new_room, _tag = lb.parse_code(new)
        again = RoomRunner(
            broker=hank, identity=HANK, room=new_room,
            host=HostSetup("cake-duel", 2, {"full": True}), journal_dir=tmp_path / "hank",
        )  # fmt: skip
        runners.append(again)
        tasks.append(asyncio.create_task(again.run()))
        await asyncio.wait_for(again.offer_next_room(host.room, again.code), 20)
        assert await asyncio.wait_for(offered, 10) == again.code
        # a line round each room's connection: one taken over would have come back first
        for runner in (guest, again):
            runner.say("gg")

        async def said() -> None:
            while not (guest.chat and again.chat):
                await asyncio.sleep(0.05)

        await asyncio.wait_for(said(), 20)
        assert guest.transport is not None and guest.transport.connections == 1  # never lost
        assert again.transport is not None and again.transport.connections == 1
    finally:
        for runner in runners:
            runner.stop()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 20)

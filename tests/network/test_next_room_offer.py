"""The host's offer of its next room to the players of a finished one, against what anyone
on a broker without an ACL may publish on its topic (both brokers)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import (
    NEXT_ROOM,
    RESTORE_EVERY,
    offer_next_room,
    presence_id,
    wait_next_room,
)

from .test_lobby_integrity import Room, mark_read, until


@pytest.mark.parametrize("how", ["cleared", "forged"])
async def test_a_hosts_offer_cleared_or_replaced_is_published_again_at_a_bounded_pace(
    broker_url: str, tmp_path: Path, how: str
) -> None:
    """Anyone may publish on the topic where a host offers its new room to the players of
    the finished one: an empty retained message there (or a stranger's offer) wiped the
    offer for good, and players who looked then waited for an offer they never saw. The
    host hears what took its offer's place and publishes it again, once every
    RESTORE_EVERY seconds at most however fast a stranger keeps at it."""
    room = Room(broker_url, tmp_path)
    host = room.host
    hank = host.identity
    finished = lb.new_room_code()  # the room whose players the host's room is offered to
    async with room.with_stranger(f"offer-{how}", guest=False) as eve:
        await asyncio.wait_for(host.offer_next_room(finished, host.code), 30)
        assert host.offers_restored == 0  # its own offer coming back is no alarm
        mallory = Identity.generate("Mallory")
        theirs = lb.room_code(lb.new_room_code(), mallory.player_id)
        payload = {
            "cleared": b"",
            "forged": lb.sign(mallory.signing_key, finished, NEXT_ROOM, theirs),
        }[how]
        topic = topics.next_room(finished, presence_id(hank.player_id))
        began = time.monotonic()
        while time.monotonic() - began < 2.0:  # a stranger at it as fast as it can
            await eve.publish(topic, payload, retain=True)
        # what the broker keeps, as a player of the finished room looking now reads it
        late = wait_next_room(room.address, finished, hank.player_id)
        assert await asyncio.wait_for(late, 30) == host.code
        took = time.monotonic() - began
        assert 1 <= host.offers_restored <= 2 + took / RESTORE_EVERY


async def test_a_guest_takes_its_hosts_offer_alone(broker_url: str, tmp_path: Path) -> None:
    """A guest waiting for its host's next room believes no offer but one its host signed
    for this very room: a stranger's, the host's own offer made in another room, an empty
    message or bytes that are no message at all leave it waiting."""
    room = Room(broker_url, tmp_path)
    async with room.with_stranger("offer-forger") as eve:
        hank, guest = room.host.identity, room.guest
        topic = topics.next_room(room.host.room, presence_id(hank.player_id))
        offered = asyncio.create_task(guest.next_room())
        await until(lambda: guest._next_topic is not None, "the guest to listen for the offer")
        mallory = Identity.generate("Mallory")
        code = lb.room_code(lb.new_room_code(), hank.player_id)
        for data in (
            lb.sign(mallory.signing_key, room.host.room, NEXT_ROOM, code),
            lb.sign(hank.signing_key, lb.new_room_code(), NEXT_ROOM, code),
            b"",
            b"\x93not an envelope",
        ):
            await eve.publish(topic, data, retain=True)
        await mark_read(eve, guest)
        assert not offered.done() and guest.next_code is None
        await offer_next_room(room.address, hank, room.host.room, code)
        assert await asyncio.wait_for(offered, 30) == code

"""The rooms a broker lists, and which of them its host has left without closing: a host
whose app was killed leaves its advert retained on the broker (and its last will says it
went offline); the join list marks such a room "host away" and lists it after the others.
Only the host's own signed word on its own topic counts. A list holds so many rooms, and
anyone may advertise more: a room looked for by its code is listed all the same."""

from __future__ import annotations

import pytest

from cakeparty.protocol import lobby as lb
from cakeparty.protocol import network, topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import list_rooms, presence_id
from cakeparty.protocol.transport import BrokerAddress, Transport


def _advert(host: Identity, room: str) -> bytes:
    advert = lb.Advert(room, "cake-duel", host.player_id, host.name, 2, serial=1)
    return lb.sign(host.signing_key, room, lb.ADVERT, advert.to_data())


def _presence(signer: Identity, about: Identity, room: str, state: str) -> bytes:
    body = lb.Presence(about.player_id, about.name, state).to_data()
    return lb.sign(signer.signing_key, room, lb.PRESENCE, body)


async def test_a_room_whose_host_went_offline_is_listed_as_away_and_last(broker_url: str) -> None:
    here, away, forged, unsaid = (Identity.generate(n) for n in ("Ann", "Bob", "Cy", "Di"))
    eve = Identity.generate("Eve")
    rooms = {who.name: new_room_code() for who in (here, away, forged, unsaid)}
    address = BrokerAddress.parse(broker_url)
    async with Transport(address, client_id="test-rooms") as t:
        await t.wait_connected(20)  # then each publish returns once the broker has it
        for who in (here, away, forged, unsaid):
            room = rooms[who.name]
            await t.publish(
                topics.lobby(room, presence_id(who.player_id)), _advert(who, room), retain=True
            )
        said = [
            (here, here, lb.ONLINE),
            (away, away, lb.OFFLINE),  # what a killed app's last will says
            (eve, forged, lb.OFFLINE),  # Eve says Cy went: not Cy's word
        ]
        for signer, about, state in said:
            room = rooms[about.name]
            topic = topics.presence(room, presence_id(about.player_id))
            await t.publish(topic, _presence(signer, about, room, state), retain=True)
        # bytes that are no presence, too many to be one, on the last host's topic
        room = rooms[unsaid.name]
        topic = topics.presence(room, presence_id(unsaid.player_id))
        await t.publish(topic, b"\x93" * 65536, retain=True)
    listed = [r for r in await list_rooms(address, 2.0) if r.advert.room in rooms.values()]
    by_host = {r.advert.host_name: r.host_away for r in listed}
    assert by_host == {"Ann": False, "Bob": True, "Cy": False, "Di": False}
    assert listed[-1].advert.host_name == "Bob"  # after the rooms whose host may be there


async def test_a_room_asked_for_by_its_code_is_listed_however_many_others_crowd_the_broker(
    broker_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may advertise rooms, as many as they like, and a list holds MAX_ROOMS: it
    kept the first ones heard, so a stranger's flood took every place and the room a
    player typed the code of was not found. A room asked for by its code (or bare id) is
    read on its own topic and listed whatever else is there; the listing says it was cut;
    the rooms it keeps are those this process ranks first, not those heard first, and
    bytes that are no advert take no room's place."""
    monkeypatch.setattr(network, "MAX_ROOMS", 6)
    host, other = Identity.generate("Hank"), Identity.generate("Hank")
    room = new_room_code()
    real = str(topics.lobby(room, presence_id(host.player_id)))
    spam = [(Identity.generate(f"Spam{i}"), new_room_code()) for i in range(12)]
    junk = [str(topics.lobby(new_room_code(), f"{i:032x}")) for i in range(4)]
    ranks = {str(topics.lobby(r, presence_id(who.player_id))): 100 - i for i, (who, r) in
             enumerate(spam)}  # fmt: skip
    ranks |= dict.fromkeys(junk, 0)  # first of all, if they were adverts
    ranks[real] = 1000  # the host's room comes last: a look that is not for it leaves it out
    monkeypatch.setattr(network, "_rank", ranks.__getitem__)
    address = BrokerAddress.parse(broker_url)
    async with Transport(address, client_id="test-flood") as t:
        await t.wait_connected(20)  # then each publish returns once the broker has it
        for who, spammed in spam:
            topic = topics.lobby(spammed, presence_id(who.player_id))
            await t.publish(topic, _advert(who, spammed), retain=True)
        for topic_text in junk:
            await t.publish(topics.Topic(topic_text), b"\x93" * 40, retain=True)
        await t.publish(topics.Topic(real), _advert(host, room), retain=True)
    best = sorted(ranks[str(topics.lobby(r, presence_id(w.player_id)))] for w, r in spam)[:6]

    def ranked(listing: network.Listing) -> list[int]:
        return sorted(ranks[str(topics.lobby(r.advert.room, presence_id(r.advert.host)))]
                      for r in listing)  # fmt: skip

    crowded = await list_rooms(address, 2.0)
    assert crowded.cut and ranked(crowded) == best  # the real room left out, no junk kept
    for code in (lb.room_code(room, host.player_id), room):
        looked = await list_rooms(address, 2.0, wanted=[code])
        assert looked.cut and ranked(looked) == [*best, 1000], code
        assert [r.advert.host for r in looked if r.advert.room == room] == [host.player_id]
    # a code naming another host's room of that id does not list this one
    elsewhere = await list_rooms(address, 2.0, wanted=[lb.room_code(room, other.player_id)])
    assert ranked(elsewhere) == best


async def test_a_flood_of_strangers_presences_does_not_hide_that_a_host_is_away(
    broker_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may post presences, as many as they like, and a look keeps MAX_PRESENCES: it
    kept the first ones heard, so a stranger's presences, posted first, took every place
    and a room whose host was gone was listed as if the host were there. The presence of a
    listed room's host is kept whatever else is there, even when every stranger's would
    rank before it."""
    monkeypatch.setattr(network, "MAX_PRESENCES", 8)
    host = Identity.generate("Hank")
    room = new_room_code()
    real = str(topics.lobby(room, presence_id(host.player_id)))
    monkeypatch.setattr(network, "_rank", lambda topic: 1000 if topic == real else 0)
    address = BrokerAddress.parse(broker_url)
    async with Transport(address, client_id="test-presence-flood") as t:
        await t.wait_connected(20)  # then each publish returns once the broker has it
        for i in range(30):  # signed, each on its own player's topic, in rooms of no advert
            eve = Identity.generate(f"Eve{i}")
            spammed = new_room_code()
            topic = topics.presence(spammed, presence_id(eve.player_id))
            await t.publish(topic, _presence(eve, eve, spammed, lb.ONLINE), retain=True)
        await t.publish(topics.Topic(real), _advert(host, room), retain=True)
        topic = topics.presence(room, presence_id(host.player_id))
        await t.publish(topic, _presence(host, host, room, lb.OFFLINE), retain=True)
    listed = [r for r in await list_rooms(address, 2.0) if r.advert.room == room]
    assert [r.host_away for r in listed] == [True]

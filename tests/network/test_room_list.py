"""The rooms a broker lists, and which of them its host has left without closing: a host
whose app was killed leaves its advert retained on the broker (and its last will says it
went offline); the join list marks such a room "host away" and lists it after the others.
Only the host's own signed word on its own topic counts."""

from __future__ import annotations

from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
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

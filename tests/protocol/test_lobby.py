"""The lobby: signed adverts and presence, seating, readiness, the table."""

from __future__ import annotations

import pytest

from cakeparty.protocol import lobby as lb
from cakeparty.protocol.errors import BadSignature, MalformedMessage
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity

ANN, BOB, CY = (Identity.generate(n, seeded_random_bytes(n.encode())) for n in ("Ann", "Bob", "Cy"))


def host() -> lb.HostLobby:
    advert = lb.Advert(
        room="ROOM42", game="cake-duel", host=ANN.player_id, host_name="Ann", seats=2
    )
    lobby = lb.HostLobby(advert)
    lobby.seat(lb.Seat(ANN.player_id, "Ann", ready=False))
    return lobby


def presence(who: Identity, state: str = lb.ONLINE, ready: bool = False) -> lb.Presence:
    return lb.Presence(who.player_id, who.name, state, ready)


def test_players_are_seated_from_their_presence_and_the_table_is_fixed() -> None:
    lobby = host()
    assert lobby.presence(presence(BOB))
    assert not lobby.presence(presence(CY))  # the room is full
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Bob"] and not lobby.ready
    lobby.presence(presence(BOB, ready=True))
    lobby.seat(lb.Seat(ANN.player_id, "Ann", ready=True))
    assert lobby.ready
    table = lobby.start()
    assert table.players == (ANN.player_id, BOB.player_id) and table.room == "ROOM42"
    assert lobby.advert.state == lb.PLAYING and lobby.advert.table == table
    assert not lobby.presence(presence(CY))  # nobody new once the game is on


def test_a_player_leaving_the_lobby_frees_its_seat_and_one_sent_out_stays_out() -> None:
    lobby = host()
    lobby.presence(presence(BOB))
    lobby.presence(presence(BOB, lb.OFFLINE))
    assert [s.name for s in lobby.advert.taken] == ["Ann"]
    lobby.presence(presence(CY))
    lobby.remove(CY.player_id)
    assert not lobby.presence(presence(CY, ready=True))  # its next heartbeat changes nothing
    assert [s.name for s in lobby.advert.taken] == ["Ann"]


def test_adverts_and_presence_are_signed_and_checked() -> None:
    lobby = host()
    data = lb.sign(ANN.signing_key, "ROOM42", lb.ADVERT, lobby.advert.to_data())
    advert = lb.Advert.from_envelope(lb.read(data, "ROOM42", lb.ADVERT))
    assert advert.host == ANN.player_id and advert.taken == lobby.advert.taken
    with pytest.raises(MalformedMessage):
        lb.read(data, "OTHER1", lb.ADVERT)  # not for this room
    with pytest.raises(MalformedMessage):
        lb.read(data, "ROOM42", lb.PRESENCE)  # not a presence
    tampered = bytearray(data)
    tampered[-70] ^= 1
    with pytest.raises((BadSignature, MalformedMessage)):
        lb.read(bytes(tampered), "ROOM42", lb.ADVERT)
    bad = lb.sign(
        BOB.signing_key, "ROOM42", lb.PRESENCE, {"name": "Bob", "state": "asleep", "ready": True}
    )
    with pytest.raises(MalformedMessage):
        lb.Presence.from_envelope(lb.read(bad, "ROOM42", lb.PRESENCE))


def test_room_codes_are_easy_to_read() -> None:
    codes = {lb.new_room_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == 6 and not set(c) & set("01IO") for c in codes)

"""A room's rule options travel in its advert and its table: on/off flags, and named
choices (a game's variant), read back exactly; anything else is refused. A table of flags
only keeps the digest it always had."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from cakeparty.protocol import lobby as lb
from cakeparty.protocol.codec import pack
from cakeparty.protocol.errors import MalformedMessage
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.table import TABLE_DOMAIN, Table

ANN, BOB = (Identity.generate(n, seeded_random_bytes(n.encode())) for n in ("Ann", "Bob"))
SEATS = [(ANN.player_id, "Ann"), (BOB.player_id, "Bob")]


def test_a_named_option_reads_back_from_the_table_and_the_advert() -> None:
    table = Table.of("ROOM7", "cookies-battle", SEATS, {"variant": "beginners", "fast": True})
    again = Table.from_data(table.to_data())
    assert again == table and again.digest() == table.digest()
    assert again.option_map == {"variant": "beginners", "fast": True}
    advert = lb.Advert(
        room="ROOM7",
        game="cookies-battle",
        host=ANN.player_id,
        host_name="Ann",
        seats=3,
        options=table.options,
        table=table,
    )
    data = lb.sign(ANN.signing_key, "ROOM7", lb.ADVERT, advert.to_data())
    heard = lb.Advert.from_envelope(lb.read(data, "ROOM7", lb.ADVERT))
    assert heard.options == (("fast", True), ("variant", "beginners"))
    assert heard.table == table
    # a joiner that agreed to these terms accepts the table they name
    assert lb.Terms.of_table(heard.table) == lb.Terms.of_table(table)


def test_a_table_of_flags_keeps_the_digest_it_always_had() -> None:
    table = Table.of("ROOM8", "cake-duel", SEATS, {"full": True, "tournament": False})
    data = {
        "room": "ROOM8",
        "game": "cake-duel",
        "players": [ANN.player_id, BOB.player_id],
        "names": ["Ann", "Bob"],
        "options": [["full", True], ["tournament", False]],
        "timeout": 120,
        "nonce": bytes(16),
        "seeds": [],
    }
    assert table.digest() == hashlib.sha256(TABLE_DOMAIN + pack(data)).digest()


@pytest.mark.parametrize(
    "value",
    [1, 0, None, b"beginners", "Beginners", "two words", "x" * 33, ["beginners"], ""],
)
def test_an_option_value_that_is_neither_a_flag_nor_a_short_name_is_refused(value: Any) -> None:
    data = Table.of("ROOM9", "cookies-battle", SEATS).to_data()
    data["options"] = [["variant", value]]
    with pytest.raises(MalformedMessage):
        Table.from_data(data)
    advert = lb.Advert(
        room="ROOM9", game="cookies-battle", host=ANN.player_id, host_name="Ann", seats=3
    ).to_data()
    advert["options"] = [["variant", value]]
    signed = lb.sign(ANN.signing_key, "ROOM9", lb.ADVERT, advert)
    with pytest.raises(MalformedMessage):
        lb.Advert.from_envelope(lb.read(signed, "ROOM9", lb.ADVERT))


def test_a_beginners_game_is_played_through_the_mental_deck_as_its_table_says() -> None:
    room = MentalMatch("cookies-battle", 3, 9, {"variant": "beginners"})
    assert Table.from_data(room.table.to_data()).option_map == {"variant": "beginners"}
    game = room.peers[0].game
    outcome = room.play([game.bots["random"]] * 3)
    assert outcome.reason == "points"  # beginners: the highest score wins, no tummy ache
    assert all(str(v) == "fair" for v in room.verdicts)
    for peer in room.peers:
        assert peer.state.options.variant == "beginners"
        # no 0, 13 nor Magician in the box
        assert not any(n.startswith(("zero", "thirteen", "magician")) for n in peer.deck.box)

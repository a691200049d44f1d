"""The lobby: signed adverts and presence, seating, readiness, the table."""

from __future__ import annotations

import random

import pytest

from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.codec import shown_line
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
    return lb.Presence(who.player_id, who.name, state, ready, lb.new_mark() if ready else b"")


def test_players_are_seated_from_their_presence_and_the_table_is_fixed() -> None:
    lobby = host()
    assert lobby.presence(presence(BOB))
    assert not lobby.presence(presence(CY))  # the room is full
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Bob"] and not lobby.ready
    bob_ready = presence(BOB, ready=True)
    lobby.presence(bob_ready)
    ann_mark = lb.new_mark()
    lobby.seat(lb.Seat(ANN.player_id, "Ann", ready=True), mark=ann_mark)
    assert lobby.ready
    table = lobby.start()
    assert table.players == (ANN.player_id, BOB.player_id) and table.room == "ROOM42"
    assert table.seeds == (ann_mark, bob_ready.mark)  # every seat's fresh bytes
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


def test_a_seating_kept_from_the_game_before_seats_each_player_where_they_sat() -> None:
    """Playing again, the host's bot sits down at once and the others join one by one:
    each takes the seat they had (teams stay teams), newcomers after them."""
    advert = lb.Advert(
        room="ROOM43", game="cake-duel", host=ANN.player_id, host_name="Ann", seats=4
    )
    lobby = lb.HostLobby(advert)
    lobby.seat(lb.Seat(ANN.player_id, "Ann"))
    bot = Identity.generate("Bot 4", seeded_random_bytes(b"bot"))
    lobby.seat(lb.Seat(bot.player_id, "Bot 4", bot=True, ready=True))
    lobby.keep_order((ANN.player_id, BOB.player_id, CY.player_id, bot.player_id))
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Bot 4"]
    lobby.presence(presence(CY))
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Cy", "Bot 4"]
    lobby.presence(presence(BOB, ready=True))
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Bob", "Cy", "Bot 4"]
    lobby.presence(presence(BOB, lb.OFFLINE))
    dee = Identity.generate("Dee", seeded_random_bytes(b"Dee"))
    lobby.presence(presence(dee))  # someone new: after those of the game before
    assert [s.name for s in lobby.advert.taken] == ["Ann", "Cy", "Bot 4", "Dee"]


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
        BOB.signing_key,
        "ROOM42",
        lb.PRESENCE,
        {"name": "Bob", "state": "asleep", "ready": True, "mark": bytes(32)},
    )
    with pytest.raises(MalformedMessage):
        lb.Presence.from_envelope(lb.read(bad, "ROOM42", lb.PRESENCE))


#: names no player's own app sends, and that another's screen must never show: a line
#: break forging a row (a seat "Ann (you, host)", a chat line from Ann), escape sequences
#: and a direction override that would reach the terminal, a look-alike with a space, more
#: than 32 characters, nothing at all, or nothing to see (a Hangul filler with a variation
#: selector, blank Braille: printable, yet a seat nobody can read)
FORGED_NAMES = [
    "Eve\nAnn (you, host)",
    "Eve\x1b[2J",
    "Eve\x1b]0;title\x07",
    "\u202eevE",
    "Eve\r",
    "Ann ",
    " Ann",
    "E" * 33,
    "",
    "\u3164\ufe0f",
    "\u2800\u2800",
    7,
]


@pytest.mark.parametrize("name", FORGED_NAMES, ids=repr)
def test_a_name_that_is_no_display_name_is_refused_wherever_it_comes(name: object) -> None:
    body = {"name": name, "state": lb.ONLINE, "ready": False, "mark": b""}
    data = lb.sign(BOB.signing_key, "ROOM42", lb.PRESENCE, body)
    with pytest.raises(MalformedMessage):  # a joiner's presence: no seat
        lb.Presence.from_envelope(lb.read(data, "ROOM42", lb.PRESENCE))
    lobby = host()
    lobby.presence(presence(BOB))
    advert = lobby.advert.to_data()
    seat = [BOB.player_id, name, False, False, True]
    for forged in ({**advert, "name": name}, {**advert, "taken": [seat]}):
        data = lb.sign(ANN.signing_key, "ROOM42", lb.ADVERT, forged)
        with pytest.raises(MalformedMessage):  # the host's own name, a seat's
            lb.Advert.from_envelope(lb.read(data, "ROOM42", lb.ADVERT))


def test_a_table_with_a_forged_name_is_refused() -> None:
    lobby = host()
    lobby.presence(presence(BOB, ready=True))
    lobby.seat(lb.Seat(ANN.player_id, "Ann", ready=True), mark=lb.new_mark())
    data = lobby.start().to_data()
    assert lb.Table.from_data(data).names == ("Ann", "Bob")
    with pytest.raises(MalformedMessage):
        lb.Table.from_data({**data, "names": ["Ann", "Bob\nAnn"]})


def test_an_advert_names_a_known_kind_of_game_and_a_printable_broker() -> None:
    advert = host().advert.to_data()
    for forged in (
        {**advert, "game": "cake-duel\x1b[2J"},
        {**advert, "game": "Cake Duel"},
        {**advert, "broker": "mqtt://h:1883\x1b[2J"},
        {**advert, "broker": "m" * 257},
    ):
        data = lb.sign(ANN.signing_key, "ROOM42", lb.ADVERT, forged)
        with pytest.raises(MalformedMessage):
            lb.Advert.from_envelope(lb.read(data, "ROOM42", lb.ADVERT))


def test_a_chat_line_is_shown_as_one_line_of_printable_text() -> None:
    assert shown_line("hi\nAnn: I give up", 200) == "hi Ann: I give up"  # no forged line
    assert shown_line("\x1b[2Jred\u202e\tx", 200) == " [2Jred  x"  # nothing for the terminal
    assert shown_line("Z" * 500, 200) == "Z" * 200
    assert shown_line("¡olé! 🎂 漢字", 200) == "¡olé! 🎂 漢字"  # what is printable stays


def test_a_bot_in_a_process_of_its_own_says_so_and_its_seat_shows_it() -> None:
    lobby = host()
    said = lb.Presence(BOB.player_id, "Crumb", lb.ONLINE, True, lb.new_mark(), "strong")
    data = lb.sign(BOB.signing_key, "ROOM42", lb.PRESENCE, said.to_data())
    heard = lb.Presence.from_envelope(lb.read(data, "ROOM42", lb.PRESENCE))
    assert heard == said
    assert lobby.presence(heard)
    (seat,) = [s for s in lobby.advert.taken if s.player == BOB.player_id]
    assert seat.own_bot == "strong" and not seat.bot  # its own keys and moves: not the host's
    advert = lb.sign(ANN.signing_key, "ROOM42", lb.ADVERT, lobby.advert.to_data())
    assert lb.Advert.from_envelope(lb.read(advert, "ROOM42", lb.ADVERT)).taken == (
        lobby.advert.taken
    )
    # a person's presence and seat are as they were (no "bot" on the wire)
    assert "bot" not in presence(CY).to_data()
    assert len(lb.Seat(CY.player_id, "Cy").to_data()) == 5
    # a level that is not a short word is refused, and so is a seat that carries one
    for level in ("", "Strong", "x" * 17, 3, True, None, b"strong", "strong\n"):
        body = {"name": "Crumb", "state": lb.ONLINE, "ready": False, "mark": b"", "bot": level}
        bad = lb.sign(BOB.signing_key, "ROOM42", lb.PRESENCE, body)
        with pytest.raises(MalformedMessage):
            lb.Presence.from_envelope(lb.read(bad, "ROOM42", lb.PRESENCE))
        with pytest.raises(MalformedMessage):
            lb.Seat.from_data([BOB.player_id, "Crumb", False, True, True, level])
    with pytest.raises(MalformedMessage):
        lb.Seat.from_data([BOB.player_id, "Crumb", False, True, True, "normal", "extra"])


def test_room_codes_are_easy_to_read() -> None:
    codes = {lb.new_room_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == 6 and not set(c) & set("01IO") for c in codes)


def test_a_ready_mark_is_32_bytes_and_only_while_ready() -> None:
    for ready, mark in ((True, b""), (True, bytes(31)), (False, bytes(32))):
        body = {"name": "Bob", "state": lb.ONLINE, "ready": ready, "mark": mark}
        data = lb.sign(BOB.signing_key, "ROOM42", lb.PRESENCE, body)
        with pytest.raises(MalformedMessage):
            lb.Presence.from_envelope(lb.read(data, "ROOM42", lb.PRESENCE))


def test_adverts_carry_a_growing_serial() -> None:
    lobby = host()
    first, second = lobby.publish(), lobby.publish()
    assert second.serial == first.serial + 1
    data = lb.sign(ANN.signing_key, "ROOM42", lb.ADVERT, second.to_data())
    assert lb.Advert.from_envelope(lb.read(data, "ROOM42", lb.ADVERT)).serial == second.serial


def test_an_advert_is_believed_from_its_host_on_its_topic_and_newer_only() -> None:
    lobby = host()
    first, second = lobby.publish(), lobby.publish()
    lobby.close()
    closing = lobby.publish()
    tag = lb.host_tag("ROOM42", ANN.player_id)

    def signed(who: Identity, advert: lb.Advert) -> bytes:
        return lb.sign(who.signing_key, "ROOM42", lb.ADVERT, advert.to_data())

    def on(who: Identity) -> str:
        return str(topics.lobby("ROOM42", topics.presence_id(who.player_id)))

    heard = lb.hear_advert(on(ANN), signed(ANN, second), "ROOM42", tag, first)
    assert heard.advert == second and heard.stranger is None and not heard.closing
    assert lb.hear_advert(on(ANN), signed(ANN, closing), "ROOM42", tag, second).closing
    # old news: a replay of the last advert, or an older one retained somewhere
    for old in (first, second):
        assert lb.hear_advert(on(ANN), signed(ANN, old), "ROOM42", tag, second) == lb.Heard()
    # off its signer's topic: nobody's word, not even a stranger's
    assert lb.hear_advert(on(BOB), signed(ANN, second), "ROOM42", tag, first) == lb.Heard()
    # another key, on its own topic: named, never believed (the code's tag, or the host
    # of the adverts believed so far, tells it apart)
    impostor = lb.Advert(**{**vars(closing), "host": BOB.player_id, "serial": 99})
    for known_tag, last in ((tag, None), (None, first), (tag, first)):
        heard = lb.hear_advert(on(BOB), signed(BOB, impostor), "ROOM42", known_tag, last)
        assert heard == lb.Heard(stranger=BOB.player_id) and not heard.closing
    # with neither a tag nor an advert believed yet, the first signed advert is the host's
    assert lb.hear_advert(on(BOB), signed(BOB, impostor), "ROOM42", None, None).closing
    with pytest.raises(MalformedMessage):
        lb.hear_advert(on(ANN), signed(ANN, second), "OTHER1", None, None)


def test_a_room_code_names_its_host_and_reads_back() -> None:
    code = lb.room_code("K7QM2X", ANN.player_id)
    room, tag = lb.parse_code(code.lower())
    assert (room, tag) == ("K7QM2X", lb.host_tag("K7QM2X", ANN.player_id))
    assert len(code) == len("K7QM2X-4ETJQ-9RSTU") and tag is not None and len(tag) == 10
    assert lb.host_tag("K7QM2X", BOB.player_id) != tag  # another key, another tag
    assert lb.host_tag("K7QM2Y", ANN.player_id) != tag  # the tag is for this room only
    assert lb.parse_code("K7QM2X") == ("K7QM2X", None)
    for bad in ("K7QM2X-4ETJ", "K7QM2X-4ETJQ-9RST8", "K7-4ETJQ-9RSTU", "", "K7QM2X4ETJQ9RST8"):
        with pytest.raises(ValueError):
            lb.parse_code(bad)


def test_a_code_typed_as_it_was_read_is_the_same_code() -> None:
    """The lobby shows the code spaced out, people read it aloud: spaces, lower case,
    dashes left out, 0 or 1 for the tag's O or I all name the same room and host."""
    # a room whose tag holds an O or an I, to be read as 0 or 1
    room = next(
        r for r in (f"K7QM{a}{b}" for a in "ABCDEFGH" for b in "23456789")
        if set(lb.host_tag(r, ANN.player_id)) & {"O", "I"}
    )  # fmt: skip
    code = lb.room_code(room, ANN.player_id)
    want = lb.parse_code(code)
    spaced = " ".join(code)  # as the lobby draws it: "K 7 Q M 2 X - …"
    undashed = code.replace("-", "")
    read = code[:7] + code[7:].replace("O", "0").replace("I", "1")
    assert read != code
    for typed in (spaced, undashed, f"  {code.lower()} ", code.replace("-", " "), read):
        assert lb.parse_code(typed) == want, typed
        assert lb.normal_code(typed) == code
    assert lb.normal_code("k7qm2x") == "K7QM2X"
    for words in ("not a code", "K7 QM2X"):  # spaces only in a whole code: no room NOTACODE
        with pytest.raises(ValueError):
            lb.parse_code(words)


def _agreed_lobby() -> tuple[lb.HostLobby, lb.Presence, lb.Terms]:
    lobby = host()
    bob = presence(BOB, ready=True)
    lobby.presence(bob)
    lobby.seat(lb.Seat(ANN.player_id, "Ann", ready=True), mark=lb.new_mark())
    return lobby, bob, lobby.advert.terms


def test_a_joiner_accepts_the_table_it_agreed_to() -> None:
    lobby, bob, agreed = _agreed_lobby()
    table = lobby.start()
    assert lb.check_table(lobby.advert, agreed, BOB.player_id, bob.mark) == table


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"timeout": 86400}, "timeout"),
        ({"game": "cake-of-doom"}, "game"),
        ({"options": (("full", False),)}, "options"),
    ],
)
def test_a_joiner_refuses_a_table_other_than_the_lobby_showed(
    change: dict[str, object], reason: str
) -> None:
    from dataclasses import replace

    lobby, bob, agreed = _agreed_lobby()
    table = replace(lobby.start(), **change)  # type: ignore[arg-type]
    advert = replace(lobby.advert, table=table)
    with pytest.raises(lb.TableRefused, match=reason) as refused:
        lb.check_table(advert, agreed, BOB.player_id, bob.mark)
    assert refused.value.peer == ANN.player_id  # the host is named


def test_a_joiner_refuses_a_table_without_its_latest_ready_mark_or_seat() -> None:
    from dataclasses import replace

    lobby, bob, agreed = _agreed_lobby()
    table = lobby.start()
    with pytest.raises(lb.TableRefused, match="ready mark"):
        lb.check_table(lobby.advert, agreed, BOB.player_id, lb.new_mark())  # an old table
    stale = replace(lobby.advert, table=replace(table, seeds=()))
    with pytest.raises(lb.TableRefused, match="ready mark"):
        lb.check_table(stale, agreed, BOB.player_id, bob.mark)
    swapped = replace(table, players=(ANN.player_id, CY.player_id), names=("Ann", "Cy"))
    with pytest.raises(lb.TableRefused, match="players"):
        lb.check_table(replace(lobby.advert, table=swapped), agreed, BOB.player_id, bob.mark)


def test_a_chat_line_sent_again_or_late_is_not_shown_again() -> None:
    gate = lb.ChatGate(burst=3, every=1.0)
    ann, bob = ANN.player_id, BOB.player_id
    assert gate.admit(ann, 10, 0.0)
    assert not gate.admit(ann, 10, 0.1)  # the same line, sent again by anyone
    assert not gate.admit(ann, 9, 0.2)  # an older one, late or replayed
    assert gate.admit(bob, 5, 0.3)  # numbers are each sender's own
    assert gate.admit(ann, 11, 0.4)


def test_a_player_flooding_the_chat_is_shown_a_few_lines_then_one_a_second() -> None:
    gate = lb.ChatGate(burst=3, every=1.0)
    ann, bob = ANN.player_id, BOB.player_id
    shown = [n for n in range(1, 21) if gate.admit(bob, n, 0.01 * n)]
    assert shown == [1, 2, 3]  # twenty lines in a fifth of a second
    assert gate.admit(bob, 21, 1.3) and not gate.admit(bob, 22, 1.4)
    assert gate.admit(bob, 23, 2.5)
    assert all(gate.admit(ann, n, 0.5, own=True) for n in range(1, 11))  # my own: all
    assert gate.dropped == 17 + 1


@pytest.mark.parametrize("seed", range(5))
def test_every_line_the_app_sends_is_shown_though_the_network_bunches_them(seed: int) -> None:
    """A player typing as fast as it can: each line the app's own pace lets out reaches
    the others up to two seconds late (in order), and the others' gate shows every one."""
    rng = random.Random(seed)
    pace, gate = lb.ChatGate(lb.SAY_BURST, lb.SAY_EVERY), lb.ChatGate()
    sent, arrived, now = 0, 0.0, 0.0
    for number in range(1, 3000):
        now += rng.expovariate(4.0)  # four tries a second
        if pace.admit(b"", number, now):
            sent += 1
            arrived = max(arrived, now + rng.uniform(0.0, 2.0))
            assert gate.admit(ANN.player_id, number, arrived)
    assert sent > 400 and pace.dropped > 1000 and gate.dropped == 0
    # without the margin, the same bunching drops lines
    pace, gate = lb.ChatGate(), lb.ChatGate()
    rng, arrived, now = random.Random(seed), 0.0, 0.0
    shown = []
    for number in range(1, 3000):
        now += rng.expovariate(4.0)
        if pace.admit(b"", number, now):
            arrived = max(arrived, now + rng.uniform(0.0, 2.0))
            shown.append(gate.admit(ANN.player_id, number, arrived))
    assert not all(shown)


def test_a_chat_message_is_a_number_and_one_line() -> None:
    data = lb.sign(ANN.signing_key, "ROOM42", lb.CHAT, lb.chat_body(7, "hi\nBob: bye"))
    assert lb.read_chat(lb.read(data, "ROOM42", lb.CHAT)) == (7, "hi Bob: bye")
    for body in ("hi", [7], [-1, "hi"], [7, 7], ["7", "hi"]):
        data = lb.sign(ANN.signing_key, "ROOM42", lb.CHAT, body)
        with pytest.raises(MalformedMessage):
            lb.read_chat(lb.read(data, "ROOM42", lb.CHAT))

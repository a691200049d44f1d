"""The join list puts a game under way that keeps this player's seat first, and says so;
it looks again on the brokers of the rooms joined last."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from cakeparty.broker.embedded import EmbeddedBroker, free_port
from cakeparty.core.i18n import ngettext
from cakeparty.protocol.identity import load_or_create
from cakeparty.protocol.lobby import CLOSED, OPEN, PLAYING, Advert, Seat, new_room_code
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.netroom import JoinPlan, JoinSearch, RoomFound
from cakeparty.tui.recent import MOST, joined_brokers, remember_broker
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.rooms import JoinScreen, room_line, seated

from .languages import speaking
from .pilot import SIZE, make_app, until
from .rooms import hosted_duel
from .test_lobby import app_with
from .test_table_says import region_text

BROKER = "mqtt://127.0.0.1:1"


def _room(room: str, state: str, *players: bytes) -> RoomFound:
    taken = tuple(Seat(p, f"P{i}") for i, p in enumerate(players))
    advert = Advert(
        room=room, game="cake-duel", host=b"h" * 32, host_name="Ann", seats=2,
        taken=taken, state=state,
    )  # fmt: skip
    return RoomFound(room, BROKER, "cake-duel", advert)


def test_a_game_played_to_its_end_here_is_no_seat_to_go_back_to(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host gone without closing its room leaves its advert saying "playing": the
    player whose journal holds the game's end is told it is over, not offered it as a seat
    to go back to (those the list puts first)."""
    from cakeparty.protocol.journal import data_dir
    from cakeparty.protocol.mental import MentalMatch

    from ..protocol.test_room import seat_bots

    done = MentalMatch("cake-duel", 2, 4, journal_dir=data_dir())
    done.play(seat_bots(2, 4))
    going = MentalMatch("cake-duel", 2, 5, journal_dir=data_dir())  # dealt, not played
    rooms = []
    for match in (done, going):
        me, other = (ident.player_id for ident in match.identities)
        taken = tuple(Seat(p, f"P{i}") for i, p in enumerate((me, other)))
        advert = Advert(
            room=match.table.room, game="cake-duel", host=other, host_name="Hank", seats=2,
            taken=taken, state=PLAYING, table=match.table,
        )  # fmt: skip
        rooms.append(RoomFound(match.table.room, BROKER, "cake-duel", advert))
    ended, on = rooms
    assert "your game is over" in room_line(ended, done.identities[0].player_id).plain
    assert "your seat" in room_line(on, going.identities[0].player_id).plain
    assert not seated(ended, done.identities[0].player_id)


def test_a_room_whose_host_is_away_says_so() -> None:
    """What the broker's list says of a host gone without closing its room
    (``tests/network/test_room_list.py``) reaches the room's line."""
    from dataclasses import replace

    away = replace(_room("AWAY01", OPEN), host_away=True)
    here = _room("HERE01", PLAYING)
    assert "host away" in room_line(away).plain
    assert "host away" not in room_line(here).plain


def test_a_room_under_way_with_my_seat_says_so_and_others_do_not() -> None:
    me, other = b"m" * 32, b"o" * 32
    mine = room_line(_room("AAAAAA", PLAYING, other, me), me).plain
    assert "your seat: enter to go back" in mine
    theirs = room_line(_room("BBBBBB", PLAYING, other, b"x" * 32), me).plain
    assert "playing" in theirs and "your seat" not in theirs
    # an open room is joined as any other; a closed one has nothing to go back to
    assert "your seat" not in room_line(_room("CCCCCC", OPEN, me), me).plain
    assert "your seat" not in room_line(_room("DDDDDD", CLOSED, other, me), me).plain
    assert "your seat" not in room_line(_room("AAAAAA", PLAYING, other, me), None).plain
    # the seat open in another window of this player (a process of this data dir) says so
    from cakeparty.protocol.journal import RoomLock

    elsewhere = RoomLock("AAAAAA", me)
    elsewhere.acquire()
    try:
        line = room_line(_room("AAAAAA", PLAYING, other, me), me).plain
        assert "your seat: open in another window" in line and "enter" not in line
    finally:
        elsewhere.release()
    assert "your seat: enter to go back" in room_line(_room("AAAAAA", PLAYING, other, me), me).plain


@pytest.mark.parametrize("where", ["list", "field"])
async def test_the_room_holding_my_seat_comes_first_and_enter_goes_back_to_it(
    config_dir: Path, where: str
) -> None:
    """In the list, or from the empty code field (the room's line says "enter to go
    back"): enter goes back to it."""
    me = load_or_create("Bob").player_id
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        # the rooms are made up here: no look by itself replaces them
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        chosen: list[JoinPlan | None] = []
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        assert screen.me == me
        others = _room("BBBBBB", OPEN, b"o" * 32)
        mine = _room("AAAAAA", PLAYING, b"o" * 32, me)
        screen.show_rooms([others, mine])
        await pilot.pause()
        assert [r.room for r in screen.rooms] == ["AAAAAA", "BBBBBB"]
        if where == "list":
            screen.query_one("#join-rooms").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert chosen and chosen[0] is not None and chosen[0].room == mine.code


async def test_a_code_typed_while_rooms_are_listed_is_typed_even_from_the_list() -> None:
    """Rooms that turn up while a player types a code do not take the keyboard, and a
    code typed in the list goes to the field: no letter of it is read as a key (``w``
    watches in the list, and room codes hold a W as often as any letter)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        chosen: list[object] = []
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        field = screen.query_one("#join-input", Input)
        await pilot.press("k", "7")
        screen.show_rooms([_room("AAAAAA", OPEN), _room("BBBBBB", OPEN)])
        await pilot.pause()
        assert app.focused is field
        await pilot.press("w", "q")
        assert field.value == "k7wq" and chosen == []
        # ↓ goes to the list; a letter typed there goes back to the field
        field.value = ""
        await pilot.press("down")
        assert app.focused is screen.query_one("#join-rooms")
        await pilot.press("x", "w")
        assert app.focused is field and field.value == "xw" and chosen == []


def status(screen: JoinScreen) -> str:
    return str(screen.query_one("#join-status").render())


async def test_enter_in_an_empty_field_joins_no_room_and_the_keys_said_work_there() -> None:
    """On a broker full of strangers' rooms, enter with nothing typed joins none of them:
    the list takes the keyboard, and only there does enter join the room under the cursor
    (the one the player sees picked). The line under the list names the keys of where the
    keyboard is: from the field ↓ (a w typed there is a letter of a code), in the list enter
    and w."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        chosen: list[object] = []
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        field = screen.query_one("#join-input", Input)
        rooms = screen.query_one("#join-rooms")
        screen.show_rooms([_room("AAAAAA", OPEN), _room("BBBBBB", OPEN)])
        await pilot.pause()
        assert app.focused is field
        assert status(screen) == "2 rooms found: ↓ to pick one; or type a code."
        await pilot.press("enter")
        await pilot.pause()
        assert chosen == [] and app.focused is rooms
        assert status(screen) == "2 rooms found: enter to join, w to watch; or type a code."
        await pilot.press("x")  # typing goes back to the field, and so does the status
        await pilot.pause()
        assert app.focused is field and "↓ to pick one" in status(screen)
        field.value = ""
        # the list looks again by itself: what it says still follows the keyboard
        screen.show_rooms([_room("AAAAAA", OPEN), _room("BBBBBB", OPEN)], asked=False)
        await pilot.pause()
        assert "↓ to pick one" in status(screen)
        await pilot.press("down", "down")
        await pilot.press("enter")  # picked in the list: joined
        await pilot.pause()
        assert chosen == [JoinPlan(_room("BBBBBB", OPEN).code, BROKER)]


def footer_keys(app: object) -> list[tuple[str, str]]:
    """The footer's keys as shown: (key, what it does)."""
    screen = app.screen  # type: ignore[attr-defined]
    return [(key.key_display or key.key, key.description) for key in screen.query(FooterKey)]


@pytest.mark.parametrize(("watching", "enter"), [(False, "Join"), (True, "Watch")])
async def test_the_footer_names_the_keys_of_the_field_and_of_the_list(
    watching: bool, enter: str
) -> None:
    """The field's ↓ to the rooms, and the list's enter (join, or watch in a search made
    to watch) and w are in the footer, as every key is."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = JoinScreen(JoinSearch(lan=False, every=None, watch=watching))
        app.push_screen(screen)
        await pilot.pause()
        screen.show_rooms([_room("AAAAAA", OPEN)])
        await until(pilot, lambda: ("↑↓", "Rooms") in footer_keys(app), "↑↓ in the footer")
        await pilot.press("down")
        assert app.focused is screen.query_one("#join-rooms")
        await until(pilot, lambda: ("⏎", enter) in footer_keys(app), "enter in the footer")
        shown = footer_keys(app)
        assert ("w", "Watch") in shown and ("↑↓", "Rooms") not in shown
        assert ("⏎", "Watch" if enter == "Join" else "Join") not in shown


def test_the_brokers_joined_are_remembered_newest_first_and_few(tmp_path: Path) -> None:
    where = tmp_path / "data"
    assert joined_brokers(where) == ()
    for port in range(1, 7):
        remember_broker(f"10.0.0.{port}:1883", where)
    remember_broker("10.0.0.3:1883", where)  # joined again: first, and once
    remember_broker("not a broker::", where)  # a malformed address is no memory
    assert joined_brokers(where) == (
        "mqtt://10.0.0.3:1883",
        "mqtt://10.0.0.6:1883",
        "mqtt://10.0.0.5:1883",
        "mqtt://10.0.0.4:1883",
    )
    assert len(joined_brokers(where)) == MOST
    # a file that is not a list of addresses is an empty memory, then a fresh one
    (where / "joined.json").write_text('{"mqtt://10.0.0.1:1883": 1}', encoding="utf-8")
    assert joined_brokers(where) == ()
    (where / "joined.json").write_text('["no broker::", 3, "10.0.0.9:1883"]', encoding="utf-8")
    assert joined_brokers(where) == ("mqtt://10.0.0.9:1883",)
    (where / "joined.json").write_bytes(b"\xff\xfe")
    assert joined_brokers(where) == ()
    remember_broker("10.0.0.7:1883", where)
    assert joined_brokers(where) == ("mqtt://10.0.0.7:1883",)


def test_a_broker_joined_with_a_login_is_remembered_with_it_for_this_player_alone(
    tmp_path: Path,
) -> None:
    where = tmp_path / "data"
    remember_broker("10.0.0.1:1883", where)
    remember_broker("mqtts://ann:old-pw@broker.example:8883", where)
    remember_broker("mqtts://ann:new-pw@broker.example:8883", where)  # one entry, the newest
    assert joined_brokers(where) == (
        "mqtts://ann:new-pw@broker.example:8883",
        "mqtt://10.0.0.1:1883",
    )
    assert (where / "joined.json").stat().st_mode & 0o777 == 0o600


async def test_after_a_join_the_join_list_finds_the_room_again_without_the_broker() -> None:
    """A player joins a room by its broker; their app closes; opened again, the join list
    (nothing typed, no LAN) looks on that broker by itself and lists the room. A broker
    remembered that has gone since says nothing."""
    remember_broker(f"127.0.0.1:{free_port()}")  # joined once, gone since
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code):
            app = app_with(JoinPlan(code, broker.url))
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert joined_brokers()[0] == str(BrokerAddress.parse(broker.url))
            app = app_with(JoinSearch(lan=False, every=None))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                # it says where it looks: there too
                assert str(BrokerAddress.parse(broker.url)) in join._looking()
                await until(pilot, lambda: join.rooms and not join.searching, "the room list")
                assert [r.room for r in join.rooms] == [code]
                assert not app._notifications  # the broker gone since is no news
                join.query_one("#join-rooms").focus()
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


async def test_a_broker_that_cannot_be_reached_is_why_no_room_is_listed() -> None:
    """The notice goes after a while; the line under the list keeps saying why it is
    empty, in plain words."""
    port = free_port()  # nothing listens there
    app = app_with(JoinSearch(brokers=(f"127.0.0.1:{port}",), lan=False, every=None))
    async with app.run_test(size=SIZE) as pilot:
        join = app.screen
        assert isinstance(join, JoinScreen)
        await until(pilot, lambda: not join.searching, "the search")
        await pilot.pause()
        said = str(join.query_one("#join-status").render())
        assert said == (
            f"No rooms found. Cannot reach the broker at mqtt://127.0.0.1:{port}: "
            "nothing answers on that port."
        )


async def test_a_room_typed_is_found_on_a_broker_crowded_with_a_strangers_adverts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stranger's adverts, more than the list holds, took its every place: the room's
    own code, typed, said "No room … check the code". The list now says it holds only
    part of what is advertised there, and the room typed is looked for on its own and
    joined."""
    from cakeparty.protocol import lobby as lb
    from cakeparty.protocol import network, topics
    from cakeparty.protocol.identity import Identity
    from cakeparty.protocol.transport import Transport

    monkeypatch.setattr(network, "MAX_ROOMS", 4)
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        address = BrokerAddress.parse(broker.url)
        ranks: dict[str, int] = {}
        async with Transport(address, client_id="test-flood") as flood:
            await flood.wait_connected(20)
            for i in range(8):  # before the room: the first adverts a broker sends
                spammer, room = Identity.generate(f"Spam{i}"), new_room_code()
                advert = Advert(room, "cake-duel", spammer.player_id, spammer.name, 2, serial=1)
                topic = topics.lobby(room, topics.presence_id(spammer.player_id))
                data = lb.sign(spammer.signing_key, room, lb.ADVERT, advert.to_data())
                await flood.publish(topic, data, retain=True)
                ranks[str(topic)] = i
        code = new_room_code()
        async with hosted_duel(broker.url, code) as host:
            # the room ranks last among those kept: only a look for it finds it
            mine = str(topics.lobby(code, topics.presence_id(host.identity.player_id)))
            ranks[mine] = 100
            monkeypatch.setattr(network, "_rank", ranks.__getitem__, raising=False)
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: join.rooms and not join.searching, "the room list")
                assert code not in [r.room for r in join.rooms]
                said = str(join.query_one("#join-status").render())
                assert said.startswith(
                    f"More rooms are advertised on {address} than a list holds: type a room's "
                    "code to find it. 4 rooms found"
                )
                join.query_one("#join-input").focus()
                await pilot.press(*host.code.lower(), "enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen) and lobby.room is not None
                await until(pilot, lambda: lobby.room.advert is not None, "the host's advert")
                assert lobby.room.advert.host == host.identity.player_id


GAMES = ("cake-duel", "cake-master", "cake-of-doom", "cookies-battle")


def _hosted(i: int, game: str, name: str) -> RoomFound:
    """Room ``i``: an open ``game`` of four seats hosted by ``name``, on the LAN."""
    host = bytes([i]) * 32
    advert = Advert(
        room=f"R{i:05d}", game=game, host=host, host_name=name, seats=4,
        taken=(Seat(host, name),), state=OPEN,
    )  # fmt: skip
    return RoomFound(advert.room, f"mqtt://192.168.100.200:{19000 + i}", game, advert, lan=True)


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_a_room_is_one_line_at_80_columns_its_seats_whole_in_every_language(
    language: str,
) -> None:
    """Each room's line stays on one row, however long its game's title and its host's
    name: the broker is cut first, then the name (and the title), never the seats."""
    names = ("Ann", "Spam193", "Ęłżbieta Źdźbłoś")  # the longest a name may be: 16
    rooms = [_hosted(i, game, name) for i, (game, name) in enumerate(product(GAMES, names))]
    app = make_app()
    with speaking(language):
        seats = ngettext("{n} of {seats} seat free", "{n} of {seats} seats free", 4)
        seats = seats.format(n=3, seats=4)
        async with app.run_test(size=SIZE) as pilot:
            screen = JoinScreen(JoinSearch(lan=False, every=None))
            app.push_screen(screen)
            await pilot.pause()
            screen.show_rooms(rooms)
            await pilot.pause()
            listed = screen.query_one("#join-rooms")
            rows = region_text(app, listed).splitlines()
            for n, room in enumerate(screen.rooms):
                row = rows[n]
                assert row.startswith(room.code) and seats in row, (n, row)
                assert seats + "…" not in row  # what is cut after them is set apart
                if room.advert is not None and room.advert.host_name == "Ann":
                    assert "Ann" in row  # a short name is never cut
            # a narrower terminal: the lines are drawn again for it
            await pilot.resize_terminal(72, 24)
            await pilot.pause()
            await pilot.pause()
            rows = region_text(app, listed).splitlines()
            for n, room in enumerate(screen.rooms):
                assert rows[n].startswith(room.code) and seats in rows[n], (n, rows[n])

"""The menu offers to go back to a networked game left unfinished: a room this player
hosts (as ``host --resume`` does), else a room it joined whose journal is unfinished and
recent; never a room it hosted and left on purpose, a game that ended, or another seat's
journal. ``g`` goes back: a guest's app closed mid-game finds its seat again."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

from textual.widgets import OptionList, Static

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol import hosting, journal
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity, load_or_create
from cakeparty.protocol.lobby import ABANDON, NO_PREV, new_room_code, parse_code
from cakeparty.protocol.steps import ACTION, AUDIT
from cakeparty.protocol.table import Table
from cakeparty.tui.comeback import GUEST_HOURS, Unfinished, unfinished
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.netroom import JoinPlan, JoinSearch
from cakeparty.tui.recent import MOST_ROOMS, joined_rooms, remember_room
from cakeparty.tui.screens.menu import MenuScreen
from cakeparty.tui.screens.rooms import JoinScreen

from .pilot import SIZE, make_app, until
from .rooms import hosted_duel
from .test_lobby import app_with, ready_into_the_duel


def guest_journal(
    where: Path, room: str, me: Identity, last: str = ACTION, *, seated: bool = True
) -> Table:
    """A journal of ``me``'s seat in a duel of ``room`` (``seated``: else of a seat of
    someone else's) whose last envelope is of kind ``last``."""
    other = Identity.generate("Hank")
    seat = me if seated else Identity.generate("Bot")
    table = Table.of(room, "cake-duel", [(other.player_id, "Hank"), (seat.player_id, seat.name)])
    path = journal.journal_path(table, me.player_id if seated else seat.player_id, where)
    jn = journal.Journal(path, table)
    body = {"x": bytes(32)} if last == AUDIT else {"a": []}
    envelope = seal(seat.signing_key, room=room, seq=5, prev=bytes(32), kind=last, body=body)
    jn.append(envelope.to_bytes())
    jn.close()
    return table


def test_the_rooms_joined_are_remembered_newest_first_by_code(tmp_path: Path) -> None:
    assert joined_rooms(tmp_path) == ()
    remember_room("K7QM2X", tmp_path)
    remember_room("k7qm2x-3oypk-wtw54", tmp_path)  # the full code replaces the bare id
    remember_room("not a code", tmp_path)  # a malformed code is no memory
    assert joined_rooms(tmp_path) == ("K7QM2X-3OYPK-WTW54",)
    codes = [new_room_code() for _ in range(MOST_ROOMS + 2)]
    for code in codes:
        remember_room(code, tmp_path)
    assert joined_rooms(tmp_path) == tuple(reversed(codes))[:MOST_ROOMS]
    (tmp_path / "joined-rooms.json").write_text('{"K7QM2X": 1}', encoding="utf-8")
    assert joined_rooms(tmp_path) == ()
    (tmp_path / "joined-rooms.json").write_text("[" * 100_000, encoding="utf-8")
    assert joined_rooms(tmp_path) == ()  # nested past any parser's depth: no memory


def test_a_joined_game_unfinished_is_offered_and_nothing_else_is(tmp_path: Path) -> None:
    me = Identity.generate("Bob")
    assert unfinished(me.player_id, tmp_path) is None  # nothing here at all
    going = guest_journal(tmp_path, "GOING2", me)
    guest_journal(tmp_path, "ENDED2", me, AUDIT)  # a game that ended
    guest_journal(tmp_path, "HOSTED", me)  # a room it hosted (never joined), left on purpose
    guest_journal(tmp_path, "BOTS22", me, seated=False)  # another seat's journal
    assert unfinished(me.player_id, tmp_path) is None  # no room joined yet
    for room in ("ENDED2", "BOTS22", "GOING2"):
        remember_room(room, tmp_path)
    found = unfinished(me.player_id, tmp_path)
    assert found == Unfinished("GOING2", "cake-duel") and found.room == going.room
    # its full code, once known, is what the join list is given
    remember_room(going.room + "-3OYPK-WTW54", tmp_path)
    found = unfinished(me.player_id, tmp_path)
    assert found is not None and found.code == "GOING2-3OYPK-WTW54" and found.room == "GOING2"
    # another player (another key in the same data dir) has nothing to go back to
    assert unfinished(Identity.generate("Eve").player_id, tmp_path) is None
    # a guest's game is offered for GUEST_HOURS after its journal was last written
    later = time.time() + GUEST_HOURS * 3600 + 60
    assert unfinished(me.player_id, tmp_path, now=later) is None


def test_a_vote_that_ended_nothing_leaves_the_game_to_go_back_to(tmp_path: Path) -> None:
    """A vote that a seat is away is kept in the journal as it comes; the game ends only
    once every other seat present has voted alike. Until then, it is still offered."""
    me, hank, cy = (Identity.generate(name) for name in ("Bob", "Hank", "Cy"))
    seats = [(hank.player_id, "Hank"), (me.player_id, "Bob"), (cy.player_id, "Cy")]
    table = Table.of("VOTED3", "cake-of-doom", seats)
    path = journal.journal_path(table, me.player_id, tmp_path)
    kept = journal.Journal(path, table)
    step, prev = 5, bytes(range(32))
    kept.append(
        seal(me.signing_key, room=table.room, seq=step, prev=prev, kind=ACTION, body={}).to_bytes()
    )

    def vote(voter: Identity) -> bytes:
        body = {"seat": 0, "step": prev}  # Hank keeps step 5 waiting
        return seal(
            voter.signing_key, room=table.room, seq=step, prev=NO_PREV, kind=ABANDON, body=body
        ).to_bytes()

    kept.append(vote(me))  # Bob's vote; Cy waits on
    remember_room(table.room, tmp_path)
    assert unfinished(me.player_id, tmp_path) == Unfinished("VOTED3", "cake-of-doom")
    kept.append(vote(cy))  # now every seat present agrees: the game ended abandoned
    kept.close()
    assert unfinished(me.player_id, tmp_path) is None


def test_a_room_this_player_hosts_comes_first_however_old(tmp_path: Path) -> None:
    me = Identity.generate("Hank")
    guest_journal(tmp_path, "JOINED", me)
    remember_room("JOINED", tmp_path)
    table = guest_journal(tmp_path, "MYROOM", me)
    record = hosting.HostRecord(
        room="MYROOM",
        host=me.player_id.hex(),
        game="cake-duel",
        players=2,
        table=table.digest().hex(),
        updated=1.0,
    )
    hosting.save(record, tmp_path)
    long_ago = time.time() - 30 * 86400
    for path in journal.journals(tmp_path):
        os.utime(path, (long_ago, long_ago))
    found = unfinished(me.player_id, tmp_path)
    assert found == Unfinished("MYROOM", "cake-duel", record)
    # its game ended: the record goes, and the joined game is too old to offer
    ended = guest_journal(tmp_path, "MYROOM", me, AUDIT)
    hosting.save(replace(record, table=ended.digest().hex()), tmp_path)
    assert unfinished(me.player_id, tmp_path) is None


async def test_a_guest_whose_app_closed_mid_game_goes_back_from_the_menu() -> None:
    """Bob joins a room by its code and broker and the duel begins; his app closes. The
    menu of the app opened again offers the game first (its entry, its key in the footer,
    the greeting); ``g`` looks for the room and sits Bob back in his duel."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, ready=True):
            app = app_with(JoinPlan(code, broker.url), name="Bob")
            async with app.run_test(size=SIZE) as pilot:
                await ready_into_the_duel(pilot)  # the app closes as the duel begins
            me = load_or_create("Bob").player_id
            assert unfinished(me) == Unfinished(code, "cake-duel")
            app = make_app(name="Bob")
            async with app.run_test(size=SIZE) as pilot:
                menu = app.screen
                assert isinstance(menu, MenuScreen)
                await until(pilot, lambda: menu.back is not None, "the game to go back to")
                options = menu.query_one("#menu-options", OptionList)
                first = options.get_option_at_index(0)
                assert first.id == "back" and options.highlighted == 0
                room = parse_code(code)[0]
                assert f"g  Go back to Cake Duel in room {room}" == str(first.prompt)
                greeting = str(menu.query_one("#menu-greeting", Static).render())
                assert f"g goes back to your game in room {room}" in greeting
                assert menu.check_action("choose", ("back",)) is True
                await pilot.press("g")
                # the join list looks for the room, then its lobby sits Bob back: on a busy
                # machine all of it may pass between two looks of the test
                await until(
                    pilot, lambda: isinstance(app.screen, NetDuelScreen), "Bob's duel again", 30
                )
                duel = app.screen
                assert isinstance(duel, NetDuelScreen) and parse_code(duel.room.code)[0] == room
                assert not any(isinstance(s, JoinScreen) for s in app.screen_stack)


async def test_with_nothing_to_go_back_to_the_menu_offers_no_such_entry() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: menu.looked, "the look for a game to go back to")
        options = menu.query_one("#menu-options", OptionList)
        assert menu.back is None and options.get_option_at_index(0).id == "bots"
        assert menu.check_action("choose", ("back",)) is False
        await pilot.press("g")  # no such key here: nothing opens
        await pilot.pause()
        assert app.screen is menu


async def test_a_game_whose_room_is_gone_can_be_forgotten_from_the_join_list() -> None:
    """Bob's room closed while he was away (or its host is away for now): ``g`` opens the
    join list, which says so and keeps looking; ctrl+f, shown only there, forgets the game,
    and the menu stops offering it. Its journal stays."""
    me = load_or_create("Bob")
    room = new_room_code()
    guest_journal(journal.data_dir(), room, me)
    remember_room(room)
    app = make_app(name="Bob")
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: menu.back is not None, "the game to go back to")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the join list")
        join = app.screen
        assert isinstance(join, JoinScreen) and join.search.back
        assert join.check_action("forget", ()) is True
        status = join.query_one("#join-status", Static)
        await until(pilot, lambda: "for now" in str(status.render()), "the room not found")
        said = str(status.render())
        assert f"No room {room} on the LAN for now: its host may be away" in said
        assert "ctrl+f forgets this game" in said
        await pilot.press("ctrl+f")
        await until(pilot, lambda: app.screen is menu and menu.looked, "the menu again")
        assert menu.back is None and joined_rooms() == ()
        assert menu.query_one("#menu-options", OptionList).get_option_at_index(0).id == "bots"
        assert journal.journals(journal.data_dir())  # the journal stays
    # a join list not opened to go back forgets nothing: no such key
    plain = JoinScreen(JoinSearch(room, lan=False, every=None))
    assert plain.check_action("forget", ()) is False


async def test_going_back_says_the_broker_is_unreachable_and_blames_no_room() -> None:
    """Bob's game was on a broker that is down now: the list opened by ``g`` said "No room
    … on that broker for now: its host may be away, or closed it", though nothing
    answers there at all. It says the broker cannot be reached, and why; and once the
    broker answers again, that the room is not there (yet)."""
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.recent import remember_broker

    me = load_or_create("Bob")
    room = new_room_code()
    guest_journal(journal.data_dir(), room, me)
    remember_room(room)
    port = free_port()  # its broker, stopped since: nothing listens there
    remember_broker(f"127.0.0.1:{port}")
    app = make_app(name="Bob")
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: menu.back is not None, "the game to go back to")
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), "the join list")
        join = app.screen
        assert isinstance(join, JoinScreen)
        status = join.query_one("#join-status", Static)
        await until(pilot, lambda: "ctrl+f" in str(status.render()), "the room not found")
        assert str(status.render()) == (
            f"Cannot reach the broker at mqtt://127.0.0.1:{port}: nothing answers on that "
            f"port. Nor is room {room} on the LAN for now. This list joins it once it is "
            "found; ctrl+f forgets this game."
        )
        # the broker back (the room not yet): the next look by itself says so, quietly
        async with EmbeddedBroker(host="127.0.0.1", port=port):
            await until(
                pilot, lambda: "host may be away" in str(status.render()), "the broker back", 30
            )
        assert str(status.render()).startswith(
            f"No room {room} on the LAN or on mqtt://127.0.0.1:{port} for now"
        )


async def test_a_guest_whose_host_closes_the_room_mid_game_is_told_and_not_offered_it() -> None:
    """Bob's duel is on when its host leaves the room for good: his screen says the host
    closed it and that the game ends here, no move key works any more, and neither the
    rooms joined nor the menu offer to go back to it."""
    from cakeparty.tui.games.cake_duel.screen import KEY_ACTIONS

    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, ready=True) as host:
            app = app_with(JoinPlan(code, broker.url), name="Bob")
            async with app.run_test(size=SIZE) as pilot:
                _lobby, duel = await ready_into_the_duel(pilot)
                me = load_or_create("Bob").player_id
                assert unfinished(me) == Unfinished(code, "cake-duel")
                host.close()
                await until(pilot, lambda: duel.failed is not None, "the room closed")
                said = "Hank closed the room: this game ends here, unfinished."
                assert duel.failed == said and said in duel.notices
                await pilot.pause()
                assert duel.status.text == said + " q to leave."
                assert not any(duel.check_action(key, ()) for key in KEY_ACTIONS)
                assert joined_rooms() == () and unfinished(me) is None
                await pilot.press("q")  # no question: there is nothing to wait for
                await until(pilot, lambda: duel not in app.screen_stack, "Bob to leave")


async def test_a_host_joining_its_own_room_comes_back_to_it_as_its_host() -> None:
    """The join list shows a host its own room ("your seat: enter to go back") when its
    app died mid-game; joining it opens the room as its host, from its record, as
    ``cakeparty join CODE`` does — not as a guest of itself."""
    from cakeparty.protocol.lobby import room_code
    from cakeparty.tui.netroom import HostPlan

    me = load_or_create("Ann")
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        table = guest_journal(journal.data_dir(), "MYROOM", me)
        record = hosting.HostRecord(
            room="MYROOM",
            host=me.player_id.hex(),
            game="cake-duel",
            players=2,
            broker=broker.url,
            lan=False,
            table=table.digest().hex(),
        )
        hosting.save(record)
        other = Identity.generate("Hank")
        for code, hosts in (
            (room_code("MYROOM", other.player_id), False),  # another host's room of that id
            (room_code("MYROOM", me.player_id), True),
            ("MYROOM", True),
        ):
            plan = await _lobby_plan(JoinPlan(code, broker.url))
            if hosts:
                assert plan == HostPlan.resuming(record) and plan.resume == "MYROOM"
            else:
                assert isinstance(plan, JoinPlan) and plan.room == code


async def _lobby_plan(join: JoinPlan) -> object:
    """What the lobby an app opened on ``join`` was opened for."""
    from cakeparty.tui.screens.lobby import LobbyScreen

    app = app_with(join)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        return app.screen.plan

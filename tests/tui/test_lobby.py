"""Networked rooms by keyboard: host a room, add a bot, ready up, play; join by room code.

The broker is a real one on a free port (the embedded broker, in the test's own event loop
or in the lobby's).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey

from cakeparty.broker.embedded import EmbeddedBroker, free_port
from cakeparty.core.game import bot_levels, get_game
from cakeparty.core.games.cake_duel.actions import Claim, NoAction, Pass
from cakeparty.protocol.identity import Identity, KeyFileError
from cakeparty.protocol.lobby import ChatGate, new_room_code
from cakeparty.protocol.network import JOURNAL_UNREADABLE, RoomRunner
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.games.cake_duel.parts import seat_rows
from cakeparty.tui.messages import ActionChosen, RoomEventArrived
from cakeparty.tui.netroom import HostPlan, JoinPlan, JoinSearch
from cakeparty.tui.screens.dialogs import ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.lobby_parts import room_error_text
from cakeparty.tui.screens.rooms import JoinScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.widgets import ChatInput

from .pilot import SIZE, Recorder, rows, until
from .rooms import hosted_duel
from .test_table_says import region_text


def footer_keys(screen: Any) -> list[tuple[str, str]]:
    """The footer's keys as shown: (key, what it does)."""
    return [(k.key_display or k.key, k.description) for k in screen.query(FooterKey)]


def app_with(start: Any, name: str = "Ann") -> CakePartyApp:
    return CakePartyApp(Settings(name=name, bot_delay=0.0), start, persist=False)


async def ready_into_the_duel(pilot: Pilot[Any]) -> tuple[LobbyScreen, NetDuelScreen]:
    """A joiner's app, opened on a room's lobby: it takes a seat, readies, and (the host
    ready too) is shown the duel; its lobby and duel screens."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await until(pilot, lambda: lobby.check_action("ready", ()), "a seat")
    await pilot.press("r")
    await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the duel", 20)
    duel = app.screen
    assert isinstance(duel, NetDuelScreen)
    return lobby, duel


async def test_a_host_adds_a_bot_readies_and_plays_the_first_move_by_keys() -> None:
    plan = HostPlan(players=2, timeout=60, port=free_port(), lan=False)
    app = app_with(plan)
    moves = Recorder(ActionChosen)
    events = Recorder(RoomEventArrived)
    async with app.run_test(size=SIZE, message_hook=lambda m: (moves(m), events(m))) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.hosting
        room = lobby.room
        assert room is not None and room.port == plan.port
        await until(pilot, lambda: room.connected and room.advert is not None, "the room to open")
        advert = room.advert
        assert advert is not None and [s.name for s in advert.taken] == ["Ann"]
        # the bot key works only for the host, and only while a seat is free
        await pilot.press("a")
        await until(pilot, lambda: len(room.runner.advert.taken) == 2, "the bot's seat")
        bot = room.runner.advert.taken[1]
        assert bot.bot and bot.ready and room.bot_levels[bot.player] == "normal"
        assert lobby.check_action("add_bot", ()) is False
        seats = "\n".join(str(o.prompt) for o in lobby.query_one("#lobby-seats").options)
        assert "Ann (you, host)" in seats and "bot (normal) run by Ann" in seats
        # with a bot seated, its level's key is in the footer
        await until(pilot, lambda: ("l", "Bot level") in footer_keys(lobby), "l in the footer")
        # y, in the footer too, copies the command that joins this room
        assert ("y", "Copy") in footer_keys(lobby)
        await pilot.press("y")
        assert app.clipboard == room.join_command() and "cakeparty join" in app.clipboard
        # l: the bot under the cursor plays at the next level the game offers, round to normal
        levels = bot_levels(get_game("cake-duel"))
        lobby.query_one("#lobby-seats", OptionList).highlighted = 1
        for step in range(1, len(levels) + 1):
            await pilot.press("l")
            level = levels[(levels.index("normal") + step) % len(levels)]
            assert room.bot_levels[bot.player] == level
            seats = "\n".join(str(o.prompt) for o in lobby.query_one("#lobby-seats").options)
            assert f"bot ({level}) run by Ann" in seats
        assert room.runner.bots[bot.player][1] is get_game("cake-duel").bots["normal"]
        assert lobby.query_one("#lobby-status").text.startswith("Everyone is here. Press r")
        # ready: the game starts by itself, and the duel screen opens
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the duel screen", 20)
        duel = app.screen
        assert isinstance(duel, NetDuelScreen)
        assert any(m.event.kind == "started" for m in events.of(RoomEventArrived))
        await until(pilot, lambda: duel.awaiting is not None, "Ann's first decision", 30)
        view = duel.view()
        if any(isinstance(a, Claim) for a in view.legal):
            await pilot.press("1", "c")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the claims")
            await pilot.press("1")
            kinds: tuple[type, ...] = (Claim,)
        else:  # the bot attacked first: let its claim stand
            assert any(isinstance(a, NoAction) for a in view.legal)
            await pilot.press("a")
            kinds = (NoAction, Pass)
        await until(pilot, lambda: moves.of(ActionChosen), "Ann's move")
        chosen = moves.of(ActionChosen)[0]
        assert chosen.seat == duel.net.seat and isinstance(chosen.action, kinds)
        assert not chosen.by_bot
        # the move is in the room's log, as this player's own peer accepted it
        assert (duel.net.seat, chosen.action) in duel.net.peer.history
        # the bot answers (it may end the bout: its notice is closed) until Ann decides again
        deadline = time.monotonic() + 20
        while app.screen is not duel or duel.awaiting is None:
            assert time.monotonic() < deadline, "Ann never had to decide again"
            if isinstance(app.screen, NoticeScreen | ChoiceScreen):
                await pilot.press("escape")
            await pilot.pause(0.05)
        # a chat line goes round the room and comes back; the hand has the keys again
        await pilot.press("m", *"gl", "enter")
        await until(pilot, lambda: duel.last_chat == "Ann: gl", "the chat line")
        assert "» Ann: gl" in duel.log_view.plain
        assert app.focused is duel.hand
        # leaving a game in progress asks first
        assert app.screen is duel and not duel.net.over
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is duel
        await pilot.press("q", "y")
        await until(pilot, lambda: not room.running, "the room to close", 10)


async def test_a_bot_that_joins_from_its_own_process_is_shown_as_a_bot() -> None:
    plan = HostPlan(players=2, timeout=60, port=free_port(), lan=False)
    app = app_with(plan)
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        room = lobby.room
        assert room is not None
        await until(pilot, lambda: room.connected and room.advert is not None, "the room to open")
        # what `cakeparty bot` runs: a runner of its own, its own key, playing at a level
        crumb = RoomRunner(
            broker=BrokerAddress.parse(f"mqtt://127.0.0.1:{plan.port}"),
            identity=Identity.generate("Crumb"),
            room=room.runner.code,
            bot="random",
        )
        task = asyncio.create_task(crumb.run())
        try:

            def seats() -> str:
                return "\n".join(str(o.prompt) for o in lobby.query_one("#lobby-seats").options)

            # the lobby draws the advert once it has it: waited for as drawn, not as received
            await until(pilot, lambda: "bot (random) · online · ready" in seats(), "Crumb", 20)
            assert "person" in seats()  # Ann's
            assert room.bot_levels == {}  # nothing of it runs here
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the duel", 20)
            duel = app.screen
            assert isinstance(duel, NetDuelScreen)
            other = 1 - duel.net.seat
            assert duel.net.shown_as_bot(other) and not duel.net.is_bot(other)
            rows = seat_rows(duel.view(), duel.net, duel.net.seat)
            assert [r.tag for r in rows if r.name == "Crumb"] == ["(bot)"]
            await pilot.press("q", "y")
        finally:
            crumb.stop()
            await asyncio.wait_for(task, 10)


async def test_a_guest_joins_by_room_code_and_sees_the_host_seat() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        # typed after the room is listed; a W (the list's watch key) must be typed too
        code = "W" + new_room_code()[1:]
        async with hosted_duel(broker.url, code, full=False) as host:
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: join.rooms, "the host's room in the list")
                assert [r.room for r in join.rooms] == [code]
                await pilot.press(*code.lower(), "enter")  # typed by hand, any case
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen) and not lobby.hosting
                room = lobby.room
                assert room is not None and room.room == code

                def seated() -> bool:
                    advert = room.advert
                    return advert is not None and len(advert.taken) == 2

                await until(pilot, seated, "Ann to be seated")
                seats = "\n".join(str(o.prompt) for o in lobby.query_one("#lobby-seats").options)
                assert "Hank (host)" in seats and host.identity.fingerprint in seats
                assert "Ann (you)" in seats
                options = str(lobby.query_one("#lobby-options").render())
                assert "Core cards only" in options and "Move timeout: 60 s" in options
                assert "λ" not in options  # no room setting weakens the shuffle proofs
                # a guest cannot add bots or free seats
                assert lobby.check_action("add_bot", ()) is False
                assert lobby.check_action("remove_seat", ()) is False
                # chat reaches the host
                await pilot.press("m", *"hi", "enter")
                await until(pilot, lambda: host.chat, "the chat line at the host")
                assert host.chat == [("Ann", "hi")]
                await until(pilot, lambda: lobby.chat_lines, "the chat line in the lobby")
                assert lobby.chat_lines == ["Ann: hi"]
                # ready shows at the host; leaving frees the seat
                await pilot.press("r")
                await until(pilot, lambda: host.advert.taken[1].ready, "Ann ready at the host")
                await pilot.press("q")
                await until(pilot, lambda: len(host.advert.taken) == 1, "Ann's seat freed")


async def test_the_join_list_looks_again_keeps_its_cursor_and_joins_a_room_typed_early() -> None:
    """Left open, the join list looks again by itself: a room opened meanwhile turns up
    without a key press, the cursor stays on the room it was on, and a code typed before
    its room opened is joined once the room is there."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        first, second, late = sorted(new_room_code() for _ in range(3))
        async with hosted_duel(broker.url, second, name="Hank") as hank:
            await until_async(lambda: hank.advert, "Hank's advert")
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False, every=0.5))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: len(join.rooms) == 1, "Hank's room in the list")
                rooms = join.query_one("#join-rooms", OptionList)
                rooms.focus()
                assert rooms.highlighted == 0
                async with hosted_duel(broker.url, first, name="Mallory"):
                    # listed above Hank's (the same state, an earlier code)
                    await until(pilot, lambda: len(join.rooms) == 2, "Mallory's room too")
                    assert [r.room for r in join.rooms] == [first, second]
                    assert rooms.highlighted == 1 and join.rooms[1].code == hank.code
                # her room gone, the cursor is still on Hank's
                await until(pilot, lambda: len(join.rooms) == 1, "Mallory's room gone")
                assert rooms.highlighted == 0 and join.rooms[0].code == hank.code
                # a code typed before its room opens: not there, said once; then joined
                join.query_one("#join-input").focus()
                await pilot.press(*late.lower(), "enter")
                await until(
                    pilot, lambda: late in str(join.query_one("#join-status").render()), "not found"
                )
                assert isinstance(app.screen, JoinScreen)
                async with hosted_duel(broker.url, late, name="Carl") as carl:
                    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                    lobby = app.screen
                    assert isinstance(lobby, LobbyScreen)
                    await until(pilot, lambda: lobby.room is not None, "Carl's room")
                    assert lobby.room is not None
                    assert lobby.room.plan == JoinPlan(carl.code, broker.url)
                    await pilot.press("q")


async def test_the_join_list_pins_the_host_and_a_claimed_bare_code_is_refused() -> None:
    """Two hosts advertise the same room id (one an impostor): a bare code names neither,
    the full code the real host shares joins it, and a room picked from the list joins the
    host shown on its line, not whichever host answers first."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with (
            hosted_duel(broker.url, code, name="Hank") as hank,
            hosted_duel(broker.url, code, name="Mallory") as mallory,
        ):
            await until_async(lambda: hank.advert and mallory.advert, "both adverts")
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: len(join.rooms) == 2, "both claims in the list")
                assert {r.code for r in join.rooms} == {hank.code, mallory.code}
                lines = "\n".join(str(o.prompt) for o in join.query_one("#join-rooms").options)
                assert hank.code in lines and mallory.code in lines
                join.query_one("#join-input").focus()
                await pilot.press(*code, "enter")  # the bare id: two hosts claim it
                await pilot.pause()
                assert app.screen is join
                join.query_one("#join-input").value = ""
                await pilot.press(*hank.code.lower(), "enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen) and lobby.room is not None
                assert lobby.room.plan == JoinPlan(hank.code, join.rooms[0].broker)
                assert lobby.room.runner.host_tag == hank.code.split("-", 1)[1].replace("-", "")
            picked = app_with(JoinSearch(brokers=(broker.url,), lan=False), name="Bea")
            async with picked.run_test(size=SIZE) as pilot:
                join = picked.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: len(join.rooms) == 2, "both claims in the list")
                rooms = join.query_one("#join-rooms")
                rooms.focus()
                await pilot.press("down", "enter")
                await until(pilot, lambda: isinstance(picked.screen, LobbyScreen), "the lobby")
                lobby = picked.screen
                assert isinstance(lobby, LobbyScreen) and lobby.room is not None
                assert lobby.room.plan.room == join.rooms[1].code


async def test_a_damaged_player_key_is_told_whole_in_the_lobby(config_dir: Path) -> None:
    """The room cannot open without the player's key: the room panel says why, in full
    (the status line cuts it at 80 columns), and the file is left as it is."""
    config_dir.mkdir(parents=True, exist_ok=True)
    key = config_dir / "identity.json"
    key.write_text("{}")
    app = app_with(HostPlan(players=2, timeout=60, port=free_port(), lan=False))
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.problem is not None, "the problem")
        await pilot.pause()
        room = region_text(app, lobby.query_one("#lobby-broker"))
        said = f"Cannot open the room: {KeyFileError(key)}"
        assert "".join(said.split()) == "".join(room.split())  # wrapped, not cut
        assert lobby.room is None
        # no room, no code in the title
        title = region_text(app, lobby.query_one("#lobby-title"))
        assert title.strip() == "Cake Party · Cake Duel · you host"
    assert key.read_text() == "{}"


async def test_a_broker_that_cannot_be_reached_is_told_in_plain_words() -> None:
    """The room panel says which broker and why, in words for the user (the connection's
    own, "Connection refused", are for the log)."""
    port = free_port()  # nothing listens there
    app = app_with(HostPlan(players=2, timeout=60, broker=f"mqtt://127.0.0.1:{port}", lan=False))
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.problem is not None, "the problem", 20)
        await pilot.pause()
        said = f"Cannot reach the broker at mqtt://127.0.0.1:{port}: nothing answers on that port."
        assert lobby.problem == said
        # told whole, once the room panel is laid out again for its lines
        box = lobby.query_one("#lobby-broker")
        told = "".join(said.split())
        await until(pilot, lambda: "".join(region_text(app, box).split()) == told, said)


async def test_a_guest_whose_broker_cannot_be_reached_awaits_no_advert() -> None:
    port = free_port()  # nothing listens there
    app = app_with(JoinPlan(new_room_code(), f"mqtt://127.0.0.1:{port}"))
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        options = lobby.query_one("#lobby-options")
        await until(pilot, lambda: lobby.problem is not None, "the problem", 20)
        await pilot.pause()
        assert "nothing answers on that port" in lobby.problem
        assert " ".join(region_text(app, options).split()) == "No advert from the host"


async def test_a_chat_line_half_typed_as_the_game_begins_goes_on_at_the_table() -> None:
    """The host readies while Ann types in the lobby's chat: the table opens with her line
    still open, and none of its keys (p passes, 1 picks a card) plays a move."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code) as host:
            app = app_with(JoinPlan(code, broker.url))
            moves = Recorder(ActionChosen)
            async with app.run_test(size=SIZE, message_hook=moves) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                await until(pilot, lambda: lobby.check_action("ready", ()), "a seat")
                await pilot.press("r", "m", *"p1 see y")
                host.set_ready(True)
                await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the duel", 20)
                duel = app.screen
                assert isinstance(duel, NetDuelScreen)
                chat = duel.query_one(ChatInput)
                await until(pilot, lambda: app.focused is chat, "the chat line at the table")
                assert chat.value == "p1 see y"
                await pilot.press(*"ou", "enter")
                await until_async(lambda: host.chat, "the line at the host")
                assert host.chat == [("Ann", "p1 see you")]
                await until(pilot, lambda: not chat.display, "the keys back on the game")
                assert app.focused is not chat
                # a line coming faster than the others are shown lines is not sent: it
                # stays in the chat line, and the player is told why
                duel.net.runner._pace = ChatGate(burst=0)
                await pilot.press("m", *"again", "enter")
                await until(pilot, lambda: app._notifications, "the notice")
                assert "Too fast" in "".join(n.message for n in app._notifications)
                assert chat.display and app.focused is chat and chat.value == "again"
                await pilot.press("enter")  # at once again: still held, told once
                told = [n for n in app._notifications if "Too fast" in n.message]
                assert len(told) == 1 and chat.value == "again"
                duel.net.runner._pace = ChatGate()
                await pilot.press("enter")
                await until_async(lambda: len(host.chat) == 2, "the line sent after all")
                assert host.chat[-1] == ("Ann", "again") and not chat.display
                assert not moves.messages


async def test_a_player_who_left_comes_back_to_the_game_in_progress() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, ready=True) as host:
            plan = JoinPlan(code, broker.url)
            app = app_with(plan)
            async with app.run_test(size=SIZE) as pilot:
                lobby, duel = await ready_into_the_duel(pilot)
                await until(pilot, lambda: duel.net.story, "the first bout")
                told = list(duel.log_view.plain)
                seq = duel.net.peer.seq
                me = duel.net.runner.identity.player_id
                await pilot.press("q", "y")
                await until(pilot, lambda: lobby.gone, "Ann to leave the room")
            await until_async(lambda: host.online.get(me) is False, "Ann offline at the host")
            # the same player (same key, same journal) joins again: straight into the game
            again = app_with(plan)
            async with again.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(again.screen, NetDuelScreen), "the duel")
                back = again.screen
                assert isinstance(back, NetDuelScreen)
                assert back.net.peer.seq >= seq
                # the journal is replayed, every mix proof checked again, then the story told
                await until(
                    pilot,  # the screen is up before its widgets are: wait for the log too
                    lambda: bool(back.query("LogView")) and len(back.log_view.plain) >= len(told),
                    "the story",
                )
                assert back.log_view.plain[: len(told)] == told  # the story, told once
                await until(pilot, lambda: host.online.get(me) is True, "Ann online again")
                await pilot.press("q", "y")


async def test_a_player_whose_record_of_the_game_is_damaged_is_told_not_left_waiting(
    config_dir: Path,
) -> None:
    """Back in a game whose journal here no longer reads (its start overwritten): the
    lobby says so, in full, instead of "the game starts…" for ever."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, ready=True):
            plan = JoinPlan(code, broker.url)
            app = app_with(plan)
            async with app.run_test(size=SIZE) as pilot:
                lobby, duel = await ready_into_the_duel(pilot)
                await until(pilot, lambda: duel.net.story, "the first bout")
                await pilot.press("q", "y")
                await until(pilot, lambda: lobby.gone, "Ann to leave the room")
            mine = duel.net.runner.identity.player_id.hex()[:12]
            (journal,) = (config_dir.parent / "data" / "rooms").glob(f"{code}-*-{mine}.journal")
            with journal.open("r+b") as damaged:
                damaged.write(b"X" * 16)
            again = app_with(plan)
            async with again.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(again.screen, LobbyScreen), "the lobby")
                back = again.screen
                assert isinstance(back, LobbyScreen)
                await until(pilot, lambda: back.problem is not None, "the problem", 20)
                assert back.problem == room_error_text(JOURNAL_UNREADABLE)
                assert "Your record of this game is damaged" in back.problem
                box = back.query_one("#lobby-broker")
                told = " ".join(back.problem.split())
                await until(
                    pilot,
                    lambda: " ".join(region_text(again, box).split()) == told,
                    "the problem told whole in the room panel",
                )
                assert isinstance(again.screen, LobbyScreen)  # no game screen to hang on


async def until_async(test: Callable[[], object], what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        await asyncio.sleep(0.05)


async def test_the_lobby_s_help_shows_the_cards_of_the_variant_offered() -> None:
    """? in the lobby of a beginners' Cookies Battle room opens that game's cards: no 0,
    13 or Magician, the highest score winning; the lobby's own keys beside them."""
    from cakeparty.tui.screens.help import HelpScreen

    plan = HostPlan(
        game="cookies-battle",
        players=3,
        options=(("variant", "beginners"),),
        timeout=60,
        port=free_port(),
        lan=False,
    )
    app = app_with(plan)
    async with app.run_test(size=(100, 50)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        room = lobby.room
        assert room is not None
        await until(pilot, lambda: room.connected and room.advert is not None, "the room to open")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await until(pilot, lambda: "Scoring" in " ".join(rows(app)), "the cards")
        text = " ".join(" ".join(rows(app)).split())
        assert "The highest score wins" in text and "Magician" not in text, text

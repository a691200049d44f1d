"""Names: the first run asks for one; chat tells two players of the same name apart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual import events

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.netroom import JoinPlan
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.menu import MenuScreen
from cakeparty.tui.screens.settings import NameScreen, SettingsScreen
from cakeparty.tui.settings import Settings, load

from .languages import speaking
from .pilot import SIZE
from .test_lobby import app_with, until
from .test_table_says import screen_text


async def test_the_first_run_asks_for_a_name_before_the_menu(config_dir: Path) -> None:
    assert not (config_dir / "settings.json").exists()
    app = CakePartyApp(Settings(name="Player"))  # as the command line opens it
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        text = "\n".join(str(w.render()) for w in app.screen.query("Label, Static"))
        assert "Your name, as other players will see it" in text
        # at 80×24 the question and its keys are shown whole, not cut at the box's edge
        shown = " ".join(" ".join(screen_text(app).split("│")).split())
        assert "will see it in rooms and chat:" in shown
        assert "change it later in Settings (o)" in shown
        await pilot.press(*"Hank", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        greeting = str(app.screen.query_one("#menu-greeting").render())
        assert "Hello, Hank." in greeting
    assert json.loads((config_dir / "settings.json").read_text())["name"] == "Hank"
    assert load().name == "Hank"
    # the second run goes straight to the menu
    again = CakePartyApp(load())
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, MenuScreen)


@pytest.mark.parametrize(("language", "suggested"), [("en", "Player"), ("pl", "Gracz")])
def test_a_login_that_is_no_name_suggests_player_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, language: str, suggested: str
) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "root")
    with speaking(language):
        assert Settings(name="").name == suggested
    monkeypatch.setattr("getpass.getuser", lambda: "ola")
    with speaking(language):
        assert Settings(name="").name == "Ola"


async def test_esc_on_the_first_run_keeps_the_suggested_name(config_dir: Path) -> None:
    app = CakePartyApp(Settings(name="Bea"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert load().name == "Bea"  # saved, so the question is asked once


@pytest.mark.parametrize(
    "saved", ['{"name": 5, "bot_delay": 0.3}', '{"bot_delay": 0.3}', "[1, 2]", "{not json"]
)
async def test_settings_whose_name_is_lost_ask_for_it_again(config_dir: Path, saved: str) -> None:
    """A settings file with no name in it, a name that is no text, or no settings at all:
    the app asks the name as on a first run (not "Hello, Player"), keeping what is sound."""
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "settings.json").write_text(saved)
    app = CakePartyApp(load())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        await pilot.press("ctrl+u", *"Cleo", "enter")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
    kept = json.loads((config_dir / "settings.json").read_text())
    assert kept["name"] == "Cleo"
    assert kept["bot_delay"] == (0.3 if "bot_delay" in saved else Settings().bot_delay)


def _typed_at_once(app: CakePartyApp, text: str) -> None:
    """``text`` then enter as one terminal write brings them (tmux send-keys, a paste, a
    fast typist): every key is in the app's queue before the first is handled."""
    for char in text:
        app.post_message(events.Key(char, char))
    app.post_message(events.Key("enter", "\r"))


async def test_a_name_typed_with_its_enter_in_one_go_is_kept(config_dir: Path) -> None:
    app = CakePartyApp(Settings(name="Player"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        _typed_at_once(app, "Ania")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        # the settings' name field too: enter saves what was typed before it
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        await pilot.press("ctrl+u")
        _typed_at_once(app, "Bartek")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
    assert load().name == "Bartek"


async def test_a_name_that_shows_nothing_is_refused_where_it_is_typed(config_dir: Path) -> None:
    """A name of characters drawn as nothing or blank (a Hangul filler, a variation
    selector) is no name: every other player's app refuses it, so the app says so where it
    is typed and keeps the field open; one in the settings file gives way to the
    suggestion."""
    blank = "\u3164\ufe0f"
    app = CakePartyApp(Settings(name="Player"))
    app.NOTIFICATION_TIMEOUT = 600  # each notice stays to be counted, however slow the run
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        _typed_at_once(app, blank)
        await until(pilot, lambda: bool(app._notifications), "the notice")
        assert "Other players could not read that name" in str(list(app._notifications)[-1].message)
        assert isinstance(app.screen, NameScreen)  # still asking
        await pilot.press("ctrl+u", *"Dora", "enter")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        await pilot.press("ctrl+u")
        _typed_at_once(app, "\u2800")
        await until(pilot, lambda: len(app._notifications) >= 2, "the notice again")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu again")
    assert load().name == "Dora"
    assert Settings(name=blank).name == Settings(name="").name != blank
    assert Settings(name="Eve\x1b[2J").name == Settings(name="").name


async def test_chat_tells_two_players_of_the_same_name_apart() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        host = RoomRunner(
            broker=BrokerAddress.parse(broker.url),
            identity=Identity.generate("Ann"),
            room=code,
            host=HostSetup("cake-duel", 2, {"full": False}, timeout=60),
        )
        hosting = asyncio.create_task(host.run())
        try:
            app = app_with(JoinPlan(room=code, broker=broker.url), name="Ann")
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                room = lobby.room
                assert room is not None

                def seated() -> bool:
                    return room.advert is not None and len(room.advert.taken) == 2

                await until(pilot, seated, "the second Ann to be seated")
                await until(pilot, lambda: len(host.advert.taken) == 2, "both Anns at the host")
                guest = room.identity.fingerprint[:4]
                hosts = host.identity.fingerprint[:4]
                assert guest != hosts
                await pilot.press("m", *"hi", "enter")
                await until(pilot, lambda: host.chat, "the chat line at the host")
                assert host.chat == [(f"Ann {guest}", "hi")]
                host.say("hello")
                await until(pilot, lambda: len(lobby.chat_lines) == 2, "both lines in the lobby")
                assert lobby.chat_lines == [f"Ann {guest}: hi", f"Ann {hosts}: hello"]
        finally:
            host.stop()
            await asyncio.wait_for(hosting, 10)


def test_a_wide_name_keeps_the_columns_of_every_players_panel() -> None:
    """A name of wide characters (🎂, 漢: two columns each) is cut and padded by the
    columns it takes, so the columns after it stay where they are, in every game's
    players' rows and in the lobby."""
    from rich.cells import cell_len

    from cakeparty.protocol.lobby import Seat
    from cakeparty.tui.games.cookies_battle.parts import seat_line
    from cakeparty.tui.screens.lobby_parts import seat_line as lobby_line
    from cakeparty.tui.widgets.fitted import cut, fit

    names = ["Ann", "Żaneta 🎂 Wiśniewska", "漢字の名前です", "🎂🎂🎂🎂🎂🎂"]
    for name in names:
        for width in (3, 4, 7, 8, 10):
            assert cell_len(fit(name, width)) == width
            assert cell_len(cut(name, width)) <= width
            assert cut(name, width) == name or cut(name, width).endswith("…")
    assert cut("漢字の名前です", 5) == "漢字…"  # not a half of 名
    rows = [
        seat_line(name, played="blue-7", pieces=3, markers=1, won=(), to_act=True, leader=False,
                  you=False, width=50).plain
        for name in names
    ]  # fmt: skip
    assert len({cell_len(row[: row.index("B7")]) for row in rows}) == 1  # its column
    me, host = b"m" * 32, b"h" * 32
    lines = [
        lobby_line(0, Seat(me, name), me=me, host=host, host_name="Ann").plain for name in names
    ]
    columns = {cell_len(line[: line.index(Seat(me, "x").fingerprint)]) for line in lines}
    assert len(columns) == 1


def test_a_wide_name_is_measured_in_columns_for_its_column() -> None:
    """The duel's and Cake Master's players' columns are as wide as the widest name in
    columns (Cake Master's ten at most), so a name of wide characters is shown whole where
    its columns fit, not cut at its count of characters."""
    from cakeparty.tui.games.cake_duel.parts import board
    from cakeparty.tui.games.cake_master.lines import cake_rows
    from cakeparty.tui.table.local import GameSetup, LocalTable

    for game, cakes in (("cake-duel", "🎂" * 6), ("cake-master", "🎂" * 4)):
        setup = GameSetup(game, 2, hotseat=True, names=(cakes, "Bo"), seed=1)
        table = LocalTable(setup, cakes)
        view = table.view(None)
        if game == "cake-duel":
            shown = "\n".join(board(table, view, 60).plain.split("\n")[2:4])  # the seats
        else:
            shown = "\n".join(row.plain for row in cake_rows(table.names, view))
        assert cakes in shown, (game, shown)


def test_names_cut_alike_keep_the_ends_that_tell_them_apart() -> None:
    """Two players whose names differ only past the cut ("Jugador 2", "Jugador 3": a
    hot-seat table's default names in Spanish, or two long names told apart by their
    keys) keep as much of their ends as tells them apart; a name that fits, or the same
    name twice, is shown as it is."""
    from rich.cells import cell_len

    from cakeparty.tui.widgets.fitted import cut_apart

    assert cut_apart(["Dana", "Jugador 2", "Jugador 3"], 8) == ["Dana", "Jugado…2", "Jugado…3"]
    # a last word that fits is kept whole: the key's group of a name two players chose
    assert cut_apart(["Alexander JIZJ", "Alexander K2Q4"], 8) == ["Ale…JIZJ", "Ale…K2Q4"]
    assert cut_apart(["Alexander One", "Alexander Two"], 8) == ["Alex…One", "Alex…Two"]
    assert cut_apart(["Jugador Primero", "Jugador Segundo"], 9) == ["Jugado…ro", "Jugado…do"]
    assert cut_apart(["Ann", "Ann", "Jugador 2"], 8) == ["Ann", "Ann", "Jugador…"]
    assert cut_apart(["Team A player", "Team B player"], 8) == ["Team A…", "Team B…"]
    assert cut_apart(["Jugador 12", "Jugador 22", "Jugador 2"], 8) == [
        "Jugad…12",
        "Jugad…22",
        "Jugado…2",
    ]
    wide = cut_apart(["漢字漢字漢字1", "漢字漢字漢字2"], 8)
    assert wide == ["漢字漢…1", "漢字漢…2"] and all(cell_len(n) <= 8 for n in wide)
    for width in (1, 2, 3, 5):
        for shown in cut_apart(["Jugador 2", "Jugador 3"], width):
            assert cell_len(shown) <= width


@pytest.mark.parametrize(
    ("game", "players"),
    [("cake-duel", 2), ("cake-master", 2), ("cake-of-doom", 3), ("cookies-battle", 4)],
)
def test_every_games_players_column_tells_names_cut_alike_apart(game: str, players: int) -> None:
    """At a hot-seat table whose players' names differ only past their column ("Jugador
    Primero", "Jugador Segundo"…), every game's players' rows still tell them apart."""
    from cakeparty.tui.games.cake_duel.parts import board
    from cakeparty.tui.games.cake_master.lines import cake_rows
    from cakeparty.tui.games.cake_of_doom.parts import players_text
    from cakeparty.tui.games.cookies_battle.parts import seats_text
    from cakeparty.tui.table.local import GameSetup, LocalTable

    names = ("Jugador Primero", "Jugador Segundo", "Jugador Tercero", "Jugador Cuarto")
    setup = GameSetup(game, players, hotseat=True, names=names[:players], seed=1)
    table = LocalTable(setup, names[0])
    view = table.view(0 if game in ("cake-of-doom", "cookies-battle") else None)
    if game == "cake-duel":
        rows = board(table, view, 24).plain.split("\n")[2 : 2 + players]
    elif game == "cake-master":
        rows = [row.plain for row in cake_rows(table.names, view)][:players]
    elif game == "cake-of-doom":
        rows = players_text(view, table.names, 0, 33).plain.split("\n")
    else:
        rows = seats_text(view, table.names, 0, 50).plain.split("\n")[1 : 1 + players]
    shown = [row.split()[0].strip("▶▸*") for row in rows]
    assert all(name.startswith("Ju") for name in shown), rows
    assert len(set(shown)) == players, rows


def test_cake_masters_title_cuts_names_by_columns_and_tells_them_apart() -> None:
    """The title line's stars name every seat, each name cut to its share of the line by
    the columns it takes (a name of wide characters does not push the line past its
    width) and told apart from a name cut alike."""
    from rich.cells import cell_len

    from cakeparty.tui.games.cake_master.lines import title_line
    from cakeparty.tui.table.local import GameSetup, LocalTable

    for names in (
        ("Jugador Primero", "Jugador Segundo", "Jugador Tercero"),
        ("🎂" * 12, "漢字" * 6, "Bo"),
    ):
        setup = GameSetup("cake-master", 3, hotseat=True, names=names, seed=1)
        table = LocalTable(setup, names[0])
        title = title_line(table.view(None), table.names, 80).plain
        assert cell_len(title) <= 80, title
        stars = title.split(" · ")[-1].split("★0")[:3]
        assert len({star.strip() for star in stars}) == 3, title


def test_a_cut_without_a_mark_keeps_every_column_for_letters() -> None:
    """Where a name has three columns (six players in Cake Master's title line), the
    ellipsis would take one of them: such a cut shows letters only, still told apart."""
    from cakeparty.tui.widgets.fitted import cut, cut_apart

    assert cut("Muffin", 3, "") == "Muf"
    assert cut_apart(["Muffin", "Jugador 2", "Jugador 3"], 3, "") == ["Muf", "Ju2", "Ju3"]
    assert cut("Muffin", 1) == "…" and cut("Muffin", 0) == ""


async def test_a_pasted_name_or_chat_line_goes_in_cut_to_its_room(config_dir: Path) -> None:
    """Textual's field took nothing of a paste longer than its limit (and the first line
    only): a name or a chat line pasted a little too long vanished without a word."""
    from textual.app import App, ComposeResult

    from cakeparty.tui.widgets import ChatInput

    app = CakePartyApp(Settings(name="Player"))  # the first run asks for a name
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        field = app.screen.query_one("#name-input")
        field.post_message(events.Paste("Bartholomew\nvon Cakesworth the Third"))
        await pilot.pause()
        assert field.value == "Bartholomew von "  # both lines, cut to the 16 a name holds
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    assert load().name == "Bartholomew von"

    class Table(App[None]):
        def compose(self) -> ComposeResult:
            yield ChatInput()

    table = Table()
    async with table.run_test() as pilot:
        chat = table.query_one(ChatInput)
        chat.focus()
        await pilot.press(*"gg ")
        chat.post_message(events.Paste("a" * 150 + "\n\n" + "b" * 150))
        await pilot.pause()
        assert chat.value == "gg " + "a" * 150 + " " + "b" * 46  # the 200 a line holds
        chat.cursor_position = 0
        chat.post_message(events.Paste("more"))  # a full line takes no more
        await pilot.pause()
        assert len(chat.value) == 200 and chat.value.startswith("gg ")
        chat.selection = (0, 3)  # a selection is replaced, within the same room
        chat.post_message(events.Paste("hello there"))
        await pilot.pause()
        assert chat.value == "hel" + "a" * 150 + " " + "b" * 46

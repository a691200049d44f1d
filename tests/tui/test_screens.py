"""Every screen opens and closes by keyboard; settings are saved; colours can be off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import OptionList, Static

from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.messages import SettingsSaved
from cakeparty.tui.screens.dialogs import (
    Choice,
    ChoiceScreen,
    ConfirmScreen,
    NoticeScreen,
    PassScreen,
)
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.screens.menu import GamePickerScreen, MenuScreen, SetupScreen
from cakeparty.tui.screens.rooms import HostSetupScreen, JoinScreen
from cakeparty.tui.screens.settings import NameScreen, SettingsScreen
from cakeparty.tui.settings import Settings, load
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.widgets import Cycler, HandView
from cakeparty.tui.widgets.footer import KeyFooter

from .languages import speaking
from .pilot import SIZE, OneScreen, Recorder, make_app, rows, settle, until


async def test_the_menu_opens_and_closes_every_screen_by_keyboard() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        # rules and cards: three tabs, switched with ←/→, closed with esc (1: the first game)
        await pilot.press("r", "1")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "cards"
        await pilot.press("right")
        assert help_screen.tab == "rules"
        await pilot.press("l", "l")
        assert help_screen.tab == "cards"
        await pilot.press("left")
        assert help_screen.tab == "keys"
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        # the local game form backs out with esc, for bots and for hot-seat
        for key, hotseat in (("b", False), ("s", True)):
            await pilot.press(key, "1")
            assert isinstance(app.screen, SetupScreen) and app.screen.hotseat is hotseat
            await pilot.press("escape")
            assert isinstance(app.screen, MenuScreen)
        # hosting and joining a networked game back out with esc too
        await pilot.press("h", "1")
        assert isinstance(app.screen, HostSetupScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("j")
        assert isinstance(app.screen, JoinScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        # the menu list works with arrows and enter too: the 5th entry is the rules
        await pilot.press("down", "down", "down", "down", "enter", "1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("q")
    assert app.return_code == 0


async def test_the_game_form_starts_the_game_chosen() -> None:
    app = make_app(bot_level="random")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b", "1")
        form = app.screen
        assert isinstance(form, SetupScreen)
        assert form.setup == GameSetup(players=2, bots="random", options={"full": True})
        await pilot.press("right", "down", "right", "down", "space")
        assert form.setup == GameSetup(players=4, bots="normal", options={"full": False})
        await pilot.press("enter")
        duel = await settle(pilot)
        while not isinstance(duel, DuelScreen):  # a team's first choice may open a list
            await pilot.press("escape")
            duel = await settle(pilot)
        assert duel.duel.players == 4 and duel.duel.setup.option("full") is False
        assert duel.duel.names[0] == "Ann" and duel.leave == "pop"
        # q asks first; n keeps playing; q then y goes back to the menu
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is duel
        await pilot.press("q", "y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_in_game_dialogs_open_and_close_by_keyboard() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert app.screen is duel
        hand = duel.query_one(HandView)
        assert hand.has_focus
        await pilot.press("right", "l", "h")
        assert hand.cursor == 1
        await pilot.press("space", "space")
        assert hand.selected == ()
        # the first claim or block list opens with the card under the cursor; esc closes it
        key = "c" if "claim" in {b.binding.action for b in duel.active_bindings.values()} else "b"
        await pilot.press(key)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("escape")
        assert app.screen is duel and duel.awaiting == 0
        await pilot.press("pagedown", "pageup")
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape")
        assert app.screen is duel
        await pilot.press("q", "y")
    # started straight into a game (`cakeparty play`), quitting it quits the app
    assert app.return_code == 0


async def test_settings_are_edited_and_saved_as_json(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the home the app runs in (over SSH: the one the server gave the player's key)
    monkeypatch.setenv("HOME", str(config_dir.parent))
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.6), persist=True, ask_name=False)
    app.NOTIFICATION_TIMEOUT = 600  # the notice stays to be read, however slow the run
    record = Recorder(SettingsSaved)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        await pilot.press("o")
        form = app.screen
        assert isinstance(form, SettingsScreen)
        await pilot.press("ctrl+a", "ctrl+k", *"Zoé", "down")  # the name, then the bot level
        await pilot.press("left", "down", "left", "down", "right", "down", "right")
        await pilot.press("down", "right")  # the bell: off
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
        edited = Settings(
            name="Zoé", bot_level="random", bot_delay=0.3, bot_think=2.0, colours=False, bell=False
        )
        assert app.settings == edited
        assert [m.settings for m in record.of(SettingsSaved)] == [app.settings]

        # the file is named from the home, not by the computer's layout around it
        def told() -> list[str]:
            return [n.message for n in app._notifications if "Settings saved" in n.message]

        await until(pilot, told, "the notice of the settings saved")
        assert told() == [f"Settings saved to {Path('~', 'config', 'settings.json')}"]
        assert not app.colours
        # esc leaves them as they were
        await pilot.press("o", "right", "escape")
        assert app.settings.bot_level == "random"
    saved = json.loads((config_dir / "settings.json").read_text())
    assert saved == {
        "name": "Zoé",
        "bot_level": "random",
        "bot_delay": 0.3,
        "bot_think": 2.0,
        "colours": False,
        "bell": False,
    }
    assert load() == app.settings


def test_settings_fall_back_to_defaults(config_dir: Path) -> None:
    assert load() == Settings()
    config_dir.mkdir(parents=True)
    (config_dir / "settings.json").write_text("{not json")
    assert load() == Settings()
    (config_dir / "settings.json").write_text(
        json.dumps({"name": 7, "bot_level": "godlike", "bot_delay": True, "colours": "no", "x": 1})
    )
    assert load() == Settings()
    (config_dir / "settings.json").write_text(json.dumps({"bot_delay": 99, "name": "  Bo  "}))
    assert load() == Settings(name="Bo", bot_delay=5.0)
    # numbers that are none (NaN), or past any float: the defaults, never a crash
    for delay, think in ((float("nan"), 10**400), (float("inf"), float("-inf"))):
        (config_dir / "settings.json").write_text(
            json.dumps({"bot_delay": delay, "bot_think": think, "name": "Bo"})
        )
        assert load() == Settings(name="Bo")


@pytest.mark.parametrize("no_color", [True, False])
async def test_no_color_turns_colours_off(no_color: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(GameSetup(seed=1), colours=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.colours is not no_color


def footer_line(app: CakePartyApp) -> str:
    """The footer's keys as shown, "key what" each."""
    from textual.widgets._footer import FooterKey

    keys = app.screen.query(FooterKey)
    return " ".join(f"{k.key_display or k.key} {k.description}" for k in keys)


async def test_with_two_games_the_menu_asks_which_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game entry goes through the game picker; the form is the chosen game's own."""
    from dataclasses import replace

    import cakeparty.tui.games as games
    from cakeparty.tui.screens.menu import GamePickerScreen
    from cakeparty.tui.table.registration import Choice, GameOption, PlayerCount, lookup

    duel = lookup("cake-duel")
    other = replace(
        duel,
        name="other-game",
        label="Other Game",
        counts=(PlayerCount(3, "3"), PlayerCount(5, "5")),
        options=(GameOption("solo", "Solo", (Choice(False, "no"), Choice(True, "yes")), False),),
    )
    monkeypatch.setattr(games, "GAMES", (duel, other))
    # the other game has a screen but no rules engine to ask for its bot levels
    monkeypatch.setattr(SetupScreen, "levels", property(lambda self: ("random", "normal")))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.query_one(OptionList).get_option_at_index(0)
        assert "Play a game against bots" in str(first.prompt)
        await pilot.press("b")
        picker = app.screen
        assert isinstance(picker, GamePickerScreen)
        assert [title for _name, title in picker.games] == ["Cake Duel", "Other Game"]
        await until(pilot, lambda: "⏎ Choose" in footer_line(app), "⏎ Choose in the footer")
        await pilot.press("2")
        form = app.screen
        assert isinstance(form, SetupScreen) and form.table is other
        assert [c.name for c in form.query(Cycler)] == ["players", "bots", "solo"]
        assert form.query(Cycler).first().value == 3
        await pilot.press("escape", "h")
        assert isinstance(app.screen, GamePickerScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize(
    ("key", "master"), [("b", "1–6 players"), ("s", "1–6 players"), ("h", "2–6 players")]
)
async def test_the_game_picker_says_each_game_s_kind_and_how_many_may_play(
    key: str, master: str
) -> None:
    """A newcomer who knows none of the titles reads what each game is; a room's counts
    leave out Cake Master's solo, which is played at one computer only."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await until(pilot, lambda: isinstance(app.screen, GamePickerScreen), "the picker")
        shown = "\n".join(rows(app))
        assert "Cake Duel        bluffing · 2 or 4 players" in shown
        assert f"Cake Master      drafting · {master}" in shown
        assert "Cookies Battle   trick-taking · 2–6 players" in shown
        assert "Cake of Doom     bribing · 3–6 players" in shown


async def keys_in_one_read(pilot: Any, *keys: str) -> None:
    """``keys`` as a terminal delivers keys typed fast (or bunched by a slow link): all
    of them queued before the app handles the first."""
    for key in keys:
        pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
    await pilot.pause()
    await pilot.pause()


async def test_two_enters_in_one_read_close_a_choice_and_leave_the_game_standing() -> None:
    """A list's choice closes its dialog on a message: a second enter already on its way
    chose again, and the dialog, gone, took the game's screen with it (a blank terminal)."""
    app = make_app(GameSetup(players=4, bots="normal", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "who attacks first")
        duel = app.screen_stack[-2]
        assert isinstance(duel, DuelScreen)
        await keys_in_one_read(pilot, "enter", "enter")
        await until(pilot, lambda: app.screen is duel, "the duel again")
        assert duel in app.screen_stack and not isinstance(app.screen, ChoiceScreen)


async def test_two_numbers_in_one_read_pick_one_game_and_open_its_form() -> None:
    from cakeparty.tui.screens.menu import GamePickerScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        await pilot.press("b")
        assert isinstance(app.screen, GamePickerScreen)
        await keys_in_one_read(pilot, "1", "1")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "the game's form")
        assert menu in app.screen_stack


async def test_two_enters_in_one_read_on_the_menu_open_one_screen() -> None:
    """The menu's list chose on a message: a second enter on its way opened the game
    picker twice (one more esc to get back, or a kept game resumed twice)."""
    from cakeparty.tui.screens.menu import GamePickerScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await keys_in_one_read(pilot, "enter", "enter")  # the first entry: vs bots
        await until(pilot, lambda: isinstance(app.screen, GamePickerScreen), "the picker")
        assert [type(s) for s in app.screen_stack[1:]] == [MenuScreen, GamePickerScreen]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "q leaves (a game asks first); ctrl+q quits at once."),
        ("es", "ctrl+q cierra al instante"),
    ],
)
async def test_ctrl_c_says_how_to_leave_in_the_players_words(language: str, said: str) -> None:
    """ctrl+c, which quits many programs, leaves the app running and says which keys
    leave it, in the player's language and without markup (Textual's own toast said
    "Press [b]ctrl+q[/b]" in English)."""
    app = make_app()
    with speaking(language):
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.press("ctrl+c")
            await until(pilot, lambda: app._notifications, "the toast")
            [toast] = list(app._notifications)
            assert said in toast.message and "[" not in toast.message
            assert app.is_running and isinstance(app.screen, MenuScreen)


async def test_a_notice_still_shown_is_not_stacked_again() -> None:
    """A key pressed again and again while its notice is up (ctrl+c, a refused move)
    adds no copy of it: four copies had covered the rows above the footer; another
    notice still shows beside it."""
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        for _ in range(4):
            await pilot.press("ctrl+c")
        await until(pilot, lambda: app._notifications, "the toast")
        await pilot.pause()
        assert len(list(app._notifications)) == 1
        app.notify("Something else")
        await until(pilot, lambda: len(list(app._notifications)) == 2, "another toast")


@pytest.mark.parametrize(
    "build",
    [
        lambda: ChoiceScreen("Draw", [Choice("one", 1), Choice("two", 2)]),
        lambda: GamePickerScreen([("cake-duel", "Cake Duel"), ("cake-master", "Cake Master")]),
        lambda: SettingsScreen(Settings(name="Ann")),
    ],
    ids=["choice", "picker", "settings"],
)
async def test_a_screen_closed_before_it_is_drawn_leaves_the_app_running(build: Any) -> None:
    """A list the game opens can be picked by a key already waiting, before the list is
    drawn (seen once in a hosted Cake of Doom, keys at random): its widgets are gone when
    its mount comes, which looked for them and took the app down."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        base = app.screen
        for _ in range(3):
            screen = build()
            app.push_screen(screen)
            screen.dismiss(None)  # at once: before its compose and mount have run
            await pilot.pause()
            assert app.is_running and app.screen is base


async def test_a_toast_leaves_the_lines_above_the_footer_readable() -> None:
    """A notice floats over the panels, above the two lines over the footer: the prompt
    and the status line say what to do, and a toast drawn over them (as Textual puts it,
    right over the footer) hid half of both for as long as it showed."""
    setup = GameSetup(game="cookies-battle", players=4, bots="normal", seed=3)
    app = make_app(setup)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: "Pick a card" in "".join(rows(app)), "the pass")
        before = rows(app)[-3:-1]
        await pilot.press("enter")  # no card chosen yet: a toast says what to do
        await until(pilot, lambda: app._notifications, "the toast")
        await until(pilot, lambda: "for the left" in "".join(rows(app)), "the toast drawn")
        assert rows(app)[-3:-1] == before


def footer_words(app: Any) -> list[str]:
    """The words of the screen's last row (none while nothing is drawn)."""
    drawn = rows(app)
    return drawn[-1].split() if drawn else []


class Table(Screen[None]):
    """A table with keys of its own (a card, a pass), its help and its q."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "card", "Card", key_display="←→"),
        Binding("p", "pass_turn", "Pass"),
        Binding("question_mark", "help", "Help", key_display="?"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.left = 0

    def compose(self) -> ComposeResult:
        yield Static("the table")
        yield KeyFooter()

    def action_card(self) -> None:
        pass

    def action_pass_turn(self) -> None:
        pass

    def action_help(self) -> None:
        pass

    def action_quit_game(self) -> None:
        self.left += 1


class LocalTable(Table):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit_game", "Quit")]


class RoomTable(Table):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit_game", "Leave")]


@pytest.mark.parametrize(("kind", "quit_words"), [(LocalTable, "Quit"), (RoomTable, "Leave")])
async def test_a_dialog_over_a_table_shows_its_own_keys_in_the_footer(
    kind: type[Table], quit_words: str
) -> None:
    """A list, a question, a notice, the hot-seat's pass or the first run's name over a
    table: the footer says the dialog's keys (the table's q as the table names it: "Quit"
    at one computer, "Leave" in a room), not the table's keys that do nothing while it is
    up."""
    table = kind()
    app = OneScreen(table)
    async with app.run_test(size=SIZE) as pilot:

        async def footer_is(keys: str) -> None:
            await until(pilot, lambda: footer_words(app) == keys.split(), keys)

        await footer_is(f"←→ Card p Pass ? Help q {quit_words}")
        dialogs: list[tuple[Screen[Any], str]] = [
            (
                ChoiceScreen("Which?", [Choice("one", 1), Choice("two", 2)]),
                f"⏎ Choose esc Back ? Help q {quit_words}",
            ),
            (ConfirmScreen("Sure?"), "y Yes n No"),
            (NoticeScreen("News", ["a line"]), "⏎ Continue"),
            (PassScreen("Bob"), "⏎ Ready q Quit"),
            (NameScreen("Zed"), "⏎ OK esc Keep the suggestion"),
        ]
        for dialog, keys in dialogs:
            app.push_screen(dialog)
            await footer_is(keys)
            await pilot.press("escape" if not isinstance(dialog, PassScreen) else "enter")
            await until(pilot, lambda: app.screen is table, "the table again")
            await footer_is(f"←→ Card p Pass ? Help q {quit_words}")
        # the list's q is the table's
        app.push_screen(ChoiceScreen("Which?", [Choice("one", 1)]))
        await footer_is(f"⏎ Choose esc Back ? Help q {quit_words}")
        await pilot.press("q")
        await until(pilot, lambda: table.left == 1, "the table's q")
        assert app.screen is table


async def test_a_list_over_a_screen_without_q_does_not_offer_it() -> None:
    """The menu has no game to quit: a list over it names esc, not q."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        app.push_screen(ChoiceScreen("Which?", [Choice("one", 1)]))
        await until(pilot, lambda: footer_words(app) == ["⏎", "Choose", "esc", "Back"], "keys")

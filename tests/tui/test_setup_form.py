"""The local game form at 80×24: tournament and the learning option by keyboard, and the
people's names in hot-seat play; the same options from the command line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cakeparty.tui import cli
from cakeparty.tui.arguments import game_options
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.lobby_parts import options_lines
from cakeparty.tui.screens.menu import MenuScreen, SetupScreen
from cakeparty.tui.screens.rooms import HostSetupScreen
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.registration import lookup
from cakeparty.tui.widgets import Cycler

from .languages import screen_lines
from .pilot import SIZE, make_app


async def test_the_form_reaches_tournament_and_learning_options_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("b", "1")
        form = app.screen
        assert isinstance(form, SetupScreen)
        names = [c.name for c in form.query(Cycler)]
        assert names == ["players", "bots", "full", "tournament", "show_specials"]
        # every line of the form is inside the 80×24 screen
        for cycler in form.query(Cycler):
            region = cycler.region
            assert region.height == 1 and 0 <= region.y < SIZE[1] - 1
        text = " ".join(str(c.render()) for c in form.query(Cycler))
        assert "one duel (3 bouts win)" in text and "hidden, as printed" in text
        # down to "Match" and "Specials", right to change each
        await pilot.press("down", "down", "down", "right", "down", "right")
        rendered = {c.name: str(c.render()) for c in form.query(Cycler)}
        assert "tournament (best of 5)" in rendered["tournament"]
        assert "shown (for learning)" in rendered["show_specials"]
        await pilot.press("enter")
        await pilot.pause()
        duel = app.screen
        assert isinstance(duel, DuelScreen)
        setup = duel.duel.setup
        chosen = (setup.option("tournament"), setup.option("show_specials"), setup.option("full"))
        assert chosen == (True, True, True)
        options = duel.duel.match.state.options
        assert options.tournament and options.show_specials


async def test_the_menu_s_list_steps_back_while_its_dialogs_are_open() -> None:
    """Which game, then its form, open over the banner alone: none of the menu's list
    shows around them (its edges looked like the dialog's); back at the menu, it is there."""
    app = make_app()

    def shown() -> str:
        return "\n".join(screen_lines(app))

    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert "Play a game against bots" in shown()
        await pilot.press("b")
        await pilot.pause()
        assert "Which game?" in shown()
        listed = menu.query_one("#menu-options")
        assert not listed.visible  # under the dialog, the list is not drawn
        await pilot.press("3")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "Cookies Battle against bots" in shown() and not listed.visible
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is menu and listed.visible
        assert "Play a game against bots" in shown()


async def test_hot_seat_players_are_named_at_setup() -> None:
    app = make_app()  # the settings name is Ann
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s", "1")
        form = app.screen
        assert isinstance(form, SetupScreen)
        first, second = form.query_one("#name-0"), form.query_one("#name-1")
        assert (first.value, second.value) == ("Ann", "Player 2")
        assert not form.query_one("#setup-name-2").display  # a duel: two names
        await pilot.press("right")  # four players: two teams
        assert form.query_one("#setup-name-3").display
        assert form.query_one("#setup-name-3").region.y < SIZE[1] - 1
        await pilot.click("#name-1")
        second.value = ""
        await pilot.press(*"Bob")
        assert second.value == "Bob"
        await pilot.press("enter")
        await pilot.pause()
        # the first person is handed the keyboard, by name, over the duel
        (duel,) = [s for s in app.screen_stack if isinstance(s, DuelScreen)]
        assert duel.duel.names == ("Ann", "Bob", "Player 3", "Player 4")


def test_play_and_simulate_take_the_duel_options(
    opened: list[Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started = opened
    assert cli.main(["play", "cake-duel", "--tournament", "--show-specials", "--seed", "3"]) == 0
    assert started[0] == GameSetup(options={"tournament": True, "show_specials": True}, seed=3)
    assert started[0].rule_options == {"full": True, "tournament": True, "show_specials": True}
    argv = ["simulate", "cake-duel", "--games", "1", "--seed", "5", "--json"]
    assert cli.main([*argv, "--tournament"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert cli.main(argv) == 0
    single = json.loads(capsys.readouterr().out)
    # a tournament plays more duels than one: more bouts for the same seed
    assert report["bouts_per_game"] > single["bouts_per_game"], (report, single)


def test_a_duel_option_for_another_game_is_a_clear_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["simulate", "cake-of-doom", "--games", "1", "--tournament"])
    assert exit_info.value.code == 2
    assert "tournament" in capsys.readouterr().err


async def test_the_host_form_reaches_both_options_and_the_lobby_shows_them() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h", "1")
        form = app.screen
        assert isinstance(form, HostSetupScreen)
        cyclers = {c.name: c for c in form.query(Cycler)}
        assert {"tournament", "show_specials", "on_timeout"} <= set(cyclers)
        assert all(0 <= c.region.y < SIZE[1] - 1 for c in cyclers.values())
        await pilot.press("down", "down", "right", "down", "right")
        plan = form.chosen
        assert (plan.option("tournament"), plan.option("show_specials")) == (True, True)
        assert plan.rule_options == {"full": True, "tournament": True, "show_specials": True}
        assert plan.on_timeout == "ask"  # by default the others are asked
        await pilot.press("down", "down", "right")
        plan = form.chosen
        assert plan.on_timeout == "end"
    line = options_lines(None, plan).plain
    assert "tournament (best of 5)" in line and "specials shown (learning)" in line
    assert "then an offline player's game ends" in line
    assert "tournament" not in options_lines(None, HostPlan()).plain


async def test_cookies_battle_s_forms_start_at_four_and_hide_the_variant_for_the_duel() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b", "3")
        form = app.screen
        assert isinstance(form, SetupScreen)
        assert form.setup.players == 4
        await pilot.press("escape", "h", "3")
        form = app.screen
        assert isinstance(form, HostSetupScreen)
        cyclers = {c.name: c for c in form.query(Cycler)}
        assert form.chosen.players == 4 and cyclers["variant"].display
        await pilot.press("down", "right")  # the variant: beginners
        assert form.chosen.option("variant") == "beginners"
        await pilot.press("up", "left", "left")  # 3 players, then the duel
        assert form.chosen.players == 2
        assert not cyclers["variant"].display  # the duel has no variant to choose
        assert form.chosen.option("variant") == "standard"
        await pilot.press("down")  # the next line shown: the move timeout
        assert app.focused is cyclers["timeout"]
        await pilot.press("up", "right")  # back to 3 players: the choice comes back
        assert cyclers["variant"].display and form.chosen.option("variant") == "beginners"


@pytest.mark.parametrize("command", ["host", "selfplay"])
def test_host_and_selfplay_take_the_duel_options(command: str) -> None:
    argv = [command, "cake-duel", "--tournament", "--show-specials"]
    if command == "selfplay":
        argv += ["--broker", "mqtt://127.0.0.1:1883"]
    args = cli.build_parser().parse_args(argv)
    duel = lookup("cake-duel")
    chosen = game_options(args, "cake-duel")
    assert duel.rule_options(chosen) == {"full": True, "tournament": True, "show_specials": True}
    plain = cli.build_parser().parse_args(argv[:2] + argv[4:])
    assert duel.rule_options(game_options(plain, "cake-duel")) == {"full": True}


def test_a_label_as_wide_as_its_column_or_wider_keeps_a_space_before_the_value() -> None:
    """Polish "Czas namysłu botów" fills the label column to the last place: the value's
    ◀ still stands apart, and a short label's value stays in the column."""
    width = Cycler.LABEL_WIDTH
    for label in ("Bots", "Czas namysłu botów", "Czas namysłu botów — długi"):
        line = Cycler("think", label, [("1.0 s", 1.0)]).render().plain
        assert line.startswith(label + " ") and "◀ 1.0 s ▶" in line
        assert line.index("◀") == max(width, len(label) + 1)


async def test_a_password_typed_in_the_host_form_s_broker_shows_as_dots() -> None:
    """The broker field keeps the login typed with the address and shows its password as
    dots, from its first character on; an address the form refuses names it so too."""
    from textual.widgets import Input

    from .test_table_says import screen_text

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h", "1")
        form = app.screen
        assert isinstance(form, HostSetupScreen)
        field = form.query_one("#host-broker", Input)
        field.focus()
        await pilot.press(*"mqtt://ana:s")
        await pilot.pause()
        assert "mqtt://ana:•" in screen_text(app)  # not yet a whole address: hidden already
        await pilot.press(*"3cret@127.0.0.1:1883")
        await pilot.pause()
        shown = screen_text(app)
        assert "s3cret" not in shown and "mqtt://ana:••••••@127.0.0.1:1883" in shown
        assert field.value == "mqtt://ana:s3cret@127.0.0.1:1883"
        assert form.chosen.broker == "mqtt://ana:s3cret@127.0.0.1:1883"  # the room logs in
        await pilot.press(*"/x", "enter")  # no path in a broker address: refused, and said
        await pilot.pause()
        assert app.screen is form
        said = " ".join(str(n.message) for n in app._notifications)
        assert "has no path" in said and "ana:••••••@" in said and "s3cret" not in said

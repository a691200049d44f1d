"""Nothing reaches the screen untranslated: the app run in a pseudo language made from the
code's own msgids (every letter an accented look-alike) shows no word of plain letters
that is not a name or a key. A failure names the words and the row they are on.

The shared screens and each game are separate tests, so a failure says whose text it is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from cakeparty.broker.embedded import free_port
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.dialogs import ChoiceScreen, PassScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.registration import registered
from cakeparty.tui.table.screen import TableScreen

from .languages import pseudo, screen_lines, speaking, untranslated, write_pseudo
from .pilot import SIZE, make_app, until

#: Text that is not from a catalog: what was typed.
NOT_CATALOG = (Input,)


@pytest.fixture(scope="module")
def pseudo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # each game's help is drawn once in English first, as when a player changes the
    # language: a reference kept from then on would show here in English
    for table in registered():
        if table.help is not None:
            table.help(None)
    return write_pseudo(tmp_path_factory.mktemp("locale"))


@pytest.fixture(autouse=True)
def in_pseudo(pseudo_dir: Path) -> Iterator[None]:
    with speaking("es", pseudo_dir):
        yield


class Seen:
    """What each screen showed that no catalog translated, by the step that showed it."""

    def __init__(self, pilot: Pilot[Any]) -> None:
        self.pilot = pilot
        self.found: list[str] = []

    async def look(self, step: str) -> None:
        await self.pilot.pause()
        for item in untranslated(screen_lines(self.pilot.app, NOT_CATALOG)):
            self.found.append(f"{step}: {item}")

    def check(self, most: int = 40) -> None:
        more = len(self.found) - most
        shown = self.found[:most] + ([f"… and {more} more"] if more > 0 else [])
        assert not self.found, "untranslated text on screen:\n" + "\n".join(shown)


def test_the_pseudo_language_keeps_placeholders_and_markup() -> None:
    assert pseudo("Hello, {name}!") == "Ĥëĺĺö, {name}!"
    assert pseudo("[b]{n}[/b] cakes %s") == "[b]{n}[/b] çáķëš %s"
    assert pseudo("[@click=app.quit]quit[/]") == "[@click=app.quit]ʠüïţ[/]"


def test_untranslated_words_are_named_with_their_row() -> None:
    rows = [
        "│ Ĥëĺĺö, Ann. Muffin plays │",
        "esc Ɓáçķ  K7QX2M-4ETJQ TGRMFR-TSDHF-POLIT mqtt://127.0.0.1:1883 Muf│",
    ]
    assert untranslated(rows) == ["'plays' in '│ Ĥëĺĺö, Ann. Muffin plays │'"]


async def test_the_shared_screens_are_all_translated() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        seen = Seen(pilot)
        await seen.look("menu")
        for keys, step in (
            (("b", "1"), "game form (bots)"),
            (("escape", "s", "1"), "game form (hot-seat)"),
            (("escape", "h", "1"), "host form"),
            (("escape", "j"), "join"),
            (("escape", "o"), "settings"),
            (("escape", "r"), "game picker"),
        ):
            await pilot.press(*keys)
            await seen.look(step)
        await pilot.press("escape", "q")
        seen.check()


async def test_the_lobby_is_translated() -> None:
    app = make_app(HostPlan(players=2, timeout=60, port=free_port(), lan=False))
    async with app.run_test(size=SIZE) as pilot:
        seen = Seen(pilot)
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.check_action("ready", ()), "a seat")
        await seen.look("lobby")
        await pilot.press("r")
        await seen.look("lobby, ready")
        seen.check()


async def test_the_hot_seat_handover_is_translated() -> None:
    app = make_app(GameSetup(game="cake-duel", players=2, hotseat=True, seed=3))
    async with app.run_test(size=SIZE) as pilot:
        seen = Seen(pilot)
        await until(pilot, lambda: isinstance(app.screen, PassScreen), "the handover")
        await seen.look("handover")
        await pilot.press("enter")
        await settle(pilot)
        await seen.look("the first person's table")
        seen.check()


async def settle(pilot: Pilot[Any], timeout: float = 20.0) -> Screen[Any]:
    """Wait until a person must act: a dialog is up, or a game awaits keys or is over."""
    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return True
        return screen.ended or (screen.awaiting is not None and not screen.bot_busy)

    await until(pilot, ready, "a person's decision", timeout)
    for _ in range(3):  # a list that opens by itself opens now
        await pilot.pause()
    await until(pilot, ready, "a person's decision", timeout)
    return app.screen


def table_of(app: Any) -> TableScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))


async def a_turn_is_translated(setup: GameSetup) -> None:
    """The game's table, its help, a list, one move of the person and the bots' replies."""
    app = make_app(setup)
    rng = random.Random(setup.seed)
    async with app.run_test(size=SIZE) as pilot:
        seen = Seen(pilot)
        first = await settle(pilot)
        await seen.look("the table")
        if isinstance(first, ChoiceScreen):
            await pilot.press("escape")
            await settle(pilot)
            await seen.look("the table, its list closed")
        table = table_of(app)
        await pilot.press("question_mark")
        if isinstance(app.screen, HelpScreen):
            # the rules tab shows a file per language, not a catalog: not looked at here
            await seen.look("help, cards")
            await pilot.press("right", "right")
            await seen.look("help, keys")
            await pilot.press("escape")
        session = table.session
        assert isinstance(session, LocalTable)
        for move in range(2):
            await settle(pilot)
            if isinstance(app.screen, ChoiceScreen):
                await seen.look(f"move {move + 1}, a list")
                await pilot.press("enter")
                continue
            seat = table.awaiting
            if table.ended or seat is None:
                break
            bot = session.game.bots["random"]
            table.perform(seat, bot(session.view(seat), rng))
            await settle(pilot)
            await seen.look(f"after move {move + 1}")
        await pilot.press("q")
        await pilot.pause()
        await seen.look("leaving")
        seen.check()


async def test_a_turn_of_cake_duel_is_translated() -> None:
    await a_turn_is_translated(GameSetup(game="cake-duel", players=2, bots="random", seed=3))


async def test_a_turn_of_cake_master_is_translated() -> None:
    await a_turn_is_translated(GameSetup(game="cake-master", players=2, bots="random", seed=11))


async def test_a_turn_of_cookies_battle_is_translated() -> None:
    await a_turn_is_translated(GameSetup(game="cookies-battle", players=3, bots="random", seed=4))


async def test_a_turn_of_cake_of_doom_is_translated() -> None:
    await a_turn_is_translated(GameSetup(game="cake-of-doom", players=3, bots="random", seed=21))

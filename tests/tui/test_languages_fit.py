"""A turn of every game in Spanish and in Polish at 80×24, with the app's own catalogs:
the screen is in that language, and nothing is cut off that is not cut off in English.

Widget by widget (labels, panel titles, the status line, each footer entry…), a text that
is all visible in English must be all visible in the other language: a failure names the
widget, its text and the English one. The same seeded game is drawn in each language, so
the screens hold the same widgets.

``CAKEPARTY_PSEUDO_CATALOGS=1`` runs the same tests with the pseudo catalog (every letter
an accented look-alike) in place of the real ones, for a branch without translations.
"""

from __future__ import annotations

import os
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.widgets._footer import FooterKey

from cakeparty.core.i18n import catalog_path
from cakeparty.protocol import journal
from cakeparty.protocol.identity import load_or_create
from cakeparty.tui.comeback import unfinished
from cakeparty.tui.recent import remember_room
from cakeparty.tui.screens.dialogs import ChoiceScreen
from cakeparty.tui.screens.menu import MenuScreen
from cakeparty.tui.table import kept
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.widgets import Cycler

from .languages import Shown, cut_off, screen_lines, shown, speaking, write_pseudo
from .pilot import SIZE, make_app, until
from .test_comeback import guest_journal
from .test_pseudo_locale import settle, table_of

LANGUAGES = ("es", "pl")
PSEUDO = os.environ.get("CAKEPARTY_PSEUDO_CATALOGS") == "1"

GAMES = {
    "cake-duel": GameSetup(game="cake-duel", players=2, bots="random", seed=3),
    "cake-master": GameSetup(game="cake-master", players=2, bots="random", seed=11),
    "cookies-battle": GameSetup(game="cookies-battle", players=3, bots="random", seed=4),
    "cake-of-doom": GameSetup(game="cake-of-doom", players=3, bots="random", seed=21),
}

#: What each screen showed in English, by game: drawn once, compared with each language.
_english: dict[str, list[dict[str, Shown]]] = {}

Steps = Callable[[Pilot[Any]], Awaitable[list[dict[str, Shown]]]]


@pytest.fixture(scope="module")
def pseudo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("locale")
    for language in LANGUAGES:
        write_pseudo(folder, language)
    return folder


def catalogs(language: str, pseudo_dir: Path) -> Path | None:
    """Where the catalog of ``language`` is read from: the app's (``None``), or the
    pseudo catalogs' folder when asked for."""
    if PSEUDO:
        return pseudo_dir
    found = catalog_path(language)
    assert found.is_file(), f"no compiled catalog for {language}: {found}"
    return None


async def steady(pilot: Pilot[Any]) -> dict[str, Shown]:
    """What the screen shows once two looks a moment apart agree: a footer whose keys
    changed is laid out and painted a refresh later, and a look in between would find
    its new keys nowhere on screen (on a busy machine, now and then)."""
    before = shown(pilot.app)
    for _ in range(40):
        await pilot.pause(0.05)
        now = shown(pilot.app)
        if now == before:
            break
        before = now
    return before


async def a_turn(pilot: Pilot[Any]) -> list[dict[str, Shown]]:
    """The table when the person first decides, then after one move of theirs."""
    app = pilot.app
    seen = []
    first = await settle(pilot)
    seen.append(await steady(pilot))
    if isinstance(first, ChoiceScreen):
        await pilot.press("enter")
    else:
        table = table_of(app)
        session = table.session
        assert isinstance(session, LocalTable) and table.awaiting is not None
        seat = table.awaiting
        bot = session.game.bots["random"]
        table.perform(seat, bot(session.view(seat), random.Random(seat)))
    await settle(pilot)
    seen.append(await steady(pilot))
    return seen


async def drawn(setup: GameSetup, language: str, folder: Path | None) -> list[dict[str, Shown]]:
    with speaking(language, folder):
        app = make_app(setup)
        async with app.run_test(size=SIZE) as pilot:
            return await a_turn(pilot)


def compare(english: list[dict[str, Shown]], other: list[dict[str, Shown]]) -> None:
    assert len(english) == len(other)
    for step, (before, after) in enumerate(zip(english, other, strict=True)):
        common = [p for p in before if p in after]
        assert len(common) >= len(before) * 3 // 4, "the screens differ from English"
        changed = [p for p in common if before[p].text != after[p].text]
        assert changed, f"step {step}: nothing on the screen is translated"
        problems = cut_off(before, after)
        assert not problems, f"step {step}: cut off, but not in English:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
async def test_a_turn_fits_as_in_english(game: str, language: str, pseudo_dir: Path) -> None:
    folder = catalogs(language, pseudo_dir)
    if game not in _english:
        _english[game] = await drawn(GAMES[game], "en", None)
    compare(_english[game], await drawn(GAMES[game], language, folder))


async def the_shared_screens(pilot: Pilot[Any]) -> list[dict[str, Shown]]:
    menu = pilot.app.screen
    assert isinstance(menu, MenuScreen)
    entries = menu.query_one("#menu-options", OptionList)

    def offered() -> bool:
        # offered, the list grown to hold it (laid out again: its border, 8 entries) and
        # its key in the footer
        keys = [key.key for key in menu.query(FooterKey)]
        grown = entries.region.height == entries.option_count + 2
        offers = menu.back is not None and bool(menu.kept)
        return offers and grown and keys[:2] == ["g", "c"]

    await until(pilot, offered, "the games to go back to and to resume")
    seen = [await steady(pilot)]
    for keys in (("b", "1"), ("escape", "h", "1"), ("escape", "j"), ("escape", "o")):
        await pilot.press(*keys)
        await pilot.pause()
        seen.append(await steady(pilot))
    return seen


async def shared_drawn(language: str, folder: Path | None) -> list[dict[str, Shown]]:
    me = load_or_create("Ann")
    if unfinished(me.player_id) is None:  # the menu offers a game to go back to, first
        guest_journal(journal.data_dir(), "GOING2", me)
        remember_room("GOING2")
    if not kept.peek():  # and a local game to resume (its entry's longest words)
        kept.keep(LocalTable(GameSetup(game="cake-of-doom", players=4, seed=1), "Ann"))
    with speaking(language, folder):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            return await the_shared_screens(pilot)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_shared_screens_fit_as_in_english(language: str, pseudo_dir: Path) -> None:
    folder = catalogs(language, pseudo_dir)
    if "shared" not in _english:
        _english["shared"] = await shared_drawn("en", None)
    compare(_english["shared"], await shared_drawn(language, folder))


class Labels(App[None]):
    """Two one-line labels ten columns wide."""

    CSS = "Static { width: 10; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }"

    def __init__(self, first: str, second: str) -> None:
        super().__init__()
        self.texts = (first, second)

    def compose(self) -> ComposeResult:
        for n, text in enumerate(self.texts):
            yield Static(text, id=f"label-{n}")


async def test_a_label_that_no_longer_fits_is_named() -> None:
    runs = []
    for texts in (("Ready", "Too long here"), ("Listo", "Demasiado largo")):
        app = Labels(*texts)
        async with app.run_test(size=(40, 4)) as pilot:
            await pilot.pause()
            runs.append(shown(app))
    english, spanish = runs
    assert [s.fits for s in english.values()] == [True, False]
    assert cut_off(english, spanish) == []
    runs[0] = {p: Shown(p, s.text, True) for p, s in english.items()}  # all fitted in English
    (problem,) = cut_off(runs[0], spanish)
    assert "#label-1" in problem and "Demasiado largo" in problem


class OneCycler(App[None]):
    """A form line 40 columns wide."""

    def compose(self) -> ComposeResult:
        yield Cycler("deck", "Baraja", [("juego completo (especiales ocultas)", 1), ("x", 2)])


async def test_a_form_value_too_long_for_its_line_goes_on_below() -> None:
    app = OneCycler()
    async with app.run_test(size=(40, 6)) as pilot:
        await pilot.pause()
        cycler = app.query_one(Cycler)
        (drawn,) = shown(app).values()
        assert drawn.fits and cycler.size.height == 3
        rows = screen_lines(app)
        assert rows[1].index("(especiales") == rows[0].index("juego")  # under its start
        await pilot.press("right")  # a short value: one line again
        await pilot.pause()
        assert cycler.size.height == 1 and "◀ x ▶" in screen_lines(app)[0]

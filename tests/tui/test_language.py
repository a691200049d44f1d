"""The language on screen: footers follow the language in effect when they draw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from cakeparty.core import i18n
from cakeparty.tui.screens.settings import SettingsScreen
from cakeparty.tui.settings import load
from cakeparty.tui.table.results import ReplayScreen
from cakeparty.tui.widgets import Cycler
from tests.i18n_catalogs import write_catalog
from tests.tui.languages import speaking
from tests.tui.pilot import SIZE, make_app, until


@pytest.fixture
def localedir(tmp_path: Path) -> Iterator[Path]:
    write_catalog(tmp_path, "es", {"Save": "Guardar", "Back": "Volver", "Quit": "Salir"})
    write_catalog(tmp_path, "pl", {"Save": "Zapisz", "Back": "Wróć", "Quit": "Wyjdź"})
    yield tmp_path
    i18n.use_language("en")


def footer(app: object) -> list[str]:
    screen = app.screen  # type: ignore[attr-defined]
    return [key.description for key in screen.query(FooterKey)]


async def test_the_footer_speaks_the_language_in_effect(localedir: Path) -> None:
    # the settings screen's bindings were declared (in English) when it was imported
    assert "Save" in [b.description for b in SettingsScreen.BINDINGS]  # type: ignore[union-attr]
    i18n.use_language("es", localedir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "Salir" in footer(app)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert {"Guardar", "Volver"} <= set(footer(app))
        i18n.use_language("pl", localedir)
        app.screen.refresh_bindings()
        await pilot.pause()
        assert {"Zapisz", "Wróć"} <= set(footer(app))
        i18n.use_language("en")
        app.screen.refresh_bindings()
        await pilot.pause()
        assert {"Save", "Back"} <= set(footer(app))


SPANISH = {
    "Save": "Guardar",
    "Back": "Volver",
    "Language": "Idioma",
    "Display name": "Nombre visible",
    "cake-themed card games in the terminal": "juegos de cartas de pasteles en la terminal",
    "Join a game": "Unirse a una partida",
}


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Catalogs standing in for the shipped ones (which the app finds by itself)."""
    folder = tmp_path / "locale"
    write_catalog(folder, "es", SPANISH)
    write_catalog(folder, "pl", {"Language": "Język", "Join a game": "Dołącz do gry"})
    monkeypatch.setattr(i18n, "locale_dir", lambda: folder)
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LC_MESSAGES", "")
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield folder
    i18n.use_language("en")


def text_of(screen: object) -> str:
    from textual.widgets import Label, OptionList, Static

    parts = [str(w.render()) for w in screen.query(Static)]  # type: ignore[attr-defined]
    parts += [str(w.render()) for w in screen.query(Label)]  # type: ignore[attr-defined]
    for options in screen.query(OptionList):  # type: ignore[attr-defined]
        parts += [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    parts += [str(c.render()) for c in screen.query(Cycler)]  # type: ignore[attr-defined]
    return "\n".join(parts)


async def language_cycler(pilot: object, app: object) -> Cycler:
    cycler = app.screen.query_one("#settings-language", Cycler)  # type: ignore[attr-defined]
    cycler.focus()
    await pilot.pause()  # type: ignore[attr-defined]
    return cycler


async def test_the_settings_change_the_language_live(shipped: Path, config_dir: Path) -> None:
    app = make_app()
    app.persist = True
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        assert "Join a game" in text_of(menu)
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *"Zoé")
        await language_cycler(pilot, app)
        assert "automatic (English)" in text_of(app.screen)
        await pilot.press("right", "right")  # automatic → English → Español
        await pilot.pause()
        form = app.screen
        assert isinstance(form, SettingsScreen)
        assert i18n.current_language() == "es"
        # the form and the menu below redraw at once, keeping what was typed
        assert "Idioma" in text_of(form) and "Nombre visible" in text_of(form)
        assert {"Guardar", "Volver"} <= set(footer(app))
        assert form.query_one("#settings-name").value == "Zoé"  # type: ignore[attr-defined]
        assert form.focused is form.query_one("#settings-language")
        assert "Unirse a una partida" in text_of(menu)
        await pilot.press("right")  # Polski
        await pilot.pause()
        assert i18n.current_language() == "pl"
        assert "Język" in text_of(app.screen) and "Dołącz do gry" in text_of(menu)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is menu
        assert app.settings.language == "pl" and app.settings.name == "Zoé"
        assert "Dołącz do gry" in text_of(menu)
    assert load().language == "pl"


async def test_esc_puts_back_the_language_there_was(shipped: Path) -> None:
    i18n.use_language("es")
    app = make_app(language="es")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        menu = app.screen
        await pilot.press("o")
        await pilot.pause()
        await language_cycler(pilot, app)
        await pilot.press("right")  # Español → Polski
        await pilot.pause()
        assert i18n.current_language() == "pl"
        assert "Dołącz do gry" in text_of(menu)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is menu
        assert i18n.current_language() == "es"
        assert app.settings.language == "es"
        assert "Unirse a una partida" in text_of(menu)


async def test_the_settings_fit_80_by_24_in_every_language(shipped: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        box = app.screen.query_one("#settings-box")
        notes = list(app.screen.query(".settings-note"))
        assert box.region.bottom <= SIZE[1] - 1  # the footer's line stays free
        assert all(note.region.height >= 1 for note in notes)
        cycler = await language_cycler(pilot, app)
        assert cycler.region.bottom <= box.region.bottom


@pytest.mark.parametrize("language", ["es", "pl"])
async def test_the_replays_home_key_is_named_apart_from_the_menus_start(language: str) -> None:
    """The replay's Home goes to the game's first line; it shared its words with the
    menu's "Start" (start a game), which Spanish says "Empezar": now a word of its own,
    translated."""
    with speaking(language):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(ReplayScreen("A replay", [("event", "Ann deals")]))

            def keys() -> dict[str, str]:
                return {key.key: key.description for key in app.screen.query(FooterKey)}

            # the footer draws its keys once the screen is up (a moment, more on a busy
            # machine)
            await until(pilot, lambda: "home" in keys(), "the replay's footer")
            assert keys()["home"] not in (i18n._("Start"), "First"), keys()


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_the_settings_values_line_up_in_every_language(language: str) -> None:
    """Every line's ◀ is in one column, Polish "Czas namysłu botów" (as long as the label
    column) too: it pushed its value a column out of line with the others."""
    with speaking(language):
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("o")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            rows = [strip.text for strip in app.screen._compositor.render_strips()]
            columns = {row.index("◀") for row in rows if "◀" in row}
            assert len(columns) == 1, "\n".join(row for row in rows if "◀" in row)

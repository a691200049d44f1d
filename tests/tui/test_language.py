"""The language on screen: footers follow the language in effect when they draw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from cakeparty.core import i18n
from cakeparty.tui.screens.settings import SettingsScreen
from tests.i18n_catalogs import write_catalog
from tests.tui.pilot import SIZE, make_app


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

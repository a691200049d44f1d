"""The menu's start loads only what the menu shows: the rules engine, the game setup and
the widgets of other screens load when first used, and every public name still resolves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cakeparty.core
import cakeparty.tui.widgets


def loaded_after(code: str, env: dict[str, str] | None = None) -> list[str]:
    """The ``cakeparty`` modules loaded after running ``code`` in a fresh interpreter."""
    script = (
        f"{code}\n"
        "import json, sys\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cakeparty'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_every_public_name_of_the_core_resolves_to_its_module() -> None:
    for name in cakeparty.core.__all__:
        value = getattr(cakeparty.core, name)
        home = sys.modules[f"cakeparty.core.{cakeparty.core._EXPORTS[name]}"]
        assert value is getattr(home, name)
    assert set(cakeparty.core.__all__) <= set(dir(cakeparty.core))
    from cakeparty.core import Match, new_match
    from cakeparty.core.match import Match as match_class

    assert Match is match_class and new_match("cake-duel", players=2, seed=1).outcome is None


def test_every_widget_resolves_and_an_unknown_name_is_an_attribute_error() -> None:
    for name in cakeparty.tui.widgets.__all__:
        assert getattr(cakeparty.tui.widgets, name).__name__ == name
    for module in (cakeparty.core, cakeparty.tui.widgets):
        try:
            module.NoSuchName  # type: ignore[attr-defined]  # noqa: B018
        except AttributeError as exc:
            assert "NoSuchName" in str(exc)
        else:
            raise AssertionError(f"{module.__name__}.NoSuchName did not raise")


def test_errors_and_translations_load_without_the_engine() -> None:
    loaded = loaded_after("import cakeparty.core.errors, cakeparty.core.i18n")
    assert "cakeparty.core.actions" not in loaded
    assert "cakeparty.core.game" not in loaded


def test_the_menu_loads_neither_the_engine_nor_other_screens_widgets(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"name": "Ann"}))
    code = (
        "import asyncio\n"
        "from cakeparty.tui import cli\n"  # what the `cakeparty` command imports first
        "from cakeparty.tui.app import CakePartyApp\n"
        "from cakeparty.tui.settings import load\n"
        "async def main():\n"
        "    app = CakePartyApp(load(), persist=False)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert type(app.screen).__name__ == 'MenuScreen', app.screen\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "CAKEPARTY_CONFIG_DIR": str(tmp_path)}
    loaded = loaded_after(code, env)
    assert "cakeparty.tui.screens.menu" in loaded  # the menu was shown
    for heavy in (
        "cakeparty.core.actions",
        "cakeparty.core.game",
        "cakeparty.core.match",
        "cakeparty.tui.table.local",
        "cakeparty.tui.widgets.hand",
        "cakeparty.tui.widgets.seats",
    ):
        assert heavy not in loaded, heavy

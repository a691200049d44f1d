"""Start-up and small things: the menu loads no screen it does not show, help renders
its rules, ``NO_COLOR`` leaves no colour codes and still marks the highlighted entry."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from cakeparty.tui.screens.help import HelpScreen

from .pilot import SIZE, make_app
from .test_e2e_tmux import BINARY, TMUX, Terminal


def test_the_menu_imports_neither_the_network_nor_the_lobby_help_or_duel(
    tmp_path: Path,
) -> None:
    code = (
        "import asyncio, sys\n"
        "from cakeparty.tui.app import CakePartyApp\n"
        "from cakeparty.tui.settings import Settings\n"
        "CakePartyApp._prepare_help = lambda self: None  # the idle warm-up, later\n"
        "async def main():\n"
        "    app = CakePartyApp(Settings(name='Ann'), persist=False)\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.pause()\n"
        "        assert type(app.screen).__name__ == 'MenuScreen', app.screen\n"
        "asyncio.run(main())\n"
        "heavy = ['cakeparty.protocol.network', 'cakeparty.tui.netroom',\n"
        "         'cakeparty.tui.screens.lobby', 'cakeparty.tui.screens.help',\n"
        "         'cakeparty.tui.games.cake_duel.screen', 'cakeparty.core.games.cake_duel.bots',\n"
        "         'textual.widgets._markdown']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    env = {**os.environ, "CAKEPARTY_CONFIG_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


async def test_help_shows_the_rules_rendered_not_as_raw_markdown() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "1", "right")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "rules"
        rules = help_screen.query_one(".help-rules", Static)
        await pilot.pause()
        shown = "\n".join(
            "".join(seg.text for seg in rules.render_line(y)) for y in range(rules.size.height)
        )
        assert "Cake Duel — rules" in shown
        assert "# Cake Duel" not in shown and "| card |" not in shown


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
@pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed (pip install -e .)")
def test_no_color_leaves_no_colour_codes_and_underlines_the_highlighted_entry(
    tmp_path: Path,
) -> None:
    import shutil

    (tmp_path / "settings.json").write_text(json.dumps({"name": "Ann"}))
    term = Terminal(
        f"cakeparty-nocolor-{os.getpid()}",
        [str(BINARY)],
        {"NO_COLOR": "1", "CAKEPARTY_CONFIG_DIR": str(tmp_path), "TERM": "xterm-256color"},
    )
    assert shutil.which("tmux") == TMUX

    def styled() -> str:
        return term.tmux("capture-pane", "-e", "-p", "-t", term.name).stdout

    def entry(screen: str, text: str) -> str:
        return next(line for line in screen.splitlines() if text in line)

    try:
        term.wait_for(lambda s: "Join a game" in s, "the menu")
        first = styled()
        sgr = re.findall(r"\x1b\[([0-9;]*)m", first)
        codes = {int(c) for params in sgr for c in params.split(";") if c}
        assert not codes & {*range(30, 39), *range(40, 49), *range(90, 108)}, codes
        assert "4m" in entry(first, "against bots")  # underlined: the highlighted entry
        assert "4m" not in entry(first, "hot-seat")
        term.keys("Down")
        term.wait_for(lambda s: "4m" in entry(styled(), "hot-seat"), "the marker to move")
        assert "4m" not in entry(styled(), "against bots")
    finally:
        term.close()

"""Help at 80×24: drawn whole on opening (tab bar, the cards, the keys line), the rules
parsed only when their tab is first shown, and ←/→ between the tabs."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import Static

from cakeparty.tui.games.cake_duel.netscreen import NET_DUEL_KEYS
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.games.cake_master.netscreen import NET_MASTER_KEYS
from cakeparty.tui.games.cake_of_doom.netscreen import NET_DOOM_KEYS
from cakeparty.tui.games.cookies_battle.netscreen import NET_COOKIES_KEYS
from cakeparty.tui.screens.help import HelpScreen, rules_document
from cakeparty.tui.table.local import GameSetup

from .pilot import SIZE, make_app, settle


def screen_text(app: App[Any]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_help_shows_every_tab_at_80x24_and_parses_the_rules_when_first_shown() -> None:
    rules_document.cache_clear()
    app = make_app(GameSetup(players=2, bots="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "cards"
        text = screen_text(app)
        rows = text.splitlines()
        assert len(rows) == SIZE[1] and all(len(row) <= SIZE[0] for row in rows)
        assert "▸ Cards" in rows[2] and "Rules" in rows[2] and "Keys" in rows[2]
        assert "Core deck" in text and "Soldier        5  weapon" in text
        assert "←/→ or h/l: tabs" in rows[-1] and "esc: close" in rows[-1]
        # the rules are not parsed until their tab is shown
        assert rules_document.cache_info().currsize == 0
        await pilot.press("right")
        await pilot.pause()
        assert help_screen.tab == "rules" and rules_document.cache_info().currsize == 1
        text = screen_text(app)
        assert "▸ Rules" in text and "Cake Duel — rules" in text and "Soldier        5" not in text
        await pilot.press("l")
        await pilot.pause()
        text = screen_text(app)
        assert help_screen.tab == "keys" and "▸ Keys" in text
        assert "claim an attack with the selected cards" in text
        # back round to the cards; the rules stay parsed once
        await pilot.press("l")
        assert help_screen.tab == "cards"
        await pilot.press("h", "h")
        assert help_screen.tab == "rules" and rules_document.cache_info().currsize == 1
        assert help_screen.query_one(".help-rules", Static).size.height > 20  # all of them
        await pilot.press("escape")
        assert app.screen is duel


async def test_a_tournament_s_keys_say_its_end_offers_a_new_tournament() -> None:
    """In a tournament the game ends after its last duel, and d starts a new tournament:
    the Keys tab says so, not "after the duel … new duel"."""
    setup = GameSetup(players=2, bots="random", seed=3, options={"tournament": True})
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        await pilot.press("left")  # round to the last tab, the keys
        await pilot.pause()
        assert help_screen.tab == "keys"
        text = " ".join(screen_text(app).replace("│", " ").split())
        assert "after the tournament: replay face up / new tournament / the results" in text
        assert "new duel" not in text and "after the duel" not in text
        assert "w / h tournament: reveal your played Sir Wolfy" in text


@pytest.mark.parametrize("keys", [NET_DUEL_KEYS, NET_DOOM_KEYS, NET_COOKIES_KEYS, NET_MASTER_KEYS])
def test_a_networked_game_s_keys_offer_no_new_game_but_the_results_again(
    keys: tuple[tuple[str, str], ...],
) -> None:
    """A networked game ends with play again (p), not a new game at this table (d, a
    local game's): its help lists r, p and e for the end, and no d."""
    ends = {key: what for key, what in keys if "after the game" in what or "at the end" in what}
    assert set(ends) == {"r", "p", "e"}, ends
    assert not any("d" in key.split(" / ") for key, _what in keys), keys

"""A new game after a local one ("d" at the end): every game's screen starts the same
table again, the same people, bots, delays and options, with a fresh deal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.registration import registered
from cakeparty.tui.table.screen import TableScreen

GAMES = [game.name for game in registered()]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("hotseat", [False, True])
def test_a_new_game_keeps_the_table_and_deals_afresh(game: str, hotseat: bool) -> None:
    table = next(t for t in registered() if t.name == game)
    players = max(2, table.usual())
    names = tuple(f"P{seat}" for seat in range(players)) if hotseat else ()
    setup = GameSetup(game, players, seed=7, hotseat=hotseat, names=names)
    screen = table.local_screen(setup, player="Ana", bot_delay=0.4, leave="exit")
    assert isinstance(screen, TableScreen)
    if hasattr(screen, "window_wait"):
        screen.window_wait = 2.5
        screen.windows = "never"  # the marker windows as the people set them

    fresh = screen.fresh_screen(replace(setup, seed=None))

    assert type(fresh) is type(screen) and fresh is not screen
    assert fresh.session.names == screen.session.names
    assert fresh.session.humans == screen.session.humans
    assert (fresh.sharing, fresh.viewer) == (screen.sharing, screen.viewer)
    assert (fresh.sharing, fresh.viewer) == ((True, None) if hotseat else (False, 0))
    assert (fresh.delay_setting, fresh.bot_delay, fresh.leave) == (0.4, screen.bot_delay, "exit")
    assert getattr(fresh, "window_wait", None) == getattr(screen, "window_wait", None)
    assert getattr(fresh, "windows", None) == getattr(screen, "windows", None)
    assert replace(fresh.session.setup, seed=7) == setup
    assert fresh.session.setup.seed != 7

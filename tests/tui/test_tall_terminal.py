"""The four games' screens in terminals taller and wider than 80×24, local and networked:
every box keeps the height it has at 80×24 but the log, which takes the spare rows (and
the spare columns), where the game has something to tell; a box shown only where there
is room (Cake Master's table of every cake) takes its own rows from them."""

from __future__ import annotations

from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

from cakeparty.core import i18n
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.games.cake_of_doom.screen import DoomScreen
from cakeparty.tui.games.cookies_battle.screen import CookiesScreen
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.screen import TableScreen

from .languages import speaking
from .pilot import SIZE, make_app, rows, settle_on, until
from .rooms import bots_then_start

#: each game, its players, and its screen
GAMES = {
    "cookies-battle": (4, CookiesScreen),
    "cake-of-doom": (3, DoomScreen),
    "cake-duel": (2, DuelScreen),
    "cake-master": (4, MasterScreen),
}

TALL = [(120, 40), (100, 30), (200, 50)]


def boxes(screen: TableScreen) -> dict[str, Region]:
    """Every box the screen shows (a widget with a border), by id, with its region."""
    return {
        widget.id: widget.region
        for widget in screen.query("*")
        if widget.id
        and widget.region.height
        and widget.styles.border_top[0] not in ("", "none", "hidden")
    }


async def resized(pilot: Pilot[Any], screen: TableScreen, size: tuple[int, int]) -> None:
    """The terminal at ``size``, and the screen laid out for it."""
    await pilot.resize_terminal(*size)
    await until(pilot, lambda: tuple(screen.region.size) == size, f"the screen at {size}")
    await pilot.pause()
    await pilot.pause()


async def spare_rows_go_to_the_log(
    pilot: Pilot[Any], screen: TableScreen, sizes: list[tuple[int, int]]
) -> None:
    """At 80×24, then at each of ``sizes``: every box but the log as tall as at 80×24, the
    log taller by every spare row (but those of a box shown only at that size) and wider
    by every spare column."""
    log = screen.log_view.id
    for width, height in sizes:
        # a networked game may move on while it is measured (a bot's turn changes the
        # lines under the panels, and every panel with them): each size is compared with
        # 80×24 in one state, seen alike just before and just after
        for _look in range(10):
            await resized(pilot, screen, SIZE)
            small = boxes(screen)
            await resized(pilot, screen, (width, height))
            tall = boxes(screen)
            await resized(pilot, screen, SIZE)
            if boxes(screen) == small:
                break
        else:
            raise AssertionError("the screen kept changing while it was measured")
        assert log is not None and log in small
        assert set(small) <= set(tall), (width, height)
        added = sum(tall[name].height for name in set(tall) - set(small))
        for name, region in small.items():
            if name != log:  # its 80×24 height: no box grows with rows it has nothing for
                assert tall[name].height == region.height, (name, (width, height), rows(pilot.app))
        grown = tall[log].height - small[log].height
        assert grown == height - SIZE[1] - added, (width, height, rows(pilot.app))
        assert tall[log].width == small[log].width + width - SIZE[0], (width, height)


@pytest.mark.parametrize("game", GAMES)
async def test_a_taller_terminal_gives_its_rows_to_the_log(game: str) -> None:
    players, kind = GAMES[game]
    app = make_app(GameSetup(game=game, players=players, bots="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle_on(pilot, kind, 30)
        assert isinstance(screen, kind)
        before = rows(app)
        await spare_rows_go_to_the_log(pilot, screen, TALL)
        await resized(pilot, screen, SIZE)
        assert rows(app) == before  # back at 80×24, the screen is as it was


@pytest.mark.parametrize("game", GAMES)
async def test_a_networked_game_in_a_taller_terminal_gives_its_rows_to_the_log(
    game: str,
) -> None:
    """Hosted here with bots in the other seats: the chat line and the clock take their
    rows at every size, the log the spare ones."""
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.app import CakePartyApp
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.screens.lobby import LobbyScreen
    from cakeparty.tui.settings import Settings

    players, kind = GAMES[game]
    players = min(players, 3)
    plan = HostPlan(game=game, players=players, timeout=600, port=free_port(), lan=False)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), None, persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(LobbyScreen(plan, player="Ann", bot_level="random", bot_delay=0.0))
        screen = await bots_then_start(app, pilot, players, kind, wait=20, start=60)
        await until(pilot, lambda: screen.awaiting is not None, "Ann's first decision", 60)
        # as wide as at 80×24: a wider terminal may set a wrapped prompt on one line, and
        # the panels above it rightly take that row (the local test checks the columns)
        await spare_rows_go_to_the_log(pilot, screen, [(80, 40)])


@pytest.mark.parametrize("game", ["cookies-battle", "cake-of-doom", "cake-duel"])
@pytest.mark.parametrize("language", ["en", "pl"])
async def test_the_rows_under_a_table_that_needs_none_show_the_game_s_reference(
    game: str, language: str
) -> None:
    """Under a table that keeps its 80×24 height, a taller terminal's rows were blank: they
    show the game's reference (what the cards, markers or aliens do), whole entries in
    order from the first, as many as fit; at 80×24, and with too few rows, nothing."""
    from cakeparty.tui.widgets.spare import REFERENCE_LEAST, SpareRows

    players, kind = GAMES[game]
    with speaking(language):
        app = make_app(GameSetup(game=game, players=players, bots="random", seed=3))
        async with app.run_test(size=SIZE) as pilot:
            screen = await settle_on(pilot, kind, 30)
            assert isinstance(screen, kind)
            spare = screen.query_one(SpareRows)
            assert spare.reference is not None
            entries = [" ".join(e.plain.split()) for e in spare.reference()]
            fits = [" ".join(entries[:k]) for k in range(1, len(entries) + 1)]

            def drawn() -> str:
                """The words the terminal shows inside the spare rows' box."""
                region = spare.region
                inside = [
                    row[region.x + 2 : region.right - 2].strip()
                    for row in rows(app)[region.y + 1 : region.bottom - 1]
                ]
                return " ".join(" ".join(inside).split())

            for width, height, shown in ((80, 24, False), (80, 24 + REFERENCE_LEAST - 1, False),
                                         (100, 30, True), (120, 40, True)):  # fmt: skip
                await resized(pilot, screen, (width, height))
                assert spare.region.height == height - SIZE[1], (width, height)
                if not shown:
                    assert not str(spare.border_title or "") and not drawn(), (width, height)
                    continue
                # whole entries, in order from the first: a prefix of the list
                await until(pilot, lambda: drawn() in fits, f"the reference at {height} rows")
                assert len(drawn()) > len(entries[0]) or height - SIZE[1] < 8, drawn()
                assert str(spare.border_title) == i18n._("Cards")

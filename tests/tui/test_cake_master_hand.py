"""Cake Master at 80×24 after a pass: the card kept says so while the others still choose
and after the cards come round, each card received names who gave it; after a turn the
log shows every player's placement."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from cakeparty.core.games.cake_master.state import Phase
from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.table.local import GameSetup

from .pilot import SIZE, make_app, rows, settle_on, until


def hand_rows(app: App[Any]) -> list[str]:
    """The hand's card rows as the terminal shows them."""
    screen = app.screen
    assert isinstance(screen, MasterScreen)
    return str(screen.query_one("#cm-hand-cards").render()).splitlines()


async def pass_by_keys(pilot: Pilot[Any]) -> MasterScreen:
    """Card 1 given left, card 2 right, the third kept; the cards come round: the screen
    at the placement."""
    await pilot.press("1", "l", "r", "enter")
    screen = await settle_on(pilot, MasterScreen, 20)
    assert isinstance(screen, MasterScreen) and screen.view().phase is Phase.PLACE
    return screen


async def test_the_card_kept_is_marked_while_the_others_choose() -> None:
    """The pass is sealed and the bots take their time: the third card, neither given
    left nor right, is marked kept."""
    app = make_app(GameSetup(game="cake-master", players=3, bots="normal", seed=7), bot_delay=600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle_on(pilot, MasterScreen, 20)
        assert isinstance(screen, MasterScreen) and screen.view().phase is Phase.PASS
        await pilot.press("1", "l", "r", "enter")
        await until(pilot, lambda: screen.awaiting is None, "the pass sealed")
        await pilot.pause()
        rows = hand_rows(app)
        assert rows[0].rstrip().endswith("→ left (Muffin)"), rows
        assert rows[1].rstrip().endswith("→ right (Eclair)"), rows
        assert rows[2].rstrip().endswith("kept"), rows
        assert screen.view().phase is Phase.PASS  # still waiting on the bots


async def test_after_the_pass_the_card_kept_is_still_marked() -> None:
    """The cards come round: the one kept says so, the two received do not."""
    app = make_app(GameSetup(game="cake-master", players=3, bots="normal", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle_on(pilot, MasterScreen, 20)
        assert isinstance(screen, MasterScreen)
        kept = screen.view().hand[2]
        screen = await pass_by_keys(pilot)
        view = screen.view()
        rows = hand_rows(app)
        for row, slot in zip(rows, view.hand, strict=True):
            if slot == kept:
                assert row.rstrip().endswith("kept"), rows
            else:
                assert not row.rstrip().endswith("kept"), rows


async def test_each_card_received_names_who_gave_it() -> None:
    """The cards received are new, each with its giver's name: the neighbour that held it
    before the pass."""
    app = make_app(GameSetup(game="cake-master", players=3, bots="normal", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle_on(pilot, MasterScreen, 20)
        assert isinstance(screen, MasterScreen)
        table = screen.table
        before = {seat: set(table.view(seat).hand) for seat in (1, 2)}
        screen = await pass_by_keys(pilot)
        view = screen.view()
        rows = hand_rows(app)
        givers = []
        for row, slot in zip(rows, view.hand, strict=True):
            giver = next((s for s in (1, 2) if slot in before[s]), None)
            if giver is None:
                continue
            givers.append(giver)
            assert row.rstrip().endswith(f"new from {table.names[giver]}"), rows
        assert sorted(givers) == [1, 2]
        assert max(len(row.rstrip()) for row in rows) <= SIZE[0] - 4


@pytest.mark.parametrize("players", [3, 5])
async def test_the_log_shows_every_placement_of_the_turn(players: int) -> None:
    """A turn placed: the log shows, at 80×24, a line for each player's placement of it
    (every card in short, its cake and quarter), not the last player's alone."""
    app = make_app(GameSetup(game="cake-master", players=players, bots="normal", seed=7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle_on(pilot, MasterScreen, 20)
        assert isinstance(screen, MasterScreen)
        screen = await pass_by_keys(pilot)
        await pilot.press("a", "1", "a", "2", "a", "3", "enter")
        screen = await settle_on(pilot, MasterScreen, 20)
        assert isinstance(screen, MasterScreen) and screen.view().turn == 2
        log = screen.query_one("#cm-log")
        region = log.content_region
        seen = [row[region.x : region.right] for row in rows(app)[region.y : region.bottom]]
        for seat, name in enumerate(screen.table.names):
            placed = [row for row in seen if row.startswith(f"{name}: ")]
            assert len(placed) == 1 and placed[0].count("→ cake") == 3, seen
            cards = screen.view().seat_cakes(seat)
            assert sum(card is not None for cake in cards for card in cake) == 3

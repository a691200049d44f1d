"""Cake Master's footer at 80×24: only the keys that do something now, step by step."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from cakeparty.core.games.cake_master.state import Phase
from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.table.local import GameSetup

from .pilot import SIZE, make_app, until
from .test_cake_master import settle


def footer(screen: MasterScreen) -> dict[str, str]:
    """The footer's entries: what each says, by the key it shows."""
    return {key.key_display or key.key: key.description for key in screen.query(FooterKey)}


async def footer_is(pilot: Pilot[Any], screen: MasterScreen, wanted: dict[str, str]) -> None:
    """Wait until the footer shows ``wanted`` (key: words) and the keys every step shares."""
    every = {"?": "Help", "q": "Quit"}
    await until(
        pilot,
        lambda: (
            {k: v for k, v in footer(screen).items() if k not in every} == wanted
            and all(footer(screen).get(k) == v for k, v in every.items())
        ),
        f"the footer {wanted} (it showed {footer(screen)} at first)",
        timeout=5,
    )


async def test_the_footer_shows_the_place_step_s_keys_as_they_work() -> None:
    """Undo once there is something to undo; the quarter keys and esc while a cake waits
    for the card's quarter (esc, or u, goes back to the cakes; another cake's key moves
    the card there)."""
    app = make_app(GameSetup(game="cake-master", players=1, seed=22))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        marks = screen.marks
        start = {"←→": "Card", "a/b/c": "Cake…", "x": "Exchange", "⏎": "Commit"}
        await footer_is(pilot, screen, start)  # nothing placed: nothing to undo
        quarter = {"←→": "Card", "1–4": "Quarter", "esc": "Back", "⏎": "Commit"}
        await pilot.press("a")
        assert marks.cake == 0
        await footer_is(pilot, screen, quarter)
        await pilot.press("escape")  # back to the cakes
        assert marks.cake is None and not marks.spots
        await footer_is(pilot, screen, start)
        await pilot.press("a", "b")  # cake a, then cake b after all
        assert marks.cake == 1
        await pilot.press("1")  # its quarter 1
        assert marks.spots == {screen.view().hand[0]: (1, 0)} and marks.cake is None
        placed = {"←→": "Card", "a/b/c": "Cake…", "u": "Undo", "⏎": "Commit"}
        await footer_is(pilot, screen, placed)
        await pilot.press("c", "u")  # u while choosing the quarter: back to the cakes
        assert marks.cake is None and len(marks.spots) == 1
        await footer_is(pilot, screen, placed)
        await pilot.press("u")  # and then the card placed
        assert not marks.spots
        await footer_is(pilot, screen, start)


async def test_the_pass_step_shows_undo_once_a_card_is_given() -> None:
    app = make_app(GameSetup(game="cake-master", players=3, bots="random", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        assert screen.view().phase is Phase.PASS
        start = {"←→": "Card", "l": "Give left", "r": "Give right", "⏎": "Commit"}
        start |= {"o": "Cakes of…"}
        await footer_is(pilot, screen, start)
        await pilot.press("l")
        await footer_is(pilot, screen, {**start, "u": "Undo"})
        await pilot.press("u")
        assert screen.marks.left is None
        await footer_is(pilot, screen, start)

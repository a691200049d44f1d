"""A game ended by a proven breach says so at its end: who broke a rule, in words, and
that seat is not ranked among the winners. The peers feed the breach (``Forfeited``, a
witness's evidence every peer checked) into a game under way, as in a networked room; the
end dialog is the game's own screen's."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import Forfeited, get_game
from cakeparty.tui.screens.dialogs import NoticeScreen
from cakeparty.tui.table import registration
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen

from .pilot import SIZE, OneScreen, until

#: the reason's words, as the breach's code "false-count" reads
WORDS = "a move the cards, once opened, prove against the rules"


@pytest.mark.parametrize(
    ("game", "players"), [("cake-master", 2), ("cake-of-doom", 3), ("cookies-battle", 4)]
)
async def test_the_end_names_the_seat_that_broke_a_rule_and_why(game: str, players: int) -> None:
    table = LocalTable(GameSetup(game, players, bots="random", seed=3), player="Ann")
    rng = random.Random(3)
    bot = get_game(game).bots["random"]
    for _ in range(8):
        seat = table.to_act
        if seat is None:
            break
        table.act(seat, bot(table.view(seat), rng))
    culprit = table.names[1]
    breach = Forfeited(1, "false-count")
    match = table.match
    match.state = match.game.apply(match.state, breach, None)
    match.history.append((None, breach))
    table.catch_up()
    screen = registration.lookup(game).local_screen(table, bot_delay=0.0)
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        # a round's dialog may come first (the round the breach broke off)
        await until(pilot, lambda: isinstance(app.screen, EndScreen | NoticeScreen), "a dialog")
        while isinstance(app.screen, NoticeScreen):
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, EndScreen | NoticeScreen), "next")
        end = app.screen
        assert isinstance(end, EndScreen)
        told = [end.headline, *end.lines]
        # the culprit named with the reason in words (not the code), and never first
        assert any(culprit in line and WORDS in line for line in told) or (
            any(f"{culprit}:" in line and "forfeits" in line for line in told)
        ), told
        assert "false-count" not in " ".join(told), told
        assert not any(line.startswith(f"1. {culprit}") for line in end.lines), told
        assert culprit not in end.headline or WORDS in end.headline, told

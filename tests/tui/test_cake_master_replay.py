"""Cake Master's face-up replay at 80×24: every turn of every round under its heading."""

from __future__ import annotations

import random

from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.screens.dialogs import NoticeScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import LINE_STYLES, EndScreen, ReplayScreen

from .pilot import SIZE, make_app, settle_on, until
from .test_cake_master import played_to


async def test_the_replay_heads_each_turn_with_its_round_and_turn() -> None:
    """The game played to its last placement, the end box's r opens the replay: each of
    the twelve turns has its heading, in order, before the passes it opens with."""
    table = LocalTable(GameSetup(game="cake-master", players=3, seed=8), "Ann")
    # the whole game but the last placement at once: the screen takes over there
    rng = random.Random(3)
    played_to(table, 12, rng)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(MasterScreen(table, bot_delay=0))
        for _ in range(20):
            screen = await settle_on(pilot, MasterScreen, 20)
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, NoticeScreen):
                await pilot.press("enter")
                continue
            assert isinstance(screen, MasterScreen) and screen.awaiting is not None
            screen.perform(screen.awaiting, table.bots["random"](screen.view(), rng))
        else:
            raise AssertionError("the game did not end")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        lines = replay.plain
        headings = [i for i, line in enumerate(lines) if " · turn " in line]
        assert [lines[i] for i in headings] == [
            f"Round {r}/3 · turn {t}/4" for r in (1, 2, 3) for t in (1, 2, 3, 4)
        ]
        for index in headings:  # the turn's passes follow, Ann's first
            assert lines[index + 1].startswith("  ↳ Ann gives "), lines[index : index + 2]
        # each round's begins before its first turn's heading
        for r in (1, 2, 3):
            begins = lines.index(f"Round {r} begins")
            assert begins < lines.index(f"Round {r}/3 · turn 1/4")
        # a heading stands out from the events under it
        kinds = {text: kind for kind, text in replay.lines}
        assert LINE_STYLES[kinds["Round 1/3 · turn 1/4"]] != LINE_STYLES["event"]

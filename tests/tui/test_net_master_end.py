"""A networked Cake Master's last round: its breakdown is shown before the end's dialog,
and once only, however the room's last events and its verdict reach the screen.

The room's peer takes the last moves, the reveal and the audit by itself; the screen
hears of them by the room's events. When the screen moves on (a dialog closed, a move of
its own sent) after the verdict is in but before the event of the last moves has reached
it, the screen learns of the last round's scoring only as it ends the game: the round's
breakdown comes first all the same, then the end, and nothing after the end.

The host plays three-handed against two bots of its own app; its moves are the random
bot's, from a seeded source, made through the screen's own action. For the last move the
room's events are held back from the screen until the audit is done, then the screen
moves on, then the events come."""

from __future__ import annotations

import random
import time

from cakeparty.broker.embedded import free_port
from cakeparty.core import get_game
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.dialogs import NoticeScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.results import EndScreen

from .pilot import PATIENCE, SIZE, until
from .test_net_master import three_handed

BOT = get_game("cake-master").bots["random"]
DEADLINE = 60.0 * PATIENCE


async def test_the_last_rounds_breakdown_comes_before_the_end_when_the_verdict_is_first() -> None:
    plan = HostPlan(game="cake-master", players=3, timeout=60, port=free_port(), lan=False)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), plan, persist=False)
    rng = random.Random(5)
    async with app.run_test(size=SIZE) as pilot:
        screen = await three_handed(app, pilot)
        net = screen.net
        deadline = time.monotonic() + DEADLINE
        while True:  # to the last move of the game
            assert time.monotonic() < deadline, f"no last move; screen {app.screen!r}"
            await pilot.pause(0.01)
            if isinstance(app.screen, NoticeScreen):
                await pilot.press("enter")
            elif app.screen is screen and screen.awaiting is not None and not net.over:
                view = net.view(net.seat)
                if view.turn == 12 and view.phase is Phase.PLACE:
                    break
                screen._act(BOT(view, rng))
                deadline = time.monotonic() + DEADLINE
        # the room's events wait (as they do for a screen not yet begun) while the last
        # moves are made, revealed and audited
        screen.begun = False
        screen._act(BOT(net.view(net.seat), rng))
        await until(pilot, lambda: net.over and net.audited, "the audit", 30)
        screen.begun = True
        screen.advance()  # the screen moves on before the room's events reach it
        held, screen._early = screen._early, []
        for event in held:
            screen.room_event(event)
        shown: list[str] = []
        deadline = time.monotonic() + DEADLINE
        while not shown or shown[-1] != "end":
            assert time.monotonic() < deadline, f"no end; shown {shown}"
            await pilot.pause(0.01)
            top = app.screen
            if isinstance(top, NoticeScreen):
                shown.append(top.title_text)
                await pilot.press("enter")
                await until(pilot, lambda top=top: app.screen is not top, "the notice closed", 10)
            elif isinstance(top, EndScreen):
                shown.append("end")
        assert shown == ["Round 3 is scored", "end"], shown
        # the end put away: the table, and no breakdown after it
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the table", 10)
        for _ in range(20):
            await pilot.pause(0.01)
        assert app.screen is screen, app.screen
        scored = [line for line in screen.log_view.plain if line == "Round 3 is scored"]
        assert len(scored) == 1, screen.log_view.plain

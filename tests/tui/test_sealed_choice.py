"""A sealed choice stays drawn on its maker's screen while the others still make theirs.

In a networked room the others may take their time over a choice made at once by every
seat (Cake Master's every step, Cookies Battle's pass): the person who has made theirs
still sees what they chose — the cards passed marked, the card kept, the cards placed on
the cakes — until every choice is opened, when the hand moves on. Three sessions pass
their envelopes by hand; Ann's is seen through her screen, Bob and Cy choose by the
random bot."""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual.pilot import Pilot

from cakeparty.core import get_game
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.protocol.network import RoomEvent
from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen
from cakeparty.tui.games.cookies_battle.netscreen import NetCookiesScreen
from cakeparty.tui.table.net import NetTable

from .netseats import deliver, guest_room, seats_at
from .pilot import SIZE, OneScreen, shown, until


async def others_choose(
    pilot: Pilot[Any], screen: Any, seats: list[NetTable], game: str, rng: random.Random
) -> None:
    """Bob and Cy make their sealed choices; every seat hears them."""
    bot = get_game(game).bots["random"]
    for seat in seats[1:]:
        seat.act(seat.seat, bot(seat.view(seat.seat), rng))
    deliver(seats)
    screen.room_event(RoomEvent("moved"))
    await pilot.pause()


async def test_cookies_battle_pass_stays_marked_until_every_pass_is_in() -> None:
    seats = seats_at("cookies-battle", 3)
    ann = seats[0]
    deliver(seats)
    screen = NetCookiesScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.awaiting == 0, "Ann's pass")
        hand = ann.view(0).hand
        await pilot.press("l", "right", "r", "enter")
        await until(pilot, lambda: screen.awaiting is None, "Ann's pass sent")
        deliver(seats)
        screen.room_event(RoomEvent("moved"))
        await pilot.pause()
        drawn = shown(app, app.screen.query_one("#cb-hand"))
        assert ann.view(0).hand == hand, "nothing is opened before Bob and Cy pass"
        assert drawn.count("←") == 1 and drawn.count("→") == 1, drawn
        await others_choose(pilot, screen, seats, "cookies-battle", random.Random(5))
        await until(pilot, lambda: ann.view(0).hand != hand, "the passes opened")
        await pilot.pause()
        drawn = shown(app, app.screen.query_one("#cb-hand"))
        # the cards passed are gone, two came in: marked received, no pass marks left
        assert "←" not in drawn and "→" not in drawn and drawn.count("+") == 2, drawn


@pytest.mark.parametrize("players", [2, 3])
async def test_cake_master_choice_stays_marked_until_every_choice_is_in(players: int) -> None:
    seats = seats_at("cake-master", players)
    ann = seats[0]
    deliver(seats)
    screen = NetMasterScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.awaiting == 0, "Ann's choice")
        hand = ann.view(0).hand
        if players == 2:  # keep one card, the other two go over
            await pilot.press("2", "k")
            marks = ["kept"]
        else:  # one card to each neighbour, the third kept
            await pilot.press("1", "l", "2", "r", "enter")
            marks = ["→ left (Bob)", "→ right (Cy)"]
        await until(pilot, lambda: screen.awaiting is None, "Ann's choice sent")
        deliver(seats)
        screen.room_event(RoomEvent("moved"))
        await pilot.pause()
        drawn = shown(app, app.screen.query_one("#cm-hand"))
        assert ann.view(0).hand == hand, "nothing is opened before the others choose"
        assert all(mark in drawn for mark in marks), drawn
        await others_choose(pilot, screen, seats, "cake-master", random.Random(6))
        await until(pilot, lambda: ann.view(0).hand != hand, "the choices opened")
        await pilot.pause()
        drawn = shown(app, app.screen.query_one("#cm-hand"))
        if players == 2:  # the card kept stays marked kept, beside the two received
            assert drawn.count("kept") == 1 and drawn.count("received") == 2, drawn
            # one of them kept, the other given back: marked so while Bob chooses
            view = ann.view(0)
            assert view.phase is Phase.KEEP_BACK
            await pilot.press(str(view.hand.index(view.received[0]) + 1), "k")
            await until(pilot, lambda: screen.awaiting is None, "Ann's second choice sent")
            deliver(seats)
            screen.room_event(RoomEvent("moved"))
            await pilot.pause()
            drawn = shown(app, app.screen.query_one("#cm-hand"))
            assert drawn.count("→ back (Bob)") == 1 and "received" not in drawn, drawn
        else:
            assert not any(mark in drawn for mark in marks), drawn

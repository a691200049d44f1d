"""Cake Master's status line at 80×24 in Spanish and Polish, in a networked seat: the
clock and the whole of the step asked ("pass a card each way, keep one", "keep one card,
give one back") fit on the line, with no name before them — the one person at this
keyboard is named on the hand already. Sessions pass their envelopes by hand; Ann's is
seen through her screen, the others choose by the random bot."""

from __future__ import annotations

import random
import time

import pytest

from cakeparty.core import get_game
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.core.i18n import _
from cakeparty.protocol.network import RoomEvent
from cakeparty.tui.games.cake_master.lines import STEP_WORDS
from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen
from cakeparty.tui.widgets import StatusBar

from .languages import speaking
from .netseats import deliver, guest_room, seats_at
from .pilot import SIZE, OneScreen, shown, until

#: Each language's words of the clock on the status line.
CLOCK = {"es": "Tu reloj:", "pl": "Twój czas:"}


@pytest.mark.parametrize("language", ["es", "pl"])
@pytest.mark.parametrize("players", [2, 3])
async def test_the_status_line_shows_the_clock_and_the_whole_step(
    language: str, players: int
) -> None:
    with speaking(language):
        # the room's own default: two minutes a move, "120 s" on the line
        now = time.monotonic()
        seats = seats_at("cake-master", players, timeout=120, now=now)
        ann = seats[0]
        deliver(seats, now)
        screen = NetMasterScreen(ann, guest_room())
        app = OneScreen(screen)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen.awaiting == 0, "Ann's choice")
            if players == 2:  # keep a card; the give-back step is the longest to say
                await pilot.press("1", "k")
                await until(pilot, lambda: screen.awaiting is None, "Ann's keep sent")
                bot = get_game("cake-master").bots["random"]
                bob = seats[1]
                bob.act(bob.seat, bot(bob.view(bob.seat), random.Random(4)))
                deliver(seats, time.monotonic())
                screen.room_event(RoomEvent("moved"))
                await until(pilot, lambda: screen.awaiting == 0, "Ann's give-back")
            phase = ann.view(0).phase
            assert phase is (Phase.KEEP_BACK if players == 2 else Phase.PASS), phase
            status = screen.query_one(StatusBar)
            await until(pilot, lambda: CLOCK[language] in status.text, "the clock")
            await pilot.pause()
            line = shown(app, status)
            assert CLOCK[language] in line, line
            assert _(STEP_WORDS[phase]) in line, line
            assert "…" not in line and "Ann" not in line, line

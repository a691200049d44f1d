"""The clock of a networked duel, by keyboard: the mover is warned and told its time is
up; the other is asked "wait longer, or end the game"; one ending on both sides."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.pilot import Pilot

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.core.games.cake_duel.actions import PASS
from cakeparty.protocol.lobby import new_room_code
from cakeparty.tui.netroom import JoinPlan
from cakeparty.tui.screens.dialogs import ChoiceScreen

from .pilot import SIZE
from .rooms import hosted_duel
from .test_lobby import app_with, ready_into_the_duel, until


@asynccontextmanager
async def ann_and_slow_hank() -> AsyncIterator[tuple[Any, Pilot[Any], Any, Any]]:
    """Hank hosts, a person who will not move: a 3 s clock, the room's rule "ask". Ann joins
    by her app; once the duel waits on a first decision: (app, pilot, Ann's duel, Hank)."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, timeout=3, ready=True) as host:
            app = app_with(JoinPlan(code, broker.url))
            async with app.run_test(size=SIZE) as pilot:
                _lobby, duel = await ready_into_the_duel(pilot)
                hs = host.session
                assert hs is not None
                net = duel.net
                await until(pilot, lambda: hs.due() or net.to_act is not None, "a decision", 30)
                yield app, pilot, duel, host


def asked_about(app: Any, name: str) -> bool:
    """Whether ``app`` asks "NAME's time is up: wait longer, or end the game"."""
    screen = app.screen
    return isinstance(screen, ChoiceScreen) and f"{name}'s time is up" in screen.title_text


async def test_the_slow_player_is_told_and_the_other_is_asked_then_one_ending() -> None:
    async with ann_and_slow_hank() as (app, pilot, duel, host):
        net = duel.net
        hs = host.session
        assert hs is not None
        if net.to_act is not None:
            # Ann is the mover: her clock is on her status line, then she is told; about
            # her step only (on a busy machine a step before it, the deal's, may have kept
            # both waiting past the clock, and Ann was asked about Hank then)
            earlier = len(duel.notices)
            await until(
                pilot,
                lambda: "Your clock:" in duel.status.text or "Your time is up" in duel.status.text,
                "Ann's clock on her status line",
                20,
            )
            told = "Your time is up; the others are deciding whether to wait."
            await until(pilot, lambda: told in duel.notices, "Ann told", 20)
            assert not any("time is up" in n and "'s" in n for n in duel.notices[earlier:])
            assert host.vote_out(net.seat)  # Hank, asked, ends it
            await until(pilot, lambda: net.over, "the ending", 20)
            text = net.waiting_text()
            assert text == "Hank ended the game as abandoned by you: your time was up."
        else:
            # Hank is the mover: Ann sees his clock run out, and is asked
            await until(pilot, lambda: asked_about(app, "Hank"), "Ann asked", 20)
            screen = app.screen
            assert isinstance(screen, ChoiceScreen)
            assert "Hank is online but slow" in screen.prompt
            assert hs.abandoned is None  # nobody was voted out by itself
            await pilot.press("2")  # end the game as abandoned by Hank
            await until(pilot, lambda: net.over, "the ending", 20)
            assert net.waiting_text() == (
                "The game was abandoned by Hank: Ann ended it after waiting."
            )
        await until(pilot, lambda: hs.abandoned is not None, "Hank's ending", 20)
        assert hs.abandoned == net.session.abandoned
        await pilot.press("q")


async def test_the_question_about_a_slow_player_closes_itself_once_that_player_moves() -> None:
    # Ann's app asks about Hank once his clock runs out
    async with ann_and_slow_hank() as (app, pilot, duel, host):
        net = duel.net
        hs = host.session
        assert hs is not None
        # the deal may still be going on: wait until someone is to move
        await until(pilot, lambda: net.to_act is not None or bool(hs.due()), "a first mover", 60)
        if net.to_act is not None:
            # the screen takes keys once it awaits Ann (a busy machine may draw the move
            # after the session knows of it): a key pressed before is not a move
            await until(pilot, lambda: duel.awaiting is not None, "Ann's keys taken", 30)
            await pilot.press("p")  # Ann attacks first and passes: Hank's turn
        await until(pilot, lambda: bool(hs.due()), "Hank's turn", 60)
        await until(pilot, lambda: asked_about(app, "Hank"), "Ann asked about Hank", 30)
        # Hank moves after all, a move that keeps the bout going (a pass after Ann's
        # would end it, and its own dialog would open): the question has no object
        (peer, _view), *_ = hs.due()
        moves = [a for a in peer.game.legal_actions(peer.state, peer.seat) if a != PASS]
        host.act(moves[0])
        await until(pilot, lambda: app.screen is duel, "the question withdrawn", 20)
        assert duel.asking is None
        assert hs.abandoned is None and not net.over  # nobody voted, the game goes on

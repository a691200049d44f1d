"""The terminal's bell in a networked game: a decision of the player's (or a question put
to them) rings it once, for a player who has pressed no key for a while; never for one at
the keys, nor when the settings turn it off.

Ann's app joins a duel Hank hosts on an embedded broker; the test plays Hank. How long
counts as "a while" is :data:`cakeparty.tui.app.BELL_IDLE`, set by each case so that the
verdict does not hang on how fast the machine is: 0 (Ann has always looked away) or a
day (she never has)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from textual.pilot import Pilot

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.core.games.cake_duel.actions import PASS
from cakeparty.protocol.lobby import new_room_code
from cakeparty.tui import app as app_module
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.netroom import JoinPlan
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.net import WARN_AT

from .pilot import SIZE, until
from .rooms import hosted_duel
from .test_lobby import ready_into_the_duel


async def ann_decides(pilot: Pilot[Any], duel: Any, host: Any, after: int | None) -> int:
    """Until the duel awaits a decision of Ann's other than the game state ``after``: Hank
    moves when it is his turn (a move that keeps the bout going), and a bout's end is put
    away with enter. The state Ann decides in."""
    net = duel.net
    hs = host.session
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if pilot.app.screen is not duel:
            await pilot.press("enter")  # a bout's end: the next bout
        elif duel.awaiting == net.seat and net.view(net.seat).state_id != after:
            return int(net.view(net.seat).state_id)
        elif hs is not None and hs.due():
            (peer, _view), *_ = hs.due()
            moves = [a for a in peer.game.legal_actions(peer.state, peer.seat) if a != PASS]
            host.act(moves[0])
        await pilot.pause(0.05)
    raise AssertionError("no decision of Ann's came")


async def bells(monkeypatch: pytest.MonkeyPatch, idle: float, on: bool = True) -> list[int]:
    """How many times Ann's app rang after each of three decisions of hers, each drawn
    twice more before she moves."""
    monkeypatch.setattr(app_module, "BELL_IDLE", idle)
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, timeout=600, ready=True) as host:
            app = CakePartyApp(
                Settings(name="Ann", bot_delay=0.0, bell=on),
                JoinPlan(code, broker.url),
                persist=False,
            )
            rung: list[float] = []
            app.bell = lambda: rung.append(time.monotonic())  # type: ignore[method-assign]
            counts = []
            async with app.run_test(size=SIZE) as pilot:
                _lobby, duel = await ready_into_the_duel(pilot)
                net = duel.net
                state = None
                for _ in range(3):
                    state = await ann_decides(pilot, duel, host, state)
                    for _again in range(2):  # the same decision, drawn again: no new call
                        duel.advance()
                        await pilot.pause()
                    counts.append(len(rung))
                    view = net.view(net.seat)
                    legal = net.game.legal_actions(net.peer.state, net.seat)
                    moves = [a for a in legal if a != PASS] or legal
                    assert view.state_id == state
                    duel.perform(net.seat, moves[0])
            return counts


async def test_a_player_who_looked_away_is_called_once_to_each_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert await bells(monkeypatch, idle=0.0) == [1, 2, 3]


async def test_a_player_at_the_keys_hears_no_bell(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await bells(monkeypatch, idle=86400.0) == [0, 0, 0]


async def test_the_settings_turn_the_bell_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await bells(monkeypatch, idle=0.0, on=False) == [0, 0, 0]


async def test_a_player_who_looked_away_is_called_again_as_the_clock_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 15 s clock: the bell at Ann's decision, and again with the last warning, that
    10 s are left (not with the first, 15 s left, shown with the decision)."""
    monkeypatch.setattr(app_module, "BELL_IDLE", 0.0)
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, timeout=15, ready=True) as host:
            app = CakePartyApp(
                Settings(name="Ann", bot_delay=0.0), JoinPlan(code, broker.url), persist=False
            )
            rung: list[float] = []
            app.bell = lambda: rung.append(time.monotonic())  # type: ignore[method-assign]
            async with app.run_test(size=SIZE) as pilot:
                _lobby, duel = await ready_into_the_duel(pilot)
                await ann_decides(pilot, duel, host, None)

                def warned() -> bool:  # the last warning given (its toast may be gone)
                    return any(told == f"warn{WARN_AT[-1]}" for _seq, told in duel._told)

                await until(pilot, warned, "the clock's last warning", 60)
                assert len(rung) == 2

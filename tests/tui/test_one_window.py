"""A player in a room in one process cannot take part in it from a second of the same data
dir (another window, browser tab or SSH session): before, both played the seat, the two
signed different moves for one step, and the window that lost the race played on alone a
game nobody else saw. The second one now stops before it connects, and says why."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol.identity import load_or_create
from cakeparty.protocol.lobby import new_room_code
from cakeparty.tui.netroom import JoinPlan
from cakeparty.tui.screens.lobby import LobbyScreen

from .pilot import SIZE, until
from .rooms import hosted_duel
from .test_lobby import app_with, region_text, until_async

BINARY = str(Path(sys.executable).with_name("cakeparty"))


async def test_a_second_process_of_a_seated_player_stops_says_why_and_takes_over_on_t() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code) as host:
            me = load_or_create("Ann")  # the key of this data dir, which both use
            # a `cakeparty bot` of this data dir takes the seat first, in a process of its own
            bot = await asyncio.create_subprocess_exec(
                BINARY, "bot", "cake-duel", "--room", host.code, "--broker", broker.url,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            try:
                seated = lambda: any(  # noqa: E731
                    s.player == me.player_id and s.ready
                    for s in host.advert.taken  # type: ignore[union-attr]
                )
                await until_async(seated, "the bot process in the seat", 30)
                app = app_with(JoinPlan(host.code, broker.url))
                async with app.run_test(size=SIZE) as pilot:
                    lobby = app.screen
                    assert isinstance(lobby, LobbyScreen) and lobby.room is not None
                    # this app of the same player: refused before it connects
                    await until(pilot, lambda: lobby.problem is not None, "the refusal")
                    said = lobby.query_one("#lobby-status").text
                    assert "in this room in another Cake Party window" in said
                    assert f"(process {bot.pid})" in said
                    options = " ".join(region_text(app, lobby.query_one("#lobby-options")).split())
                    assert options == "Not read here: the room is open in another window"
                    assert lobby.room.runner.transport is None  # nothing sent, nothing read
                    assert seated()  # the seat is the bot's as it was: still ready
                    # t plays here: that process is asked to close, and the seat is this app's
                    assert lobby.check_action("take_over", ())
                    assert "t plays here instead (that window closes); q leaves." in said
                    await pilot.press("t")
                    await until(pilot, lambda: bot.returncode is not None, "the bot to close", 30)
                    await until(pilot, lambda: lobby.check_action("ready", ()), "a seat", 20)
                    assert lobby.problem is None and lobby.room.runner.transport is not None
                    assert not lobby.check_action("take_over", ())
                    # the seat is the app's now: a person's, not ready, online
                    await until(pilot, lambda: not seated(), "the seat taken over")
                    seat = [s for s in host.advert.taken if s.player == me.player_id]  # type: ignore[union-attr]
                    assert seat and seat[0].online and not seat[0].own_bot
            finally:
                if bot.returncode is None:
                    bot.kill()
                    await bot.wait()


async def test_a_bot_of_a_player_in_the_room_already_is_refused_with_its_reason() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code) as host:
            me = load_or_create("Ann")
            app = app_with(JoinPlan(host.code, broker.url))
            async with app.run_test(size=SIZE) as pilot:
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                await until(pilot, lambda: lobby.check_action("ready", ()), "a seat", 20)
                bot = await asyncio.create_subprocess_exec(
                    BINARY, "bot", "cake-duel", "--room", host.code, "--broker", broker.url,
                    stderr=asyncio.subprocess.PIPE,
                )  # fmt: skip
                try:
                    _out, err = await asyncio.wait_for(bot.communicate(), 60)
                finally:
                    if bot.returncode is None:  # it joined after all: not left running
                        bot.kill()
                        await bot.wait()
                assert bot.returncode == 1
                said = err.decode()
                assert f"this player is in room {code} already (process {os.getpid()})" in said
                assert "--config-dir" in said
                # the app plays on in its seat, its presence untouched by the bot's try
                seat = [s for s in host.advert.taken if s.player == me.player_id]  # type: ignore[union-attr]
                assert seat and seat[0].online and not seat[0].own_bot
                assert lobby.problem is None

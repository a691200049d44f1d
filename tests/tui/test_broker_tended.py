"""The broker a host runs on this computer, stopped while its room lives (killed, crashed,
out of memory): the host's app starts it again on the same port and says so, and the room
is on the broker again; the host leaving the room stops it for good."""

from __future__ import annotations

import asyncio
import os
import signal

from cakeparty.broker import runner as brokers
from cakeparty.broker.embedded import free_port
from cakeparty.protocol.network import list_rooms
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.lobby import LobbyScreen

from .pilot import SIZE, until
from .test_lobby import app_with


async def test_a_hosts_broker_killed_under_its_room_is_started_again() -> None:
    plan = HostPlan(players=2, timeout=60, port=free_port(), lan=False)
    assert plan.port is not None
    port = plan.port
    app = app_with(plan)
    app.NOTIFICATION_TIMEOUT = 600  # the notice stays to be read, however slow the run
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.hosting
        room = lobby.room
        assert room is not None
        await until(pilot, lambda: room.connected and room.advert is not None, "the room to open")
        first = room.broker_pid
        assert first is not None and brokers.is_ours(first, port)
        os.kill(first, signal.SIGKILL)
        await until(
            pilot,
            lambda: room.broker_pid not in (None, first) and brokers.listening(port),
            "a broker started again",
            30,
        )
        again = room.broker_pid
        assert again is not None and brokers.is_ours(again, port)
        told = "The broker on this computer stopped; it was started again on port"
        await until(
            pilot,
            lambda: any(told in n.message for n in app._notifications),
            "the notice of the broker started again",
        )
        # the new broker holds nothing the old one kept: the host reconnects and publishes
        # its advert there again, so the room is found by its code
        address = BrokerAddress.parse(f"127.0.0.1:{port}")
        found: list[str] = []

        async def look() -> None:
            while not found:
                listing = await list_rooms(address, 1.0, wanted=[room.code])
                found.extend(r.advert.room for r in listing if r.advert.room == room.runner.room)

        task = asyncio.create_task(look())
        await until(pilot, task.done, "the room on the broker started again", 30)
        task.result()
        assert room.record is not None and room.record.pid == again  # for coming back
        # leaving the room stops its broker, and nothing starts it again
        await pilot.press("q")
        await until(pilot, lambda: not room.running, "the room to close", 20)
        await until(pilot, lambda: not brokers.is_ours(again, port), "the broker to stop", 20)

"""A wrong room code says so within seconds: on the Join screen, and in the lobby of a
room joined by code and broker (the room's advert is retained: a room that exists is heard
at once)."""

from __future__ import annotations

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.messages import RoomEventArrived
from cakeparty.tui.netroom import JoinPlan, JoinSearch
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.rooms import JoinScreen

from .pilot import SIZE, Recorder
from .rooms import hosted_duel
from .test_lobby import app_with, until


async def test_the_join_screen_says_an_unknown_typed_code_is_not_on_the_broker() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code):
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False))
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: join.rooms and not join.searching, "the room list")
                wrong = "K7QM2X" if code != "K7QM2X" else "K7QM2Y"
                join.query_one("#join-input").focus()
                await pilot.press(*wrong.lower(), "enter")
                await pilot.pause()
                # before, a single broker meant "go and wait there" for a room that is not
                assert app.screen is join
                status = str(join.query_one("#join-status").render())
                assert f"No room {wrong} on {BrokerAddress.parse(broker.url)}" in status
                # the right code still joins
                join.query_one("#join-input").value = ""
                await pilot.press(*code.lower(), "enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


async def test_the_lobby_of_a_code_nobody_hosts_says_so_and_keeps_listening() -> None:
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        events = Recorder(RoomEventArrived)
        app = app_with(JoinPlan(code, broker.url))
        async with app.run_test(size=SIZE, message_hook=events) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and lobby.room is not None
            absent = lambda: [  # noqa: E731
                m for m in events.of(RoomEventArrived) if m.event.kind == "absent"
            ]
            await until(pilot, absent, "the room's absence to be told", 20)
            assert absent()[0].event.text == f"no room {code} on mqtt://127.0.0.1:{broker.port}"
            status = lobby.query_one("#lobby-status").text
            assert status.startswith(f"No room {code} on this broker")
            assert "Still listening" in status
            # nor does it name a game it has not heard of (it named the first registered)
            title = str(lobby.query_one("#lobby-title").render())
            assert title == f"Cake Party · room {code} · guest"
            # the host comes after all (a host resuming): the lobby takes its advert
            async with hosted_duel(broker.url, code) as host:
                await until(
                    pilot,
                    lambda: "No room" not in lobby.query_one("#lobby-status").text,
                    "the late advert to be shown",
                )
                assert lobby.room.advert is not None  # type: ignore[union-attr]
                assert lobby.room.advert.host == host.identity.player_id  # type: ignore[union-attr]


async def test_a_join_command_pasted_whole_looks_on_its_broker_and_joins_its_room() -> None:
    """``y`` in a lobby copies ``cakeparty join CODE --broker ADDRESS``; pasted whole into
    the join screen's field it was taken for a broker named "cakeparty join …"."""
    from textual import events

    from cakeparty.tui.netroom import join_command

    assert join_command("cakeparty join K7QM2X-4ETJQ-2RSTU --broker h:1883") == (
        "K7QM2X-4ETJQ-2RSTU",
        "h:1883",
    )
    assert join_command("ssh -p 2222 cake.example.org -t join K7QM2X --broker=mqtt://h") == (
        "K7QM2X",
        "mqtt://h",
    )
    assert join_command("cakeparty join --broker h K7QM2X") == ("K7QM2X", "h")
    assert join_command("K7QM2X") is None and join_command("cakeparty join") is None
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code) as host:
            app = app_with(JoinSearch(brokers=(), lan=False))  # no broker known here
            async with app.run_test(size=SIZE) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: not join.searching, "the first look")
                field = join.query_one("#join-input")
                field.focus()
                pasted = f"cakeparty join {host.code} --broker 127.0.0.1:{broker.port}"
                field.post_message(events.Paste(pasted))
                await pilot.pause()
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby", 20)
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen) and isinstance(lobby.plan, JoinPlan)
                assert lobby.plan.room == host.code
                assert BrokerAddress.parse(lobby.plan.broker).port == broker.port

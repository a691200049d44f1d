"""A broker with logins (the sample Mosquitto policy): the login given with ``--broker``
is kept wherever the app connects again (the room, the rooms listed, the next room), and
never shown."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import Static

from cakeparty.protocol.identity import save
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.netroom import HostPlan, JoinSearch
from cakeparty.tui.recent import remember_broker
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.rooms import JoinScreen

from ..broker.test_mosquitto_acl import BOB, HANK, HANK_LOGIN, guarded  # noqa: F401
from .pilot import SIZE, until
from .test_lobby import app_with
from .test_table_says import region_text, screen_text


@contextlib.asynccontextmanager
async def bobs_list(search: JoinSearch, room: str) -> AsyncIterator[JoinScreen]:
    """Bob's join list, once it lists ``room`` found with his login."""
    app = app_with(search, name="Bob")
    async with app.run_test(size=SIZE) as pilot:
        join = app.screen
        assert isinstance(join, JoinScreen)
        await until(pilot, lambda: join.rooms and not join.searching, "the room list", 20)
        [found] = [r for r in join.rooms if r.room == room]
        assert BrokerAddress.parse(found.broker).password == "bob-pw"
        yield join


async def test_a_login_given_with_the_broker_is_used_and_never_shown(
    guarded: int,  # noqa: F811
    config_dir: Path,
) -> None:
    port = guarded
    save(HANK, config_dir)  # Hank's key: the broker knows its player id as a login
    hank = f"mqtt://{HANK_LOGIN}:hank-pw@127.0.0.1:{port}"
    host = app_with(HostPlan(players=2, timeout=60, broker=hank, lan=False), name="Hank")
    async with host.run_test(size=SIZE) as pilot:
        lobby = host.screen
        assert isinstance(lobby, LobbyScreen) and lobby.room is not None
        room = lobby.room
        # logged in: the room is up, its advert written on the host's own topic
        await until(pilot, lambda: room.connected and room.advert is not None, "the room", 20)
        shown = region_text(host, lobby.query_one("#lobby-broker")) + region_text(
            host, lobby.query_one("#lobby-join")
        )
        assert "hank-pw" not in shown and HANK_LOGIN not in shown  # others log in as themselves
        assert f"--broker 127.0.0.1:{port}" in " ".join(shown.split())
        # Bob looks for rooms with his own login: the room is listed, to be joined with it
        bob = f"mqtt://{BOB}:bob-pw@127.0.0.1:{port}"
        async with bobs_list(JoinSearch(brokers=(bob,), lan=False, every=None), room.room) as join:
            listed = " ".join(str(line.prompt) for line in join.query_one("#join-rooms").options)
            assert room.room in listed and "bob-pw" not in listed
        # Bob joined there once: his join list, given no broker, looks there again with
        # his login, and says where it looks without it
        remember_broker(bob)
        async with bobs_list(JoinSearch(lan=False, every=None), room.room) as join:
            assert join._places() == [f"on mqtt://{BOB}@127.0.0.1:{port}"]
            assert "bob-pw" not in str(join.query_one("#join-status", Static).render())


@pytest.mark.parametrize(("password", "refused"), [("bob-px", True), ("bob-pw", False)])
async def test_a_login_typed_in_the_join_list_is_used_and_its_password_never_shown(
    guarded: int,  # noqa: F811
    password: str,
    refused: bool,
) -> None:
    """A broker address typed with a login in the join list's field shows its password as
    dots while it is typed, and the broker is asked with that login: a wrong password is
    refused and said, the right one is let in."""
    port = guarded
    app = app_with(JoinSearch(lan=False, every=None), name="Bob")
    async with app.run_test(size=SIZE) as pilot:
        join = app.screen
        assert isinstance(join, JoinScreen)
        await until(pilot, lambda: not join.searching, "the first look", 20)
        await pilot.press(*f"mqtt://{BOB}:{password}@127.0.0.1:{port}")
        await pilot.pause()
        shown = screen_text(app)
        assert password not in shown and f"{BOB}:••••••@127.0.0.1" in shown, shown
        await pilot.press("enter")
        await until(pilot, lambda: not join.searching, "the look on the typed broker", 20)
        said = str(join.query_one("#join-status", Static).render())
        assert ("did not accept the login" in said) == refused, said
        assert said.startswith("No rooms found.") and password not in screen_text(app)
        assert join.brokers == [f"mqtt://{BOB}:{password}@127.0.0.1:{port}"]  # kept whole

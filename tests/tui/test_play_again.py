"""Play again: the host offers a new room in the old one, signed; the guests' end dialog
offers it on one key. The offer crosses a real broker (the embedded one)."""

from __future__ import annotations

import asyncio
import random

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import Static

from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import (
    NEXT_ROOM,
    RoomRunner,
    check_next_room,
    client_id,
    offer_next_room,
    presence_id,
    wait_next_room,
)
from cakeparty.protocol.transport import BrokerAddress, Transport
from cakeparty.tui.table.results import EndScreen

from .pilot import SIZE


def test_only_the_hosts_signed_offer_of_its_own_room_is_believed() -> None:
    hank, mallory = Identity.generate("Hank"), Identity.generate("Mallory")
    new = lb.new_room_code()
    code = lb.room_code(new, hank.player_id)
    offer = lb.sign(hank.signing_key, "OLDROOM1", NEXT_ROOM, code)
    assert check_next_room(offer, "OLDROOM1", hank.player_id) == code
    forged = lb.sign(mallory.signing_key, "OLDROOM1", NEXT_ROOM, code)
    elsewhere = lb.sign(
        hank.signing_key, "OLDROOM1", NEXT_ROOM, lb.room_code(new, mallory.player_id)
    )
    other_room = lb.sign(hank.signing_key, "OTHERRM2", NEXT_ROOM, code)
    junk = lb.sign(hank.signing_key, "OLDROOM1", NEXT_ROOM, {"code": code})
    for bad in (forged, elsewhere, other_room, junk, b"\x93not an envelope"):
        with pytest.raises(ProtocolError):
            check_next_room(bad, "OLDROOM1", hank.player_id)


async def test_a_guest_receives_the_hosts_new_room_and_ignores_a_strangers() -> None:
    hank, mallory = Identity.generate("Hank"), Identity.generate("Mallory")
    old = lb.new_room_code()
    new = lb.room_code(lb.new_room_code(), hank.player_id)
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        address = BrokerAddress.parse(broker.url)
        # a stranger tries first to send the players to a room of theirs
        fake = lb.room_code(lb.new_room_code(), mallory.player_id)
        async with Transport(address, client_id=client_id()) as transport:
            data = lb.sign(mallory.signing_key, old, NEXT_ROOM, fake)
            await transport.publish(topics.next_room(old, presence_id(hank.player_id)), data)
        waiting = asyncio.create_task(wait_next_room(address, old, hank.player_id))
        await asyncio.sleep(0)
        await offer_next_room(address, hank, old, new)
        assert await asyncio.wait_for(waiting, 15) == new
        # a guest who looks only later still finds it: the offer is kept
        late = await asyncio.wait_for(wait_next_room(address, old, hank.player_id), 15)
        assert late == new


class EndOnly(App[str]):
    def on_mount(self) -> None:
        self.push_screen(EndScreen("Ann wins the duel!", ["Trophies: 3–1"]), self.exit)


async def test_the_end_dialog_shows_a_late_offer_and_p_takes_it() -> None:
    app = EndOnly()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        end = app.screen
        assert isinstance(end, EndScreen)
        # the first dialog the app shows (a game that ended before any other asked) is a
        # dialog all the same: its box centred, as tall as its lines (it filled the
        # terminal's left edge, top to bottom)
        box = end.query_one("#end-box").region
        assert box.height < SIZE[1] - 4 and box.y > 0
        assert abs(box.x - (SIZE[0] - box.right)) <= 1
        await pilot.press("p")  # not offered yet: nothing happens
        assert app.screen is end and "again" not in end.choices
        end.offer("Hank offers a new game: p to join")
        await pilot.pause()
        shown = "\n".join(str(w.render()) for w in end.query(Static))
        assert "Hank offers a new game: p to join" in shown
        assert "p play again" in shown
        await pilot.press("p")
    assert app.return_value == "again"


async def test_the_host_opens_the_same_room_again_and_a_guest_is_offered_it() -> None:
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.screens.lobby import LobbyScreen
    from cakeparty.tui.table.again import host_again

    from .test_lobby import app_with, until

    plan = HostPlan(
        game="cake-of-doom", players=4, options={"blind": True}, port=free_port(), lan=False
    )
    app = app_with(plan, name="Hank")
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen
        assert isinstance(first, LobbyScreen)
        old = first.room
        assert old is not None
        await until(pilot, lambda: old.connected and old.advert is not None, "the first room")
        # a guest sits down second, then the host seats two bots and takes one away: the
        # one left comes along
        gwen = Identity.generate("Gwen")
        guests = [Guest(old.address, gwen, old.code)]
        await until(pilot, lambda: len(old.runner.advert.taken) == 2, "Gwen's seat", 15)
        gone, kept = old.add_bot("random"), old.add_bot("strong")
        assert gone is not None and kept is not None
        old.remove_seat(gone)
        # a guest of the first room waits for the host's next one
        offered = asyncio.create_task(wait_next_room(old.address, old.room, old.identity.player_id))
        lobby = await host_again(app, old)
        assert isinstance(lobby, LobbyScreen) and app.screen is lobby
        new = lobby.room
        assert new is not None and new.room != old.room
        assert new.plan.players == 4 and new.plan.option("blind") and new.plan.timeout == 120
        await until(pilot, lambda: new.connected and new.advert is not None, "the new room")
        assert new.advert is not None and new.advert.host == old.identity.player_id

        def bots() -> list[lb.Seat]:
            return [s for s in new.advert.taken if s.bot] if new.advert is not None else []

        await until(pilot, lambda: bots(), "the bot in the new room's advert")
        assert len(bots()) == 1 and bots()[0].ready
        assert list(new.bot_levels.values()) == ["strong"]
        assert bots()[0].player not in old.bot_levels  # a bot of this room, with its own key
        assert new.address.port == old.port  # on the first room's broker, still up
        assert await asyncio.wait_for(offered, 15) == new.code
        # Gwen comes to the new room after the bot sat down: she has her seat again
        guests.append(Guest(new.address, gwen, new.code))
        await until(pilot, lambda: len(new.runner.advert.taken) == 3, "Gwen in the new room", 15)
        assert [s.name for s in new.runner.advert.taken] == ["Hank", "Gwen", bots()[0].name]
        for seated in guests:
            await seated.leave()


class Guest:
    """``who`` sits in room ``code`` (not ready) until :meth:`leave`."""

    def __init__(self, address: BrokerAddress, who: Identity, code: str) -> None:
        self.runner = RoomRunner(broker=address, identity=who, room=code)
        self.task = asyncio.create_task(self.runner.run())

    async def leave(self) -> None:
        # stopped, not cancelled: a cancellation can be lost in the broker's
        # acknowledgements (CPython gh-86296, see protocol.transport.stop_task)
        self.runner.stop()
        await asyncio.wait_for(self.task, 15)


class StandIn(Screen[None]):
    """A game's networked screen, as far as its lobby talks to it."""

    def room_event(self, event: object) -> None:
        pass

    def room_failed(self, error: str) -> None:
        pass

    def tick(self, connected: bool) -> None:
        pass


async def test_playing_again_and_again_keeps_one_rooms_screens_on_the_stack() -> None:
    """Each "play again" leaves the finished room (its game screen and lobby go) and opens
    the new one where they were; the embedded broker passes from room to room, and stops
    with the last one."""
    from cakeparty.broker import runner as brokers
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.screens.lobby import LobbyScreen
    from cakeparty.tui.table.again import play_again

    from .pilot import until
    from .test_lobby import app_with

    port = free_port()
    plan = HostPlan(players=2, options={"full": False}, timeout=60, port=port, lan=False)
    app = app_with(plan, name="Hank")
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.leave == "exit"
        first = lobby.room
        assert first is not None
        await until(pilot, lambda: first.connected and first.record.pid, "the first room")
        pid = first.record.pid
        depth = len(app.screen_stack)
        rooms = [first]
        for n in range(3):
            old = lobby.room
            # the game shown over the lobby, as its room starts it (the end dialog chose
            # "again")
            game = StandIn()
            lobby.game_screen = game
            await app.push_screen(game, lobby._game_left)
            assert len(app.screen_stack) == depth + 1
            app.run_worker(play_again(app, game, old), group="again", exclusive=True)
            await until(
                pilot,
                lambda old=lobby: (
                    isinstance(app.screen, LobbyScreen)
                    and app.screen is not old
                    and app.screen.room is not None
                    and app.screen.room.connected
                ),
                f"the room of game {n + 2}",
                30,
            )
            # the old room was left (closing may take a moment on a loaded machine) …
            await until(pilot, lambda old=old: not old.running, "the old room closed", 30)
            assert not old.playing
            assert lobby not in app.screen_stack and game not in app.screen_stack
            lobby = app.screen
            assert len(app.screen_stack) == depth  # … and its screens replaced
            assert lobby.leave == "exit"  # leaving the new lobby still quits, as before
            new = lobby.room
            assert new.address.port == port and new.embedded  # the same broker, now its
            assert new.record.pid == pid and old.record.pid is None
            assert brokers.is_ours(pid, port)
            rooms.append(new)
        assert len({r.room for r in rooms}) == 4
        # the last room left stops the broker it took over
        lobby.leave = "pop"
        lobby.leave_room()
        await until(pilot, lambda: not brokers.listening(port), "the broker to stop", 30)


class Offering:
    """What a guest's game screen uses of its room's runner at the end: the host's offer
    of a new room comes when :meth:`offer` is called."""

    def __init__(self) -> None:
        self.offered = asyncio.Event()
        self.code = lb.room_code(lb.new_room_code(), b"h" * 32)

    async def next_room(self) -> str:
        await self.offered.wait()
        return self.code

    def offer(self) -> None:
        self.offered.set()


async def test_an_offer_after_the_end_dialog_was_put_away_brings_it_back_whole() -> None:
    """A guest who closed the end's dialog to see the table when the host's offer comes:
    the dialog comes back as it was, the result and its keys (replay face up, see the
    table, quit), the offer added on p; not an empty box with p and enter alone."""
    from types import SimpleNamespace

    from cakeparty.core import get_game
    from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen

    from .netseats import deliver, seats_at
    from .pilot import until

    seats = seats_at("cake-master", 2)
    ann, bob = seats
    bot, rng = get_game("cake-master").bots["random"], random.Random(3)
    deliver(seats)
    for _turn in range(500):  # the game played to its end and audited, off screen
        if all(s.over and s.audited for s in seats):
            break
        for seat in seats:
            if seat.to_act is not None:
                seat.act(seat.to_act, bot(seat.view(seat.to_act), rng))
        deliver(seats)
        for seat in seats:
            seat.catch_up()
    assert ann.over and ann.fair
    runner = Offering()
    host = SimpleNamespace(host=bob.table.players[1], host_name="Bob")
    room = SimpleNamespace(
        hosting=False, advert=host, playing=True, embedded=False, runner=runner,
        address=SimpleNamespace(url="mqtt://127.0.0.1:1"),
    )  # fmt: skip
    screen = NetMasterScreen(ann, room)

    class AnnsApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = AnnsApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end dialog")
        first = app.screen
        assert isinstance(first, EndScreen)
        said = (first.headline, first.lines, first.choices)
        assert {"replay", "board", "quit"} <= set(first.choices)
        await pilot.press("enter")  # see the table
        await until(pilot, lambda: app.screen is screen, "the table")
        runner.offer()
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the offer")
        await pilot.pause()
        again = app.screen
        assert isinstance(again, EndScreen)
        assert (again.headline, again.lines) == said[:2]
        assert set(again.choices) == {*said[2], "again"}
        shown = "\n".join(str(w.render()) for w in again.query(Static))
        assert "Bob offers a new game: p to join" in shown
        keys = str(again.query_one("#end-keys", Static).render())
        for key in ("r replay face up", "p play again", "enter see the table", "q leave"):
            assert key in keys, keys
        await pilot.press("q")  # the dialog's q leaves, as it did before the offer
        await until(pilot, lambda: screen not in app.screen_stack, "the game left")

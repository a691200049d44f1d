"""Two apps, a host and a guest, play a networked Cake Duel to its end over a real broker
(the host's own), see the same ending with the audit fair, and play again: ``p`` takes
both into the host's new room (the guest's from the end dialog, which shows the host's
offer; the host's from the table, the dialog put away), where a new game starts.

Each app runs in its own task, as two players' terminals would; the players' choices are
the random bot's, from a seeded source, made through the screens (lists by their number
keys, notices closed with enter). The deck is shuffled by the peers' own secret
randomness, as in any networked game, so each run deals differently; what is asserted
holds for every deal."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from cakeparty.broker.embedded import free_port
from cakeparty.core import get_game
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.text import card_list, describe
from cakeparty.core.i18n import _
from cakeparty.protocol.identity import Identity, load_or_create
from cakeparty.protocol.network import RoomEvent
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.chronicle import hidden_specials
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.dialogs import ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.results import EndScreen

from .pilot import PATIENCE, SIZE, until
from .rooms import join_lobby

BOT = get_game("cake-duel").bots["random"]
AUDIT_FAIR = "Audit: fair. Every card and every move checked out."
#: seconds to play one duel to its end (over loopback it takes a few), on a busy machine
DEADLINE = 45.0 * PATIENCE


def app_named(start: Any, name: str) -> CakePartyApp:
    return CakePartyApp(Settings(name=name, bot_delay=0.0), start, persist=False)


def dealt(screen: NetDuelScreen) -> bool:
    """Has this player been dealt a hand (the new game's shuffle and deal are done)?"""
    duel = screen.net
    return bool(duel.view(duel.seat).hand)


def duel_below(app: Any) -> NetDuelScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, NetDuelScreen))


async def ready_for_the_new_game(pilot: Pilot[Any], app: Any) -> str:
    """Ready (r) in the new room's lobby, until the new game is dealt: its room."""
    await pilot.press("r")
    await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the new game", 20)
    new_duel = app.screen
    assert isinstance(new_duel, NetDuelScreen)
    await until(pilot, lambda: dealt(new_duel), "the new game's deal", 20)
    room: str = new_duel.net.table.room
    return room


async def play_to_the_end(pilot: Pilot[Any], rng: random.Random) -> EndScreen:
    """Play this app's seat until the end dialog shows; the dialog."""
    app = pilot.app
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        await pilot.pause(0.01)
        screen = app.screen
        if isinstance(screen, EndScreen):
            await until(pilot, lambda: drawn(app), "the end dialog drawn", 10)
            return screen
        if isinstance(screen, NetDuelScreen):
            seat = screen.awaiting
            if seat is not None and not screen.net.over:
                screen._act(BOT(screen.net.view(seat), rng))
        elif isinstance(screen, ChoiceScreen):
            duel = duel_below(app)
            seat = duel.awaiting
            values = [c.value for c in screen.choices]
            wanted = BOT(duel.net.view(seat), rng) if seat is not None else None
            index = values.index(wanted) if wanted in values else 0
            await pilot.press(str(index + 1))
        elif isinstance(screen, NoticeScreen):
            await pilot.press("enter")
        elif isinstance(screen, ConfirmScreen):
            await pilot.press("n")  # nobody leaves this game
    raise AssertionError(f"no end within {DEADLINE}s; screen {app.screen!r}")


def drawn(app: Any) -> bool:
    """Is the screen on top drawn, every row of it?"""
    return len(app.screen._compositor.render_strips()) == SIZE[1]


def footer(app: Any) -> str:
    """The bottom row of the terminal (80×24): the footer's keys."""
    return str(app.screen._compositor.render_strips()[-1].text) if drawn(app) else ""


def dialog_text(app: Any) -> str:
    """The words the terminal (80×24) shows inside the end dialog, its wrapping undone."""
    rows = [strip.text for strip in app.screen._compositor.render_strips()]
    assert len(rows) == SIZE[1] and all(len(row) <= SIZE[0] for row in rows)
    box = app.screen.query_one("#end-box").content_region
    inside = [row[box.x : box.x + box.width] for row in rows[box.y : box.y + box.height]]
    return " ".join(" ".join(row.split()) for row in inside)


def ending(app: Any, end: EndScreen) -> dict[str, Any]:
    """What the end dialog says, what the screen shows, and what it should say: the last
    bout's winning line and the specials the fair audit's replay found in the deck."""
    duel = duel_below(app)
    net = duel.net
    won = [e.event for e in net.story if isinstance(e.event, ev.BoutWon)]
    assert net.fair and net.verdict is not None and net.verdict.replay is not None
    replayed = net.verdict.replay
    specials = hidden_specials(replayed.state, replayed.dealer)
    return {
        "headline": end.headline,
        "lines": end.lines,
        "shown": dialog_text(app),
        "last bout": describe(won[-1], net.names),
        "specials": _("The hidden specials were {cards}").format(cards=card_list(specials)),
        "specials drawn": len(specials),
    }


async def test_a_networked_duel_played_to_its_end_then_played_again() -> None:
    plan = HostPlan(players=2, options={"full": True}, timeout=60, port=free_port(), lan=False)
    host, guest = app_named(None, "Hank"), app_named(None, "Gina")
    # two players, two keys: Hank's is his own; Gina's is the one kept in this test's
    # config dir, which her lobbies (the first, and the one play again opens) load
    hank_key, gina_key = Identity.generate("Hank"), load_or_create("Gina")
    shared: dict[str, Any] = {}
    room_open, guest_ended, host_again = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def hank(pilot: Pilot[Any]) -> None:
        await host.push_screen(LobbyScreen(plan, player="Hank", bot_delay=0.0, identity=hank_key))
        lobby = host.screen
        assert isinstance(lobby, LobbyScreen) and lobby.room is not None
        room = lobby.room
        depth = len(host.screen_stack)
        await until(pilot, lambda: room.connected and room.advert is not None, "the room", 15)
        shared["room"], shared["code"], shared["broker"] = room.room, room.code, room.share
        room_open.set()
        await until(pilot, lambda: len(room.runner.advert.taken) == 2, "Gina's seat", 15)
        await pilot.press("r")
        shared["hank"] = ending(host, await play_to_the_end(pilot, random.Random(1)))
        # q leaves the table, as in the game: the end's footer says so
        await until(pilot, lambda: "q Leave" in footer(host), "the end's footer", 10)
        await guest_ended.wait()
        # the dialog put away (enter: see the table), the table's footer keeps the key
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(host.screen, NetDuelScreen), "the table", 10)
        await until(pilot, lambda: "p Play again" in footer(host), "the table's footer", 10)
        await pilot.press("p")  # play again: a new room, offered to Gina
        await until(
            pilot,
            lambda: host.screen is not lobby and isinstance(host.screen, LobbyScreen),
            "the new lobby",
            15,
        )
        again = host.screen
        assert isinstance(again, LobbyScreen) and again.room is not None
        # the old room was left, its game and lobby replaced by the new lobby
        assert lobby not in host.screen_stack and len(host.screen_stack) == depth
        assert not room.running
        new = again.room
        await until(pilot, lambda: new.connected and new.advert is not None, "the new room", 15)
        shared["new room"] = new.room
        host_again.set()
        await until(pilot, lambda: len(new.runner.advert.taken) == 2, "Gina in the new room", 15)
        shared["hank's new table"] = await ready_for_the_new_game(pilot, host)

    async def gina(pilot: Pilot[Any]) -> None:
        await room_open.wait()
        lobby = await join_lobby(pilot, guest, shared["code"], shared["broker"], "Gina", gina_key)
        depth = len(guest.screen_stack)
        await pilot.press("r")
        shared["gina"] = ending(guest, await play_to_the_end(pilot, random.Random(2)))
        await until(pilot, lambda: "q Leave" in footer(guest), "the end's footer", 10)
        guest_ended.set()
        # the host's offer shows on Gina's end dialog; p takes it
        await until(
            pilot,
            lambda: (
                "again" in guest.screen.choices if isinstance(guest.screen, EndScreen) else False
            ),
            "the host's offer",
            20,
        )
        await pilot.pause()
        shared["gina's offer"] = dialog_text(guest)
        # put away to see the table, the dialog comes back at e as it was, offer and all
        headline = guest.screen.headline
        await pilot.press("enter")
        await until(pilot, lambda: "e Results" in footer(guest), "the table's footer", 10)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(guest.screen, EndScreen), "the dialog again", 10)
        await pilot.pause()
        assert guest.screen.headline == headline and "again" in guest.screen.choices
        assert dialog_text(guest) == shared["gina's offer"]
        first_game = lobby.game_screen
        assert isinstance(first_game, NetDuelScreen)
        await pilot.press("p")
        await until(
            pilot,
            lambda: isinstance(guest.screen, LobbyScreen) and guest.screen is not lobby,
            "the new lobby",
            15,
        )
        again = guest.screen
        assert isinstance(again, LobbyScreen) and again.room is not None
        assert lobby not in guest.screen_stack and len(guest.screen_stack) == depth
        await host_again.wait()
        assert again.room.room == shared["new room"] != shared["room"]
        await until(pilot, lambda: again.room.advert is not None, "the new room's advert", 15)
        shared["gina's new table"] = await ready_for_the_new_game(pilot, guest)
        shared["gina's first game"] = first_game

    async def run(app: CakePartyApp, body: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
        async with app.run_test(size=SIZE) as pilot:
            await body(pilot)

    await asyncio.wait_for(asyncio.gather(run(host, hank), run(guest, gina)), 90 * PATIENCE)

    # a game's screen that is gone (the app closing) may still hear its room: a late
    # chat line, move or presence tells nothing and does not fail
    gone = shared["gina's first game"]
    for late in (RoomEvent("chat", "» late"), RoomEvent("moved")):
        gone.room_event(late)
    gone.tick(True)

    # one ending on both screens: the same winner, bout story, specials and verdict
    hank_end, gina_end = shared["hank"], shared["gina"]
    assert hank_end["headline"] == gina_end["headline"]
    assert hank_end["headline"].endswith("wins the duel!")
    assert hank_end["lines"] == gina_end["lines"]
    for end in (hank_end, gina_end):
        # at 80×24 the dialog says how the last bout was won, names the hidden specials
        # (a full deck draws two) and gives the fair verdict
        assert end["specials drawn"] == 2
        for line in (end["last bout"], end["specials"], AUDIT_FAIR):
            assert line in end["lines"]
        for line in (end["headline"], end["last bout"], end["specials"], AUDIT_FAIR):
            assert " ".join(line.split()) in end["shown"], (line, end["shown"])
        # q leaves the table, as in the game, and its keys line says so
        assert "q leave" in end["shown"] and "q quit" not in end["shown"], end["shown"]
    assert "p play again" in hank_end["shown"]  # the host's own key; Gina's came by offer
    assert "Hank offers a new game: p to join" in shared["gina's offer"]
    # and a new game in a new room, the same for both
    assert shared["hank's new table"] == shared["gina's new table"] == shared["new room"]

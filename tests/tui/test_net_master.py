"""Two apps, a host and a guest, play a networked Cake Master (two players: keep and give)
to its end over a real broker (the host's own), and see the same game at 80×24.

Each app runs in its own task, as two players' terminals would. The first turn is played
by keys — keep (a number, k), give back (a number, k), twice, and place (a 1, a 2, a 3,
enter; Hank's first mark stays while Gina's sealed placement comes in); after it, each
seat's sealed choices are the random bot's, from a seeded source, made through the
screen's own action; round breakdowns are closed with enter. When the first turn's cards
are face up, each screen shows its own cakes and, with ``o``, the other player's: the
cakes each shows of a seat are the cakes that seat's owner sees. At the end both show the
same final table and a fair audit. The deck is shuffled by the peers' own secret
randomness, so each run deals differently; what is asserted holds for every deal.

A second test hosts three-handed with two bots added in the lobby and plays to the end."""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from cakeparty.broker.embedded import free_port
from cakeparty.core import get_game
from cakeparty.core.games.cake_master.actions import Keep
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.protocol.identity import Identity, load_or_create
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen
from cakeparty.tui.games.cake_master.parts import short_card
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.dialogs import ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.widgets import StatusBar
from cakeparty.tui.widgets.chat import ChatInput

from .pilot import PATIENCE, SIZE, until
from .rooms import bots_then_start, join_lobby

BOT = get_game("cake-master").bots["random"]
AUDIT_FAIR = "Audit: fair. Every card and every move checked out."
#: seconds a game may go without a move before :func:`play_to_the_end` calls it stuck (a
#: whole game over loopback takes 20-50 s, longer on a busy machine: the wait starts again
#: at every move); the three-player game played by bots' moves alone has it for the whole
#: game
DEADLINE = 60.0 * PATIENCE


def app_named(name: str) -> CakePartyApp:
    return CakePartyApp(Settings(name=name, bot_delay=0.0), None, persist=False)


def rows(app: Any) -> list[str]:
    """The terminal's rows, every one of them at 80×24."""
    strips = [strip.text for strip in app.screen._compositor.render_strips()]
    assert len(strips) == SIZE[1] and all(len(row) <= SIZE[0] for row in strips)
    return strips


def region_text(app: Any, selector: str) -> list[str]:
    """The rows a widget of the screen on top shows, as the terminal shows them."""
    box = app.screen.query_one(selector).region
    return [row[box.x : box.x + box.width] for row in rows(app)[box.y : box.y + box.height]]


def screen_of(app: Any) -> NetMasterScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, NetMasterScreen))


async def first_turn_by_keys(
    pilot: Pilot[Any], screen: NetMasterScreen, shared: dict[str, Any] | None = None
) -> None:
    """This seat's choice of the first turn's step, made by its keys."""
    net = screen.net
    phase = net.view(net.seat).phase
    seq = net.peer.seq
    if phase is Phase.PASS:
        await pilot.press("1", "l", "r", "enter")
    elif phase in (Phase.KEEP, Phase.KEEP_BACK):
        view = net.view(net.seat)
        keepable = [i for i, slot in enumerate(view.hand) if Keep(slot) in view.legal]
        assert keepable, (view.hand, view.legal)
        await pilot.press(str(keepable[0] + 1), "k")
    elif phase is Phase.PLACE and shared is None:
        await pilot.press("a", "1", "a", "2", "a", "3", "enter")
    elif phase is Phase.PLACE:
        # Hank marks a card, then Gina's sealed placement comes in: his mark stays; Gina's
        # placement stays drawn on her screen while Hank still chooses
        marked, sealed = shared["marked"], shared["sealed"]
        if net.names[net.seat] == "Hank":
            await pilot.press("a", "1")
            marked.set()
            await until(pilot, lambda: net.peer.waiting_for == (net.seat,), "Gina's choice", 10)
            await pilot.pause()
            prompt = region_text(pilot.app, "#cm-prompt")[0]
            kept = (len(screen.marks.spots), screen.awaiting, prompt)
            assert kept[:2] == (1, net.seat) and "Place card 2 of 3" in prompt, kept
            await sealed.wait()
            await pilot.press("a", "2", "a", "3", "enter")
        else:
            await marked.wait()
            hand = net.view(net.seat).hand
            await pilot.press("a", "1", "a", "2", "a", "3", "enter")
            await until(pilot, lambda: screen.awaiting is None, "Gina's placement sent", 10)
            await pilot.pause()
            cards = " ".join(region_text(pilot.app, "#cm-hand"))
            cakes = region_text(pilot.app, "#cm-cakes")
            shown = (net.view(net.seat).hand, cards, cakes)
            sealed.set()
            assert shown[0] == hand, shown  # Hank has not chosen: nothing is revealed
            for quarter in (1, 2, 3):
                assert f"→ cake 1, quarter {quarter}" in cards, shown
            on_cakes = " ".join(cakes)
            for slot in hand:  # each card drawn on cake 1 ("C rb")
                assert short_card(net.view(net.seat).card(slot)).plain.strip() in on_cakes, shown
    else:
        raise AssertionError(f"no keys for {phase}")
    # the choice went out: the keys are no longer live for it
    await until(
        pilot,
        lambda: screen.awaiting is None or net.peer.seq != seq,
        f"the {phase} choice sent",
        10,
    )


def placed_everywhere(screen: NetMasterScreen) -> bool:
    """Is every seat's first turn face up on the cakes (three cards each)?"""
    view = screen.net.view(None)
    return all(
        sum(slot is not None for cake in view.seat_cakes(seat) for slot in cake) == 3
        for seat in range(view.players)
    )


async def look_at_cakes(pilot: Pilot[Any], screen: NetMasterScreen) -> dict[str, list[str]]:
    """The cakes panel of this seat, and of the other seat after ``o`` (then ``o`` back)."""
    app = pilot.app
    names = screen.net.names
    own, other = screen.net.seat, 1 - screen.net.seat
    await pilot.pause()
    seen = {names[own]: region_text(app, "#cm-cakes")}
    await pilot.press("o")
    await pilot.pause()
    seen[names[other]] = region_text(app, "#cm-cakes")
    await pilot.press("o")
    return seen


async def play_to_the_end(pilot: Pilot[Any], rng: random.Random, shared: dict[str, Any]) -> Any:
    """Play this app's seat until the end dialog shows: what it and the table show."""
    app = pilot.app
    deadline = time.monotonic() + DEADLINE
    keys_done = looked = False
    last_move = None
    while time.monotonic() < deadline:
        await pilot.pause(0.01)
        screen = top = app.screen
        if isinstance(screen, EndScreen):
            await pilot.pause()
            net = screen_of(app).net
            return {
                "headline": screen.headline,
                "lines": screen.lines,
                "shown": " ".join(" ".join(r.split()) for r in rows(app)),
                "audited fair": net.fair,
            }
        if isinstance(top, NetMasterScreen):
            screen = top
            net = screen.net
            move = net.view(net.seat).state_id
            if move != last_move:
                last_move, deadline = move, time.monotonic() + DEADLINE
            seat = screen.awaiting
            if seat is None or net.over:
                continue
            view = net.view(seat)
            if not keys_done:
                await first_turn_by_keys(pilot, screen, shared)
                keys_done = view.phase is Phase.PLACE
                continue
            if not looked:
                face_up = functools.partial(placed_everywhere, screen)
                await until(pilot, face_up, "the cards face up", 10)
                shared[net.names[net.seat]] = await look_at_cakes(pilot, screen)
                shared[f"log {net.names[net.seat]}"] = list(screen.log_view.plain)
                looked = True
                continue
            screen._act(BOT(view, rng))
        elif isinstance(screen, NoticeScreen):
            await pilot.press("enter")
        elif isinstance(screen, ConfirmScreen):
            await pilot.press("n")  # nobody leaves this game
    raise AssertionError(f"no move for {DEADLINE}s; screen {app.screen!r}")


async def test_a_networked_cake_master_played_by_two_to_its_end() -> None:
    plan = HostPlan(game="cake-master", players=2, timeout=60, port=free_port(), lan=False)
    host, guest = app_named("Hank"), app_named("Gina")
    hank_key, gina_key = Identity.generate("Hank"), load_or_create("Gina")
    shared: dict[str, Any] = {"marked": asyncio.Event(), "sealed": asyncio.Event()}
    room_open = asyncio.Event()

    async def hank(pilot: Pilot[Any]) -> None:
        await host.push_screen(LobbyScreen(plan, player="Hank", bot_delay=0.0, identity=hank_key))
        lobby = host.screen
        assert isinstance(lobby, LobbyScreen) and lobby.room is not None
        room = lobby.room
        await until(pilot, lambda: room.connected and room.advert is not None, "the room", 15)
        shared["code"], shared["broker"] = room.code, room.share
        room_open.set()
        await until(pilot, lambda: len(room.runner.advert.taken) == 2, "Gina's seat", 15)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(host.screen, NetMasterScreen), "the game", 20)
        shared["hank"] = await play_to_the_end(pilot, random.Random(1), shared)

    async def gina(pilot: Pilot[Any]) -> None:
        await room_open.wait()
        await join_lobby(pilot, guest, shared["code"], shared["broker"], "Gina", gina_key)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(guest.screen, NetMasterScreen), "the game", 20)
        shared["gina"] = await play_to_the_end(pilot, random.Random(2), shared)

    async def run(app: CakePartyApp, body: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
        async with app.run_test(size=SIZE) as pilot:
            await body(pilot)

    await asyncio.wait_for(asyncio.gather(run(host, hank), run(guest, gina)), 120 * PATIENCE)

    # after the first turn, each screen shows both players' cards face up: the cakes
    # Hank's screen shows of Gina are the cakes Gina's own screen shows, and back
    for seat in ("Hank", "Gina"):
        # below the panel's title ("Your cakes — Hank" or "Hank's cakes")
        assert shared["Hank"][seat][1:] == shared["Gina"][seat][1:], seat
        for log in (shared["log Hank"], shared["log Gina"]):
            assert any(line.startswith(f"{seat}: ") and "→ cake" in line for line in log)
    assert "Your cakes — Hank" in shared["Hank"]["Hank"][0]
    assert "Gina's cakes" in shared["Hank"]["Gina"][0]
    # the same ending on both screens, with the same final table and a fair audit
    hank_end, gina_end = shared["hank"], shared["gina"]
    assert hank_end["headline"] == gina_end["headline"]
    assert hank_end["lines"] == gina_end["lines"]
    for end in (hank_end, gina_end):
        assert end["audited fair"]
        assert AUDIT_FAIR in end["lines"]
        assert end["headline"] in end["shown"]
        assert "Audit: fair" in end["shown"]


async def three_handed(app: CakePartyApp, pilot: Pilot[Any]) -> NetMasterScreen:
    """The host's lobby (``app`` hosts three seats) takes two bots (``a``) and starts on
    ready; the game's screen."""
    return await bots_then_start(app, pilot, 3, NetMasterScreen, wait=15, start=20)


async def test_a_host_seats_two_bots_and_plays_three_handed_to_the_end() -> None:
    """``host cake-master --players 3``: the lobby takes two bots (``a``), the game starts
    on ready, the footer keeps the chat key at 80 columns, the first pass goes by keys,
    a chat line goes round with the keys staying on the game, and it ends audited fair."""
    plan = HostPlan(game="cake-master", players=3, timeout=60, port=free_port(), lan=False)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), plan, persist=False)
    rng = random.Random(3)
    async with app.run_test(size=SIZE) as pilot:
        screen = await three_handed(app, pilot)
        net = screen.net
        await until(pilot, lambda: screen.awaiting is not None, "Ann's first choice", 20)
        assert net.view(net.seat).phase is Phase.PASS
        # the footer is drawn after the screen, and its keys follow the decision a redraw
        # later: on a busy machine one pause may see the keys of the screen before it
        keys = ("l Give left", "r Give right", "⏎ Commit", "? Help", "q Leave", "m Chat")
        await until(pilot, lambda: all(key in rows(app)[-1] for key in keys), "the pass's keys", 10)
        footer = rows(app)[-1]
        for key in keys:
            assert key in footer, footer
        await first_turn_by_keys(pilot, screen)
        await pilot.press("m", *"gl", "enter")
        await until(pilot, lambda: screen.last_chat == "Ann: gl", "the chat line", 10)
        assert app.focused is None  # the keys are the game's again
        deadline = time.monotonic() + DEADLINE
        typed = False
        while not isinstance(app.screen, EndScreen):
            assert time.monotonic() < deadline, f"no end; screen {app.screen!r}"
            await pilot.pause(0.01)
            if isinstance(app.screen, NoticeScreen):
                await pilot.press("enter")
            elif app.screen is screen and screen.awaiting is not None and not net.over:
                view = net.view(net.seat)
                if view.turn == 12 and view.phase is Phase.PLACE and not typed:
                    # the last move made while a chat line is typed: the round's breakdown
                    # and the end dialog wait for the line, so that no key meant for it (a
                    # space, q) answers them; they come once it is sent
                    typed = True
                    await pilot.press("m", *"gg")
                    screen._act(BOT(view, rng))
                    await until(pilot, lambda: net.over and net.audited, "the audit", 30)
                    await pilot.pause()
                    assert app.screen is screen and not screen.ended
                    await pilot.press("space", "q")
                    assert app.screen is screen and screen.query_one(ChatInput).value == "gg q"
                    await pilot.press("enter")
                    await until(pilot, lambda: screen.last_chat == "Ann: gg q", "the line", 10)
                    await until(pilot, lambda: app.screen is not screen, "the breakdown", 10)
                else:
                    screen._act(BOT(view, rng))
        assert typed
        await pilot.pause()
        shown = " ".join(" ".join(r.split()) for r in rows(app))
        assert net.fair and "Audit: fair" in shown
        placed = [line for line in screen.log_view.plain if "→ cake" in line]
        assert len(placed) == 3 * 4 * 3  # three players, four turns, three rounds
        # the end put away: the table says how to play again, in the status and the footer
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the table", 10)
        await until(pilot, lambda: "p Play again" in rows(app)[-1], "the footer's p", 10)
        status = screen.query_one(StatusBar).text
        assert "r replay · p play again · e results · q leave" in status, status

"""A networked game's screen that begins in the middle of a game (a seat resumed from its
journal), and its clock warnings: the story so far is told in the log without opening the
last bout's (or round's) end again, a bout that ends later still opens its dialog, and a
clock warning goes as soon as its move is made. The sessions pass their envelopes by hand;
Ann's is seen through her screen, the others are bots."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from cakeparty.core import get_game
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import RoomEvent
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.screens.dialogs import ChoiceScreen, NoticeScreen
from cakeparty.tui.table import registration
from cakeparty.tui.table.net import NetTable

from .netseats import Runner, deliver, guest_room, seats_at
from .pilot import SIZE, OneScreen, until

BOT = get_game("cake-duel").bots["random"]
NORMAL = get_game("cake-duel").bots["normal"]
TIMEOUT = 60


def duel(start: float, tournament: bool = False) -> tuple[NetTable, NetTable]:
    """Ann's and Bob's seats, their clocks started at monotonic time ``start``: one duel,
    or a tournament of duels."""
    ann, bob = Identity.generate("Ann"), Identity.generate("Bob")
    table = Table.of(
        "ROOM44",
        "cake-duel",
        [(ann.player_id, "Ann"), (bob.player_id, "Bob")],
        {"full": False, "tournament": tournament},
        timeout=TIMEOUT,
        nonce=secrets.token_bytes(16),
    )
    seats = []
    for seat, identity in enumerate((ann, bob)):
        runner = Runner(GameSession(table, [identity], now=start), identity, seat)
        seats.append(NetTable(runner, {bob.player_id: True}))
    return seats[0], seats[1]


def bouts_won(seat: NetTable) -> int:
    seat.catch_up()
    return sum(isinstance(e.event, ev.BoutWon) for e in seat.story)


def bot_move(seat: NetTable, rng: random.Random) -> bool:
    """The seat's move by the random bot, if the room waits for it."""
    if seat.to_act is None:
        return False
    seat.act(seat.seat, BOT(seat.view(seat.seat), rng))
    return True


def bout_end_open(app: App[Any]) -> bool:
    return any(isinstance(s, NoticeScreen) and s.has_class("bout-end") for s in app.screen_stack)


async def ann_plays(pilot: Pilot[Any], screen: NetDuelScreen, rng: random.Random) -> None:
    """Ann's decision by the random bot, through her screen (a list by its number key)."""
    app = pilot.app
    if isinstance(app.screen, ChoiceScreen):
        wanted = BOT(screen.net.view(screen.net.seat), rng)
        values = [c.value for c in app.screen.choices]
        await pilot.press(str(values.index(wanted) + 1 if wanted in values else 1))
    elif app.screen is screen and screen.awaiting is not None:
        screen._act(BOT(screen.net.view(screen.net.seat), rng))
    await pilot.pause()


async def test_a_seat_that_begins_mid_game_does_not_reopen_the_last_bouts_end() -> None:
    seats = ann, bob = duel(time.monotonic())
    rng = random.Random(11)
    deliver(seats, 0.0)
    while bouts_won(ann) == 0:  # the first bout is played before Ann's screen begins
        assert any(bot_move(s, rng) for s in seats), "the duel waits on nobody"
        deliver(seats, 0.0)
    assert ann.outcome is None
    screen = NetDuelScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        for _ in range(5):
            await pilot.pause()
        assert not bout_end_open(app)  # it was shown before; the log tells it
        assert any("wins the bout" in line for line in screen.log_view.plain)
        # a bout that ends while the screen is up opens its dialog as ever
        deadline = time.monotonic() + 60
        while not bout_end_open(app) and ann.outcome is None:
            assert time.monotonic() < deadline, "no second bout end"
            await ann_plays(pilot, screen, rng)
            bot_move(bob, rng)
            deliver(seats, 0.0)
            screen.room_event(RoomEvent("moved"))
            await pilot.pause()
        assert bout_end_open(app) or ann.outcome is not None


async def test_a_seat_begun_in_a_tournament_s_second_duel_does_not_reopen_the_first() -> None:
    """A tournament's duel that did not end it was told in its own dialog as it ended: a
    seat resumed later finds it in the log, and no dialog of it (nor of its last bout)."""
    seats = ann, _bob = duel(time.monotonic(), tournament=True)
    rng = random.Random(5)
    deliver(seats, 0.0)

    def duels_won() -> int:
        ann.catch_up()
        return sum(isinstance(e.event, ev.DuelWon) for e in ann.story)

    while duels_won() == 0:  # the first duel is played before Ann's screen begins
        assert any(bot_move(s, rng) for s in seats), "the duel waits on nobody"
        deliver(seats, 0.0)
    assert ann.outcome is None
    screen = NetDuelScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        for _ in range(5):
            await pilot.pause()
        assert not bout_end_open(app), [getattr(s, "title_text", s) for s in app.screen_stack]
        assert any("wins the duel" in line for line in screen.log_view.plain)


async def test_a_clock_warning_goes_once_its_move_is_made() -> None:
    # the clocks started 52 s ago: 8 s are left on the first decision's
    seats = ann, bob = duel(time.monotonic() - 52)
    rng = random.Random(12)
    deliver(seats, time.monotonic() - 52)
    while ann.to_act is None:
        assert bot_move(bob, rng), "the duel waits on nobody"
        deliver(seats, time.monotonic() - 52)
    screen = NetDuelScreen(ann, guest_room())
    screen.CLOCK_TOAST_SECONDS = 600  # nothing but the move takes it down in this test
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: screen.awaiting is not None or isinstance(app.screen, ChoiceScreen),
            "Ann's turn",
        )
        screen.tick(True)
        warned = "s left for your move."
        await until(
            pilot,
            lambda: any(warned in n.message for n in app._notifications),
            "the clock warning",
        )
        step = ann.peer.seq
        await until(pilot, lambda: screen.awaiting is not None, "Ann's keys live")
        await ann_plays(pilot, screen, rng)  # Ann moves: the room moves on
        deliver(seats, time.monotonic())
        assert ann.peer.seq > step
        screen.room_event(RoomEvent("moved"))
        # taken down as the screen follows the room, not left to run out
        assert not any(warned in n.message for n in app._notifications)


async def test_the_status_speaks_to_the_player_whose_move_is_pending() -> None:
    seats = ann, bob = duel(time.monotonic())
    rng = random.Random(13)
    deliver(seats, 0.0)
    while ann.to_act is None:
        assert bot_move(bob, rng), "the duel waits on nobody"
        deliver(seats, 0.0)
    screen = NetDuelScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        view = ann.view(ann.seat)
        # the room waits on Ann, her keys not offered yet (the screen catching up):
        # the status line speaks to her, not of her in the third person
        screen.awaiting = None
        text, tone = screen.status_text(view)
        assert text == "Your move · one moment…" and tone == "wait"
        # once the keys are hers, the line says what to do
        screen.advance()
        await until(
            pilot,
            lambda: screen.awaiting is not None or isinstance(app.screen, ChoiceScreen),
            "Ann's turn",
        )
        if screen.awaiting is not None:
            text, tone = screen.status_text(view)
            assert "one moment" not in text and tone == "you"


@pytest.mark.parametrize(("game", "players"), [("cookies-battle", 3), ("cake-master", 2)])
async def test_a_seat_that_begins_in_round_two_does_not_reopen_round_one_s_end(
    game: str, players: int
) -> None:
    """A seat resumed after a round ended (its screen begins with the story so far) finds
    that round's end in the log, not in a dialog it saw before."""
    seats = seats_at(game, players)
    bot = get_game(game).bots["normal"]
    rng = random.Random(5)
    deliver(seats)
    while seats[0].view(None).round < 2:  # round 1 is played before Ann's screen begins
        moved = False
        for seat in seats:
            if seat.to_act is not None:
                seat.act(seat.seat, bot(seat.view(seat.seat), rng))
                moved = True
        assert moved, "the game waits on nobody"
        deliver(seats)
    screen = registration.lookup(game).net_screen(seats[0].runner, {}, None, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        for _ in range(5):
            await pilot.pause()
        assert not any(isinstance(s, NoticeScreen) for s in app.screen_stack)
        assert app.screen is screen and screen.awaiting == 0  # Ann's keys are up
        said = ("Round 1 ends", "Round 1 is scored")  # the round's end, in the log
        assert any(line.startswith(said) for line in screen.log_view.plain)


@pytest.mark.parametrize("game", ["cake-master", "cake-of-doom"])
async def test_a_seat_resumed_mid_game_marks_the_cards_new_since_its_last_move(
    game: str,
) -> None:
    """A seat whose screen begins mid-game (resumed from its journal) marks the cards come
    into its hand since its last move, as the screen that saw the move would have: the
    hand at each of its moves is read again from the room's history."""
    from collections import Counter

    from textual.widgets import Static

    from cakeparty.core.games.cake_master.actions import Place
    from cakeparty.tui.games.cake_of_doom.parts import hand_sorts, sort_counts

    def hand(view: Any) -> Counter[Any]:  # what the game's screen compares, by game
        if game == "cake-master":
            return Counter(view.hand)
        return sort_counts(hand_sorts(view))

    seats = seats_at(game, 3)
    bot = get_game(game).bots["random"]
    rng = random.Random(6)
    deliver(seats)
    ann = seats[0]
    before: Counter[Any] | None = None  # Ann's hand at her last move (this turn's)
    for _ in range(400):
        chooses = ann.to_act == 0 and len(ann.legal(0)) > 1  # not one made for her
        if chooses and before is not None and hand(ann.view(0)) - before:
            break  # cards came since her last move: her screen begins here
        moved = False
        for seat in seats:
            if seat.to_act is not None:
                action = bot(seat.view(seat.seat), rng)
                if seat is ann and action != ann.forced(0):  # made for her: no move
                    # a placement ends the turn: the next hand is all new
                    before = None if isinstance(action, Place) else hand(ann.view(0))
                seat.act(seat.seat, action)
                moved = True
        assert moved, "the game waits on nobody"
        deliver(seats)
    else:
        raise AssertionError("no cards came into Ann's hand after a move of hers")
    screen = registration.lookup(game).net_screen(ann.runner, {}, None, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun and screen.awaiting == 0, "Ann's keys up")
        for _ in range(5):
            await pilot.pause()
        if game == "cake-master":
            cards = str(screen.query_one("#cm-hand-cards", Static).render())
            assert "  new" in cards, cards
        else:
            title = str(screen.query_one("#doom-hand").border_title)
            assert "new since your last move" in title, title


async def test_a_bout_s_end_read_while_the_clock_runs_says_how_long_the_move_has() -> None:
    seats = ann, bob = duel(time.monotonic())
    rng = random.Random(14)
    deliver(seats, time.monotonic())
    screen = NetDuelScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        deadline = time.monotonic() + 60
        while not bout_end_open(app):
            assert time.monotonic() < deadline and ann.outcome is None, "no bout end"
            await ann_plays(pilot, screen, rng)
            bot_move(bob, rng)
            deliver(seats, time.monotonic())
            screen.room_event(RoomEvent("moved"))
            await pilot.pause()
        notice = app.screen
        assert isinstance(notice, NoticeScreen)

        def keys() -> str:
            return str(notice.query_one("#dialog-keys").render())

        # the notice stays up; Bob plays on until the room waits for Ann's move
        while ann.to_act != ann.seat:
            assert bot_move(bob, rng), "the duel waits on nobody"
            deliver(seats, time.monotonic())
            screen.room_event(RoomEvent("moved"))
            assert keys() == "enter to continue"  # not her move: nothing more
        await until(pilot, lambda: "your move:" in keys(), "her clock on the notice")
        said = int(keys().split("your move: ")[1].split(" s left")[0])
        assert 0 < said <= TIMEOUT
        assert keys().startswith("enter to continue · ")
        await pilot.press("enter")  # read: her move under it
        await until(pilot, lambda: app.screen is not notice, "the notice closed")


async def test_a_seat_that_begins_mid_bout_counts_the_bout_s_turns_as_the_others_do() -> None:
    rng = random.Random(11)
    for _room in range(8):  # the deal is the room's own randomness: a duel may end first
        seats = ann, _bob = duel(time.monotonic())
        deliver(seats, 0.0)
        # into a later bout, a few turns on: the duel's turn count is past the bout's start
        while ann.outcome is None and (
            bouts_won(ann) == 0 or ann.view(None).turn < bouts_turn(ann) + 3
        ):
            # the normal bot: the random one ends its bouts in a turn or two
            mover = next((s for s in seats if s.to_act is not None), None)
            assert mover is not None, "the duel waits on nobody"
            mover.act(mover.seat, NORMAL(mover.view(mover.seat), rng))
            deliver(seats, 0.0)
        if ann.outcome is None:
            break
    assert ann.outcome is None, "no duel reached a later bout's third turn"
    bout = ann.view(None).bout
    expected = ann.view(None).turn - bouts_turn(ann) + 1
    assert bout > 1 and expected > 1
    screen = NetDuelScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.begun, "the screen begun")
        title = str(screen.query_one("#duel-title").render())
        assert f"bout {bout} · turn {expected} ·" in title


def bouts_turn(seat: NetTable) -> int:
    """The duel's turn count as the last bout began (the room's state, replayed)."""
    game = get_game("cake-duel")
    state = game.new_state(2, {"full": False})
    turn = state.turn
    for who, action in seat.peer.history:
        bouts = sum(isinstance(e, ev.BoutStarted) for e in state.events)
        state = game.apply(state, action, who)
        if sum(isinstance(e, ev.BoutStarted) for e in state.events) > bouts:
            turn = state.turn
    return turn

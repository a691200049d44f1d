"""Cookies Battle played by key presses at 80×24: a whole game against random bots (the
pass, the tricks with the playable cards marked, marker windows that pass by themselves,
markers used by keys, the round end and the scoring breakdown), hot-seat hands hidden
between people, the duel's pass, the help and the rules."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from cakeparty.core import Revealed, Shuffled, get_game
from cakeparty.core.games.cookies_battle.actions import (
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.events import MarkerEarned, PieceTaken, TrickWon
from cakeparty.core.games.cookies_battle.scoring import decide, seat_score
from cakeparty.tui.games.cookies_battle import lines as cookies_lines
from cakeparty.tui.games.cookies_battle import screen as cookies_screen
from cakeparty.tui.games.cookies_battle.lines import DEFENSE, PASS, PLAY, SWAP, WINDOW, step_of
from cakeparty.tui.games.cookies_battle.parts import card_words, piece_words
from cakeparty.tui.games.cookies_battle.scores import assembly_line, ranking_lines, tie_line
from cakeparty.tui.games.cookies_battle.screen import CookiesScreen
from cakeparty.tui.screens.dialogs import ChoiceScreen, NoticeScreen, PassScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen, ReplayScreen

from .pilot import SIZE, make_app, settle_on, until
from .rooms import bots_then_start


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as the terminal shows it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: Pilot[Any], timeout: float = 30.0) -> Screen[Any]:
    """Wait until a person must act: a dialog is up, or the game awaits keys or is over."""
    return await settle_on(pilot, CookiesScreen, timeout)


def history_of(screen: CookiesScreen, seat: int) -> list[Any]:
    table = screen.table
    assert isinstance(table, LocalTable)
    return [a for s, a in table.match.history if s == seat]


async def play_step(
    pilot: Pilot[Any], screen: CookiesScreen, seen: dict[str, Any], rng: random.Random
) -> None:
    """One decision of the seat at the keyboard, by keys; notes what the screen said."""
    app = pilot.app
    view = screen.view()
    step = step_of(view)
    seat = screen.awaiting
    assert seat is not None
    if step == PASS:
        if view.players == 2:
            await pilot.press("enter")  # the card under the cursor goes over
            return
        await pilot.press("l")
        await pilot.press("r")
        assert screen.marks.left is not None and screen.marks.right is not None
        seen.setdefault("pass", screen_text(app))
        await pilot.press("enter")
        return
    if step == PLAY:
        playable = {a.slot for a in view.legal if isinstance(a, Play)}
        order = screen.order(view)
        if len(playable) < len(order) and "dimmed" not in seen:
            hand = screen.query_one("#cb-hand-cards", Static).content
            seen["dimmed"] = (hand, playable, order)
        uses = [a for a in view.legal if isinstance(a, UseMarker)]
        if uses and "used" not in seen:
            await use_marker(pilot, screen, seen, "turn")
            return
        for _ in range(len(order)):
            if screen.current_slot(screen.view()) in playable:
                break
            await pilot.press("right")
        await pilot.press("enter")
        return
    if step in (WINDOW, DEFENSE):
        uses = [a for a in view.legal if isinstance(a, UseMarker)]
        if "waited" not in seen:
            # no key: the window passes by itself
            before = len(history_of(screen, seat))
            seen["window"] = screen_text(app)
            await until(
                pilot,
                lambda: len(history_of(screen, seat)) > before,
                "the window to pass by itself",
            )
            assert history_of(screen, seat)[-1] == NoMarker()
            seen["waited"] = True
            return
        if uses and "used" not in seen:
            await use_marker(pilot, screen, seen, step)
            return
        await pilot.press(rng.choice(["n", "enter"]))
        return
    assert step == SWAP  # its list opens by itself
    raise AssertionError("the Swap's list should be open")


async def use_marker(
    pilot: Pilot[Any], screen: CookiesScreen, seen: dict[str, Any], where: str
) -> None:
    """Use a marker by keys: m, then the first of each list that opens."""
    seat = screen.awaiting
    assert seat is not None
    before = len(history_of(screen, seat))
    await pilot.press("m")
    for _ in range(3):
        await pilot.pause()
        if not isinstance(pilot.app.screen, ChoiceScreen):
            break
        seen.setdefault("marker list", screen_text(pilot.app))
        await pilot.press("1")
    await until(pilot, lambda: len(history_of(screen, seat)) > before, "the marker to be used")
    assert isinstance(history_of(screen, seat)[before], UseMarker)
    seen["used"] = where


def finish_at_the_table(screen: CookiesScreen, rng: random.Random) -> None:
    """Every seat plays on at random straight at the table, and the screen catches up
    with the story at once (its round ends, its breakdown): a game's last rounds in
    less time than drawing each move takes."""
    table = screen.table
    assert isinstance(table, LocalTable) and not screen.bot_busy
    while not table.over:
        seat = table.to_act
        assert seat is not None
        screen._tell(table.act(seat, table.bots["random"](table.view(seat), rng)))
    screen.refresh_view()
    screen.advance()


#: What a game played by keys shows before the rest is played faster.
KEYS_SEEN = ("round end", "dimmed", "used", "waited")


async def play_game(
    pilot: Pilot[Any], seen: dict[str, Any], rng: random.Random, steps: int = 2000
) -> EndScreen:
    """Play by keys until a round has ended and the screen has shown all of
    :data:`KEYS_SEEN`, then the rest at the table (:func:`finish_at_the_table`), closing
    the notices (the first noted) up to the end box."""
    app = pilot.app
    for _ in range(steps):
        screen = await settle(pilot)
        if isinstance(screen, EndScreen):
            seen["end"] = screen_text(app)
            return screen
        if isinstance(screen, NoticeScreen) and screen.title_text == "The cookies are counted":
            seen["breakdown"] = screen_text(app)
            await pilot.press("enter")
            continue
        if isinstance(screen, NoticeScreen):
            seen.setdefault("round end", screen_text(app))
            await pilot.press("enter")
            continue
        if isinstance(screen, ChoiceScreen):  # a Swap's target: the piece to give
            seen.setdefault("swap list", screen_text(app))
            await pilot.press("1")
            continue
        assert isinstance(screen, CookiesScreen), screen
        if all(k in seen for k in KEYS_SEEN):  # enough was played by keys
            finish_at_the_table(screen, rng)
            continue
        await play_step(pilot, screen, seen, rng)
    raise AssertionError("the game did not end")


async def test_a_whole_game_is_played_by_keys_to_the_scoring_breakdown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # long enough that a busy machine still finds Ann's windows open: one passes by itself,
    # one is used by keys, the others answered at once
    monkeypatch.setattr(cookies_screen, "WINDOW_WAIT", 3.0)
    app = make_app(GameSetup(game="cookies-battle", players=3, bots="random", seed=4))
    seen: dict[str, Any] = {}
    async with app.run_test(size=SIZE) as pilot:
        first = await settle(pilot)
        assert isinstance(first, CookiesScreen)
        text = screen_text(app)
        assert "Your hand — Ann" in text and "Table" in text and "Log" in text
        assert "round 1/3" in text and "trick 1/12" in text
        view = first.view()
        assert step_of(view) == PASS and len(view.hand) == 12
        assert "l gives it to Muffin, r to Eclair" in text
        assert all(len(line) <= SIZE[0] for line in text.splitlines())
        assert "Pass" in text.splitlines()[-1] and "Left" in text.splitlines()[-1]
        end = await play_game(pilot, seen, random.Random(7))
        table = first.table
        assert isinstance(table, LocalTable)
        # the pass marks stood beside the cards before they went
        assert "←" in seen["pass"] and "→" in seen["pass"]
        # the cards that may not be played were dimmed, the others bright
        hand, playable, order = seen["dimmed"]
        assert playable and len(playable) < len(order)
        dimmed = [span for span in hand.spans if span.style == "dim"]
        assert len(dimmed) == len(order) - len(playable)
        # a window passed by itself, and a marker was used by keys
        assert seen.get("waited") and "passes by itself" in seen["window"]
        assert "used" in seen and "Use which marker?" in seen["marker list"]
        # the story told the tricks' winners, the round's end showed the piece counts
        log = first.log_view.plain
        won = [e for e in table.view(None).events if isinstance(e, TrickWon)]
        assert len(won) == 3 * 12 and any(e.seat == 0 for e in won)
        told = [line for line in log if "wins the trick and takes" in line]
        assert told == [
            f"{table.names[e.seat]} wins the trick and takes {piece_words(e.piece)}" for e in won
        ]
        assert "Round 1 is over" in seen["round end"] and "Ann:" in seen["round end"]
        # the breakdown: every player's assembly, then the end box ranks them with the
        # tummy ache and the winner
        view = table.view(None)
        assert view.over and view.results
        breakdown = seen["breakdown"]
        for seat, name in enumerate(table.names):
            assert f"{name}: {view.results[seat].total} points" in breakdown
            for part in assembly_line(view.results[seat]).split(" · "):
                assert part in breakdown  # whole: rows break between the parts
        final = seen["end"]
        assert "The cookies are counted" in final
        for name in ("Ann", "Muffin", "Eclair"):
            assert f"{name}: " in final
        assert end.headline.split(" — ")[0].endswith(("wins", "share the win"))
        if view.tummy_ache:
            assert "tummy ache" in end.headline and "tummy ache" in final
        winner = table.names[view.winners[0]]
        assert f"{winner}: {view.results[view.winners[0]].total} points ★ wins" in final
        # the face-up replay opens from the end box, every hand as dealt
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert sum("is dealt" in line for line in app.screen.plain) == 3 * 3
        assert any("passes" in line and "to the left" in line for line in app.screen.plain)
        # back at the table, the end box comes back at e, as it was
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, CookiesScreen)
        assert "e Results" in screen_text(app).splitlines()[-1]
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen) and app.screen is not end
        assert app.screen.headline == end.headline and screen_text(app) == final


async def test_a_bot_that_fails_in_a_marker_window_plays_at_random_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A window a bot answers at once, on the screen's own loop (no delay shown): a bot
    that fails there plays at random that once, with a notice, as anywhere else."""
    monkeypatch.setattr(cookies_screen, "WINDOW_WAIT", 0.2)
    normal = get_game("cookies-battle").bots["normal"]

    def broken(view: Any, rng: random.Random) -> Any:
        if step_of(view) in (WINDOW, DEFENSE):
            raise RuntimeError("out of cookies")
        return normal(view, rng)

    setup = GameSetup(game="cookies-battle", players=4, bots="broken", seed=4)
    table = LocalTable(setup, "Ann", bots={"broken": broken})
    notices: list[str] = []
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.notify = lambda message, **kwargs: notices.append(str(message))  # type: ignore[method-assign]
        screen = CookiesScreen(table, bot_delay=0)
        await app.push_screen(screen)
        seen: dict[str, Any] = {"waited": True, "used": True}  # no marker used by keys
        rng = random.Random(7)
        for _ in range(400):
            if any("stumbled" in n for n in notices):
                break
            shown = await settle(pilot)
            if isinstance(shown, NoticeScreen):
                await pilot.press("enter")
            elif isinstance(shown, ChoiceScreen):
                await pilot.press("1")
            else:
                assert shown is screen and not screen.ended
                await play_step(pilot, screen, seen, rng)
        stumbles = [n for n in notices if "stumbled" in n]
        assert stumbles and "(bot) stumbled (RuntimeError: out of cookies)" in stumbles[0]
        # the window was answered, and the game goes on to the person's next decision
        assert app.is_running
        assert isinstance(await settle(pilot), CookiesScreen | NoticeScreen | ChoiceScreen)


async def test_hot_seat_hides_each_hand_until_the_keyboard_is_passed() -> None:
    setup = GameSetup(
        game="cookies-battle", players=3, hotseat=True, names=("Ann", "Bo", "Cy"), seed=2
    )
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        shown: list[str] = []
        for _ in range(3):
            screen = await settle(pilot)
            assert isinstance(screen, PassScreen)
            shown.append(screen.name_text)
            await hidden_behind(app)
            await pilot.press("enter")
            screen = await settle(pilot)
            assert isinstance(screen, CookiesScreen)
            assert f"Your hand — {shown[-1]}" in screen_text(app)
            assert step_of(screen.view()) == PASS
            assert screen.cursor == 0  # each person's hand from its first card
            await pilot.press("right", "right", "l", "right", "r", "enter")
        assert shown == ["Ann", "Bo", "Cy"]
        # the passes opened together; the first card waits behind the keyboard's passing
        screen = await settle(pilot)
        assert isinstance(screen, PassScreen)
        game = await hidden_behind(app)
        view = game.table.view(None)
        assert step_of(view) == PLAY and screen.name_text == game.table.names[view.to_play]
        await pilot.press("enter")
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen) and screen.viewer == view.to_play
        assert f"Your hand — {game.table.names[view.to_play]}" in screen_text(app)


async def hidden_behind(app: App[Any]) -> CookiesScreen:
    """The game behind the keyboard's passing shows no hand, no pieces, no markers."""
    game = app.screen_stack[-2]
    assert isinstance(game, CookiesScreen) and game.viewer is None
    cards = game.query_one("#cb-hand-cards", Static).content
    assert "Hands are hidden" in str(cards)
    assert str(game.query_one("#cb-own", Static).content) == ""
    assert "Your hand" not in screen_text(app)
    return game


async def test_the_duel_gives_one_card_and_has_no_markers() -> None:
    app = make_app(GameSetup(game="cookies-battle", players=2, bots="random", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen)
        view = screen.view()
        assert view.variant == "duel" and len(view.hand) == 10
        text = screen_text(app)
        assert (
            "duel" in text
            and "mrk" not in text
            and "markers left" not in text
            and "pieces left" in text
        )
        # one card, to the other player: not "a card to each neighbour"
        assert "Ann: your turn — give a card to the other player" in text
        words = cookies_lines.decision_line(view, 1, ("Ann", "Bot 1"))
        assert words == "Bot 1 chooses the card to give"
        given = screen.current_slot(view)
        await pilot.press("enter")
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen)
        assert step_of(screen.view()) == PLAY
        assert given not in screen.view().hand and len(screen.view().hand) == 10
        received = screen.received(screen.view())
        assert len(received) == 1
        assert "+" in screen_text(app)
        known = screen.view().known
        (got,) = received
        other = screen.table.names[1]
        assert f"You give {card_words(known[given])} to {other}" in screen.log_view.plain
        assert f"You receive {card_words(known[got])} from {other}" in screen.log_view.plain


async def test_the_log_tells_the_person_the_cards_they_passed_and_received() -> None:
    app = make_app(GameSetup(game="cookies-battle", players=4, bots="random", seed=8))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen)
        await pilot.press("l", "right", "r")
        left, right = screen.marks.left, screen.marks.right
        assert left is not None and right is not None and left != right
        await pilot.press("enter")
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen)
        view, names = screen.view(), screen.table.names
        gave = [card_words(view.known[slot]) for slot in (left, right)]
        assert (
            f"You pass {gave[0]} to {names[1]} and {gave[1]} to {names[3]}" in screen.log_view.plain
        )
        # received: one from each neighbour, as the hand marks them
        got = sorted(screen.received(view))
        line = next(t for t in screen.log_view.plain if t.startswith("You receive"))
        assert len(got) == 2
        for slot in got:
            assert card_words(view.known[slot]) in line
        assert names[1] in line and names[3] in line


async def test_keys_never_send_a_card_that_may_not_be_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cookies_screen, "WINDOW_WAIT", 0.2)
    app = make_app(GameSetup(game="cookies-battle", players=4, bots="random", seed=9))
    async with app.run_test(size=SIZE) as pilot:
        rng = random.Random(1)
        checked = False
        for _ in range(200):
            screen = await settle(pilot)
            if isinstance(screen, NoticeScreen | ChoiceScreen):
                await pilot.press("enter" if isinstance(screen, NoticeScreen) else "1")
                continue
            assert isinstance(screen, CookiesScreen)
            view = screen.view()
            step = step_of(view)
            if step == PLAY:
                playable = {a.slot for a in view.legal if isinstance(a, Play)}
                order = screen.order(view)
                bad = [i for i, s in enumerate(order) if s not in playable]
                if bad:
                    screen.cursor = bad[0]
                    slot = order[bad[0]]
                    await pilot.press("enter")
                    await pilot.pause()
                    assert slot in screen.view().hand  # not played
                    assert screen.awaiting == 0  # still Ann's turn, told why
                    checked = True
                    break
            await play_step(pilot, screen, {"waited": True, "used": True}, rng)
        assert checked


async def test_help_shows_the_cards_the_rules_and_the_keys() -> None:
    app = make_app(GameSetup(game="cookies-battle", players=4, bots="random", seed=1))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Strawberry" in text and "Theft" in text
        await pilot.press("right")
        await pilot.pause()
        assert "tummy ache" in screen_text(app).lower() or "Cookies Battle" in screen_text(app)
        await pilot.press("right")
        await pilot.pause()
        assert "marker windows" in screen_text(app)


def test_the_rules_print_for_cookies_battle() -> None:
    """``cakeparty rules cookies-battle``, piped: the game's own rules, within 80 columns."""
    binary = str(Path(sys.executable).with_name("cakeparty"))
    done = subprocess.run(
        [binary, "rules", "cookies-battle"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    text = done.stdout
    assert text.startswith("# Cookies Battle — rules")
    for words in ("tummy ache", "Beginners", "duel", "Defense", "17"):
        assert words in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_replay_shows_every_hand_and_every_pass_with_its_real_cards() -> None:
    from cakeparty.tui.games.cookies_battle.story import replay_lines

    table = LocalTable(GameSetup(game="cookies-battle", players=4, bots="random", seed=8), "Ann")
    rng = random.Random(3)
    while not table.over:
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bots["random"](table.view(seat), rng))
    assert all(entry.event is not None for entry in table.story)  # live: public events only
    entries = table.replay()
    passes = [e for e in entries if isinstance(e.choice, PassOn)]
    assert len(passes) == 3 * 4
    dealt = [e for e in entries if e.event is None and e.choice is None]
    assert len(dealt) == 3 * 4 and all(len(e.cards) == 12 for e in dealt)
    # the last round's hands as dealt: what each holder was shown just after the shuffle
    history = [a for _s, a in table.match.history]
    last = max(i for i, a in enumerate(history) if isinstance(a, Shuffled) and 0 in a.slots)
    shown = [a for a in history[last + 1 : last + 5] if isinstance(a, Revealed)]
    last_deal = dealt[-4:]
    assert len(shown) == 4
    for seat, entry in enumerate(last_deal):
        assert entry.seat == seat
        assert sorted(entry.cards) == sorted(c for c in shown[seat].cards if c is not None)
    # every card each seat passed in that round was in the hand it was dealt
    for entry in passes[-4:]:
        assert entry.seat is not None
        assert set(entry.cards) <= set(last_deal[entry.seat].cards)
    for entry in passes[-4:]:
        assert isinstance(entry.choice, PassOn)
        real = tuple(table.match.dealer.card(s) for s in (entry.choice.left, entry.choice.right))
        assert entry.cards == real
    lines = replay_lines(entries, table.names)
    assert any(card_words(passes[-1].cards[0]) in text for _kind, text in lines)


async def test_a_hosted_room_with_two_bots_plays_a_trick_by_keys() -> None:
    """``host cookies-battle --players 3``: the lobby seats two bots (``a``), the game
    starts on ready with the chat key (c) in the footer at 80 columns, the pass goes by
    keys, then cards until a trick is won; windows pass by themselves."""
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.app import CakePartyApp
    from cakeparty.tui.games.cookies_battle.netscreen import NetCookiesScreen
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.settings import Settings

    plan = HostPlan(game="cookies-battle", players=3, timeout=60, port=free_port(), lan=False)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), plan, persist=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await bots_then_start(app, pilot, 3, NetCookiesScreen, wait=20, start=30)
        screen.window_wait = 0.2
        net = screen.net
        await until(pilot, lambda: screen.awaiting is not None, "Ann's pass", 30)
        assert step_of(net.view(net.seat)) == PASS
        # the footer follows the step a refresh later: on a busy machine, after a pause
        await until(pilot, lambda: "l Left" in screen_text(app).splitlines()[-1], "the keys", 30)
        text = screen_text(app)
        footer = text.splitlines()[-1]
        for key in ("l Left", "r Right", "? Help", "q Leave", "c Chat"):
            assert key in footer, footer
        assert "Chat ▸ c to say something" in text
        await pilot.press("l", "r", "enter")
        rng = random.Random(5)
        deadline = time.monotonic() + 60
        while not any("wins the trick" in line for line in screen.log_view.plain):
            assert time.monotonic() < deadline, f"no trick was won; screen {app.screen!r}"
            await pilot.pause(0.02)
            if app.screen is not screen or screen.awaiting is None:
                continue
            view = net.view(net.seat)
            if step_of(view) == PLAY:
                assert "your turn — play a card" in screen_text(app)
                await play_step(pilot, screen, {"waited": True, "used": True}, rng)
        assert net.view(net.seat).trick_no >= 1 and not net.over
        # the pass is told once the cards received are shown: every card named
        (gave,) = [line for line in screen.log_view.plain if line.startswith("You pass")]
        (got,) = [line for line in screen.log_view.plain if line.startswith("You receive")]
        assert "?" not in gave + got, (gave, got)


async def test_a_window_waits_while_the_help_is_open_then_passes_by_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wait = 1.0
    monkeypatch.setattr(cookies_screen, "WINDOW_WAIT", wait)
    app = make_app(GameSetup(game="cookies-battle", players=3, bots="random", seed=4))
    async with app.run_test(size=SIZE) as pilot:
        rng = random.Random(7)
        for _ in range(300):
            screen = await settle(pilot)
            if isinstance(screen, NoticeScreen | ChoiceScreen):
                await pilot.press("enter" if isinstance(screen, NoticeScreen) else "1")
                continue
            assert isinstance(screen, CookiesScreen)
            if step_of(screen.view()) not in (WINDOW, DEFENSE):
                await play_step(pilot, screen, {"waited": True, "used": True}, rng)
                continue
            state = screen.view().state_id
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            if screen.view().state_id == state:
                break
            # a busy machine let the window pass before the help opened: the next one
            await pilot.press("escape")
        else:
            raise AssertionError("the help never opened in a window of Ann's")
        # longer than the window's wait: the window does not pass under the help
        await pilot.pause(wait * 1.5)
        assert screen.awaiting == 0 and screen.view().state_id == state
        # its wait lapsed under the help and was taken up again: the window does not hang
        # on the help's closing alone to pass
        assert screen._timer is not None
        await pilot.press("escape")
        before = len(history_of(screen, 0))
        await until(pilot, lambda: len(history_of(screen, 0)) > before, "the window to pass")
        assert history_of(screen, 0)[before] == NoMarker()


async def test_a_shared_keyboard_s_log_tells_no_marker_kind_and_no_piece_taken() -> None:
    """Hot-seat: the log is everyone's, so a marker earned is told without its kind and a
    random take without its piece, whoever held the keyboard then."""
    setup = GameSetup(
        game="cookies-battle", players=4, hotseat=True, names=("Ann", "Bo", "Cy", "Di"), seed=3
    )
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen_stack[1]
        assert isinstance(game, CookiesScreen) and game.sharing
        table = game.table
        assert isinstance(table, LocalTable)
        rng = random.Random(2)
        while not table.over:
            seat = table.to_act
            assert seat is not None
            game.viewer = seat  # whoever holds the keyboard as it happens
            game._tell(table.act(seat, table.bots["random"](table.view(seat), rng)))
        events = table.view(None).events
        earned = [e for e in events if isinstance(e, MarkerEarned)]
        taken = [e for e in events if isinstance(e, PieceTaken)]
        assert earned and taken  # the game had both, told in the log
        log = game.log_view.plain
        assert sum("earns a marker" in line for line in log) == len(earned)
        assert not any("earns a marker:" in line for line in log)
        for event in taken:
            assert f"{table.names[event.taker]} takes a piece from" in " ".join(log)
        # nor anyone's passed cards
        assert not any(line.startswith(("You pass", "You receive")) for line in log)


async def test_a_shared_keyboard_is_passed_only_to_answer_a_marker_unless_w_says_otherwise() -> (
    None
):
    """Hot-seat: a window after a card passes by itself (each one asked would pass the
    keyboard: several a card); a window that answers a marker just used asks its holders,
    for a Defense. w turns it: every window, none, and back. Against bots every window
    asks, as before."""
    setup = GameSetup(
        game="cookies-battle", players=3, hotseat=True, names=("Ann", "Bo", "Cy"), seed=3
    )
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen_stack[1]
        assert isinstance(game, CookiesScreen) and game.sharing and game.windows == "answers"
        table = game.table
        assert isinstance(table, LocalTable)
        rng = random.Random(5)
        asked: dict[str, list[bool]] = {WINDOW: [], DEFENSE: []}
        while not table.over and not (asked[WINDOW] and asked[DEFENSE]):
            seat = table.to_act
            assert seat is not None
            step = step_of(table.view(seat))
            if step in asked and any(isinstance(a, UseMarker) for a in table.legal(seat)):
                asked[step].append(game.automatic(seat) is None)
            table.act(seat, table.bots["random"](table.view(seat), rng))
        assert asked[WINDOW] and not any(asked[WINDOW])  # passed: NoMarker, no keyboard
        assert asked[DEFENSE] and all(asked[DEFENSE])  # asked: a Defense may go
        for windows, window, defense in (("never", False, False), ("all", True, True)):
            game.action_windows()
            assert game.windows == windows
            assert game.window_asks(WINDOW) is window and game.window_asks(DEFENSE) is defense
    solo = make_app(GameSetup(game="cookies-battle", players=3, bots="random", seed=3))
    async with solo.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen) and screen.windows == "all"


def test_two_players_play_the_duel_whatever_the_variant_line_says() -> None:
    setup = GameSetup(game="cookies-battle", players=2, options={"variant": "beginners"}, seed=1)
    assert setup.option("variant") == "standard"  # the variant is for 3–6 players
    table = LocalTable(setup, "Ann")
    assert table.view(0).variant == "duel"
    four = GameSetup(game="cookies-battle", players=4, options={"variant": "beginners"}, seed=1)
    assert four.option("variant") == "beginners"
    assert LocalTable(four, "Ann").view(0).variant == "beginners"


def test_the_table_says_the_piece_in_dispute_and_whose_card_a_puppet_draws() -> None:
    from cakeparty.tui.games.cookies_battle.lines import dispute_line

    table = LocalTable(GameSetup(game="cookies-battle", players=4, bots="random", seed=8), "Ann")
    rng = random.Random(4)
    said: set[str] = set()
    while not table.over:
        view = table.view(0)
        line = str(dispute_line(view, table.names))
        if view.dispute is not None:
            assert f"In dispute: {piece_words(view.known[view.dispute])}" in line
        for seat in view.puppets:
            assert table.names[seat] in line and "Puppet:" in line
            said.add(table.names[seat])
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bots["random"](table.view(seat), rng))
    assert said  # a Puppet was used, and the table said on whom


def test_the_last_trick_names_who_took_it_and_ticks_the_winning_card() -> None:
    from cakeparty.tui.games.cookies_battle.parts import last_trick_line, short_card

    table = LocalTable(GameSetup(game="cookies-battle", players=4, bots="random", seed=5), "Ann")
    rng = random.Random(2)
    seen = 0
    while not table.over:
        view = table.view(0)
        if view.last_trick and view.last_winner is not None:
            line = last_trick_line(view, table.names, 50).plain
            taker = table.names[view.last_winner]
            assert line.startswith(f"Last trick, taken by {taker}:"), line
            # where the table is too narrow for the whole line, the label is shortened
            narrow = last_trick_line(view, table.names, len(line) - 1).plain
            assert narrow.startswith(f"Last trick, {taker}:") and len(narrow) < len(line)
            assert narrow.endswith(line.split(":", 1)[1])
            ticked = [word for word in line.split() if word.endswith("✓")]
            won = dict(view.last_trick)[view.last_winner]
            assert ticked == [short_card(view.known[won]) + "✓"], line
            seen += 1
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bots["random"](table.view(seat), rng))
    assert seen


async def test_enter_pressed_again_at_the_pass_step_stacks_no_copies_of_its_hint() -> None:
    app = make_app(GameSetup(game="cookies-battle", players=3, bots="random", seed=4))
    async with app.run_test(size=SIZE) as pilot:
        first = await settle(pilot)
        assert isinstance(first, CookiesScreen) and step_of(first.view()) == PASS
        for _ in range(4):
            await pilot.press("enter")
        await pilot.pause()
        hints = [n for n in app._notifications if "Choose a card for the left" in n.message]
        assert len(hints) == 1


def test_the_end_says_which_tie_break_chose_the_winner() -> None:
    names = ("Ann", "Bo", "Cy", "Di")
    t, s, r = "traditional-1", "sprinkle-1", "rotten-1"

    def ending(*holdings: tuple[list[str], int]) -> tuple[list[str], str | None]:
        scores = [seat_score(pieces, markers) for pieces, markers in holdings]
        winners, ache = decide(scores, tummy_ache=True)
        return ranking_lines(scores, names, winners, ache), tie_line(scores, names, winners, ache)

    # Ann on top; Bo and Cy tied on 4 points for the second place: Cy's 3 pieces win
    lines, tie = ending(([s] * 4, 0), ([s] * 2, 0), ([t, t, s], 0), ([t], 0))
    assert "Cy: 4 points ★ wins" in lines and "Ann: 10 points — tummy ache" in lines
    assert lines.index("Cy: 4 points ★ wins") < lines.index("Bo: 4 points")  # tie-break order
    assert tie == "Tied on 4 points — the most pieces win: Cy 3, Bo 2" and lines[-1] == tie
    # the same points and pieces: the fewest rotten win
    _, tie = ending(([s] * 4, 0), ([t, t, r, t], 1), ([t, t, r, r], 2), ([t], 0))
    assert tie == "Tied on 4 points and 4 pieces — the fewest rotten pieces win: Bo 1, Cy 2"
    # a lone second place, or a tie only among the tummy aches: the points decided
    assert ending(([s] * 4, 0), ([s] * 2, 0), ([t], 0), ([t], 0))[1] is None
    assert ending(([s] * 4, 0), ([s] * 4, 0), ([t] * 2, 0), ([t], 0))[1] is None


def test_the_breakdown_wraps_a_long_assembly_under_itself() -> None:
    """An assembly longer than the breakdown's box goes on below, indented under its own
    start (it ran on from the box's left edge, under the totals), broken between its
    parts."""
    from cakeparty.core.match import new_match
    from cakeparty.tui.games.cookies_battle.scores import assembly_line, breakdown_lines

    width = 68  # the breakdown box's text: a dialog 72 wide, less its border and padding

    match = new_match("cookies-battle", 6, 7)
    match.play([get_game("cookies-battle").bots["normal"]] * 6, random.Random(7))
    view = match.view(None)
    names = [f"Player {seat + 1}" for seat in range(6)]
    assert max(len(assembly_line(score)) for score in view.results) > width
    wrapped = 0
    for item in breakdown_lines(view.results, names, view.winners, view.tummy_ache):
        total, *assembly = item.plain.split("\n")
        assert total.startswith("Player ") and assembly[0].startswith("  ")
        assert all(len(row) <= width for row in assembly)
        assert all(row.startswith("    ") for row in assembly[1:])
        wrapped += len(assembly) > 1
        seat = int(total.split(":")[0].removeprefix("Player ")) - 1
        for part in assembly_line(view.results[seat]).split(" · "):
            assert part in item.plain  # broken between parts ("1 marker +2" kept whole)
    assert wrapped >= 1


@pytest.mark.parametrize(("players", "size"), [(4, (120, 40)), (6, (120, 40)), (6, SIZE)])
async def test_the_piece_in_dispute_stands_under_the_seats_however_tall_the_terminal(
    players: int, size: tuple[int, int]
) -> None:
    """In a tall terminal too, the piece in dispute stays right under the seats (and the
    last trick's room), not at the panel's far end; at 80×24 the six seats and the
    dispute line all fit."""
    from cakeparty.tui.games.cookies_battle.parts import seats_height

    setup = GameSetup(game="cookies-battle", players=players, bots="random", seed=5)
    app = make_app(setup)
    async with app.run_test(size=size) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, CookiesScreen)
        seats = screen.query_one("#cb-seats", Static).region
        dispute = screen.query_one("#cb-dispute", Static).region
        table = screen.query_one("#cb-table").content_region
        assert dispute.y == seats.y + seats_height(players)  # right under them
        assert table.y <= dispute.y < table.bottom  # shown, inside the table's border
        rows = screen_text(app).splitlines()
        assert "No piece in dispute" in rows[dispute.y]


@pytest.mark.parametrize(
    ("players", "options", "says", "says_not"),
    [
        (2, {}, ("1 6 8 10 12", "The highest score wins"), ("Theft", "Magician", "1–12")),
        (4, {"variant": "beginners"}, ("Theft", "The highest score wins"), ("Magician", "13")),
        (4, {}, ("Theft", "Magician", "tummy ache"), ("The highest score wins",)),
    ],
)
async def test_the_help_s_cards_tab_is_the_variant_s(
    players: int, options: dict[str, Any], says: tuple[str, ...], says_not: tuple[str, ...]
) -> None:
    """? in a game opens the Cards tab of the variant on the table: the duel's deck (two
    colours and the gold, five values each) and no markers; the beginners' game, no 0, 13
    or Magician, the highest score winning; the standard game, the tummy ache."""
    setup = GameSetup(
        game="cookies-battle",
        players=players,
        bots="random",
        seed=5,
        **({"options": options} if options else {}),
    )
    app = make_app(setup)
    async with app.run_test(size=(100, 60)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "cards"
        await until(pilot, lambda: "Scoring" in screen_text(app), "the cards tab drawn")
        text = " ".join(screen_text(app).split())
        assert all(w in text for w in says), text
        assert not any(w in text for w in says_not), text


async def test_a_networked_duel_s_help_shows_the_duel_s_cards_and_the_room_s_keys() -> None:
    """? in a networked two-player room opens the duel's cards (no markers) beside the
    networked game's keys (its chat line)."""
    from cakeparty.tui.games.cookies_battle.netscreen import NET_COOKIES_KEYS, NetCookiesScreen

    from .netseats import deliver, guest_room, seats_at
    from .pilot import OneScreen

    seats = seats_at("cookies-battle", 2)
    deliver(seats)
    screen = NetCookiesScreen(seats[0], guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: screen.awaiting == 0, "Ann's pass")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.keys == NET_COOKIES_KEYS
        await until(pilot, lambda: "Specials" in screen_text(app), "the cards")
        text = " ".join(screen_text(app).split())
        assert "1 6 8 10 12" in text and "Theft" not in text, text


def test_the_cards_box_says_what_the_variant_plays() -> None:
    """The Cards box of a tall terminal tells each variant its own deck: the standard game
    every marker and the 0, 13 and Magician; the beginners' game, which has none of the
    three, neither; the duel, without markers or Magician, no marker."""
    from cakeparty.core.games.cookies_battle.cards import MARKER_KINDS, MARKER_TITLES
    from cakeparty.core.games.cookies_battle.state import DUEL, CookiesOptions
    from cakeparty.tui.games.cookies_battle.help import reference_entries

    def said(options: CookiesOptions) -> str:
        return "\n".join(entry.plain for entry in reference_entries(options))

    markers = [MARKER_TITLES[kind] for kind in MARKER_KINDS]
    standard = said(CookiesOptions(4, "standard"))
    assert all(m in standard for m in markers) and "Magician" in standard and "13" in standard
    beginners = said(CookiesOptions(4, "beginners"))
    assert all(m in beginners for m in markers), beginners
    assert not any(w in beginners for w in ("Magician", "13", " 0", "special")), beginners
    duel = said(CookiesOptions(2, DUEL))
    assert not any(m in duel for m in markers) and "Magician" not in duel, duel
    assert "Markers" not in duel and "13" in duel, duel
    assert "1 6 8 10 12" in duel and "1–12" not in duel, duel

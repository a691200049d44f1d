"""Cake Master played by key presses at 80×24: a whole 2-player game against a bot, a solo
game to its rating, hot-seat hands hidden between people, icing letters without colour."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from cakeparty.core.games.cake_master.actions import Keep, Place
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.core.games.cake_master.text import card_words, customer_words
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.tui.games.cake_master.parts import short_card
from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.screens.dialogs import NoticeScreen, PassScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.results import EndScreen, ReplayScreen
from cakeparty.tui.widgets import Cycler, FittedText

from .pilot import SIZE, make_app, settle_on, until
from .test_e2e_tmux import BINARY, TMUX, Terminal


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as the terminal shows it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def settle(pilot: Pilot[Any], timeout: float = 20.0) -> Screen[Any]:
    """Wait until a person must act: a dialog is up, or the game awaits keys or is over."""
    return await settle_on(pilot, MasterScreen, timeout)


def placement_keys(view: MasterView, *, pick: bool = True) -> list[str]:
    """Keys that place the first three cards of the hand on the first free quarters;
    without ``pick``, the cursor's own move to the next card not placed picks it."""
    assert view.seat is not None
    free = [
        (c, q)
        for c, cake in enumerate(view.cakes[view.seat])
        for q, s in enumerate(cake)
        if s is None
    ]
    keys: list[str] = []
    for index, (cake, quarter) in enumerate(free[:3]):
        keys += [str(index + 1)] if pick else []
        keys += ["abc"[cake], str(quarter + 1)]
    return keys


def placement_of(view: MasterView) -> Place:
    """The placement :func:`placement_keys` makes."""
    assert view.seat is not None
    free = [
        (c, q)
        for c, cake in enumerate(view.cakes[view.seat])
        for q, s in enumerate(cake)
        if s is None
    ]
    return Place.of(dict(zip(view.hand[:3], free[:3], strict=True)))


def played_to(table: Any, turn: int, rng: random.Random) -> None:
    """``table``'s game played by random bots at once, every seat, up to the placement of
    ``turn`` (a screen then takes over)."""
    while not (table.view(None).turn == turn and table.view(None).phase is Phase.PLACE):
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bots["random"](table.view(seat), rng))


async def play_turn_step(pilot: Pilot[Any], screen: MasterScreen, seen: dict[str, str]) -> None:
    """One sealed choice of the seat at the keyboard, by keys; notes what the screen said."""
    view = screen.view()
    app = pilot.app
    prompt = str(screen.query_one("#cm-prompt").render())
    if view.phase is Phase.KEEP:
        # the prompt names the number keys of the hand as it is, not of a longer one
        assert f"(←→ 1–{len(view.hand)})" in prompt, prompt
        await pilot.press("k")  # the card under the cursor, the first
        assert view.hand[0] in screen.view().hand
        return
    if view.phase is Phase.KEEP_BACK:
        # only the cards received may be kept: the prompt names their numbers
        numbers = [str(i + 1) for i, s in enumerate(view.hand) if Keep(s) in view.legal]
        assert len(numbers) == 2 and f"(←→ {numbers[0]}–{numbers[1]})" in prompt, prompt
        await pilot.press("k")  # the cursor starts on a card received
        return
    if view.phase is Phase.PASS:
        await pilot.press("1", "l", "r")
        assert screen.marks.left == view.hand[0] and screen.marks.right == view.hand[1]
        await pilot.press("enter")
        return
    assert view.phase is Phase.PLACE
    keys = placement_keys(view, pick=False)
    if "quarter" not in seen:  # a card, its cake: each quarter's score is offered
        await pilot.press(keys[0])
        seen["quarter"] = screen_text(app)
        keys = keys[1:]
    await pilot.press(*keys)
    prompt = str(screen.query_one("#cm-prompt").render())
    assert "enter commits" in prompt  # the placement's score, before committing
    if "preview" not in seen:
        seen["preview"] = screen_text(app)
    await pilot.press("enter")


async def play_game(pilot: Pilot[Any], seen: dict[str, str], *, keys: bool = True) -> EndScreen:
    """Play by keys until the end of the game, closing round breakdowns (noted); without
    ``keys``, the person's choices are the normal bot's, made through the screen."""
    app = pilot.app
    rng = random.Random(7)
    for _ in range(400):
        screen = await settle(pilot)
        if isinstance(screen, EndScreen):
            seen["end"] = screen_text(app)
            return screen
        if isinstance(screen, NoticeScreen):
            seen.setdefault("breakdown", screen_text(app))
            await pilot.press("enter")
            continue
        assert isinstance(screen, MasterScreen)
        if keys:
            await play_turn_step(pilot, screen, seen)
        else:
            assert screen.awaiting is not None
            view = screen.view()
            screen.perform(screen.awaiting, screen.table.game.bots["normal"](view, rng))
    raise AssertionError("the game did not end")


async def test_a_two_player_game_is_played_by_keys_to_the_final_table() -> None:
    app = make_app(GameSetup(game="cake-master", players=2, bots="normal", seed=11))
    seen: dict[str, str] = {}
    async with app.run_test(size=SIZE) as pilot:
        first = await settle(pilot)
        assert isinstance(first, MasterScreen)
        text = screen_text(app)
        customer = first.view().customer_names[0]
        assert customer_words(customer) in text  # the open customer's request, in words
        assert "Your cakes — Ann" in text and "1·a taste 0" in text
        assert "Pink ·" in text or "White ·" in text or "Chocolate ·" in text  # cards in full
        # the other player's cakes are one key away, and the same key comes back
        await pilot.press("o")
        assert "Muffin's cakes" in screen_text(app)
        await pilot.press("o")
        assert "Your cakes — Ann" in screen_text(app)
        end = await play_game(pilot, seen)
        # the score of each quarter, and of the whole placement, before committing
        assert "which quarter?" in seen["quarter"] and "taste" in seen["quarter"]
        assert "taste" in seen["preview"] and "(" in seen["preview"]
        # the round's breakdown: taste per cake, stars, customers met
        breakdown = seen["breakdown"]
        assert "Round 1 is scored" in breakdown
        assert "Ann: taste" in breakdown and "★ for taste" in breakdown
        assert "customers" in breakdown
        # the final table: both seats, most stars first
        final = seen["end"]
        assert "1. " in final and "2. " in final and "★" in final
        assert "Ann" in final and "Muffin" in final
        view = first.table.view(None)
        assert view.over and view.round == 3
        # the face-up replay opens from the end box
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert any("keeps" in line for line in app.screen.plain)
        assert "wins" in end.headline or "shared win" in end.headline
        # back at the table, the footer names what r does now: the replay, not a pass
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is first
        customers = app.screen.query_one("#cm-customers", FittedText)
        assert customers.plain.strip() == "The game is over"  # not "No customers yet"
        keys = [key.description for key in app.screen.query(FooterKey)]
        assert "Replay" in keys and "Give right" not in keys and "Give left" not in keys
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)


async def test_solo_reaches_the_rating_and_offers_exchanges() -> None:
    app = make_app(GameSetup(game="cake-master", players=1, seed=5))
    seen: dict[str, str] = {}
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        view = screen.view()
        assert len(view.hand) == 4 and "exchanges left 3" in screen_text(app)
        # an exchange by keys: mark the card, commit; the count goes down and shows
        exchanged = view.hand[0]
        await pilot.press("1", "x")
        assert "→ exchange" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.view().exchanges_left == 2
        assert exchanged not in screen.view().hand
        assert "exchanges left 2" in screen_text(app)
        # placing three cards leaves the fourth to the discard
        await pilot.press(*placement_keys(screen.view()))
        assert "→ discard" in screen_text(app)
        assert "customers met" in screen_text(app)
        await pilot.press("u")  # undo the third card
        assert len(screen.marks.spots) == 2
        await pilot.press(*placement_keys(screen.view())[-2:], "enter")
        assert screen.view().turn_in_round == 2 or screen.view().phase is not Phase.PLACE
        # the rest of the game by the normal bot's choices, to the rating
        end = await play_game(pilot, seen, keys=False)
        text = seen["end"]
        assert "Your rating:" in text
        assert any(r in text for r in ("Apprentice", "Baker", "Cake Master"))
        assert "customers met" in seen["breakdown"]
        assert end.headline.startswith("Your rating:")


async def test_a_card_placed_is_not_placed_again_when_the_cursor_goes_back_to_it() -> None:
    """A cake chosen, the cursor back on a card already placed, a quarter: that card was
    placed a second time, and the second undo crashed the app."""
    app = make_app(GameSetup(game="cake-master", players=1, seed=5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        first = screen.view().hand[0]
        await pilot.press("1", "a", "1")  # the first card on cake a, quarter 1
        assert screen.marks.spots == {first: (0, 0)}
        await pilot.press("b", "left", "2")  # cake b, then back on the first card
        assert screen.marks.spots == {first: (0, 0)} and screen.marks.order == [first]
        assert "That card is placed already" in " ".join(str(n.message) for n in app._notifications)
        await pilot.press("u", "u", "u")
        assert screen.marks.spots == {} and app.screen is screen


async def test_choosing_a_cake_shows_your_own_cakes_again() -> None:
    app = make_app(GameSetup(game="cake-master", players=3, bots="random", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        await pilot.press("1", "l", "r", "enter")  # the pass
        await until(pilot, lambda: screen.view().phase is Phase.PLACE, "the placing")
        cakes = screen.query_one("#cm-cakes", Static)
        await pilot.press("o")  # the next player's cakes
        assert screen.shown == 1 and "Your cakes" not in str(cakes.border_title)
        await pilot.press("a")  # the card goes on a cake of yours: they are shown
        assert screen.shown is None and "Your cakes" in str(cakes.border_title)


async def test_hot_seat_hides_each_hand_until_the_keyboard_is_passed() -> None:
    setup = GameSetup(
        game="cake-master", players=3, hotseat=True, names=("Ann", "Bo", "Cy"), seed=2
    )
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        shown: list[str] = []
        for _ in range(3):
            screen = await settle(pilot)
            assert isinstance(screen, PassScreen)
            name = screen.name_text
            shown.append(name)
            # nothing of anyone's hand is on screen while the keyboard goes round
            game = app.screen_stack[-2]
            assert isinstance(game, MasterScreen) and game.viewer is None
            hidden = screen_text(app)
            for seat in range(3):
                seat_view = game.table.view(seat)
                for slot in seat_view.hand:
                    assert card_words(seat_view.known[slot]) not in hidden
            await pilot.press("enter")
            screen = await settle(pilot)
            assert isinstance(screen, MasterScreen)
            assert f"Your hand — {name}" in screen_text(app)
            assert screen.view().phase is Phase.PASS
            await pilot.press("1", "l", "r", "enter")
        assert shown == ["Ann", "Bo", "Cy"]
        # all three passes were opened together, and the place step goes round again
        screen = await settle(pilot)
        assert isinstance(screen, PassScreen) and screen.name_text == "Ann"
        game = app.screen_stack[-2]
        assert isinstance(game, MasterScreen)
        assert game.table.view(None).phase is Phase.PLACE


async def test_no_color_shows_the_icing_as_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(GameSetup(game="cake-master", players=2, seed=11))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen) and not app.colours
        await pilot.press("1", "k")
        screen = await settle(pilot)
        view = screen.view()
        await pilot.press(str(view.hand.index(view.received[0]) + 1), "k")
        screen = await settle(pilot)
        view = screen.view()
        await pilot.press(*placement_keys(view))
        await pilot.pause()
        rows = "\n".join(screen_text(app).splitlines()[1:8])  # the cakes panel
        for slot in placement_of(view).slots:
            name = view.card(slot)
            assert name is not None
            letter = {"pink": "P", "white": "W", "chocolate": "C"}[name.split("-")[0]]
            assert short_card(name).plain.startswith(letter)
            assert short_card(name).plain.rstrip() in rows


async def test_help_shows_the_rules_cards_and_keys() -> None:
    app = make_app(GameSetup(game="cake-master", players=2, seed=1))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.tab == "cards"
        text = screen_text(app)
        assert "C1 " in text and "exactly 4 raspberries" in text  # the customers
        assert "Soldier" not in text  # not another game's cards
        await pilot.press("right")
        assert "Cake Master — rules" in screen_text(app)
        await pilot.press("right")
        assert "l / r" in screen_text(app)


async def test_the_menu_offers_the_game_its_counts_and_its_help() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert "Cake Master" in screen_text(app)  # the game picker lists it
        await pilot.press("2")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.game == "cake-master"
        assert "exactly 4 raspberries" in screen_text(app)
        await pilot.press("escape", "b", "2")
        form = app.screen
        players = next(c for c in form.query(Cycler) if c.name == "players")
        assert [value for _label, value in players.choices] == [1, 2, 3, 4, 5, 6]


async def test_keys_never_send_a_choice_that_is_not_legal() -> None:
    """A pass with one side still open, or keeping a card that was not received, sends
    nothing: the screen says what is missing and waits."""
    app = make_app(GameSetup(game="cake-master", players=3, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen) and screen.view().phase is Phase.PASS
        await pilot.press("1", "l", "enter")
        await pilot.pause()
        assert screen.awaiting == 0 and screen.table.match.to_act[0] == 0
        await pilot.press("1", "r")  # the same card to the right takes it from the left
        assert screen.marks.left is None and screen.marks.right == screen.view().hand[0]
    app = make_app(GameSetup(game="cake-master", players=2, seed=4))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        await pilot.press("1", "k")
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        view = screen.view()
        assert view.phase is Phase.KEEP_BACK
        own = next(i for i, s in enumerate(view.hand) if s not in view.received)
        await pilot.press(str(own + 1), "k")
        await pilot.pause()
        assert screen.awaiting == 0 and screen.view().phase is Phase.KEEP_BACK


async def test_six_players_sit_at_one_table_and_the_title_keeps_every_score() -> None:
    app = make_app(GameSetup(game="cake-master", players=6, seed=3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        names = screen.table.names
        assert len(set(names)) == 6
        title = screen_text(app).splitlines()[0]
        for name in names:
            assert f"{name[:3]}" in title
        assert title.count("★0") == 6
        # the pass step names both neighbours; each neighbour's cakes are one key away
        assert f"l gives it to {names[1]}, r to {names[5]}" in screen_text(app)
        for seat in range(1, 6):
            await pilot.press("o")
            assert f"{names[seat]}'s cakes" in screen_text(app)
        await pilot.press("o")
        assert "Your cakes — Ann" in screen_text(app)


async def test_a_tall_terminal_shows_every_cake_at_once() -> None:
    app = make_app(GameSetup(game="cake-master", players=4, seed=3))
    # 24 rows, a row a seat, the line under them and the panel's edges: 31
    async with app.run_test(size=(100, 31)) as pilot:
        screen = await settle(pilot)
        assert isinstance(screen, MasterScreen)
        names = screen.table.names
        text = screen_text(app)
        assert "Every cake" in text
        for name in names:  # a row a seat, with its stars and three empty cakes
            assert re.search(rf"{name} +★0 +│ · · · · 0 +│ · · · · 0 +│ · · · · 0", text)
        # the title has the width for every whole name
        assert all(f"{name}★0" in text.splitlines()[0] for name in names)
        await pilot.resize_terminal(100, 30)  # a row short: the panel gives way
        await until(pilot, lambda: "Every cake" not in screen_text(app), "the panel gone")
    async with make_app(GameSetup(game="cake-master", players=4, seed=3)).run_test(
        size=SIZE
    ) as pilot:
        await settle(pilot)
        assert "Every cake" not in screen_text(pilot.app)


@pytest.mark.skipif(TMUX is None or not BINARY.exists(), reason="needs tmux and the binary")
def test_the_binary_plays_a_turn_at_80x24(tmp_path: Path) -> None:
    """The installed app in a real terminal: a pass, then a placement, by keys."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"name": "Ann", "bot_delay": 0.05}))
    env = {"CAKEPARTY_CONFIG_DIR": str(config), "TERM": "xterm-256color", "NO_COLOR": "1"}
    command = [str(BINARY), "play", "cake-master", "--players", "3", "--seed", "5"]
    term = Terminal(f"cakeparty-master-{os.getpid()}", command, env)
    try:
        screen = term.wait_for(lambda s: "l gives it to Muffin" in s, "the pass step")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        term.keys("1", "l", "r")
        term.wait_for(lambda s: "enter: pass them" in s, "both cards chosen")
        term.keys("Enter")
        term.wait_for(lambda s: "Place card 1 of 3" in s, "the place step")
        term.keys("a", "1", "a", "2", "b", "1")
        screen = term.wait_for(lambda s: "enter commits" in s, "the placement's score")
        assert re.search(r"taste \d+ \(\d+ \+ \d+ \+ \d+\)", screen)
        term.keys("Enter")
        screen = term.wait_for(
            lambda s: "turn 2/4" in s and "pass a card each way" in s, "the second turn's pass"
        )
        # cake 1's top row holds the two cards placed on quarters 1 and 2, as letters
        assert re.match(r"│ [PWC] [rb-]+ +\S +[PWC] ", screen.splitlines()[3]), screen
        term.keys("q")
        term.wait_for(lambda s: "Quit this game?" in s, "the quit question")
        term.keys("y")
        term.wait_for(lambda s: "Your hand" not in s, "the app to quit")
    finally:
        term.close()


def test_the_bots_of_one_step_share_the_delay() -> None:
    """Sealed choices show nothing while they are made: five bots together wait about
    as long as one, and a new game keeps the setting."""
    screen = MasterScreen(GameSetup(game="cake-master", players=6, seed=1), bot_delay=0.5)
    assert screen.bot_delay == pytest.approx(0.1)
    assert screen.delay_setting == 0.5
    solo = MasterScreen(GameSetup(game="cake-master", players=1, seed=1), bot_delay=0.5)
    assert solo.bot_delay == 0.5


def test_the_rules_print_for_cake_master() -> None:
    """``cakeparty rules cake-master``, piped: the game's own rules, within 80 columns."""
    import subprocess
    import sys

    binary = str(Path(sys.executable).with_name("cakeparty"))
    done = subprocess.run(
        [binary, "rules", "cake-master"], capture_output=True, text=True, check=True, timeout=60
    )
    text = done.stdout
    assert text.startswith("# Cake Master — rules")
    for words in ("Two players", "Solo", "Apprentice", "complete rosette", "C18"):
        assert words in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_the_replay_opens_every_pass_with_its_real_cards() -> None:
    """After a game, each sealed pass is told with the cards really passed (the dealer's),
    which the live story never shows."""
    from cakeparty.core.games.cake_master.actions import PassCards
    from cakeparty.tui.games.cake_master.story import replay_lines
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(GameSetup(game="cake-master", players=3, seed=8), "Ann")
    rng = random.Random(3)
    while not table.over:
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bots["random"](table.view(seat), rng))
    assert all(entry.choice is None for entry in table.story)  # live: public events only
    entries = table.replay()
    passes = [e for e in entries if isinstance(e.choice, PassCards)]
    assert len(passes) == 3 * 12
    # every round reshuffles the cards into the slots: the dealer's slots now are the
    # last round's, whose 4 turns of 3 passes come last
    for entry in passes[-12:]:
        assert isinstance(entry.choice, PassCards)
        real = tuple(table.match.dealer.card(s) for s in (entry.choice.left, entry.choice.right))
        assert entry.cards == real
    # at three players every card in hand is placed each turn: each card passed shows up
    # face up in its receiver's placement of that turn
    from cakeparty.core.games.cake_master import events as ev

    owed: dict[int, list[str]] = {0: [], 1: [], 2: []}
    checked = 0
    for entry in entries:
        if isinstance(entry.choice, PassCards):
            assert entry.seat is not None
            owed[(entry.seat + 1) % 3].append(entry.cards[0])
            owed[(entry.seat - 1) % 3].append(entry.cards[1])
        elif isinstance(entry.event, ev.Placed):
            for card in owed[entry.event.seat]:
                assert card in entry.event.cards
                checked += 1
            owed[entry.event.seat] = []
    assert checked == 2 * 3 * 12
    lines = [text for _kind, text in replay_lines(entries, table.names)]
    first = passes[0]
    assert any(
        card_words(first.cards[0]) in line and "to the left" in line and "Ann" in line
        for line in lines
    )


async def test_hot_seat_breakdown_keeps_the_new_hands_hidden() -> None:
    """The round's breakdown is read by everyone: the hands just dealt stay hidden under it."""
    from cakeparty.tui.table.local import LocalTable

    setup = GameSetup(game="cake-master", players=2, hotseat=True, names=("Ann", "Bo"), seed=6)
    table = LocalTable(setup)
    # the first three turns and a half at once: the screen takes over at the last placement
    rng = random.Random(2)
    played_to(table, 4, rng)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(MasterScreen(table, bot_delay=0))
        for _ in range(20):
            screen = await settle(pilot)
            if isinstance(screen, PassScreen):
                await pilot.press("enter")
                continue
            if isinstance(screen, NoticeScreen):
                break
            assert isinstance(screen, MasterScreen) and screen.awaiting is not None
            screen.perform(screen.awaiting, screen.table.game.bots["random"](screen.view(), rng))
        else:
            raise AssertionError("no round ended")
        game = app.screen_stack[-2]
        assert isinstance(game, MasterScreen) and game.viewer is None
        text = screen_text(app)
        assert "Round 1 is scored" in text
        for seat in range(2):
            seat_view = game.table.view(seat)
            assert seat_view.hand  # round 2 is dealt already
            for slot in seat_view.hand:
                assert card_words(seat_view.known[slot]) not in text
        await pilot.press("enter")
        assert isinstance(await settle(pilot), PassScreen)


def test_a_hand_row_too_long_cuts_the_card_s_words_and_keeps_its_place() -> None:
    """Three cards placed: each row says where its card goes in full, within the hand's
    width (40 columns here), the card's own words cut short where they must be."""
    from cakeparty.core import new_match
    from cakeparty.tui.games.cake_master.parts import Marks, hand_lines

    match = new_match("cake-master", players=3, seed=4)
    view = match.view(0)
    marks = Marks(spots={slot: (cake, 1) for cake, slot in enumerate(view.hand[:3])})
    rows = hand_lines(view, 0, marks, ["Ana", "Ben", "Cy"], keys_live=True, width=40).plain
    rows = rows.splitlines()
    for cake, row in enumerate(rows[:3]):
        assert len(row) <= 40 and row.endswith(f"→ cake {cake + 1}, quarter 2"), row
    assert any("…" in row for row in rows)
    whole = hand_lines(view, 0, marks, ["Ana", "Ben", "Cy"], keys_live=True).plain
    assert "…" not in whole  # no width: every word

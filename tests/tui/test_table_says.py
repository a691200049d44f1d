"""The table says what just happened, at 80×24: looks, blocks, Pierrot and Mimic, bout ends.

Seat 0 plays the random bot's choices (seeded) through the screen, so a headless game with
the same seeds reaches the same look, block and challenge; every assertion reads the text on
the screen or in the dialog the player sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from cakeparty.core import Action
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.text import card_title
from cakeparty.tui.local import GameSetup, LocalDuel
from cakeparty.tui.screens.dialogs import ChoiceScreen, NoticeScreen
from cakeparty.tui.screens.duel import DuelScreen
from cakeparty.tui.screens.duel_story import transform_note
from cakeparty.tui.screens.results import DuelEndScreen
from cakeparty.tui.widgets import LogView

from .pilot import SIZE, make_app, settle


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as the terminal shows it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def policy(rng: random.Random) -> Callable[[DuelScreen], Action]:
    """Seat 0's choices: the random bot's, from its own seeded source."""

    def choose(screen: DuelScreen) -> Action:
        duel = screen.duel
        bot = duel.bots["random"] if hasattr(duel, "bots") else None
        assert bot is not None
        return bot(duel.view(0), rng)

    return choose


async def play_until(
    pilot: Pilot[Any],
    seen: Callable[[Screen[Any], str], bool],
    *,
    rseed: int,
    steps: int = 300,
) -> tuple[Screen[Any], str]:
    """Play seat 0 until ``seen(screen, text)`` holds for a screen; that screen and its text.

    Notices are closed with enter; a list that opened by itself gets the policy's choice.
    """
    choose = policy(random.Random(rseed))
    app = pilot.app
    duel_screen: DuelScreen | None = None
    for _step in range(steps):
        screen = await settle(pilot)
        await pilot.pause()
        text = screen_text(app)
        if seen(screen, text):
            return screen, text
        if isinstance(screen, DuelScreen):
            duel_screen = screen
            if screen.ended:
                break
            screen._act(choose(screen))
        elif isinstance(screen, ChoiceScreen):
            assert duel_screen is not None
            action = choose(duel_screen)
            values = [c.value for c in screen.choices]
            await pilot.press(str(values.index(action) + 1))
        elif isinstance(screen, NoticeScreen):
            await pilot.press("enter")
        else:
            break
    raise AssertionError("the game never showed what was awaited")


async def test_a_look_shows_the_cards_in_a_dialog_and_in_the_log() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:
        hand: list[str] = []

        def look(screen: Screen[Any], text: str) -> bool:
            if not (isinstance(screen, NoticeScreen) and "look at" in screen.title_text):
                return False
            duel = app.screen_stack[1]
            assert isinstance(duel, DuelScreen)
            view = duel.view()  # what Ann knows of Muffin's hand as the dialog shows it
            hand.extend(view.known[s] for s in view.hands[1] if s in view.known)
            hand.extend(view.glimpses.get(1, ()))
            return True

        _screen, text = await play_until(pilot, look, rseed=17)
        assert "Your look at Muffin's hand" in text
        assert "You see " in text and " in Muffin's hand" in text
        await pilot.press("enter")
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        told = [line for line in duel.query_one(LogView).plain if line.startswith("You see ")]
        assert len(told) == 1
        # the cards of the dialog are the cards the player knows Muffin holds
        seen = told[0].removeprefix("You see ").removesuffix(" in Muffin's hand").split(", ")
        assert hand and sorted(seen) == sorted(card_title(c) for c in hand)


async def test_an_accepted_block_says_what_it_did_to_the_attack() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:

        def blocked(screen: Screen[Any], text: str) -> bool:
            if not isinstance(screen, DuelScreen | NoticeScreen):
                return False
            log = app.screen_stack[1].query_one(LogView).plain
            return any("no cakes stolen" in line for line in log)

        await play_until(pilot, blocked, rseed=17)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen)
        log = duel.query_one(LogView).plain
        line = next(line for line in log if "no cakes stolen" in line)
        # the Scientist met the Summoner: no theft, but the look still happens
        assert line == (
            "1 × Scientist blocks 1 × Summoner; no cakes stolen; "
            "the Summoner's effect still happens"
        )
        assert log[log.index(line) - 1] == "Ann takes no action"


async def test_the_bout_end_dialog_says_how_the_bout_was_won() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:

        def bout_end(screen: Screen[Any], text: str) -> bool:
            return isinstance(screen, NoticeScreen) and "wins bout" in screen.title_text

        _screen, text = await play_until(pilot, bout_end, rseed=17)
        assert "Muffin wins bout 1" in text
        assert "Muffin wins the bout by a challenge. Trophies: Ann 0 – 1 Muffin" in text
        assert "the cards were Soldier," in text and "a bluff!" in text


async def test_the_duel_end_names_the_hidden_specials() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:

        def over(screen: Screen[Any], text: str) -> bool:
            return isinstance(screen, DuelEndScreen)

        _screen, text = await play_until(pilot, over, rseed=17)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen) and isinstance(duel.duel, LocalDuel)
        state = duel.duel.match.state
        dealer = duel.duel.match.dealer
        specials = sorted(
            card_title(dealer.card(s)) for s in state.game_slots() if CARDS[dealer.card(s)].special
        )
        assert len(specials) == 2
        assert f"The hidden specials were {specials[0]}, {specials[1]}" in text
        assert "wins the bout by a challenge" in text


async def test_pierrot_and_mimic_explain_the_challenge() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=6))
    async with app.run_test(size=SIZE) as pilot:

        def transformed() -> ev.Challenged | None:
            duel = app.screen_stack[1]
            assert isinstance(duel, DuelScreen)
            for entry in duel.duel.story:
                event = entry.event
                if isinstance(event, ev.Challenged) and {"pierrot", "mimic"} & set(event.cards):
                    return event
            return None

        def explained(screen: Screen[Any], text: str) -> bool:
            return (
                isinstance(screen, NoticeScreen)
                and "wins bout" in screen.title_text
                and transformed() is not None
            )

        screen, _text = await play_until(pilot, explained, rseed=6)
        challenge = transformed()
        assert challenge is not None
        note = transform_note(challenge)
        assert note is not None
        assert isinstance(screen, NoticeScreen) and note in screen.lines
        duel = app.screen_stack[1]
        assert note in duel.query_one(LogView).plain
        assert note.startswith(("Pierrot became", "Pierrot becomes", "Mimic became", "Mimic has"))

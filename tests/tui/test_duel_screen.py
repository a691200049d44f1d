"""A whole duel against the random bot, and a hot-seat bout, played by key presses only."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from rich.cells import cell_len

from cakeparty.core import Action, i18n
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
    Block,
    Claim,
    Declare,
    KeepHidden,
    NoAction,
    Summon,
    Take,
    Taunt,
)
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.tui.games.cake_duel.messages import BoutEnded
from cakeparty.tui.games.cake_duel.parts import status_line
from cakeparty.tui.games.cake_duel.screen import KEY_ACTIONS, DuelScreen
from cakeparty.tui.messages import (
    ActionChosen,
    GameEnded,
    KeyboardPassed,
    StoryTold,
)
from cakeparty.tui.screens.dialogs import ChoiceScreen, NoticeScreen, PassScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen, ReplayScreen
from cakeparty.tui.widgets import HandView, LogView, SeatList

from .pilot import SIZE, Recorder, make_app, settle

KINDS = (ActionChosen, BoutEnded, GameEnded, KeyboardPassed, StoryTold)


def shown_actions(screen: DuelScreen) -> set[str]:
    """The game actions the footer offers now."""
    return {
        b.binding.action
        for b in screen.active_bindings.values()
        if b.binding.action in KEY_ACTIONS and b.enabled
    }


def offered(screen: DuelScreen) -> set[str]:
    """The game actions that ``view.legal`` allows now."""
    legal = screen.view().legal
    return {name for name, kinds in KEY_ACTIONS.items() if any(isinstance(a, kinds) for a in legal)}


def keys_for(screen: DuelScreen, rng: random.Random) -> list[str]:
    """Key presses for one decision, picked at random among the legal ones."""
    view = screen.view()
    hand = list(view.hand)
    if view.phase is Phase.ATTACK:
        if rng.random() < 0.15:
            return ["p"]
        count = min(len(hand), rng.choice((1, 1, 2)))
        picks = sorted(rng.sample(range(len(hand)), count))
        return [str(i + 1) for i in picks] + ["c"]
    if view.phase is Phase.RESPOND:
        blocks = [a for a in view.legal if isinstance(a, Block) and len(a.slots) == 1]
        roll = rng.random()
        if roll < 0.25:
            return ["x"]
        if roll < 0.6 and blocks:
            return [str(hand.index(blocks[0].slots[0]) + 1), "b"]
        return ["a"]
    if view.phase is Phase.REPLY:
        return ["x"] if rng.random() < 0.3 else ["a"]
    if view.phase is Phase.TRADE:
        return ["o"] if rng.random() < 0.5 else ["k"]
    if view.phase is Phase.TRADE_ANSWER:
        return ["y"] if rng.random() < 0.5 else ["n"]
    raise AssertionError(f"no keys planned for {view.phase}")


async def test_a_whole_duel_against_the_random_bot_by_keys_only() -> None:
    rng = random.Random(11)
    app = make_app(GameSetup(players=2, bots="random", seed=5))
    record = Recorder(*KINDS)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        screen = await settle(pilot)
        duel_screen = app.screen
        assert isinstance(duel_screen, DuelScreen)
        log = duel_screen.query_one(LogView)
        assert log.plain[0].startswith("Bout 1:")
        decisions = 0
        while True:
            screen = await settle(pilot)
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, NoticeScreen):
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):  # a Summoner or Priest list opened itself
                await pilot.press("1")
                continue
            assert screen is duel_screen and screen.awaiting == 0
            # the footer offers exactly the legal kinds of action, nothing more
            assert shown_actions(screen) == offered(screen)
            assert screen.status.text and screen.status.has_class("-you")
            hand = screen.query_one(HandView)
            assert [f.key for f in hand.faces] == list(screen.view().hand)
            legal = screen.view().legal
            before = len(record.of(ActionChosen))
            for key in keys_for(screen, rng):
                await pilot.press(key)
            if isinstance(app.screen, ChoiceScreen):
                choices = app.screen.choices
                await pilot.press(str(rng.randrange(len(choices)) + 1))
            await pilot.pause()
            # the end-of-turn Sir Wolfy step is made for the player: the rules leave no choice
            mine = [
                m
                for m in record.of(ActionChosen)[before:]
                if not m.by_bot and not isinstance(m.action, KeepHidden | Taunt)
            ]
            assert len(mine) == 1, "each decision makes exactly one action"
            assert mine[0].seat == 0 and mine[0].action in legal
            if isinstance(mine[0].action, Claim | Block):
                assert set(mine[0].action.slots) <= set(hand.selected or mine[0].action.slots)
            decisions += 1
            assert decisions < 300
        outcome = duel_screen.duel.outcome
        assert outcome is not None
        assert [m.outcome for m in record.of(GameEnded)] == [outcome]
        bouts = record.of(BoutEnded)
        assert max(bouts[-1].trophies) == 3 and len(bouts) == sum(bouts[-1].trophies)
        # the log told every event, in plain words, as it happened
        told = [line for m in record.of(StoryTold) for line in m.lines]
        assert told == log.plain
        assert sum("wins the bout" in line and "Trophies" in line for line in told) == len(bouts)
        # every action of a seat went through a message: bots' and the person's
        chosen = [(m.seat, m.action) for m in record.of(ActionChosen)]
        history = [(s, a) for s, a in duel_screen.duel.match.history if s is not None]
        assert chosen == history
        assert {s for s, _a in chosen} == {0, 1}
        # the face-up replay, then back to the table, then quit
        await pilot.press("r")
        replay = await settle(pilot)
        assert isinstance(replay, ReplayScreen)
        assert any("really" in line for line in replay.plain)
        assert replay.plain.count(next(line for line in replay.plain if "Bout 1" in line)) == 1
        await pilot.press("escape")
        assert app.screen is duel_screen and duel_screen.ended
        assert shown_actions(duel_screen) == set()
        # a new duel: same table, a fresh deal
        await pilot.press("d")
        fresh = await settle(pilot)
        assert isinstance(fresh, DuelScreen) and fresh is not duel_screen
        assert fresh.duel.names == duel_screen.duel.names and not fresh.duel.over
        assert fresh.duel.setup.seed != duel_screen.duel.setup.seed
        await pilot.press("q", "y")
    assert app.return_code == 0


async def test_a_hot_seat_bout_hides_each_hand_between_turns() -> None:
    rng = random.Random(2)
    app = make_app(GameSetup(players=2, hotseat=True, seed=8))
    record = Recorder(*KINDS)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        duel_screen = app.screen_stack[1]
        assert isinstance(duel_screen, DuelScreen)
        passes = 0
        while not record.of(BoutEnded):
            screen = await settle(pilot)
            if isinstance(screen, ChoiceScreen):
                await pilot.press("1")
                continue
            if isinstance(screen, PassScreen):
                # nobody's hand is on screen behind the pass screen
                hand = duel_screen.query_one(HandView)
                assert duel_screen.viewer is None and hand.faces == ()
                seat = duel_screen.duel.to_act
                assert seat is not None and duel_screen.duel.names[seat] in screen.name_text
                await pilot.press("enter")
                await pilot.pause()
                passes += 1
                assert record.of(KeyboardPassed)[-1].seat == seat
                continue
            assert screen is duel_screen
            seat = screen.awaiting
            assert seat is not None and seat == screen.viewer
            view = screen.view()
            assert view.seat == seat
            shown = [f.key for f in screen.query_one(HandView).faces]
            assert shown == list(screen.duel.view(seat).hand)
            other = 1 - seat
            assert not set(shown) & set(screen.duel.view(other).hand)
            before = len(record.of(ActionChosen))
            for key in keys_for(screen, rng):
                await pilot.press(key)
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("1")
            await pilot.pause()
            mine = record.of(ActionChosen)[before:]
            assert [m.seat for m in mine] == [seat] and not mine[0].by_bot
        assert passes >= 2
        assert all(not m.by_bot for m in record.of(ActionChosen))
        # the bout's end shows to everyone at once
        notice = await settle(pilot)
        if isinstance(notice, NoticeScreen):
            assert "wins bout 1" in notice.title_text
            await pilot.press("enter")
        story = duel_screen.duel.story
        assert any(isinstance(e.event, ev.BoutWon) for e in story)


async def test_a_team_duel_against_three_bots_by_keys_only() -> None:
    """Team mode: who attacks whom, what to trade, and a partner's hand in view."""
    rng = random.Random(4)
    app = make_app(GameSetup(players=4, bots="random", seed=13))
    record = Recorder(*KINDS)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        duel_screen = app.screen_stack[1]
        assert isinstance(duel_screen, DuelScreen)
        phases: set[Phase] = set()
        while True:
            screen = await settle(pilot)
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, NoticeScreen):
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):
                legal = set(duel_screen.duel.match.legal_actions(0))
                assert {c.value for c in screen.choices} <= legal
                await pilot.press(str(rng.randrange(len(screen.choices)) + 1))
                continue
            assert screen is duel_screen and screen.awaiting == 0
            view = screen.view()
            phases.add(view.phase)
            assert shown_actions(screen) == offered(screen)
            # the partner's hand is known, and shown
            rows = {row.name: row for row in screen.query_one(SeatList).rows}
            assert rows["Eclair"].note.startswith("holds") or not view.hands[2]
            before = len(record.of(ActionChosen))
            for key in keys_for(screen, rng):
                await pilot.press(key)
            while isinstance(app.screen, ChoiceScreen):  # a name, then whom to attack
                await pilot.press(str(rng.randrange(len(app.screen.choices)) + 1))
            await pilot.pause()
            mine = [
                m
                for m in record.of(ActionChosen)[before:]
                if m.seat == 0 and not isinstance(m.action, KeepHidden | Taunt)
            ]
            assert len(mine) == 1
        assert {Phase.ATTACK, Phase.RESPOND, Phase.TRADE} <= phases
        claims = [m.action for m in record.of(ActionChosen) if isinstance(m.action, Claim)]
        assert {c.target % 2 for c in claims if c.target is not None} <= {0, 1}
        assert any(isinstance(e.event, ev.BoutWon) for e in duel_screen.duel.story)


def scripted(view: DuelView, rng: random.Random) -> Action:
    """A bot that attacks with 2 × Soldier, lets every claim stand and tells the truth."""
    for action in view.legal:
        if isinstance(action, NoAction | Declare):
            return action
        if isinstance(action, Claim) and action.name == "soldier" and len(action.slots) == 2:
            return action
    return view.legal[-1]


def pick(screen: ChoiceScreen[Any], label: str) -> str:
    """The number key of the entry whose label ends with ``label``."""
    labels = [c.label for c in screen.choices]
    assert any(text.endswith(label) for text in labels), labels
    return str(next(i for i, text in enumerate(labels) if text.endswith(label)) + 1)


async def test_the_priest_and_summoner_lists_offer_only_legal_choices() -> None:
    duel = LocalTable(GameSetup(bots="script", seed=4), "Ann", bots={"script": scripted})
    app = make_app()
    record = Recorder(ActionChosen)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        duel_screen = DuelScreen(duel, bot_delay=0)
        await app.push_screen(duel_screen)
        seen: set[type] = set()
        while seen != {Take, Summon} and not duel.over:
            screen = await settle(pilot)
            if isinstance(screen, NoticeScreen):
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):
                legal = duel.match.legal_actions(0)
                assert {c.value for c in screen.choices} == set(legal)
                kind = type(legal[0])
                await pilot.press(pick(screen, "Wizard") if kind is Summon else "1")
                await pilot.pause()
                mine = [
                    m.action
                    for m in record.of(ActionChosen)
                    if m.seat == 0 and not isinstance(m.action, KeepHidden | Taunt)
                ]
                assert isinstance(mine[-1], kind)
                seen.add(kind)
                continue
            assert isinstance(screen, DuelScreen)
            view = screen.view()
            if view.phase is Phase.ATTACK:
                await pilot.press("1", "c")
                assert isinstance(app.screen, ChoiceScreen)
                await pilot.press(pick(app.screen, "Summoner"))
            elif view.phase is Phase.RESPOND:
                await pilot.press("1", "b")
                assert isinstance(app.screen, ChoiceScreen)
                await pilot.press(pick(app.screen, "Priest"))
            else:
                await pilot.press("a")
        assert seen == {Take, Summon}
        screen = await settle(pilot)
        if isinstance(screen, NoticeScreen):  # what the Summoner's look showed
            assert screen.title_text == "Your look at Muffin's hand"
            await pilot.press("enter")
            await settle(pilot)
        log = duel_screen.query_one(LogView).plain
        assert any("Summoner calls for Wizard" in line for line in log)
        assert any("Muffin holds" in line for line in log)
        assert any("Priest takes 1 of Muffin's facedown cards" in line for line in log)


async def test_a_bot_that_fails_plays_at_random_and_says_so() -> None:
    def broken(view: DuelView, rng: random.Random) -> Action:
        raise RuntimeError("out of cake")

    duel = LocalTable(GameSetup(bots="broken", seed=3), "Ann", bots={"broken": broken})
    app = make_app()
    notices: list[str] = []
    record = Recorder(ActionChosen)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        app.notify = lambda message, **kwargs: notices.append(str(message))  # type: ignore[method-assign]
        await app.push_screen(DuelScreen(duel, bot_delay=0))
        while not any(m.by_bot for m in record.of(ActionChosen)):
            screen = await settle(pilot)
            assert isinstance(screen, DuelScreen)
            await pilot.press(*keys_for(screen, random.Random(0)))
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("1")
        assert any("Muffin (bot) stumbled (RuntimeError: out of cake)" in n for n in notices)


async def test_h_keeps_a_tournament_sir_wolfy_hidden_though_the_hand_has_the_keys() -> None:
    """``h`` is also the hand's "left" (vi keys), and the hand has the keyboard: in the
    tournament's end-of-turn step it moved the cursor and Sir Wolfy could not be kept
    hidden by its key (the one the footer and the help name)."""
    rng = random.Random(3)
    app = make_app(GameSetup(players=2, bots="random", seed=8, options={"tournament": True}))
    record = Recorder(*KINDS)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        duel_screen = await settle(pilot)
        assert isinstance(duel_screen, DuelScreen)
        hand = duel_screen.query_one(HandView)
        hand.cursor = 1
        await pilot.press("h")  # elsewhere h is the hand's still
        assert hand.cursor == 0
        for _ in range(400):
            screen = await settle(pilot)
            if isinstance(screen, NoticeScreen):
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):
                await pilot.press("1")
                continue
            assert screen is duel_screen, screen
            view = screen.view()
            if view.phase is Phase.WOLFY:
                break
            wolfy = [i for i, s in enumerate(view.hand) if view.known.get(s) == "sir-wolfy"]
            keys = keys_for(screen, rng)
            if view.phase is Phase.ATTACK and wolfy:  # Sir Wolfy played, as a bluff
                keys = [str(wolfy[0] + 1), "c"]
            for key in keys:
                await pilot.press(key)
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press(str(rng.randrange(len(app.screen.choices)) + 1))
        else:
            raise AssertionError("no Sir Wolfy to reveal or keep in 400 decisions")
        hand.cursor = len(hand.faces) - 1
        before = len(record.of(ActionChosen))
        await pilot.press("h")
        await pilot.pause()
        chosen = [m.action for m in record.of(ActionChosen)[before:] if not m.by_bot]
        assert chosen[:1] == [KeepHidden()]
        assert hand.cursor == len(hand.faces) - 1 or not hand.faces  # not moved instead


def test_the_end_of_a_turn_names_nobody_where_the_app_makes_it() -> None:
    """A plain duel's Sir Wolfy step is made by the app for every seat: the status says
    the turn ends, not that Ann (or a bot) "reveals a played Sir Wolfy"; a tournament's
    is a choice, and names who makes it."""
    from cakeparty.tui.games.cake_duel.parts import status_line
    from cakeparty.tui.table.local import GameSetup, LocalTable

    for tournament in (False, True):
        options = {"tournament": tournament}
        setup = GameSetup(game="cake-duel", players=2, bots="random", seed=1, options=options)
        table = LocalTable(setup, "Ann")
        rng = random.Random(1)
        for _ in range(2000):
            view = table.view(None)
            if view.phase is Phase.WOLFY:
                break
            seat = table.to_act
            assert seat is not None
            table.act(seat, rng.choice(table.legal(seat)))
        else:
            raise AssertionError("no turn came to its end")
        text, tone = status_line(view, table, None)
        assert tone == "wait"
        if tournament:
            assert "Sir Wolfy" in text and table.names[view.to_act[0]] in text, text
        else:
            assert text == "The turn ends: a Sir Wolfy played, if any, is shown …"


#: The steps whose status line is the same words every time: the seat's own keys.
OWN_STEPS = (Phase.ATTACK, Phase.PRIEST, Phase.SUMMON, Phase.LEAD, Phase.TRADE, Phase.WOLFY)


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_the_keys_of_each_own_step_fit_beside_a_networked_clock(language: str) -> None:
    """In a networked room the status line starts with the seat's clock ("Your clock: 109
    s · "): the words of each of its own steps still fit the 78 columns of an 80-column
    status line, with a clock of three digits, in every language."""
    options = {"tournament": True}
    table = LocalTable(GameSetup("cake-duel", 4, bots="random", seed=1, options=options), "Ann")
    try:
        assert i18n.use_language(language) == language
        for phase in OWN_STEPS:
            view = replace(table.view(0), phase=phase, to_act=(0,))
            text, tone = status_line(view, table, 0)
            assert tone == "you"
            line = i18n._("Your clock: {s} s · {text}").format(s=109, text=text)
            assert cell_len(line) <= SIZE[0] - 2, line
    finally:
        i18n.use_language("en")

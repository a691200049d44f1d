"""Cake of Doom played by key presses at 80×24: a whole 3-player game against two random
bots (seeded), its offers built card by card with their value shown against what they
must reach, sabotage and the end; hot-seat hands hidden between people; the help."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import Abduct, Bribe, Grab, Sabotage
from cakeparty.core.games.cake_of_doom.cards import card
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.tui.games.cake_of_doom.parts import offer_worth, requirement, target_title
from cakeparty.tui.games.cake_of_doom.screen import LISTED, DoomScreen
from cakeparty.tui.screens.dialogs import ChoiceScreen, PassScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.results import EndScreen, ReplayScreen

from .pilot import SIZE, make_app, settle_on, until
from .rooms import bots_then_start


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as the terminal shows it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def doom_of(app: App[Any]) -> DoomScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, DoomScreen))


async def settle(pilot: Pilot[Any], timeout: float = 20.0) -> Screen[Any]:
    """Wait until a person must act: a dialog is up, or the game awaits keys or is over."""

    def lists_itself(screen: DoomScreen) -> bool:
        task = screen.view().task
        return task is not None and task.phase in LISTED and not screen.prompted

    return await settle_on(pilot, DoomScreen, timeout, lists_itself)


async def fill(pilot: Pilot[Any], screen: DoomScreen, done: Any, limit: int = 40) -> None:
    """Press space until ``done()``: each press adds a card of the sort under the cursor,
    or of the next sort with a card left."""
    for _ in range(limit):
        if done():
            return
        await pilot.press("space")
    assert done(), "the cards did not add up"


async def bribe_by_keys(pilot: Pilot[Any], screen: DoomScreen, seen: dict[str, Any]) -> None:
    """b, the first target, cake cards until the offer reaches it, enter."""
    app = pilot.app
    await pilot.press("b")
    assert isinstance(app.screen, ChoiceScreen)
    target = app.screen.choices[0].value
    await pilot.press("1")
    assert screen.marks.mode == "bribe" and screen.marks.target == target
    view = screen.view()
    seat = view.seat
    assert seat is not None
    need = requirement(view, seat, target)
    assert need is not None

    def worth() -> int:
        names = [screen.view().card(s) for s in screen.marks.slots(screen.sorts())]
        return offer_worth(view, seat, target, [n for n in names if n])[2]

    await fill(pilot, screen, lambda: worth() >= need)
    offer = str(screen.query_one("#doom-offer").render())
    # the offer's value with every bonus, against what it must reach
    assert f"Offer for {target_title(target)} = {worth()}, needs {need} ✓" in offer
    seen.setdefault("offer", screen_text(app))
    before = len(screen.table.story)
    await pilot.press("enter")
    told = [e.event for e in screen.table.story[before:] if e.event is not None]
    assert any(type(e).__name__ == "Bribed" and e.target == target for e in told)
    seen["bribes"] = seen.get("bribes", 0) + 1


async def step_by_keys(pilot: Pilot[Any], screen: DoomScreen, seen: dict[str, Any]) -> None:
    """One decision of the seat at the keyboard, by keys."""
    view = screen.view()
    legal = view.legal
    task = view.task
    assert task is not None
    app = pilot.app
    if task.phase is Phase.PLAY:
        if any(isinstance(a, Grab) for a in legal) and not seen.get("grab"):
            seen["grab"] = True
            await pilot.press("t")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")
        elif any(isinstance(a, Abduct) for a in legal) and not seen.get("abduct"):
            seen["abduct"] = True
            await pilot.press("a")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")
        elif any(isinstance(a, Bribe) for a in legal):
            await bribe_by_keys(pilot, screen, seen)
        else:
            await pilot.press("p")
    elif task.phase is Phase.SABOTAGE:
        assert any(isinstance(a, Sabotage) for a in legal)  # else it is made for us
        seen.setdefault("asked", screen_text(app))
        await pilot.press("s")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")
        seen["sabotages"] = seen.get("sabotages", 0) + 1
    elif task.phase is Phase.FORCE_FIELD:
        await pilot.press("f")
        seen["force fields"] = seen.get("force fields", 0) + 1
    elif task.phase is Phase.DISCARD:
        assert screen.marks.mode == "discard"
        if not task.upto:
            await fill(pilot, screen, lambda: screen.marks.count == task.count)
        await pilot.press("enter")
        seen["discards"] = seen.get("discards", 0) + 1
    else:
        raise AssertionError(f"no keys for {task.phase}")


async def play_game(pilot: Pilot[Any], seen: dict[str, Any]) -> EndScreen:
    """Play by keys until the end, noting what the screen said."""
    app = pilot.app
    for _ in range(1500):
        screen = await settle(pilot)
        if isinstance(screen, EndScreen):
            seen["end"] = screen_text(app)
            return screen
        if isinstance(screen, ChoiceScreen):
            doom = doom_of(app)
            task = doom.view().task
            assert task is not None and task.phase in LISTED
            seen.setdefault(f"list {task.phase.value}", screen_text(app))
            await pilot.press("enter")
            continue
        assert isinstance(screen, DoomScreen)
        hand = screen.query_one("#doom-hand").border_title or ""
        if "new" not in seen and "* new since your last move" in str(hand):
            seen["new"] = screen_text(app)
        offer = screen.view().offer
        if offer is not None and offer.sabotages and "sabotaged" not in seen:
            seen["sabotaged"] = screen_text(app)
        await step_by_keys(pilot, screen, seen)
    raise AssertionError("the game did not end")


async def test_a_three_player_game_is_played_by_keys_to_the_end() -> None:
    app = make_app(GameSetup(game="cake-of-doom", players=3, bots="random", seed=21))
    seen: dict[str, Any] = {}
    async with app.run_test(size=SIZE) as pilot:
        first = await settle(pilot)
        assert isinstance(first, DoomScreen)
        text = screen_text(app)
        rows = text.splitlines()
        assert len(rows) == SIZE[1] and all(len(r) <= SIZE[0] for r in rows)
        view = first.table.view(0)
        assert "round 1 of 10" in text and "DOOM" in text
        for region in view.regions:  # every region in play with its minimum
            assert target_title(region.name) in text
        assert "Your hand — Ann (8 cards)" in text and "Cake " in text and "Mischief " in text
        assert "Muffin" in text and "Eclair" in text  # the players' panel
        end = await play_game(pilot, seen)
        doom = doom_of(app)
        outcome = doom.table.outcome
        assert outcome is not None
        names = doom.table.names
        assert any(names[w] in end.headline for w in outcome.winners)
        assert "Ann:" in seen["end"] and "region" in seen["end"]
        # the person bribed by keys, the screen showed what was on the table
        assert seen.get("bribes", 0) >= 1
        log = "\n".join(doom.log_view.plain)
        assert "Ann bribes" in log
        # Ann's log (hers alone) names the cards that came into her hand, and those a
        # steal took from it: the thief and the victim know the card
        assert "↳ into your hand: " in log
        robbed = [e for e in doom.table.view(0).events if isinstance(e, ev.Stole) and e.victim == 0]
        assert robbed, "the seed's bots steal from Ann"
        assert log.count("↳ out of your hand: ") == len(robbed)
        # each said under the move that made it (a steal from Ann, Ann's draw), not under
        # the next turn's start that came with it
        lines = doom.log_view.plain
        for before, line in pairwise(lines):
            if "↳ out of your hand: " in line:
                assert "from Ann" in before, (before, line)
            if "↳ into your hand: " in line:
                assert "'s turn" not in before and "begins" not in before, (before, line)
        assert "sabotaged" in seen and "Sabotage:" in seen["sabotaged"]
        assert "list draw" in seen and "from the cake pile" in seen["list draw"]
        # the cards come since Ann's last move are starred in her hand
        assert "new" in seen and "*" in seen["new"]
        # Ann sabotaged by keys, then chose what her sabotage removed from a list
        assert seen.get("sabotages", 0) >= 1 and "list remove" in seen
        assert "The offer is worth" in seen["list remove"]
        # the face-up replay
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert "↳ Ann takes" in screen_text(app) or any(
            "↳ Ann takes" in line for _k, line in app.screen.lines
        )


async def test_cards_are_discarded_by_keys_any_time_of_the_turn() -> None:
    """x starts marking, space marks, enter discards the cards marked one after the other
    (a move each) and the turn goes on; esc stops marking; enter with nothing marked says
    so and does nothing."""
    app = make_app(GameSetup(game="cake-of-doom", players=3, bots="normal", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(60):
            screen = await settle(pilot)
            if isinstance(screen, ChoiceScreen):
                await pilot.press("enter")
                continue
            assert isinstance(screen, DoomScreen)
            task = screen.view().task
            assert task is not None
            if task.phase is Phase.PLAY:
                break
            await step_by_keys(pilot, screen, {})
        else:
            raise AssertionError("Ann's turn did not come")
        text = screen_text(app)
        assert "x Discard" in text.splitlines()[-1] and "x discard" in text
        await pilot.press("x")
        assert screen.marks.mode == "discard"
        assert "Discard cards of your choice, face up  (marked: 0)" in screen_text(app)
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        # the offer's keys, named for marking
        for key in ("space Mark", "- Unmark", "⏎ Discard", "esc Stop"):
            assert key in footer, footer
        assert "Add" not in footer and "Drop" not in footer
        await pilot.press("escape")
        assert screen.marks.mode is None
        await pilot.press("x")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.marks.mode == "discard"
        before = screen.view()
        await pilot.press("space", "space")
        assert "(marked: 2)" in screen_text(app)
        marked = [before.card(s) for s in screen.marks.slots(screen.sorts(before))]
        await pilot.press("enter")
        screen = await settle(pilot)
        assert isinstance(screen, DoomScreen)
        after = screen.view()
        assert len(after.hand) == len(before.hand) - 2
        assert after.task is not None and after.task.phase is Phase.PLAY
        assert after.current == 0 and screen.awaiting == 0 and screen.marks.mode is None
        tops = [after.card(after.cake_discard[-1]) if after.cake_discard else None]
        tops.append(after.card(after.mischief_discard[-1]) if after.mischief_discard else None)
        assert marked[-1] in tops
        log = "\n".join(screen.log_view.plain)
        assert log.count("Ann discards") == 2
        await pilot.press("p")
        await settle(pilot)
        assert "Ann does not bribe" in "\n".join(doom_of(app).log_view.plain)


async def test_hot_seat_hides_each_hand_until_its_owner_has_the_keyboard() -> None:
    setup = GameSetup(
        game="cake-of-doom", players=3, hotseat=True, names=("Ann", "Bob", "Cy"), seed=4
    )
    app = make_app(setup)
    async with app.run_test(size=SIZE) as pilot:
        passed: list[str] = []
        for _ in range(6):
            screen = await settle(pilot)
            if isinstance(screen, PassScreen):
                under = doom_of(app)
                assert under.viewer is None
                hidden = str(under.query_one("#doom-hand-cards").render())
                assert "Hands are hidden" in hidden
                passed.append(screen.name_text)
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):
                await pilot.press("enter")
                continue
            assert isinstance(screen, DoomScreen)
            seat = screen.awaiting
            assert seat is not None and screen.viewer == seat
            text = screen_text(app)
            assert f"Your hand — {screen.table.names[seat]}" in text
            task = screen.view().task
            assert task is not None
            if task.phase is Phase.PLAY:
                await pilot.press("p")
            else:
                await step_by_keys(pilot, screen, {})
        assert len(set(passed)) >= 2  # the keyboard went round
        # the log is everyone's at a shared keyboard: no hand's cards in it
        log = "\n".join(doom_of(app).log_view.plain)
        assert "draws" in log and "your hand" not in log


async def test_help_shows_the_aliens_the_regions_and_the_keys() -> None:
    app = make_app(GameSetup(game="cake-of-doom", players=4, bots="random", seed=2))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "Freya" in text and "+1 offer value" in text


def test_the_hand_is_shown_by_sort_with_counts() -> None:
    from cakeparty.tui.games.cake_of_doom.parts import Marks, hand_lines, hand_sorts
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(GameSetup(game="cake-of-doom", players=3, bots="random", seed=21), "Ann")
    view = table.view(0)
    sorts = hand_sorts(view)
    assert sum(len(g.slots) for g in sorts) == len(view.hand)
    assert [g.cake for g in sorts] == sorted((g.cake for g in sorts), reverse=True)
    marks = Marks("discard")
    marks.picked[sorts[0].sort] = 1
    text = hand_lines(view, sorts, 0, marks, 76, live=True).plain
    assert f"1/{len(sorts[0].slots)}" in text
    counted = Counter(g.cake for g in sorts for _ in g.slots)
    assert f"Cake {counted[True]}:" in text and f"Mischief {counted[False]}:" in text


def test_every_step_of_every_variant_is_drawn_within_its_panels() -> None:
    """Whole seeded games (3–6 players; basic, advanced, blind) played by random choices:
    at every decision the panels the deciding seat sees are drawn within their widths,
    every move of a list has words, and the face-up replay tells the game."""
    import random

    from cakeparty.tui.games.cake_of_doom.parts import (
        Marks,
        builder_line,
        hand_lines,
        hand_sorts,
        move_label,
        offer_lines,
        players_text,
        regions_text,
    )
    from cakeparty.tui.games.cake_of_doom.story import describe, replay_lines
    from cakeparty.tui.table.local import LocalTable

    games = (
        (3, {}),
        (4, {"advanced": True}),
        (5, {"blind": True}),
        (6, {"advanced": True, "blind": True}),
    )
    for players, options in games:
        setup = GameSetup(
            game="cake-of-doom", players=players, bots="random", options=options, seed=players
        )
        table = LocalTable(setup, "Ann")
        rng = random.Random(players)
        seen_phases: set[Phase] = set()
        while not table.over:
            seat = table.to_act
            assert seat is not None
            view = table.view(seat)
            task = view.task
            assert task is not None
            seen_phases.add(task.phase)
            names = table.names
            for text in (
                regions_text(view, names, 43),
                players_text(view, names, seat, 33),
                hand_lines(view, hand_sorts(view), 0, Marks(), 76, live=True),
            ):
                assert all(len(line) <= 76 for line in text.plain.splitlines())
            if view.offer is not None:
                assert "needs" in offer_lines(view, names).plain
            legal = table.legal(seat)
            for action in legal[:30]:
                assert move_label(view, action, names)
            bribes = [a for a in legal if isinstance(a, Bribe)]
            if bribes:
                marks = Marks("bribe", bribes[0].target)
                for slot in bribes[0].slots:
                    sort = card(view.card(slot) or "").sort
                    marks.picked[sort] = marks.picked.get(sort, 0) + 1
                assert "✓" in builder_line(view, marks, hand_sorts(view)).plain
            table.act(seat, rng.choice(legal))
        for entry in table.story:
            if entry.event is not None:
                assert describe(entry.event, table.names, blind=bool(options.get("blind")))
        lines = replay_lines(table.replay(), table.names)
        assert any(kind == "truth" for kind, _line in lines)
        if options.get("advanced"):
            assert Phase.MIX in seen_phases
        assert {Phase.PLAY, Phase.DRAW} <= seen_phases


def offer_on_the_table(
    names: tuple[str, ...], cards: tuple[str, ...], aliens: tuple[str, ...], **offer: Any
) -> Any:
    """Seat 0's view of a 3-player game with seat 0's offer of ``cards`` on the table (the
    other fields of ``offer`` as given), every card of it known; and the cards' slots."""
    from dataclasses import replace

    from cakeparty.core.games.cake_of_doom.cards import box
    from cakeparty.core.games.cake_of_doom.view import OfferView
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(GameSetup(game="cake-of-doom", players=3, bots="random", seed=1), names[0])
    slots = tuple(box().index(c) for c in cards)
    known = {**table.view(0).known, **dict(zip(slots, cards, strict=True))}
    sabotages = offer.pop("sabotages", lambda slots: ())(slots)
    known.update({play.slot: box()[play.slot] for play in sabotages})
    shown = OfferView(
        seat=0, slots=slots, opened=True, protected=False, sabotages=sabotages, **offer
    )
    return replace(table.view(0), known=known, offer=shown, aliens=aliens)


def test_the_worked_example_reads_on_the_offer_line() -> None:
    """Sally's Western Europe bribe (Tiramisu +1, Starry Fruit Cake, Moon Cake = 4), after
    Paulo's Space Teddy removed the Moon Cake: 3 of 3, the Moon Cake struck out."""
    from cakeparty.core.games.cake_of_doom.cards import box
    from cakeparty.core.games.cake_of_doom.state import SabotagePlay
    from cakeparty.tui.games.cake_of_doom.parts import offer_lines

    names = ("Sally", "Paulo", "Cy")
    teddy = box().index("space-teddy-1")
    view = offer_on_the_table(
        names,
        ("tiramisu-1", "moon-cake-1", "starry-fruit-cake-1"),
        ("glorp", "krell", "pib"),
        target="western-europe",
        value=3,
        full_value=4,
        need=3,
        freya=0,
        freya_removed=0,
        left=(2, 0, 1),
        sabotages=lambda slots: (SabotagePlay(1, teddy, "space-teddy", removal=(slots[1],)),),
    )
    first, second = offer_lines(view, names).plain.splitlines()
    assert first.startswith("Sally bribes Western Europe = 3, needs 3 ✓")
    assert "Tiramisu+1" in first and "Starry Fruit Cake" in first and "−Moon Cake" in first
    assert second.startswith("Sabotage: Paulo: Space Teddy −1")


def test_a_long_offer_takes_a_second_line_with_every_card_whole() -> None:
    """An offer of many sorts (Sponge Cake×2, Moon Cake+1, Pandan Chiffon+1, …, Freya's
    +1) is wider than 78 columns: given two lines, every card reads whole, a card that
    does not fit starts the second line ("· …"), and the sabotage line follows."""
    from cakeparty.tui.games.cake_of_doom.parts import offer_lines

    names = ("Ann", "Muffin", "Eclair")
    cards = ("sponge-1", "sponge-2", "moon-cake-1", "pandan-chiffon-1")
    view = offer_on_the_table(
        names,
        (*cards, "starry-fruit-cake-1", "tiramisu-1"),
        ("freya", "krell", "pib"),
        target="east-asia",
        value=10,
        full_value=10,
        need=4,
        freya=1,
        freya_removed=0,
        left=(1, 1, 2, 2, 2, 1),
    )
    one = offer_lines(view, names).plain.splitlines()
    assert len(one[0]) > 78  # on one line the screen would cut its end
    first, more, sabotage = offer_lines(view, names, 78, rows=2).plain.splitlines()
    assert len(first) <= 78 and len(more) <= 78
    shown = first + more
    whole = ("Sponge Cake×2", "Moon Cake+1", "Pandan Chiffon+1", "Starry Fruit Cake+1")
    for label in (*whole, "Tiramisu", "Freya +1"):
        assert label in shown, label
    assert more.startswith("· ")
    assert sabotage.startswith("No sabotage yet")


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_a_turn_with_every_move_open_keeps_the_chat_key_in_80_columns(language: str) -> None:
    """A networked turn where a Tractor Beam, an Abduction, a bribe, a pass and a discard
    are all open: the footer's keys, the chat key last, fit 80 columns in every language
    (the footer cuts what does not fit)."""
    from cakeparty.core import i18n
    from cakeparty.tui.games.cake_of_doom.screen import DoomScreen

    words = {b.id: b.description for b in DoomScreen.BINDINGS if isinstance(b, Binding)}
    try:
        assert i18n.use_language(language) == language
        _ = i18n._
        keys = [
            ("←→", words["doom.left"]),
            *((k, words[f"doom.{n}"]) for k, n in (("t", "grab"), ("a", "abduct"))),
            *((k, words[f"doom.{n}"]) for k, n in (("b", "bribe"), ("p", "pass"))),
            ("x", words["doom.mark_discard"]),
            ("?", "Help"),
            ("q", "Leave"),
            ("m", "Chat"),
        ]
        footer = " ".join(f"{key} {_(text)}" for key, text in keys)
    finally:
        i18n.use_language("en")
    assert len(footer) <= SIZE[0], footer


async def test_a_networked_seat_plays_its_first_decision_by_keys() -> None:
    """``host cake-of-doom --players 3 --blind``: the lobby seats two bots, the game
    starts on ready, the table and the footer (with the chat key) fit 80 columns, the
    host's first decision is made by keys and told in the log."""
    from cakeparty.broker.embedded import free_port
    from cakeparty.tui.app import CakePartyApp
    from cakeparty.tui.games.cake_of_doom.netscreen import NetDoomScreen
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.screens.lobby import LobbyScreen
    from cakeparty.tui.settings import Settings

    plan = HostPlan(
        game="cake-of-doom",
        players=3,
        options={"blind": True},
        timeout=120,
        port=free_port(),
        lan=False,
    )
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), None, persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(LobbyScreen(plan, player="Ann", bot_level="random", bot_delay=0.0))
        screen = await bots_then_start(app, pilot, 3, NetDoomScreen, wait=20, start=60)
        await until(
            pilot,
            lambda: screen.awaiting is not None or isinstance(app.screen, ChoiceScreen),
            "Ann's first decision",
            120,
        )
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):  # a list step: its list is open
            await pilot.press("enter")
            await until(pilot, lambda: screen.awaiting is None, "the choice sent", 30)
            return
        # the footer follows the step a refresh later: on a busy machine, after the pause
        await until(pilot, lambda: "? Help" in screen_text(app).splitlines()[-1], "the keys", 30)
        rows = screen_text(app).splitlines()
        assert len(rows) == SIZE[1] and all(len(r) <= SIZE[0] for r in rows)
        text = "\n".join(rows)
        assert "Earth" in text and "Players" in text and "(blind)" in text
        footer = rows[-1]
        for key in ("? Help", "q Leave", "m Chat"):
            assert key in footer, footer
        task = screen.view().task
        assert task is not None
        told = len(screen.log_view.plain)
        if task.phase is Phase.PLAY:
            assert "p Pass" in footer
            await pilot.press("p")
            what = "Ann does not bribe"
        else:
            assert task.phase is Phase.SABOTAGE and "n No sabotage" in footer
            await pilot.press("n")
            what = "Ann does not sabotage"
        await until(
            pilot, lambda: any(what in line for line in screen.log_view.plain[told:]), what, 30
        )


def test_a_player_offline_is_tagged_in_every_language_with_the_columns_kept() -> None:
    """The players' panel tags an offline player in place of the alien's power; a word
    longer than the power's column (Spanish "sin conexión") takes the alien's place too,
    whole, and the cards and regions stay in their columns."""
    from cakeparty.core import new_match
    from cakeparty.tui.games.cake_of_doom.parts import players_text

    from .languages import speaking

    view = new_match("cake-of-doom", players=3, seed=1, options={}).view(0)
    for language, tag in (("en", "offline"), ("es", "sin conexión"), ("pl", "offline")):
        with speaking(language):
            rows = players_text(view, ["Ana", "Bot 1", "Ben"], 0, 33, away={2}).plain
        rows = rows.split("\n")
        assert [tag in row for row in rows] == [False, False, True], (language, rows)
        assert len({row.index("▯") for row in rows}) == 1, rows  # the columns stay


def test_the_moves_read_again_for_new_cards_leave_out_those_made_for_the_person() -> None:
    """The hand a person's cards are "new since": the one at their last decision. A step
    with one answer the app makes for them (no sabotage card to play) is left out of the
    moves read again, so it does not wipe the marks before they are seen."""
    import random

    from cakeparty.core import get_game
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(GameSetup("cake-of-doom", 3, bots="random", seed=8), "Ann")
    bot = get_game("cake-of-doom").bots["random"]
    rng = random.Random(8)
    made, chosen = [], []
    while len(made) < 3 and not table.over:
        seat = table.to_act
        assert seat is not None
        forced = table.forced(seat) if seat == 0 else None
        action = forced if forced is not None else bot(table.view(seat), rng)
        if seat == 0:
            (made if forced is not None else chosen).append(action)
        table.act(seat, action)
    assert len(made) == 3 and chosen, (made, chosen)
    recalled = [action for seat, action, _then in table.past_moves()]
    assert recalled == chosen  # every decision of hers, in order, and nothing made for her


def test_a_turn_out_of_grabs_steals_and_discards_says_so_in_its_prompt() -> None:
    from cakeparty.core.games.cake_of_doom.cards import TURN_PLAYS
    from cakeparty.tui.games.cake_of_doom.lines import prompt_text
    from tests.core.cake_of_doom.stacking import discard_pile, one, stacked

    abductions = ["abduction"] * 3
    m = stacked(3, mischief={0: ["tractor-beam"] * 2 + ["abduction"], 1: abductions, 2: abductions})
    discard_pile(m, "cake", ["sponge", "tiramisu"])
    m.apply(Grab(one(m, 0, "tractor-beam"), "cake"), 0)
    assert prompt_text(m.view(0), None).startswith("t Tractor Beam · a Abduction")
    for _n in range(1, TURN_PLAYS):
        m.apply(Grab(one(m, 0, "tractor-beam"), "mischief"), 0)
    said = prompt_text(m.view(0), None)
    assert said.startswith("no more grabs, steals or discards this turn · ")
    assert "t Tractor Beam" not in said and "x discard" not in said and "p pass" in said


async def test_q_and_help_work_from_a_list_the_table_opened() -> None:
    """The table's footer still shows q and ? while one of its lists is open (a draw):
    ? opens the help over the list, q asks to quit (no, or enter: the table, its list
    again on enter; y: the game is left)."""
    from cakeparty.tui.screens.dialogs import ConfirmScreen
    from cakeparty.tui.screens.menu import MenuScreen

    app = make_app(GameSetup(game="cake-of-doom", players=3, bots="normal", seed=5))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(80):
            screen = await settle(pilot)
            if isinstance(screen, ChoiceScreen):
                task = doom_of(app).view().task
                if task is not None and task.phase is Phase.DRAW:
                    break
                await pilot.press("enter")
            elif isinstance(screen, DoomScreen):
                await step_by_keys(pilot, screen, {"grab": True, "abduct": True})
        else:
            raise AssertionError("no draw list came")
        listed = app.screen
        assert "q Quit" in screen_text(app).splitlines()[-1]
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is listed, "the list again")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        assert "y yes · n or enter no" in screen_text(app)
        await pilot.press("enter")  # an enter meant for the list: the game is kept
        doom = doom_of(app)
        await until(pilot, lambda: app.screen is doom, "the table")
        assert doom.awaiting is not None and doom.view().task.phase is Phase.DRAW  # type: ignore[union-attr]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the list on enter")
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running or isinstance(app.screen, MenuScreen), "out")


def test_a_hand_row_too_wide_says_how_many_sorts_lie_aside_and_if_one_is_new() -> None:
    from rich.text import Text

    from cakeparty.tui.games.cake_of_doom.parts import _window

    labels = ["Space Teddy", "Meteor Shower", "Force Field×2", "Tractor Beam×2", "Abduction×2*"]
    parts = [(Text(label), index == 0) for index, label in enumerate(labels)]
    row = _window(parts, 50).plain
    assert len(row) <= 50 and row.startswith("Space Teddy")
    shown = [label for label in labels if label in row]
    assert row.endswith(f" {len(labels) - len(shown)}*›")  # the new Abductions lie aside
    # the cursor at the end: what lies before is counted, no new card among it
    parts = [(Text(label), index == len(labels) - 1) for index, label in enumerate(labels)]
    row = _window(parts, 50).plain
    assert row.startswith("‹") and row.endswith("Abduction×2*")
    hidden = sum(1 for label in labels if label not in row)
    assert row.startswith(f"‹{hidden} ") and "*" not in row.split(" ")[0]


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_doom_s_row_keeps_the_regions_columns_and_its_words_whole(language: str) -> None:
    """Three players at 80×24: DOOM's continent and minimum stand in the regions'
    columns, and its last words ("exige 2 regiones", "wymaga 2 regionów") show whole, on
    a line of their own under it where its row has no room for them (they pushed its
    columns three places left); a panel without that line (six players, every region in
    play, a two-line prompt) keeps them on the row."""
    from cakeparty.core import i18n
    from cakeparty.tui.games.cake_of_doom.parts import regions_text
    from cakeparty.tui.table.local import LocalTable

    from .languages import speaking

    with speaking(language):
        words = i18n._("needs 2 regions")
        app = make_app(GameSetup(game="cake-of-doom", players=3, bots="random", seed=3))
        async with app.run_test(size=SIZE) as pilot:
            screen = await settle_on(pilot, DoomScreen, 30)
            assert isinstance(screen, DoomScreen)
            await until(
                pilot, lambda: "DOOM" in str(screen.query_one("#doom-regions").render()), "Earth"
            )
            await pilot.pause()
            await pilot.pause()
            earth = str(screen.query_one("#doom-regions").render()).split("\n")
            six = GameSetup(game="cake-of-doom", players=6, seed=3)
            view = LocalTable(six, "Ann").view(0)
            short = regions_text(view, [f"P{n}" for n in range(6)], 43, None, 12)
    doom = next(n for n, line in enumerate(earth) if line.startswith("DOOM"))
    minimum = earth[doom - 1].index("≥")
    assert earth[doom].index("≥") == minimum, earth
    assert words in earth[doom] or earth[doom + 1].strip() == words, earth
    assert len(view.regions) == 11 and words in short.plain.split("\n")[-1], short.plain

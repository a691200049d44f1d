"""The table says what just happened, at 80×24: looks, blocks, Pierrot and Mimic, bout ends.

Seat 0 plays the random bot's choices (seeded) through the screen, so a headless game with
the same seeds reaches the same look, block and challenge; every assertion reads the text on
the screen or in the dialog the player sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from textual.app import App
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList

from cakeparty.core import Action
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import Claim
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.games.cake_duel.text import card_title, claim_text
from cakeparty.tui.games.cake_duel.parts import fit_lines, title_line
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.games.cake_duel.story import block_result, transform_note
from cakeparty.tui.messages import ActionChosen
from cakeparty.tui.screens.dialogs import ChoiceScreen, ConfirmScreen, NoticeScreen, PassScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen, ReplayScreen
from cakeparty.tui.widgets import LogView

from .pilot import SIZE, Recorder, make_app, settle


def screen_text(app: App[Any]) -> str:
    """Every row of the screen as the terminal shows it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def region_text(app: App[Any], widget: Widget) -> str:
    """The rows of the screen inside ``widget``'s content, as shown."""
    region = widget.content_region
    rows = screen_text(app).splitlines()[region.y : region.y + region.height]
    return "\n".join(row[region.x : region.x + region.width] for row in rows)


def policy(rng: random.Random) -> Callable[[DuelScreen], Action]:
    """The person's choices (seat 0, or whoever has the keyboard in hot-seat play): the
    random bot's, from their own seeded source."""

    def choose(screen: DuelScreen) -> Action:
        duel = screen.duel
        assert isinstance(duel, LocalTable)
        seat = screen.awaiting if screen.awaiting is not None else 0
        return duel.bots["random"](duel.view(seat), rng)

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
            duel_screen = app.screen_stack[1]
            assert isinstance(duel_screen, DuelScreen)
            action = choose(duel_screen)
            values = [c.value for c in screen.choices]
            await pilot.press(str(values.index(action) + 1))
        elif isinstance(screen, NoticeScreen | PassScreen):
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

        screen, text = await play_until(pilot, bout_end, rseed=17)
        assert "Muffin wins bout 1" in text
        assert "Muffin wins the bout by a challenge. Trophies: Ann 0 – 1 Muffin" in text
        told = " ".join(region_text(app, screen.query_one("#dialog")).split())
        assert "the cards were " in told and "a bluff!" in told
        # what the cards were, then who won: the bout's winner is said once
        assert told.count("wins the bout") == 1


async def test_the_duel_end_names_the_hidden_specials() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:

        def over(screen: Screen[Any], text: str) -> bool:
            return isinstance(screen, EndScreen)

        _screen, text = await play_until(pilot, over, rseed=17)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen) and isinstance(duel.duel, LocalTable)
        state = duel.duel.match.state
        dealer = duel.duel.match.dealer
        specials = sorted(
            card_title(dealer.card(s)) for s in state.game_slots() if CARDS[dealer.card(s)].special
        )
        assert len(specials) == 2
        assert f"The hidden specials were {specials[0]}, {specials[1]}" in text
        assert "wins the bout by a challenge" in text


PIERROT_SEED = 41  # seeded games that reach a challenged Pierrot or Mimic
TEAM_SEED = 1  # and a team game long enough for several blocks and last turns


async def test_pierrot_and_mimic_explain_the_challenge() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=PIERROT_SEED))
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

        screen, _text = await play_until(pilot, explained, rseed=PIERROT_SEED)
        challenge = transformed()
        assert challenge is not None
        note = transform_note(challenge)
        assert note is not None
        assert isinstance(screen, NoticeScreen) and note in screen.lines
        duel = app.screen_stack[1]
        assert note in duel.query_one(LogView).plain
        assert note.startswith(("Pierrot became", "Pierrot becomes", "Mimic became", "Mimic has"))


# -- fewer misclicks -----------------------------------------------------------------------


async def test_the_claim_list_opens_on_the_truthful_claim_marked_true() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    record = Recorder(ActionChosen)
    async with app.run_test(size=SIZE, message_hook=record) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen) and duel.view().phase is Phase.ATTACK
        view = duel.view()
        second = view.known[view.hand[1]]  # an Archer: claimable as itself
        await pilot.press("2", "c")
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        text = screen_text(app)
        true_label = f"1 × {card_title(second)} (true)"
        assert true_label in text
        assert sum("(true)" in c.label for c in dialog.choices) == 1
        # the highlighted entry is the truthful one: enter claims it, a bluff needs a move
        assert dialog.choices[dialog.query_one(OptionList).highlighted or 0].label == true_label
        await pilot.press("enter")
        await pilot.pause()
        claim = next(m.action for m in record.of(ActionChosen) if m.seat == 0)
        assert isinstance(claim, Claim) and claim.name == second
        assert f"Ann claims 1 × {card_title(second)}" in screen_text(app)


async def test_a_claim_of_no_truthful_name_opens_on_the_first_and_marks_none() -> None:
    cards = ("sir-wolfy",)
    assert DuelScreen._truthful_first(["soldier", "archer"], cards) == 0
    assert DuelScreen._claim_label(1, "soldier", cards) == "1 × Soldier"
    # a Pierrot may truthfully be any core card; its own name would be no claim at all
    assert DuelScreen._claim_label(1, "wizard", ("pierrot",)) == "1 × Wizard (true)"
    assert DuelScreen._truthful_first(["soldier", "wizard"], ("wizard",)) == 1


def test_every_duel_key_means_one_thing_and_n_only_means_no() -> None:
    keys: dict[str, set[str]] = {}
    for binding in DuelScreen.BINDINGS:
        assert isinstance(binding, Binding)
        for key in binding.key.split(","):
            keys.setdefault(key, set()).add(binding.action)
    shared = {key: actions for key, actions in keys.items() if len(actions) > 1}
    assert shared == {}
    assert keys["n"] == {"refuse"}
    assert EndScreen.KEYS["new"].startswith("d ")


async def test_each_answer_to_a_claim_has_its_own_key_in_the_footer() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen) and duel.view().phase is Phase.RESPOND
        footer = screen_text(app).splitlines()[-1]
        assert "x Challenge" in footer and "b Block" in footer and "a Accept" in footer
        assert " n " not in f" {footer} "
        assert "x challenge · b block · a accept" in screen_text(app)
        await pilot.press("a")
        await pilot.pause()
        assert "Ann takes no action" in duel.query_one(LogView).plain


async def test_quitting_works_from_the_pass_the_keyboard_screen() -> None:
    app = make_app(GameSetup(players=2, hotseat=True, seed=5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await settle(pilot)
        if isinstance(screen, DuelScreen):  # the first seat moves; then the keyboard passes
            await pilot.press("p")
            screen = await settle(pilot)
        assert isinstance(screen, PassScreen)
        assert "q quit" in screen_text(app)
        # q asks first; no brings the pass screen back, hands still hidden
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen) and duel.viewer is None
        assert app.return_code is None
        await pilot.press("q", "y")
        await pilot.pause()
        assert app.return_code == 0  # the duel started from the command line: the app ends


# -- room for what happened ----------------------------------------------------------------


def test_fit_lines_keeps_the_newest_lines_that_fit_once_wrapped() -> None:
    lines = ["a" * 10, "b" * 30, "c" * 5]
    assert fit_lines(lines, 20, 3) == ["b" * 30, "c" * 5]  # b wraps to two rows
    assert fit_lines(lines, 40, 3) == lines
    assert fit_lines(lines, 20, 1) == ["c" * 5]
    assert fit_lines(["x" * 100], 20, 2) == ["x" * 100]  # the newest line is never dropped


async def test_team_mode_at_80x24_shows_blocks_and_the_newest_line_of_the_last_turn() -> None:
    app = make_app(GameSetup(players=4, bots="random", seed=TEAM_SEED))
    async with app.run_test(size=SIZE) as pilot:
        checked = {"block": 0, "last": 0}

        def check(screen: Screen[Any], text: str) -> bool:
            if not isinstance(screen, DuelScreen) or screen.awaiting is None:
                return False
            view = screen.view()
            names = screen.duel.names
            flat = " ".join(region_text(app, screen.query_one("#duel-claims")).split())
            if view.attack is not None and view.block is not None:
                block = view.block
                shown = f"Block {names[block.seat]}: {claim_text(block.count, block.name)}"
                assert shown in flat, text
                checked["block"] += 1
            elif view.attack is None and screen._last_turn:
                newest = screen._last_turn[-1]
                assert " ".join(newest.split()[:4]) in flat, text
                checked["last"] += 1
            return False

        try:
            await play_until(pilot, check, rseed=TEAM_SEED)
        except AssertionError as exc:
            if "never showed" not in str(exc):
                raise
        assert checked["block"] >= 2 and checked["last"] >= 2


async def test_a_team_duel_names_each_team_with_a_capital_where_its_sentence_begins() -> None:
    """Team mode to the end at 80×24: the dialogs that open with a team say "Team …" (a
    bout's, the duel's end), and the title line names both teams with their trophies."""
    app = make_app(GameSetup(players=4, bots="random", seed=TEAM_SEED))
    titles: list[str] = []
    async with app.run_test(size=SIZE) as pilot:

        def ended(screen: Screen[Any], text: str) -> bool:
            if isinstance(screen, NoticeScreen) and screen.title_text not in titles:
                titles.append(screen.title_text)
            return isinstance(screen, EndScreen)

        end, text = await play_until(pilot, ended, rseed=TEAM_SEED, steps=2000)
        assert isinstance(end, EndScreen)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen)
        view = duel.view()
        assert view.winner is not None
        winners = " & ".join(duel.duel.names[s] for s in (view.winner, view.winner + 2))
        assert end.headline == f"Team {winners} wins the duel!"
        bouts = [t for t in titles if " wins bout " in t]
        assert bouts and all(t.startswith("Team ") for t in bouts), titles
        first = text.splitlines()[0]
        score = f"{view.trophies[0]} – {view.trophies[1]}"
        assert f"Trophies: Ann & Eclair {score} Muffin & Brownie" in first, first


def test_the_title_names_the_teams_and_their_trophies_and_cuts_long_names_alike() -> None:
    """The title line reads "Trophies: Bot 4 & Bot 1 0 – 0 Bot 2 & Bot 3"; names too long
    for 78 columns are cut alike, the game's name kept, both teams and the score still on
    the line, in a tournament too."""
    short = ("Bot 4", "Bot 2", "Bot 1", "Bot 3")
    long = ("Alexandra Primera", "Bartholomew Segundo", "Christina Tercera", "Dominique Cuarta")
    for names in (short, long):
        for tournament in (False, True):
            setup = GameSetup(
                "cake-duel", 4, hotseat=True, names=names, seed=1,
                options={"tournament": tournament},
            )  # fmt: skip
            table = LocalTable(setup, names[0])
            title = title_line(table.view(None), table, 12, 78).plain
            assert cell_len(title) <= 78, title
            assert title.startswith("Cake Duel "), title
            scores = title.split(" – ")
            assert len(scores) == (3 if tournament else 2), title
            if names == short and not tournament:
                assert title == (
                    "Cake Duel · bout 1 · turn 12 · Trophies: Bot 4 & Bot 1 0 – 0 Bot 2 & Bot 3"
                )
            # a tournament names the teams with the duels won ("duel 1 of 5 (Bot 4 & Bot 1
            # 0 – 0 Bot 2 & Bot 3)"), or where that is too wide, with the trophies
            within = title.split("(")[1].split(")")[0] if tournament else ""
            pairs = within if " & " in within else title.split(": ")[1]
            first, second = pairs.split(" 0 – 0 ")
            assert [n[:1] for n in first.split(" & ")] == [names[0][:1], names[2][:1]], title
            assert [n[:1] for n in second.split(" & ")] == [names[1][:1], names[3][:1]], title


async def test_the_log_reflows_and_a_small_terminal_is_told_so() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=3))
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        first = duel.query_one(LogView).plain[0]  # "Bout 1: Muffin attacks first, …"
        assert first not in screen_text(app)  # wrapped at 80 columns
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        await pilot.pause()
        assert first in screen_text(app)  # on one row once there is room
        assert "Terminal too small" not in screen_text(app)
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        await pilot.pause()
        assert "Terminal too small (70×20): Cake Duel needs 80×24." in screen_text(app)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        await pilot.pause()
        assert "Terminal too small" not in screen_text(app)


async def test_a_long_card_description_wraps_instead_of_being_cut() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen)
        view = duel.view()
        assert view.known[view.hand[0]] == "quartermaster"
        text = screen_text(app)
        assert "Quartermaster — special attacker. Your hand size +1 for the rest of the" in text
        assert "│ bout." in text


async def test_the_replay_names_drawn_cards_and_looked_at_hands() -> None:
    app = make_app(GameSetup(players=2, bots="random", seed=17))
    async with app.run_test(size=SIZE) as pilot:

        def over(screen: Screen[Any], text: str) -> bool:
            return isinstance(screen, EndScreen)

        await play_until(pilot, over, rseed=17)
        await pilot.press("r")
        replay = await settle(pilot)
        assert isinstance(replay, ReplayScreen)
        plain = replay.plain
        drew = [i for i, line in enumerate(plain) if " draws " in line]
        assert drew and all(plain[i + 1].startswith("  ↳ drawn: ") for i in drew)
        looked = plain.index("Ann looks at Muffin's hand")
        assert plain[looked + 1].startswith("  ↳ the hand seen: ")


async def test_at_a_shared_keyboard_a_look_waits_for_its_player() -> None:
    app = make_app(GameSetup(players=2, hotseat=True, seed=26))
    async with app.run_test(size=SIZE) as pilot:
        holders: list[int | None] = []

        def look(screen: Screen[Any], text: str) -> bool:
            if not (isinstance(screen, NoticeScreen) and "look at" in screen.title_text):
                return False
            duel = app.screen_stack[1]
            assert isinstance(duel, DuelScreen)
            holders.append(duel.viewer)
            return True

        _screen, text = await play_until(pilot, look, rseed=26)
        duel = app.screen_stack[1]
        assert isinstance(duel, DuelScreen)
        looked = next(e.event for e in duel.duel.story if isinstance(e.event, ev.Looked))
        # shown to the player who looked, with the keyboard in their hands
        assert holders == [looked.seat]
        target = duel.duel.names[looked.target]
        assert f"Your look at {target}'s hand" in text
        # the log is everyone's at one keyboard: it says who looked, never what was seen
        assert not any(line.startswith("You see") for line in duel.query_one(LogView).plain)


# -- the sentences, rule by rule -----------------------------------------------------------

NAMES = ("Ann", "Muffin")


def _claim(name: str, count: int) -> ev.Claimed:
    return ev.Claimed(0, 1, name, tuple(range(count)))


def _block(name: str, count: int) -> ev.Blocked:
    return ev.Blocked(1, name, tuple(range(10, 10 + count)))


def test_block_results_follow_the_blocking_rules() -> None:
    assert (
        block_result(_claim("wizard", 2), _block("angel", 1), NAMES)
        == "The Angel cancels 2 × Wizard; no cakes stolen"
    )
    assert (
        block_result(_claim("soldier", 3), _block("defender", 1), NAMES)
        == "1 × Defender blocks 1 of 3 × Soldier; 2 still steal"
    )
    assert (
        block_result(_claim("soldier", 2), _block("defender", 2), NAMES)
        == "2 × Defender blocks 2 × Soldier; no cakes stolen"
    )
    assert (
        block_result(_claim("archer", 2), _block("priest", 1), NAMES)
        == "1 × Priest cancels 1 of 2 × Archer and takes it into Muffin's hand; 1 still attacks"
    )
    assert (
        block_result(_claim("scout", 1), _block("defender", 1), NAMES)
        == "1 × Defender blocks 1 × Scout; no cakes stolen; the Scout's effect still happens"
    )


def _flip(name: str, cards: tuple[str, ...], truthful: bool) -> ev.Challenged:
    return ev.Challenged(1, 0, name, tuple(range(len(cards))), cards, truthful)


def test_pierrot_and_mimic_notes_say_what_each_became() -> None:
    assert transform_note(_flip("wizard", ("wizard",), True)) is None
    assert (
        transform_note(_flip("wizard", ("pierrot",), True))
        == "Pierrot became the claimed Wizard: the claim stands"
    )
    assert (
        transform_note(_flip("assassin", ("pierrot",), False))
        == "Pierrot becomes only a core card, never the claimed Assassin: the claim is a bluff"
    )
    assert (
        transform_note(_flip("archer", ("archer", "mimic"), True))
        == "Mimic became the Archer beside it: the claim stands"
    )
    assert (
        transform_note(_flip("soldier", ("mimic",), False))
        == "Mimic has no real card beside it to copy: the claim is a bluff"
    )


async def test_the_end_box_s_lines_read_down_one_left_edge() -> None:
    """A ranking in the end box: its places line up under one another, and a line longer
    than the box goes on below its own start, whole."""
    from .languages import screen_lines
    from .pilot import SIZE, make_app

    lines = [
        "1. Muffin: 2 regions, cake value 10, 2 cards in hand · won DOOM",
        "2. Brownie: 3 regions, cake value 14, 4 cards in hand",
        "3. Ana: 0 regions, cake value 0, 10 cards in hand",
    ]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(EndScreen("Muffin wins DOOM and the game!", lines))
        await pilot.pause()
        rows = screen_lines(app)
        starts = [next(r.index(p) for r in rows if p in r) for p in ("1. ", "2. ", "3. ")]
        assert len(set(starts)) == 1, starts
        first = next(i for i, r in enumerate(rows) if "1. Muffin" in r)
        assert rows[first + 1].index("won DOOM") == starts[0]  # the rest, under its start

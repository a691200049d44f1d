"""A local game kept on disk as it goes: continued where it was after the app ended,
offered by the menu, forgotten when it ends or is quit; a file that is no kept game is
never a crash."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.menu import MenuScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table import kept
from cakeparty.tui.table.local import GameSetup, LocalTable

from .pilot import SIZE, settle, until

GAMES = [
    GameSetup("cake-duel", 2, bots="normal", seed=5),
    GameSetup("cake-master", 3, bots="normal", seed=6),
    GameSetup("cookies-battle", 4, bots="normal", seed=7),
    GameSetup("cake-of-doom", 4, bots="normal", seed=8),
    GameSetup("cookies-battle", 3, hotseat=True, names=("Ann", "Bo", "Cy"), seed=9),
]


def _play(table: LocalTable, moves: int, rng: random.Random) -> None:
    """``moves`` moves: the bots' own, a person's at random among the legal ones."""
    for _ in range(moves):
        seat = table.to_act
        if seat is None:
            return
        action = table.bot_choice(seat) if table.is_bot(seat) else rng.choice(table.legal(seat))
        table.act(seat, action)


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: f"{s.game}-{s.players}")
def test_a_kept_game_is_continued_exactly_where_it_was(setup: GameSetup) -> None:
    table = LocalTable(setup, "Ann")
    table.keeper = kept.keep
    rng = random.Random(1)
    _play(table, 12 if setup.game == "cake-duel" else 60, rng)
    assert table.moves and not table.over
    assert kept.path(setup.game).stat().st_mode & 0o777 == 0o600  # the seed deals every hand
    (offer,) = kept.peek()
    assert (offer.game, offer.hotseat, offer.moves) == (setup.game, setup.hotseat, len(table.moves))
    found = kept.load(setup.game)
    assert found is not None and found.setup == table.setup and found.player == "Ann"
    again = kept.restore(found)
    # the same deal from the same seed, the same moves: the same game, the same story
    assert again.match.state == table.match.state
    assert again.match.history == table.match.history
    assert again.names == table.names and len(again.story) == len(table.story)
    for seat in range(table.players):
        assert again.view(seat) == table.view(seat)
    # played on, the two stay one game: the same moves are legal and do the same
    for _ in range(20):
        seat = table.to_act
        if seat is None:
            break
        action = rng.choice(table.legal(seat))
        table.act(seat, action)
        again.act(seat, action)
        assert again.match.state == table.match.state


def test_a_fresh_app_reads_a_kept_game_before_any_rules_are_loaded() -> None:
    # the menu's app has loaded no game's rules: the kept moves name the game's actions
    table = LocalTable(GameSetup("cake-of-doom", 4, bots="normal", seed=2), "Ann")
    table.keeper = kept.keep
    _play(table, 30, random.Random(4))
    script = (
        "import sys\n"
        "from cakeparty.tui.table import kept\n"
        "assert not any(m.startswith('cakeparty.core.games') for m in sys.modules)\n"
        "found = kept.load('cake-of-doom')\n"
        "print(len(kept.restore(found).moves) if found else 'none')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(table.moves))


def test_a_game_that_ends_is_forgotten() -> None:
    table = LocalTable(GameSetup("cake-duel", 2, bots="random", seed=3), "Ann")
    table.keeper = kept.keep
    rng = random.Random(2)
    _play(table, 1, rng)
    assert kept.path("cake-duel").exists()
    while not table.over:
        _play(table, 50, rng)
    assert not kept.path("cake-duel").exists()
    assert kept.peek() == () and kept.load("cake-duel") is None


def _write(data: Any, game: str = "cake-duel") -> None:
    kept.path(game).parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data)
    kept.path(game).write_text(text, encoding="utf-8")


def _good() -> dict[str, Any]:
    table = LocalTable(GameSetup("cake-duel", 2, bots="random", seed=4), "Ann")
    table.keeper = kept.keep
    _play(table, 6, random.Random(3))
    data: dict[str, Any] = json.loads(kept.path("cake-duel").read_text())
    return data


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: "not json {",
        lambda d: "[" * 100_000,  # nested past any parser's depth
        lambda d: [1, 2, 3],
        lambda d: {**d, "version": 99},
        lambda d: {**d, "game": "chess"},
        lambda d: {**d, "players": "two"},
        lambda d: {**d, "seed": None},
        lambda d: {**d, "think": -1},
        lambda d: {**d, "options": [["full", [1]]]},
        lambda d: {**d, "options": [["no such option", True]]},
        lambda d: {**d, "moves": [[0, ["no such action"]]]},
        lambda d: {**d, "moves": "everything"},
        lambda d: {k: v for k, v in d.items() if k != "player"},
        lambda d: {**d, "saved": 10**400},  # past any float
        lambda d: {**d, "think": 10**400},
    ],
)
def test_a_file_that_is_no_kept_game_is_none(spoil: Any) -> None:
    _write(spoil(_good()))
    assert kept.load("cake-duel") is None


@pytest.mark.parametrize(
    "moves",
    [
        lambda m: [[9, m[0][1]], *m[1:]],  # a seat the game does not have
        lambda m: [m[1], m[0], *m[2:]],  # out of order: not legal there
        lambda m: [*m, m[-1]],  # one move too many
    ],
)
def test_moves_that_do_not_play_are_refused(moves: Any) -> None:
    data = _good()
    _write({**data, "moves": moves(data["moves"])})
    found = kept.load("cake-duel")
    assert found is not None
    with pytest.raises(ValueError, match=r"^move \d+ does not fit the game$"):
        kept.restore(found)


def _app() -> CakePartyApp:
    return CakePartyApp(Settings(name="Ann", bot_delay=0.0), persist=True, ask_name=False)


async def _continue(pilot: Any) -> None:
    """Wait for the menu to offer the kept game, and take it."""
    menu = pilot.app.screen
    assert isinstance(menu, MenuScreen)
    await until(pilot, lambda: bool(menu.kept), "the kept game in the menu")
    await pilot.press("c")


def _menu_entries(app: CakePartyApp) -> list[str]:
    options = app.screen.query_one("#menu-options", OptionList).options
    return [str(o.prompt) for o in options]


async def test_the_menu_continues_a_game_the_app_left_and_forgets_one_quit(
    config_dir: Path,
) -> None:
    setup = GameSetup("cake-duel", 2, bots="normal", seed=11)
    first = _app()
    async with first.run_test(size=SIZE) as pilot:
        first.push_screen(first._game(setup, leave="pop"))
        duel = await settle(pilot)
        assert isinstance(duel, DuelScreen) and duel.awaiting is not None
        table = duel.session
        assert isinstance(table, LocalTable)
        await pilot.press("1", "c")  # a claim, or an answer: a move of Ann's either way
        await pilot.press("1")
        await until(pilot, lambda: any(s == 0 for s, _a in table.moves), "Ann's move")
        state, moves = table.match.state, list(table.moves)
        # the app ends without the game's quit (a closed terminal, a dropped connection)
    second = _app()
    async with second.run_test(size=SIZE) as pilot:
        menu = second.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: bool(menu.kept), "the kept game in the menu")
        assert "c  Resume Cake Duel against bots" in _menu_entries(second)
        assert "c resumes your game" in str(menu.query_one("#menu-greeting").render())
        await pilot.press("c")
        again = await settle(pilot)
        assert isinstance(again, DuelScreen)
        table = again.session
        assert isinstance(table, LocalTable)
        assert table.moves[: len(moves)] == moves
        if len(table.moves) == len(moves):  # the bots may have moved on since
            assert table.match.state == state
        # quit on purpose: no longer offered
        await pilot.press("q")
        assert isinstance(second.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: isinstance(second.screen, MenuScreen), "the menu")
        assert not kept.path("cake-duel").exists()
        await until(pilot, lambda: second.screen.looked, "the menu's look")  # type: ignore[attr-defined]
        assert not any("Resume" in e for e in _menu_entries(second))


async def test_a_kept_game_that_does_not_play_is_said_and_forgotten(config_dir: Path) -> None:
    data = _good()
    _write({**data, "moves": [data["moves"][1], data["moves"][0]]})
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _continue(pilot)
        await until(pilot, lambda: app._notifications, "the notice")
        (notice,) = [n.message for n in app._notifications]
        assert (
            notice == "Your game of Cake Duel could not be continued: move 1 does not fit the game"
        )
        assert isinstance(app.screen, MenuScreen) and not kept.path("cake-duel").exists()
        # nor offered again
        await until(pilot, lambda: not app.screen.kept, "the menu's look")  # type: ignore[attr-defined]
        assert not any("Resume" in e for e in _menu_entries(app))


async def test_a_look_at_the_disk_that_answers_late_does_not_bring_back_a_game_gone(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A look of the menu's read the kept game, then answered after a later look (the
    game forgotten meanwhile) had: its older answer must not offer the game again. A
    loaded machine let that happen."""
    _write(_good())
    slow, release = threading.Event(), threading.Event()
    peek = kept.peek

    def peek_slowly_when_asked() -> Any:
        found = peek()
        if slow.is_set():
            slow.clear()
            release.wait(30)
        return found

    shown: list[tuple[Any, ...]] = []
    show_back = MenuScreen.show_back

    def show_watched(menu: MenuScreen, *args: Any) -> None:
        shown.append(args)
        show_back(menu, *args)

    monkeypatch.setattr(kept, "peek", peek_slowly_when_asked)
    monkeypatch.setattr(MenuScreen, "show_back", show_watched)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)

        def looks_done() -> bool:
            return all(w.is_finished for w in app.workers if w.group == "comeback")

        await until(pilot, lambda: menu.kept and looks_done(), "the menu's first looks")
        slow.set()
        menu.look_back()  # reads the game, then waits
        await until(pilot, lambda: not slow.is_set(), "the slow look's read")
        kept.forget("cake-duel")
        menu.look_back()  # reads no game, and answers first
        await until(pilot, lambda: not menu.kept, "the later look's answer")
        answered = len(shown)
        release.set()
        await until(pilot, lambda: len(shown) > answered, "the slow look's answer")
        assert shown[-1][1]  # it found the game, as the disk was when it read
        assert not menu.kept and not any("Resume" in e for e in _menu_entries(app))


async def test_a_continued_cookies_battle_marks_the_cards_received_in_the_pass(
    config_dir: Path,
) -> None:
    from cakeparty.core.games.cookies_battle.state import Phase
    from cakeparty.tui.games.cookies_battle.screen import CookiesScreen

    table = LocalTable(GameSetup("cookies-battle", 4, bots="random", seed=12), "Ann")
    table.keeper = kept.keep
    rng = random.Random(5)
    # every seat's pass made (Ann's first: the others' came after, so a game kept before
    # theirs would be continued with its cards still to come)
    while table.view(None).phase is Phase.PASS:
        _play(table, 1, rng)
    assert any(m[0] == 0 for m in table.moves)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _continue(pilot)
        await until(pilot, lambda: isinstance(app.screen, CookiesScreen), "the table")
        screen = app.screen
        assert isinstance(screen, CookiesScreen)
        # the two cards the neighbours passed, known from the deal, not from this app
        received = screen.received(screen.view())
        assert len(received) == 2 and received <= set(screen.view().hand)
        hand = str(screen.query_one("#cb-hand-cards").render())
        assert hand.count("+") == 2


def _keep(game: str, players: int, seed: int) -> tuple[str, bool]:
    """A game kept, as ``_offered`` names it: its game, not hot-seat."""
    kept.keep(LocalTable(GameSetup(game, players, bots="random", seed=seed), "Ann"))
    return game, False


def _offered(offers: Sequence[kept.Offer] | None = None) -> list[tuple[str, bool]]:
    """The games ``offers`` (or the kept games) offer, in their order."""
    return [(o.game, o.hotseat) for o in (kept.peek() if offers is None else offers)]


async def _new_duel_from_the_menu(pilot: Any) -> None:
    await pilot.press("b", "1")  # against bots, the first game: Cake Duel
    await until(pilot, lambda: type(pilot.app.screen).__name__ == "SetupScreen", "the form")
    await pilot.press("enter")


async def test_a_new_game_from_the_menu_asks_before_its_game_s_kept_one_is_lost(
    config_dir: Path,
) -> None:
    cookies = _keep("cookies-battle", 4, 13)
    duel = _keep("cake-duel", 2, 16)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: len(menu.kept) == 2, "the kept games in the menu")
        for answer in ("n", "y"):
            await _new_duel_from_the_menu(pilot)
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            text = str(app.screen.query_one("#dialog-detail").render())
            assert text == "Your game of Cake Duel in progress will be lost."
            assert _offered() == [duel, cookies]  # not yet; the latest first
            await pilot.press(answer)
            if answer == "n":  # back to the menu, the kept games still offered
                await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
                assert _offered() == [duel, cookies] == _offered(menu.kept)
        # yes: the new duel starts, and is the duel kept; the Cookies Battle stays
        await until(pilot, lambda: isinstance(app.screen, DuelScreen), "the new game")
        assert _offered() == [duel, cookies]
        restarted = kept.load("cake-duel")
        assert restarted is not None and restarted.setup.seed != 16


async def test_a_game_of_another_game_kept_asks_nothing_and_both_are_offered(
    config_dir: Path,
) -> None:
    cookies = _keep("cookies-battle", 4, 17)
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: bool(menu.kept), "the kept game in the menu")
        await _new_duel_from_the_menu(pilot)
        await until(pilot, lambda: isinstance(app.screen, DuelScreen), "the new game")
        assert _offered() == [("cake-duel", False), cookies]
        await pilot.press("q", "n")  # not quit: the app leaves the duel kept
    second = _app()
    async with second.run_test(size=SIZE) as pilot:
        menu = second.screen
        assert isinstance(menu, MenuScreen)
        await until(pilot, lambda: len(menu.kept) == 2, "both kept games in the menu")
        assert "c  Resume a game (2 kept)" in _menu_entries(second)
        assert "c resumes one of your games" in str(menu.query_one("#menu-greeting").render())
        await pilot.press("c")  # which one: the latest first
        await until(pilot, lambda: isinstance(second.screen, ChoiceScreen), "the choice")
        picker = second.screen
        assert isinstance(picker, ChoiceScreen)
        assert [c.label for c in picker.choices] == [
            "Resume Cake Duel against bots",
            "Resume Cookies Battle against bots",
        ]
        # each says how far it went and when it was left (both kept a moment ago)
        cookies_moves = len(kept.load("cookies-battle").moves)  # type: ignore[union-attr]
        assert picker.choices[1].detail == (
            f"{cookies_moves} moves · just now" if cookies_moves else "just now"
        )
        assert picker.choices[0].detail.endswith("just now")
        await pilot.press("2")
        await until(
            pilot, lambda: type(second.screen).__name__ == "CookiesScreen", "the Cookies Battle"
        )
        # both still kept, the one continued the latest now
        assert _offered() == [cookies, ("cake-duel", False)]


def test_the_one_game_earlier_versions_kept_is_offered_as_its_game_s(config_dir: Path) -> None:
    from cakeparty.protocol.journal import data_dir

    data = _good()
    kept.forget("cake-duel")
    old = data_dir() / kept.OLD_FILE_NAME
    old.write_text(json.dumps(data), encoding="utf-8")
    assert _offered() == [("cake-duel", False)]
    assert not old.exists() and kept.load("cake-duel") is not None
    # one beside a kept game of its own game gives way to it; one that is no game stays
    old.write_text(json.dumps({**data, "seed": 99}), encoding="utf-8")
    assert _offered() == [("cake-duel", False)] and not old.exists()
    found = kept.load("cake-duel")
    assert found is not None and found.setup.seed == data["seed"]
    old.write_text("not json {", encoding="utf-8")
    assert _offered() == [("cake-duel", False)] and old.exists()


@pytest.mark.parametrize("answer", ["n", "y"])
async def test_cakeparty_play_asks_before_its_game_s_kept_one_is_lost(
    answer: str, config_dir: Path
) -> None:
    cookies = _keep("cookies-battle", 4, 14)
    duel = _keep("cake-duel", 2, 18)
    setup = GameSetup("cake-duel", 2, bots="random", seed=15)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), setup, ask_name=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press(answer)
        if answer == "n":  # the menu instead, which offers the kept games
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
            await until(pilot, lambda: bool(app.screen.kept), "the offer")  # type: ignore[attr-defined]
            found = kept.load("cake-duel")
            assert found is not None and found.setup.seed == 18
        else:
            await until(pilot, lambda: isinstance(app.screen, DuelScreen), "the new game")
            found = kept.load("cake-duel")
            assert found is not None and found.setup.seed == 15
        assert _offered() == [duel, cookies]


async def test_cakeparty_play_of_another_game_than_the_one_kept_asks_nothing(
    config_dir: Path,
) -> None:
    cookies = _keep("cookies-battle", 4, 19)
    setup = GameSetup("cake-duel", 2, bots="random", seed=20)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), setup, ask_name=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DuelScreen), "the new game")
        assert _offered() == [("cake-duel", False), cookies]


@pytest.mark.parametrize(
    ("setup", "cards", "new"),
    [
        (
            GameSetup("cake-of-doom", 3, bots="random", seed=31),
            "#doom-hand-cards",
            "* new since your last move",  # in the hand's title; the cards starred
        ),
        (GameSetup("cake-master", 3, bots="random", seed=32), "#cm-hand-cards", "  new"),
    ],
    ids=["cake-of-doom", "cake-master"],
)
async def test_a_continued_game_marks_the_cards_new_since_the_last_move_as_before(
    config_dir: Path, setup: GameSetup, cards: str, new: str
) -> None:
    """The cards come into a person's hand since their last move are marked as the
    screen that saw the moves marked them: a continued game reads the hands at those moves
    again from the moves kept."""
    from textual.widgets import Static

    def shown(screen: Any) -> tuple[str, str]:
        hand = screen.query_one(cards, Static)
        return str(hand.parent.border_title), str(hand.render())

    async def ann_decides(pilot: Any, screen: Any) -> None:
        """Until the table waits on Ann's keys: notices closed, a list that opened by
        itself put away (the decision stays)."""
        app = pilot.app
        for _ in range(500):
            if isinstance(app.screen, NoticeScreen):
                await pilot.press("enter")
            elif isinstance(app.screen, ChoiceScreen):
                await pilot.press("escape")
            elif app.screen is screen and screen.awaiting == 0:
                await pilot.pause()
                if app.screen is screen:
                    return
            await pilot.pause(0.02)
        raise AssertionError(f"Ann was never asked; screen {app.screen!r}")

    live: tuple[str, str] | None = None
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app._game(setup, leave="pop")
        await app.push_screen(screen)
        rng = random.Random(4)
        for _ in range(60):  # the person's decisions, until one shows new cards
            await ann_decides(pilot, screen)
            if new in " ".join(shown(screen)):
                live = shown(screen)
                break
            screen.perform(0, rng.choice(screen.session.legal(0)))
        assert live is not None, "no new cards came into Ann's hand"
    again = _app()
    async with again.run_test(size=SIZE) as pilot:
        await _continue(pilot)
        await until(pilot, lambda: not isinstance(again.screen, MenuScreen), "the table")
        table = next(s for s in again.screen_stack if hasattr(s, "awaiting"))
        await ann_decides(pilot, table)
        assert shown(table) == live


def test_the_picker_says_how_far_a_kept_game_went_and_when_it_was_left() -> None:
    from cakeparty.tui.screens.menu import ago, kept_detail

    now = 1_800_000_000.0
    assert kept_detail(kept.Offer("cake-duel", False, now - 3 * 3600 - 59, 40), now) == (
        "40 moves · 3 hours ago"
    )
    assert kept_detail(kept.Offer("cake-duel", True, now - 61, 1), now) == "1 move · 1 minute ago"
    assert kept_detail(kept.Offer("cake-duel", False, 0.0, 0), now) == ""  # nothing known
    assert [ago(s) for s in (-30, 0, 59, 119, 3599, 3600, 86399, 2 * 86400)] == [
        "just now",  # a clock set back since
        "just now",
        "just now",
        "1 minute ago",
        "59 minutes ago",
        "1 hour ago",
        "23 hours ago",
        "2 days ago",
    ]


def test_a_kept_file_s_time_and_moves_are_only_told_never_trusted() -> None:
    data = _good()
    lies = ((float("nan"), "many"), ("yesterday", None), (1e308, {}), (10**400, 7))
    for saved, moves in lies:
        _write({**data, "saved": saved, "moves": moves})
        (offer,) = kept.peek()  # still offered: the menu only tells these
        assert offer.moves == 0 and offer.saved in (0.0, 1e308)
        assert kept.load("cake-duel") is None  # and not a game to continue


async def test_a_detail_too_long_for_its_label_s_line_goes_under_it(config_dir: Path) -> None:
    """In a list of choices a detail that does not fit beside its label starts a line of
    its own under it, not cut off at the list's edge (the kept games' picker in Spanish:
    "Seguir con Batalla de Galletas contra bots  80 jugadas · hace 3 horas")."""
    short = Choice("Resume Cake Duel against bots", 1, "5 moves · 31 minutes ago")
    long = Choice("Resume Cookies Battle against bots, a long label", 2, "80 moves · 3 hours ago")
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ChoiceScreen("Which game?", [short, long]))
        await until(
            pilot,
            lambda: isinstance(app.screen, ChoiceScreen) and bool(app.screen.query(OptionList)),
            "the list",
        )
        prompts = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert prompts == [
            "1. Resume Cake Duel against bots  5 moves · 31 minutes ago",
            "2. Resume Cookies Battle against bots, a long label\n   80 moves · 3 hours ago",
        ]
        await pilot.press("2")
        await until(pilot, lambda: not isinstance(app.screen, ChoiceScreen), "the choice")


async def test_a_kept_game_another_window_plays_is_neither_continued_nor_written_over(
    config_dir: Path,
) -> None:
    """Another process of the same player (a second window, tab or SSH session) plays the
    kept duel: the menu's continue says so and opens nothing; a new duel asks nothing,
    starts, and is not kept, the other window's game left as it was. Once that window is
    gone, this app's game holds the kept game while it is on screen, and lets it go."""
    duel = _keep("cake-duel", 2, 16)
    before = kept.path("cake-duel").read_bytes()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from cakeparty.tui.table import kept\n"
            "kept.lock('cake-duel').acquire()\n"
            "print('held', flush=True)\n"
            "sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        app = _app()
        async with app.run_test(size=SIZE) as pilot:
            await _continue(pilot)
            await until(pilot, lambda: app._notifications, "the notice")
            (notice,) = [n.message for n in app._notifications]
            assert notice == "Your game of Cake Duel is open in another window: continue it there."
            assert isinstance(app.screen, MenuScreen)
            app.clear_notifications()
            await _new_duel_from_the_menu(pilot)
            game = await settle(pilot)
            assert isinstance(game, DuelScreen) and game.keeping is None
            assert [n.message for n in app._notifications] == [
                "Another window of yours is playing Cake Duel: this game is not kept to be "
                "continued later."
            ]
            table = game.session
            assert isinstance(table, LocalTable) and game.awaiting == 0
            game._act(table.legal(0)[0])
            await until(pilot, lambda: any(s == 0 for s, _a in table.moves), "Ann's move")
            assert kept.path("cake-duel").read_bytes() == before
            assert _offered() == [duel]
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    lock = kept.lock("cake-duel")
    assert not lock.held()
    app = _app()
    async with app.run_test(size=SIZE) as pilot:
        await _continue(pilot)
        game = await settle(pilot)
        assert isinstance(game, DuelScreen) and game.keeping == "cake-duel"
        assert lock.held()
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")
        assert not lock.held()


async def test_a_new_game_after_the_end_is_kept_in_the_old_one_s_place(config_dir: Path) -> None:
    """d after a kept game's end: the new game is kept by the same window (the old screen
    hands the kept game over), with nothing said of another window."""
    from cakeparty.tui.table.results import EndScreen

    app = _app()
    rng = random.Random(6)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(app._game(GameSetup("cake-duel", 2, bots="random", seed=3), leave="pop"))
        for _ in range(400):
            screen = await settle(pilot)
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, DuelScreen) and screen.awaiting is not None:
                table = screen.session
                assert isinstance(table, LocalTable)
                screen._act(rng.choice(table.legal(screen.awaiting)))
            elif isinstance(screen, ChoiceScreen | NoticeScreen):
                await pilot.press("enter")
        else:
            raise AssertionError("the duel did not end")
        old = app.screen_stack[-2]
        assert isinstance(old, DuelScreen) and old.keeping == "cake-duel"
        assert not kept.path("cake-duel").exists()  # an ended game is forgotten
        app.clear_notifications()
        await pilot.press("d")
        fresh = await settle(pilot)
        assert isinstance(fresh, DuelScreen) and fresh is not old
        assert fresh.keeping == "cake-duel" and not fresh.kept_elsewhere
        assert not [n.message for n in app._notifications if "Another window" in n.message]
        assert kept.path("cake-duel").exists() and kept.lock("cake-duel").held()

"""Bot levels come from the game (``bot_levels``): ``strong`` is offered wherever a game
can be searched — in the setup form, the settings, ``play --bots``, the lobby and ``bot
--level`` — with a thinking time from the settings, and the table says when a bot thinks."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from cakeparty.core import Action, get_game
from cakeparty.core import game as core_game
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui import cli
from cakeparty.tui import settings as saved
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.games.cake_of_doom.screen import DoomScreen
from cakeparty.tui.screens.lobby_parts import seat_line
from cakeparty.tui.screens.menu import SetupScreen
from cakeparty.tui.screens.settings import SettingsScreen
from cakeparty.tui.settings import Settings, load, offered_level
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.widgets import Cycler, StatusBar
from tests.tui.pilot import SIZE, make_app, until

GAME = "cake-duel"
NORMAL = get_game(GAME).bots["normal"]


class StrongBots:
    """Stands in for the search: the strong bots made (with their thinking time), each
    playing its game's normal strategy."""

    def __init__(self) -> None:
        self.thinks: list[float] = []
        self.clocks: list[Any] = []  # None: the wall clock
        self.release: threading.Event | None = None  # set: the bot decides
        self.deciding = threading.Event()
        self.decisions = 0

    def __call__(self, game: Any, think: float, clock: Any = None) -> Any:
        self.thinks.append(think)
        self.clocks.append(clock)

        def strong(view: Any, rng: random.Random) -> Action:
            self.decisions += 1
            self.deciding.set()
            if self.release is not None:
                assert self.release.wait(30), "the test never let the bot decide"
            return normal(view, rng)

        normal = game.bots["normal"]
        return strong


@pytest.fixture
def strong(monkeypatch: pytest.MonkeyPatch) -> StrongBots:
    """Every game can be searched (it draws worlds), so each offers ``strong``."""
    bots = StrongBots()
    for name in core_game.game_names():
        game = type(get_game(name))
        monkeypatch.setattr(game, "determinize", lambda self, view, rng: None)
    monkeypatch.setattr("cakeparty.core.search.strong_bot", bots)
    return bots


# -- the levels and the settings -----------------------------------------------------------


def test_a_searchable_game_offers_strong_after_its_own_levels(strong: StrongBots) -> None:
    levels = core_game.bot_levels(get_game(GAME))
    assert levels[-1] == "strong" and set(levels) >= {"random", "normal"}
    assert set(levels) <= set(saved.BOT_LEVELS)


def test_the_setting_s_level_falls_back_to_one_the_game_offers() -> None:
    assert offered_level(("random", "normal", "strong"), "strong") == "strong"
    assert offered_level(("random", "normal"), "strong") == "normal"
    assert offered_level(("random", "normal"), "random") == "random"
    assert offered_level(("random",), "strong") == "random"
    assert offered_level(("random", "normal"), "godlike") == "normal"


def test_the_thinking_time_is_saved_read_and_kept_in_bounds(config_dir: Path) -> None:
    assert Settings().bot_think == saved.DEFAULT_THINK == core_game.DEFAULT_THINK
    saved.save(Settings(name="Ann", bot_level="strong", bot_think=2.0))
    assert load() == Settings(name="Ann", bot_level="strong", bot_think=2.0)
    data = json.loads((config_dir / "settings.json").read_text())
    assert data["bot_think"] == 2.0 and data["bot_level"] == "strong"
    (config_dir / "settings.json").write_text(json.dumps({"bot_think": "long", "name": "Bo"}))
    assert load().bot_think == saved.DEFAULT_THINK
    assert Settings(bot_think=900).bot_think == 60.0
    assert Settings(bot_think=0).bot_think == 0.1
    assert Settings(bot_level="godlike").bot_level == "normal"


async def test_the_settings_form_sets_the_level_and_the_thinking_time() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        form = app.screen
        assert isinstance(form, SettingsScreen)
        cyclers = {c.name: c for c in form.query(Cycler)}
        assert [v for _, v in cyclers["bot_level"].choices] == list(saved.BOT_LEVELS)
        assert [v for _, v in cyclers["bot_think"].choices] == list(saved.THINK_TIMES)
        await pilot.press("down", "right", "down", "down", "right", "right")  # strong, 5 s
        assert form.edited.bot_level == "strong" and form.edited.bot_think == 5.0
        await pilot.press("enter")
        assert app.settings.bot_level == "strong" and app.settings.bot_think == 5.0


# -- local games ---------------------------------------------------------------------------


async def test_the_setup_form_offers_strong_with_the_settings_thinking_time(
    strong: StrongBots,
) -> None:
    app = make_app(bot_level="strong", bot_think=2.0)
    async with app.run_test(size=SIZE) as pilot:
        form = SetupScreen(False, app.settings.bot_level, game=GAME)
        await app.push_screen(form)
        await pilot.pause()
        bots = next(c for c in form.query(Cycler) if c.name == "bots")
        assert [v for _, v in bots.choices] == list(core_game.bot_levels(get_game(GAME)))
        assert bots.value == "strong"
        assert form.setup.bots == "strong" and form.setup.think == 2.0


def test_a_local_strong_bot_thinks_as_long_as_the_setup_says(strong: StrongBots) -> None:
    table = LocalTable(GameSetup(game=GAME, bots="strong", think=0.5, seed=3), "Ann")
    while table.to_act != 1:
        seat = table.to_act
        assert seat == 0
        table.act(0, NORMAL(table.view(0), random.Random(0)))
    assert table.bot_choice(1) in table.legal(1)
    assert strong.thinks == [0.5]
    assert strong.clocks == [None]  # a player waits on the wall clock


def test_a_level_the_game_does_not_offer_is_refused_with_the_ones_it_does() -> None:
    with pytest.raises(ValueError, match="no bot level called godlike") as error:
        LocalTable(GameSetup(game=GAME, bots="godlike"))
    for level in core_game.bot_levels(get_game(GAME)):
        assert level in str(error.value)


LISTED = "'godlike' is not a bot level (choose from random, normal, strong)"
#: simulate's LEVEL@SECONDS, where one level serves every bot: the time has a flag of its own
THINK = "'strong@2' is not a bot level: give the thinking time with --think 2"
BROKER = ["--room", "ABCD", "--broker", "mqtt://127.0.0.1:1"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", GAME, "--bots", "godlike"], LISTED),
        (["bot", GAME, *BROKER, "--level", "godlike"], LISTED),
        (["selfplay", GAME, "--broker", "mqtt://127.0.0.1:1", "--level", "godlike"], LISTED),
        (["play", GAME, "--bots", "strong@2"], THINK),
        (["bot", GAME, *BROKER, "--level", "strong@2"], THINK),
    ],
)
def test_a_wrong_level_on_the_command_line_says_what_to_give(
    argv: list[str], says: str, strong: StrongBots, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("think", ["0", "-1", "many", "61"])
def test_a_wrong_thinking_time_is_refused(think: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", GAME, "--think", think])
    assert exit_info.value.code == 2
    assert "--think" in capsys.readouterr().err


def test_play_takes_the_level_and_thinking_time_from_the_line_or_the_settings(
    opened: list[Any], strong: StrongBots, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = opened
    saved.save(Settings(name="Ann", bot_level="strong", bot_think=5.0))
    assert cli.main(["play", GAME]) == 0
    assert cli.main(["play", GAME, "--bots", "strong", "--think", "0.5"]) == 0
    assert cli.main(["play", GAME, "--bots", "random"]) == 0
    first, second, third = started
    assert first is not None and (first.bots, first.think) == ("strong", 5.0)
    assert second is not None and (second.bots, second.think) == ("strong", 0.5)
    assert third is not None and third.bots == "random"


@pytest.mark.parametrize(
    ("game", "players", "screen_of"), [(GAME, 2, DuelScreen), ("cake-of-doom", 3, DoomScreen)]
)
async def test_the_table_says_a_slow_bot_is_thinking_and_its_move_lands(
    game: str, players: int, screen_of: Any, strong: StrongBots
) -> None:
    """A bot that takes its time (until the test lets it decide): the status line names
    it while it thinks, the app answers keys meanwhile, and then its move is played —
    with no delay before bots' moves too (Cake of Doom plays those at once)."""
    strong.release = threading.Event()
    table = LocalTable(GameSetup(game=game, players=players, bots="strong", seed=5), "Ann")
    normal = get_game(game).bots["normal"]
    while (seat := table.to_act) == 0:
        table.act(0, normal(table.view(0), random.Random(0)))
    assert seat is not None
    thinking = f"{table.names[seat]} is thinking…"
    moves = len(table.match.history)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(table, bot_delay=0)
        await app.push_screen(screen)
        status = screen.query_one(StatusBar)
        await until(pilot, lambda: status.text == thinking, "the thinking notice")
        assert len(table.match.history) == moves and strong.deciding.is_set()
        await pilot.press("pagedown")  # the app answers while the bot thinks
        await pilot.press("question_mark")
        assert app.screen is not screen  # the rules opened
        await pilot.press("escape")
        assert app.screen is screen
        strong.release.set()
        await until(pilot, lambda: len(table.match.history) > moves, "the bot's move")
        assert table.match.history[moves][0] == seat
        await until(pilot, lambda: screen.thinking is None, "the notice to go")


async def test_a_bot_still_thinking_when_the_app_closes_plays_nothing(
    strong: StrongBots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app closes while a bot thinks, and the bot decides just then (the app no longer
    running, its screens still there): its move is not played, and nothing is drawn on a
    table whose widgets are going."""
    strong.release = threading.Event()
    table = LocalTable(GameSetup(game="cake-of-doom", players=3, bots="strong", seed=5), "Ann")
    normal = get_game("cake-of-doom").bots["normal"]
    while table.to_act == 0:
        table.act(0, normal(table.view(0), random.Random(0)))
    moves = len(table.match.history)
    app = make_app()
    close_all = app._close_all  # the shutdown's removal of every screen

    async def decided_as_the_app_closes() -> None:
        assert not app.is_running
        strong.release.set()
        await until(pilot, lambda: not screen.bot_busy, "the bot's decision to land")
        await close_all()

    monkeypatch.setattr(app, "_close_all", decided_as_the_app_closes)
    async with app.run_test(size=SIZE) as pilot:
        screen = DoomScreen(table, bot_delay=0)
        await app.push_screen(screen)
        await until(pilot, lambda: strong.deciding.is_set(), "the bot to think")
    assert strong.release.is_set() and len(table.match.history) == moves


# -- networked bots ------------------------------------------------------------------------


def _hosting_a_bot(tmp_path: Path, level: str = "strong", **options: Any) -> RoomRunner:
    """Ann's room runner, not seated, hosting a two-seat room with one bot (strong unless
    ``level`` says otherwise)."""
    return RoomRunner(
        broker=BrokerAddress("127.0.0.1", 1),
        identity=Identity.generate("Ann"),
        room="ABCDEF",
        host=HostSetup(GAME, 2, bots=[level]),
        seated=False,
        journal_dir=tmp_path,
        **options,
    )


def test_a_host_seats_strong_bots_that_think_as_long_as_it_says(
    strong: StrongBots, tmp_path: Path
) -> None:
    runner = _hosting_a_bot(tmp_path, bot_think=2.0)
    assert len(runner.bots) == 1 and strong.thinks == [2.0] and strong.clocks == [None]


def test_a_bot_seat_in_the_lobby_names_its_level_in_the_player_s_language() -> None:
    from cakeparty.protocol.lobby import Seat

    seat = Seat(b"\x01" * 32, "Muffin", True, True)
    line = seat_line(0, seat, me=b"\x02" * 32, host=b"\x02" * 32, online=True, bot_level="strong")
    assert "bot (strong)" in str(line)


def test_a_bot_in_a_process_of_its_own_is_shown_as_a_bot_online_or_not() -> None:
    from cakeparty.protocol.lobby import Seat

    me = b"\x02" * 32
    own = Seat(b"\x01" * 32, "Crumb", False, True, True, "strong")
    line = str(seat_line(0, own, me=me, host=me, online=False))
    assert "bot (strong) · offline · ready" in line and "person" not in line
    # a level this app does not know is not looked up: only "bot"
    odd = str(seat_line(0, Seat(b"\x01" * 32, "Crumb", own_bot="quit"), me=me, host=me))
    assert " bot · online" in odd and "quit" not in odd
    person = str(seat_line(0, Seat(b"\x01" * 32, "Ana"), me=me, host=me))
    assert "person · online" in person


def _waiting_on_the_bot(runner: RoomRunner) -> GameSession:
    """The host's game session of ``runner``'s one bot against Bob (played here by the
    normal strategy, envelopes handed over in memory), at the bot's first move."""
    (bot,) = (ident for ident, _bot in runner.bots.values())
    bob = Identity.generate("Bob")
    table = Table.of(
        "ABCDEF", GAME, [(bot.player_id, bot.name), (bob.player_id, bob.name)], timeout=60
    )
    here, there = GameSession(table, [bot]), GameSession(table, [bob])
    runner.session = here
    rng = random.Random(2)

    def deliver() -> None:
        for _round in range(50):
            moved = False
            for one, other in ((here, there), (there, here)):
                batch, one.outbox[:] = list(one.outbox), []
                for data in batch:
                    moved = True
                    other.receive(data, 0.0)
            if not moved:
                return

    deliver()
    while not here.due():
        (peer, view) = there.due()[0]
        peer.act(NORMAL(view, rng))
        deliver()
    return here


async def test_a_host_s_strong_bot_thinks_off_the_event_loop_and_then_moves(
    strong: StrongBots, tmp_path: Path
) -> None:
    """While a strong bot run by a host decides, the host's event loop (its app) goes
    on, and a second look at the room does not start a second decision."""
    strong.release = threading.Event()
    runner = _hosting_a_bot(tmp_path)
    here = _waiting_on_the_bot(runner)
    moves = len(here.peers[0].history)
    thinking = asyncio.create_task(runner._play_bots(here, 0.0))
    ticks = 0
    while not strong.deciding.is_set() and ticks < 2000:
        await asyncio.sleep(0.01)
        ticks += 1
    assert strong.deciding.is_set() and not thinking.done()
    await runner._play_bots(here, 0.0)  # the room looked at again meanwhile
    assert strong.decisions == 1 and len(here.peers[0].history) == moves
    strong.release.set()
    await asyncio.wait_for(thinking, 30)
    assert strong.decisions == 1 and len(here.peers[0].history) > moves


@pytest.mark.parametrize("failure", ["raises", "no move"])
async def test_a_host_s_bot_that_fails_plays_at_random_that_once_and_says_so(
    failure: str, tmp_path: Path
) -> None:
    """A bot run by the host that raises, or answers with something its seat refuses as
    no legal move, neither stops the room nor leaves it waiting: it plays a legal move at
    random that once, and the room says so."""
    runner = _hosting_a_bot(tmp_path, "normal")
    (ident, _bot) = next(iter(runner.bots.values()))

    def broken(view: Any, rng: random.Random) -> Any:
        if failure == "raises":
            raise RuntimeError("out of cake")
        return "a slice"

    runner.bots[ident.player_id] = (ident, broken)
    here = _waiting_on_the_bot(runner)
    (peer, _view) = here.due()[0]
    moves = len(peer.history)
    await runner._play_bots(here, 0.0)
    # its one move (a card it draws may follow, the dealer's, seat None)
    made = [seat for seat, _action in peer.history[moves:] if seat is not None]
    assert made == [peer.seat]
    events = []
    while not runner.events.empty():
        events.append(runner.events.get_nowait())
    (stumbled,) = [e for e in events if e.kind == "stumbled"]
    seat, problem = stumbled.data
    assert seat == peer.seat
    assert ("RuntimeError: out of cake" if failure == "raises" else "a slice") in problem


def test_bot_takes_a_strong_level_and_its_thinking_time(
    strong: StrongBots, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made: list[dict[str, Any]] = []

    class Stopped(Exception):
        pass

    def runner(**kwargs: Any) -> None:
        made.append(kwargs)
        raise Stopped

    monkeypatch.setattr("cakeparty.protocol.network.RoomRunner", runner)
    base = ["bot", GAME, "--room", "ABCDEF", "--broker", "mqtt://127.0.0.1:1"]
    for argv in ([*base, "--level", "strong", "--think", "0.5"], base):
        with pytest.raises(Stopped):
            cli.main(argv)
    assert [(m["bot"], m["bot_think"]) for m in made] == [
        ("strong", 0.5),
        ("normal", core_game.DEFAULT_THINK),
    ]

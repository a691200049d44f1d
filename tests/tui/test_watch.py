"""Watching by keyboard: the watch screen (the log live, then the replay face up), the
join screen's watch entry, ``cakeparty watch`` opening the screen, and the lobby's count
of those watching."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from cakeparty.broker.embedded import free_port
from cakeparty.core import get_game
from cakeparty.core.errors import CakePartyError
from cakeparty.core.games.cake_duel.text import card_list
from cakeparty.core.match import new_match
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity, fingerprint
from cakeparty.protocol.lobby import OPEN, PLAYING, Advert, Seat
from cakeparty.protocol.spectator import Spectator, SpectatorRunner, WatchEvent
from cakeparty.protocol.transport import BrokerAddress
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cookies_battle.lines import board
from cakeparty.tui.games.cookies_battle.scores import assembly_lines, tie_line
from cakeparty.tui.netroom import HostPlan, JoinPlan, JoinSearch, RoomFound, WatchPlan
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.rooms import JoinScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.results import ReplayScreen
from cakeparty.tui.table.watch import WATCH_KEYS, WatchScreen
from cakeparty.tui.watchcli import _cmd_watch

from ..protocol.test_spectator import Watched, watched
from .languages import screen_lines
from .pilot import SIZE, make_app, until

BROKER = "mqtt://127.0.0.1:1"


class FakeRunner:
    """A spectator runner the test feeds by hand: the room's envelopes, then its events."""

    def __init__(self, match: Watched) -> None:
        table = match.table
        self.match = match
        self.identity = Identity.generate("Watcher", seeded_random_bytes(b"watcher"))
        self.events: asyncio.Queue[WatchEvent] = asyncio.Queue()
        self.spectator: Spectator | None = None
        self.online: dict[bytes, bool] = {}
        self.code = table.room
        taken = tuple(
            Seat(p, n, True, True) for p, n in zip(table.players, table.names, strict=True)
        )
        self.advert = Advert(
            room=table.room, game=table.game, host=table.players[0], host_name=table.names[0],
            seats=table.seats, taken=taken, state=PLAYING, table=table,
        )  # fmt: skip
        self.stopped = asyncio.Event()

    async def run(self) -> None:
        await self.stopped.wait()

    def stop(self) -> None:
        self.stopped.set()


async def test_the_watch_screen_shows_the_log_live_then_the_replay_face_up() -> None:
    match = Watched("cake-master", 2, 5)
    match.leaks = []
    runner = FakeRunner(match)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = WatchScreen(runner.code, BROKER, runner=runner)
        app.push_screen(screen)
        await pilot.pause()
        status = screen.query_one("#watch-status")
        assert "has not started" in status.text
        waiting = str(screen.query_one("#watch-seats").render())
        assert waiting.count("· bot") == 2  # the advert's seats, both bots here
        # the table is known: the spectator follows the log from its first step
        spectator = Spectator(match.table, runner.identity)
        runner.spectator = spectator
        match.spectator = spectator
        match.hear(match.peers[0].envelopes_since(0))
        runner.events.put_nowait(WatchEvent("started"))
        await until(pilot, lambda: screen.watch is not None, "the table")
        seats = str(screen.query_one("#watch-seats").render())
        # both choose at once (sealed): each seat's line says the room waits on its move
        assert "Seat 1" in seats and seats.count("· to move") == 2
        bot = get_game("cake-master").bots["random"]
        rng = random.Random(5)
        moves = 0
        while not match.peers[0].finished and moves < 2:
            movers = [p for p in match.peers if p.seat in p.waiting_for and p.step.kind in (
                "action", "choice-commit")]  # fmt: skip
            movers[0].act(bot(movers[0].view(), rng))
            match.pump()
            moves += 1
        runner.events.put_nowait(WatchEvent("moved"))
        await pilot.pause()
        live = screen.log_view.plain
        assert len(live) > 1  # the game's public events, in its own words
        assert screen.check_action("replay", ()) is False  # no replay while it goes on
        assert "Waiting for" in status.text or "Working" in status.text
        # the game ends; the audit is fair: r replays it face up
        match.play([bot, bot], rng)
        runner.events.put_nowait(WatchEvent("finished"))
        await until(pilot, lambda: screen.told_verdict, "the verdict")
        assert match.leaks == []
        assert "audit: fair" in status.text
        assert any("fair" in line for line in screen.log_view.plain)
        # every placement in one short line, as the players' log tells it
        names = screen.watch.names if screen.watch else ()
        placed = [line for line in screen.log_view.plain if "→ cake" in line]
        assert len(placed) == 2 * 12, placed  # two seats, twelve turns
        assert all(line.split(": ")[0] in names for line in placed), placed
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        lines = screen.watch.replay_lines() if screen.watch else []
        assert lines and replay.plain == [text for _kind, text in lines]
        assert any(kind == "truth" for kind, _text in lines)  # what was hidden, face up
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert app.screen.keys == WATCH_KEYS
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back to watching")
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is not screen and runner.stopped.is_set()


def panel(lines: list[str], title: str) -> list[str]:
    """The rows inside the panel whose top border names ``title``, on the screen (each
    with the panel's padding, its end stripped)."""
    top = next(i for i, row in enumerate(lines) if f"╭─ {title} " in row)
    left = lines[top].index(f"╭─ {title} ")
    right = lines[top].index("╮", left)
    rows = []
    for row in lines[top + 1 :]:
        if row[left] == "╰":
            return rows
        rows.append(row[left + 1 : right].rstrip())
    raise AssertionError(f"the {title} panel has no bottom border:\n" + "\n".join(lines))


@contextlib.asynccontextmanager
async def watching(
    match: Watched, spectator: Spectator
) -> AsyncIterator[tuple[Pilot[Any], WatchScreen, FakeRunner]]:
    """The watch screen of ``match`` at 80×24, its runner fed by hand, the table not yet
    told to it."""
    runner = FakeRunner(match)
    runner.spectator = spectator
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = WatchScreen(runner.code, BROKER, runner=runner)
        app.push_screen(screen)
        await pilot.pause()
        yield pilot, screen, runner


def whole_board(app: Any, screen: WatchScreen) -> list[str]:
    """The board's rows on screen, checked whole: the panel shows every row of the
    board's text (none cut, each within the width), and the log keeps rows of its own."""
    lines = screen_lines(app)
    board = panel(lines, "Table")
    drawn = str(screen.query_one("#watch-board", Static).render()).splitlines()
    assert len(board) == len(drawn)
    assert [row.rstrip() for row in drawn] == [row[1:] for row in board]  # a space's padding
    assert len(panel(lines, "Log")) >= 3
    return board


#: A public fact of each game's view that its board must show (and that changes as the
#: game goes on), and the seats that make its board tallest.
BOARDS: dict[str, tuple[int, int, Any]] = {
    "cake-duel": (4, 14, lambda v: f"deck {v.deck_count} · discard {v.discard_count}"),
    "cookies-battle": (6, 30, lambda v: f"trick {v.trick_no}/8"),
    "cake-of-doom": (6, 66, lambda v: f"piles {v.cake_pile}/{v.mischief_pile}"),
    "cake-master": (6, 40, lambda v: f"turn {v.turn_in_round}/4"),
}


@pytest.mark.parametrize("game", list(BOARDS))
async def test_the_watch_screen_draws_the_public_table_and_keeps_it_live(game: str) -> None:
    players, moves, fact = BOARDS[game]
    match, spectator = watched(game, players, 7)
    bots = [get_game(game).bots["normal"]] * players
    rng = random.Random(7)
    with pytest.raises(CakePartyError, match="no outcome"):
        match.play(bots, rng, max_moves=moves)  # stopped mid-game
    async with watching(match, spectator) as (pilot, screen, runner):
        app = pilot.app
        assert screen.query_one("#watch-board").display is False  # no table known yet
        runner.events.put_nowait(WatchEvent("started"))
        await until(pilot, lambda: screen.watch is not None, "the table")
        assert screen.watch is not None
        said = fact(screen.watch.view(None))
        await until(pilot, lambda: said in "\n".join(screen_lines(app)), "the board")
        board = whole_board(app, screen)
        assert len(board) >= players + 2
        if game == "cake-of-doom":
            assert any("bribes" in row for row in board)  # its tallest: a bribe on the table
        text = "\n".join(board)
        assert all(name[:8] in text for name in screen.watch.names)  # every seat's row
        # the game goes on: the board follows it
        with pytest.raises(CakePartyError, match="no outcome"):
            match.play(bots, rng, max_moves=8)
        runner.events.put_nowait(WatchEvent("moved"))
        later = fact(screen.watch.view(None))
        await until(
            pilot, lambda: later in "\n".join(panel(screen_lines(app), "Table")), "the move"
        )
        whole_board(app, screen)


async def test_a_spectator_s_help_shows_the_cards_of_the_variant_watched() -> None:
    """? on the watch screen of a two-player Cookies Battle (the duel) opens the duel's
    cards: two colours and the gold of five values, no markers."""
    match, spectator = watched("cookies-battle", 2, 7)
    async with watching(match, spectator) as (pilot, screen, runner):
        app = pilot.app
        runner.events.put_nowait(WatchEvent("started"))
        await until(pilot, lambda: screen.watch is not None, "the table")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen) and help_screen.keys == WATCH_KEYS
        await until(pilot, lambda: "Specials" in "\n".join(screen_lines(app)), "the cards")
        text = " ".join(" ".join(screen_lines(app)).split())
        assert "1 6 8 10 12" in text and "Theft" not in text and "1–12" not in text, text


async def test_the_players_panel_shows_each_fingerprint_whole_or_its_start_never_cut() -> None:
    """At 80 columns the panel (at most 45% of the screen) has no room for a whole
    fingerprint beside "Seat 1 · to move": each row shows its first two groups, the same
    form on every row; where there is room, the whole of it. None is cut mid-group."""
    match, spectator = watched("cake-master", 3, 7)
    async with watching(match, spectator) as (pilot, screen, runner):
        app = pilot.app
        people = tuple(replace(seat, bot=False) for seat in runner.advert.taken)
        runner.advert = replace(runner.advert, taken=people)  # no "bot" on their rows
        runner.events.put_nowait(WatchEvent("started"))
        await until(pilot, lambda: screen.watch is not None, "the table")
        watch = screen.watch
        assert watch is not None

        def rows() -> list[str]:
            return panel(screen_lines(app), "Players")[: len(watch.names)]

        def forms() -> set[int]:
            return {len(row.split("  ")[-1].strip()) for row in rows()}

        for width, form in ((80, 9), (150, 19)):
            await pilot.resize_terminal(width, SIZE[1])
            await until(pilot, lambda f=form: forms() == {f}, f"the rows at {width} columns")
            for seat, row in enumerate(rows()):
                assert "…" not in row, row
                assert row.strip().startswith(f"{watch.names[seat]} · to move"), row
                whole = fingerprint(watch.table.players[seat])
                assert whole.startswith(row.split("  ")[-1].strip()), (row, whole)


#: The fewest seats of each game, and what its board says once the game is over.
ENDS: dict[str, tuple[int, str]] = {
    "cake-duel": (2, "Game over"),
    "cookies-battle": (3, "★ wins"),  # the final scores, the winner's marked
    "cake-of-doom": (3, "game over"),
    "cake-master": (2, "turn 4/4"),
}


@pytest.mark.parametrize("game", list(ENDS))
async def test_the_watch_screen_draws_how_the_game_ended(game: str) -> None:
    players, ended = ENDS[game]
    match, spectator = watched(game, players, 8)
    match.play([get_game(game).bots["normal"]] * players, random.Random(8))
    async with watching(match, spectator) as (pilot, screen, runner):
        runner.events.put_nowait(WatchEvent("started"))
        runner.events.put_nowait(WatchEvent("finished"))
        await until(pilot, lambda: screen.told_verdict, "the verdict")
        await pilot.pause()
        board = whole_board(pilot.app, screen)
        assert any(ended in row for row in board)


def hidden_specials_by_duel(match: Watched) -> list[tuple[str, ...]]:
    """Each duel's hidden specials as a seat's own audit found them: its face-up replay
    told as its story (each duel won with the cards of that duel), the last duel's checked
    against the cards of the replay's final state."""
    from cakeparty.tui.games.cake_duel.chronicle import Chronicle, duel_specials, hidden_specials

    verdict = match.peers[0].verdict
    assert verdict is not None and verdict.fair and verdict.replay is not None
    replayed = verdict.replay
    story = Chronicle(replayed.game, match.table.seats, match.table.option_map, replayed.dealer)
    found = duel_specials(story.follow(replayed.history))
    assert found[-1] == hidden_specials(replayed.state, replayed.dealer)
    return found


@pytest.mark.parametrize(("players", "tournament"), [(2, False), (4, False), (2, True)])
async def test_a_duel_s_end_names_its_hidden_specials_to_a_spectator(
    players: int, tournament: bool
) -> None:
    """Once the game is over and the audit fair, the spectator's board names the hidden
    specials in the players' words, in place of how many there were; a tournament's,
    those of each duel."""
    match = Watched("cake-duel", players, 8, {"tournament": tournament})
    match.leaks = []
    spectator = Spectator(match.table, Identity.generate("Watcher", seeded_random_bytes(b"w")))
    match.spectator = spectator
    match.hear(match.peers[0].envelopes_since(0))
    match.play([get_game("cake-duel").bots["random"]] * players, random.Random(8))
    duels = hidden_specials_by_duel(match)
    assert duels and all(duels)
    if tournament:
        assert len(duels) >= 3 and len(set(duels)) > 1  # each duel its own specials
        said = [
            f"The hidden specials of duel {n} were {card_list(cards)}"
            for n, cards in enumerate(duels, 1)
        ]
    else:
        said = [f"The hidden specials were {card_list(duels[0])}"]
    async with watching(match, spectator) as (pilot, screen, runner):
        runner.events.put_nowait(WatchEvent("started"))
        await until(pilot, lambda: screen.watch is not None, "the table")
        assert screen.watch is not None and screen.watch.over
        runner.events.put_nowait(WatchEvent("finished"))
        await until(pilot, lambda: screen.told_verdict, "the verdict")
        await pilot.pause()
        board = whole_board(pilot.app, screen)
        assert [row.strip() for row in board if "hidden special" in row] == said, board
        assert any("Game over" in row for row in board)


def test_a_three_player_cookies_battle_ends_on_the_board_with_every_assembly_whole() -> None:
    """Three players' assemblies fit 80×24 whole: each goes on in a second row where it is
    longer than the board is wide."""
    from cakeparty.tui.games.cookies_battle.lines import BOARD_ROWS

    game = get_game("cookies-battle")
    width = SIZE[0] - 4
    longest = 0
    for seed in range(3):
        match = new_match("cookies-battle", 3, seed)
        match.play([game.bots["normal"]] * 3, random.Random(seed))
        view = match.view(None)
        names = [f"Player {seat + 1}" for seat in range(3)]
        text = board(SimpleNamespace(names=names, away=lambda seat: False), view, width).plain
        rows = text.splitlines()
        assert len(rows) <= BOARD_ROWS and all(len(row) <= width for row in rows)
        flowing = " ".join(row.strip() for row in rows)
        for line in assembly_lines(view.results, names):
            assert line in flowing
            longest = max(longest, len(line))
    assert longest > width  # one of them did take two rows


def test_a_six_player_cookies_battle_ends_on_the_board_with_every_assembly() -> None:
    """The tallest end a spectator's board draws: six players with a tie-break to tell,
    then how each player's pieces were put together, within the rows and columns 80×24
    leaves the board (the watch screen's height bound; its width, a space each side)."""
    game = get_game("cookies-battle")
    match = new_match("cookies-battle", 6, 0)
    match.play([game.bots["normal"]] * 6, random.Random(0))
    view = match.view(None)
    names = [f"Player {seat + 1}" for seat in range(6)]
    width = SIZE[0] - 4
    rows = board(
        SimpleNamespace(names=names, away=lambda seat: False), view, width
    ).plain.splitlines()
    assert len(rows) <= SIZE[1] - 8 and all(len(row) <= width for row in rows)
    assert tie_line(view.results, names, view.winners, view.tummy_ache) in rows
    for line in assembly_lines(view.results, names):  # each seat's, whole or cut short
        assert any(row == line or (row[-1] == "…" and line.startswith(row[:-1])) for row in rows)
    for name in names:  # its total, then its assembly
        assert sum(row.startswith(f"{name}: ") for row in rows) == 2


@pytest.mark.parametrize("language", ["en", "es", "pl"])
def test_an_advanced_cake_of_doom_board_shows_every_bonus_in_two_columns(language: str) -> None:
    """Eleven regions in two columns at 80×24: each row keeps its bonus's words whole, and a
    region's name too long for its column gives way to its short name, not to a cut one."""
    from cakeparty.core.games.cake_of_doom.cards import REGIONS
    from cakeparty.tui.games.cake_of_doom import lines
    from cakeparty.tui.games.cake_of_doom.parts import BONUS_SHORT, REGION_SHORT

    from .languages import speaking

    game = get_game("cake-of-doom")
    match = new_match("cake-of-doom", 6, 4, {"advanced": True})
    rng = random.Random(4)
    for _move in range(150):  # well into the game: regions held, a bribe on the table
        seat = match.to_act[0]
        match.apply(game.bots["normal"](match.view(seat), rng), seat)
    view = match.view(None)
    names = [f"Player {seat + 1}" for seat in range(6)]
    width = SIZE[0] - 4
    with speaking(language):
        from cakeparty.core.i18n import _

        rows = lines.board(
            SimpleNamespace(names=names, away=lambda seat: False), view, width
        ).plain.splitlines()
        assert all(len(row) <= width for row in rows)
        regions = [region.name for region in view.regions]
        assert len(regions) == 11
        for index, name in enumerate(regions):
            row = rows[1 + index % 6]  # the title, then the regions down the left, then the right
            half = row[: (width - 2) // 2] if index < 6 else row[(width - 2) // 2 + 2 :]
            assert _(BONUS_SHORT[name]) in half, (name, half)
            title, short = _(REGIONS[name].title), _(REGION_SHORT[name])
            assert half.startswith(title if len(title) <= 10 else short), (name, half)


def _room(code: str, state: str) -> RoomFound:
    advert = Advert(
        room=code, game="cake-duel", host=b"h" * 32, host_name="Ann", seats=2,
        taken=(Seat(b"a" * 32, "A"), Seat(b"b" * 32, "B")), state=state,
    )  # fmt: skip
    return RoomFound(code, BROKER, "cake-duel", advert)


async def test_the_join_screen_watches_the_room_under_the_cursor_with_w() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        chosen: list[JoinPlan | WatchPlan | None] = []
        # the rooms are made up here: no look by itself replaces them
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        screen.show_rooms([_room("AAAAAA", OPEN), _room("BBBBBB", PLAYING)])
        await pilot.pause()
        screen.query_one("#join-rooms").focus()
        await pilot.press("down", "w")
        await pilot.pause()
        assert chosen == [WatchPlan(_room("BBBBBB", PLAYING).code, BROKER)]  # its host pinned
        # a search made to watch (``cakeparty watch CODE``) watches what it finds
        chosen.clear()
        screen = JoinScreen(JoinSearch(room="AAAAAA", lan=False, watch=True, every=None))
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        screen.show_rooms([_room("AAAAAA", OPEN)])
        await pilot.pause()
        assert chosen == [WatchPlan(_room("AAAAAA", OPEN).code, BROKER)]


def test_cakeparty_watch_opens_the_watch_screen(monkeypatch: Any) -> None:
    opened: list[Any] = []
    monkeypatch.setattr("cakeparty.tui.watchcli._open", opened.append)
    from cakeparty.tui.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["watch", "k7qm2x", "--broker", "mqtt://example.org:1883"])
    _cmd_watch(args, parser)
    args = parser.parse_args(["watch", "K7QM2X"])
    _cmd_watch(args, parser)
    assert opened == [
        WatchPlan("K7QM2X", "mqtt://example.org:1883"),
        JoinSearch("K7QM2X", (), lan=True, watch=True),
    ]


async def test_a_watch_plan_opens_the_watch_screen_in_the_app() -> None:
    app = CakePartyApp(Settings(name="Ann"), WatchPlan("K7QM2X", BROKER), persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, WatchScreen), "the watch screen")
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        # nothing listens there: said on screen, never a crash
        await until(pilot, lambda: screen.failed is not None, "the broker's absence", 20)
        assert "q to leave" in screen.query_one("#watch-status").text
        await pilot.press("q")
        await pilot.pause()


async def test_the_lobby_counts_those_watching() -> None:
    plan = HostPlan(players=2, timeout=60, port=free_port(), lan=False)
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0), plan, persist=False)
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        room = lobby.room
        assert room is not None
        await until(pilot, lambda: room.connected and room.advert is not None, "the room")
        broker_box = lobby.query_one("#lobby-broker")
        assert "watching" not in str(broker_box.render())
        watcher = SpectatorRunner(
            broker=BrokerAddress.parse(f"mqtt://127.0.0.1:{plan.port}"),
            identity=Identity.generate("Watcher"),
            room=room.code,
        )
        watching = asyncio.create_task(watcher.run())
        try:
            await until(pilot, lambda: lobby.watching == 1, "one watching", 20)
            assert "1 watching" in str(broker_box.render())
        finally:
            watcher.stop()
            await asyncio.wait_for(watching, 10)
        # a spectator that leaves says so: the count goes down
        await until(pilot, lambda: lobby.watching == 0, "nobody watching", 20)
        assert "watching" not in str(broker_box.render())
        await pilot.press("q")

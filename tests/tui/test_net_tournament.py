"""A networked Cake Duel tournament at 80×24, hosted on the app's own broker against a bot
seat, played to its end: every duel that does not end the tournament ends with its dialog
(who won it, the score, the next duel, and that its hidden specials stay hidden until the
audit), the title line keeps the duel and the score, and the last dialog says the
tournament is over, who won it, and, the audit fair, every duel's hidden specials.

Ann claims one card at a time and challenges every claim, so bouts end fast; the random
bot does the rest. The deck is shuffled by the peers' own secret randomness, as in any
networked game, so each run deals differently; what is asserted holds for every deal.
"""

from __future__ import annotations

import random
import time
from typing import Any

from textual.widget import Widget

from cakeparty.broker.embedded import free_port
from cakeparty.core import Action, Forfeited, get_game
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import Challenge, Claim, KeepHidden
from cakeparty.core.games.cake_duel.text import card_list
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.chronicle import duel_specials
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.games.cake_duel.parts import title_line
from cakeparty.tui.games.cake_duel.screen import TournamentScreen
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.dialogs import ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen

from .pilot import PATIENCE, SIZE, OneScreen, rows, shown, until

RANDOM = get_game("cake-duel").bots["random"]
AUDIT_FAIR = "Audit: fair. Every card and every move checked out."
#: seconds to play a whole tournament (up to five duels, each of a few bouts, every bout
#: shuffled with proofs) on a busy machine
DEADLINE = 240.0 * PATIENCE


def quick(view: DuelView, rng: random.Random) -> Action:
    """Ann's choice: claim one card, challenge every claim, keep a Sir Wolfy hidden (a
    tournament's choice); the rest as the random bot would."""
    legal = view.legal
    for action in legal:
        if isinstance(action, Challenge | KeepHidden):
            return action
    claims = [a for a in legal if isinstance(a, Claim) and len(a.slots) == 1]
    return claims[0] if claims else RANDOM(view, rng)


def on_screen(widget: Widget) -> bool:
    """Whether ``widget`` lies wholly on an 80×24 screen."""
    region = widget.region
    return region.x >= 0 and region.y >= 0 and region.right <= SIZE[0] and region.bottom <= SIZE[1]


def duel_below(app: Any) -> NetDuelScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, NetDuelScreen))


async def play_tournament(app: CakePartyApp) -> dict[str, Any]:
    """Host the tournament, seat a bot, play to the end dialog: what each dialog and the
    title line showed, and the duel's table."""
    seen: dict[str, Any] = {"notices": [], "titles": set()}
    rng = random.Random(7)
    async with app.run_test(size=SIZE) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.room is not None
        room = lobby.room
        await until(pilot, lambda: room.connected and room.advert is not None, "the room", 15)
        await pilot.press("a")  # a bot in the other seat
        await until(pilot, lambda: len(room.runner.advert.taken) == 2, "the bot's seat", 15)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, NetDuelScreen), "the duel", 20)
        noticed: set[int] = set()
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            await pilot.pause(0.01)
            screen = app.screen
            if not screen.is_mounted:
                continue
            if isinstance(screen, EndScreen):
                await until(pilot, lambda: len(rows(app)) == SIZE[1], "the end dialog drawn")
                box = screen.query_one("#end-box")
                seen["end"] = {
                    "title": screen.title_text,
                    "headline": screen.headline,
                    "lines": list(screen.lines),
                    "fits": on_screen(box),
                    "keys": shown(app, screen.query_one("#end-keys")),
                    "screen": "\n".join(rows(app)),
                }
                break
            if isinstance(screen, NetDuelScreen):
                seat = screen.awaiting
                if seat is not None and not screen.net.over:
                    seen["titles"].add(shown(app, screen.query_one("#duel-title")))
                    screen._act(quick(screen.net.view(seat), rng))
            elif isinstance(screen, NoticeScreen):
                if id(screen) not in noticed:
                    noticed.add(id(screen))
                    await until(pilot, lambda: len(rows(app)) == SIZE[1], "the dialog drawn")
                    seen["notices"].append(
                        {
                            "title": screen.title_text,
                            "lines": [str(line) for line in screen.lines],
                            "fits": on_screen(screen.query_one("#dialog")),
                            "keys": shown(app, screen.query_one("#dialog-keys")),
                        }
                    )
                await pilot.press("enter")
            elif isinstance(screen, ChoiceScreen):  # a claim's name, a Priest's or a Summoner's
                await pilot.press("1")
            elif isinstance(screen, ConfirmScreen):
                await pilot.press("n")  # nobody leaves this game
        else:
            raise AssertionError(f"no end within {DEADLINE}s; screen {app.screen!r}")
        duel = duel_below(app)
        net = duel.net
        seen["story"] = [e.event for e in net.story]
        seen["names"] = net.names
        assert net.fair, net.verdict_text()
        seen["specials"] = duel_specials(net.replay())
    return seen


async def test_a_networked_tournament_ends_each_duel_and_itself_in_its_own_words() -> None:
    plan = HostPlan(
        game="cake-duel",
        players=2,
        options={"full": True, "tournament": True},
        timeout=120,
        port=free_port(),
        lan=False,
    )
    app = CakePartyApp(Settings(name="Ann", bot_delay=0.0, bot_level="random"), plan, persist=False)
    seen = await play_tournament(app)
    names = seen["names"]
    duels = [e for e in seen["story"] if isinstance(e, ev.DuelWon)]
    assert 3 <= len(duels) <= 5
    specials = seen["specials"]
    assert len(specials) == len(duels) and all(len(cards) == 2 for cards in specials)

    def score(event: ev.DuelWon) -> str:
        return f"Tournament: {names[0]} {event.duels[0]} – {event.duels[1]} {names[1]}, first to 3"

    # every duel but the last ends with its own dialog: who won it, the score, the next
    # duel, and its specials as they are in a networked game: hidden until the audit
    duel_ends = [n for n in seen["notices"] if " wins duel " in n["title"]]
    assert len(duel_ends) == len(duels) - 1, [n["title"] for n in seen["notices"]]
    for number, (notice, duel) in enumerate(zip(duel_ends, duels, strict=False), 1):
        assert notice["title"] == f"{names[duel.side]} wins duel {number}"
        assert score(duel) in notice["lines"]
        hidden = f"The hidden specials of duel {number} stay hidden until the audit at the "
        assert hidden + "tournament's end" in notice["lines"], notice
        assert f"Next: duel {number + 1} of 5" in notice["lines"]
        assert not any(
            line.startswith("The hidden specials of duel") and " were " in line
            for line in notice["lines"]
        )
    for notice in seen["notices"]:
        assert notice["fits"] and "enter to continue" in notice["keys"], notice
    # the title line names the duel and the score in every duel
    titles = seen["titles"]
    for number in range(1, len(duels) + 1):
        assert any(f"duel {number} of 5 (" in t for t in titles), titles
    # the last dialog: the tournament is over, who won it and the last duel, the score,
    # and, the audit fair, every duel's hidden specials
    end, last = seen["end"], duels[-1]
    winner = names[last.side]
    assert end["title"] == "The tournament is over"
    assert end["headline"] == f"{winner} wins the tournament!"
    lines = end["lines"]
    assert f"{winner} wins duel {len(duels)}" in lines and score(last) in lines
    for number, cards in enumerate(specials, 1):
        assert f"The hidden specials of duel {number} were {card_list(cards)}" in lines, lines
    assert AUDIT_FAIR in lines
    assert not any("wins the duel" in line for line in lines)
    assert end["fits"], end["screen"]
    assert "The tournament is over" in end["screen"] and "The duel is over" not in end["screen"]
    for key in ("r replay face up", "enter see the table", "q leave"):
        assert key in end["keys"], end["screen"]


def told_and_replayed(shown: bool) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """A local tournament played by random choices: the specials of each duel as the story
    without the dealer tells them at the duel's end, and as the face-up replay finds them."""
    options = {"tournament": True, "show_specials": shown}
    table = LocalTable(GameSetup("cake-duel", 2, bots="random", seed=11, options=options))
    rng = random.Random(11)
    while not table.over:
        seat = table.to_act
        assert seat is not None
        table.act(seat, RANDOM(table.view(seat), rng))
    return duel_specials(table.story), duel_specials(table.replay())


def test_a_duel_s_specials_shown_as_drawn_are_told_at_its_end_without_the_dealer() -> None:
    """The story a networked seat tells (no dealer, no hidden card) ends each duel with
    its specials when every seat was shown them as they were drawn (the learning option),
    the very ones the face-up replay finds; hidden ones it cannot tell."""
    told, replayed = told_and_replayed(shown=True)
    assert len(replayed) >= 3 and all(len(cards) == 2 for cards in replayed)
    assert told == replayed
    told, replayed = told_and_replayed(shown=False)
    assert len(replayed) >= 3 and told == [()] * len(replayed)


async def test_a_tournament_ended_by_a_proven_breach_names_the_duel_it_broke_off() -> None:
    """A breach proven in the second duel (in a networked game, a false Summoner count)
    ends the tournament: its title line and its end speak of duel 2, which nobody won,
    not of a duel 1 won by the tournament's winner."""
    setup = GameSetup("cake-duel", 2, bots="random", seed=3, options={"tournament": True})
    table = LocalTable(setup, player="Ann")
    rng = random.Random(3)
    while sum(table.view(None).duels) == 0:
        seat = table.to_act
        assert seat is not None
        table.act(seat, RANDOM(table.view(seat), rng))
    first = next(e.event for e in table.story if isinstance(e.event, ev.DuelWon))
    # the peers feed the breach, as in a networked game
    breach = Forfeited(first.side, "false-count")
    match = table.match
    match.state = match.game.apply(match.state, breach, None)
    match.history.append((None, breach))
    table.catch_up()
    view = table.view(None)
    assert view.winner == 1 - first.side and view.duels[view.winner] == 0
    assert "duel 2 of 5 (" in title_line(view, table, None).plain
    app = OneScreen(TournamentScreen(table, bot_delay=0.0))
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, NoticeScreen | EndScreen),
            "duel 1's end, as the story is told",
        )
        while isinstance(app.screen, NoticeScreen):  # duel 1's end, told as it began
            await pilot.press("enter")
            await until(pilot, lambda: not isinstance(app.screen, NoticeScreen), "the next")
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end dialog")
        end = app.screen
        assert isinstance(end, EndScreen)
        winner = table.names[view.winner]
        assert end.headline == f"{winner} wins the tournament!"
        assert not any(" wins duel " in line for line in end.lines), end.lines
        assert any(line.startswith("The hidden specials of duel 2 were ") for line in end.lines)

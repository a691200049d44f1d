"""Cake Duel at the table: its screen, its story, its keys and its options.

:data:`GAME` is what the app knows of the duel beyond its rules; the screens load when a
duel starts, so the headless commands read the options without loading Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.tui.table.registration import Choice, GameOption, PlayerCount, TableGame


def local_screen(setup: Any, **options: Any) -> Any:
    """The duel screen of a local game (a new one, or a table set up already): a
    tournament's own, whose d offers a new tournament."""
    from cakeparty.tui.games.cake_duel.screen import DuelScreen, TournamentScreen

    chosen = getattr(setup, "setup", setup)  # a local table's setup, or the setup itself
    tournament = bool(dict(chosen.options).get("tournament"))
    return (TournamentScreen if tournament else DuelScreen)(setup, **options)


def net_screen(runner: Any, bots: Any, host: bytes | None, room: Any) -> Any:
    """The duel screen of this player's seat in a networked room: a tournament's own,
    whose end says the tournament is over."""
    from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen, NetTournamentScreen
    from cakeparty.tui.table.net import NetTable

    table = NetTable(runner, bots, host)
    tournament = bool(dict(table.options).get("tournament"))
    return (NetTournamentScreen if tournament else NetDuelScreen)(table, room)


def forced(legal: Sequence[Any]) -> Any:
    """A Summoner count the hand already shows, or the end-of-turn Sir Wolfy reveal (or
    none) that the rules make for a person: never asked."""
    from cakeparty.core.games.cake_duel.actions import Declare, KeepHidden, Taunt

    if len(legal) == 1 and isinstance(legal[0], Declare | Taunt | KeepHidden):
        return legal[0]
    return None


def describe_decision(view: Any, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides in the duel's phase: "Bob attacks: claim or pass"."""
    from cakeparty.core.games.cake_duel.text import describe_decision as describe

    return describe(view.phase, seat, names)


def story(game: Any, players: int, options: Any, dealer: Any = None) -> Any:
    from cakeparty.tui.games.cake_duel.chronicle import Chronicle

    return Chronicle(game, players, options, dealer)


def game_help(options: Any = None) -> tuple[Any, Any]:
    """The help screen's keys and card reference (every card, copies, type, effect)."""
    from cakeparty.tui.games.cake_duel.help import DUEL_KEYS, cards_table

    return DUEL_KEYS, cards_table()


def watch_lines(entries: Sequence[Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """A spectator's log: each public event of the duel as a sentence."""
    from cakeparty.core.games.cake_duel.text import describe

    return [("", describe(e.event, names)) for e in entries if e.event is not None]


def watch_board(table: Any, view: Any, width: int) -> Any:
    """A spectator's table: the bout, each seat's cakes and cards, the claims."""
    from cakeparty.tui.games.cake_duel.parts import board

    return board(table, view, width)


def replay_lines(entries: Sequence[Any], names: Sequence[str], view: Any) -> list[tuple[str, str]]:
    from cakeparty.tui.games.cake_duel.chronicle import replay_lines as lines

    return lines(entries, names)


GAME = TableGame(
    name="cake-duel",
    label=N_("Cake Duel"),
    kind=N_("bluffing"),
    counts=(
        PlayerCount(2, N_("2 — a duel")),
        PlayerCount(4, N_("4 — two teams"), note=N_("Team mode: 1+3 vs 2+4")),
    ),
    options=(
        GameOption(
            "full",
            N_("Deck"),
            (
                Choice(
                    True,
                    N_("full game (hidden specials)"),
                    N_("Full game: hidden specials"),
                    "--full",
                    N_("full game with hidden specials (default)"),
                ),
                Choice(
                    False,
                    N_("core cards only"),
                    N_("Core cards only"),
                    "--core",
                    N_("core game only"),
                ),
            ),
            default=True,
            always=True,
        ),
        GameOption(
            "tournament",
            N_("Match"),
            (
                Choice(False, N_("one duel (3 bouts win)")),
                Choice(
                    True,
                    N_("tournament (best of 5)"),
                    N_("tournament (best of 5)"),
                    "--tournament",
                    N_("best of five duels; revealing Sir Wolfy is optional"),
                ),
            ),
            default=False,
        ),
        GameOption(
            "show_specials",
            N_("Specials"),
            (
                Choice(False, N_("hidden, as printed")),
                Choice(
                    True,
                    N_("shown (for learning)"),
                    N_("specials shown (learning)"),
                    "--show-specials",
                    N_("for learning: show which specials are in the deck"),
                ),
            ),
            default=False,
        ),
    ),
    local_screen=local_screen,
    net_screen=net_screen,
    forced=forced,
    story=story,
    describe_decision=describe_decision,
    help=game_help,
    watch_lines=watch_lines,
    replay_lines=replay_lines,
    watch_board=watch_board,
)

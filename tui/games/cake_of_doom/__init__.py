"""Cake of Doom at the table: its screen, its story, its keys, its options and counts.

:data:`GAME` is what the app knows of Cake of Doom beyond its rules; the screens load when
a game starts, so the headless commands read the options without loading Textual. Two
options, each on or off: the advanced game (a chosen opening mix, control bonuses, the
protection of two regions of one continent) and blind sabotaging.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.tui.table.registration import Choice, GameOption, PlayerCount, TableGame


def local_screen(setup: Any, **options: Any) -> Any:
    """The screen of a local game (bots or hot-seat)."""
    from cakeparty.tui.games.cake_of_doom.screen import DoomScreen

    return DoomScreen(setup, **options)


def net_screen(runner: Any, bots: Any, host: bytes | None, room: Any) -> Any:
    """The screen of this player's seat in a networked room."""
    from cakeparty.tui.games.cake_of_doom.netscreen import NetDoomScreen
    from cakeparty.tui.table.net import NetTable

    return NetDoomScreen(NetTable(runner, bots, host), room)


def forced(legal: Sequence[Any]) -> Any:
    """A step with one answer only — no sabotage card to play, no Force Field to answer
    with, a draw or a discard with one split — is made for a person: never asked."""
    from cakeparty.core.games.cake_of_doom.actions import (
        Discard,
        Draw,
        NoForceField,
        NoSabotage,
    )

    if len(legal) == 1 and isinstance(legal[0], NoSabotage | NoForceField | Draw | Discard):
        return legal[0]
    return None


def describe_decision(view: Any, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides now: "Bob decides: sabotage the bribe or not"."""
    from cakeparty.tui.games.cake_of_doom.lines import decision_line

    return decision_line(view, seat, names)


def story(game: Any, players: int, options: Any, dealer: Any = None) -> Any:
    from cakeparty.tui.games.cake_of_doom.story import DoomStory

    return DoomStory(game, players, options, dealer)


def game_help(options: Any = None) -> tuple[Any, Any]:
    """The help screen's keys and reference (the aliens, the regions, the cards)."""
    from cakeparty.tui.games.cake_of_doom.help import KEYS, reference

    return KEYS, reference()


def watch_lines(entries: Sequence[Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """A spectator's log: each public event of the game as a sentence."""
    from cakeparty.core.games.cake_of_doom.text import describe

    return [("", describe(e.event, names)) for e in entries if e.event is not None]


def watch_board(table: Any, view: Any, width: int) -> Any:
    """A spectator's table: the regions, each player's alien and cards, the bribe."""
    from cakeparty.tui.games.cake_of_doom.lines import board

    return board(table, view, width)


def replay_lines(entries: Sequence[Any], names: Sequence[str], view: Any) -> list[tuple[str, str]]:
    from cakeparty.tui.games.cake_of_doom.story import replay_lines as lines

    return lines(entries, names, blind=view.options.blind)


GAME = TableGame(
    name="cake-of-doom",
    label=N_("Cake of Doom"),
    kind=N_("bribing"),
    counts=(
        PlayerCount(3, N_("3 players")),
        PlayerCount(4, N_("4 players")),
        PlayerCount(5, N_("5 players")),
        PlayerCount(6, N_("6 players")),
    ),
    options=(
        GameOption(
            "advanced",
            N_("Game"),
            (
                Choice(False, N_("basic")),
                Choice(
                    True,
                    N_("advanced (opening mix, control bonuses)"),
                    N_("Advanced game: opening mix, control bonuses"),
                    "--advanced",
                    N_("advanced game: choose the opening mix, control bonuses of regions"),
                ),
            ),
            default=False,
        ),
        GameOption(
            "blind",
            N_("Sabotage"),
            (
                Choice(False, N_("open offers")),
                Choice(
                    True,
                    N_("blind (offers face down until sabotaged)"),
                    N_("Blind sabotaging"),
                    "--blind",
                    N_("blind sabotaging: offers stay face down until every sabotage is in"),
                ),
            ),
            default=False,
        ),
    ),
    local_screen=local_screen,
    net_screen=net_screen,
    forced=forced,
    describe_decision=describe_decision,
    story=story,
    help=game_help,
    watch_lines=watch_lines,
    replay_lines=replay_lines,
    watch_board=watch_board,
)

"""Cake Master at the table: its screen, its story, its keys and its player counts.

:data:`GAME` is what the app knows of Cake Master beyond its rules; the screen loads when
a game starts, so the headless commands read the player counts without loading Textual.
Cake Master has no options: one player is solo, two pass by keeping and giving.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.tui.table.registration import PlayerCount, TableGame


def local_screen(setup: Any, **options: Any) -> Any:
    """The screen of a local game (bots, hot-seat or solo)."""
    from cakeparty.tui.games.cake_master.screen import MasterScreen

    return MasterScreen(setup, **options)


def net_screen(runner: Any, bots: Any, host: bytes | None, room: Any) -> Any:
    """The screen of this player's seat in a networked room."""
    from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen
    from cakeparty.tui.table.net import NetTable

    return NetMasterScreen(NetTable(runner, bots, host), room)


def describe_decision(view: Any, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides in the game's step: "Bob chooses: keep one card, give two"."""
    from cakeparty.tui.games.cake_master.lines import decision_line

    return decision_line(view, seat, names)


def story(game: Any, players: int, options: Any, dealer: Any = None) -> Any:
    from cakeparty.tui.games.cake_master.story import MasterStory

    return MasterStory(game, players, options, dealer)


def game_help(options: Any = None) -> tuple[Any, Any]:
    """The help screen's keys and card reference (the customers, the taste points)."""
    from cakeparty.tui.games.cake_master.help import KEYS, cards_reference

    return KEYS, cards_reference()


def watch_lines(entries: Sequence[Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """A spectator's log: each public event of the game as a sentence, a placement in one
    short line as the players' log tells it (every seat's stays in sight)."""
    from cakeparty.core.games.cake_master import events as ev
    from cakeparty.core.games.cake_master.text import describe
    from cakeparty.tui.games.cake_master.lines import placed_line

    return [
        ("dim", placed_line(e.event, names))
        if isinstance(e.event, ev.Placed)
        else ("", describe(e.event, names))
        for e in entries
        if e.event is not None
    ]


def watch_board(table: Any, view: Any, width: int) -> Any:
    """A spectator's table: every seat's cakes, the stars, the open customers."""
    from cakeparty.tui.games.cake_master.lines import board

    return board(table, view, width)


def replay_lines(entries: Sequence[Any], names: Sequence[str], view: Any) -> list[tuple[str, str]]:
    from cakeparty.tui.games.cake_master.story import replay_lines as lines

    return lines(entries, names)


GAME = TableGame(
    name="cake-master",
    label=N_("Cake Master"),
    kind=N_("drafting"),
    counts=(
        PlayerCount(
            1, N_("1 — solo"), note=N_("Solo: meet customers, 3 exchanges"), networked=False
        ),
        PlayerCount(
            2, N_("2 — keep and give"), note=N_("Two players: keep 1, give 2; then give 1 back")
        ),
        PlayerCount(3, N_("3 players")),
        PlayerCount(4, N_("4 players")),
        PlayerCount(5, N_("5 players")),
        PlayerCount(6, N_("6 players")),
    ),
    local_screen=local_screen,
    net_screen=net_screen,
    describe_decision=describe_decision,
    story=story,
    help=game_help,
    watch_lines=watch_lines,
    replay_lines=replay_lines,
    watch_board=watch_board,
)

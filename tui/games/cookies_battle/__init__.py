"""Cookies Battle at the table: its screen, its story, its keys, its players and variant.

:data:`GAME` is what the app knows of Cookies Battle beyond its rules; the screen loads
when a game starts, so the headless commands read the player counts and the variant
without loading Textual. Two players always play the duel (the rules choose it): the
variant option is for 3–6 players (a setup for two takes its default), and 4 players are
offered first (the duel is the fewest, but the game is the tummy ache's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.tui.table.registration import Choice, GameOption, PlayerCount, TableGame

#: The variant option's key and its default (what 3–6 players play when nothing is said).
VARIANT = "variant"
STANDARD = "standard"


def local_screen(setup: Any, **options: Any) -> Any:
    """The screen of a local game (bots or hot-seat)."""
    from cakeparty.tui.games.cookies_battle.screen import CookiesScreen

    return CookiesScreen(setup, **options)


def net_screen(runner: Any, bots: Any, host: bytes | None, room: Any) -> Any:
    """The screen of this player's seat in a networked room."""
    from cakeparty.tui.games.cookies_battle.netscreen import NetCookiesScreen
    from cakeparty.tui.table.net import NetTable

    return NetCookiesScreen(NetTable(runner, bots, host), room)


def describe_decision(view: Any, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides now: "Bob plays a card", "Bob may answer with a Defense"."""
    from cakeparty.tui.games.cookies_battle.lines import decision_line

    return decision_line(view, seat, names)


def story(game: Any, players: int, options: Any, dealer: Any = None) -> Any:
    from cakeparty.tui.games.cookies_battle.story import CookiesStory

    return CookiesStory(game, players, options, dealer)


def game_help(options: Any = None) -> tuple[Any, Any]:
    """The help screen's keys and card reference (cards, pieces, markers, who wins), as
    the variant of ``options`` plays."""
    from cakeparty.tui.games.cookies_battle.help import KEYS, cards_reference

    return KEYS, cards_reference(options)


def watch_lines(entries: Sequence[Any], names: Sequence[str]) -> list[tuple[str, str]]:
    """A spectator's log: each event as everyone may read it."""
    from cakeparty.tui.games.cookies_battle.events_text import log_line

    lines = [log_line(e.event, names, None) for e in entries if e.event is not None]
    return [(style, text) for text, style in lines if text]


def watch_board(table: Any, view: Any, width: int) -> Any:
    """A spectator's table: every seat's card, pieces and markers, the piece in dispute."""
    from cakeparty.tui.games.cookies_battle.lines import board

    return board(table, view, width)


def replay_lines(entries: Sequence[Any], names: Sequence[str], view: Any) -> list[tuple[str, str]]:
    from cakeparty.tui.games.cookies_battle.story import replay_lines as lines

    return lines(entries, names)


GAME = TableGame(
    name="cookies-battle",
    label=N_("Cookies Battle"),
    kind=N_("trick-taking"),
    counts=(
        PlayerCount(2, N_("2 — the duel"), note=N_("The duel: 20 cards, no markers")),
        PlayerCount(3, N_("3 players")),
        PlayerCount(4, N_("4 players"), usual=True),
        PlayerCount(5, N_("5 players")),
        PlayerCount(6, N_("6 players")),
    ),
    options=(
        GameOption(
            VARIANT,
            N_("Variant"),
            (
                Choice(
                    STANDARD,
                    N_("standard (the tummy ache)"),
                    None,
                    "--standard",
                    N_("the full game: the second highest score wins (default)"),
                ),
                Choice(
                    "beginners",
                    N_("beginners (highest wins)"),
                    N_("Beginners: no specials, highest score wins"),
                    "--beginners",
                    N_("no 0, 13 or Magician; the highest score wins (3–6 players)"),
                ),
            ),
            STANDARD,
            counts=(3, 4, 5, 6),
        ),
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

"""Argument types and groups shared by every ``cakeparty`` command.

Each type raises ``argparse.ArgumentTypeError`` with a message for the user, so a bad
argument is reported in one clear line with exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from cakeparty.core.i18n import _


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a whole number").format(text=text)
        ) from None


def positive(text: str) -> int:
    value = whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {value}").format(value=value))
    return value


def bounded(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = whole_number(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                _("must be between {low} and {high}, not {value}").format(
                    low=low, high=high, value=value
                )
            )
        return value

    return parse


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a port number").format(text=text)
        ) from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is between 0 and 65535, not {v}").format(v=value)
        )
    return value


def room(text: str) -> str:
    from cakeparty.protocol.lobby import parse_code

    try:
        parse_code(text)
        return text.strip().upper()
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a room code (4 to 16 letters and digits)").format(text=text)
        ) from None


def broker(text: str) -> Any:
    from cakeparty.protocol.transport import BrokerAddress

    try:
        return BrokerAddress.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_game(parser: argparse.ArgumentParser) -> None:
    from cakeparty.core.game import game_names  # the engine loads for a command, not the menu

    parser.add_argument(
        "game",
        choices=game_names(),
        metavar="GAME",
        help=_("one of: {games}").format(games=", ".join(game_names())),
    )


def add_deck(parser: argparse.ArgumentParser, default: bool | None = True) -> None:
    """``--full`` / ``--core`` into ``full`` (``None``: the game's own default)."""
    deck = parser.add_mutually_exclusive_group()
    deck.add_argument(
        "--full",
        dest="full",
        action="store_true",
        default=default,
        help=_("full game with hidden specials (default)"),
    )
    deck.add_argument("--core", dest="full", action="store_false", help=_("core game only"))


def add_duel_options(parser: argparse.ArgumentParser) -> None:
    """Cake Duel's rule options: ``--tournament`` and ``--show-specials``."""
    parser.add_argument(
        "--tournament",
        action="store_true",
        help=_("Cake Duel: best of five duels; revealing Sir Wolfy is optional"),
    )
    parser.add_argument(
        "--show-specials",
        action="store_true",
        help=_("Cake Duel, for learning: show which specials are in the deck"),
    )


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The rule options a command line chose (the deck only where it was given)."""
    options: dict[str, Any] = {}
    if getattr(args, "full", None) is not None:
        options["full"] = args.full
    if getattr(args, "tournament", False):
        options["tournament"] = True
    if getattr(args, "show_specials", False):
        options["show_specials"] = True
    return options

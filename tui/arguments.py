"""Argument types and groups shared by every ``cakeparty`` command.

Each type raises ``argparse.ArgumentTypeError`` with a message for the user, so a bad
argument is reported in one clear line with exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from cakeparty.core.i18n import LANGUAGES, _, ngettext


def translate_argparse() -> None:
    """argparse's own words (``usage:``, ``options``, its errors) from the app's catalog:
    argparse asks ``gettext``'s default domain for them, which holds none of ours."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def add_language(
    parser: argparse.ArgumentParser, *, top: bool = False, help: str | None = None
) -> None:
    """``--lang``: the language to show (on a subcommand it is set only when given, so it
    never hides the top level's); ``help`` says what it does where that is more (once per
    parser: a parser that has it keeps its own)."""
    if "--lang" in parser._option_string_actions:
        return
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None if top else argparse.SUPPRESS,
        metavar="LANG",
        help=help
        or _(
            "the language to show: {languages} (default: from the settings, "
            "else LC_ALL, LC_MESSAGES or LANG)"
        ).format(languages=", ".join(LANGUAGES)),
    )


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


def seconds(text: str) -> int:
    """A number of seconds, 0 or more (0: never)."""
    value = whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(_("must be 0 or more, not {value}").format(value=value))
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


def think_seconds(text: str) -> float:
    """Seconds a strong bot thinks per decision: more than 0, at most
    :data:`cakeparty.core.game.MOST_THINK` (:func:`cakeparty.core.game.think_seconds`)."""
    # the engine loads for a command, not the menu
    from cakeparty.core.game import think_seconds as seconds

    try:
        return seconds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def display_name(text: str) -> str:
    """A display name as every other player's app takes it: 1 to 32 printable characters,
    drawn as something (:func:`cakeparty.protocol.identity.check_name`)."""
    from cakeparty.protocol.codec import NAME_MAX
    from cakeparty.protocol.identity import check_name

    try:
        return check_name(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is no display name: 1 to {most} printable characters that show").format(
                text=text, most=NAME_MAX
            )
        ) from None


#: the longest wait, in seconds, a bot may be told to take before each move
MOST_DELAY = 60.0


def delay_seconds(text: str) -> float:
    """Seconds a bot waits before each move: from 0 to :data:`MOST_DELAY`."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 <= value <= MOST_DELAY:  # nan too
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a number of seconds from 0 to {most}").format(
                text=text, most=int(MOST_DELAY)
            )
        )
    return value


def add_think(parser: argparse.ArgumentParser, default: str) -> None:
    """``--think S``: seconds per decision of a strong bot; ``default`` says where it
    comes from when not given."""
    parser.add_argument(
        "--think",
        type=think_seconds,
        default=None,
        metavar="S",
        help=_("seconds a strong bot thinks per decision (default: {default})").format(
            default=default
        ),
    )


def check_level(game: str, level: str) -> str:
    """``level`` if ``game`` offers bots of it; else a clear error naming those it offers."""
    from cakeparty.core.game import bot_levels, get_game

    levels = bot_levels(get_game(game))
    named, at, seconds = level.partition("@")
    if at and named in levels:  # simulate's LEVEL@SECONDS: here the time has a flag of its own
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a bot level: give the thinking time with --think {s}").format(
                text=level, s=seconds or "S"
            )
        )
    if level not in levels:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a bot level (choose from {levels})").format(
                text=level, levels=", ".join(levels)
            )
        )
    return level


def room(text: str) -> str:
    from cakeparty.protocol.lobby import normal_code

    try:
        return normal_code(text)
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


def add_players(
    parser: argparse.ArgumentParser, default: int | None = None, *, networked: bool = False
) -> None:
    """``--players``, its help naming each game's usual count (in a room when
    ``networked``): what :func:`check_players` takes when it is not given."""
    from cakeparty.core.game import game_names
    from cakeparty.tui.table.registration import any_game

    usual = ", ".join(
        f"{name} {any_game(name).usual(networked=networked)}" for name in game_names()
    )
    parser.add_argument(
        "--players",
        type=positive,
        default=default,
        metavar="N",
        help=_("number of players (each game says how many it takes; default: {usual})").format(
            usual=usual
        ),
    )


def _spoken_counts(counts: tuple[int, ...]) -> str:
    """``(3, 4, 5, 6)`` as "3–6", ``(2, 4)`` as "2 or 4", ``(2, 3, 5)`` as "2, 3 or 5"."""
    if len(counts) > 2 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return _("{first} or {last}").format(
        first=", ".join(str(c) for c in counts[:-1]), last=counts[-1]
    )


def check_players(game: str, players: int | None, *, networked: bool = False) -> int:
    """The number of players for ``game`` (its usual count when not given); a clear error
    naming the counts it takes otherwise."""
    from cakeparty.tui.table.registration import any_game

    table = any_game(game)
    allowed = table.players(networked=networked) or table.players()
    if players is None:
        return table.usual(networked=networked)
    if players not in allowed:
        raise argparse.ArgumentTypeError(
            _("{game} is for {allowed} players, not {players}").format(
                game=game, allowed=_spoken_counts(allowed), players=players
            )
        )
    return players


#: Where a game option's chosen value lands in the parsed arguments.
OPTION_DEST = "option:{key}"


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The flags of every registered game's options (``--core``, ``--tournament``, …):
    one group of exclusive flags per option, nothing chosen by default."""
    from cakeparty.tui.table.registration import registered

    seen: set[str] = set()
    for table in registered():
        for option in table.options:
            flags = [c for c in option.choices if c.flag and c.flag not in seen]
            if not flags:
                continue
            group = parser.add_mutually_exclusive_group()
            for choice in flags:
                assert choice.flag is not None
                seen.add(choice.flag)
                group.add_argument(
                    choice.flag,
                    dest=OPTION_DEST.format(key=option.key),
                    action="store_const",
                    const=choice.value,
                    default=None,
                    help=(
                        _("{game}: {help}").format(game=table.title, help=_(choice.help))
                        if choice.help
                        else argparse.SUPPRESS
                    ),
                )


def game_options(
    args: argparse.Namespace, game: str | None = None, players: int | None = None
) -> dict[str, Any]:
    """The rule options a command line chose (only those given). With ``game``, a flag
    of an option that game does not have is an error; with ``players`` too, so is the flag
    of an option that is not for that many players."""
    from cakeparty.tui.table.registration import any_game

    prefix = OPTION_DEST.format(key="")
    given = {
        name[len(prefix) :]: value
        for name, value in vars(args).items()
        if name.startswith(prefix) and value is not None
    }
    if game is not None:
        table = any_game(game)
        unknown = sorted(key for key in given if table.option(key) is None)
        if unknown:
            raise argparse.ArgumentTypeError(
                "; ".join(_not_an_option_of(game, key, given[key]) for key in unknown)
            )
        for key, value in given.items():
            option = table.option(key)
            assert option is not None
            if players is None or option.applies(players):
                continue
            choice = option.choice(value)
            raise argparse.ArgumentTypeError(
                _("{flag} is for {counts} players, not {players}").format(
                    flag=choice.flag if choice is not None and choice.flag else key,
                    counts=_spoken_counts(option.counts),
                    players=players,
                )
            )
    return given


def _not_an_option_of(game: str, key: str, value: Any) -> str:
    """The error for the flag that chose ``value`` of option ``key``, which ``game`` does
    not have: the flag as it was typed, and the games whose option it is."""
    from cakeparty.tui.table.registration import game_title, registered

    flag = None
    owners: list[str] = []
    for table in registered():
        option = table.option(key)
        choice = option.choice(value) if option is not None else None
        if choice is not None and choice.flag:
            flag = flag or choice.flag
            owners.append(table.title)
    if flag is None:  # no flag chooses it (nothing on a command line does this)
        return _("{game} has no option {option}").format(game=game_title(game), option=key)
    games = owners[0]
    if len(owners) > 1:
        games = _("{first} and {last}").format(first=", ".join(owners[:-1]), last=owners[-1])
    return _("{flag} is an option of {games}, not {game}").format(
        flag=flag, games=games, game=game_title(game)
    )

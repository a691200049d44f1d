"""The ``cakeparty`` command line.

Headless commands (``simulate``, ``rules``) import no UI library, so they start fast and
run anywhere; the commands that open the app (``play``, and no command at all: the menu)
import it when they run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Sequence

from cakeparty.core import i18n
from cakeparty.core.errors import CakePartyError
from cakeparty.core.i18n import _
from cakeparty.tui import arguments as arg
from cakeparty.tui.settings import BOT_LEVELS


class _Parser(argparse.ArgumentParser):
    """argparse with a clear one-line error and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}\n").format(prog=self.prog, message=message))


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("cakeparty")
        except PackageNotFoundError:
            found = _("unknown")
        print(f"{parser.prog} {found}")
        parser.exit(0)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cakeparty",
        description=_("Cake Party: cake-themed card games in the terminal."),
    )
    parser.add_argument("--version", action=_Version, help=_("show the version and exit"))
    parser.add_argument(
        "--config-dir",
        metavar="DIR",
        default=None,
        help=_("keep settings, identity and journals in DIR (or set CAKEPARTY_CONFIG_DIR)"),
    )
    arg.add_language(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    sim = sub.add_parser(
        "simulate", help=_("play headless games between bots and print statistics")
    )
    arg.add_game(sim)
    sim.add_argument(
        "--games", type=arg.positive, default=100, help=_("how many games (default 100)")
    )
    sim.add_argument("--seed", type=arg.whole_number, default=1, help=_("random seed (default 1)"))
    sim.add_argument(
        "--bots",
        default=None,
        help=_(
            "bot levels, comma-separated, one per side or per seat (default: normal against"
            " random, normal,random or normal,random,random…); strong@S: a strong bot"
            " thinking S seconds a decision"
        ),
    )
    arg.add_players(sim)
    arg.add_game_options(sim)
    sim.add_argument(
        "--dealer",
        choices=("local", "mental"),
        default="local",
        help=_("local: a trusted dealer; mental: in-process peers with the mental deck"),
    )
    arg.add_think(sim, _("as in the app"))
    sim.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))
    sim.set_defaults(run=_cmd_simulate, parser=sim)

    play = sub.add_parser("play", help=_("play a local game against bots, or hot-seat"))
    arg.add_game(play)
    arg.add_players(play)
    play.add_argument(
        "--bots",
        default=None,
        metavar="LEVEL",
        help=_(
            "the bots' level: {levels}, those the game offers (default: from the settings)"
        ).format(levels=", ".join(BOT_LEVELS)),
    )
    arg.add_think(play, _("from the settings"))
    arg.add_game_options(play)
    play.add_argument(
        "--seed", type=arg.whole_number, default=None, help=_("random seed, to replay a deal")
    )
    play.add_argument(
        "--hotseat",
        action="store_true",
        help=_("people only, passing the keyboard; hands hide between turns"),
    )
    play.set_defaults(run=_cmd_play, parser=play)

    rules = sub.add_parser("rules", help=_("print the rules of a game"))
    arg.add_game(rules)
    rules.set_defaults(run=_cmd_rules, parser=rules)

    who = sub.add_parser(
        "whoami",
        help=_("show your name, your key's fingerprint and your login for a public broker"),
    )
    who.add_argument("--json", action="store_true", help=_("print JSON"))
    who.set_defaults(run=_cmd_whoami, parser=who)

    from cakeparty.tui.netcli import add_commands
    from cakeparty.tui.roomcli import add_room_commands

    add_commands(sub)
    add_room_commands(sub)

    from cakeparty.tui.watchcli import add_watch_command

    add_watch_command(sub)

    from cakeparty.tui.webserve import add_command as add_serve_web

    add_serve_web(sub)

    from cakeparty.tui.sshserve.cli import add_command as add_serve_ssh

    add_serve_ssh(sub)
    for command in _commands(parser):
        arg.add_language(command)
    return parser


def _commands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every subcommand's parser under ``parser``, each once (aliases share one)."""
    found: dict[int, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if id(command) not in found:
                    found[id(command)] = command
                    found.update((id(p), p) for p in _commands(command))
    return list(found.values())


def _given(argv: Sequence[str], flag: str) -> str | None:
    """The value of ``flag`` in ``argv`` (the last one given), read before parsing."""
    value = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == flag and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(flag + "="):
            value = word.split("=", 1)[1]
    return value


def start_language(argv: Sequence[str]) -> str:
    """Put the language in effect before anything is shown, help texts included: the
    ``--lang`` given, else the settings', else the environment's. Return it.

    A ``--lang`` that names no language is left for the parser to refuse."""
    from cakeparty.tui import settings as saved

    config = _given(argv, "--config-dir")
    if config:
        os.environ[saved.ENV_DIR] = os.path.abspath(config)
    option = _given(argv, "--lang")
    if option not in i18n.LANGUAGES:
        option = None
    arg.translate_argparse()
    return i18n.use_language(i18n.choose_language(saved.load().language, option))


def _cmd_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.core.simulate import SimulationError, default_bots, simulate

    try:
        players = arg.check_players(args.game, args.players)
        options = arg.game_options(args, args.game, players)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    if args.bots is None:
        bots = default_bots(players)
    else:
        bots = [b.strip() for b in args.bots.split(",")]
        if "" in bots:  # "normal," or "normal,,random": a bot left out is not made up
            parser.error(
                _(
                    "--bots {text!r} has an empty entry: name a bot level for each side "
                    "or seat, comma-separated"
                ).format(text=args.bots)
            )
    factory = None
    if args.dealer == "mental":
        from cakeparty.protocol.mental import AuditTally

        tally = AuditTally()
        factory = tally.factory
    started = time.perf_counter()
    try:
        report = simulate(
            args.game,
            games=args.games,
            seed=args.seed,
            bots=bots,
            players=players,
            options=options,
            factory=factory,
            think=args.think,
        )
    except SimulationError as exc:
        parser.error(str(exc))
    report.seconds = time.perf_counter() - started
    if args.dealer == "mental":
        report.extra.update(tally.as_json())
    for failure in report.failures:
        print(failure, file=sys.stderr)
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        print(report.summary())
    return 0 if report.errors == 0 else 1


def _cmd_rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.tui.rules import plain_rules, print_rules, rules_for

    wanted = getattr(args, "lang", None) or i18n.current_language()
    text, language = rules_for(args.game, wanted)
    if language != wanted:
        note = _("The rules of {game} are not written in {language} yet; here they are in English.")
        print(note.format(game=args.game, language=i18n.LANGUAGE_NAMES[wanted]), file=sys.stderr)
    if sys.stdout.isatty():
        print_rules(text)  # rich Markdown to the terminal's width, paged when long
    else:
        print(plain_rules(text, _width()))
    return 0


def _cmd_whoami(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.protocol.identity import fingerprint, load_or_create
    from cakeparty.protocol.network import presence_id
    from cakeparty.tui import settings as saved

    # the key is made the first time a room needs it; a public broker's login is needed
    # before that, so asking makes it (a damaged key file: KeyFileError, told by main)
    identity = load_or_create(saved.load().name or None)
    me = {
        "name": identity.name,
        "fingerprint": fingerprint(identity.player_id),
        "login": presence_id(identity.player_id),
    }
    if args.json:
        print(json.dumps(me))
    else:
        print(
            _(
                "{name}\n"
                "key fingerprint: {fingerprint} (others see it beside your name)\n"
                "broker login: {login} (the user name for a public broker with logins: "
                "give it to its operator)"
            ).format(**me)
        )
    return 0


def _width() -> int:
    """Columns for text that is not sent to a terminal: ``COLUMNS``, at most 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "80"))
    except ValueError:
        columns = 80
    return max(40, min(columns, 80))


def _cmd_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.tui.table.registration import lookup

    try:
        lookup(args.game)
        args.players = arg.check_players(args.game, args.players)
        args.options = arg.game_options(args, args.game, args.players)
        if args.bots is not None:
            arg.check_level(args.game, args.bots)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parser.error(str(exc))
    if args.hotseat and args.bots is not None:
        parser.error(_("--hotseat plays without bots; leave out --bots"))
    return _run_app(args)


def _run_app(args: argparse.Namespace | None) -> int:
    """Open the app: the menu, or the game ``args`` describe."""
    from cakeparty.tui import settings as saved
    from cakeparty.tui.app import CakePartyApp

    settings = saved.load()
    start = None
    if args is not None:  # the rules engine loads for a game, not for the menu
        from cakeparty.core.game import bot_levels, get_game
        from cakeparty.tui.table.local import GameSetup

        levels = bot_levels(get_game(args.game))
        start = GameSetup(
            game=args.game,
            players=args.players,
            bots=args.bots or saved.offered_level(levels, settings.bot_level),
            think=args.think or settings.bot_think,
            options=args.options,
            seed=args.seed,
            hotseat=args.hotseat,
        )
    CakePartyApp(settings, start).run()
    _prune_journals()  # on the way out, so it never delays the first frame
    return 0


def _prune_journals() -> None:
    """Forget finished games that ended long ago (a game in progress is always kept)."""
    from cakeparty.protocol.journal import prune

    with contextlib.suppress(OSError):
        prune()


Command = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    start_language(argv)
    if not argv:  # the menu: nothing to parse, so the rules engine loads when a game starts
        return _run_app(None)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.config_dir is not None:
        os.environ["CAKEPARTY_CONFIG_DIR"] = os.path.abspath(args.config_dir)
    if args.lang is not None and args.lang != i18n.current_language():
        i18n.use_language(args.lang)  # written abbreviated (--la pl): in effect from here
    run: Command | None = getattr(args, "run", None)
    parser = getattr(args, "parser", parser)
    if extra:  # a subcommand's bad flag: that subcommand's usage, not the top one
        parser.error(_("unrecognized arguments: {args}").format(args=" ".join(extra)))
    if run is None:
        return _run_app(None)
    try:
        return run(args, parser)
    except CakePartyError as exc:
        parser.error(str(exc))
    except BrokenPipeError:
        # the reader went away (``cakeparty rules … | head``): nothing left to say
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except ValueError as exc:
        from cakeparty.protocol.identity import KeyFileError  # loaded on the way out only

        if not isinstance(exc, KeyFileError):
            raise
        print(_("cakeparty: {error}").format(error=exc), file=sys.stderr)
        return 1
    return 2

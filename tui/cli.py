"""The ``cakeparty`` command line.

Headless commands (``simulate``, ``rules``) import no UI library, so they start fast and
run anywhere; the commands that open the app import it when they run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence

from cakeparty.core.errors import CakePartyError
from cakeparty.core.game import game_names, get_game
from cakeparty.core.i18n import _


class _Parser(argparse.ArgumentParser):
    """argparse with a clear one-line error and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}\n").format(prog=self.prog, message=message))


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a whole number").format(text=text)
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {value}").format(value=value))
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a whole number").format(text=text)
        ) from None


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        choices=game_names(),
        metavar="GAME",
        help=_("one of: {games}").format(games=", ".join(game_names())),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cakeparty",
        description=_("Cake Party: cake-themed card games in the terminal."),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    sim = sub.add_parser(
        "simulate", help=_("play headless games between bots and print statistics")
    )
    _add_game(sim)
    sim.add_argument("--games", type=_positive, default=100, help=_("how many games (default 100)"))
    sim.add_argument("--seed", type=_seed, default=1, help=_("random seed (default 1)"))
    sim.add_argument(
        "--bots",
        default="normal,random",
        help=_("bot levels, comma-separated, one per side or per seat (default normal,random)"),
    )
    sim.add_argument("--players", type=_positive, default=None, help=_("number of players"))
    variant = sim.add_mutually_exclusive_group()
    variant.add_argument(
        "--full",
        dest="full",
        action="store_true",
        default=None,
        help=_("full game with hidden specials (default)"),
    )
    variant.add_argument("--core", dest="full", action="store_false", help=_("core game only"))
    sim.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))
    sim.set_defaults(run=_cmd_simulate, parser=sim)

    rules = sub.add_parser("rules", help=_("print the rules of a game"))
    _add_game(rules)
    rules.set_defaults(run=_cmd_rules, parser=rules)
    return parser


def _cmd_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.core.simulate import SimulationError, simulate

    game = get_game(args.game)
    players = args.players or game.players[0]
    if players not in game.players:
        parser.error(
            _("{game} is for {allowed} players, not {players}").format(
                game=args.game, allowed=" or ".join(str(p) for p in game.players), players=players
            )
        )
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = {} if args.full is None else {"full": args.full}
    started = time.perf_counter()
    try:
        report = simulate(
            args.game, games=args.games, seed=args.seed, bots=bots, players=players, options=options
        )
    except SimulationError as exc:
        parser.error(str(exc))
    report.seconds = time.perf_counter() - started
    for failure in report.failures:
        print(failure, file=sys.stderr)
    if args.json:
        print(json.dumps(report.as_json()))
    else:
        print(report.summary())
    return 0 if report.errors == 0 else 1


def _cmd_rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.tui.rules import rules_text

    print(rules_text(args.game))
    return 0


Command = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Command | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    parser = getattr(args, "parser", parser)
    try:
        return run(args, parser)
    except CakePartyError as exc:
        parser.error(str(exc))
    return 2

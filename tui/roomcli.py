"""The ``host`` and ``join`` commands: the app, opened on a networked room.

Their arguments are read and checked without any UI library, so a mistake is reported at
once (exit 2); the app is imported only when a command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from cakeparty.core.game import game_names
from cakeparty.core.i18n import _
from cakeparty.tui import arguments as arg

DEFAULT_TIMEOUT = 120
MAX_TIMEOUT = 86400  # a day, the most a table allows


def add_room_commands(sub: Any) -> None:
    """Register ``host`` and ``join`` on the ``cakeparty`` parser."""
    host = sub.add_parser(
        "host", help=_("host a networked game: run a broker here and open the lobby")
    )
    host.add_argument(
        "game",
        nargs="?",
        default=None,
        choices=game_names(),
        metavar="GAME",
        help=_("one of: {games}").format(games=", ".join(game_names())),
    )
    host.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        type=_resume_code,
        metavar="CODE",
        help=_("come back to a room hosted here (the latest one, or CODE) after a crash"),
    )
    host.add_argument(
        "--broker",
        type=arg.broker,
        default=None,
        metavar="URL",
        help=_("use this MQTT broker (mqtt[s]://host:port) instead of running one here"),
    )
    host.add_argument(
        "--port",
        type=arg.port,
        default=None,
        help=_("port of the broker run here (default 1883, or a free one if that is taken)"),
    )
    arg.add_players(host, networked=True)
    arg.add_game_options(host)
    host.add_argument(
        "--timeout",
        type=arg.bounded(1, MAX_TIMEOUT),
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=_("seconds a player may keep the room waiting (default {n})").format(
            n=DEFAULT_TIMEOUT
        ),
    )
    host.add_argument(
        "--on-timeout",
        choices=("ask", "end"),
        default="ask",
        help=_(
            "when a player's time is up: ask the others whether to wait or end the game "
            "(default), or end it when that player is offline"
        ),
    )
    host.add_argument(
        "--no-lan", action="store_true", help=_("do not announce the room on the LAN")
    )
    host.set_defaults(run=_cmd_host, parser=host)

    join = sub.add_parser("join", help=_("join a networked game: find a room, open the lobby"))
    join.add_argument(
        "room", nargs="?", type=arg.room, default=None, metavar="ROOM", help=_("the room code")
    )
    join.add_argument(
        "--broker",
        type=arg.broker,
        action="append",
        default=[],
        metavar="URL",
        help=_("look on this broker too (mqtt[s]://host:port); may be given more than once"),
    )
    join.add_argument("--no-lan", action="store_true", help=_("do not look on the LAN"))
    join.set_defaults(run=_cmd_join, parser=join)


def _resume_code(text: str) -> str:
    return arg.room(text) if text else ""


def _my_record(code: str | None) -> Any:
    """The room this player hosted here and can come back to: the one ``code`` names (a
    bare room id, or the full code with this host's tag), or the latest; or ``None``."""
    from cakeparty.protocol.identity import load_or_create
    from cakeparty.tui import settings as saved
    from cakeparty.tui.comeback import hosted_room

    return hosted_room(load_or_create(saved.load().name).player_id, code)


def _cmd_host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.broker.embedded import free_port, port_is_free
    from cakeparty.tui.netroom import HostPlan
    from cakeparty.tui.table.registration import lookup

    if args.resume is not None:
        given = [
            flag
            for flag, value in (
                ("GAME", args.game),
                ("--broker", args.broker),
                ("--port", args.port),
                ("--players", args.players),
            )
            if value is not None
        ]
        if given:
            parser.error(
                _("--resume comes back to a room as it was: leave out {flags}").format(
                    flags=", ".join(given)
                )
            )
        record = _my_record(args.resume)
        if record is None:
            parser.error(
                _("no room {room} hosted here to come back to").format(room=args.resume)
                if args.resume
                else _("no room hosted here to come back to")
            )
        return _open(HostPlan.resuming(record))
    if args.game is None:
        parser.error(
            _("the game to host is missing (one of: {games})").format(games=", ".join(game_names()))
        )
    try:
        lookup(args.game)
        players = arg.check_players(args.game, args.players, networked=True)
        options = arg.game_options(args, args.game, players)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parser.error(str(exc))
    port = args.port
    if port is not None and args.broker is not None:
        parser.error(_("--port is for the broker run here; leave it out with --broker"))
    if port == 0:
        port = free_port("0.0.0.0")
    elif port is not None and not port_is_free(port):
        parser.error(
            _("port {port} is already in use (leave out --port to use a free one)").format(
                port=port
            )
        )
    plan = HostPlan(
        game=args.game,
        players=players,
        options=options,
        timeout=args.timeout,
        on_timeout=args.on_timeout,
        broker=args.broker.url if args.broker is not None else None,
        port=port,
        lan=not args.no_lan,
    )
    return _open(plan)


def _cmd_join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.tui.netroom import JoinPlan, JoinSearch

    brokers = tuple(dict.fromkeys(b.url for b in args.broker))  # logins too
    if args.room is not None:
        record = _my_record(args.room)
        if record is not None:  # this player hosts that room: come back to it as its host
            from cakeparty.tui.netroom import HostPlan

            return _open(HostPlan.resuming(record))
    if args.room is not None and len(brokers) == 1:
        return _open(JoinPlan(args.room, brokers[0]))
    return _open(JoinSearch(args.room, brokers, lan=not args.no_lan))


def _open(start: Any) -> int:
    from cakeparty.tui import settings as saved
    from cakeparty.tui.app import CakePartyApp

    CakePartyApp(saved.load(), start).run()
    return 0

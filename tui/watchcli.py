"""The ``watch`` command: the app, opened on a room to follow without a seat.

Its arguments are read and checked without any UI library, so a mistake is reported at
once (exit 2); the app is imported only when the command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from cakeparty.core.i18n import _
from cakeparty.tui import arguments as arg


def add_watch_command(sub: Any) -> None:
    """Register ``watch`` on the ``cakeparty`` parser."""
    watch = sub.add_parser(
        "watch",
        help=_("watch a networked game without a seat: public information only"),
    )
    watch.add_argument("room", type=arg.room, metavar="ROOM", help=_("the room code"))
    watch.add_argument(
        "--broker",
        type=arg.broker,
        action="append",
        default=[],
        metavar="URL",
        help=_("the room's broker (mqtt[s]://host:port); may be given more than once"),
    )
    watch.add_argument("--no-lan", action="store_true", help=_("do not look on the LAN"))
    watch.set_defaults(run=_cmd_watch, parser=watch)


def _cmd_watch(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.tui.netroom import JoinSearch, WatchPlan

    brokers = tuple(dict.fromkeys(b.url for b in args.broker))  # logins too
    if len(brokers) == 1:
        return _open(WatchPlan(args.room, brokers[0]))
    if not brokers and args.no_lan:
        parser.error(_("say where the room is: --broker URL, or leave out --no-lan"))
    return _open(JoinSearch(args.room, brokers, lan=not args.no_lan, watch=True))


def _open(start: Any) -> int:
    from cakeparty.tui import settings as saved
    from cakeparty.tui.app import CakePartyApp

    CakePartyApp(saved.load(), start).run()
    return 0

"""The ``serve-ssh`` command's arguments; the server is imported only when it runs."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from cakeparty.core.i18n import LANGUAGES, _
from cakeparty.tui import arguments as arg
from cakeparty.tui.sshserve import (
    KEEPALIVE,
    KEEPALIVE_CHECKS,
    LOGIN_TIMEOUT,
    MAX_LOGINS,
    MAX_LOGINS_FROM,
)

DEFAULT_PORT = 2222
DEFAULT_IDLE = 1800
DEFAULT_SESSIONS = 50
DEFAULT_PER_KEY = 3


def add_command(sub: Any) -> None:
    """Register ``serve-ssh`` on the ``cakeparty`` parser."""
    serve = sub.add_parser(
        "serve-ssh",
        help=_("serve the app over SSH: each key is a player with a home here"),
        description=_(
            "Serve the app over SSH: each key is a player with a home here. A connection "
            "has {seconds} seconds to log in; at most {most} may be logging in at once, "
            "{from_one} of them from one address (an IPv6 /64). When all are taken, a newcomer "
            "from an address with fewer of them takes the place of the oldest of the address "
            "with the most; others are closed as they come."
        ).format(seconds=LOGIN_TIMEOUT, most=MAX_LOGINS, from_one=MAX_LOGINS_FROM),
    )
    serve.add_argument(
        "--port", type=arg.port, default=DEFAULT_PORT, help=_("TCP port (default 2222)")
    )
    serve.add_argument(
        "--host", default="", metavar="ADDRESS", help=_("address to listen on (default: all)")
    )
    serve.add_argument(
        "--host-key",
        type=Path,
        default=None,
        metavar="PATH",
        help=_("the server's private key (default: one made on the first run, in the data dir)"),
    )
    serve.add_argument(
        "--authorized-keys",
        type=Path,
        default=None,
        metavar="FILE",
        help=_("admit only the keys in FILE, OpenSSH authorized_keys format (default: any key)"),
    )
    serve.add_argument(
        "--max-sessions",
        type=arg.positive,
        default=DEFAULT_SESSIONS,
        metavar="N",
        help=_("at most N players at once (default {n})").format(n=DEFAULT_SESSIONS),
    )
    serve.add_argument(
        "--max-per-key",
        type=arg.positive,
        default=DEFAULT_PER_KEY,
        metavar="N",
        help=_(
            "at most N sessions at once for one player's key, and on one connection (default {n})"
        ).format(n=DEFAULT_PER_KEY),
    )
    serve.add_argument(
        "--idle-timeout",
        type=arg.seconds,
        default=DEFAULT_IDLE,
        metavar="S",
        help=_(
            "close a session after S seconds without a key press; 0: never (default {n})"
        ).format(n=DEFAULT_IDLE),
    )
    serve.add_argument(
        "--keepalive",
        type=arg.seconds,
        default=KEEPALIVE,
        metavar="S",
        help=_(
            "check a quiet connection every S seconds, and close its session after {checks} "
            "checks unanswered (a dropped connection; its game is kept); 0: never "
            "(default {n})"
        ).format(checks=KEEPALIVE_CHECKS, n=KEEPALIVE),
    )
    arg.add_language(
        serve,
        help=_(
            "the language of this server's messages, and of the app for players whose "
            "settings and locale choose none of {languages}"
        ).format(languages=", ".join(LANGUAGES)),
    )
    serve.set_defaults(run=_cmd_serve_ssh, parser=serve)


def _cmd_serve_ssh(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncssh

    from cakeparty.tui.sshserve.homes import load_host_key
    from cakeparty.tui.sshserve.server import ServeOptions, log, serve

    if args.host_key is not None and not args.host_key.is_file():
        parser.error(
            _("no host key at {path} (make one: ssh-keygen -t ed25519 -N '' -f {path})").format(
                path=args.host_key
            )
        )
    if args.authorized_keys is not None and not args.authorized_keys.is_file():
        parser.error(_("no authorized keys file at {path}").format(path=args.authorized_keys))
    try:
        host_key = load_host_key(args.host_key)
        if args.authorized_keys is not None:
            asyncssh.read_authorized_keys(str(args.authorized_keys))
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        parser.error(str(exc))
    options = ServeOptions(
        host=args.host,
        port=args.port,
        host_key=host_key,
        authorized_keys=args.authorized_keys,
        max_sessions=args.max_sessions,
        max_per_key=args.max_per_key,
        idle_timeout=args.idle_timeout,
        keepalive=args.keepalive,
        language=args.lang,
    )

    def ready() -> None:
        print(
            _("Cake Party over SSH on port {port}: ssh -p {port} HOST (Ctrl-C to stop)").format(
                port=args.port
            ),
            flush=True,
        )
        log(_("host key {fingerprint}").format(fingerprint=host_key.get_fingerprint("sha256")))

    try:
        asyncio.run(serve(options, ready))
    except OSError as exc:
        parser.error(_("cannot listen on port {port}: {reason}").format(port=args.port, reason=exc))
    return 0

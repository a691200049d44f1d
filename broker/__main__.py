"""``python -m cakeparty.broker``: the detached broker a host's app starts.

Exit status 2 when the port cannot be listened on, as ``cakeparty broker`` does.
"""

from __future__ import annotations

import argparse
import sys

from cakeparty.broker.embedded import DEFAULT_PORT
from cakeparty.broker.runner import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cakeparty.broker")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--idle", type=float, default=None)
    parser.add_argument("--log", default=None)
    args = parser.parse_args(argv)
    try:
        run(args.host, args.port, idle=args.idle, log_file=args.log)
    except OSError as exc:
        print(f"cannot listen on port {args.port}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The process one SSH session runs: the app, on the session's pseudo-terminal.

The server starts it as the leader of a new session with the terminal as stdin, stdout
and stderr; taking that terminal as its controlling terminal is what makes the kernel
send it SIGWINCH when the player's window changes size, and SIGHUP when they hang up.
"""

from __future__ import annotations

import fcntl
import sys
import termios


def main() -> int:
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    from cakeparty.tui.cli import main as app

    return app(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())

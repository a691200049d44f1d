"""A real terminal for the end-to-end tests: one tmux session at 80×24 running a command,
read with capture-pane and driven with send-keys."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable

TMUX = shutil.which("tmux")


class TmuxTerminal:
    """One tmux session at 80×24 running ``command`` (a shell line), with ``env`` set in it;
    ``keep``: the pane stays after the command ends, so its last words can be read.

    Each terminal has a tmux server of its own (its own socket, no user configuration): on
    a shared server, one test closing the last session while another opens one can meet the
    server on its way out ("server exited unexpectedly"). tmux leaves the socket behind
    when its server is killed: it is removed on closing."""

    #: how long :meth:`wait_for` waits unless told
    TIMEOUT = 15.0

    def __init__(
        self, name: str, command: str, env: dict[str, str] | None = None, *, keep: bool = False
    ) -> None:
        self.name = name
        self.socket = os.path.join(tempfile.gettempdir(), f"tmux-{os.getuid()}-{name}")
        args = ["new-session", "-d", "-s", name, "-x", "80", "-y", "24"]
        for key, value in (env or {}).items():
            args += ["-e", f"{key}={value}"]
        args.append(command)
        if keep:
            args += [";", "set-option", "-t", name, "remain-on-exit", "on"]
        self.tmux(*args, check=True)

    def tmux(self, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
        """One tmux command on this terminal's own server."""
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            check=check,
        )

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys, check=True)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height), check=True)

    def wait_for(self, test: Callable[[str], bool], what: str, timeout: float | None = None) -> str:
        """Wait until ``test`` holds of the screen; the screen."""
        timeout = self.TIMEOUT if timeout is None else timeout
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if test(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"waited {timeout}s for {what}; the screen was:\n{screen}")

    def ended(self) -> bool:
        """The command in the pane has ended (a pane kept with ``keep``). Asked of tmux
        itself: its "Pane is dead" line is drawn only once it has reaped the child, which
        can lag."""
        done = self.tmux("list-panes", "-t", self.name, "-F", "#{pane_dead}")
        return done.stdout.strip() == "1"

    def wait_ended(self, what: str, timeout: float | None = None) -> str:
        """Wait until the pane's command has ended; the screen it left."""
        timeout = self.TIMEOUT if timeout is None else timeout
        deadline = time.monotonic() + timeout
        while not self.ended():
            if time.monotonic() > deadline:
                screen = self.screen()
                raise AssertionError(f"waited {timeout}s for {what}; the screen was:\n{screen}")
            time.sleep(0.1)
        return self.screen()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.tmux("kill-server")
        with contextlib.suppress(OSError):
            os.unlink(self.socket)

"""One SSH session: the app in its own process, on its own pseudo-terminal.

Bytes flow both ways between the SSH channel and the terminal's master side; a window
change on the client becomes TIOCSWINSZ on the terminal, which the kernel turns into
SIGWINCH for the app. The app is the leader of its own session and process group, so a
hang-up reaches it and everything it started, and nothing else on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import pty
import re
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import asyncssh

from cakeparty.broker.runner import BOUND_ENV
from cakeparty.core.i18n import DEFAULT_ENV, _
from cakeparty.tui.serving import MOST_CELLS, idle_notice
from cakeparty.tui.sshserve.command import CommandRefused, app_arguments
from cakeparty.tui.sshserve.homes import PlayerHome

if TYPE_CHECKING:
    from cakeparty.tui.sshserve.server import Player, Sessions

READ_SIZE = 65536
MAX_PENDING_INPUT = 256 * 1024  # keys the app has not read yet; more is dropped
HANGUP_GRACE = 5.0  # seconds an app has to save and quit after a hang-up
DEFAULT_TERM = "xterm-256color"
_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
_ENV_VALUE = re.compile(r"[A-Za-z0-9._@:+-]{0,64}")
_NAME = re.compile(r"[^\w.\- ]+")
#: What a client may set in the app's environment (its language, its colours).
CLIENT_ENV = ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "NO_COLOR", "COLORTERM")
#: Put the terminal back (main screen, cursor, no mouse) when the app could not.
RESTORE = b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[0m"


def child_command(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "cakeparty.tui.sshserve.child", *argv]


def set_size(fd: int, width: int, height: int) -> None:
    width = max(1, min(width, MOST_CELLS)) if width else 80
    height = max(1, min(height, MOST_CELLS)) if height else 24
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


def login_name(user: str) -> str:
    """The SSH user name as a display name: letters, digits, ``.-_`` and spaces."""
    return _NAME.sub("", user).strip()[:16]


@dataclass(frozen=True)
class Launch:
    """What the app is started with: its arguments and environment, and where."""

    argv: list[str]
    env: dict[str, str]
    home: PlayerHome

    @classmethod
    def of(
        cls,
        argv: list[str],
        home: PlayerHome,
        user: str,
        term: str,
        client_env: dict[str, str],
        language: str | None = None,
    ) -> Launch:
        """``language``: the server's, for a player whose settings and locale choose none."""
        # a fresh environment: nothing of the server's own (secrets, XDG paths) leaks in
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home.root),
            "TERM": term if _TERM.fullmatch(term) else DEFAULT_TERM,
            "CAKEPARTY_CONFIG_DIR": str(home.config),
            "CAKEPARTY_DATA_DIR": str(home.data),
            "LESSSECURE": "1",
            BOUND_ENV: "1",  # a broker the player's ``host`` starts ends with the session
        }
        if language:
            env[DEFAULT_ENV] = language
        if "PYTHONPATH" in os.environ:  # the operator's, for a server run from a checkout
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        name = login_name(user)
        if name:  # the app's first run offers it as the display name
            env["LOGNAME"] = env["USER"] = name
        for key in CLIENT_ENV:
            value = client_env.get(key)
            if isinstance(value, str) and _ENV_VALUE.fullmatch(value):
                env[key] = value
        return cls(argv, env, home)


def how_ended(
    status: int, *, hung_up: bool = False, idle: bool = False, stopped: bool = False
) -> str:
    """How a session's app ended, for the server's log: its exit status in words (a
    negative status is the signal that ended it, as asyncio reports it)."""
    if stopped:
        return _("the server stopped")
    if idle:
        return _("closed for want of a key press")
    if hung_up:
        return _("the connection closed")
    if status == 0:
        return _("the app quit")
    if status > 0:
        return _("the app exited with status {status}").format(status=status)
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = str(-status)
    return _("the app was killed by {signal}").format(signal=name)


class GameSession(asyncssh.SSHServerSession[bytes]):
    """An SSH channel bridged to the app's pseudo-terminal."""

    def __init__(
        self,
        player: Player,
        sessions: Sessions,
        idle_timeout: float,
        language: str | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        """``on_close`` is called once, when the channel closes."""
        self._player = player
        self._on_close = on_close
        self._sessions = sessions
        self._idle_timeout = idle_timeout
        self._language = language
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term: str | None = None
        self._size = (80, 24)
        self._command: str | None = None
        self._master: int | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._pending = bytearray()
        self._reading = False
        self._hung_up = False
        self._idle_closed = False
        self._stopped = False
        self._last_input = time.monotonic()
        self._idle_handle: asyncio.TimerHandle | None = None
        self._kill_handle: asyncio.TimerHandle | None = None

    # -- the channel ----------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:  # type: ignore[override]
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], _modes: object
    ) -> bool:  # type: ignore[override]
        self._term = term_type or DEFAULT_TERM
        self._size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp, no anything: only the app

    def session_started(self) -> None:
        assert self._chan is not None
        try:
            argv = app_arguments(self._command)
        except CommandRefused as exc:
            self._refuse(str(exc))
            return
        if self._term is None:
            self._refuse(_("Cake Party needs a terminal: connect with ssh -t."))
            return
        refusal = self._sessions.admit(self)
        if refusal is not None:
            self._refuse(refusal)
            return
        client_env = dict(self._chan.get_environment())
        asyncio.get_running_loop().create_task(
            self._run(argv, client_env), name="cakeparty-ssh-session"
        )

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._last_input = time.monotonic()
        if len(self._pending) + len(data) > MAX_PENDING_INPUT:
            return  # the app is not reading; a flood of keys would only pile up
        self._pending += data
        self._flush_input()

    def terminal_size_changed(self, width: int, height: int, _pw: int, _ph: int) -> None:
        self._size = (width, height)
        if self._master is not None:
            with contextlib.suppress(OSError):
                set_size(self._master, width, height)

    def eof_received(self) -> bool:
        return True  # the end of the client's input is not the end of the game: stay open

    def pause_writing(self) -> None:
        self._stop_reading()

    def resume_writing(self) -> None:
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._chan = None
        self._hang_up()
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()

    # -- the app --------------------------------------------------------------------------

    def _refuse(self, message: str) -> None:
        assert self._chan is not None
        self._chan.write((message + "\r\n").encode())
        self._chan.exit(2)

    async def _start(self, argv: list[str], client_env: dict[str, str]) -> Launch:
        """The app started on a pseudo-terminal of its own; whatever fails on the way
        (no pseudo-terminal left, no file descriptor, no process) raises, and leaves
        nothing open but the terminal's master side."""
        launch = Launch.of(
            argv,
            self._player.home.make(),
            self._player.user,
            self._term or DEFAULT_TERM,
            client_env,
            self._language,
        )
        master, slave = pty.openpty()
        self._master = master
        try:
            set_size(master, *self._size)
            os.set_blocking(master, False)
            self._proc = await asyncio.create_subprocess_exec(
                *child_command(launch.argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=launch.env,
                cwd=launch.home.root,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            with contextlib.suppress(OSError):
                os.close(slave)
        return launch

    async def _run(self, argv: list[str], client_env: dict[str, str]) -> None:
        try:
            launch = await self._start(argv, client_env)
        except Exception as exc:
            # the session's place is given back, whatever went wrong, and the player told
            self._close_master()
            self._sessions.failed(self, exc)
            if self._chan is not None:
                self._chan.write(
                    _("Cannot start the app: {reason}\r\n")
                    .format(reason=str(exc) or type(exc).__name__)
                    .encode()
                )
                self._chan.exit(1)
            return
        proc = self._proc
        assert proc is not None
        loop = asyncio.get_running_loop()
        self._sessions.started(self, launch)
        if self._chan is None:  # the client left while the app was starting
            self._hang_up()
        self._start_reading()
        self._flush_input()
        if self._idle_timeout > 0:
            self._idle_handle = loop.call_later(self._idle_timeout, self._check_idle)
        status = await proc.wait()
        self._end_group(proc.pid)
        self._drain()
        self._close_master()
        for handle in (self._idle_handle, self._kill_handle):
            if handle is not None:
                handle.cancel()
        how = how_ended(
            status, hung_up=self._hung_up, idle=self._idle_closed, stopped=self._stopped
        )
        self._sessions.leave(self, how)
        if self._chan is not None:
            if self._idle_closed:
                self._chan.write(RESTORE + idle_notice(self._idle_timeout).encode())
            self._chan.exit(status if status >= 0 else 128 - status)

    def _read(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app and everything it started closed the terminal
            self._stop_reading()
            return
        if not data:
            self._stop_reading()
            return
        if self._chan is not None:
            self._chan.write(data)

    def _drain(self) -> None:
        """What the app wrote just before it exited."""
        for _attempt in range(64):
            if self._master is None or self._chan is None:
                return
            try:
                data = os.read(self._master, READ_SIZE)
            except OSError:
                return
            if not data:
                return
            self._chan.write(data)

    def _start_reading(self) -> None:
        if self._master is not None and not self._reading:
            asyncio.get_running_loop().add_reader(self._master, self._read)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._master is not None and self._reading:
            asyncio.get_running_loop().remove_reader(self._master)
        self._reading = False

    def _flush_input(self) -> None:
        if self._master is None or not self._pending:
            return
        try:
            written = os.write(self._master, self._pending)
        except BlockingIOError:
            written = 0
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise
            self._pending.clear()
            return
        del self._pending[:written]
        loop = asyncio.get_running_loop()
        if self._pending:
            loop.add_writer(self._master, self._flush_input)
        else:
            loop.remove_writer(self._master)

    def _close_master(self) -> None:
        if self._master is None:
            return
        loop = asyncio.get_running_loop()
        self._stop_reading()
        loop.remove_writer(self._master)
        with contextlib.suppress(OSError):
            os.close(self._master)
        self._master = None

    def _check_idle(self) -> None:
        idle = time.monotonic() - self._last_input
        if idle >= self._idle_timeout:
            self._idle_closed = True
            self._hang_up()
        else:
            loop = asyncio.get_running_loop()
            self._idle_handle = loop.call_later(self._idle_timeout - idle, self._check_idle)

    def stop(self) -> None:
        """The server is stopping: the player's terminal is put back (main screen, cursor,
        no mouse) and told why the connection closes, then the app is hung up as on a
        dropped line (its games wait in their journals)."""
        chan, self._chan = self._chan, None
        self._stopped = True
        if chan is not None:
            said = _("The Cake Party server is stopping. Your games are kept: connect again later.")
            chan.write(RESTORE + ("\r\n" + said + "\r\n").encode())
            chan.exit(1)
        self._hang_up()

    def _hang_up(self) -> None:
        """What a real terminal does when the line drops: SIGHUP to the app's group, and
        SIGKILL if it is still there after a grace period."""
        proc = self._proc
        if proc is None or proc.returncode is not None or self._hung_up:
            return
        self._hung_up = True
        self._signal(signal.SIGHUP)
        loop = asyncio.get_running_loop()
        self._kill_handle = loop.call_later(HANGUP_GRACE, self._signal, signal.SIGKILL)

    @staticmethod
    def _end_group(group: int) -> None:
        """What the app left running in its process group (the broker of a room it
        hosted) ends with it. A hang-up has told it so already; an app that quit or
        crashed by itself has not."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGTERM)

    def _signal(self, sig: signal.Signals) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, sig)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def player(self) -> Player:
        return self._player


SessionFactory = Callable[[], GameSession]

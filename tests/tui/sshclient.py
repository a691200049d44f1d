"""A real ``cakeparty serve-ssh`` process, and the real OpenSSH client in tmux."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import asyncssh

from cakeparty.broker.embedded import free_port
from tests.brokers import wait_listening

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")
BINARY = Path(sys.executable).with_name("cakeparty")
NO_SSH = "the OpenSSH client is not installed (apt-get install openssh-client; .ci/run does)"
NO_TMUX = "tmux is not installed (apt-get install tmux)"
START_TIMEOUT = 60.0


class ClientKey:
    """A throw-away client key pair on disk, as OpenSSH wants it (0600)."""

    def __init__(self, folder: Path, name: str) -> None:
        self.key = asyncssh.generate_private_key("ssh-ed25519", comment=name)
        self.path = folder / name
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(self.key.export_private_key())
        self.public_line = self.key.export_public_key().decode().strip()

    @property
    def home_name(self) -> str:
        """The folder the server keeps this key's player in: SHA-256 of the public blob."""
        return hashlib.sha256(self.key.public_data).hexdigest()


class SSHServer:
    """``cakeparty serve-ssh`` on a free loopback port, its data in ``folder``."""

    def __init__(self, folder: Path, *options: str) -> None:
        self.folder = folder
        self.data = folder / "server-data"
        self.port = free_port()
        self.log = folder / "serve-ssh.log"
        env = {**os.environ, "CAKEPARTY_DATA_DIR": str(self.data)}
        env.pop("CAKEPARTY_CONFIG_DIR", None)
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [
                    str(BINARY),
                    "serve-ssh",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    *options,
                ],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env=env,
            )
        try:
            wait_listening(self.port, START_TIMEOUT)
        except TimeoutError:
            self.stop()
            raise AssertionError(f"serve-ssh did not listen:\n{self.log.read_text()}") from None

    @property
    def players(self) -> Path:
        return self.data / "ssh-players"

    def ssh_args(self, key: ClientKey, user: str, *command: str, tty: bool = True) -> list[str]:
        assert SSH is not None
        return [
            SSH,
            "-tt" if tty else "-T",
            "-p",
            str(self.port),
            "-i",
            str(key.path),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "LogLevel=ERROR",
            "-F",
            "/dev/null",
            f"{user}@127.0.0.1",
            *command,
        ]

    def run(
        self, key: ClientKey, user: str, *command: str, tty: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """One ssh run to its end, without a terminal of its own (stdin closed)."""
        return subprocess.run(
            self.ssh_args(key, user, *command, tty=tty),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Terminal:
    """One tmux session at 80×24 running a command, read with capture-pane. Its tmux server
    is its own (its own socket, no user configuration): on a shared server, one test closing
    the last session while another opens one can meet the server on its way out."""

    def __init__(self, name: str, command: list[str]) -> None:
        self.name = name
        # the pane stays after the command ends, so its last words can be read
        new = ["new-session", "-d", "-s", name, "-x", "80", "-y", "24", shlex.join(command)]
        self.tmux(*new, ";", "set-option", "-t", name, "remain-on-exit", "on", check=True)

    def tmux(self, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
        """One tmux command on this terminal's own server."""
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-L", self.name, "-f", os.devnull, *args],
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

    def wait_for(self, test: Callable[[str], bool], what: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if test(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"waited {timeout}s for {what}; the screen was:\n{screen}")

    def ended(self) -> bool:
        """The command in the pane has ended (the ssh client exited). Asked of tmux itself:
        its "Pane is dead" line is drawn only once it has reaped the child, which can lag."""
        done = self.tmux("list-panes", "-t", self.name, "-F", "#{pane_dead}")
        return done.stdout.strip() == "1"

    def wait_ended(self, what: str, timeout: float = 60.0) -> str:
        """Wait until the pane's command has ended; the screen it left."""
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

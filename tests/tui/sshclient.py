"""A real ``cakeparty serve-ssh`` process, and the real OpenSSH client in tmux."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import asyncssh

from cakeparty.broker.embedded import free_port
from tests.brokers import wait_listening

from .tmuxterm import TMUX as TMUX  # the tests of serve-ssh skip without it
from .tmuxterm import TmuxTerminal

SSH = shutil.which("ssh")
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

    def ssh_args(
        self, key: ClientKey, user: str, *command: str, tty: bool = True, port: int | None = None
    ) -> list[str]:
        """The client's command line; ``port``: another way to the server (a :class:`Cable`)."""
        assert SSH is not None
        return [
            SSH,
            "-tt" if tty else "-T",
            "-p",
            str(self.port if port is None else port),
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


class Cable:
    """A TCP link from a loopback port of its own to ``port`` that can be cut silently:
    after :meth:`cut` nothing passes either way, yet both connections stay open (no FIN,
    no reset), as when a laptop sleeps or its Wi-Fi drops."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._cut = threading.Event()
        self._held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _address = self.listener.accept()
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return  # closed
            self._held += [near, far]
            for src, dst in ((near, far), (far, near)):
                threading.Thread(target=self._pipe, args=(src, dst), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        while True:
            try:
                data = src.recv(65536)
                if self._cut.is_set():
                    return  # read no more, send nothing: the bytes stop in the buffers
                if not data:
                    dst.shutdown(socket.SHUT_WR)
                    return
                dst.sendall(data)
            except OSError:
                return

    def cut(self) -> None:
        self._cut.set()

    def close(self) -> None:
        for sock in (self.listener, *self._held):
            with contextlib.suppress(OSError):
                sock.close()


class Terminal(TmuxTerminal):
    """One tmux session at 80×24 running a command (an ssh client), read with capture-pane;
    the pane stays after the command ends, so its last words can be read."""

    TIMEOUT = 60.0

    def __init__(self, name: str, command: list[str]) -> None:
        super().__init__(name, shlex.join(command), keep=True)

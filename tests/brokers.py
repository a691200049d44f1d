"""Real MQTT brokers for network tests: the embedded one, and Mosquitto when installed."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from cakeparty.broker.embedded import free_port


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    for path in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"):
        if Path(path).exists():
            return path
    return None


NO_MOSQUITTO = "Mosquitto is not installed (apt-get install mosquitto; .ci/run installs it)"


def wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.02)
    raise TimeoutError(f"nothing listens on port {port}")


class Mosquitto:
    """A Mosquitto process on a free loopback port; can be stopped and started again."""

    def __init__(self, port: int | None = None) -> None:
        binary = mosquitto_binary()
        if binary is None:
            raise RuntimeError(NO_MOSQUITTO)
        self.binary = binary
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cakeparty-mosquitto-"))
        # started as root, Mosquitto drops to its own user: it must be able to write here
        self.dir.chmod(0o777)
        self.conf = self.dir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\n"
            f"persistence true\npersistence_location {self.dir}/\n"
            "max_queued_messages 10000\nset_tcp_nodelay true\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.conf)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_listening(self.port)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(5)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process = None

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def embedded_broker_process(port: int | None = None) -> Iterator[str]:
    """The embedded broker as a separate ``cakeparty broker`` process."""
    import sys

    port = port or free_port()
    exe = Path(sys.executable).with_name("cakeparty")
    proc = subprocess.Popen(
        [str(exe), "broker", "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_listening(port, 20)
        yield f"mqtt://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def configured_mosquitto(folder: Path, conf: str, *ports: int) -> Iterator[None]:
    """Mosquitto run with ``conf`` (written in ``folder``, removed afterwards) until the
    block ends, once it listens on every one of ``ports``."""
    binary = mosquitto_binary()
    if binary is None:
        raise RuntimeError(NO_MOSQUITTO)
    path = folder / "mosquitto.conf"
    path.write_text(conf)
    proc = subprocess.Popen([binary, "-c", str(path)], stderr=subprocess.DEVNULL)
    try:
        for port in ports:
            wait_listening(port)
        yield
    finally:
        proc.terminate()
        proc.wait(5)
        shutil.rmtree(folder, ignore_errors=True)

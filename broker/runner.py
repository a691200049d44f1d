"""The embedded broker as a process of its own, so that it outlives the app that hosts.

A host's app starts it detached (a session of its own: a crash of the app, or a closed
terminal, does not take it down), with ``python -m cakeparty.broker``; it stops by itself
once no client has been connected for :data:`IDLE_EXIT` seconds. The app records its
process id and port beside its journals, so that a host who comes back finds it still
running, or starts it again on the same port, where the others are trying to reconnect.

Under ``cakeparty serve-ssh`` (:data:`BOUND_ENV` set in the app's environment) a broker is
the session's instead: it stays in the app's process group, so it ends with the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from cakeparty.broker.embedded import port_is_free, quiet_amqtt, serve

IDLE_EXIT = 600.0  # seconds with no client before a host's broker stops by itself
START_TIMEOUT = 15.0
#: Set to "1" in the environment of an app whose brokers end with its session (the app
#: of a ``serve-ssh`` session: a stranger's broker must not outlive their visit).
BOUND_ENV = "CAKEPARTY_BROKER_BOUND"


class BrokerStartError(OSError):
    """The broker process could not start (its port is taken, or it died at once)."""


def listening(port: int, host: str = "127.0.0.1", timeout: float = 0.5) -> bool:
    """Whether something accepts TCP connections on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        return sock.connect_ex((host, port)) == 0


def run(
    host: str,
    port: int,
    *,
    idle: float | None = None,
    log_file: str | Path | None = None,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM, or until idle for ``idle`` seconds. Raises
    :class:`OSError` at once when the port cannot be listened on."""
    quiet_amqtt(log_file)
    if not port_is_free(port, host):
        raise OSError(f"port {port} is already in use")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        # an error in one of amqtt's tasks is its log's business, not the terminal's
        loop.set_exception_handler(lambda _loop, _context: None)
        ready = asyncio.Event()
        task = asyncio.create_task(serve(host, port, ready, idle=idle))
        waiting = asyncio.create_task(ready.wait())
        await asyncio.wait({task, waiting}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            waiting.cancel()
            task.result()  # the reason it could not start
            return  # idle from the start (idle 0)
        if on_ready is not None:
            on_ready()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({task, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 10)

    asyncio.run(main())


def command(port: int, host: str, idle: float, log_file: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "cakeparty.broker",
        "--port",
        str(port),
        "--host",
        host,
        "--idle",
        str(idle),
        "--log",
        str(log_file),
    ]


def bound_to_session() -> bool:
    """Whether a broker this app starts ends with the app's session (:data:`BOUND_ENV`)."""
    return os.environ.get(BOUND_ENV) == "1"


def spawn(
    port: int,
    *,
    host: str = "0.0.0.0",
    idle: float = IDLE_EXIT,
    log_file: Path,
    detached: bool = True,
) -> int:
    """Start a broker on ``port`` and wait until it listens; its process id. Raises
    :class:`BrokerStartError` if it cannot. ``detached``: in a session of its own, so it
    outlives the app; otherwise in the app's process group, which a hang-up ends."""
    log_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(log_file, "ab") as out:
        proc = subprocess.Popen(
            command(port, host, idle, log_file),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=detached,  # not in the app's process group: a crash spares it
            close_fds=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log_file.read_text(errors="replace").strip().splitlines()[-1:]
            raise BrokerStartError(tail[0] if tail else f"the broker exited ({proc.returncode})")
        if listening(port):
            _reap_later(proc)
            return proc.pid
        time.sleep(0.05)
    stop(proc.pid)
    raise BrokerStartError(f"the broker did not listen on port {port} in time")


def _reap_later(proc: subprocess.Popen[bytes]) -> None:
    # the broker is meant to outlive us; while we live, do not leave it a zombie
    import threading

    threading.Thread(target=proc.wait, name=f"broker-{proc.pid}", daemon=True).start()


def is_ours(pid: int, port: int) -> bool:
    """Whether ``pid`` is a Cake Party broker on ``port`` (not a reused process id)."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"cakeparty.broker" in args and str(port).encode() in args


def stop(pid: int) -> None:
    """Stop a broker this user started (SIGTERM: it closes its clients' connections)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGTERM)

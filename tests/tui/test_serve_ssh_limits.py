"""``cakeparty serve-ssh`` keeps its bounds: a session that cannot start gives its place
back. The server runs in the test's own process (so a failure can be provoked where it
happens), driven by an asyncssh client; every wait is on a condition."""

from __future__ import annotations

import asyncio
import contextlib
import pty
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from cakeparty.broker.embedded import free_port
from cakeparty.tui.sshserve.server import ServeOptions, serve

#: the most any one step is waited for; a step that passes never waits this long
WAIT = 60.0


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, **options: Any) -> AsyncIterator[ServeOptions]:
    """The server on a free loopback port, its players under ``tmp_path``, until the end
    of the block."""
    served = ServeOptions(
        host="127.0.0.1",
        port=free_port(),
        host_key=asyncssh.generate_private_key("ssh-ed25519"),
        players=tmp_path / "players",
        **options,
    )
    ready = asyncio.Event()
    task = asyncio.create_task(serve(served, ready.set))
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait({task, waiting}, timeout=WAIT, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        waiting.cancel()
        task.result()  # the reason it did not start
    assert ready.is_set(), "the server did not start"
    try:
        yield served
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, WAIT)


def connect(options: ServeOptions, key: asyncssh.SSHKey, user: str = "ann") -> Any:
    return asyncssh.connect(
        "127.0.0.1",
        options.port,
        username=user,
        client_keys=[key],
        known_hosts=None,
        login_timeout=WAIT,
    )


def a_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def test_a_session_whose_app_cannot_start_says_so_and_gives_its_place_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def out_of_terminals() -> tuple[int, int]:
        raise OSError("out of pty devices")

    monkeypatch.setattr(pty, "openpty", out_of_terminals)
    async with serving(tmp_path, max_sessions=1) as options:
        key = a_key()
        # one place: the second try finds it free again, not "the server is full"
        for _attempt in range(2):
            async with connect(options, key) as conn:
                result = await asyncio.wait_for(conn.run(term_type="xterm", check=False), WAIT)
            assert result.stdout == "Cannot start the app: out of pty devices\r\n"
            assert result.exit_status == 1
    log = capsys.readouterr().err
    assert log.count("ann (SHA256:") == 2
    assert log.count("cannot start the app: out of pty devices") == 2

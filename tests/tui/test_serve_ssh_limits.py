"""``cakeparty serve-ssh`` keeps its bounds: a session that cannot start gives its place
back, one key or one connection holds only so many sessions, and only so many
connections may be logging in at once. The server runs in the
test's own process (so a failure can be provoked where it happens), driven by an asyncssh
client; every wait is on a condition."""

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
from cakeparty.tui.sshserve import session
from cakeparty.tui.sshserve.server import MAX_LOGINS, MAX_LOGINS_FROM, ServeOptions, serve

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
        agent_path=None,
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


@pytest.fixture
def cat_for_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each session runs ``cat`` instead of the app: it starts at once and stays until
    hung up."""
    monkeypatch.setattr(session, "child_command", lambda argv: ["cat"])


async def running(conn: asyncssh.SSHClientConnection) -> asyncssh.SSHClientProcess[str]:
    """A session opened on ``conn``, once its program runs: what is typed comes back
    (the terminal echoes it only once the server has started the program)."""
    proc = await asyncio.wait_for(conn.create_process(term_type="xterm"), WAIT)
    proc.stdin.write("cake\n")
    await asyncio.wait_for(proc.stdout.readuntil("cake"), WAIT)
    return proc


async def once_running(
    conn: asyncssh.SSHClientConnection,
) -> asyncssh.SSHClientProcess[str] | None:
    """A session opened on ``conn`` and running, or ``None`` if the server refused it."""
    try:
        return await running(conn)
    except (asyncssh.ChannelOpenError, asyncio.IncompleteReadError, BrokenPipeError):
        return None


async def refused(conn: asyncssh.SSHClientConnection) -> asyncssh.SSHCompletedProcess:
    """A session opened on ``conn`` that the server refuses: what it says, its status."""
    result = await asyncio.wait_for(conn.run(term_type="xterm", check=False), WAIT)
    assert result.exit_status == 2, result
    return result


async def closed(proc: asyncssh.SSHClientProcess[str]) -> None:
    proc.close()
    await asyncio.wait_for(proc.wait_closed(), WAIT)


async def soon(attempt: Any) -> Any:
    """``attempt()`` again until it returns something: a place the server gives back once
    it has seen a session end, which it learns a moment after the client closed it."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while True:
        result = await attempt()
        if result is not None:
            return result
        assert asyncio.get_running_loop().time() < deadline, "never given back"
        await asyncio.sleep(0.05)


FULL_FOR_ANN = "Your key already has 3 sessions open here, the most one key may have at once"


@pytest.mark.usefixtures("cat_for_the_app")
async def test_one_key_has_at_most_three_sessions_at_once(tmp_path: Path) -> None:
    ann, bob = a_key(), a_key()
    async with serving(tmp_path, max_sessions=10) as options, contextlib.AsyncExitStack() as on:
        conns = [await on.enter_async_context(connect(options, ann)) for _ in range(4)]
        first = await running(conns[0])
        for conn in conns[1:3]:
            await running(conn)
        told = await refused(conns[3])
        assert told.stdout.startswith(FULL_FOR_ANN), told.stdout
        # another key is not held back by Ann's
        await running(await on.enter_async_context(connect(options, bob, "bob")))
        # one of Ann's sessions ends: she may open another
        await closed(first)
        await soon(lambda: once_running(conns[3]))


@pytest.mark.usefixtures("cat_for_the_app")
async def test_one_connection_opens_at_most_three_sessions(tmp_path: Path) -> None:
    async with serving(tmp_path) as options, connect(options, a_key()) as conn:
        first = await running(conn)
        for _more in range(2):
            await running(conn)
        with pytest.raises(asyncssh.ChannelOpenError, match="at most 3 sessions on one connection"):
            await conn.create_process(term_type="xterm")
        # a closed session's channel is given back to its connection
        await closed(first)
        await soon(lambda: once_running(conn))


async def greeting(port: int, source: str = "127.0.0.1") -> tuple[bytes, asyncio.StreamWriter]:
    """A bare TCP connection to the server (from ``source``, an address of this computer's
    loopback), and its first line: the server's SSH version, or nothing if it closed the
    connection at once."""
    line, _reader, writer = await greeted(port, source)
    return line, writer


async def greeted(
    port: int, source: str = "127.0.0.1"
) -> tuple[bytes, asyncio.StreamReader, asyncio.StreamWriter]:
    """:func:`greeting`, and what else the server sends on that connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        line = await asyncio.wait_for(reader.readline(), WAIT)
    except ConnectionResetError:
        line = b""
    return line, reader, writer


async def closed_by_server(reader: asyncio.StreamReader) -> None:
    """Until the server has closed the connection ``reader`` reads (what it sent before
    is read and dropped)."""
    with contextlib.suppress(ConnectionResetError):
        while await asyncio.wait_for(reader.read(4096), WAIT):
            pass


async def hung_up(writer: asyncio.StreamWriter) -> None:
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def test_only_so_many_connections_may_be_logging_in_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """When the places are full, a newcomer from the address holding them all is closed at
    once; one from elsewhere takes the place of that address's oldest (until it had none:
    it was closed at once as well)."""
    async with serving(tmp_path, max_logins=2) as options, contextlib.AsyncExitStack() as on:
        # a connection that logged in holds no place among those logging in
        await on.enter_async_context(connect(options, a_key()))
        first, first_reader, first_writer = await greeted(options.port)
        second, second_writer = await greeting(options.port)
        assert first == second == b"SSH-2.0-CakeParty\r\n"
        third, third_writer = await greeting(options.port)
        assert third == b""  # closed at once, before a word
        await hung_up(third_writer)
        # from another address: greeted, in place of the first, closed
        other, other_writer = await greeting(options.port, "127.0.0.4")
        assert other == b"SSH-2.0-CakeParty\r\n"
        await closed_by_server(first_reader)
        await hung_up(first_writer)
        # one of those waiting leaves: a newcomer gets its place
        await hung_up(second_writer)

        async def newcomer() -> bytes | None:
            line, writer = await greeting(options.port)
            await hung_up(writer)
            return line or None

        assert await soon(newcomer) == b"SSH-2.0-CakeParty\r\n"
        await hung_up(other_writer)
    log = capsys.readouterr().err
    assert log.count("2 connections are logging in at once: closing new ones from") == 1
    assert log.count("2 connections are logging in at once: a newcomer from an address") == 1


async def test_one_address_cannot_take_every_place_among_those_logging_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Connections that have not logged in share MAX_LOGINS places: one address opening
    that many and sending nothing kept everyone else from logging in for as long as it
    liked. One address holds MAX_LOGINS_FROM places at most; more from it are closed at
    once, and everyone else logs in."""
    async with serving(tmp_path) as options, contextlib.AsyncExitStack() as on:
        writers: list[asyncio.StreamWriter] = []
        greeted = 0
        for _attempt in range(MAX_LOGINS):
            line, writer = await greeting(options.port, "127.0.0.2")
            writers.append(writer)
            greeted += line == b"SSH-2.0-CakeParty\r\n"
        assert greeted == MAX_LOGINS_FROM
        # another address is greeted, and a player logs in
        line, writer = await greeting(options.port, "127.0.0.3")
        writers.append(writer)
        assert line == b"SSH-2.0-CakeParty\r\n"
        await on.enter_async_context(connect(options, a_key()))
        # one of those of the first address leaves: a newcomer from there gets its place
        for writer in writers[:MAX_LOGINS_FROM]:
            await hung_up(writer)

        async def newcomer() -> bytes | None:
            line, writer = await greeting(options.port, "127.0.0.2")
            await hung_up(writer)
            return line or None

        assert await soon(newcomer) == b"SSH-2.0-CakeParty\r\n"
        for writer in writers:
            await hung_up(writer)
    log = capsys.readouterr().err
    said = f"127.0.0.2 has {MAX_LOGINS_FROM} connections logging in: closing its new ones"
    assert log.count(said) == 1  # said once, not once a connection


async def test_many_addresses_cannot_take_every_place_among_those_logging_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Many addresses, each under MAX_LOGINS_FROM, filled the MAX_LOGINS places and every
    newcomer was closed at once. When the places are full, a newcomer from an address that
    holds fewer of them takes the place of the oldest connection of the address holding the
    most (closed); one from an address holding as many is closed at once."""
    busiest = "127.0.0.2"
    others = [f"127.0.1.{i}" for i in range(1, 1 + (MAX_LOGINS - MAX_LOGINS_FROM) // 7)]
    async with serving(tmp_path) as options, contextlib.AsyncExitStack() as on:
        held: dict[str, list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]] = {}

        async def hold(source: str) -> None:
            line, reader, writer = await greeted(options.port, source)
            assert line == b"SSH-2.0-CakeParty\r\n"
            held.setdefault(source, []).append((reader, writer))

        for _n in range(MAX_LOGINS_FROM):
            await hold(busiest)
        for source in others:  # fewer each than the busiest
            for _n in range(7):
                await hold(source)
        assert sum(map(len, held.values())) == MAX_LOGINS
        # full: a newcomer from an address with none is greeted all the same ...
        await hold("127.0.0.3")
        # ... in place of the busiest address's oldest, closed
        await closed_by_server(held[busiest][0][0])
        # an address holding as many as the busiest (7 now) gets no place
        line, writer = await greeting(options.port, others[0])
        assert line == b""
        await hung_up(writer)
        # and a player from yet another address logs in
        await on.enter_async_context(connect(options, a_key()))
        for writers in held.values():
            for _reader, writer in writers:
                await hung_up(writer)
    log = capsys.readouterr().err
    said = f"{MAX_LOGINS} connections are logging in at once: a newcomer from an address"
    assert log.count(said) == 1  # said once, not once a connection closed
    assert f"the oldest of {busiest}" in log


def test_the_limit_of_one_key_is_an_option() -> None:
    from cakeparty.tui.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["serve-ssh"]).max_per_key == 3
    assert parser.parse_args(["serve-ssh", "--max-per-key", "1"]).max_per_key == 1
    with pytest.raises(SystemExit):
        parser.parse_args(["serve-ssh", "--max-per-key", "0"])


def test_the_help_says_how_many_may_be_logging_in(capsys: pytest.CaptureFixture[str]) -> None:
    from cakeparty.tui.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve-ssh", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert (
        f"at most {MAX_LOGINS} may be logging in at once, {MAX_LOGINS_FROM} of them from one "
        "address (an IPv6 /64)"
    ) in said

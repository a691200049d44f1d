"""``cakeparty serve-web`` against one address that opens connections and keeps them, each
with its request sent and answered (kept alive), or opens tabs and keeps them: real
sockets and real websockets to a real server process. Needs no browser."""

from __future__ import annotations

import asyncio
import socket
import time
import urllib.request

import pytest

from cakeparty.tui.webserve import DEFAULT_PER_ADDRESS, MOST_OPEN_FROM
from tests.tui.web import BINARY, DEADLINE, serving

pytestmark = pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed")

REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def _answered(sock: socket.socket) -> bytes:
    """The beginning of the server's answer to :data:`REQUEST` on ``sock``: ``b""`` if it
    closed the connection instead."""
    try:
        sock.sendall(REQUEST)
        return sock.recv(4096)
    except (ConnectionResetError, BrokenPipeError):
        return b""


def _kept(port: int, source: str) -> socket.socket:
    """A connection from ``source`` (an address of this computer's loopback) whose request
    was answered, kept open (HTTP/1.1 keeps it alive)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(DEADLINE)
    sock.connect(("127.0.0.1", port))
    return sock


def _page(url: str) -> int:
    with urllib.request.urlopen(url + "/", timeout=30) as answer:
        status: int = answer.status
        return status


def test_one_address_keeps_only_so_many_connections_open() -> None:
    """Connections whose request was answered stay open, idle, for the next one: a client
    sending complete requests as fast as it liked kept any number open, past the files
    the server may open, and every other visitor's page stopped loading. One address keeps
    MOST_OPEN_FROM open at once; one more is closed before its request is read."""
    with serving(files=4 * MOST_OPEN_FROM) as served:
        held: list[socket.socket] = []
        try:
            for _ in range(MOST_OPEN_FROM):
                sock = _kept(served.port, "127.0.0.2")
                held.append(sock)
                assert _answered(sock).startswith(b"HTTP/1.1 200")
            # each asks again, so that none is idle long enough to be closed meanwhile
            for sock in held:
                assert _answered(sock).startswith(b"HTTP/1.1 200")
            with _kept(served.port, "127.0.0.2") as one_more:
                assert _answered(one_more) == b""
            assert _page(served.url) == 200  # another address gets in
        finally:
            for sock in held:
                sock.close()
        # the address's connections are closed: it may open more
        end = time.monotonic() + DEADLINE
        while True:
            with _kept(served.port, "127.0.0.2") as again:
                if _answered(again).startswith(b"HTTP/1.1 200"):
                    break
            assert time.monotonic() < end, "the closed connections were never given back"
            time.sleep(0.1)
        log = served.output()
        assert f"a connection refused: 127.0.0.2 has {MOST_OPEN_FROM} open" in log
        assert "Traceback" not in log


def test_many_addresses_keep_only_so_many_connections_open() -> None:
    """Many addresses, each under MOST_OPEN_FROM, kept more connections open in all than
    the server may open files. Together they keep at most half of them: past that, a
    newcomer from an address with fewer takes the place of the oldest connection of the
    address with the most (closed), so a page still loads for a newcomer."""
    files = 200  # the server's limit of open files, sockets among them
    most = files // 2
    per_address = MOST_OPEN_FROM - 2
    sources = [f"127.0.1.{i}" for i in range(1, 1 + files // per_address + 1)]
    with serving(files=files) as served:
        held: list[socket.socket] = []
        try:
            for source in sources:
                for _ in range(per_address):
                    sock = _kept(served.port, source)
                    if _answered(sock):
                        held.append(sock)
                    else:  # refused at once: no harm done
                        sock.close()
            assert _page(served.url) == 200
            # those still open are answered again; the others were closed by the server
            still = [sock for sock in held if _answered(sock).startswith(b"HTTP/1.1 200")]
            assert 0 < len(still) <= most
        finally:
            for sock in held:
                sock.close()
        log = served.output()
        assert "Too many open files" not in log  # the server always had sockets left
        assert f"a connection closed to make room: {most} were open" in log
        assert "Traceback" not in log


async def _tab(url: str, source: str, opened: asyncio.Event | None = None) -> bytes:
    """A websocket from ``source``, as a page opens it: what the server writes to its
    terminal until it closes it (``opened`` is set once the app has written)."""
    import aiohttp

    got = b""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with (
        aiohttp.ClientSession(connector=connector) as http,
        http.ws_connect(url + "/ws") as ws,
    ):
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                got += message.data
                if opened is not None:
                    opened.set()
    return got


def test_one_address_opens_only_so_many_tabs() -> None:
    """Each tab runs an app, at most --max-sessions of them: one address could take them
    all and keep everyone else out. It has --max-per-address at once; one more is told."""
    assert DEFAULT_PER_ADDRESS == 8
    with serving("--max-sessions", "4", "--max-per-address", "2") as served:

        async def tabs() -> bytes:
            mine = []
            for _ in range(2):
                opened = asyncio.Event()
                task = asyncio.create_task(_tab(served.url, "127.0.0.2", opened))
                waiting = asyncio.create_task(opened.wait())
                await asyncio.wait({task, waiting}, timeout=DEADLINE, return_when="FIRST_COMPLETED")
                assert opened.is_set(), "the tab's app did not start"
                mine.append(task)
            # one more from there is told, and closed
            third = await asyncio.wait_for(_tab(served.url, "127.0.0.2"), DEADLINE)
            # another address's tab opens its app
            opened = asyncio.Event()
            other = asyncio.create_task(_tab(served.url, "127.0.0.3", opened))
            await asyncio.wait_for(opened.wait(), DEADLINE)
            for task in (*mine, other):
                task.cancel()
            await asyncio.gather(*mine, other, return_exceptions=True)
            return third

        third = asyncio.run(tabs())
        assert b"Too many tabs from your address (2 at once): close one and try again." in third
        log = served.output()
        assert "a tab refused: 127.0.0.2 has 2 tabs open" in log
        assert "Traceback" not in log

"""``cakeparty serve-web`` against clients that open connections and send their request
slowly, or never (slowloris): real sockets to a real server process. Needs no browser."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request

import pytest

from cakeparty.tui.webserve import HEADER_WAIT, MOST_WAITING_FROM
from tests.tui.web import BINARY, DEADLINE, serving

pytestmark = pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed")

#: a request begun, its headers never finished
BEGUN = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def _slow(port: int, source: str) -> socket.socket:
    """A connection from ``source`` (an address of this computer's loopback) that has
    sent the beginning of a request, and no more."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(DEADLINE)
    sock.connect(("127.0.0.1", port))
    sock.sendall(BEGUN)
    return sock


def _page(url: str) -> int:
    with urllib.request.urlopen(url + "/", timeout=30) as answer:
        status: int = answer.status
        return status


def _closed(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` without a word (``socket.timeout`` if it did not
    within the deadline)."""
    try:
        return sock.recv(4096) == b""
    except ConnectionResetError:
        return True


def test_a_request_never_finished_is_closed_after_a_while() -> None:
    """A connection that sends the beginning of a request and then a header line now and
    then, never finishing it, was kept for 75 s: it is closed after HEADER_WAIT."""
    with serving() as served:
        sock = _slow(served.port, "127.0.0.1")
        began = time.monotonic()
        sock.settimeout(1.0)
        with sock:
            while True:  # a header line a second, as slowly as the server allows
                try:
                    if sock.recv(4096) == b"":
                        break
                except TimeoutError:
                    pass
                assert time.monotonic() - began < 60, "the slow request was kept"
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow: 1\r\n")
        assert time.monotonic() - began >= HEADER_WAIT - 1
        assert _page(served.url) == 200
        assert f"a connection closed: no request within {round(HEADER_WAIT)} seconds" in (
            served.output()
        )


def test_a_connection_that_sends_nothing_is_closed_without_a_word_in_the_log() -> None:
    """Browsers open connections ahead of their next requests and leave them unused: such a
    connection is closed after HEADER_WAIT like a slow one, but the log, which says a slow
    request each time, does not fill with these."""
    with serving() as served:
        silent = socket.create_connection(("127.0.0.1", served.port), timeout=DEADLINE)
        with silent:
            assert _closed(silent)
        slow = _slow(served.port, "127.0.0.1")
        with slow:
            assert _closed(slow)
        said = f"a connection closed: no request within {round(HEADER_WAIT)} seconds"
        end = time.monotonic() + DEADLINE
        while said not in served.output():  # the slow one's line, after the silent one
            assert time.monotonic() < end, served.output()
            time.sleep(0.1)
        assert served.output().count(said) == 1


def test_one_address_cannot_hold_every_place_and_the_server_keeps_its_sockets() -> None:
    """Connections that never finish their request each hold a socket: a client opening
    more than the server may have files open left it refusing everyone (and had one
    address hold every place). From one address, MOST_WAITING_FROM connections not past
    their request wait at once, one more is closed at once; from many, the server
    keeps a share of its sockets for the rest, and a page still loads."""
    files = 200  # the server's limit of open files, sockets among them
    with serving(files=files) as served:
        held: list[socket.socket] = []
        try:
            for _ in range(MOST_WAITING_FROM):
                held.append(_slow(served.port, "127.0.0.2"))
            one_more = _slow(served.port, "127.0.0.2")
            with one_more:
                one_more.settimeout(30)  # the server kept the others 75 s
                assert _closed(one_more)
            assert _page(served.url) == 200  # another address gets in
            # many addresses, a few each, more in all than the server may open files
            for i in range(files + 50):
                source = f"127.0.{3 + i // 4}.{1 + i % 4}"
                with contextlib.suppress(OSError):  # refused at once: no harm done
                    held.append(_slow(served.port, source))
            assert _page(served.url) == 200
        finally:
            for sock in held:
                sock.close()
        log = served.output()
        assert f"a connection refused: 127.0.0.2 has {MOST_WAITING_FROM} waiting" in log
        assert "a connection closed to make room" in log
        assert "Traceback" not in log


def test_connections_are_counted_by_address_and_ipv6_by_its_64() -> None:
    from cakeparty.tui.serving import address_key

    assert address_key(("203.0.113.7", 5000)) == "203.0.113.7"
    one, other = ("2001:db8:1:2::1", 5000, 0, 0), ("2001:db8:1:2:ffff::9", 6000, 0, 0)
    assert address_key(one) == address_key(other) == "2001:db8:1:2::/64"
    assert address_key(("2001:db8:1:3::1", 5000, 0, 0)) != address_key(one)
    assert address_key(("::ffff:203.0.113.7", 5000, 0, 0)) == "203.0.113.7"
    assert address_key(None) == ""

"""``cakeparty serve-web``: the app in a real browser (Debian's Chromium via Playwright),
and the checks that keep other sites from driving it."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cakeparty.tui import webserve
from cakeparty.tui.cli import build_parser
from cakeparty.tui.serving import MOST_CELLS
from cakeparty.tui.webserve import (
    app_command,
    is_loopback,
    origin_refusal,
    page_message,
)
from tests.tui.web import DEADLINE, BrowserTerminal, WebServer, chromium, missing_tooling, serving

MENU = ("Join a game", "Rules and cards", "Settings")


@pytest.fixture
def tooling() -> None:
    """The browser tests run wherever their tooling is; CI installs it (``.ci/run``), so
    there a missing piece is a failure, never a skip."""
    missing = missing_tooling()
    if missing is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"serve-web's browser test cannot run: {missing}")
    pytest.skip(missing)


@pytest.fixture
def server(tooling: None) -> Iterator[WebServer]:
    with serving() as running:
        yield running


def test_the_browser_opens_the_app_and_its_keys_reach_it(
    server: WebServer, config_dir: Path
) -> None:
    with chromium() as browser:
        page = browser.new_page()
        term = BrowserTerminal(page)
        page.goto(server.url + "/")
        # a fresh identity: the app first asks for the name others will see
        term.wait_for(lambda s: "Welcome to Cake Party" in s, "the name prompt")
        page.wait_for_function("document.body.classList.contains('-first-byte')")
        assert page.title() == "Cake Party"
        term.focus()
        page.keyboard.type("Bea")
        term.wait_for(lambda s: "Bea" in s, "the typed name in the prompt")
        page.keyboard.press("Enter")
        screen = term.wait_for(lambda s: all(m in s for m in MENU), "the menu")
        assert "Hello, Bea." in screen
        # the app runs as the server's user: the name is saved in the server's settings
        saved = json.loads((config_dir / "settings.json").read_text(encoding="utf-8"))
        assert saved["name"] == "Bea"
        # a menu key opens its screen: the settings, over the menu
        page.keyboard.press("o")
        term.wait_for(
            lambda s: "Display name" in s and "Bot delay" in s and "Rules and cards" not in s,
            "the settings",
        )
        assert term.frames > 1
        assert ["stdin", "o"] in term.sent  # the key went through the page's websocket
        assert len(server.apps()) == 1  # this page's app
        page.close()
        end = time.monotonic() + DEADLINE
        while server.apps():  # closing the page ends its app
            assert time.monotonic() < end, "the app outlived its page"
            time.sleep(0.1)
    assert "Serving Cake Party on " + server.url in server.output()


def test_keys_reach_the_app_with_no_click_and_enter_restarts_it_once_it_ends(
    server: WebServer, config_dir: Path
) -> None:
    """Keyboard first: a page just opened takes keys without a click on the terminal, and
    once its app has quit, enter starts a new one."""
    with chromium() as browser:
        page = browser.new_page()
        term = BrowserTerminal(page)
        page.goto(server.url + "/")
        term.wait_for(lambda s: "Welcome to Cake Party" in s, "the name prompt")
        page.keyboard.type("Bea")  # no click, no focus set by hand
        term.wait_for(lambda s: "Bea" in s, "the typed name in the prompt")
        page.keyboard.press("Enter")
        term.wait_for(lambda s: "Hello, Bea." in s, "the menu")
        page.keyboard.press("q")  # the app quits; the page says so
        page.wait_for_function("document.body.classList.contains('-closed')")
        again = BrowserTerminal(page)  # the next app's screen, from its first byte
        page.keyboard.press("Enter")
        again.wait_for(lambda s: "Hello, Bea." in s, "the menu of a new app")
        page.keyboard.press("r")
        again.wait_for(lambda s: "Which game?" in s, "the rules asking which game")


def test_the_servers_language_is_the_apps_in_every_tab(tooling: None) -> None:
    with serving("--lang", "pl") as served:
        with chromium() as browser:
            page = browser.new_page()
            term = BrowserTerminal(page)
            page.goto(served.url + "/")
            # the app the tab runs speaks it, not only the page around it
            term.wait_for(lambda s: "Witaj w Cake Party" in s, "the name prompt in Polish")
            assert "Welcome" not in term.screen()
            page.close()
        assert "Cake Party działa pod adresem " + served.url in served.output()


def _get(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def test_another_site_cannot_open_the_app(server: WebServer) -> None:
    port = server.port
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    # a page from elsewhere, or this server reached through a name that is not loopback
    # (DNS rebinding), is refused before any app starts
    hostile = {**upgrade, "Origin": "http://cakes.example"}
    assert _get(f"{server.url}/ws", hostile) == 403
    rebound = {**upgrade, "Host": f"cakes.example:{port}", "Origin": f"http://cakes.example:{port}"}
    assert _get(f"{server.url}/ws", rebound) == 403
    assert _get(f"{server.url}/", {"Host": f"cakes.example:{port}"}) == 403
    # the page itself, asked for by its own name, is served
    assert _get(f"{server.url}/", {}) == 200
    assert _get(f"http://localhost:{port}/", {}) == 200


def test_origin_rules() -> None:
    page = "127.0.0.1:8000"
    assert (
        origin_refusal(origin=f"http://{page}", host=page, listening="127.0.0.1", public_url=None)
        is None
    )
    assert origin_refusal(origin=None, host=page, listening="127.0.0.1", public_url=None) is None
    assert origin_refusal(
        origin="http://evil.example", host=page, listening="127.0.0.1", public_url=None
    )
    assert origin_refusal(origin=None, host="[::1", listening="127.0.0.1", public_url=None)
    assert origin_refusal(origin="http://[::1", host=page, listening="127.0.0.1", public_url=None)
    # listening everywhere: any name the browser used, as long as the page is ours
    lan = "cakebox.lan:8000"
    assert (
        origin_refusal(origin=f"http://{lan}", host=lan, listening="0.0.0.0", public_url=None)
        is None
    )
    assert origin_refusal(
        origin="http://evil.example", host=lan, listening="0.0.0.0", public_url=None
    )
    # behind a proxy: the public address is the only page allowed
    public = "https://cake.example.org"
    assert (
        origin_refusal(
            origin=public, host="127.0.0.1:8000", listening="127.0.0.1", public_url=public
        )
        is None
    )
    assert origin_refusal(
        origin="https://evil.example",
        host="127.0.0.1:8000",
        listening="127.0.0.1",
        public_url=public,
    )


def test_loopback_names() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "192.0.2.7", "cakebox.lan"))


def test_the_command_line() -> None:
    parser = build_parser()
    args = parser.parse_args(["serve-web"])
    assert (args.host, args.port, args.public_url) == ("127.0.0.1", 8000, None)
    args = parser.parse_args(
        ["serve-web", "--host", "0.0.0.0", "--port", "8080", "--public-url", "https://c.example/"]
    )
    assert (args.host, args.port, args.public_url) == ("0.0.0.0", 8080, "https://c.example")
    for bad in (["--port", "0"], ["--port", "70000"], ["--public-url", "c.example"]):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(["serve-web", *bad])
        assert exit_.value.code == 2
    assert "cakeparty.tui.webserve" in app_command()
    assert app_command("es").endswith("cakeparty.tui.webserve --lang es")
    assert parser.parse_args(["serve-web", "--lang", "pl"]).lang == "pl"
    args = parser.parse_args(["serve-web", "--max-sessions", "3", "--idle-timeout", "0"])
    assert (args.max_sessions, args.idle_timeout) == (3, 0)
    assert parser.parse_args(["serve-web"]).max_per_address == 8
    assert parser.parse_args(["serve-web", "--max-per-address", "10"]).max_per_address == 10
    for bad in (
        ["--max-sessions", "0"],
        ["--idle-timeout", "-1"],
        ["--idle-timeout", "x"],
        ["--max-per-address", "0"],
    ):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(["serve-web", *bad])
        assert exit_.value.code == 2


def test_listening_beyond_this_computer_is_said_plainly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    served: list[tuple[str, int, str | None, str | None]] = []

    class Server:
        def __init__(self, *where: object, **bounds: int) -> None:
            served.append(where)  # type: ignore[arg-type]
            assert bounds == {"max_sessions": 10, "idle_timeout": 1800, "max_per_address": 8}

        def serve(self) -> None:
            pass

    monkeypatch.setattr(webserve, "build_server", Server)
    parser = build_parser()
    for host in ("127.0.0.1", "0.0.0.0"):
        args = parser.parse_args(["serve-web", "--host", host])
        assert args.run(args, args.parser) == 0
    assert served == [("127.0.0.1", 8000, None, None), ("0.0.0.0", 8000, None, None)]
    warned = capsys.readouterr().err
    assert warned.count("Warning: listening on") == 1
    assert "Warning: listening on 0.0.0.0" in warned
    assert "as you" in warned


def test_what_a_page_may_ask() -> None:
    assert page_message('["stdin", "q"]') == ("stdin", "q")
    assert page_message('["resize", {"width": 100, "height": 30}]') == ("resize", (100, 30))
    assert page_message('["ping", "7"]') == ("ping", "7")
    assert page_message('["blur"]') == ("blur", None)
    # a terminal of any size asked is one of at most MOST_CELLS a side, at least 1
    huge = f'["resize", {{"width": {2**64}, "height": 100000}}]'
    assert page_message(huge) == ("resize", (MOST_CELLS, MOST_CELLS))
    assert page_message('["resize", {"width": -5, "height": 0}]') == ("resize", (1, 1))
    assert page_message('["resize", {"width": "x", "height": 1e999}]') == ("resize", (80, 24))
    # anything else is no message of the page's: ignored
    for junk in (
        "not json",
        "[]",
        "{}",
        '"stdin"',
        '[5, "q"]',
        '["stdin", 5]',
        '["stdin"]',
        '["resize", 5]',
        '["ping", {"a": 1}]',
        '["exec", "sh"]',
        "[" * 5000,
    ):
        assert page_message(junk) is None, junk


async def _tab(url: str, *sent: str, until_closed: bool = True) -> bytes:
    """A websocket to the server as a page opens it: ``sent`` goes to it, and what it
    writes to the terminal comes back (until the server closes it)."""
    import aiohttp

    got = b""
    async with aiohttp.ClientSession() as http, http.ws_connect(url + "/ws") as socket:
        for text in sent:
            await socket.send_str(text)
        if until_closed:
            async for message in socket:
                if message.type == aiohttp.WSMsgType.BINARY:
                    got += message.data
    return got


def test_a_stranger_gets_one_line_and_the_server_goes_on(server: WebServer) -> None:
    import asyncio

    # the websocket's address asked for as a page: refused in a line, no app started
    request = urllib.request.Request(server.url + "/ws")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    assert "open " + server.url + "/ in a browser" in refused.value.read().decode()
    assert server.apps() == []

    # junk, an absurd size and a closed tab: the app is started, sized within bounds,
    # and ends with its tab
    junk = ["not json", "[]", '["stdin", 5]', '["resize", 5]', '["resize", {"width": "x"}]']
    huge = '["resize", {"width": 100000, "height": 100000}]'
    asyncio.run(_tab(server.url, *junk, huge, until_closed=False))
    end = time.monotonic() + DEADLINE
    while server.apps():
        assert time.monotonic() < end, "the app outlived its tab"
        time.sleep(0.1)
    assert _get(server.url + "/", {}) == 200
    assert "Traceback" not in server.output()


def test_tabs_are_bounded_and_an_idle_one_closes(tooling: None) -> None:
    import asyncio

    with serving("--max-sessions", "1", "--idle-timeout", "5") as served:

        async def two_tabs() -> tuple[bytes, bytes]:
            first = asyncio.create_task(_tab(served.url, '["stdin", "B"]'))
            while not served.apps():  # the first tab's app runs
                assert not first.done(), "the first tab closed early"
                await asyncio.sleep(0.1)
            second = await _tab(served.url)  # one more than --max-sessions
            return await first, second

        first, second = asyncio.run(two_tabs())
        assert b"The server is full (1 tab at once): try again later." in second
        # the first tab, left without a key press, was closed and its app ended
        assert b"Closed after 5 seconds without a key press" in first
        end = time.monotonic() + DEADLINE
        while served.apps():
            assert time.monotonic() < end, "the idle tab's app outlived it"
            time.sleep(0.1)
        log = served.output()
        assert "a tab refused: 1 tab is open" in log
        assert "a tab closed for want of a key press" in log


def test_an_app_that_does_not_quit_with_its_tab_is_killed(server: WebServer) -> None:
    import asyncio
    import signal

    async def tab_then_stop() -> None:
        task = asyncio.create_task(_tab(server.url))
        while not server.apps():
            assert not task.done(), "the tab closed early"
            await asyncio.sleep(0.1)
        for pid in server.apps():
            os.kill(pid, signal.SIGSTOP)  # it can no longer read the page's quit
        task.cancel()  # the page goes

    asyncio.run(tab_then_stop())
    end = time.monotonic() + DEADLINE
    while server.apps():
        assert time.monotonic() < end, "the stopped app was not killed"
        time.sleep(0.1)
    assert "an app that did not quit when its tab closed was killed" in server.output()

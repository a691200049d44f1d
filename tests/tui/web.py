"""A real ``cakeparty serve-web`` process and Debian's Chromium driven by Playwright.

The browser's terminal draws on a canvas, so the screen is read from what the page
receives: every frame its websocket gets is fed to a terminal emulator (pyte) of the
size the page asked for, exactly as xterm.js in the page is fed.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from cakeparty.broker.embedded import free_port

CHROMIUM = Path("/usr/bin/chromium")
BINARY = Path(sys.executable).with_name("cakeparty")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: generous: a loaded 2-core machine starts Chromium and a Textual app slowly
DEADLINE = 90.0


def missing_tooling() -> str | None:
    """What the browser tests lack on this machine, or ``None``."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    for module in ("playwright", "pyte"):
        try:
            __import__(module)
        except ImportError:
            return f"the {module} package is missing (pip install -e '.[test]')"
    if not BINARY.exists():
        return f"{BINARY} is not installed (pip install -e .)"
    return None


class WebServer:
    """``cakeparty serve-web`` as a process of its own, in its own process group so the
    app processes it starts for each browser end with it."""

    def __init__(
        self, *args: str, env: dict[str, str] | None = None, files: int | None = None
    ) -> None:
        """``files``: the most files (sockets among them) the server may have open."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop)

        def limited() -> None:
            if files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.process = subprocess.Popen(
            [str(BINARY), "serve-web", "--port", str(self.port), *args],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
            preexec_fn=limited if files is not None else None,
        )

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def wait_ready(self, deadline: float = DEADLINE) -> None:
        """Until the page answers (the server is listening), or fail with its output."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise AssertionError(f"serve-web exited early:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=5) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)  # not listening yet: poll again
        raise AssertionError(f"serve-web did not answer in {deadline}s:\n{self.output()}")

    def apps(self) -> list[int]:
        """The app processes the server runs now, one per open page."""
        found = []
        for proc in Path("/proc").glob("[0-9]*"):
            try:
                stat = (proc / "stat").read_text()
                args = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue  # ended meanwhile
            group = int(stat.rsplit(")", 1)[1].split()[2])
            if group == self.process.pid and b"cakeparty.tui.webserve" in args:
                found.append(int(proc.name))
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):  # app processes left behind, if any
            os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


@contextlib.contextmanager
def serving(*args: str, files: int | None = None) -> Iterator[WebServer]:
    """``cakeparty serve-web args`` running and ready (``files``: as :class:`WebServer`),
    stopped after."""
    server = WebServer(*args, files=files)
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


class BrowserTerminal:
    """One page of the served app in headless Chromium; ``screen()`` is its text."""

    def __init__(self, page: Any) -> None:
        import pyte

        self.page = page
        self.screen_ = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen_)
        self.frames = 0
        self.sent: list[Any] = []
        page.on("websocket", self._attach)

    def _attach(self, ws: Any) -> None:
        query = parse_qs(urlsplit(ws.url).query)
        width = int(query.get("width", ["80"])[0])
        height = int(query.get("height", ["24"])[0])
        self.screen_.resize(height, width)
        ws.on("framereceived", self._received)
        ws.on("framesent", self._sent)

    def _received(self, payload: bytes | str) -> None:
        if isinstance(payload, bytes):  # the app's output; text frames are control
            self.stream.feed(payload)
            self.frames += 1

    def _sent(self, payload: bytes | str) -> None:
        with contextlib.suppress(ValueError, TypeError):
            message = json.loads(payload)
            self.sent.append(message)
            if message[0] == "resize":
                self.screen_.resize(message[1]["height"], message[1]["width"])

    def screen(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen_.display)

    def wait_for(self, test: Callable[[str], bool], what: str, deadline: float = DEADLINE) -> str:
        """Until ``test`` holds for the screen; the browser's events are delivered
        while waiting."""
        end = time.monotonic() + deadline
        while True:
            text = self.screen()
            if test(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"waited {deadline}s for {what}; the screen was:\n{text}")
            self.page.wait_for_timeout(50)

    def focus(self) -> None:
        self.page.focus("textarea.xterm-helper-textarea")


@contextlib.contextmanager
def chromium(width: int = 1000, height: int = 600) -> Iterator[Any]:
    """A fresh headless Chromium (the system's), with its own throw-away profile."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": width, "height": height},
        )
        try:
            yield context
        finally:
            context.close()

"""How fast the app feels in a browser: ``cakeparty serve-web`` on loopback, opened in
headless Chromium (Debian's, driven by Playwright).

* page to menu: from asking for the page to the frame that completes the main menu (the
  server starts a fresh app for each page), ``--loads`` times;
* key press: from the browser's keydown (↓/↑ along the menu) to the first frame of the
  update it causes, both timed inside the page; median and worst over ``--presses``.

Usage: python bench/web.py [--loads 5] [--presses 50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' browser helpers

from tests.tui.web import BrowserTerminal, WebServer, chromium, missing_tooling

MENU = ("Join a game", "Rules and cards", "Settings")

#: in the page: when each keydown happened and when each frame of app output arrived
TIMING = """
window.cakeTiming = {keys: [], frames: []};
document.addEventListener("keydown", () => window.cakeTiming.keys.push(performance.now()), true);
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      if (typeof event.data !== "string") window.cakeTiming.frames.push(performance.now());
    });
  }
};
"""
AFTER_KEY = "window.cakeTiming.frames.find((t) => t >= window.cakeTiming.keys.at(-1))"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--presses", type=int, default=50)
    args = parser.parse_args()
    missing = missing_tooling()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as home:
        config = Path(home) / "config"
        config.mkdir()
        (config / "settings.json").write_text(json.dumps({"name": "Bench"}))
        env = {**os.environ, "CAKEPARTY_CONFIG_DIR": str(config)}
        env["CAKEPARTY_DATA_DIR"] = str(Path(home) / "data")
        server = WebServer(env=env)
        try:
            server.wait_ready()
            with chromium() as browser:
                browser.add_init_script(TIMING)
                loads = [_load(browser, server.url) for _ in range(args.loads)]
                presses = _presses(browser, server.url, args.presses)
        finally:
            server.stop()
    _report(f"page to menu ({len(loads)} loads)", loads)
    _report(f"key to update ({len(presses)} presses)", presses)
    return 0


def _report(what: str, seconds: list[float]) -> None:
    median = statistics.median(seconds) * 1000
    print(f"{what + ':':32} median {median:6.0f} ms, worst {max(seconds) * 1000:6.0f} ms")


def _open(browser: Any, url: str) -> tuple[Any, BrowserTerminal]:
    page = browser.new_page()
    term = BrowserTerminal(page)
    page.goto(url + "/")
    term.wait_for(lambda s: all(m in s for m in MENU), "the menu")
    return page, term


def _load(browser: Any, url: str) -> float:
    started = time.perf_counter()
    page, _ = _open(browser, url)
    took = time.perf_counter() - started
    page.close()
    return took


def _presses(browser: Any, url: str, count: int) -> list[float]:
    page, term = _open(browser, url)
    term.focus()
    page.wait_for_timeout(500)  # the first frames' trailing updates settle
    took = []
    for n in range(count):
        page.keyboard.press("ArrowDown" if n % 2 == 0 else "ArrowUp")
        page.wait_for_function(f"{AFTER_KEY} !== undefined", timeout=30_000)
        key, frame = page.evaluate(f"[window.cakeTiming.keys.at(-1), {AFTER_KEY}]")
        took.append((frame - key) / 1000)
        page.wait_for_timeout(100)  # the update's last frames arrive before the next key
    page.close()
    return took


if __name__ == "__main__":
    raise SystemExit(main())

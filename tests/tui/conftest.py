"""Every tui test reads and writes settings in its own directory, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cakeparty.tui.settings import ENV_DIR


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private config dir (settings, the player's key) and data dir (journals) for the
    test; NO_COLOR unset unless the test sets it."""
    folder = tmp_path / "config"
    monkeypatch.setenv(ENV_DIR, str(folder))
    monkeypatch.setenv("CAKEPARTY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield folder
    stop_brokers_under(tmp_path)


def stop_brokers_under(folder: Path) -> None:
    """Stop the brokers a test's host started as processes of their own (they outlive the
    app on purpose): those whose log lies in the test's folder."""
    import contextlib
    import os
    import signal

    for proc in Path("/proc").glob("[0-9]*"):
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"cakeparty.broker" in args and any(str(folder).encode() in a for a in args):
            with contextlib.suppress(OSError):  # it ended by itself meanwhile
                os.kill(int(proc.name), signal.SIGTERM)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What ``cakeparty play`` opens the app with, one entry per start: the app is not
    run (the command line's work is what these tests check)."""
    started: list[Any] = []

    class Opened:
        def __init__(self, settings: object, start: Any) -> None:
            started.append(start)

        def run(self) -> None:
            pass

    monkeypatch.setattr("cakeparty.tui.app.CakePartyApp", Opened)
    return started

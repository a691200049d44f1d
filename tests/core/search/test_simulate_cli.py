"""``cakeparty simulate --think``: strong bots in headless games, and their decision times."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

BIN = shutil.which("cakeparty") or str(Path(sys.executable).with_name("cakeparty"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120, check=False)


def test_simulate_reports_the_strong_bot_s_decision_times() -> None:
    out = run(
        "simulate", "cake-master", "--players", "2", "--bots", "strong,normal",
        "--think", "0.01", "--games", "1", "--json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data["wins"]) == {"strong", "normal"}
    assert data["strong_decisions"] > 0
    assert 0 < data["strong_ms_median"] <= data["strong_ms_p95"]


def test_a_bad_think_time_is_refused() -> None:
    out = run("simulate", "cake-duel", "--bots", "strong,normal", "--think=0")
    assert out.returncode == 2
    assert "more than 0" in out.stderr

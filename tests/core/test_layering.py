"""``core`` stays pure: importing it pulls in no UI, network, crypto or wire library."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("textual", "aiomqtt", "nacl", "msgpack", "paho", "amqtt", "zeroconf", "asyncio")


def imported_after(statement: str) -> set[str]:
    code = (
        "import sys, json\n"
        f"{statement}\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return set(json.loads(out))


def test_core_imports_no_io_crypto_or_ui_library() -> None:
    loaded = imported_after("import cakeparty.core; import cakeparty.core.games")
    assert "cakeparty" in loaded
    assert not loaded & set(FORBIDDEN), loaded & set(FORBIDDEN)


def test_simulating_imports_no_ui_library() -> None:
    loaded = imported_after(
        "from cakeparty.tui import cli\n"
        "from cakeparty.core.simulate import simulate\n"
        "simulate('cake-duel', games=2, seed=1, bots=['normal', 'random'], players=2)"
    )
    assert "textual" not in loaded

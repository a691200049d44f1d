"""The protocol is headless: importing it pulls in no user interface and no network."""

from __future__ import annotations

import subprocess
import sys

MODULES = ("codec", "commit", "elgamal", "errors", "group", "identity", "proofs", "wire")
FORBIDDEN = ("textual", "rich", "aiomqtt", "amqtt", "asyncssh", "zeroconf", "cakeparty.tui")


def test_protocol_imports_no_ui() -> None:
    imports = "; ".join(f"import cakeparty.protocol.{m}" for m in MODULES)
    script = (
        f"import sys; {imports}; "
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r} "
        f"or m.startswith('cakeparty.tui')); print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""

"""The brokers of the rooms this player joined last, the newest first.

The join screen looks there too, quietly (a broker gone since is no news): a player whose
app closed in the middle of a game opens it again, presses ``j``, and finds the room that
keeps its seat at the top of the list, without typing the broker again. The list lives
beside the journals (``joined.json`` in the data dir) and never holds more than
:data:`MOST` brokers; an unreadable file is an empty list.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from cakeparty.protocol.journal import data_dir
from cakeparty.protocol.transport import BrokerAddress

FILE = "joined.json"
#: brokers remembered at most
MOST = 4


def _path(directory: str | os.PathLike[str] | None) -> Path:
    return data_dir(directory) / FILE


def joined_brokers(directory: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The brokers remembered, the newest first (only well-formed addresses)."""
    try:
        data = json.loads(_path(directory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ()
    if not isinstance(data, list):
        return ()
    out: list[str] = []
    for item in data:
        if not isinstance(item, str):
            continue
        try:
            address = str(BrokerAddress.parse(item))
        except ValueError:
            continue
        if address not in out:
            out.append(address)
    return tuple(out[:MOST])


def remember_broker(broker: str, directory: str | os.PathLike[str] | None = None) -> None:
    """Put ``broker`` first in the list (a malformed address, or a file that cannot be
    written, is left alone: remembering is a convenience, never an error)."""
    try:
        address = str(BrokerAddress.parse(broker))
    except ValueError:
        return
    kept = [b for b in joined_brokers(directory) if b != address]
    path = _path(directory)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps([address, *kept][:MOST]) + "\n", encoding="utf-8")
        tmp.replace(path)

"""What a host remembers of the room it hosts, so that it can come back to it.

A host's app may crash, or its laptop sleep, in the middle of a game. The game itself is
in the journals (one per seat this process plays, the host's own and its bots'); what the
journals do not say is the room around it: the broker the others are connected to (and,
when it runs on the host's machine, the process and port of that broker), the settings,
and which seats are bots run by the host, at which level. That is this record: one small
JSON file per hosted room beside the journals, written when the room opens and when its
game starts, and removed when the room closes cleanly. ``cakeparty host --resume`` (or
the host's own ``cakeparty join CODE``) reads it back.

A room that did not close cleanly (the app killed after its game, a laptop shut) would
leave its record for ever, and ``host --resume`` would offer a room long over. So the
records are read through :func:`records`, which removes those with nothing to come back
to: a game that ended (audited, or abandoned by a complete set of votes) or whose
journals are gone, and a room whose game never started, untouched for
:data:`UNSTARTED_DAYS`. A game still in progress keeps its record however old, as it
keeps its journal.

Nothing here is trusted by anyone else: the others believe the resumed host because its
adverts and envelopes are signed by the same key, and check its journal's envelopes
against the room log they already hold.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from cakeparty.protocol.journal import data_dir, write_private
from cakeparty.protocol.table import Table

FOLDER = "hosted"
UNSTARTED_DAYS = 1.0  # a room whose game never started is forgotten after this long


@dataclass(frozen=True)
class HostRecord:
    """A room this machine hosts (or hosted until a crash)."""

    room: str  # the room id
    host: str  # the host's player id, hex
    game: str
    players: int
    #: the game's rule options as its registration declares them (key → value); those
    #: not here take the game's default
    options: dict[str, Any] = field(default_factory=dict)
    timeout: int = 120
    on_timeout: str = "ask"  # what the room does when a move's time is up
    broker: str = ""  # where the host's app connects (its own broker: 127.0.0.1:port)
    share: str = ""  # the address the others were given
    port: int | None = None  # the embedded broker's port, when it runs on this machine
    pid: int | None = None  # that broker's process
    lan: bool = True
    seated: bool = True  # the host plays a seat itself
    bots: dict[str, str] = field(default_factory=dict)  # bot player id (hex) → level
    table: str = ""  # the started table's digest (hex): the game is on
    updated: float = 0.0

    def with_(self, **changes: object) -> HostRecord:
        return replace(self, **changes, updated=time.time())  # type: ignore[arg-type]


def folder(directory: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(directory) / FOLDER


def path_of(room: str, directory: str | os.PathLike[str] | None = None) -> Path:
    return folder(directory) / f"{room}.json"


def save(record: HostRecord, directory: str | os.PathLike[str] | None = None) -> Path:
    """Write ``record`` (atomically: a crash leaves the old one or the new one)."""
    path = path_of(record.room, directory)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_private(path, json.dumps(asdict(record)))
    return path


def load(room: str, directory: str | os.PathLike[str] | None = None) -> HostRecord | None:
    """The record of ``room``, or ``None`` (none, or unreadable)."""
    return _read(path_of(room, directory))


def _read(path: Path) -> HostRecord | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            return None
        return from_data(data)
    except (OSError, ValueError, TypeError, RecursionError):
        return None


def from_data(data: dict[str, Any]) -> HostRecord:
    """A record from its JSON form. A record written before the options were kept
    together had one field per option: those fields are its options."""
    known = {f.name for f in fields(HostRecord)}
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise ValueError("the options are a mapping of option names")
    older = {k: v for k, v in data.items() if k not in known}
    kept = {k: v for k, v in data.items() if k in known}
    for key, value in kept.items():
        if key != "options" and not _FIELD_TYPES[key](value):
            raise ValueError(f"{key}: not what a record holds there")
    return HostRecord(**{**kept, "options": {**older, **options}})


def _whole(value: Any, low: int = 0, high: int = 2**31) -> bool:
    """A whole number (not a flag) from ``low`` to ``high``: a count, a port, a process."""
    return type(value) is int and low <= value <= high


def _text(value: Any) -> bool:
    return type(value) is str


#: what each field of a record may hold (a file changed by hand is no record, not a
#: record that fails later: a process id past any the system has, a count that is text)
_FIELD_TYPES: dict[str, Callable[[Any], bool]] = {
    "room": _text,
    "host": _text,
    "game": _text,
    "players": lambda v: _whole(v, 1, 64),
    "timeout": lambda v: _whole(v, 1, 10**7),
    "on_timeout": _text,
    "broker": _text,
    "share": _text,
    "port": lambda v: v is None or _whole(v, 0, 65535),
    "pid": lambda v: v is None or _whole(v, 1),
    "lan": lambda v: type(v) is bool,
    "seated": lambda v: type(v) is bool,
    "bots": lambda v: isinstance(v, dict) and all(map(_text, [*v, *v.values()])),
    "table": _text,
    "updated": lambda v: type(v) in (int, float) and -1e12 < v < 1e12,
}


def records(
    directory: str | os.PathLike[str] | None = None, *, now: float | None = None
) -> Iterator[HostRecord]:
    """Every hosted room remembered here that a host can come back to, the most recently
    updated first; the others' records are removed (see :func:`stale`)."""
    found = []
    for path in folder(directory).glob("*.json"):
        record = _read(path)
        if record is None:
            continue
        try:
            saved = path.stat().st_mtime
        except OSError:
            continue
        if stale(record, directory, now=now, saved=saved):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        found.append(record)
    yield from sorted(found, key=lambda r: r.updated, reverse=True)


def stale(
    record: HostRecord,
    directory: str | os.PathLike[str] | None = None,
    *,
    now: float | None = None,
    saved: float = 0.0,
) -> bool:
    """Whether ``record``'s room has nothing to come back to: its game ended (audited, or
    abandoned by a complete set of votes), or its journals are gone; or its game never
    started and the record was last written (``saved``, or its own stamp) more than
    :data:`UNSTARTED_DAYS` ago."""
    if not record.table:
        age = (time.time() if now is None else now) - max(record.updated, saved)
        return age > UNSTARTED_DAYS * 86400
    paths = list(_journals_of(record, directory))
    return not paths or any(_over(path) for path in paths)


def _journals_of(
    record: HostRecord, directory: str | os.PathLike[str] | None = None
) -> Iterator[Path]:
    """The journals (the host's own and its bots') of the game ``record``'s room started."""
    from cakeparty.protocol import journal as jn

    for path in jn.journals(directory):
        if path.name.startswith(f"{record.room}-{record.table[:16]}-"):
            yield path


def _over(path: Path) -> bool:
    """Whether the journal at ``path`` holds the end of its game (see
    :func:`~cakeparty.protocol.journal.finished`: an audit, votes that agree, a seat's two
    versions of one step; a journal that does not read: nothing can resume from it)."""
    from cakeparty.protocol import journal as jn

    return jn.finished(path)


def remove(room: str, directory: str | os.PathLike[str] | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        path_of(room, directory).unlink()


def resumable(
    host: bytes, room: str | None = None, directory: str | os.PathLike[str] | None = None
) -> HostRecord | None:
    """The room ``host`` can come back to: ``room``, or the most recent one."""
    for record in records(directory):
        if record.host == host.hex() and (room is None or record.room == room):
            return record
    return None


def started_table(
    record: HostRecord, directory: str | os.PathLike[str] | None = None
) -> Table | None:
    """The table of the game ``record``'s room started, read from its host's journal
    (``None`` if the game had not started)."""
    from cakeparty.protocol import journal as jn

    if not record.table:
        return None
    for path in _journals_of(record, directory):
        with contextlib.suppress(Exception):  # a torn or foreign file is no table
            table = jn.read(path)[0]
            if table.digest().hex() == record.table:
                return table
    return None

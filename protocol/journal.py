"""The journal: a room's accepted envelopes on disk, so a peer can resume after a crash.

One file per game: the table first, then every accepted envelope in log order, each as
a 4-byte big-endian length and its bytes. Only public data is stored — a peer's secrets
follow from its identity key and the table, and its own envelopes are issued again,
byte for byte, as it replays the log.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from pathlib import Path

import platformdirs

from cakeparty.protocol.codec import pack, unpack
from cakeparty.protocol.errors import MalformedMessage
from cakeparty.protocol.table import Table

_LENGTH = struct.Struct(">I")
MAX_RECORD = 4 * 1024 * 1024


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where journals live: ``CAKEPARTY_DATA_DIR``, or the user data dir."""
    if override is not None:
        return Path(override)
    env = os.environ.get("CAKEPARTY_DATA_DIR")
    return Path(env) if env else Path(platformdirs.user_data_dir("cakeparty"))


def journal_path(
    table: Table, player: bytes, directory: str | os.PathLike[str] | None = None
) -> Path:
    """The journal file of ``player``'s seat in ``table``'s game."""
    name = f"{table.room}-{table.nonce.hex()[:12]}-{player.hex()[:12]}.journal"
    return data_dir(directory) / "rooms" / name


class Journal:
    """Appends records to a journal file, flushed as they come."""

    def __init__(self, path: Path, table: Table) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = not path.exists() or path.stat().st_size == 0
        self._file = path.open("ab")
        if fresh:
            self._write(pack(table.to_data()))

    def _write(self, record: bytes) -> None:
        self._file.write(_LENGTH.pack(len(record)) + record)
        self._file.flush()

    def append(self, envelope: bytes) -> None:
        self._write(envelope)

    def close(self) -> None:
        self._file.close()


def read(path: Path) -> tuple[Table, list[bytes]]:
    """The table and the envelopes of a journal; a torn last record is dropped."""
    data = path.read_bytes()
    records: list[bytes] = []
    at = 0
    while at + _LENGTH.size <= len(data):
        (size,) = _LENGTH.unpack_from(data, at)
        if size > MAX_RECORD or at + _LENGTH.size + size > len(data):
            break  # written while the process died
        records.append(data[at + _LENGTH.size : at + _LENGTH.size + size])
        at += _LENGTH.size + size
    if not records:
        raise MalformedMessage(f"{path} is not a journal")
    return Table.from_data(unpack(records[0])), records[1:]


def journals(directory: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """Every journal on this machine, newest first."""
    folder = data_dir(directory) / "rooms"
    if folder.is_dir():
        yield from sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime, reverse=True)

"""The journal: a room's accepted envelopes on disk, so a peer can resume after a crash.

One file per game, readable by its user alone (0600): the table first, then the seat's
game secret, then every accepted envelope in log order, each as a 4-byte big-endian length
and its bytes. Among the envelopes, *sealed* records (marked by a first byte no msgpack
value starts with) keep this seat's own simultaneous choices, each written (and synced to
disk) before its commitment is published: they never go on the wire, and a peer restarted
between committing and opening opens the very choice it committed.

A game that ended because a seat signed two different envelopes for one step keeps that
pair after its log: the peer reads it again when it resumes and ends the game there at
once, as before the restart (a journal written without it still reads).

The game secret is 32 fresh random bytes from which the peer derives its game key, mixes
and nonces: a peer that resumes issues its envelopes again byte for byte, and nothing of
it follows from the identity key or the table, so a game's audit (which publishes the game
key) says nothing about any other game.

Beside the journals, ``played`` lists (hashed) every table and player this data dir has
started a game of: a peer refuses to start a table it has played (a replayed table would
mean replayed keys). :func:`prune` removes the journals of games that ended long ago.
:class:`KeptClock` keeps, in the file ``clock``, the clock's latest reading a player's
numbered messages took, so that a clock set back between two runs numbers none of the
later run's below the earlier run's.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl

    LOCKS = True
except ImportError:  # not POSIX: rooms are not locked (:class:`RoomLock`)
    LOCKS = False

import platformdirs

from cakeparty.protocol.codec import decode, pack, unpack
from cakeparty.protocol.errors import MalformedMessage, ProtocolError
from cakeparty.protocol.table import Table

_LENGTH = struct.Struct(">I")
MAX_RECORD = 4 * 1024 * 1024
SECRET_SIZE = 32
PLAYED = "played"
KEEP_DAYS = 30  # a finished game's journal is kept this long after its last entry
_AUDIT = "audit"  # steps.AUDIT: the game is over (named here: the menu loads no engine)
# lobby.ABANDON, lobby.SYNC: no steps (named here, so the menu's check of its journals
# loads no game engine)
_CONTROLS = frozenset({"abandon", "sync"})
SEALED = b"\xc1"  # first byte of a sealed record: msgpack never uses it, no envelope has it


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically with mode 0600 (a crash leaves the old file
    or the new one, never half of one; so does a disk that takes only part of it, which
    raises ``OSError`` and leaves no temporary file behind). The temporary file is this
    process's own: two processes writing at once (two windows of one player) each put a
    whole file in place, never one truncated by the other."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            os.fchmod(fd, 0o600)
            _write_all(fd, text.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd``: a write may take only part of it (a nearly full
    disk); ``OSError`` once the disk takes no more."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where journals live: ``override``, else ``$CAKEPARTY_DATA_DIR``, else ``data`` in
    ``$CAKEPARTY_CONFIG_DIR`` (one folder holds a portable or test install), else the
    user data dir."""
    if override is not None:
        return Path(override)
    env = os.environ.get("CAKEPARTY_DATA_DIR")
    if env:
        return Path(env)
    config = os.environ.get("CAKEPARTY_CONFIG_DIR")
    if config:
        return Path(config) / "data"
    return Path(platformdirs.user_data_dir("cakeparty"))


def journal_path(
    table: Table, player: bytes, directory: str | os.PathLike[str] | None = None
) -> Path:
    """The journal file of ``player``'s seat in ``table``'s game."""
    name = f"{table.room}-{table.digest().hex()[:16]}-{player.hex()[:12]}.journal"
    return data_dir(directory) / "rooms" / name


class KeptClock:
    """The wall clock, in nanoseconds, for the numbers that order a player's messages
    (presence stamps, catch-up requests, chat lines: :func:`lobby.clock_count`): never
    behind a reading it gave before, in this run or an earlier run of the same data dir.

    The others take a message numbered below one they heard from the same player for an
    old one sent again, and ignore it. A clock set back between two runs (a corrected
    clock, a machine restored) would so have silenced the later run, its presence and its
    catch-up requests, until the clock passed the earlier run's numbers. The latest reading
    is kept in the file ``clock``, and a new run starts a millisecond after it (the
    coarsest unit a number counts in). A disk that keeps nothing leaves the system's
    clock, as before."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.path = data_dir(directory) / "clock"
        stored = self._stored()
        self._last = stored + MILLISECOND if stored else 0

    def _stored(self) -> int:
        """The latest reading kept; 0 for none, or for one that is no reading of a clock
        (not a number, or further ahead of the system's clock than :data:`AHEAD_MOST`:
        numbers past the year 2100 would not fit the messages)."""
        try:
            stored = int(self.path.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):  # none yet, unreadable, or no number
            return 0
        return stored if 0 < stored <= time.time_ns() + AHEAD_MOST else 0

    def __call__(self) -> int:
        now = max(time.time_ns(), self._last + 1)
        self._last = now
        if now > self._stored():  # another run of the data dir may have gone further
            tmp = self.path.with_name(f"clock.{os.getpid()}.tmp")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_text(str(now), encoding="ascii")
                os.replace(tmp, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    tmp.unlink()
        return now


#: nanoseconds in a millisecond
MILLISECOND = 1_000_000
#: the furthest a kept reading may be ahead of the system's clock (a year, in nanoseconds)
AHEAD_MOST = 366 * 86_400 * 10**9


class InUse(Exception):
    """What a :class:`FileLock` guards is taken by another process: ``pid``, when it said
    so."""

    def __init__(self, what: str, pid: int | None) -> None:
        self.pid = pid
        super().__init__(f"{what} is open in process {pid}")


class RoomInUse(InUse):
    """This player's part in ``room`` is taken by another process of the same data dir
    (a second window, browser tab or SSH session of the same player): ``pid``, when it
    said so."""

    def __init__(self, room: str, pid: int | None) -> None:
        self.room = room
        super().__init__(f"room {room}", pid)


class FileLock:
    """Held while a process has something of the data dir that one process at a time may
    have: an exclusive ``flock`` on the file ``path``. The kernel lets it go when its
    process ends, however it ends, and two opens of the file conflict even within one
    process. The file names the holder's process id, for the message. Where there is no
    ``flock`` (not POSIX) nothing is locked."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def in_use(self, pid: int | None) -> InUse:
        """What :meth:`acquire` raises while another process holds the lock."""
        return InUse(str(self.path), pid)

    def acquire(self) -> None:
        """Take the lock, or raise :meth:`in_use` naming its holder (``OSError``: the data
        dir takes no file)."""
        if self._fd is not None or not LOCKS:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(fd, 16).decode("ascii", "replace").strip()
                os.close(fd)
                raise self.in_use(int(holder) if holder.isdigit() else None) from None
            except BaseException:
                os.close(fd)
                raise
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # its holder let it go and removed it meanwhile: take the new one
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def held(self) -> bool:
        """Whether a process holds the lock now (looked at, not taken)."""
        if not LOCKS:
            return False
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False  # no file: nobody holds it
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        except OSError:
            return False  # a file system without locks: nobody can be said to hold it
        finally:
            os.close(fd)
        return False

    def release(self) -> None:
        """Let the lock go (and remove its file, which the next holder makes again)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            self.path.unlink()
        os.close(fd)


class RoomLock(FileLock):
    """Held while a process takes part in a room as a player (or its host), so that a
    second one of the same player stops before it writes a journal, a ready mark or a
    move: two windows playing one seat would sign two different moves for one step, and
    the one that lost the race would play on a game nobody else sees. The file is
    ``rooms/<room>-<player>.lock`` in the data dir; :meth:`acquire` raises
    :class:`RoomInUse`."""

    def __init__(
        self, room: str, player: bytes, directory: str | os.PathLike[str] | None = None
    ) -> None:
        super().__init__(data_dir(directory) / "rooms" / f"{room}-{player.hex()[:12]}.lock")
        self.room = room

    def in_use(self, pid: int | None) -> InUse:
        return RoomInUse(self.room, pid)


class JournalWriteError(OSError):
    """Records the disk would not take (full, most often): none of them stays in the
    file, which reads as before; the caller may write them again later."""


class Journal:
    """Appends records to a journal file, written as they come.

    A new journal keeps ``secret`` (fresh random bytes when not given) as the seat's game
    secret; an existing one keeps the secret it has, in :attr:`secret`. A write the disk
    refuses raises :class:`JournalWriteError` and leaves the file as it was (a new
    journal that cannot take its first records is removed)."""

    def __init__(self, path: Path, table: Table, secret: bytes | None = None) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fresh = not path.exists() or path.stat().st_size == 0
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)  # it holds the game secret: this user's alone
        self._file = os.fdopen(fd, "ab", buffering=0)  # each write goes straight to the disk
        if fresh:
            self.secret = secret if secret is not None else secrets.token_bytes(SECRET_SIZE)
            try:
                self._write(pack(table.to_data()), pack({"secret": self.secret}))
            except JournalWriteError:
                self.close()
                with contextlib.suppress(OSError):
                    path.unlink()
                raise
        else:
            self.secret = read_game(path)[1]

    def _write(self, *records: bytes) -> None:
        """Append ``records`` all, or none of them."""
        data = b"".join(_LENGTH.pack(len(record)) + record for record in records)
        start = self._file.seek(0, os.SEEK_END)
        try:
            _write_all(self._file.fileno(), data)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._file.fileno(), start)  # no torn record in the file
            raise self._refused(exc) from exc

    def _refused(self, exc: OSError) -> JournalWriteError:
        return JournalWriteError(exc.errno, exc.strerror, str(self.path))

    def append(self, *envelopes: bytes) -> None:
        """Append one step's ``envelopes``: all of them, or none (:class:`JournalWriteError`)."""
        self._write(*envelopes)

    def seal(self, step: int, choice: Any) -> None:
        """Keep this seat's sealed ``choice`` (plain data) for log step ``step``, on disk
        before the commitment to it goes out: private, never sent to anyone."""
        self._write(SEALED + pack({"step": step, "choice": choice}))
        try:
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise self._refused(exc) from exc

    def close(self) -> None:
        self._file.close()


def read(path: Path) -> tuple[Table, list[bytes]]:
    """The table and the envelopes of a journal; a torn last record is dropped."""
    table, _secret, envelopes = read_game(path)
    return table, envelopes


def read_game(path: Path) -> tuple[Table, bytes, list[bytes]]:
    """The table, the game secret and the envelopes of a journal."""
    table, secret, records = _read_records(path)
    return table, secret, [r for r in records if not r.startswith(SEALED)]


def read_sealed(path: Path) -> dict[int, Any]:
    """This seat's sealed choices kept in a journal: log step -> the choice (plain data).
    A record that does not read is skipped (the choice then cannot be opened: the room's
    absence rule answers that, as for a seat that never opens)."""
    sealed: dict[int, Any] = {}
    for record in _read_records(path)[2]:
        if not record.startswith(SEALED):
            continue
        try:
            held = unpack(record[len(SEALED) :])
        except ProtocolError:
            continue
        if isinstance(held, dict) and set(held) == {"step", "choice"}:
            step = held["step"]
            if type(step) is int and step >= 0:
                sealed.setdefault(step, held["choice"])
    return sealed


def _read_records(path: Path) -> tuple[Table, bytes, list[bytes]]:
    data = path.read_bytes()
    records: list[bytes] = []
    at = 0
    while at + _LENGTH.size <= len(data):
        (size,) = _LENGTH.unpack_from(data, at)
        if size > MAX_RECORD or at + _LENGTH.size + size > len(data):
            break  # written while the process died
        records.append(data[at + _LENGTH.size : at + _LENGTH.size + size])
        at += _LENGTH.size + size
    if len(records) < 2:
        raise MalformedMessage(f"{path} is not a journal")
    held = unpack(records[1])
    secret = held.get("secret") if isinstance(held, dict) else None
    if not isinstance(secret, bytes) or len(secret) != SECRET_SIZE:
        raise MalformedMessage(f"{path} keeps no game secret")
    return Table.from_data(unpack(records[0])), secret, records[2:]


def _played_record(digest: bytes, player: bytes) -> bytes:
    return hashlib.sha256(b"cakeparty/v1/played\x00" + digest + player).digest()


def played(digest: bytes, player: bytes, directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``player`` started a game of the table with ``digest`` from this data dir."""
    path = data_dir(directory) / PLAYED
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return False
    record = _played_record(digest, player)
    return any(data[i : i + 32] == record for i in range(0, len(data) - 31, 32))


def mark_played(
    digest: bytes, player: bytes, directory: str | os.PathLike[str] | None = None
) -> None:
    """Remember that ``player`` started a game of the table with ``digest`` here."""
    if played(digest, player, directory):
        return
    folder = data_dir(directory)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(folder / PLAYED, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, _played_record(digest, player))
        os.fsync(fd)
    finally:
        os.close(fd)


def journals(directory: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """Every journal on this machine, newest first."""
    folder = data_dir(directory) / "rooms"
    if folder.is_dir():
        yield from sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime, reverse=True)


def finished(path: Path) -> bool:
    """Whether the journal at ``path`` holds the end of its game (an audit, an
    abandonment, or a seat's two versions of one step); an unreadable journal counts as
    finished: nothing can resume from it."""
    return game_on(path) is None


def game_on(path: Path) -> Table | None:
    """The table of the journal at ``path`` while its game is on; ``None`` once it holds
    the end of its game, or if it does not read (:func:`finished`)."""
    try:
        table, _secret, envelopes = read_game(path)
    except (OSError, ProtocolError, ValueError):
        return None
    for data in reversed(envelopes):
        try:
            if decode(data, verify=False).kind == _AUDIT:
                return None
        except (ProtocolError, ValueError):
            continue
    # a vote is kept as it comes: the game ended only if the votes agree
    from cakeparty.protocol.votes import abandoned_in

    if abandoned_in(table, envelopes) or two_versions(envelopes):
        return None
    return table


def two_versions(envelopes: list[bytes]) -> bool:
    """Whether a journal's ``envelopes`` hold two different envelopes one seat signed for
    one step of the game (the same number after the same log): the pair its peer kept
    when it ended the game there (see ``Peer._equivocated``)."""
    seen: dict[tuple[int, bytes], tuple[bytes, bytes]] = {}
    for data in envelopes:
        try:
            envelope = decode(data, verify=False)
        except (ProtocolError, ValueError):
            continue
        if envelope.kind in _CONTROLS:
            continue  # a vote: its voter may sign several about one step, adding seats gone
        prev, digest = seen.setdefault(
            (envelope.seq, envelope.sender), (envelope.prev, envelope.digest())
        )
        if prev == envelope.prev and digest != envelope.digest():
            return True
    return False


def prune(
    directory: str | os.PathLike[str] | None = None,
    *,
    days: float = KEEP_DAYS,
    now: float | None = None,
) -> list[Path]:
    """Remove the journals of finished games untouched for ``days``, and the room locks
    no process holds (a process that ends without letting go, killed or hung up, leaves
    its file behind); return them.

    A game still in progress keeps its journal however old, so it can always resume."""
    cutoff = (time.time() if now is None else now) - days * 86400
    removed = []
    for path in list(journals(directory)):
        try:
            if path.stat().st_mtime >= cutoff or not finished(path):
                continue
            path.unlink()
        except OSError:
            continue
        removed.append(path)
    folder = data_dir(directory) / "rooms"
    for path in sorted(folder.glob("*.lock")) if folder.is_dir() and LOCKS else ():
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            path.unlink()  # held while removed: a process opening it meanwhile retries
        except OSError:  # held (a room on): kept
            continue
        finally:
            os.close(fd)
        removed.append(path)
    return removed

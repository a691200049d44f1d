"""One process a player in a room: the lock a second process of the same data dir meets
(a second window, browser tab or SSH session of the same player), and lets go of however
its holder ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cakeparty.protocol import journal
from cakeparty.protocol.journal import RoomInUse, RoomLock

PLAYER = bytes(range(32))

HOLD = (
    "import sys, time\n"
    "from cakeparty.protocol.journal import RoomLock\n"
    "RoomLock('K7QM2X', bytes(range(32)), sys.argv[1]).acquire()\n"
    "print('held', flush=True)\n"
    "time.sleep(120)\n"
)


def test_a_second_holder_is_refused_and_told_whose_it_is(tmp_path: Path) -> None:
    first = RoomLock("K7QM2X", PLAYER, tmp_path)
    first.acquire()
    first.acquire()  # again by its holder: nothing happens
    with pytest.raises(RoomInUse) as refused:
        RoomLock("K7QM2X", PLAYER, tmp_path).acquire()  # another open, even in this process
    assert refused.value.pid == os.getpid() and refused.value.room == "K7QM2X"
    # another player, or another room, is not held by it
    others = [RoomLock("K7QM2X", bytes(32), tmp_path), RoomLock("K7QM2Y", PLAYER, tmp_path)]
    for other in others:
        other.acquire()
        other.release()
    first.release()
    assert not first.path.exists()
    second = RoomLock("K7QM2X", PLAYER, tmp_path)
    second.acquire()
    assert first.path.read_text() == str(os.getpid())
    second.release()
    second.release()  # twice: nothing happens


def test_a_process_killed_holding_it_lets_it_go(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(RoomInUse) as refused:
            RoomLock("K7QM2X", PLAYER, tmp_path).acquire()
        assert refused.value.pid == holder.pid
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
    # its file is left behind, naming the dead process; the lock is free all the same
    lock = RoomLock("K7QM2X", PLAYER, tmp_path)
    assert lock.path.read_text() == str(holder.pid)
    lock.acquire()
    assert lock.path.read_text() == str(os.getpid())
    lock.release()


def test_a_lock_file_of_no_number_still_refuses(tmp_path: Path) -> None:
    first = RoomLock("K7QM2X", PLAYER, tmp_path)
    first.acquire()
    first.path.write_bytes(b"\xff\x00 not a pid")
    with pytest.raises(RoomInUse) as refused:
        RoomLock("K7QM2X", PLAYER, tmp_path).acquire()
    assert refused.value.pid is None
    first.release()


def test_prune_removes_the_locks_no_process_holds_and_keeps_the_held(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    holder.send_signal(signal.SIGKILL)
    holder.wait(30)
    left = RoomLock("K7QM2X", PLAYER, tmp_path).path
    assert left.exists()  # a killed process lets go of its lock, not of its file
    held = RoomLock("K7QM2Y", PLAYER, tmp_path)
    held.acquire()
    assert journal.prune(tmp_path) == [left]
    assert not left.exists() and held.path.exists()
    with pytest.raises(RoomInUse):
        RoomLock("K7QM2Y", PLAYER, tmp_path).acquire()
    held.release()


def test_a_data_dir_that_takes_no_lock_file_leaves_the_room_to_its_journal(
    tmp_path: Path,
) -> None:
    """A data dir that takes no file is the journal's to report ("no game here", with
    why), as before the lock: claiming the room does not stop at the lock."""
    from cakeparty.protocol.identity import Identity
    from cakeparty.protocol.network import RoomRunner
    from cakeparty.protocol.transport import BrokerAddress

    (tmp_path / "rooms").write_text("not a folder")
    runner = RoomRunner(
        broker=BrokerAddress.parse("mqtt://127.0.0.1:1"),
        identity=Identity.generate("Ann"),
        room="K7QM2X",
        journal_dir=tmp_path,
    )
    runner.claim()
    runner.unclaim()


def test_without_flock_nothing_is_locked_and_nothing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not POSIX (no ``fcntl``): the journal module still loads and rooms open unlocked."""
    monkeypatch.setattr(journal, "LOCKS", False)
    first, second = RoomLock("K7QM2X", PLAYER, tmp_path), RoomLock("K7QM2X", PLAYER, tmp_path)
    first.acquire()
    second.acquire()
    assert not first.path.exists()
    assert journal.prune(tmp_path) == []
    first.release()
    second.release()


def test_a_file_system_without_locks_holds_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A data dir whose file system refuses every lock (ENOLCK, as some network file
    systems do): nobody is said to hold it, and taking it is an error its caller reports
    (a kept game is then kept unlocked, a room's journal says why it cannot be used)."""
    import errno

    from cakeparty.protocol.journal import FileLock

    lock = FileLock(tmp_path / "local-game-cake-duel.lock")
    lock.path.write_text("4242")  # as a holder leaves it

    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(journal.fcntl, "flock", no_locks)
    assert not lock.held()
    with pytest.raises(OSError) as refused:
        lock.acquire()
    assert refused.value.errno == errno.ENOLCK and not isinstance(refused.value, RoomInUse)

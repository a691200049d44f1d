"""A disk that stops taking the journal (a full disk): the game waits, blames nobody, and
goes on once there is room, its journal whole.

The refusal is the operating system's own: each scenario runs in a process of its own
whose file size limit (``RLIMIT_FSIZE``, with ``SIGXFSZ`` ignored) makes every write past
it fail, as a full disk makes it fail, and is raised again to give the room back."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("resource")  # POSIX

PRELUDE = """
import random, resource, signal, sys
from pathlib import Path

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
SOFT, HARD = resource.getrlimit(resource.RLIMIT_FSIZE)


def disk(room):
    resource.setrlimit(resource.RLIMIT_FSIZE, (room, HARD))


def roomy():
    resource.setrlimit(resource.RLIMIT_FSIZE, (SOFT, HARD))


tmp = Path(sys.argv[1])
"""


def run(script: str, tmp_path: Path) -> None:
    code = PRELUDE + textwrap.dedent(script)
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("ok"), done.stdout + done.stderr


def test_a_write_the_disk_refuses_leaves_the_journal_as_it_was(tmp_path: Path) -> None:
    run(
        """
        from cakeparty.protocol import journal
        from cakeparty.protocol.journal import Journal, JournalWriteError
        from tests.protocol.test_session import room

        _sessions, table = room(2, tmp)
        path = tmp / "j.journal"
        kept = Journal(path, table)
        kept.append(b"one", b"two")
        size = path.stat().st_size
        disk(size + 10)
        try:
            kept.append(b"three", b"x" * 100)  # the first fits, the second does not
        except JournalWriteError as exc:
            assert exc.filename == str(path) and exc.strerror, exc
        else:
            raise AssertionError("the write went through")
        assert path.stat().st_size == size  # nothing of the step, not even its first record
        assert journal.read(path)[1] == [b"one", b"two"]
        roomy()
        kept.append(b"three", b"x" * 100)
        assert journal.read(path)[1] == [b"one", b"two", b"three", b"x" * 100]
        # a new journal that cannot take its first records is not left behind
        disk(8)
        try:
            Journal(tmp / "new.journal", table)
        except JournalWriteError:
            pass
        else:
            raise AssertionError("the new journal was written")
        roomy()
        assert not (tmp / "new.journal").exists()
        print("ok")
        """,
        tmp_path,
    )


def test_a_full_disk_mid_game_stalls_the_step_blames_nobody_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    run(
        """
        from cakeparty.protocol.peer import Peer
        from tests.protocol.test_session import NORMAL, play_until, relay, room

        sessions, _table = room(2, tmp)
        rng = random.Random(5)
        play_until(sessions, 0.0, 6, rng)
        relay(sessions, 0.0)
        paths = [s.peers[0].journal.path for s in sessions]
        sizes = [p.stat().st_size for p in paths]
        disk(max(sizes) + 16)  # no room for another step in either journal
        before = [s.seq for s in sessions]
        play_until(sessions, 1.0, 4, rng)
        for s in sessions:
            s.tick(2.0)  # tries again: still no room
        relay(sessions, 2.0)
        assert any(s.stalled is not None for s in sessions)
        assert [s.seq for s in sessions] == before  # the step waits, whole
        assert not [i for s in sessions for i in (*s.incidents, *s.peers[0].incidents)]
        assert [p.stat().st_size for p in paths] == sizes
        roomy()
        for s in sessions:
            s.tick(3.0)  # room again: the step is written and the game goes on
        relay(sessions, 3.0)
        assert all(s.stalled is None for s in sessions)
        assert all(s.seq > b for s, b in zip(sessions, before))
        play_until(sessions, 4.0, 5000, rng)
        relay(sessions, 4.0)
        assert all(s.finished for s in sessions)
        assert not [i for s in sessions for i in (*s.incidents, *s.peers[0].incidents)]
        # each journal holds the whole game: a peer resumed from it is where its seat is
        for s, path in zip(sessions, paths):
            back = Peer.resume(path, s.peers[0].identity)
            assert back.seq == s.peers[0].seq and back.finished
        print("ok")
        """,
        tmp_path,
    )


def test_a_move_the_disk_refuses_to_keep_never_goes_out(tmp_path: Path) -> None:
    """The step of a seat's own move is refused by its disk, and the app dies before the
    disk has room: the move must not have reached anyone (asked for, or sent again), or the
    seat, restarted and choosing another move, would have signed two versions of one step
    and be named a cheat for its full disk."""
    run(
        """
        from cakeparty.protocol.codec import decode
        from cakeparty.protocol.lobby import SYNC
        from cakeparty.protocol.session import NUDGE, GameSession
        from cakeparty.protocol.steps import ACTION
        from tests.protocol.test_session import NORMAL, play_until, relay, room

        sessions, table = room(2, tmp)
        rng = random.Random(7)
        play_until(sessions, 0.0, 6, rng)
        relay(sessions, 0.0)
        ((session, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
        mover = sessions.index(session)
        other = sessions[1 - mover]
        legal = peer.game.legal_actions(peer.state, peer.seat)
        assert len(legal) > 1, legal
        first, second = legal[0], legal[-1]
        step = peer.seq
        said = []  # what the mover sends from here on

        def heard(now):
            said.extend(decode(data) for data in session.outbox)
            relay(sessions, now)

        disk(max(s.peers[0].journal.path.stat().st_size for s in sessions) + 16)
        session.act(peer.seat, first)
        assert session.stalled is not None
        heard(1.0)
        for now in (1.0 + NUDGE, 1.0 + 3 * NUDGE):
            for s in sessions:
                s.tick(now)  # both ask for what they miss; the mover tries its disk again
            heard(now)
        assert any(e.kind == SYNC for e in said)  # it did speak: it asked for the rest
        moves = [e for e in said if e.kind == ACTION and e.seq == step]
        assert not moves, "the move the disk did not keep went out"
        # the app dies; started again with room on the disk, its player moves otherwise
        roomy()
        identity = peer.identity
        back = GameSession(table, [identity], journal_dir=tmp / f"p{mover}", now=10.0)
        sessions[mover] = back
        relay(sessions, 10.0)
        ((again, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
        assert again is back and peer.seq == step
        back.act(peer.seat, second)
        play_until(sessions, 11.0, 5000, rng)
        relay(sessions, 11.0)
        assert all(s.finished for s in sessions)
        assert not [i for s in sessions for i in (*s.incidents, *s.peers[0].incidents)]
        assert all(s.peers[0].verdict.fair for s in sessions), [
            s.peers[0].verdict for s in sessions
        ]
        print("ok")
        """,
        tmp_path,
    )


def test_a_private_file_the_disk_takes_only_part_of_keeps_the_old_one(tmp_path: Path) -> None:
    """Settings' key, a local game kept, a hosted room's record: written whole or not at
    all, and no temporary file left behind."""
    run(
        """
        from cakeparty.protocol.journal import write_private

        path = tmp / "kept.json"
        write_private(path, "old")
        disk(4096)
        try:
            write_private(path, "x" * 10000)
        except OSError:
            pass
        else:
            raise AssertionError("the write went through")
        roomy()
        assert path.read_text() == "old"
        assert sorted(p.name for p in tmp.iterdir()) == ["kept.json"]
        write_private(path, "x" * 10000)
        assert path.read_text() == "x" * 10000
        print("ok")
        """,
        tmp_path,
    )

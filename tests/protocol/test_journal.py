"""A peer that crashes resumes from its journal and the game completes, fair."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cakeparty.protocol import journal
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import ABANDON, NO_PREV
from cakeparty.protocol.mental import MentalMatch

from .test_room import seat_bots


def test_a_crashed_peer_resumes_from_its_journal(tmp_path: Path) -> None:
    room = MentalMatch("cake-duel", 2, 9, journal_dir=tmp_path)
    bots = seat_bots(2, 9)
    for _ in range(6):  # a few moves, then seat 1's process dies
        mover = next(p for p in room.peers if p.waiting_for == (p.seat,))
        mover.act(bots[mover.seat](mover.view(), random.Random()))
        room.pump()
    seen_before = list(room.peers[1].history)
    room.crash(1)
    # seat 0 goes on alone as far as it can: the room then waits for seat 1
    while room.peers[0].waiting_for == (0,):
        room.peers[0].act(bots[0](room.peers[0].view(), random.Random()))
        room.pump()
    back = room.restart(1)
    assert back.history[: len(seen_before)] == seen_before
    assert back.seq == room.peers[0].seq
    room.play(bots)
    assert [str(v) for v in room.verdicts] == ["fair", "fair"]
    assert back.history == room.peers[1].history
    moves = [[(s, a) for s, a in p.history if s is not None] for p in room.peers]
    assert moves[0] == moves[1]


def test_a_journal_with_a_torn_last_record_still_reads(tmp_path: Path) -> None:
    room = MentalMatch("cake-duel", 2, 2, journal_dir=tmp_path)
    (path, *_) = sorted(journal.journals(tmp_path))
    table, envelopes = journal.read(path)
    assert table == room.table and len(envelopes) > 5
    with path.open("ab") as f:
        f.write(b"\x00\x00\x10\x00partial")
    assert journal.read(path)[1] == envelopes


def test_the_same_table_twice_gives_a_seat_fresh_game_keys(tmp_path: Path) -> None:
    # an audit publishes a seat's game key: a second game of the same table must not
    # reuse it, or its private cards are readable before they are dealt
    from cakeparty.protocol.group import seeded_random_bytes
    from cakeparty.protocol.identity import Identity
    from cakeparty.protocol.session import GameSession
    from cakeparty.protocol.table import Table

    ann, bob = (Identity.generate(n, seeded_random_bytes(n.encode())) for n in ("Ann", "Bob"))
    table = Table.of("ROOM42", "cake-duel", [(ann.player_id, "Ann"), (bob.player_id, "Bob")])
    first = GameSession(table, [ann], journal_dir=tmp_path / "one").peers[0]
    again = GameSession(table, [ann], journal_dir=tmp_path / "two").peers[0]
    assert first.deck.key.public != again.deck.key.public
    # the secret is kept in the journal, for this user only, and a resume finds it
    path = journal.journal_path(table, ann.player_id, tmp_path / "one")
    assert path.stat().st_mode & 0o777 == 0o600
    first.journal.close() if first.journal is not None else None
    resumed = GameSession(table, [ann], journal_dir=tmp_path / "one").peers[0]
    assert resumed.deck.key.public == first.deck.key.public


def test_a_data_dir_remembers_the_tables_it_played(tmp_path: Path) -> None:
    digest, other, ann, bob = bytes(range(32)), bytes(32), b"a" * 32, b"b" * 32
    assert not journal.played(digest, ann, tmp_path)
    journal.mark_played(digest, ann, tmp_path)
    journal.mark_played(digest, ann, tmp_path)
    assert journal.played(digest, ann, tmp_path) and not journal.played(other, ann, tmp_path)
    assert not journal.played(digest, bob, tmp_path)  # one data dir may keep several players
    assert (tmp_path / journal.PLAYED).stat().st_size == 32


def test_journals_live_under_the_config_dir_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CAKEPARTY_DATA_DIR", raising=False)
    monkeypatch.setenv("CAKEPARTY_CONFIG_DIR", str(tmp_path / "portable"))
    assert journal.data_dir() == tmp_path / "portable" / "data"
    monkeypatch.setenv("CAKEPARTY_DATA_DIR", str(tmp_path / "elsewhere"))
    assert journal.data_dir() == tmp_path / "elsewhere"


def test_prune_removes_old_finished_games_and_keeps_games_in_progress(tmp_path: Path) -> None:
    import os
    import time

    done = MentalMatch("cake-duel", 2, 4, journal_dir=tmp_path)
    done.play(seat_bots(2, 4))
    assert [str(v) for v in done.verdicts] == ["fair", "fair"]
    ended = set(journal.journals(tmp_path))
    MentalMatch("cake-duel", 2, 5, journal_dir=tmp_path)  # dealt, not played
    going = set(journal.journals(tmp_path)) - ended
    assert len(ended) == 2 and len(going) == 2
    assert all(journal.finished(p) for p in ended)
    assert not any(journal.finished(p) for p in going)
    now = time.time()
    assert journal.prune(tmp_path, days=30, now=now) == []  # all recent
    month_ago = now - 31 * 86400
    for path in ended | going:
        os.utime(path, (month_ago, month_ago))
    assert set(journal.prune(tmp_path, days=30, now=now)) == ended
    assert set(journal.journals(tmp_path)) == going


def test_a_seat_s_two_versions_of_one_step_are_told_from_its_votes() -> None:
    """A journal ends on a seat's two envelopes for one step (same number, same log
    before); a voter's votes about one step (each adds seats gone) are no such pair."""
    key = Identity.generate("Bob", random_bytes=random.Random(1).randbytes).signing_key

    def signed(kind: str, body: object, prev: bytes = bytes(range(32))) -> bytes:
        return seal(key, room="R1", seq=3, prev=prev, kind=kind, body=body).to_bytes()

    first, second = signed(st.ACTION, {"a": 1}), signed(st.ACTION, {"a": 2})
    assert journal.two_versions([first, second])
    assert not journal.two_versions([first, first])  # one envelope, kept twice
    assert not journal.two_versions([first, signed(st.ACTION, {"a": 2}, prev=bytes(32))])
    votes = [signed(ABANDON, {"seat": 0}, NO_PREV), signed(ABANDON, {"away": [2]}, NO_PREV)]
    assert not journal.two_versions(votes)


WRITER = (
    "import sys\n"
    "from pathlib import Path\n"
    "from cakeparty.protocol.journal import write_private\n"
    "path, me = Path(sys.argv[1]), sys.argv[2]\n"
    "for _ in range(300):\n"
    "    write_private(path, me * 20000)\n"
)


def test_processes_writing_one_file_at_once_each_put_a_whole_file_in_place(
    tmp_path: Path,
) -> None:
    """Two windows of one player write the same settings, lists or key at once: each
    used to write the same temporary file, so one could put in place a file the other had
    just emptied (an empty key file stops the app), or find it gone (an error)."""
    import subprocess
    import sys

    path = tmp_path / "settings.json"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), me], stderr=subprocess.PIPE)
        for me in "abcd"
    ]
    for writer in writers:
        _out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err.decode()[-500:]
    text = path.read_text()
    assert text in {me * 20000 for me in "abcd"}
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_the_kept_clock_never_goes_back_across_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Readings grow within a run even where the clock stands still or goes back, and a
    later run of the same data dir starts past the earlier run's last reading, in
    milliseconds too (the coarsest unit the numbers count in), however far the clock was
    set back; a file of no clock's reading (no number, or one past any message's room),
    or a data dir that keeps nothing, leaves the clock as it is."""
    now = [5_000_000_000_123]
    monkeypatch.setattr(journal.time, "time_ns", lambda: now[0])
    first = journal.KeptClock(tmp_path)
    readings = [first() for _ in range(3)]
    assert readings == [now[0], now[0] + 1, now[0] + 2]
    now[0] -= 3600 * 10**9  # set back an hour, mid-run
    assert first() == readings[-1] + 1
    later = journal.KeptClock(tmp_path)  # the next run
    reading = later()
    assert reading // 1_000_000 > (readings[-1] + 1) // 1_000_000
    assert later() == reading + 1
    for kept in ("not a number", str(10**30), "-5"):  # no clock's reading: the clock
        (tmp_path / "clock").write_text(kept)
        assert journal.KeptClock(tmp_path)() == now[0]
    blocked = tmp_path / "file"
    blocked.write_text("")
    nowhere = journal.KeptClock(blocked / "data")  # its folder cannot be made
    assert [nowhere(), nowhere()] == [now[0], now[0] + 1]

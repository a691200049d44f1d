"""A peer that crashes resumes from its journal and the game completes, fair."""

from __future__ import annotations

import random
from pathlib import Path

from cakeparty.protocol import journal
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

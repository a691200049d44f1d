"""Networked sessions without a network: resync after a gap, and absence votes."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from cakeparty.core import get_game
from cakeparty.protocol.codec import decode, seal
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import KeptClock
from cakeparty.protocol.lobby import SYNC
from cakeparty.protocol.session import NUDGE, GameSession
from cakeparty.protocol.steps import ACTION
from cakeparty.protocol.table import Table

NORMAL = get_game("cake-duel").bots["normal"]


def room(
    players: int, tmp: Path, timeout: int = 30, on_timeout: str = "ask"
) -> tuple[list[GameSession], Table]:
    identities = [
        Identity.generate(f"P{i}", seeded_random_bytes(f"s{i}".encode())) for i in range(players)
    ]
    table = Table.of(
        "ABSENT1",
        "cake-duel",
        [(i.player_id, i.name) for i in identities],
        timeout=timeout,
        on_timeout=on_timeout,
    )
    sessions = [
        GameSession(table, [i], journal_dir=tmp / f"p{n}") for n, i in enumerate(identities)
    ]
    return sessions, table


def relay(sessions: list[GameSession], now: float, cut: set[int] = frozenset()) -> int:
    """Deliver every outbox to every session but those in ``cut`` (they hear nothing and
    what they say is lost); return how many messages moved."""
    moved = 0
    while True:
        batch = []
        for n, s in enumerate(sessions):
            if n not in cut:
                batch.extend(s.outbox)
            s.outbox.clear()
        if not batch:
            return moved
        moved += len(batch)
        for n, s in enumerate(sessions):
            if n not in cut:
                for data in batch:
                    s.receive(data, now)


def play_until(sessions: list[GameSession], now: float, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        relay(sessions, now)
        due = [(s, p, v) for s in sessions for p, v in s.due()]
        if not due:
            return
        session, peer, view = due[0]
        session.act(peer.seat, NORMAL(view, rng))


def test_a_peer_that_missed_envelopes_catches_up_by_asking(tmp_path: Path) -> None:
    sessions, _ = room(2, tmp_path)
    rng = random.Random(1)
    play_until(sessions, 0.0, 4, rng)
    relay(sessions, 0.0)
    ((session, peer, view),) = [(s, p, v) for s in sessions for p, v in s.due()]
    deaf = sessions[1 - sessions.index(session)]
    before = deaf.seq
    # the other seat goes deaf for a while: this move never reaches it
    session.act(peer.seat, NORMAL(view, rng))
    relay(sessions, 1.0, cut={sessions.index(deaf)})
    assert deaf.seq == before < session.seq
    # time passes: both ask for what they miss and send again what they said
    for s in sessions:
        s.tick(1.0 + NUDGE)
    relay(sessions, 1.0 + NUDGE)
    assert deaf.seq == session.seq > before
    moves = [[(s, a) for s, a in x.peers[0].history if s is not None] for x in sessions]
    assert moves[0] == moves[1]
    assert deaf.peers[0].state.events == session.peers[0].state.events


def test_a_seat_s_old_request_for_catch_up_sent_again_is_not_answered(tmp_path: Path) -> None:
    """Anyone may send a seat's signed request for catch-up again. Each was answered, by
    every peer, with the log from its step on (up to 4 MB): a stranger who kept a request
    from the start of the game made every peer send the whole log again, once a nudge.
    An old request is now left unanswered; the seat's new ones are answered as before."""
    sessions, _table = room(2, tmp_path)
    here, other = sessions
    (first,) = [data for data in here.outbox if decode(data).kind == SYNC]  # said at the start
    assert decode(first).seq == 0
    play_until(sessions, 0.0, 12, random.Random(3))
    relay(sessions, 0.0)
    assert other.seq > 10
    now = 10.0
    other.outbox.clear()
    other.receive(first, now)
    assert other.outbox == []  # nothing sent again
    # the seat asks anew (it missed something, say): answered, from its step
    here.outbox.clear()
    here.sync(now, step=5)
    (fresh,) = here.outbox
    other.receive(fresh, now)
    answer = [decode(data) for data in other.outbox]
    assert answer and {e.seq for e in answer if e.kind != SYNC} == {5}
    # and that one, sent again a nudge later, is not
    other.outbox.clear()
    other.receive(fresh, now + 2 * NUDGE)
    assert other.outbox == []


def test_a_seat_back_with_its_clock_set_back_is_answered_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's requests for catch-up are stamped by the clock, and the room ignores one
    no newer than the seat's last. The seat's app stopped, its clock was set back an hour,
    and it came back from its journal: its requests went unanswered until its clock passed
    the old stamps. Stamped by the clock its data dir keeps, it is answered at once."""
    sessions, table = room(2, tmp_path)
    clocks = [KeptClock(tmp_path / f"p{n}") for n in range(2)]
    for session, clock in zip(sessions, clocks, strict=True):
        session._clock = clock  # as the room's runner passes it
    play_until(sessions, 0.0, 8, random.Random(4))
    relay(sessions, 0.0)
    here, other = sessions
    here.sync(1.0)  # its latest request, heard by the room
    relay(sessions, 1.0)
    while not other.due():  # the seat misses a move of the other's
        play_until(sessions, 1.0, 1, random.Random(5))
    ((peer, view),) = other.due()
    other.act(peer.seat, NORMAL(view, random.Random(6)))
    relay(sessions, 1.0, cut={0})
    assert here.seq < other.seq
    real = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real() - 3600 * 10**9)
    identity = here.peers[0].identity
    back = GameSession(
        table, [identity], journal_dir=tmp_path / "p0", clock=KeptClock(tmp_path / "p0")
    )
    (asked,) = [data for data in back.outbox if decode(data).kind == SYNC]
    other.outbox.clear()
    other.receive(asked, 1.0 + 2 * NUDGE)
    answer = {decode(data).seq for data in other.outbox if decode(data).kind != SYNC}
    assert back.seq in answer


def test_envelopes_off_its_log_make_a_peer_ask_for_the_step_before_once_a_nudge(
    tmp_path: Path,
) -> None:
    """A seat's envelope that follows another log than this peer's may follow another
    version of the step before it: the peer asks the room for the log from there. A
    flood of them makes it ask once per nudge, and keeps nothing."""
    sessions, table = room(2, tmp_path)
    play_until(sessions, 0.0, 4, random.Random(1))
    relay(sessions, 0.0)
    here, other = sessions
    seq, rng = here.seq, random.Random(5)

    questions: list[bytes] = []

    def asked() -> list[int]:
        sent = [(decode(data), data) for data in here.outbox]
        here.outbox.clear()
        questions.extend(data for e, data in sent if e.kind == SYNC)
        return [e.seq for e, _ in sent if e.kind == SYNC]

    asks = []
    for now in (10.0, 10.0 + NUDGE / 2, 10.0 + NUDGE):
        for _ in range(300):
            stray = seal(
                other.signer, room=table.room, seq=seq, prev=rng.randbytes(32), kind=ACTION, body={}
            )
            here.receive(stray.to_bytes(), now)
        asks.append(asked())
    assert asks == [[seq - 1], [], [seq - 1]]
    # an ask is about one step: its answer holds that step's envelopes, not the log since
    stray = seal(
        other.signer, room=table.room, seq=seq - 2, prev=rng.randbytes(32), kind=ACTION, body={}
    )
    here.receive(stray.to_bytes(), 20.0)
    assert asked() == [seq - 3]
    other.outbox.clear()
    other.receive(questions[-1], 20.0)
    answered = [decode(data) for data in other.outbox]
    assert {e.seq for e in answered} == {seq - 3}
    assert len(answered) == len(other.peers[0].log[seq - 3])
    footprint = here.footprint()
    assert footprint["held_envelopes"] == footprint["incidents"] == 0, footprint
    assert here.seq == seq and not here.finished


def test_a_seat_gone_past_the_timeout_ends_the_game_abandoned(tmp_path: Path) -> None:
    sessions, table = room(4, tmp_path, timeout=30, on_timeout="end")
    play_until(sessions, 0.0, 3, random.Random(2))
    relay(sessions, 0.0)
    waited = sessions[0].waiting_for
    assert waited
    gone = waited[0]
    offline = frozenset({gone})
    alive = [n for n in range(4) if n != gone]
    # before the timeout nobody votes
    for n in alive:
        sessions[n].tick(10.0, offline)
    relay(sessions, 10.0, cut={gone})
    assert all(sessions[n].abandoned is None for n in alive)
    # two of three voting is not enough (the third hears them, but its clock is behind)
    for n in alive[:2]:
        sessions[n].tick(40.0, offline)
    relay(sessions, 40.0, cut={gone})
    assert all(sessions[n].abandoned is None for n in alive)
    sessions[alive[2]].tick(40.0, offline)
    relay(sessions, 40.0, cut={gone})
    for n in alive:
        assert sessions[n].finished
        abandoned = sessions[n].abandoned
        assert abandoned is not None and abandoned.seat == gone
        assert abandoned.voters == frozenset(alive)
    # the votes are in each journal
    from cakeparty.protocol import journal
    from cakeparty.protocol.codec import decode

    path = journal.journal_path(table, table.players[alive[0]], tmp_path / f"p{alive[0]}")
    kinds = [decode(e).kind for e in journal.read(path)[1]]
    assert kinds.count("abandon") >= 1


def test_a_move_that_comes_after_everyone_voted_ends_the_game_there_too(tmp_path: Path) -> None:
    sessions, _ = room(2, tmp_path, timeout=5)
    play_until(sessions, 0.0, 2, random.Random(3))
    relay(sessions, 0.0)
    ((late, peer, view),) = [(s, p, v) for s in sessions for p, v in s.due()]
    voter = sessions[1 - sessions.index(late)]
    assert voter.vote(peer.seat, 100.0)  # the voter gave up waiting …
    votes = list(voter.outbox)
    voter.outbox.clear()
    assert voter.abandoned is not None and voter.abandoned.seat == peer.seat
    before = voter.peers[0].seq
    late.act(peer.seat, NORMAL(view, random.Random(0)))  # … just as the move was made
    for data in late.outbox:
        voter.receive(data, 100.0)
    assert voter.abandoned is not None  # the late move changes nothing for the voter
    assert voter.peers[0].seq == before  # and it was never taken
    for data in votes:
        late.receive(data, 100.0)
    # one verdict: the late seat's screen shows the very ending the voter's shows
    assert late.abandoned == voter.abandoned


def test_a_vote_from_another_log_or_about_oneself_is_void(tmp_path: Path) -> None:
    sessions, table = room(2, tmp_path, timeout=5)
    play_until(sessions, 0.0, 2, random.Random(3))
    relay(sessions, 0.0)
    from cakeparty.protocol.codec import seal

    waiting = sessions[0].waiting_for[0]
    other = 1 - waiting
    key = sessions[other].peers[0].identity.signing_key
    wrong = seal(
        key,
        room=table.room,
        seq=sessions[0].seq,
        prev=bytes(32),
        kind="abandon",
        body={"seat": waiting, "step": bytes(32)},
    )
    selfish = seal(
        key,
        room=table.room,
        seq=sessions[0].seq,
        prev=bytes(32),
        kind="abandon",
        body={"seat": other, "step": sessions[0].peers[0].prev},
    )
    for session in sessions:
        session.receive(wrong.to_bytes(), 50.0)
        session.receive(selfish.to_bytes(), 50.0)
        assert session.abandoned is None


# -- votes that cannot lie -------------------------------------------------------------


def vote(session: GameSession, table: Table, absent: int, seq: int, step: bytes) -> bytes:
    """A signed abandonment vote by ``session``'s seat."""
    from cakeparty.protocol.codec import seal
    from cakeparty.protocol.lobby import ABANDON, NO_PREV

    key = session.peers[0].identity.signing_key
    body = {"seat": absent, "step": step}
    return seal(key, room=table.room, seq=seq, prev=NO_PREV, kind=ABANDON, body=body).to_bytes()


def test_in_a_duel_the_partners_signed_vote_is_the_one_ending_on_both_screens(
    tmp_path: Path,
) -> None:
    sessions, table = room(2, tmp_path, timeout=30)
    play_until(sessions, 0.0, 4, random.Random(4))
    relay(sessions, 0.0)
    ((slow, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
    other = sessions[1 - sessions.index(slow)]
    # the other player may end a duel whenever it likes (it could just walk away); what
    # matters is that both screens then tell the same story, the slow seat's too
    slow.receive(vote(other, table, peer.seat, peer.seq, peer.prev), 1.0)
    ended = slow.abandoned
    assert ended is not None and ended.seat == peer.seat
    assert ended.voters == {other.peers[0].seat}
    assert slow.finished and not slow.due()


def test_a_vote_about_a_step_answered_in_the_log_is_refused(tmp_path: Path) -> None:
    from cakeparty.protocol.steps import step_digest

    sessions, table = room(2, tmp_path, timeout=30)
    play_until(sessions, 0.0, 12, random.Random(5))
    relay(sessions, 0.0)
    honest, liar = sessions
    log = honest.peers[0].log
    me, them = table.players[0], table.players[1]
    # a step the honest seat answered, after which the liar itself played on
    answered = next(
        n
        for n, step in enumerate(log)
        if any(e.sender == me for e in step)
        and any(e.sender == them for later in log[n + 1 :] for e in later)
    )
    prev = table.digest() if answered == 0 else step_digest(log[answered - 1])
    honest.receive(vote(liar, table, 0, answered, prev), 1.0)
    assert honest.abandoned is None and not honest.finished
    # and the game goes on
    before = honest.seq
    play_until(sessions, 1.0, 2, random.Random(6))
    assert honest.seq > before


def test_an_abandonment_waits_for_this_peers_own_clock(tmp_path: Path) -> None:
    from cakeparty.protocol.codec import decode

    sessions, table = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(2))
    relay(sessions, 0.0)
    ((gone_session, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
    gone = peer.seat
    me = next(s for s in sessions if s is not gone_session)
    others = [s for s in sessions if s is not gone_session and s is not me]
    # the two others say at once that the mover is gone: this peer has not waited
    for other in others:
        me.receive(vote(other, table, gone, peer.seq, peer.prev), 1.0)
    assert me.abandoned is None
    me.tick(29.0)
    assert me.abandoned is None
    assert all(decode(data).kind != "abandon" for data in me.outbox)  # asks again, no vote
    assert not me.vote(gone, 29.0)  # not before its own clock says so
    assert me.vote(gone, 31.0)  # its own timeout: it votes, and with the others' the game ends
    assert me.abandoned is not None
    assert me.abandoned.seat == gone and me.abandoned.voters == {0, 1, 2, 3} - {gone}

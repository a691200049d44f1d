"""One verdict for everyone: the room's rule on timeout, and abandonment as a log step."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from cakeparty.core import get_game
from cakeparty.protocol import journal
from cakeparty.protocol.codec import decode, seal
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import ABANDON, NO_PREV
from cakeparty.protocol.session import GameSession
from tests.protocol.test_session import play_until, relay, room, vote

NORMAL = get_game("cake-duel").bots["normal"]


@pytest.fixture(autouse=True)
def seeded_games(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Each new journal's game secret comes from a source seeded by the test's name: the
    secrets decide the shuffles, so every run of a test plays the very same game."""
    draw = seeded_random_bytes(request.node.name.encode())
    monkeypatch.setattr(journal, "secrets", SimpleNamespace(token_bytes=draw))


def mover(sessions: list[GameSession]) -> tuple[GameSession, int]:
    """The session whose seat the room waits for, and that seat."""
    ((session, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
    return session, peer.seat


def kinds(session: GameSession) -> list[str]:
    return [decode(d).kind for d in session.outbox]


def test_under_ask_nobody_votes_by_itself_and_the_slow_seat_is_told(tmp_path: Path) -> None:
    sessions, _ = room(2, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(7))
    relay(sessions, 0.0)
    slow, seat = mover(sessions)
    other = sessions[1 - sessions.index(slow)]
    assert other.clock(10.0) == 20.0 and other.overdue(10.0) == ()
    assert not slow.late(10.0)
    # time is up, the slow seat is online or not: under "ask" nobody is forfeited
    other.tick(31.0, frozenset({seat}))
    assert "abandon" not in kinds(other) and other.abandoned is None
    assert other.overdue(31.0) == (seat,)  # the user interface asks the other player
    assert slow.late(31.0) and slow.overdue(31.0) == ()  # … and tells the slow one
    # "wait longer": another full timeout before it is asked again
    other.wait_longer(31.0)
    assert other.overdue(60.0) == () and other.overdue(61.0) == (seat,)


def test_waiting_longer_for_another_seat_leaves_ones_own_clock_run_out(tmp_path: Path) -> None:
    """In a step every seat plays at once (Cake Master's first pass), a player late
    itself who gives a slower one more time is still late: its own clock is the step's."""
    from cakeparty.protocol.table import Table

    identities = [
        Identity.generate(f"P{i}", seeded_random_bytes(f"m{i}".encode())) for i in range(3)
    ]
    table = Table.of(
        "SIMUL1", "cake-master", [(i.player_id, i.name) for i in identities], timeout=30
    )
    sessions = [
        GameSession(table, [i], journal_dir=tmp_path / f"p{n}") for n, i in enumerate(identities)
    ]
    relay(sessions, 0.0)
    assert [[p.seat for p, _view in s.due()] for s in sessions] == [[0], [1], [2]]
    ben = sessions[1]
    assert ben.overdue(31.0) == (0, 2) and ben.late(31.0)
    ben.wait_longer(31.0)
    assert ben.overdue(40.0) == () and ben.clock(40.0) == 21.0
    # …but Ben's own time is up all the same, as the others see it
    assert ben.late(40.0) and ben.own_clock(40.0) == -10.0
    assert sessions[0].overdue(40.0) == (1, 2)


def test_under_end_an_offline_seat_is_voted_out_but_an_online_one_is_not(tmp_path: Path) -> None:
    sessions, _ = room(2, tmp_path, timeout=30, on_timeout="end")
    play_until(sessions, 0.0, 3, random.Random(8))
    relay(sessions, 0.0)
    slow, seat = mover(sessions)
    other = sessions[1 - sessions.index(slow)]
    other.tick(31.0)  # online but slow: asked, never forfeited
    assert "abandon" not in kinds(other) and other.abandoned is None
    other.tick(32.0, frozenset({seat}))  # offline: the room's rule votes
    assert "abandon" in kinds(other)
    assert other.abandoned is not None and other.abandoned.seat == seat


def test_a_bot_seconds_the_people_but_never_votes_an_online_seat_out_alone(
    tmp_path: Path,
) -> None:
    sessions, _ = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(9))
    relay(sessions, 0.0)
    slow, seat = mover(sessions)
    ann, bea, bot = (s for s in sessions if s is not slow)
    bot.headless = True
    bot.tick(31.0)
    assert "abandon" not in kinds(bot)
    assert ann.vote(seat, 31.0) and bea.vote(seat, 31.0)
    relay(sessions, 31.0)
    assert all(s.abandoned is None for s in sessions)
    bot.tick(31.5)
    assert "abandon" in kinds(bot)
    relay(sessions, 31.5)
    ends = [s.abandoned for s in sessions]
    assert ends[0] is not None and ends[0].seat == seat and ends.count(ends[0]) == 4


def test_a_vote_taken_back_when_another_seat_took_the_late_move(tmp_path: Path) -> None:
    """A votes, C took B's late move first: A's vote can never be completed, so A takes it
    back, takes the move, and all play on with one log."""
    sessions, _ = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(10))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    a, c, d = (s for s in sessions if s is not late)
    assert a.vote(seat, 40.0)
    a_votes = list(a.outbox)
    a.outbox.clear()
    late.act(seat, NORMAL(late.peers[0].view(), random.Random(1)))
    move = list(late.outbox)
    late.outbox.clear()
    for data in move:  # C and D see the move before A's vote; A voted first
        c.receive(data, 40.0)
        d.receive(data, 40.0)
        a.receive(data, 40.0)
    assert a.seq < c.seq  # A refused the late move: it voted at that step
    for data in a_votes:
        c.receive(data, 40.0)
        d.receive(data, 40.0)
        late.receive(data, 40.0)
    assert all(s.abandoned is None for s in sessions)  # one vote of three: no ending
    play_until(sessions, 41.0, 6, random.Random(11))  # C plays on; A learns and takes it back
    for s in sessions:
        s.tick(45.0)
    relay(sessions, 45.0)
    assert all(s.abandoned is None for s in sessions)
    assert a.seq == c.seq == d.seq == late.seq > 0
    logs = [[e.digest() for step in s.peers[0].log for e in step] for s in sessions]
    assert logs.count(logs[0]) == 4


def test_votes_are_replayed_from_the_journal_after_a_crash(tmp_path: Path) -> None:
    sessions, table = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(12))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    voter = next(s for s in sessions if s is not late)
    n = sessions.index(voter)
    assert voter.vote(seat, 40.0)
    voter.outbox.clear()
    # the voter's process dies and comes back from its journal
    ident = voter.peers[0].identity
    again = GameSession(table, [ident], journal_dir=tmp_path / f"p{n}", now=50.0)
    assert again.voted(seat) and again.votes_against(seat) == {voter.peers[0].seat}
    # it still refuses the late move it voted against
    late.act(seat, NORMAL(late.peers[0].view(), random.Random(2)))
    before = again.seq
    for data in late.outbox:
        again.receive(data, 50.0)
    assert again.seq == before


def test_a_peer_back_after_the_ending_learns_it_from_the_room(tmp_path: Path) -> None:
    sessions, table = room(2, tmp_path, timeout=5)
    play_until(sessions, 0.0, 3, random.Random(13))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    voter = sessions[1 - sessions.index(late)]
    n = sessions.index(late)
    relay(sessions, 0.0)
    assert voter.vote(seat, 10.0)
    relay([voter], 10.0)  # the absent seat hears nothing: it is gone
    assert voter.abandoned is not None
    # it comes back from its journal, asks, and the voter answers with the votes
    back = GameSession(table, [late.peers[0].identity], journal_dir=tmp_path / f"p{n}", now=60.0)
    assert back.abandoned is None
    relay([back, voter], 60.0)
    assert back.abandoned == voter.abandoned
    assert back.finished and not back.due()
    # and the ending is now in its journal too: a second restart shows it at once
    third = GameSession(table, [late.peers[0].identity], journal_dir=tmp_path / f"p{n}", now=70.0)
    assert third.abandoned == voter.abandoned


def test_a_stranger_or_a_replayed_vote_never_counts(tmp_path: Path) -> None:
    sessions, table = room(2, tmp_path, timeout=5)
    play_until(sessions, 0.0, 3, random.Random(14))
    relay(sessions, 0.0)
    slow, seat = mover(sessions)
    stranger = Identity.generate("Mallory")
    peer = slow.peers[0]
    forged = seal(
        stranger.signing_key,
        room=table.room,
        seq=peer.seq,
        prev=NO_PREV,
        kind=ABANDON,
        body={"seat": seat, "step": peer.prev},
    ).to_bytes()
    slow.receive(forged, 100.0)
    assert slow.abandoned is None and slow.votes_against(seat) == frozenset()
    # an honest vote from an earlier step the voter itself played past
    other = sessions[1 - sessions.index(slow)]
    old = vote(other, table, seat, 0, table.digest())
    slow.receive(old, 100.0)
    assert slow.abandoned is None


def test_a_seat_that_votes_and_plays_past_the_step_is_named(tmp_path: Path) -> None:
    """C signs B out of step n and also signs a step after n (that holds B's move): A,
    which voted, takes its vote back and names C."""
    sessions, table = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(15))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    a, c, d = (s for s in sessions if s is not late)
    step, prev = a.peers[0].seq, a.peers[0].prev
    assert a.vote(seat, 40.0)
    a.outbox.clear()
    a.receive(vote(c, table, seat, step, prev), 40.0)  # C's vote, kept by A
    late.act(seat, NORMAL(late.peers[0].view(), random.Random(3)))
    them = [late, c, d]
    cid = table.players[c.peers[0].seat]

    def c_signed_past() -> bool:
        peer = c.peers[0]
        signed = [e for x in peer.log[step + 1 :] for e in x] + [e for e, _ in peer.got.values()]
        return any(e.sender == cid and e.seq > step for e in signed)

    rng = random.Random(4)
    relay(them, 40.0)
    while not c_signed_past():  # C and D take the move and play on until C signs past n
        due = [(s, p, v) for s in them for p, v in s.due()]
        assert due, "the seeded game waits for A before C signs past step n"
        due[0][0].act(due[0][1].seat, NORMAL(due[0][2], rng))
        relay(them, 40.0)
    for data in c.peers[0].envelopes_since(step + 1):
        a.receive(data, 41.0)
    named = [i for i in a.incidents if i.peer == c.peers[0].seat]
    assert named and "played past it" in named[0].reason
    assert a.abandoned is None and not a.voted(seat)


# -- two seats gone ----------------------------------------------------------------------


def away_vote(session: GameSession, absent: int, away: list[int]) -> bytes:
    """A signed vote by ``session``'s seat about its open step, signing ``away`` gone."""
    peer = session.peers[0]
    body = {"seat": absent, "step": peer.prev, "away": away}
    return seal(
        peer.identity.signing_key,
        room=session.table.room,
        seq=peer.seq,
        prev=NO_PREV,
        kind=ABANDON,
        body=body,
    ).to_bytes()


def test_two_seats_gone_the_present_seats_still_end_the_game(tmp_path: Path) -> None:
    """The mover and another seat are both gone past the clock: the two present seats'
    votes are the ending, the same on every screen, the gone seats' too when they come
    back; the votes are journaled and come back with a restart."""
    sessions, table = room(4, tmp_path, timeout=30, on_timeout="end")
    play_until(sessions, 0.0, 3, random.Random(21))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    other = next(s for s in sessions if s is not late)
    gone = {sessions.index(late), sessions.index(other)}
    a, c = (s for s in sessions if s not in (late, other))
    offline = frozenset({seat, other.peers[0].seat})
    for s in (a, c):  # both seats went offline early on
        s.tick(1.0, offline)
    for s in (a, c):
        s.tick(31.0, offline)  # the mover's step is overdue: the room's rule votes
    relay(sessions, 31.0, cut=gone)
    for s in (a, c):
        ended = s.abandoned
        assert ended is not None and ended.seat == seat
        assert ended.voters == {a.peers[0].seat, c.peers[0].seat}
        assert ended.away == {other.peers[0].seat}
    # the gone seats come back, ask the room, and hear the votes: the very same ending
    late.sync(40.0)
    other.sync(40.0)
    relay(sessions, 40.0)
    assert [s.abandoned for s in sessions].count(a.abandoned) == 4
    # a voter restarted from its journal shows it at once
    n = sessions.index(a)
    again = GameSession(table, [a.peers[0].identity], journal_dir=tmp_path / f"p{n}", now=50.0)
    assert again.abandoned == a.abandoned


def test_a_voter_signs_a_seat_gone_once_it_is_gone_past_the_clock(tmp_path: Path) -> None:
    """Under "ask" a person votes while the other seat is still only just offline: the
    vote cannot end the game yet; once that seat is gone past the clock too, the voter's
    process signs it gone and the game ends."""
    sessions, _ = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(22))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    other = next(s for s in sessions if s is not late)
    gone = {sessions.index(late), sessions.index(other)}
    a, c = (s for s in sessions if s not in (late, other))
    offline = frozenset({seat, other.peers[0].seat})
    for s in (a, c):
        s.tick(31.0, offline)  # "ask": nobody votes by itself
        assert s.overdue(31.0) == (seat,) and s.gone(31.0) == frozenset()
        assert s.vote(seat, 31.0)  # both people choose to end it
    relay(sessions, 31.0, cut=gone)
    assert a.abandoned is None and c.abandoned is None  # the other seat may still vote
    for s in (a, c):
        s.tick(45.0, offline)
    relay(sessions, 45.0, cut=gone)
    assert a.abandoned is None  # offline, but not yet past the clock
    for s in (a, c):
        s.tick(61.0, offline)
    relay(sessions, 61.0, cut=gone)
    for s in (a, c):
        ended = s.abandoned
        assert ended is not None and ended.seat == seat
        assert ended.away == {other.peers[0].seat}


def test_one_voter_signing_a_seat_gone_is_not_enough_while_another_waits(
    tmp_path: Path,
) -> None:
    """A seat is left out of the ending only when every voter signed it gone: while one
    voter has not, that seat's vote is still needed."""
    sessions, table = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(23))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    a, c, d = (s for s in sessions if s is not late)
    sa, sc, sd = (s.peers[0].seat for s in (a, c, d))
    # C votes and signs nobody gone; A votes and signs D gone: D's vote is still needed
    for s in sessions:
        s.receive(away_vote(c, seat, []), 40.0)
        s.receive(away_vote(a, seat, [sd]), 40.0)
    assert all(s.abandoned is None for s in sessions)
    assert d.votes_against(seat) == {sa, sc}
    # a vote that signs the absent seat or the voter itself gone, or a seat twice, is void
    for bad in ([seat], [sd, sd], [sc, sc], [sc, seat]):
        d.receive(away_vote(c, seat, bad), 40.0)
    assert d.abandoned is None
    # C now signs D gone too: every voter did, so the ending stands without D
    for s in sessions:
        s.receive(away_vote(c, seat, [sd]), 41.0)
    ended = d.abandoned
    assert ended is not None and ended.seat == seat
    assert ended.voters == {sa, sc} and ended.away == {sd}
    assert [s.abandoned for s in sessions].count(ended) == 4
    # D's own vote, come after all, is the same ending with one more voter
    for s in sessions:
        s.receive(vote(d, table, seat, d.peers[0].seq, d.peers[0].prev), 42.0)
    for s in sessions:
        assert s.abandoned is not None and s.abandoned.voters == {sa, sc, sd}


def test_a_vote_is_taken_back_when_a_seat_not_every_voter_signed_gone_plays_on(
    tmp_path: Path,
) -> None:
    """A signs C gone, D does not: C's vote is needed. C took the late move and plays on,
    so the ending can never be: A and D take their votes back and all play on, one log."""
    sessions, _ = room(4, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(24))
    relay(sessions, 0.0)
    late, seat = mover(sessions)
    a, c, d = (s for s in sessions if s is not late)
    sc = c.peers[0].seat
    mine = away_vote(a, seat, [sc])
    a.receive(mine, 40.0)  # A's own vote: it refuses the late move from now on
    assert d.vote(seat, 40.0)
    d_votes = list(d.outbox)
    d.outbox.clear()
    late.act(seat, NORMAL(late.peers[0].view(), random.Random(5)))
    move = list(late.outbox)
    late.outbox.clear()
    for s in (a, c, d):
        for data in move:
            s.receive(data, 40.0)
    assert a.seq == d.seq < c.seq  # A and D refused the late move; C took it
    for s in (a, c, d, late):
        for data in [mine, *d_votes]:
            s.receive(data, 40.0)
    assert all(s.abandoned is None for s in sessions)
    play_until(sessions, 41.0, 6, random.Random(6))  # C plays on; A and D learn of it
    for s in sessions:
        s.tick(45.0)
    relay(sessions, 45.0)
    assert all(s.abandoned is None for s in sessions)
    assert not a.voted(seat) and not d.voted(seat)
    assert a.seq == c.seq == d.seq == late.seq
    logs = [[e.digest() for step in s.peers[0].log for e in step] for s in sessions]
    assert logs.count(logs[0]) == 4


# -- the clock of a seat that comes back -------------------------------------------------


def test_a_resumed_seats_clock_goes_on_from_when_its_journal_last_moved(tmp_path: Path) -> None:
    """A process restarted from its journal does not give the room a fresh timeout: the
    open step has been waiting since the journal last moved, the restart included."""
    import os

    sessions, table = room(2, tmp_path, timeout=30)
    play_until(sessions, 0.0, 3, random.Random(25))
    relay(sessions, 0.0)
    slow, seat = mover(sessions)
    other = sessions[1 - sessions.index(slow)]
    n = sessions.index(other)
    path = journal.journal_path(table, table.players[other.peers[0].seat], tmp_path / f"p{n}")
    moved = 1_000_000.0  # the wall-clock time the journal last moved
    os.utime(path, (moved, moved))
    ident = other.peers[0].identity
    # back 25 s later: 5 s are left on the clock of the step, not 30
    back = GameSession(table, [ident], journal_dir=tmp_path / f"p{n}", now=7.0, wall=moved + 25)
    assert back.seq == other.seq
    assert back.clock(7.0) == 5.0 and back.overdue(7.0) == ()
    assert back.overdue(13.0) == (seat,)
    # back 100 s later: the step is overdue at once, and may be voted about
    late = GameSession(table, [ident], journal_dir=tmp_path / f"p{n}", now=3.0, wall=moved + 100)
    assert late.clock(3.0) == -70.0 and late.overdue(3.0) == (seat,)
    assert late.vote(seat, 3.0)
    # a clock set wrong (the journal "in the future") counts from the restart
    skew = GameSession(table, [ident], journal_dir=tmp_path / f"p{n}", now=0.0, wall=moved - 50)
    assert skew.clock(0.0) == 30.0
    # once the room moves on, the next step has a full timeout as ever
    slow.act(seat, NORMAL(slow.peers[0].view(), random.Random(7)))
    for data in slow.outbox:
        back.receive(data, 8.0)
    assert back.seq > other.seq and back.clock(8.0) == 30.0

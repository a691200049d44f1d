"""Sealed choices over the room log: hidden until every seat has committed, the same
whatever the order of arrival, opened after a crash exactly as committed; a seat that
opens something else is named at once, and one that never opens by the timeout."""

from __future__ import annotations

import random
import stat
from pathlib import Path
from typing import Any

import pytest

from cakeparty.core import Action, to_data
from cakeparty.protocol import journal
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import decode, pack
from cakeparty.protocol.errors import CommitMismatch
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table

from .sealed_game import NAME, ROUNDS, Pick, seeded_bots


def steps_of(peer: Peer) -> list[str]:
    return [step[0].kind for step in peer.log]


def deliver_until(room: MentalMatch, done: Any) -> None:
    """Deliver what is on the wire one envelope at a time, in order, to every peer that
    is there, until ``done()`` holds (or nothing is left)."""
    while room.wire and not done():
        data = room.wire.pop(0)
        for peer in room.peers:
            peer.receive(data)


def decide(room: MentalMatch, bots: dict[int, Any], order: list[int] | None = None) -> bool:
    """Every seat the room waits for decides (in ``order``), with everything delivered
    after each; ``False`` when nobody has anything to decide."""
    waiting = sorted({s for p in room.peers for s in p.waiting_for})
    movers = [
        p for p in room.peers if p.seat in waiting and p.step.kind in ("action", "choice-commit")
    ]
    if not movers:
        return False
    if order is not None:
        movers.sort(key=lambda p: order.index(p.seat))
    for peer in movers:
        peer.act(bots[peer.seat](peer.view(), random.Random()))
        room.pump()
    return True


def play(room: MentalMatch, bots: dict[int, Any], order: list[int] | None = None) -> None:
    room.pump()
    while not all(p.finished for p in room.peers):
        assert decide(room, bots, order), "the room is stuck"


def story(room: MentalMatch) -> tuple[Any, ...]:
    """What every peer agrees the game was: the same on each, or the test fails."""
    tales = [(p.outcome, tuple(p.history), p.randoms, p.prev, str(p.verdict)) for p in room.peers]
    assert all(t == tales[0] for t in tales), tales
    return tales[0]


# -- hidden, and the same whatever the order ------------------------------------------------


def test_every_choice_stays_hidden_until_every_seat_has_committed(tmp_path: Path) -> None:
    room = MentalMatch(NAME, 3, 4, journal_dir=tmp_path)
    sent: list[bytes] = []
    publish = room.wire.append

    def tap(data: bytes) -> None:
        sent.append(data)
        publish(data)

    for peer in room.peers:
        peer.on_envelope = tap
    room.pump()
    assert all(p.step.kind == st.CHOICE_COMMIT for p in room.peers)
    picks = {0: Pick(5), 1: Pick(2)}
    for seat, pick in picks.items():
        room.peers[seat].act(pick)
        room.pump()
    # two of three have committed: nobody has learned a thing about either choice
    for peer in room.peers:
        assert peer.step.kind == st.CHOICE_COMMIT and peer.waiting_for == (2,)
        assert peer.view().opened == () and peer.state.opened == ()
    for data in sent:
        for pick in picks.values():
            assert pack(to_data(pick)) not in data
    commitments = [decode(d) for d in sent if decode(d).kind == st.CHOICE_COMMIT]
    assert len(commitments) == 2 and all(set(e.body) == {"c"} for e in commitments)
    # each chooser's journal keeps its own choice (its file its user's alone), never sent
    for seat, pick in picks.items():
        path = journal.journal_path(room.table, room.table.players[seat], tmp_path)
        assert journal.read_sealed(path) == {room.peers[seat].seq: to_data(pick)}
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert all(not e.startswith(journal.SEALED) for e in journal.read(path)[1])
    # the last seat commits: every choice opens at once, on every peer alike
    room.peers[2].act(Pick(4))
    room.pump()
    for peer in room.peers:
        assert peer.state.opened == ((0, 5), (1, 2), (2, 4))
        assert peer.state.scores[0] >= 5  # the highest unique pick, and maybe the luck
    assert steps_of(room.peers[0])[-4:] == [
        st.CHOICE_COMMIT,
        st.CHOICE_OPEN,
        st.RAND_COMMIT,
        st.RAND_OPEN,
    ]


def test_a_seat_that_already_chose_cannot_choose_again() -> None:
    room = MentalMatch(NAME, 2, 5)
    room.peers[0].act(Pick(3))
    room.pump()
    with pytest.raises(Exception, match="turn"):
        room.peers[0].act(Pick(1))
    with pytest.raises(Exception, match="legal"):
        room.peers[1].act(Pick(9))


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (4, 14)])
def test_the_order_of_arrival_never_changes_the_outcome(players: int, seed: int) -> None:
    tales = []
    for variant in range(4):
        # each peer hears each batch in another order, and some envelopes twice
        room = MentalMatch(NAME, players, seed, duplicates=0.3 * (variant % 2))
        room.rng = random.Random(variant)
        order = list(range(players))
        random.Random(100 + variant).shuffle(order)  # and the seats choose in another
        play(room, seeded_bots(players, seed), order)
        tale = story(room)
        assert tale[-1] == "fair"
        tales.append(tale)
    assert all(t == tales[0] for t in tales)
    assert len(tales[0][2]) == ROUNDS  # one fair draw a round


# -- a crash between committing and opening ------------------------------------------------


def baseline(players: int, seed: int, tmp: Path) -> tuple[Any, ...]:
    room = MentalMatch(NAME, players, seed, journal_dir=tmp)
    play(room, seeded_bots(players, seed))
    return story(room)


def restart(room: MentalMatch, seat: int) -> Peer:
    """Seat ``seat`` comes back from its journal as a session brings it back: it first
    sends again what it had said in the open step, then catches up from another peer."""
    assert room.journal_dir is not None
    ident = room.identities[seat]
    path = journal.journal_path(room.table, ident.player_id, room.journal_dir)
    peer = Peer.resume(path, ident, on_envelope=room.wire.append)
    room.peers[seat] = peer
    room.wire.extend(peer.own_pending())
    room.pump()
    helper = next(p for p in room.peers if p is not peer)
    for data in helper.envelopes_since(peer.seq):
        peer.receive(data)
    room.pump()
    return peer


def to_round(room: MentalMatch, bots: dict[int, Any], rounds: int) -> None:
    room.pump()
    while room.peers[0].state.round < rounds:
        assert decide(room, bots)


@pytest.mark.parametrize("sent", [True, False], ids=["commitment-out", "commitment-lost"])
def test_a_peer_restarted_between_commit_and_open_opens_the_same_choice(
    tmp_path: Path, sent: bool
) -> None:
    players, seed, victim = 3, 21, 1
    expected = baseline(players, seed, tmp_path / "calm")
    room = MentalMatch(NAME, players, seed, journal_dir=tmp_path / "crash")
    bots = seeded_bots(players, seed)
    to_round(room, bots, 1)
    peer = room.peers[victim]
    chosen = bots[victim](peer.view(), random.Random())
    peer.act(chosen)
    if not sent:
        room.wire.clear()  # it died before its commitment left the machine
    room.pump()
    room.crash(victim)
    # the others choose and open; the room then waits for the crashed seat
    for other in (s for s in range(players) if s != victim):
        room.peers[other].act(bots[other](room.peers[other].view(), random.Random()))
        room.pump()
    assert victim in room.peers[0].waiting_for
    back = restart(room, victim)
    # it was never asked again: it opened the choice it had sealed, and the game goes on
    assert (victim, chosen.n) in room.peers[0].state.opened
    assert back.state.opened == room.peers[0].state.opened
    play(room, bots)
    assert story(room) == expected  # the game ends as it would have without the crash
    assert expected[-1] == "fair"


def test_a_peer_restarted_between_its_random_commitment_and_opening_opens_the_same(
    tmp_path: Path,
) -> None:
    players, seed, victim = 3, 22, 2
    expected = baseline(players, seed, tmp_path / "calm")
    room = MentalMatch(NAME, players, seed, journal_dir=tmp_path / "crash")
    bots = seeded_bots(players, seed)
    room.pump()
    for seat in range(players):  # every seat picks; the last one's envelope stays on the wire
        room.peers[seat].act(bots[seat](room.peers[seat].view(), random.Random()))
        if seat < players - 1:
            room.pump()
    deliver_until(room, lambda: room.peers[victim].step.kind == st.RAND_OPEN)
    assert room.peers[victim].step.kind == st.RAND_OPEN
    mine = room.table.players[victim]
    # its opening is lost with it (what it said before has left)
    room.wire[:] = [
        d for d in room.wire if (decode(d).sender, decode(d).kind) != (mine, st.RAND_OPEN)
    ]
    room.crash(victim)
    room.pump()
    assert room.peers[0].step.kind == st.RAND_OPEN and room.peers[0].waiting_for == (victim,)
    restart(room, victim)
    play(room, bots)
    assert story(room) == expected


def test_sealed_records_are_private_and_skipped_by_every_reader(tmp_path: Path) -> None:
    ann, bob = (Identity.generate(n, seeded_random_bytes(n.encode())) for n in ("Ann", "Bob"))
    table = Table.of("SEALED1", NAME, [(ann.player_id, "Ann"), (bob.player_id, "Bob")])
    path = tmp_path / "a.journal"
    kept = journal.Journal(path, table)
    kept.append(b"\x81\xa1v\x01")
    kept.seal(7, to_data(Pick(3)))
    kept.seal(7, to_data(Pick(4)))  # a second record for a step never replaces the first
    kept.close()
    assert journal.read_sealed(path) == {7: to_data(Pick(3))}
    assert journal.read(path)[1] == [b"\x81\xa1v\x01"]
    with path.open("ab") as f:
        f.write(b"\x00\x00\x00\x03\xc1\x93\x01")  # a torn or foreign record is skipped
    assert journal.read_sealed(path) == {7: to_data(Pick(3))}


# -- a seat that opens something else --------------------------------------------------------


class LyingChooser(Peer):
    """Opens, in round 2, another number than the one it committed to."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.CHOICE_OPEN and self.state.round == 1:
            body["a"] = to_data(Pick(1 + body["a"][1] % 5))
        return body


class LyingRandom(Peer):
    """Opens another random contribution than the one it committed to."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.RAND_OPEN:
            body["x"] = bytes(32)
        return body


class IllegalChooser(Peer):
    """Commits to a number no seat may pick, and opens it."""

    def act(self, action: Action) -> None:
        if self.step.kind == st.CHOICE_COMMIT:
            self._sealed[self.step.seq] = Pick(9)  # what act() would refuse to seal
            self._send(st.CHOICE_COMMIT, self._commitment_body(self.step.seq, Pick(9)))
            self._drain()
        else:
            super().act(action)


@pytest.mark.parametrize(
    ("cheat", "reason"),
    [(LyingChooser, "false-opening"), (LyingRandom, "false-opening")],
)
def test_a_seat_that_opens_something_else_is_named_at_once(cheat: type[Peer], reason: str) -> None:
    liar = 1
    room = MentalMatch(NAME, 3, 31, peer_types={liar: cheat})
    play(room, seeded_bots(3, 31))
    outcome, *_ = story(room)
    for peer in room.peers:
        # the step that holds the false opening is the last before the audit
        assert steps_of(peer)[-2:] in (
            [st.CHOICE_OPEN, st.AUDIT],
            [st.RAND_OPEN, st.AUDIT],
        )
        assert peer.forfeit == (liar, reason)
        assert peer.verdict is not None and not peer.verdict.fair
        assert peer.verdict.seat == liar
        assert any(i.kind == CommitMismatch.__name__ and i.peer == liar for i in peer.incidents)
    assert outcome.reason == "forfeit" and liar not in outcome.winners


def test_a_seat_that_commits_to_an_illegal_choice_is_named_when_it_opens() -> None:
    cheat = 0
    room = MentalMatch(NAME, 2, 32, peer_types={cheat: IllegalChooser})
    play(room, seeded_bots(2, 32))
    outcome, *_ = story(room)
    assert all(p.forfeit == (cheat, "illegal-choice") for p in room.peers)
    assert all(p.verdict.seat == cheat for p in room.peers)
    assert outcome.winners == (1,)


class GarbledOpening(Peer):
    """Opens with a body of the wrong shape: nothing is proven, nothing changes."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.CHOICE_OPEN:
            body["nonce"] = b"short"
        return body


def test_a_garbled_opening_proves_nothing_and_the_room_waits() -> None:
    room = MentalMatch(NAME, 2, 33, peer_types={1: GarbledOpening})
    with pytest.raises(AssertionError, match="stuck"):
        play(room, seeded_bots(2, 33))
    honest = room.peers[0]
    assert honest.step.kind == st.CHOICE_OPEN and honest.waiting_for == (1,)
    assert honest.forfeit is None and any(i.peer == 1 for i in honest.incidents)


# -- a seat that never opens -------------------------------------------------------------------


class NeverOpens(Peer):
    """Commits, then never opens (online all along: it just says nothing)."""

    def _enter(self) -> None:
        if self.step.kind != st.CHOICE_OPEN:
            super()._enter()


def sessions_of(
    players: int, tmp: Path, on_timeout: str, silent: int | None = None
) -> list[GameSession]:
    identities = [
        Identity.generate(f"P{i}", seeded_random_bytes(f"sealed{i}".encode()))
        for i in range(players)
    ]
    table = Table.of(
        "SEALED2",
        NAME,
        [(i.player_id, i.name) for i in identities],
        timeout=30,
        on_timeout=on_timeout,
    )
    sessions = [
        GameSession(table, [i], journal_dir=tmp / f"p{n}") for n, i in enumerate(identities)
    ]
    if silent is not None:
        sessions[silent].peers[0].__class__ = NeverOpens
    return sessions


def relay(sessions: list[GameSession], now: float, cut: frozenset[int] = frozenset()) -> None:
    while True:
        batch = []
        for n, s in enumerate(sessions):
            if n not in cut:
                batch.extend(s.outbox)
            s.outbox.clear()
        if not batch:
            return
        for n, s in enumerate(sessions):
            if n not in cut:
                for data in batch:
                    s.receive(data, now)


def commit_all(sessions: list[GameSession], now: float, bots: dict[int, Any]) -> None:
    relay(sessions, now)
    for session in sessions:
        for peer, view in session.due():
            assert peer.step.kind == st.CHOICE_COMMIT
            session.act(peer.seat, bots[peer.seat](view, random.Random()))
    relay(sessions, now)


def test_a_seat_gone_after_committing_is_named_by_the_timeout(tmp_path: Path) -> None:
    gone = 2
    sessions = sessions_of(3, tmp_path, "end")
    bots = seeded_bots(3, 41)
    commit_all(sessions, 0.0, bots)  # round 1
    assert sessions[0].peers[0].state.round == 1
    relay(sessions, 0.0)
    # round 2: everyone commits; the gone seat's process then dies, unopened
    for session in sessions:
        for peer, view in session.due():
            session.act(peer.seat, bots[peer.seat](view, random.Random()))
    cut = frozenset({gone})
    alive = [n for n in range(3) if n != gone]
    offline = frozenset({gone})
    for n in alive:
        assert sessions[n].peers[0].step.kind == st.CHOICE_COMMIT
    # its commitment reaches the others, then it dies before it hears theirs
    said, sessions[gone].outbox[:] = list(sessions[gone].outbox), []
    for n in alive:
        sessions[n].outbox.extend(said)
    relay(sessions, 1.0, cut)
    for n in alive:  # every commitment is in; the others opened, it never will
        assert sessions[n].peers[0].step.kind == st.CHOICE_OPEN
        assert sessions[n].waiting_for == (gone,)
        sessions[n].tick(20.0, offline)
    relay(sessions, 20.0, cut)
    assert all(sessions[n].abandoned is None for n in alive)  # not before the timeout
    for n in alive:
        sessions[n].tick(40.0, offline)
    relay(sessions, 40.0, cut)
    for n in alive:
        abandoned = sessions[n].abandoned
        assert sessions[n].finished and abandoned is not None
        assert abandoned.seat == gone and abandoned.voters == frozenset(alive)


def test_a_seat_that_commits_and_never_opens_is_named_by_the_timeout(tmp_path: Path) -> None:
    silent = 1
    sessions = sessions_of(3, tmp_path, "ask", silent=silent)
    commit_all(sessions, 0.0, seeded_bots(3, 42))
    others = [n for n in range(3) if n != silent]
    for session in sessions:
        peer = session.peers[0]
        assert peer.step.kind == st.CHOICE_OPEN and session.waiting_for == (silent,)
    # the step does not move: past the timeout the people at the other seats vote it out
    for n in others:
        sessions[n].tick(10.0)
        assert sessions[n].overdue(10.0) == ()
    relay(sessions, 10.0)
    for n in others:
        assert sessions[n].overdue(40.0) == (silent,)
        assert sessions[n].vote(silent, 40.0)
    relay(sessions, 40.0)
    for session in sessions:  # the silent seat's own peer holds the same ending
        abandoned = session.abandoned
        assert session.finished and abandoned is not None
        assert abandoned.seat == silent and abandoned.voters == frozenset(others)
    # a late opening changes nothing now
    late = sessions[silent].peers[0]
    Peer._enter(late)
    relay(sessions, 41.0)
    assert all(s.abandoned is not None and s.abandoned.seat == silent for s in sessions)


def test_a_peer_resumed_after_a_false_opening_holds_the_same_ending(tmp_path: Path) -> None:
    liar = 0
    room = MentalMatch(NAME, 2, 34, peer_types={liar: LyingChooser}, journal_dir=tmp_path)
    play(room, seeded_bots(2, 34))
    honest = room.peers[1]
    path = journal.journal_path(room.table, room.table.players[1], tmp_path)
    again = Peer.resume(path, room.identities[1])
    assert again.finished and again.forfeit == honest.forfeit == (liar, "false-opening")
    assert str(again.verdict) == str(honest.verdict) and again.prev == honest.prev

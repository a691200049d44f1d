"""A game in a networked room: this process's seats, the log topic, resync, absence.

The session is the bridge between the room's log topic and the peers this process runs
(one player, and the bots a host runs for the room). It has no clock and no network of
its own: the caller hands it every message from the log topic and the time now, and sends
what it puts in :attr:`outbox`. That keeps it testable without a network. (Its only I/O
is its journals; a game resumed from them reads, once, how long ago they last moved, so
that the open step's clock goes on rather than starting over.)

Besides the steps of the game the log topic carries two signed control messages:

* ``sync`` — "I am at step n": every peer that has more sends what it has from step n on
  (each envelope is signed by its author, so anyone may pass it on). A peer asks after
  connecting, after resuming from its journal, and whenever the room has not moved for a
  while although it holds envelopes for later steps (it missed some). It asks too, for
  step n-1 alone ("until": n-1), when a seat's envelope for step n > 0 does not follow
  its log: that seat may follow another version of step n-1 (or of an earlier one) that
  someone signed twice, and the answers then hold that version, which ends the game
  naming its signer (or, if the versions part earlier, off-log envelopes of step n-1: the
  next ask goes a step further back). It asks so at most once per :data:`NUDGE`, however
  many such envelopes come, and the answers hold one step, not the log. An answer goes
  to each seated player at most once per :data:`NUDGE` and is at most
  :data:`MAX_ANSWER_BYTES` long (the asker asks again for the rest), so asking cannot
  turn a few bytes into many.
* ``abandon`` — "seat s keeps step n waiting past the room's timeout" (and, optionally,
  "seats ``away`` are gone too"). The game ends abandoned by seat s when every present
  seat has voted so about the same step (its number and its ``prev``): every other seat,
  but those that every voter signed as gone. That set of signed votes is the last step of
  the log, the same on every peer, the absent seat's own included (see "absence" below).
  This peer's seats vote only once its own clock has run past the timeout, and then as the
  room's rule (:attr:`Table.on_timeout`) says: under ``ask`` when the person here chooses
  to, under ``end`` by themselves for a seat that is offline; a bot seconds the people. A
  vote about a step its voter played past, from another log, or about itself, never counts.

Nothing a stranger sends, and nothing that fails to decode, is kept: it is only counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.core import Action
from cakeparty.protocol.codec import Envelope, decode, seal
from cakeparty.protocol.errors import Incidents, ProtocolError
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import Journal, journal_path
from cakeparty.protocol.journal import read as journal_read
from cakeparty.protocol.lobby import ABANDON, NO_PREV, SYNC, clock_count
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.steps import ACTION, CHOICE_COMMIT, KINDS, step_digest
from cakeparty.protocol.table import END, Table
from cakeparty.protocol.votes import Vote, agreed, take_vote

DECISIONS = (ACTION, CHOICE_COMMIT)  # the steps where a seat decides something
NUDGE = 2.0  # seconds without progress before asking again; and between sync answers
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # one sync answer (at least one envelope)


@dataclass
class Abandonment:
    """The game ended because ``seat`` kept the room waiting at step ``seq``: every present
    seat, the ``voters``, signed so; the seats ``away`` were gone too (every voter signed
    so). Every peer that holds the votes shows this ending."""

    seat: int
    seq: int
    voters: frozenset[int] = field(default_factory=frozenset)
    away: frozenset[int] = field(default_factory=frozenset)


class GameSession:
    """This process's seats in one networked game."""

    def __init__(
        self,
        table: Table,
        identities: list[Identity],
        *,
        journal_dir: Path | None = None,
        now: float = 0.0,
        headless: bool = False,
        wall: float | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        """``headless``: no person plays here (bots only), so nobody is asked: its seats
        vote against an offline seat past the timeout, and second the others' votes.
        ``wall``: the wall-clock time now (default: the system's), read only when the game
        resumes from a journal: its clock goes on from when the journal last moved.
        ``clock``: what stamps our catch-up requests (:func:`lobby.clock_count`; default
        the system's clock)."""
        self.table = table
        self.outbox: list[bytes] = []
        self.peers: list[Peer] = []
        self.incidents = Incidents()
        self.ignored = 0  # undecodable, stranger's or another room's messages: counted only
        self.headless = headless
        resumed: list[Path] = []
        for identity in identities:
            path = journal_path(table, identity.player_id, journal_dir)
            if path.exists() and path.stat().st_size > 0:
                resumed.append(path)
                peer = Peer.resume(path, identity, on_envelope=self.outbox.append)
                self.outbox.extend(peer.own_pending())
            else:
                peer = Peer(
                    table, identity, on_envelope=self.outbox.append, journal=Journal(path, table)
                )
            self.peers.append(peer)
        self.signer = identities[0].signing_key
        self.abandoned: Abandonment | None = None
        self._votes: dict[int, Vote] = {}  # each voter's latest vote
        self._offline_since: dict[int, float] = {}  # other seats said offline, since when
        # (step, absent seat) our seats voted about -> the absent seat's late envelope
        self._barred: dict[tuple[int, int], bytes | None] = {}
        self._kept: set[bytes] = set()  # votes written into our journals
        self._replaying = False
        self._seq = self.seq
        self._moved_at = now
        # the open step's clock, and the one that asks about the others: "wait longer"
        # restarts the second alone
        self._step_from = self._clock_from = now
        if resumed:
            # the open step has waited since our journals last moved, before the restart
            # too: a seat that comes back does not give the room a fresh timeout
            last = max(path.stat().st_mtime for path in resumed)
            waited = (time.time() if wall is None else wall) - last
            self._step_from = self._clock_from = now - max(0.0, waited)
        self._asked_at = -1e9
        self._answered: dict[bytes, float] = {}  # per seated player: when it was last answered
        #: per seated player, the stamp of its latest request for catch-up heard; and the
        #: stamp of ours (see :meth:`sync`)
        self._asked_stamps: dict[bytes, int] = {}
        self._stamp = 0
        self._clock = clock
        self.messages = 0
        self.bytes = 0
        self._replay_votes(resumed)
        self._settle(now)
        self.sync(now)

    # -- reading ------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return min(p.seq for p in self.peers)

    @property
    def finished(self) -> bool:
        return self.abandoned is not None or all(p.finished for p in self.peers)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        peer = self.peers[0]
        return () if self.finished else peer.waiting_for

    def footprint(self) -> dict[str, int]:
        """What this session keeps because of what others sent: counts and bytes, every
        one bounded whatever they send (the soak bench and its test watch them)."""
        held = [e for p in self.peers for v in p.future.values() for e in v]
        return {
            "incidents": len(self.incidents) + sum(len(p.incidents) for p in self.peers),
            "ignored": self.ignored + sum(p.ignored for p in self.peers),
            "held_envelopes": len(held),
            "held_bytes": sum(len(e.to_bytes()) for e in held),
            "votes": len(self._votes),
            "answered": len(self._answered),
            "outbox": len(self.outbox),
            "log_steps": len(self.peers[0].log),
        }

    def peer(self, seat: int) -> Peer | None:
        return next((p for p in self.peers if p.seat == seat), None)

    # -- the log topic ------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> None:
        """A message from the log topic. Never raises."""
        self.messages += 1
        self.bytes += len(data)
        try:
            envelope = decode(data)
        except ProtocolError:
            self.ignored += 1  # proves nothing about anyone: a bad signature names nobody
            return
        seat = self.table.seat_of(envelope.sender)
        if envelope.room != self.table.room or seat is None:
            self.ignored += 1  # not a player of this room: nothing it says counts
            return
        try:
            if envelope.kind == SYNC:
                self._answer(envelope, now)
                return
            if envelope.kind == ABANDON:
                self._vote(envelope, seat, data)
            elif (envelope.seq, seat) in self._barred and envelope.kind in KINDS:
                # we voted this seat absent at this step: its late envelope waits (kept
                # only until the vote is taken back, one per step)
                if self._barred[envelope.seq, seat] is None:
                    self._barred[envelope.seq, seat] = data
            elif self.abandoned is None:
                for peer in self.peers:
                    peer.accept(envelope)  # decoded and its signature checked once, above
            self._note_moved(now)
            self._settle(now)
            self._ask_strayed(now)
        except Exception as exc:  # never: but a room must outlive a bug (nobody's fault)
            self.incidents.append(
                ProtocolError(f"could not be handled: {exc!r}", peer=None, seq=envelope.seq)
            )

    def _answer(self, envelope: Envelope, now: float) -> None:
        asked = envelope.seq
        if any(p.identity.player_id == envelope.sender for p in self.peers):
            return  # our own request, heard back
        body = envelope.body if isinstance(envelope.body, dict) else {}
        stamp = body.get("at")
        if type(stamp) is int:
            # anyone may send a seat's old request again, and each would be answered with
            # the log from its step on, by every peer: only a newer one than the seat's
            # last is (an older app's requests carry no stamp, and are answered as before)
            if stamp <= self._asked_stamps.get(envelope.sender, -1):
                return
            self._asked_stamps[envelope.sender] = stamp
        if now - self._answered.get(envelope.sender, -1e9) < NUDGE or asked > self.peers[0].seq:
            return
        self._answered[envelope.sender] = now
        # "until": a question about one step (see _ask_strayed), answered with that step
        until = body.get("until")
        if not (type(until) is int and until >= asked):
            until = None
        size = 0
        for data in self.peers[0].envelopes_since(asked, until):
            if size and size + len(data) > MAX_ANSWER_BYTES:
                break  # the asker, further on, asks again for the rest
            size += len(data)
            self.outbox.append(data)
        # the standing votes too (each signed by its voter): a peer that was away learns
        # why the game ended, or that it is being voted out
        self.outbox.extend(self.standing_votes())

    def standing_votes(self) -> list[bytes]:
        """The signed votes held about steps this peer reached (what a peer that was
        away, or a spectator, needs to learn why the game ended)."""
        return [d for v in self._votes.values() if v.seq <= self.peers[0].seq for d in v.data]

    def sync(self, now: float, step: int | None = None) -> None:
        """Ask the room for everything from our step on (or for step ``step`` alone). The
        request is stamped (the clock's milliseconds, growing from one request to the next)
        so that the room answers it, not an old one sent again (see :meth:`_answer`)."""
        self._asked_at = now
        seq = self.seq if step is None else min(step, self.seq)
        self._stamp = clock_count(self._stamp, per_second=1000, clock=self._clock)
        body: dict[str, int] = {"at": self._stamp}
        if step is not None:
            body["until"] = seq
        self.outbox.append(
            seal(
                self.signer, room=self.table.room, seq=seq, prev=NO_PREV, kind=SYNC, body=body
            ).to_bytes()
        )

    def _ask_strayed(self, now: float) -> None:
        """A seat's envelope came off our log at step n: ask the room for step n-1, where
        another version of a step would show (see the module's docstring); at most once
        per :data:`NUDGE`, the rest waits. The answers hold that one step: a seat that
        sends envelopes off the log on purpose makes the others ask, and answer, no more
        than a step's envelopes each time."""
        strayed = [p.strayed for p in self.peers if p.strayed is not None]
        if not strayed or self.finished or now - self._asked_at < NUDGE:
            return
        for peer in self.peers:
            peer.strayed = None
        if min(strayed) > 0:  # a first step off our log follows another table: no ask
            self.sync(now, min(strayed) - 1)

    # -- absence ------------------------------------------------------------------------
    # The ending of an abandoned game is a step of the log like any other: the votes of
    # every other seat on the same open step (its number and its ``prev``), each signed.
    # A seat that votes at step n refuses, from then on, the absent seat's envelope for
    # step n: a late move and the abandonment can never both be accepted by a voter, and
    # the step cannot complete without that envelope, so nobody plays past it. Hence a
    # complete set of votes is final for everyone — the absent seat's own peer too, even
    # if it made its move: every other seat refused it. A voter takes its vote back only
    # when another seat, whose vote the ending needs, shows it went past step n (it
    # accepted the late move and will never vote there): then the ending cannot be.
    #
    # A seat that is gone cannot vote, so when two seats are gone the ending needs the
    # votes of the present seats only: a vote may sign other seats as gone too (``away``:
    # offline past the timeout on the voter's own clock), and the ending needs every seat
    # but the absent one and those that *every* voter signed as gone. The argument above
    # holds unchanged: every voter refuses the absent seat's envelope for step n, so no
    # voter goes past it; a gone seat that did take the late move and went on shows the
    # ending all the same once it learns the votes (the voters signed nothing after step
    # n), as the absent seat's own peer does. A voter may sign more seats gone as they go
    # (a vote adds to its earlier ones about the same step, never takes back), so the
    # votes held only ever move towards the ending, whatever order they arrive in.

    def _note_moved(self, now: float) -> None:
        """The room went on to a new step: its clocks start again."""
        if self.seq != self._seq:
            self._seq = self.seq
            self._moved_at = self._step_from = self._clock_from = now

    @property
    def stalled(self) -> OSError | None:
        """Why this process's journal would not take the last step (a full disk), while
        the game waits for it; ``None``: written."""
        return next((p.stalled for p in self.peers if p.stalled is not None), None)

    def clock(self, now: float) -> float:
        """Seconds left before the others keeping the open step waiting are overdue, on
        this peer's clock (negative once they are; "wait longer" restarts it)."""
        return self.table.timeout - (now - self._clock_from)

    def own_clock(self, now: float) -> float:
        """Seconds left before this process's seats keep the open step waiting past the
        timeout (negative once they do): the step's own clock, which a "wait longer"
        given to another seat of a step everyone plays at once does not restart."""
        return self.table.timeout - (now - self._step_from)

    def overdue(self, now: float) -> tuple[int, ...]:
        """The other seats keeping the open step waiting past the timeout."""
        if self.finished or self.clock(now) > 0:
            return ()
        return tuple(s for s in self.peers[0].waiting_for if self.peer(s) is None)

    def late(self, now: float) -> bool:
        """One of this process's seats keeps the room waiting past the timeout."""
        if self.finished or self.own_clock(now) > 0:
            return False
        return any(p.seat in self.peers[0].waiting_for for p in self.peers)

    def voted(self, absent: int) -> bool:
        """This process's seats voted to end the open step as abandoned by ``absent``."""
        return (self.peers[0].seq, absent) in self._barred

    def votes_against(self, absent: int) -> frozenset[int]:
        """The seats whose standing vote ends the open step as abandoned by ``absent``."""
        return frozenset(v for v, vote in self._votes.items() if self._current(vote, absent))

    def gone(self, now: float) -> frozenset[int]:
        """The other seats offline past the timeout (on this peer's own clock), that have
        not voted about the open step: a vote of ours may sign them as gone."""
        present = {v for v, vote in self._votes.items() if vote.seq == self.peers[0].seq}
        return frozenset(
            s
            for s, since in self._offline_since.items()
            if now - since >= self.table.timeout and s not in present and self.peer(s) is None
        )

    def wait_longer(self, now: float) -> None:
        """Give the room another full timeout before it is asked again."""
        self._clock_from = now

    def vote(self, absent: int, now: float) -> bool:
        """This process's seats vote to end the game as abandoned by ``absent``, which
        keeps the open step waiting past this peer's own clock; ``False`` if it may not."""
        peer = self.peers[0]
        key = (peer.seq, absent)
        if absent not in self.overdue(now) or key in self._barred:
            return False
        self._barred[key] = None
        self._cast(absent, self.gone(now) - {absent}, now)
        return True

    def _cast(self, absent: int, away: frozenset[int], now: float) -> None:
        """Sign this process's seats' votes about the open step, and take them here too."""
        for own in self.peers:
            body: dict[str, Any] = {"seat": absent, "step": own.prev}
            if away:
                body["away"] = sorted(away)
            data = seal(
                own.identity.signing_key,
                room=self.table.room,
                seq=own.seq,
                prev=NO_PREV,
                kind=ABANDON,
                body=body,
            ).to_bytes()
            self.outbox.append(data)
            self.receive(data, now)

    def _sign_gone(self, now: float) -> None:
        """Our votes about the open step sign, too, the seats gone since we cast them."""
        peer = self.peers[0]
        mine = self._votes.get(peer.seat)
        for seq, absent in list(self._barred):
            if seq != peer.seq or mine is None or not self._current(mine, absent):
                continue
            more = self.gone(now) - {absent}
            if not more <= mine.away:
                self._cast(absent, more | mine.away, now)

    def tick(self, now: float, offline: frozenset[int] = frozenset()) -> None:
        """Time passes: ask again when stuck; vote where the room's rule says so.
        ``offline``: the seats whose player is said to be offline now."""
        if self.finished:
            return
        for peer in self.peers:
            peer.unstall()  # a step the disk refused: written once it has room
        self._note_moved(now)
        for seat in list(self._offline_since):
            if seat not in offline:
                del self._offline_since[seat]
        for seat in offline:
            self._offline_since.setdefault(seat, now)
        self._ask_strayed(now)
        idle = now - self._moved_at
        if idle >= NUDGE and now - self._asked_at >= NUDGE:
            for peer in self.peers:
                self.outbox.extend(peer.own_pending())
            self.sync(now)
        for absent in self.overdue(now):
            if absent in offline and (self.table.on_timeout == END or self.headless):
                self.vote(absent, now)  # an offline seat, past the timeout
            elif self.headless and self.votes_against(absent):
                self.vote(absent, now)  # a bot seconds the people who voted
        self._sign_gone(now)
        self._settle(now)

    def _vote(self, envelope: Envelope, voter: int, data: bytes) -> None:
        vote = take_vote(self._votes.get(voter), envelope, voter, self.table.seats, data)
        if vote is None:
            return
        self._votes[voter] = vote
        ended = self.abandoned
        if (
            ended is not None
            and (ended.seq, ended.seat) == (vote.seq, vote.seat)
            and vote.prev == self._prev_of(vote.seq)
        ):
            # a gone seat's vote, come after all: the same ending, one more voter
            self.abandoned = Abandonment(
                ended.seat, ended.seq, ended.voters | {voter}, ended.away - {voter}
            )
        if self.peer(voter) is not None and envelope.seq == self.peers[0].seq:
            self._barred.setdefault((envelope.seq, vote.seat), None)  # our own, replayed
        if envelope.seq <= self.peers[0].seq:
            self._keep(vote)

    def _keep(self, vote: Vote) -> None:
        """Write a vote about a step of the log into this process's journals (once)."""
        if self._replaying:
            return
        for data in vote.data:
            if data in self._kept:
                continue
            self._kept.add(data)
            for own in self.peers:
                if own.journal is not None:
                    own.journal.append(data)

    def _current(self, vote: Vote, absent: int) -> bool:
        peer = self.peers[0]
        return vote.seat == absent and vote.seq == peer.seq and vote.prev == peer.prev

    def _settle(self, now: float) -> None:
        """Take back votes that cannot end the game; end it if the votes held say so."""
        if self.finished:
            return
        peer = self.peers[0]
        for key in list(self._barred):
            seq, absent = key
            if seq < peer.seq or self._went_past(seq, absent):
                late = self._barred.pop(key)
                if late is not None and seq == peer.seq:
                    self.receive(late, now)  # which settles again, from there
                    return
        for ending in agreed(self._votes, self.table.seats):
            if self._stands(ending.seq, ending.prev, ending.seat, set(ending.voters)):
                self.abandoned = Abandonment(ending.seat, ending.seq, ending.voters, ending.away)
                for voter in ending.voters:
                    self._keep(self._votes[voter])
                return

    def _went_past(self, seq: int, absent: int) -> bool:
        """Another seat whose vote the ending at ``seq`` needs signed something later: it
        took the absent seat's envelope for that step and will not vote there."""
        peer = self.peers[0]
        # a seat's vote is needed unless every voter so far signed it gone
        aways = [v.away for v in self._votes.values() if (v.seq, v.seat) == (seq, absent)]
        gone = frozenset.intersection(*aways) if aways else frozenset()
        needed = {self.table.players[s] for s in range(self.table.seats) if s not in gone}
        needed -= {self.table.players[absent]} | {p.identity.player_id for p in self.peers}
        later = {e.sender for n, held in peer.future.items() if n > seq for e in held}
        if later & needed:
            for voter, vote in self._votes.items():
                if self.table.players[voter] in later and (vote.seq, vote.seat) == (seq, absent):
                    # it signed the absent seat out of step n, and a step after n that
                    # holds that seat's move: two stories, one signature each
                    self.incidents.append(
                        ProtocolError(
                            f"voted seat {absent} absent at step {seq}, then played past it",
                            peer=voter,
                            seq=seq,
                        )
                    )
            return True
        return any(v.seq > seq and self.table.players[s] in needed for s, v in self._votes.items())

    def _stands(self, seq: int, prev: bytes, absent: int, voters: set[int]) -> bool:
        """Votes about step ``seq`` of this peer's log, which ``absent`` owed, by voters
        who signed nothing after it: they stopped there, refusing the absent seat's move
        (a vote from an earlier step the voter itself played past is a replay)."""
        peer = self.peers[0]
        if seq > peer.seq or prev != self._prev_of(seq):
            return False
        if seq == peer.seq:
            return absent in peer.step.seats
        if all(e.sender != self.table.players[absent] for e in peer.log[seq]):
            return False
        later = [e for step in peer.log[seq + 1 :] for e in step]
        later += [e for e, _ in peer.got.values()]
        senders = {self.table.players[v] for v in voters}
        return not any(e.sender in senders for e in later)

    def _replay_votes(self, paths: list[Path]) -> None:
        """The votes kept in this process's journals, counted again after a restart."""
        self._replaying = True
        try:
            for path in paths:
                for data in journal_read(path)[1]:
                    try:
                        envelope = decode(data)
                    except ProtocolError:
                        continue
                    seat = self.table.seat_of(envelope.sender)
                    if envelope.kind == ABANDON and seat is not None:
                        self._kept.add(data)
                        self._vote(envelope, seat, data)
        finally:
            self._replaying = False

    def _prev_of(self, seq: int) -> bytes:
        """The ``prev`` of step ``seq`` in this peer's log."""
        peer = self.peers[0]
        if seq == peer.seq:
            return peer.prev
        if seq == 0:
            return self.table.digest()
        return step_digest(peer.log[seq - 1])

    # -- deciding -----------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> None:
        """A move by one of this process's seats (raises if it is not legal now)."""
        peer = self.peer(seat)
        if peer is None:
            raise ValueError(f"seat {seat} is not played here")
        peer.act(action)

    def due(self) -> list[tuple[Peer, Any]]:
        """This process's seats whose move or sealed choice the room waits for, with their
        views (an opening is never due: a peer opens what it sealed by itself)."""
        return [
            (p, p.view())
            for p in self.peers
            if not self.finished and p.seat in p.waiting_for and p.step.kind in DECISIONS
        ]

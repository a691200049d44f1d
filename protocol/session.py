"""A game in a networked room: this process's seats, the log topic, resync, absence.

The session is the bridge between the room's log topic and the peers this process runs
(one player, and the bots a host runs for the room). It has no clock and no I/O of its
own: the caller hands it every message from the log topic and the time now, and sends
what it puts in :attr:`outbox`. That keeps it testable without a network.

Besides the steps of the game the log topic carries two signed control messages:

* ``sync`` — "I am at step n": every peer that has more sends what it has from step n on
  (each envelope is signed by its author, so anyone may pass it on). A peer asks after
  connecting, after resuming from its journal, and whenever the room has not moved for a
  while although it holds envelopes for later steps (it missed some). An answer goes to
  each seated player at most once per :data:`NUDGE` and is at most :data:`MAX_ANSWER_BYTES`
  long (the asker asks again for the rest), so asking cannot turn a few bytes into many.
* ``abandon`` — "seat s keeps step n waiting past the room's timeout". A vote counts only
  about the step this peer is at, while seat s still owes it: a vote about a step
  answered in the log is refused. The game ends abandoned by seat s when every other seat
  has voted so, this peer's own seats among them — and they vote only once this peer's
  own clock has run past the timeout, so nobody else's word ends it sooner. A vote
  against one of this peer's own seats is a lie or a crossed message (the seat is here):
  once every other seat has voted so, the game ends *disputed*, blaming nobody.

Nothing a stranger sends, and nothing that fails to decode, is kept: it is only counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.core import Action
from cakeparty.protocol.codec import Envelope, decode, expect_bytes, expect_int, seal
from cakeparty.protocol.errors import Incidents, ProtocolError
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import Journal, journal_path
from cakeparty.protocol.lobby import ABANDON, NO_PREV, SYNC
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.steps import step_digest
from cakeparty.protocol.table import Table

NUDGE = 2.0  # seconds without progress before asking again; and between sync answers
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # one sync answer (at least one envelope)


@dataclass
class Abandonment:
    """The game ended because ``seat`` kept the room waiting at step ``seq`` — or, when
    ``disputed``, because the ``voters`` said so of ``seat``, one of this peer's own
    seats, which is here: who is right cannot be told, and nobody is blamed."""

    seat: int
    seq: int
    voters: frozenset[int] = field(default_factory=frozenset)
    disputed: bool = False


@dataclass(frozen=True)
class _Vote:
    seat: int  # the seat said to be absent
    seq: int
    prev: bytes
    data: bytes


class GameSession:
    """This process's seats in one networked game."""

    def __init__(
        self,
        table: Table,
        identities: list[Identity],
        *,
        journal_dir: Path | None = None,
        now: float = 0.0,
    ) -> None:
        self.table = table
        self.outbox: list[bytes] = []
        self.peers: list[Peer] = []
        self.incidents = Incidents()
        self.ignored = 0  # undecodable, stranger's or another room's messages: counted only
        for identity in identities:
            path = journal_path(table, identity.player_id, journal_dir)
            if path.exists() and path.stat().st_size > 0:
                peer = Peer.resume(path, identity, on_envelope=self.outbox.append)
                self.outbox.extend(peer.own_pending())
            else:
                peer = Peer(
                    table, identity, on_envelope=self.outbox.append, journal=Journal(path, table)
                )
            self.peers.append(peer)
        self.signer = identities[0].signing_key
        self.abandoned: Abandonment | None = None
        self._votes: dict[int, _Vote] = {}  # each voter's latest vote
        self._voted: set[tuple[int, int]] = set()
        self._seq = self.seq
        self._moved_at = now
        self._asked_at = -1e9
        self._answered: dict[bytes, float] = {}  # per seated player: when it was last answered
        self.messages = 0
        self.bytes = 0
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
            elif self.abandoned is None:
                for peer in self.peers:
                    peer.accept(envelope)  # decoded and its signature checked once, above
            if self.seq != self._seq:
                self._seq = self.seq
                self._moved_at = now
            self._settle(now)
        except Exception as exc:  # never: but a room must outlive a bug (nobody's fault)
            self.incidents.append(
                ProtocolError(f"could not be handled: {exc!r}", peer=None, seq=envelope.seq)
            )

    def _answer(self, envelope: Envelope, now: float) -> None:
        asked = envelope.seq
        if now - self._answered.get(envelope.sender, -1e9) < NUDGE or asked > self.peers[0].seq:
            return
        if any(p.identity.player_id == envelope.sender for p in self.peers):
            return  # our own request, heard back
        self._answered[envelope.sender] = now
        size = 0
        for data in self.peers[0].envelopes_since(asked):
            if size and size + len(data) > MAX_ANSWER_BYTES:
                break  # the asker, further on, asks again for the rest
            size += len(data)
            self.outbox.append(data)
        # our standing votes too: a peer that was away learns why the game ended
        self.outbox.extend(v.data for voter, v in self._votes.items() if self.peer(voter))

    def sync(self, now: float) -> None:
        """Ask the room for everything from our step on."""
        self._asked_at = now
        self.outbox.append(
            seal(
                self.signer, room=self.table.room, seq=self.seq, prev=NO_PREV, kind=SYNC, body={}
            ).to_bytes()
        )

    # -- absence ------------------------------------------------------------------------

    def tick(self, now: float, offline: frozenset[int] = frozenset()) -> None:
        """Time passes: ask again when stuck; vote to end the game when a seat is gone."""
        if self.finished:
            return
        idle = now - self._moved_at
        if idle >= NUDGE and now - self._asked_at >= NUDGE:
            for peer in self.peers:
                self.outbox.extend(peer.own_pending())
            self.sync(now)
        if idle < self.table.timeout:
            return
        peer = self.peers[0]
        for absent in peer.waiting_for:
            if self.peer(absent) is not None:
                continue  # one of ours: never abandon ourselves
            key = (peer.seq, absent)
            if key in self._voted:
                continue
            self._voted.add(key)
            for own in self.peers:
                body = {"seat": absent, "step": own.prev}
                vote = seal(
                    own.identity.signing_key,
                    room=self.table.room,
                    seq=own.seq,
                    prev=NO_PREV,
                    kind=ABANDON,
                    body=body,
                ).to_bytes()
                self.outbox.append(vote)
                self.receive(vote, now)

    def _vote(self, envelope: Envelope, voter: int, data: bytes) -> None:
        body = envelope.body
        try:
            if not isinstance(body, dict) or set(body) != {"seat", "step"}:
                return
            absent = expect_int(body["seat"], "seat", 0, self.table.seats - 1)
            prev = expect_bytes(body["step"], "step", 32)
        except ProtocolError:
            return
        if absent == voter:
            return
        held = self._votes.get(voter)
        if held is None or envelope.seq >= held.seq:
            self._votes[voter] = _Vote(absent, envelope.seq, prev, data)  # one per voter

    def _settle(self, now: float) -> None:
        """End the game if the votes held say so (see the module's docstring)."""
        if self.finished:
            return
        peer = self.peers[0]
        ours = {p.seat for p in self.peers}
        everyone = set(range(self.table.seats))
        waited = now - self._moved_at >= self.table.timeout
        for absent in peer.waiting_for:
            others = everyone - {absent}
            if absent in ours or not waited:
                continue
            votes = [self._votes.get(v) for v in others]
            if all(v is not None and self._counts(v, absent) for v in votes):
                self._end(Abandonment(absent, peer.seq, frozenset(others)), votes)
                return
        for accused in sorted(ours):
            voters = sorted(everyone - {accused})
            if set(voters) & ours:
                continue  # our own seats never vote against each other
            held = {v: self._votes.get(v) for v in voters}
            if all(h is not None and self._disputes(h, v, accused) for v, h in held.items()):
                seq = max(h.seq for h in held.values() if h is not None)
                ending = Abandonment(accused, seq, frozenset(voters), disputed=True)
                self._end(ending, list(held.values()))
                return

    def _counts(self, vote: _Vote, absent: int) -> bool:
        """A vote against another seat counts about the open step only, and only while
        that seat still owes it."""
        peer = self.peers[0]
        return (
            vote.seat == absent
            and vote.seq == peer.seq
            and vote.prev == peer.prev
            and absent in peer.waiting_for
        )

    def _disputes(self, vote: _Vote, voter: int, accused: int) -> bool:
        """A vote against one of our seats, about a step of our log after which the voter
        signed nothing: the voter stopped there (a lie, or our move crossed its vote)."""
        peer = self.peers[0]
        if vote.seat != accused or vote.seq > peer.seq or vote.prev != self._prev_of(vote.seq):
            return False
        later = [e for step in peer.log[vote.seq + 1 :] for e in step]
        if vote.seq < peer.seq:
            later += [e for e, _ in peer.got.values()]
        sender = self.table.players[voter]
        return not any(e.sender == sender for e in later)

    def _end(self, ending: Abandonment, votes: list[_Vote | None]) -> None:
        self.abandoned = ending
        for own in self.peers:
            if own.journal is not None:
                for vote in votes:
                    if vote is not None:
                        own.journal.append(vote.data)

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
        """This process's seats whose move the room waits for, with their views."""
        return [
            (p, p.view())
            for p in self.peers
            if not self.finished and p.seat in p.waiting_for and p.step.kind == "action"
        ]

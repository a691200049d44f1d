"""A game in a networked room: this process's seats, the log topic, resync, absence.

The session is the bridge between the room's log topic and the peers this process runs
(one player, and the bots a host runs for the room). It has no clock and no I/O of its
own: the caller hands it every message from the log topic and the time now, and sends
what it puts in :attr:`outbox`. That keeps it testable without a network.

Besides the steps of the game the log topic carries two signed control messages:

* ``sync`` — "I am at step n": every peer that has more sends what it has from step n on
  (each envelope is signed by its author, so anyone may pass it on). A peer asks after
  connecting, after resuming from its journal, and whenever the room has not moved for a
  while although it holds envelopes for later steps (it missed some).
* ``abandon`` — "seat s has kept step n waiting past the room's timeout". When every
  other seat has said so for the same step, the game ends there, abandoned by seat s;
  the votes are kept in the journal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.core import Action
from cakeparty.protocol.codec import Envelope, decode, expect_bytes, expect_int, seal
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import Journal, journal_path
from cakeparty.protocol.lobby import ABANDON, NO_PREV, SYNC
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.steps import step_digest
from cakeparty.protocol.table import Table

NUDGE = 2.0  # seconds without progress before asking again


@dataclass
class Abandonment:
    """The game ended because ``seat`` kept the room waiting at step ``seq``."""

    seat: int
    seq: int
    voters: frozenset[int] = field(default_factory=frozenset)


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
        self.incidents: list[ProtocolError] = []
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
        self._votes: dict[tuple[int, int], set[int]] = {}
        self._voted: set[tuple[int, int]] = set()
        self._seq = self.seq
        self._moved_at = now
        self._asked_at = -1e9
        self._answered: dict[tuple[bytes, int], float] = {}
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

    def peer(self, seat: int) -> Peer | None:
        return next((p for p in self.peers if p.seat == seat), None)

    # -- the log topic ------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> None:
        """A message from the log topic. Never raises."""
        self.messages += 1
        self.bytes += len(data)
        try:
            envelope = decode(data)
        except ProtocolError as exc:
            self.incidents.append(exc)
            return
        if envelope.room != self.table.room:
            return
        seat = self.table.seat_of(envelope.sender)
        if seat is None:
            return  # not a player of this room: nothing it says counts
        if envelope.kind == SYNC:
            self._answer(envelope, now)
            return
        if envelope.kind == ABANDON:
            self._vote(envelope, seat)
            return
        if self.abandoned is not None:
            return
        for peer in self.peers:
            peer.accept(envelope)  # decoded and its signature checked once, above
        if self.seq != self._seq:
            self._seq = self.seq
            self._moved_at = now

    def _answer(self, envelope: Envelope, now: float) -> None:
        asked = envelope.seq
        key = (envelope.sender, asked)
        if now - self._answered.get(key, -1e9) < NUDGE or asked > self.peers[0].seq:
            return
        self._answered[key] = now
        self.outbox.extend(self.peers[0].envelopes_since(asked))

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

    def _vote(self, envelope: Envelope, voter: int) -> None:
        body = envelope.body
        try:
            if not isinstance(body, dict) or set(body) != {"seat", "step"}:
                return
            absent = expect_int(body["seat"], "seat", 0, self.table.seats - 1)
            prev = expect_bytes(body["step"], "step", 32)
        except ProtocolError:
            return
        peer = self.peers[0]
        if absent == voter or envelope.seq > peer.seq or prev != self._prev_of(envelope.seq):
            return  # a vote about a step this peer has not reached, or another log
        if envelope.seq == peer.seq and absent not in peer.waiting_for:
            return  # the seat has answered since
        # A vote about an earlier step is kept too: every other seat was stuck there, so
        # the only peer that can have gone on is the absent seat's own, whose move came
        # too late; it must end the game where the others did.
        voters = self._votes.setdefault((envelope.seq, absent), set())
        voters.add(voter)
        if voters >= set(range(self.table.seats)) - {absent}:
            self.abandoned = Abandonment(absent, envelope.seq, frozenset(voters))
            for own in self.peers:
                if own.journal is not None:
                    own.journal.append(envelope.to_bytes())

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

"""A game among in-process peers through the mental deck, with no broker.

Each seat is a :class:`~cakeparty.protocol.peer.Peer` with its own identity, keys and game
state; envelopes travel on an in-memory bus, delivered to each peer in its own shuffled
order (and some twice), as a network might. Bots decide from their own peer's view only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cakeparty.core import Bot, CakePartyError, Outcome
from cakeparty.protocol.audit import Verdict
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import Journal, journal_path
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.table import OptionValue, Table

DECISIONS = ("action", "choice-commit")


class MentalMatch:
    """``players`` peers of one game, wired together in memory."""

    def __init__(
        self,
        game: str,
        players: int,
        seed: int,
        options: Mapping[str, OptionValue] | None = None,
        *,
        disorder: bool = True,
        duplicates: float = 0.0,
        peer_types: Mapping[int, type[Peer]] | None = None,
        room: str | None = None,
        journal_dir: Path | None = None,
    ) -> None:
        """``disorder``: deliver each batch in a different order to each peer;
        ``duplicates``: the chance each envelope arrives twice; ``peer_types``: a
        :class:`Peer` subclass for some seats (tests use it to seat a cheat)."""
        self.rng = random.Random(seed)
        identities = [
            Identity.generate(f"Seat {i + 1}", seeded_random_bytes(f"{seed}/{i}".encode()))
            for i in range(players)
        ]
        self.table = Table.of(
            room or f"SIM{seed % 10**8}",
            game,
            [(ident.player_id, ident.name) for ident in identities],
            options,
            nonce=seeded_random_bytes(f"{seed}/nonce".encode())(16),
        )
        self.disorder = disorder
        self.duplicates = duplicates
        self.wire: list[bytes] = []
        kinds = peer_types or {}
        self.identities = identities
        self.journal_dir = journal_dir
        # seeded game secrets: a simulation replays exactly (a real peer's are random)
        secrets = [seeded_random_bytes(f"{seed}/secret/{i}".encode())(32) for i in range(players)]
        self.peers = [
            kinds.get(i, Peer)(
                self.table,
                ident,
                on_envelope=self.wire.append,
                journal=None
                if journal_dir is None
                else Journal(
                    journal_path(self.table, ident.player_id, journal_dir), self.table, secrets[i]
                ),
                secret=secrets[i],
            )
            for i, ident in enumerate(identities)
        ]
        self.messages = 0
        self.bytes = 0
        self.seconds = 0.0
        self.pump()

    # -- the bus ------------------------------------------------------------------------

    def pump(self) -> None:
        """Deliver everything published until nobody publishes any more."""
        while self.wire:
            batch, self.wire[:] = list(self.wire), []
            self.messages += len(batch)
            self.bytes += sum(len(b) for b in batch)
            for peer in self.peers:
                order = list(batch)
                if self.disorder:
                    self.rng.shuffle(order)
                if self.duplicates:
                    order += [b for b in batch if self.rng.random() < self.duplicates]
                for data in order:
                    peer.receive(data)

    def crash(self, seat: int) -> None:
        """Seat ``seat``'s process dies: its peer is gone, and what is sent to it is lost."""
        peer = self.peers[seat]
        if peer.journal is not None:
            peer.journal.close()
        self.peers[seat] = _Gone(peer)

    def restart(self, seat: int) -> Peer:
        """Seat ``seat`` comes back from its journal and catches up from another peer."""
        assert self.journal_dir is not None
        ident = self.identities[seat]
        path = journal_path(self.table, ident.player_id, self.journal_dir)
        peer = Peer.resume(path, ident, on_envelope=self.wire.append)
        self.peers[seat] = peer
        helper = next(p for p in self.peers if p is not peer and not isinstance(p, _Gone))
        for data in helper.envelopes_since(peer.seq):
            peer.receive(data)
        self.wire.extend(peer.own_pending())
        self.pump()
        return peer

    def deliver(self, data: bytes) -> None:
        """Publish ``data`` (from anyone, a stranger or a cheat) to every peer."""
        self.wire.append(data)
        self.pump()

    # -- playing ------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self.peers[0].state

    @property
    def outcome(self) -> Outcome | None:
        outcome: Outcome | None = self.peers[0].outcome
        return outcome

    @property
    def verdicts(self) -> list[Verdict]:
        return [p.verdict for p in self.peers]

    @property
    def crypto_seconds(self) -> float:
        return sum(p.crypto_seconds for p in self.peers)

    def play(
        self,
        bots: Mapping[int, Bot] | Sequence[Bot],
        rng: random.Random | None = None,
        *,
        max_moves: int = 100_000,
    ) -> Outcome:
        """Let ``bots`` play to the end and every peer audit; return the outcome."""
        seats = dict(enumerate(bots)) if isinstance(bots, Sequence) else dict(bots)
        rng = rng or random.Random(0)
        for _ in range(max_moves):
            if all(p.finished for p in self.peers):
                outcome = self.outcome
                assert outcome is not None
                return outcome
            waiting = {s for p in self.peers for s in p.waiting_for}
            movers = [p for p in self.peers if p.seat in waiting and p.step.kind in DECISIONS]
            if not movers:
                raise CakePartyError(f"the room is stuck waiting for {sorted(waiting)}")
            peer = movers[0]
            peer.act(seats[peer.seat](peer.view(), rng))
            self.pump()
        raise CakePartyError(f"no outcome after {max_moves} moves")


class _Gone(Peer):
    """A crashed peer: it hears nothing and says nothing."""

    def __init__(self, was: Peer) -> None:
        self.__dict__.update(was.__dict__)

    def receive(self, data: bytes) -> None:
        return

    @property
    def waiting_for(self) -> tuple[int, ...]:
        return ()


class AuditTally:
    """Makes mental matches for a simulation and keeps count of their audits."""

    def __init__(self) -> None:
        self.fair = 0
        self.unfair = 0
        self.crypto_seconds = 0.0
        self.unfair_verdicts: list[str] = []

    def factory(self, game: str, players: int, seed: int, options: Mapping[str, Any]) -> Any:
        tally = self

        class _Counted(MentalMatch):
            def play(self, *args: Any, **kwargs: Any) -> Outcome:
                try:
                    return super().play(*args, **kwargs)
                finally:
                    tally.crypto_seconds += self.crypto_seconds
                    verdicts = [v for v in self.verdicts if v is not None]
                    if verdicts and all(v.fair for v in verdicts):
                        tally.fair += 1
                    else:
                        tally.unfair += 1
                        tally.unfair_verdicts.extend(str(v) for v in verdicts if not v.fair)
                    for peer in self.peers:  # keep the counts, not the whole room
                        peer.log.clear()

        return _Counted(game, players, seed, options)

    def as_json(self) -> dict[str, Any]:
        return {
            "audit": {"fair": self.fair, "unfair": self.unfair},
            "crypto_seconds": round(self.crypto_seconds, 3),
        }

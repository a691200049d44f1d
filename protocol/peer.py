"""A peer: one seat's copy of a room — its log, its mental deck and its own game state.

A peer turns envelopes into engine actions. It never trusts a sender: each envelope must be
well formed, signed by a seated player, for the step the room is at, following the
previous step, and valid (proofs verify, moves are legal). Anything else is set aside as
an *incident* naming the seat at fault, and changes nothing; every honest peer sets
aside the same envelopes, so all stay in step.

Its own secrets (game key, mixes, random contributions, nonces) are derived from a game
secret of fresh random bytes, kept in its journal, so a peer restarted from its journal
issues exactly the envelopes it issued before, and no two games share a key. Its sealed
choices are kept there too, before their commitments go out: restarted between committing
and opening, it opens the very choice it committed, never a new one. Its moves go out only
once their step is in its journal: a disk that refuses the step holds the move back, so
that a seat restarted from that journal, which may choose another move, never signed two.

An opening that does not match its commitment (or opens a choice that is not legal) is a
signed proof against its seat: every peer takes it as the seat's contribution to the step,
and when the step completes the game ends there, that seat forfeiting, and the audit names
it. A seat that never opens keeps the step waiting: the room's absence rule names it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cakeparty.core import (
    Action,
    CakePartyError,
    Commit,
    Committed,
    Forfeited,
    IllegalActionError,
    Random,
    RandomResult,
    Remix,
    Remixed,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
    from_data,
    get_game,
    to_data,
)
from cakeparty.core.errors import ActionSyntaxError
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import PUBLIC, Knowledge
from cakeparty.protocol import journal
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import (
    Envelope,
    decode,
    expect_bytes,
    expect_int,
    expect_list,
    pack,
    seal,
    unpack,
)
from cakeparty.protocol.commit import (
    COMMIT_DOMAIN as CHOICE_DOMAIN,
)
from cakeparty.protocol.commit import (
    RANDOM_DOMAIN,
    check_reveal,
    commitment,
    fair_number,
    joint_seed,
)
from cakeparty.protocol.deck import MentalDeck, share_plan
from cakeparty.protocol.elgamal import Deck, GameKey
from cakeparty.protocol.errors import (
    BadChain,
    CommitMismatch,
    Incidents,
    MalformedMessage,
    ProtocolError,
    UnknownCard,
)
from cakeparty.protocol.group import RandomBytes, mul_base, random_scalar, u64
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import Journal, JournalWriteError
from cakeparty.protocol.table import Table
from cakeparty.protocol.wire import (
    deck_from_data,
    deck_to_data,
    key_proof_from_data,
    key_proof_to_data,
    opening_from_data,
    opening_to_data,
    share_from_data,
    share_to_data,
    shuffle_proof_from_data,
    shuffle_proof_to_data,
)

SECRETS_DOMAIN = b"cakeparty/v1/secrets\x00"
# Envelopes for steps not reached yet are held, within bounds a seated player cannot
# stretch: a few steps ahead, one envelope per sender and step, a byte budget per sender.
# What is dropped comes back: a peer that is behind asks again (``sync``).
MAX_AHEAD_STEPS = 64
MAX_AHEAD_BYTES = 4 * 1024 * 1024  # per sender: twice the largest envelope


class _Stream:
    """Deterministic secret bytes: SHA-512 in counter mode over a seed and a label."""

    def __init__(self, seed: bytes, label: bytes) -> None:
        self.prefix = seed + label
        self.counter = 0
        self.buffer = b""

    def __call__(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += hashlib.sha512(self.prefix + u64(self.counter)).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out


class _FalseOpening:
    """A seat's signed opening that proves it cheated: it is the seat's contribution to
    the step (so every peer completes the step alike) and ends the game there."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason  # an action name: "false-opening" or "illegal-choice"


def _twin(envelopes: list[Envelope], envelope: Envelope) -> Envelope | None:
    """The envelope of ``envelope``'s sender among ``envelopes`` (one step's: one a
    sender), if any."""
    return next((e for e in envelopes if e.sender == envelope.sender), None)


class Peer:
    """One seat of a room, following its log."""

    def __init__(
        self,
        table: Table,
        identity: Identity,
        *,
        on_envelope: Callable[[bytes], None] | None = None,
        journal: Journal | None = None,
        secret: bytes | None = None,
        sealed: Mapping[int, Action] | None = None,
        watching: bool = False,
    ) -> None:
        """``on_envelope`` publishes what this peer issues; ``journal`` keeps the log;
        ``secret``: the game secret (default: the journal's, else fresh random bytes);
        ``sealed``: this seat's sealed choices by log step (kept in its journal);
        ``watching``: a spectator's copy — no seat, no game key, so it reads only what is
        public, and it issues nothing (see :mod:`cakeparty.protocol.spectator`)."""
        seat = table.seat_of(identity.player_id)
        if watching:
            seat = None
        elif seat is None:
            raise ValueError("this player has no seat at the table")
        self.table = table
        self.identity = identity
        #: whose knowledge this copy reads: its seat, or ``None`` for a spectator's
        self.reader: int | None = seat
        self.game = get_game(table.game)
        self.state: Any = self.game.new_state(table.seats, table.option_map)
        # every secret of this game follows from fresh random bytes kept in the journal
        if secret is None:
            secret = journal.secret if journal is not None else os.urandom(32)
        self._seed = hashlib.sha512(SECRETS_DOMAIN + secret + table.digest()).digest()
        key_secret = random_scalar(self._stream(b"game-key", 0))
        self.deck = MentalDeck(
            room=table.room,
            seat=seat,
            seats=table.seats,
            game=table.game,
            box=self.game.box(self.state),
            key=None if watching else GameKey(key_secret, mul_base(key_secret)),
        )
        self.on_envelope = on_envelope
        self.journal = journal
        #: the step whose envelopes the journal's disk would not take: it waits, whole,
        #: and :meth:`unstall` writes it again (nobody's doing, no incident)
        self.stalled: JournalWriteError | None = None
        self.seq = 0
        self.prev = table.digest()
        self.log: list[list[Envelope]] = []
        self.got: dict[int, tuple[Envelope, Any]] = {}
        self.future: dict[int, list[Envelope]] = {}
        self._ahead_bytes: dict[bytes, int] = {}
        self.incidents = Incidents()
        self.ignored = 0  # messages that prove nothing about anyone: counted, not kept
        #: the lowest step of a seat's envelope off this peer's log (it may follow another
        #: version of a step before it) since the session last asked the room about it
        self.strayed: int | None = None
        self.mixes: list[tuple[Deck, list[tuple[int, Deck]]]] = []  # per shuffle, for the audit
        self.history: list[tuple[int | None, Action]] = []
        self.shuffles: list[tuple[tuple[int, ...], Deck]] = []
        self.remixes: list[tuple[tuple[int, ...], Deck]] = []
        self._remix_perm: tuple[int, ...] | None = None  # this seat's own last re-mix
        # a move just made that some seats can check at once: (seat, action, state before,
        # witnesses, slots)
        self._witnessed: tuple[int, Action, Any, tuple[int, ...], tuple[int, ...]] | None = None
        self.randoms: list[int] = []
        self.crypto_seconds = 0.0
        self._mixes = 0
        self._commitments: dict[int, bytes] = {}
        self._secrets: dict[int, bytes] = {}
        self._sealed: dict[int, Action] = dict(sealed or {})  # this seat's choices, by step
        self.forfeit: tuple[int, str] | None = None  # a seat that opened a false choice
        self.finished = False
        self.broken: int | None = None  # the step at which a card turned out to be none
        self.stopped_by: int | None = None  # the seat that said so
        self.verdict: Any = None
        #: two envelopes one seat signed for one step (same number, same ``prev``): the
        #: game ends there, naming it, on every peer that holds them (see :meth:`_equivocated`)
        self.proof: tuple[Envelope, Envelope] | None = None
        self._inbox: deque[Envelope] = deque()
        #: this seat's move, held back until its step is in the journal (see :meth:`_send`)
        self._unsent: Envelope | None = None
        self._draining = False
        self.step = self._next_step()
        self._enter()
        self._drain()

    # -- secrets ------------------------------------------------------------------------

    @property
    def seat(self) -> int:
        """This peer's seat; a spectator has none, and never contributes."""
        if self.reader is None:
            raise ValueError("a spectator has no seat")
        return self.reader

    @property
    def watching(self) -> bool:
        """A spectator's copy of the room: public information only."""
        return self.reader is None

    def _stream(self, label: bytes, seq: int) -> RandomBytes:
        return _Stream(self._seed, label + b"\x00" + u64(seq))

    # -- reading ------------------------------------------------------------------------

    def view(self) -> Any:
        return self.game.view(self.state, self.reader)

    @property
    def outcome(self) -> Any:
        return self.game.outcome(self.state)

    @property
    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose envelope the room waits for now."""
        if self.finished:
            return ()
        return tuple(s for s in self.step.seats if s not in self.got)

    # -- receiving ----------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Take an envelope from the wire. Never raises: bytes that are no envelope, or
        whose signature fails, prove nothing about anyone and are only counted; a seated
        player's bad envelope becomes an incident naming it."""
        try:
            envelope = decode(data)
        except ProtocolError:
            self.ignored += 1
            return
        self.accept(envelope)

    def accept(self, envelope: Envelope) -> None:
        """Take an envelope already decoded, its signature checked (by :func:`decode`).
        Never raises."""
        self._inbox.append(envelope)
        self._drain()

    def _drain(self) -> None:
        # one envelope at a time, never recursively: a completed step may release many
        if self._draining:
            return
        self._draining = True
        try:
            while self._inbox:
                envelope = self._inbox.popleft()
                try:
                    self._receive(envelope)
                except JournalWriteError as exc:  # this peer's own disk: the step waits
                    self.stalled = exc
                except Exception as exc:  # a checker must never crash
                    # a body that fails its checks is named in _offer; what fails after
                    # (completing a step) is no evidence against the last sender
                    self._stuck(exc)
        finally:
            self._draining = False

    def unstall(self) -> None:
        """Write again the step the journal's disk refused (once it has room, the game
        goes on from there); never raises."""
        if self.stalled is None or self._draining:
            return
        self._draining = True
        try:
            if not self.finished and len(self.got) == len(self.step.seats):
                self._complete()
            else:
                self.stalled = None
        except JournalWriteError as exc:
            self.stalled = exc
        except Exception as exc:  # as in _drain: nobody's doing
            self.stalled = None
            self._stuck(exc)
        finally:
            self._draining = False
        self._drain()

    def _stuck(self, exc: Exception) -> None:
        """What failed completing a step: an incident naming nobody."""
        self._incident(ProtocolError(f"could not go on: {exc!r}", peer=None, seq=self.seq))

    def _receive(self, envelope: Envelope) -> None:
        if envelope.kind not in st.KINDS:
            return  # a control message (sync, abandon): the session's business
        if self.proof is not None:
            self.ignored += 1  # the game ended on a seat's two envelopes for one step
            return
        seat = self.table.seat_of(envelope.sender)
        if envelope.room != self.table.room or seat is None:
            # another room's envelope, replayed by anyone, or a stranger's: no evidence
            self.ignored += 1
            return
        if envelope.seq < self.seq:
            twin = _twin(self.log[envelope.seq], envelope)
            if twin is not None and twin.digest() == envelope.digest():
                return  # a duplicate (QoS 1 delivers some twice)
            if not self._second_version(seat, twin, envelope):
                # off this peer's log: a cheat's (harmless: it changes nothing), or an honest
                # seat's that follows another version of a step someone signed twice, so it
                # names nobody (the two versions do, once they are seen)
                self._off_log(envelope)
            return
        if envelope.seq > self.seq:
            self._hold(envelope, seat)
            return
        self._offer(envelope, seat)

    def _hold(self, envelope: Envelope, seat: int) -> None:
        """Keep ``seat``'s envelope for a later step, within the look-ahead bounds."""
        size = len(envelope.to_bytes())
        held = self._ahead_bytes.get(envelope.sender, 0)
        if envelope.seq > self.seq + MAX_AHEAD_STEPS or held + size > MAX_AHEAD_BYTES:
            self.ignored += 1
            return
        waiting = self.future.setdefault(envelope.seq, [])
        twin = _twin(waiting, envelope)
        if twin is not None:
            # one per sender and step: the first; a second signed for the same step is a lie
            self._second_version(seat, twin, envelope)
            return
        waiting.append(envelope)
        self._ahead_bytes[envelope.sender] = held + size

    def _second_version(self, seat: int, first: Envelope | None, envelope: Envelope) -> bool:
        """Whether ``envelope`` is ``seat``'s second version of the step ``first`` (its
        envelope for that step, if any) answers: the same step after the same log, other
        bytes. The game then ends there (:meth:`_equivocated`)."""
        if first is None or first.prev != envelope.prev or first.digest() == envelope.digest():
            return False
        self._equivocated(seat, first, envelope)
        return True

    def _off_log(self, envelope: Envelope) -> None:
        """A seat's ``envelope`` follows another log than this peer's: counted, and its
        step noted (:attr:`strayed`) so that the session asks the room for the steps
        before it, where another version of one would show."""
        self.ignored += 1
        if self.strayed is None or envelope.seq < self.strayed:
            self.strayed = envelope.seq

    def _release(self) -> list[Envelope]:
        """The envelopes held for the step now open."""
        released = self.future.pop(self.seq, [])
        for envelope in released:
            left = self._ahead_bytes[envelope.sender] - len(envelope.to_bytes())
            if left:
                self._ahead_bytes[envelope.sender] = left
            else:
                del self._ahead_bytes[envelope.sender]
        return released

    def _incident(self, error: ProtocolError) -> None:
        self.incidents.append(error)

    def _equivocated(self, seat: int, first: Envelope, second: Envelope) -> None:
        """``seat`` signed two different envelopes for one step. Peers that took one and
        peers that took the other would each follow a log the others refuse, and blame
        each other for it: so the game ends here, naming ``seat``, with no audit (the
        peers' logs may differ from this step on). The pair is signed by ``seat`` alone:
        anyone can check it, so this peer passes it on, once, and every peer that holds it
        ends the game alike, wherever its own log had got to. Its journal keeps the pair
        after the log, so that the peer resumed from it ends here again."""
        if self.finished or self.proof is not None:
            return
        from cakeparty.protocol.audit import Verdict

        error = BadChain(N_("two different envelopes for one step"), peer=seat, seq=first.seq)
        self._incident(error)
        self.proof = (first, second)
        self.finished = True
        self.got = {}
        self.future.clear()
        self._ahead_bytes.clear()
        self.verdict = Verdict(False, seat, f"#{first.seq}", error.reason)
        if self.journal is not None:
            # kept after the log: a peer restarted from its journal reads the pair again
            # and ends here at once, whoever else is still online. A disk that refuses it
            # changes nothing now (the others' catch-up answers carry the pair too).
            with contextlib.suppress(JournalWriteError):
                self.journal.append(first.to_bytes(), second.to_bytes())
        if self.on_envelope is not None:
            for envelope in self.proof:
                self.on_envelope(envelope.to_bytes())

    def _offer(self, envelope: Envelope, seat: int) -> None:
        step = self.step
        if self.finished:
            return
        if envelope.prev != self.prev:
            self._off_log(envelope)  # as a stale envelope, above
            return
        if envelope.kind == st.AUDIT and step.kind != st.AUDIT and self.broken is None:
            # a seat publishes its game secret early: it found a card it was dealt to be
            # no card. Nothing can go on; every seat publishes its secret and the audit
            # names the mixer who forged the deck, or else the seat that stopped the game.
            try:
                secret = expect_bytes(st.body_map(envelope.body, "x")["x"], "x", 32)
                self.deck.accept_secret(seat, secret)
            except ProtocolError as exc:
                self._incident(exc.blame(seat, step.seq))
                return
            self.broken, self.stopped_by = step.seq, seat
            self.got = {}
            self.step = step = self._next_step()
            self._enter()
        if seat not in step.seats or envelope.kind != step.kind:
            self._incident(BadChain(f"not expected now ({envelope.kind})", peer=seat, seq=step.seq))
            return
        if seat in self.got:
            self._second_version(seat, self.got[seat][0], envelope)  # else a duplicate
            return
        started = time.process_time()
        try:
            parsed = self._check(step, seat, envelope.body)
        except ProtocolError as exc:
            self._incident(exc.blame(seat, step.seq))
            return
        except (IllegalActionError, ActionSyntaxError) as exc:
            self._incident(MalformedMessage(f"illegal move: {exc}", peer=seat, seq=step.seq))
            return
        except Exception as exc:  # whatever else a body can provoke is the sender's doing
            self._incident(MalformedMessage(f"not checkable: {exc!r}", peer=seat, seq=step.seq))
            return
        finally:
            self.crypto_seconds += time.process_time() - started
        self.got[seat] = (envelope, parsed)
        if len(self.got) == len(step.seats):
            self._complete()

    # -- checking a contribution ----------------------------------------------------------

    def _check(self, step: st.Step, seat: int, body: Any) -> Any:
        kind = step.kind
        deck = self.deck
        if kind == st.KEYS:
            b = st.body_map(body, "pk", "proof")
            public = expect_bytes(b["pk"], "pk", 32)
            deck.accept_key(seat, public, key_proof_from_data(b["proof"]))
            return None
        if kind == st.MIX:
            assert isinstance(step.request, Shuffle)
            b = st.body_map(body, "deck", "proof")
            n = len(step.request.slots)
            out = deck_from_data(b["deck"], n)
            deck.accept_mix(seat, out, shuffle_proof_from_data(b["proof"], n), step=step.seq)
            return out
        if kind == st.REMIX:
            return self._check_remix(step, seat, body)
        if kind == st.SHARES:
            return self._check_shares(step, seat, body)
        if kind in (st.RAND_COMMIT, st.CHOICE_COMMIT):
            return st.digest32(st.body_map(body, "c")["c"], "commitment")
        if kind == st.RAND_OPEN:
            b = st.body_map(body, "x", "nonce")
            value = (expect_bytes(b["x"], "x", 32), expect_bytes(b["nonce"], "nonce", 32))
            try:
                check_reveal(
                    self._commitments[seat],
                    self.table.room,
                    seat,
                    value[0],
                    value[1],
                    domain=RANDOM_DOMAIN,
                )
            except CommitMismatch as exc:
                return self._false_opening(exc, seat, step, "false-opening")
            return value
        if kind == st.CHOICE_OPEN:
            b = st.body_map(body, "a", "nonce")
            nonce = expect_bytes(b["nonce"], "nonce", 32)
            try:
                # the payload as signed (its packing is canonical), before reading it
                check_reveal(
                    self._commitments[seat],
                    self.table.room,
                    seat,
                    pack(b["a"]),
                    nonce,
                    domain=CHOICE_DOMAIN,
                )
            except CommitMismatch as exc:
                return self._false_opening(exc, seat, step, "false-opening")
            try:
                action = from_data(b["a"])
                if action not in self.game.legal_actions(self.state, seat):
                    raise IllegalActionError(seat, action, "not a legal choice")
            except (IllegalActionError, ActionSyntaxError) as exc:
                # it committed to something it may not choose: it cannot open anything else
                error = CommitMismatch(f"opened a choice that is not legal: {exc}")
                return self._false_opening(error, seat, step, "illegal-choice")
            return action
        if kind == st.ACTION:
            action = from_data(st.body_map(body, "a")["a"])
            return action, self.game.apply(self.state, action, seat)
        if kind == st.WITNESS:
            return self._check_accusation(seat, body)
        if kind == st.AUDIT:
            secret = expect_bytes(st.body_map(body, "x")["x"], "x", 32)
            deck.accept_secret(seat, secret)
            return secret
        raise MalformedMessage(f"unknown step kind {kind}")

    def _false_opening(
        self, error: ProtocolError, seat: int, step: st.Step, reason: str
    ) -> _FalseOpening:
        """Name ``seat`` for its opening, and keep the opening: it ends the game."""
        self._incident(error.blame(seat, step.seq))
        return _FalseOpening(reason)

    def _check_remix(self, step: st.Step, seat: int, body: Any) -> Any:
        """A holder's re-mix of its hand: the proof for everyone; for each seat sharing
        the hand, a boxed opening that tells it the new order (checked against the deck)."""
        request = step.request
        assert isinstance(request, Remix)
        b = st.body_map(body, "deck", "proof", "boxes")
        n = len(request.slots)
        out = deck_from_data(b["deck"], n)
        proof = shuffle_proof_from_data(b["proof"], n)
        readers = [r for r in request.to if r != seat]
        boxes = expect_list(b["boxes"], "boxes", len(readers))
        perm: tuple[int, ...] | None = None
        for reader, item in zip(readers, boxes, strict=True):
            plain = self._box_for_me(seat, reader, item, "re-mix openings")
            if plain is None:
                continue
            opening = opening_from_data(unpack(plain), n)
            self.deck.check_opening(seat, out, opening)
            perm = opening.perm
        if seat == self.reader:
            perm = self._remix_perm
        self.deck.accept_mix(seat, out, proof, step=step.seq)
        return out, perm

    def _box_for_me(self, sender: int, reader: int, item: Any, what: str) -> bytes | None:
        """One ``[reader, box]`` item of ``sender``'s body, addressed in plan order: its
        plaintext when this seat is ``reader``, else ``None`` (only the reader can open
        and check it)."""
        pair = expect_list(item, "box", 2)
        if expect_int(pair[0], "reader") != reader:
            raise MalformedMessage(f"{what} addressed out of order")
        box = expect_bytes(pair[1], "box")
        if reader != self.reader:
            return None
        return self.identity.open_from(self.table.players[sender], box)

    def _check_shares(self, step: st.Step, seat: int, body: Any) -> Any:
        plan = step.plan[seat]
        b = st.body_map(body, "public", "private")
        public = expect_list(b["public"], "public", len(plan.public))
        checked = []
        for slot, item in zip(plan.public, public, strict=True):
            checked.append((slot, self.deck.check_share(seat, slot, share_from_data(item))))
        private = expect_list(b["private"], "private", len(plan.private))
        mine: list[tuple[int, Any]] = []
        for (reader, slots), item in zip(sorted(plan.private.items()), private, strict=True):
            plain = self._box_for_me(seat, reader, item, "private shares")
            if plain is None:
                continue
            inner = expect_list(unpack(plain), "shares", len(slots))
            for slot, data in zip(slots, inner, strict=True):
                share = share_from_data(data)
                mine.append((slot, (self.deck.check_share(seat, slot, share), share)))
        return checked, mine

    def _check_accusation(self, seat: int, body: Any) -> tuple[int, str] | None:
        """A witness's word on the move just made: ``None`` (no accusation), or the
        shares that open the cards to everyone. Returns who forfeits and why: the mover
        if the opened cards prove the move broke a rule, the accuser if they do not (or
        its evidence does not verify, or is missing)."""
        assert self._witnessed is not None
        mover, action, before, _seats, slots = self._witnessed
        accusation = st.body_map(body, "accuse")["accuse"]
        if accusation is None:
            return None
        items = expect_list(accusation, "accusation", len(slots))
        cards: dict[int, str] = {}
        try:
            for slot, item in zip(slots, items, strict=True):
                shares = {}
                for pair in expect_list(item, "shares"):
                    owner, data = expect_list(pair, "share", 2)
                    shares[expect_int(owner, "seat")] = share_from_data(data)
                card = self.deck.open_with(slot, shares)
                if card is None:
                    return seat, "false-accusation"
                cards[slot] = card
        except ProtocolError:
            return seat, "false-accusation"  # evidence that does not verify proves nothing
        if self.game.breach(before, mover, action, cards) is None:
            return seat, "false-accusation"
        return mover, "false-count"

    # -- completing a step ----------------------------------------------------------------

    def _complete(self) -> None:
        step = self.step
        envelopes = [self.got[s][0] for s in sorted(self.got)]
        if self.journal is not None:  # first: a disk that refuses them changes nothing
            self.journal.append(*(envelope.to_bytes() for envelope in envelopes))
        self.stalled = None
        held, self._unsent = self._unsent, None
        if held is not None and self.on_envelope is not None:
            self.on_envelope(held.to_bytes())  # this seat's move, now kept: it goes out
        parsed = {s: p for s, (_, p) in self.got.items()}
        self.log.append(envelopes)
        self.prev = st.step_digest(envelopes)
        self.seq += 1
        self.got = {}
        started = time.process_time()
        self._effect(step, parsed)
        self.crypto_seconds += time.process_time() - started
        self.step = self._next_step()
        self._inbox.extend(self._release())
        self._enter()

    def _apply(self, action: Action, seat: int | None) -> None:
        self.state = self.game.apply(self.state, action, seat)
        self.history.append((seat, action))

    def _effect(self, step: st.Step, parsed: dict[int, Any]) -> None:
        kind = step.kind
        if kind == st.KEYS:
            self.deck.start()
        elif kind == st.MIX:
            assert isinstance(step.request, Shuffle)
            self.mixes[-1][1].append((step.mixer, parsed[step.mixer]))
            self._mixes += 1
            if self._mixes == self.table.seats:
                slots = step.request.slots
                self.shuffles.append((slots, self.deck.mixing))
                self.deck.end_shuffle(slots)
                self._mixes = 0
                self._apply(Shuffled(slots), None)
        elif kind == st.REMIX:
            self._remixed(step, parsed)
        elif kind == st.SHARES:
            self._reveal(step, parsed)
        elif kind in (st.RAND_COMMIT, st.CHOICE_COMMIT):
            self._commitments = dict(parsed)
        elif kind in (st.RAND_OPEN, st.CHOICE_OPEN) and self._forfeits(parsed):
            self._commitments = {}
            self._sealed.pop(step.seq - 1, None)
        elif kind == st.RAND_OPEN:
            assert isinstance(step.request, Random)
            seed = joint_seed(self.table.room, self._commitments, parsed)
            value = fair_number(seed, step.request.n)
            self.randoms.append(value)
            self._commitments = {}
            self._apply(RandomResult(step.request.n, value), None)
        elif kind == st.CHOICE_OPEN:
            self._commitments = {}
            self._sealed.pop(step.seq - 1, None)  # opened: no longer needed
            self._apply(Committed(tuple(sorted(parsed.items()))), None)
        elif kind == st.ACTION:
            ((seat, (action, state)),) = parsed.items()
            seats, slots = self.game.witnesses(self.state, seat, action)
            if seats:
                self._witnessed = (seat, action, self.state, seats, slots)
            self.state = state
            self.history.append((seat, action))
        elif kind == st.WITNESS:
            self._witnessed = None
            verdicts = [v for _, v in sorted(parsed.items()) if v is not None]
            if verdicts:
                culprit, reason = verdicts[0]
                self._apply(Forfeited(culprit, reason), None)
        elif kind == st.AUDIT:
            self.finished = True
            from cakeparty.protocol.audit import audit

            self.verdict = audit(self)

    def _forfeits(self, parsed: dict[int, Any]) -> bool:
        """If a seat opened something false, it forfeits (the first in seat order): the
        game ends at this step. A game that knows no forfeit ends all the same."""
        false = [(s, p) for s, p in sorted(parsed.items()) if isinstance(p, _FalseOpening)]
        if not false:
            return False
        seat, opening = false[0]
        self.forfeit = (seat, opening.reason)
        with contextlib.suppress(CakePartyError):  # the audit names it from its incident
            self._apply(Forfeited(seat, opening.reason), None)
        return True

    def _remixed(self, step: st.Step, parsed: dict[int, Any]) -> None:
        request = step.request
        assert isinstance(request, Remix)
        ((seat, (out, perm)),) = parsed.items()
        slots = request.slots
        self.remixes.append((slots, out))
        self.deck.end_shuffle(slots)
        cards: tuple[str | None, ...] = (None,) * len(slots)
        if self.reader in request.to:
            if perm is None:
                raise ProtocolError(N_("the re-mixed order did not reach this seat"), seq=step.seq)
            knowledge = self.game.knowledge(self.state)
            old = [knowledge.cards[s] for s in slots]
            cards = tuple(old[p] for p in perm)
        self._apply(Remixed(seat, slots, cards, request.to), None)

    def _reveal(self, step: st.Step, parsed: dict[int, Any]) -> None:
        request = step.request
        assert isinstance(request, Reveal)
        for seat, (public, mine) in parsed.items():
            for slot, point in public:
                self.deck.accept_public(seat, slot, point)
            for slot, (point, share) in mine:
                self.deck.accept_private(seat, slot, point, share)
        readable = request.to is None or self.reader in request.to
        knowledge = self.game.knowledge(self.state)
        try:
            cards = tuple(self._read(s, knowledge) if readable else None for s in request.slots)
        except UnknownCard as exc:
            # every share was proven, so a mix was forged: the game stops here and the
            # audit, with every secret, names the mixer
            self._incident(exc.blame(None, step.seq))
            self.broken, self.stopped_by = step.seq + 1, self.reader
            return
        if readable and any(c is None for c in cards):
            raise ProtocolError(N_("a share this seat needs is missing"), peer=None, seq=step.seq)
        self._apply(Revealed(request.slots, cards, request.to), None)

    def _read(self, slot: int, knowledge: Knowledge) -> str | None:
        """The card in ``slot`` for a reveal this seat may read. A seat that knew it
        before the reveal gets no share for it (the plan sends shares to newcomers only);
        where it knew it from a re-mix's opening rather than from shares (the holder
        re-mixed its pieces, then one is shown to a taker and to itself), it cannot
        decrypt it and reads what it was told."""
        card = self.deck.card(slot)
        if card is None and knowledge.knows(self.reader, slot):
            return knowledge.cards[slot]
        return card

    # -- what comes next ------------------------------------------------------------------

    def _next_step(self) -> st.Step:
        seq = self.seq
        everyone = tuple(range(self.table.seats))
        if seq == 0:
            return st.Step(seq, st.KEYS, everyone)
        if self._witnessed is not None:
            return st.Step(seq, st.WITNESS, self._witnessed[3])
        if self.outcome is not None or self.broken is not None or self.forfeit is not None:
            return st.Step(seq, st.AUDIT, everyone)
        request = self.game.pending(self.state)
        if isinstance(request, Shuffle):
            if self._mixes == 0:
                self._prepare_shuffle(request)
                self.mixes.append((self.deck.mixing, []))
            return st.Step(seq, st.MIX, (self._mixes,), request, mixer=self._mixes)
        if isinstance(request, Remix):
            self.deck.begin_shuffle(request.slots)
            return st.Step(seq, st.REMIX, (request.seat,), request)
        if isinstance(request, Reveal):
            knowledge = self.game.knowledge(self.state)
            plan = share_plan(
                request.slots, request.to, knowledge.known_by, self.deck.public, self.table.seats
            )
            return st.Step(seq, st.SHARES, tuple(sorted(plan)), request, plan=plan)
        if isinstance(request, Random):
            kind = st.RAND_OPEN if self._commitments else st.RAND_COMMIT
            return st.Step(seq, kind, everyone, request)
        if isinstance(request, Commit):
            kind = st.CHOICE_OPEN if self._commitments else st.CHOICE_COMMIT
            return st.Step(seq, kind, request.seats, request)
        acting = self.game.to_act(self.state)
        return st.Step(seq, st.ACTION, acting[:1])

    def _prepare_shuffle(self, request: Shuffle) -> None:
        # a card whose identity is public (sorted back into the box) is encrypted afresh
        knowledge = self.game.knowledge(self.state)
        for slot in request.slots:
            card = knowledge.cards[slot]
            if card is not None and knowledge.known_by[slot] & PUBLIC:
                self.deck.restore(slot, card)
        self.deck.begin_shuffle(request.slots)

    def _enter(self) -> None:
        """Contribute to the new step if this seat must and need not wait for a decision."""
        step = self.step
        if not step.seats:
            self._complete()  # nothing to wait for (a reveal every seat could already read)
            return
        if self.reader not in step.seats or step.kind == st.ACTION:
            return
        if step.kind == st.CHOICE_COMMIT:
            choice = self._sealed.get(step.seq)
            if choice is not None:
                # chosen before a restart: the same commitment again, never a new choice
                self._send(st.CHOICE_COMMIT, self._commitment_body(step.seq, choice))
            return
        if step.kind == st.CHOICE_OPEN and step.seq - 1 not in self._sealed:
            return  # the choice is lost: the room waits, and its absence rule names us
        started = time.process_time()
        body = self._contribution(step)
        self.crypto_seconds += time.process_time() - started
        self._send(step.kind, body)

    def _contribution(self, step: st.Step) -> Any:
        rb = self._stream(step.kind.encode(), step.seq)
        deck = self.deck
        if step.kind == st.KEYS:
            return {"pk": deck.key.public, "proof": key_proof_to_data(deck.key_proof(rb))}
        if step.kind == st.MIX:
            out, mixed = deck.my_mix(rb, step=step.seq)
            return {"deck": deck_to_data(out), "proof": shuffle_proof_to_data(mixed)}
        if step.kind == st.REMIX:
            request = step.request
            assert isinstance(request, Remix)
            out, opening, proof = deck.my_remix(rb, step=step.seq)
            self._remix_perm = opening.perm
            boxes = []
            for reader in request.to:
                if reader != self.seat:
                    sealed = pack(opening_to_data(opening))
                    boxes.append(
                        [reader, self.identity.seal_for(self.table.players[reader], sealed, rb)]
                    )
            return {
                "deck": deck_to_data(out),
                "proof": shuffle_proof_to_data(proof),
                "boxes": boxes,
            }
        if step.kind == st.SHARES:
            plan = step.plan[self.seat]
            public = [share_to_data(s) for s in deck.make_shares(plan.public, rb)]
            private = []
            for reader, slots in sorted(plan.private.items()):
                shares = pack([share_to_data(s) for s in deck.make_shares(slots, rb)])
                box = self.identity.seal_for(self.table.players[reader], shares, rb)
                private.append([reader, box])
            return {"public": public, "private": private}
        if step.kind == st.RAND_COMMIT:
            x, nonce = self._random_contribution(step.seq)
            return {"c": commitment(self.table.room, self.seat, x, nonce, domain=RANDOM_DOMAIN)}
        if step.kind == st.RAND_OPEN:
            x, nonce = self._random_contribution(step.seq - 1)
            return {"x": x, "nonce": nonce}
        if step.kind == st.CHOICE_OPEN:
            action = self._sealed[step.seq - 1]
            return {"a": to_data(action), "nonce": self._choice_nonce(step.seq - 1)}
        if step.kind == st.WITNESS:
            return {"accuse": self._accusation(rb)}
        if step.kind == st.AUDIT:
            return {"x": deck.key.secret}
        raise AssertionError(step.kind)

    def _accusation(self, random_bytes: RandomBytes) -> list[Any] | None:
        """If the move just made broke a rule with cards this seat saw, the evidence: for
        each slot, every share not yet public (the holder's, boxed to this seat with its
        proof, and this seat's own), so that every peer can open the cards and check."""
        assert self._witnessed is not None
        mover, action, before, _seats, slots = self._witnessed
        knowledge = self.game.knowledge(before)
        cards = {s: c for s in slots if (c := knowledge.cards[s]) is not None}
        if self.game.breach(before, mover, action, cards) is None:
            return None
        evidence = []
        for slot in slots:
            shares = [[self.seat, share_to_data(self.deck.make_shares([slot], random_bytes)[0])]]
            for owner, share in sorted(self.deck.proven[slot].items()):
                if owner not in self.deck.public[slot]:
                    shares.append([owner, share_to_data(share)])
            evidence.append(shares)
        return evidence

    def _random_contribution(self, seq: int) -> tuple[bytes, bytes]:
        rb = self._stream(b"random", seq)
        return rb(32), rb(32)

    def _choice_nonce(self, seq: int) -> bytes:
        """The nonce of this seat's sealed choice at step ``seq``: from the game secret,
        so unpredictable to everyone else until it is opened, and the same after a
        restart."""
        return self._stream(b"choice", seq)(32)

    def _commitment_body(self, seq: int, action: Action) -> dict[str, bytes]:
        payload = pack(to_data(action))
        nonce = self._choice_nonce(seq)
        c = commitment(self.table.room, self.seat, payload, nonce, domain=CHOICE_DOMAIN)
        return {"c": c}

    def _send(self, kind: str, body: Any) -> None:
        envelope = seal(
            self.identity.signing_key,
            room=self.table.room,
            seq=self.seq,
            prev=self.prev,
            kind=kind,
            body=body,
        )
        if kind == st.ACTION and self.journal is not None:
            # a move is no function of the game secret: restarted, this seat may choose
            # another. It goes out once its step is journaled (:meth:`_complete`), so a
            # disk that refuses the step leaves no move of this seat in anyone's hands
            # that its journal does not hold: never two versions of one step.
            self._unsent = envelope
        elif self.on_envelope is not None:
            self.on_envelope(envelope.to_bytes())
        self._inbox.append(envelope)

    # -- resuming -------------------------------------------------------------------------

    @classmethod
    def resume(
        cls,
        path: Path,
        identity: Identity,
        *,
        on_envelope: Callable[[bytes], None] | None = None,
    ) -> Peer:
        """This player's peer, rebuilt from its journal and ready to go on."""
        table, secret, envelopes = journal.read_game(path)
        sealed = {}
        for seq, data in journal.read_sealed(path).items():
            try:
                sealed[seq] = from_data(data)
            except ActionSyntaxError:
                continue  # unreadable: that choice cannot be opened
        peer = cls(table, identity, secret=secret, sealed=sealed)
        for data in envelopes:
            peer.receive(data)
        peer.on_envelope = on_envelope
        peer.journal = Journal(path, table)
        return peer

    def envelopes_since(self, seq: int, until: int | None = None) -> list[bytes]:
        """Every envelope from step ``seq`` on (to step ``until`` only, if given), the open
        step's too, for a peer that missed them (each is signed by its author: anyone may
        pass them on); a seat's two versions of one step, if this peer holds them."""
        stop = None if until is None else until + 1
        done = [e.to_bytes() for step in self.log[seq:stop] for e in step]
        if until is None or until >= self.seq:
            done += [e.to_bytes() for e, _ in self.got.values() if e is not self._unsent]
        return done + [e.to_bytes() for e in self.proof or ()]

    def own_pending(self) -> list[bytes]:
        """What this seat contributed to the step still open (to send again)."""
        if self.reader is None:
            return []
        mine = self.got.get(self.reader)
        return [] if mine is None or mine[0] is self._unsent else [mine[0].to_bytes()]

    # -- deciding -------------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Make this seat's move (or sealed choice); raises if it is not legal now."""
        step = self.step
        if self.seat not in step.seats or self.seat in self.got:
            raise IllegalActionError(self.seat, action, "it is not this seat's turn")
        if step.kind == st.ACTION:
            self.game.apply(self.state, action, self.seat)  # raises if illegal
            self._send(st.ACTION, {"a": to_data(action)})
            self._drain()
        elif step.kind == st.CHOICE_COMMIT:
            if action not in self.game.legal_actions(self.state, self.seat):
                raise IllegalActionError(self.seat, action, "not a legal choice")
            # kept (on disk first) before the commitment goes out, so that a restart opens
            # this very choice
            if self.journal is not None:
                self.journal.seal(step.seq, to_data(action))
            self._sealed[step.seq] = action
            self._send(st.CHOICE_COMMIT, self._commitment_body(step.seq, action))
            self._drain()
        else:
            raise IllegalActionError(self.seat, action, "no move is expected now")

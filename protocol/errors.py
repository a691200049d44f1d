"""One error family for everything the protocol rejects.

Every error is a :class:`ProtocolError`, a ``ValueError`` with structured fields:

* ``peer`` — who is to blame: a seat (``int``), a player id (the 32-byte Ed25519 public
  key, for an envelope whose seat is not known yet), or ``None`` when nobody can be named
  (bytes that do not even say who sent them);
* ``seq`` — the position in the room log, when known;
* ``reason`` — a short human-readable explanation.

The subclasses say *what* was wrong. Since every proof is bound to its prover's seat, a
failed check is always evidence against that seat alone: an honest peer can never be
blamed for another's cheating.
"""

from __future__ import annotations

from dataclasses import dataclass

Peer = int | bytes | None

MAX_INCIDENTS = 64  # kept per peer; more are counted, not kept
MAX_REASON = 160  # characters of a reason kept in an incident


def describe_peer(peer: Peer) -> str:
    """A short label for ``peer`` in messages."""
    if peer is None:
        return "unknown peer"
    if isinstance(peer, int):
        return f"seat {peer}"
    return f"player {peer[:8].hex()}"


class ProtocolError(ValueError):
    """Base of every error the protocol raises on bad or dishonest input."""

    def __init__(self, reason: str, *, peer: Peer = None, seq: int | None = None) -> None:
        self.reason = reason
        self.peer = peer
        self.seq = seq
        where = "" if seq is None else f" at #{seq}"
        super().__init__(f"{describe_peer(peer)}{where}: {reason}")

    def blame(self, peer: Peer, seq: int | None = None) -> ProtocolError:
        """The same error naming ``peer`` (and ``seq``); for callers that know more."""
        return type(self)(self.reason, peer=peer, seq=self.seq if seq is None else seq)


class MalformedMessage(ProtocolError):
    """Bytes or data that are not a well-formed message of the expected shape."""


class BadSignature(ProtocolError):
    """An envelope whose signature does not verify under the key it names.

    It names nobody: anyone can write any ``from`` on any bytes, and only a valid
    signature proves who wrote them."""


class BadChain(ProtocolError):
    """An envelope that does not extend the log: wrong room, ``seq`` or ``prev``."""


class BadProof(ProtocolError):
    """A proof of knowledge of a key that does not verify."""


class BadShare(ProtocolError):
    """A decryption share whose DLEQ proof does not verify."""


class BadMix(ProtocolError):
    """A mixed deck whose shuffle proof does not verify."""


class CommitMismatch(ProtocolError):
    """A revealed payload or nonce that does not match its commitment."""


class BadBox(ProtocolError):
    """A private message that does not open with the expected keys."""


class UnknownCard(ProtocolError):
    """A decrypted point that is no card of the game (a share was wrong somewhere)."""


@dataclass(frozen=True, slots=True)
class Incident:
    """What was refused, as a small plain record: never the error object (its traceback
    and cause would pin the refused bytes in memory), never the payload."""

    kind: str  # the error's class name: "BadShare", "BadChain", …
    peer: Peer
    seq: int | None
    reason: str

    @classmethod
    def of(cls, error: ProtocolError) -> Incident:
        return cls(type(error).__name__, error.peer, error.seq, error.reason[:MAX_REASON])

    def __str__(self) -> str:
        where = "" if self.seq is None else f" at #{self.seq}"
        return f"{describe_peer(self.peer)}{where}: {self.reason}"


class Incidents(list[Incident]):
    """The incidents of one peer: deduplicated, at most :data:`MAX_INCIDENTS` kept (the
    first ones: the audit names the first seat at fault), the rest only counted. Only a
    seated player's signed envelope can add one, so a stranger cannot fill it."""

    def __init__(self, cap: int = MAX_INCIDENTS) -> None:
        super().__init__()
        self.cap = cap
        self.dropped = 0
        self._seen: set[Incident] = set()

    def append(self, error: ProtocolError | Incident) -> None:
        incident = error if isinstance(error, Incident) else Incident.of(error)
        if incident in self._seen:
            return
        if len(self) >= self.cap:
            self.dropped += 1
            return
        self._seen.add(incident)
        super().append(incident)

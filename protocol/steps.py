"""The steps of a room log and the bodies of their envelopes.

The log is a sequence of *steps*. Each step expects one envelope from each of a set of
seats, all derived from public facts (the engine's pending request or acting seat), so
every peer expects the same. Envelopes of one step may arrive in any order; the step is
complete when every expected seat has contributed, and its digest — over its envelopes in
seat order — is the ``prev`` of every envelope of the next step. An envelope's ``seq`` is
its step's number. Simultaneous contributions are thereby a set, not a race.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cakeparty.core.requests import Request
from cakeparty.protocol.codec import Envelope, expect_bytes
from cakeparty.protocol.deck import SharePlan
from cakeparty.protocol.errors import MalformedMessage

STEP_DOMAIN = b"cakeparty/v1/step\x00"

KEYS = "keys"  # each seat's game key and its proof
MIX = "mix"  # one seat's mix of the deck being shuffled, with its proof
REMIX = "remix"  # a holder's re-mix of its own hand, with its proof (and boxed openings)
SHARES = "shares"  # decryption shares for a reveal, public and boxed
RAND_COMMIT = "rand-commit"  # commitment to a random contribution
RAND_OPEN = "rand-open"  # the contribution and its nonce
CHOICE_COMMIT = "choice-commit"  # commitment to a simultaneous choice
CHOICE_OPEN = "choice-open"  # the choice and its nonce
ACTION = "action"  # a seat's move
WITNESS = "witness"  # a seat that saw the cards a move depends on: it accuses, or not
AUDIT = "audit"  # a seat's game secret, once the game is over

KINDS = (
    KEYS,
    MIX,
    REMIX,
    SHARES,
    RAND_COMMIT,
    RAND_OPEN,
    CHOICE_COMMIT,
    CHOICE_OPEN,
    ACTION,
    WITNESS,
    AUDIT,
)


@dataclass(frozen=True)
class Step:
    """What the room waits for: one envelope of ``kind`` from each of ``seats``."""

    seq: int
    kind: str
    seats: tuple[int, ...]
    request: Request | None = None
    mixer: int = 0  # MIX: which seat mixes now
    plan: dict[int, SharePlan] = field(default_factory=dict)  # SHARES: who sends what


def step_digest(envelopes: Sequence[Envelope]) -> bytes:
    """The digest of a completed step: its envelopes' digests, in seat order."""
    h = hashlib.sha256(STEP_DOMAIN)
    for envelope in envelopes:
        h.update(envelope.digest())
    return h.digest()


def body_map(body: Any, *keys: str) -> dict[str, Any]:
    """``body`` as a map with exactly ``keys``; :class:`MalformedMessage` otherwise."""
    if not isinstance(body, dict) or set(body) != set(keys):
        raise MalformedMessage(f"expected a body with {', '.join(keys)}")
    return body


def digest32(obj: Any, what: str) -> bytes:
    return expect_bytes(obj, what, 32)

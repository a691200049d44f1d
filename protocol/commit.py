"""Commit-reveal for simultaneous decisions, and fair joint randomness.

A commitment is ``SHA-256(domain ‖ room ‖ seat ‖ payload ‖ nonce)`` (length-prefixed).
It *hides* the payload because the 32-byte nonce is secret and random until the reveal,
and it *binds* the seat to it because finding a second (payload, nonce) with the same hash
would break SHA-256. Seat and room are hashed in, so a seat cannot copy another seat's
commitment and later reveal the same payload as its own ("me too" bids), nor reuse one
from another room.

Fair randomness: every seat commits to 32 random bytes; once every commitment is in, each
reveals; the seed is the hash of all contributions in seat order. One honest seat suffices
for a uniform seed, since its contribution was fixed before it saw any other. The last
seat to reveal can still see the outcome first and refuse to reveal; the room's absence
rule (record the game as abandoned by that seat) is the answer to that, not cryptography.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping

from cakeparty.core.i18n import N_
from cakeparty.protocol.errors import CommitMismatch
from cakeparty.protocol.group import RandomBytes, framed, u64

COMMIT_DOMAIN = b"cakeparty/v1/commit"
RANDOM_DOMAIN = b"cakeparty/v1/random"
SEED_DOMAIN = b"cakeparty/v1/random/seed"
NUMBER_DOMAIN = b"cakeparty/v1/random/number"
NONCE_BYTES = 32
CONTRIBUTION_BYTES = 32
DIGEST_BYTES = 32


def commitment(
    room: str, seat: int, payload: bytes, nonce: bytes, *, domain: bytes = COMMIT_DOMAIN
) -> bytes:
    """The commitment of ``seat`` to ``payload`` under ``nonce``. ``domain`` names the kind
    of decision, so a commitment made for one cannot be opened as another."""
    return hashlib.sha256(framed(domain, room.encode(), u64(seat), payload, nonce)).digest()


def commit(
    room: str,
    seat: int,
    payload: bytes,
    *,
    domain: bytes = COMMIT_DOMAIN,
    random_bytes: RandomBytes = os.urandom,
) -> tuple[bytes, bytes]:
    """A fresh commitment to ``payload``: ``(commitment, nonce)``; keep the nonce secret
    until every seat has committed."""
    nonce = random_bytes(NONCE_BYTES)
    return commitment(room, seat, payload, nonce, domain=domain), nonce


def check_reveal(
    expected: bytes,
    room: str,
    seat: int,
    payload: bytes,
    nonce: bytes,
    *,
    domain: bytes = COMMIT_DOMAIN,
) -> None:
    """Check that ``seat`` revealed what it committed to; :class:`CommitMismatch` names the
    seat otherwise."""
    if not (isinstance(expected, bytes) and len(expected) == DIGEST_BYTES):
        raise CommitMismatch(N_("malformed commitment"), peer=seat)
    if not (isinstance(payload, bytes) and isinstance(nonce, bytes)):
        raise CommitMismatch(N_("reveal is not bytes"), peer=seat)
    if len(nonce) != NONCE_BYTES:
        raise CommitMismatch(N_("reveal has a malformed nonce"), peer=seat)
    actual = commitment(room, seat, payload, nonce, domain=domain)
    if not hmac.compare_digest(actual, expected):
        raise CommitMismatch(N_("reveal does not match the commitment"), peer=seat)


def random_contribution(random_bytes: RandomBytes = os.urandom) -> bytes:
    """This seat's 32 random bytes towards a joint seed."""
    return random_bytes(CONTRIBUTION_BYTES)


def commit_contribution(
    room: str, seat: int, contribution: bytes, *, random_bytes: RandomBytes = os.urandom
) -> tuple[bytes, bytes]:
    """Commit to a contribution (under :data:`RANDOM_DOMAIN`): ``(commitment, nonce)``."""
    return commit(room, seat, contribution, domain=RANDOM_DOMAIN, random_bytes=random_bytes)


def joint_seed(
    room: str,
    commitments: Mapping[int, bytes],
    reveals: Mapping[int, tuple[bytes, bytes]],
) -> bytes:
    """Check every seat's revealed ``(contribution, nonce)`` against its commitment and
    return the seed, the hash of all contributions in seat order.

    Raises :class:`CommitMismatch` naming the first seat (in seat order) whose reveal is
    missing, malformed or false."""
    parts: list[bytes] = []
    for seat in sorted(commitments):
        if seat not in reveals:
            raise CommitMismatch(N_("no reveal of the random contribution"), peer=seat)
        contribution, nonce = reveals[seat]
        check_reveal(commitments[seat], room, seat, contribution, nonce, domain=RANDOM_DOMAIN)
        if len(contribution) != CONTRIBUTION_BYTES:
            raise CommitMismatch(N_("random contribution is not 32 bytes"), peer=seat)
        parts += [u64(seat), contribution]
    extra = sorted(set(reveals) - set(commitments))
    if extra:
        raise CommitMismatch(N_("reveal without a commitment"), peer=extra[0])
    return hashlib.sha256(framed(SEED_DOMAIN, room.encode(), *parts)).digest()


def fair_number(seed: bytes, n: int, *, index: int = 0) -> int:
    """A fair number in ``range(n)`` from a joint seed; ``index`` draws further independent
    numbers from the same seed.

    Rejection sampling over 256-bit hash outputs: values at or above the largest multiple
    of ``n`` are discarded (and the next counter tried), so every result is exactly as
    likely as any other — plain ``x % n`` would favour the small numbers."""
    if not 1 <= n < 2**64:
        raise ValueError("n must be in 1..2**64 - 1")
    limit = 2**256 - (2**256 % n)
    counter = 0
    while True:
        block = hashlib.sha256(framed(NUMBER_DOMAIN, seed, u64(n), u64(index), u64(counter)))
        x = int.from_bytes(block.digest(), "big")
        if x < limit:
            return x % n
        counter += 1

"""Zero-knowledge proofs that keep every seat honest without a trusted dealer.

* :func:`prove_key` / :func:`verify_key` — Schnorr proof of knowledge of ``x`` for
  ``PK = x·B``. A seat that cannot prove it knows its secret cannot have chosen its key as
  a function of the others' (the rogue-key attack on the joint key ``Y = Σ PK_i``).
* :func:`make_share` / :func:`verify_share` — Chaum–Pedersen proof that a decryption share
  ``D = x·c1`` uses the same ``x`` as ``PK = x·B``. A seat cannot give a wrong share to
  make a card decrypt as something else, or to make it undecryptable.

The proof that a mix is correct, a shuffle argument, has its own module:
:mod:`cakeparty.protocol.shuffle`.

All proofs are made non-interactive with Fiat–Shamir: the challenge is a hash over a
domain string, the room id, the prover's seat and the whole statement. A proof therefore
cannot be replayed in another room, for another statement, or claimed by another seat.
Each check raises a :class:`~cakeparty.protocol.errors.ProtocolError` naming the prover.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cakeparty.core.i18n import N_
from cakeparty.protocol.elgamal import (
    GameKey,
)
from cakeparty.protocol.errors import BadProof, BadShare
from cakeparty.protocol.group import (
    Point,
    RandomBytes,
    Scalar,
    hash_to_scalar,
    is_canonical_scalar,
    is_valid_point,
    mul,
    mul_base,
    random_scalar,
    scalar_add,
    scalar_mul,
    sub,
    u64,
)

KEY_DOMAIN = b"cakeparty/v1/proof/key"
SHARE_DOMAIN = b"cakeparty/v1/proof/share"


# -- Schnorr: knowledge of a game key ----------------------------------------------------


@dataclass(frozen=True)
class SchnorrProof:
    """``(c, z)`` with ``c = H(room, seat, PK, z·B − c·PK)``."""

    challenge: Scalar
    response: Scalar


def prove_key(
    room: str, seat: int, key: GameKey, random_bytes: RandomBytes = os.urandom
) -> SchnorrProof:
    """Prove knowledge of ``key.secret``, for ``seat`` in ``room``."""
    r = random_scalar(random_bytes)
    c = hash_to_scalar(KEY_DOMAIN, room, u64(seat), key.public, mul_base(r))
    return SchnorrProof(c, scalar_add(r, scalar_mul(c, key.secret)))


def verify_key(room: str, seat: int, public: bytes, proof: SchnorrProof) -> Point:
    """Check ``seat``'s public key and its proof; return the key as a checked point.

    Raises :class:`BadProof` naming ``seat``."""
    if not is_valid_point(public):
        raise BadProof(N_("game key is not a valid point"), peer=seat)
    pk = Point(public)
    c, z = proof.challenge, proof.response
    if not (is_canonical_scalar(c) and is_canonical_scalar(z)):
        raise BadProof(N_("key proof has a malformed scalar"), peer=seat)
    # z·B − c·PK = r·B exactly when z = r + c·x; finding such z for a fresh c without x
    # would compute a discrete logarithm
    r_point = sub(mul_base(z), mul(c, pk))
    if hash_to_scalar(KEY_DOMAIN, room, u64(seat), pk, r_point) != c:
        raise BadProof(N_("key proof does not verify"), peer=seat)
    return pk


# -- Chaum–Pedersen: a decryption share ---------------------------------------------------


@dataclass(frozen=True)
class DleqProof:
    """``(c, z)`` proving ``log_B PK = log_c1 D``."""

    challenge: Scalar
    response: Scalar


@dataclass(frozen=True)
class Share:
    """A seat's decryption share ``D = x·c1`` of one card, with its proof."""

    point: Point
    proof: DleqProof


def _share_challenge(
    room: str, seat: int, pk: Point, c1: Point, d: Point, a1: Point, a2: Point
) -> Scalar:
    return hash_to_scalar(SHARE_DOMAIN, room, u64(seat), pk, c1, d, a1, a2)


def make_share(
    room: str, seat: int, key: GameKey, c1: Point, random_bytes: RandomBytes = os.urandom
) -> Share:
    """``seat``'s share of a card whose first component is ``c1``, with proof."""
    d = key.share(c1)
    r = random_scalar(random_bytes)
    c = _share_challenge(room, seat, key.public, c1, d, mul_base(r), mul(r, c1))
    return Share(d, DleqProof(c, scalar_add(r, scalar_mul(c, key.secret))))


def verify_share(room: str, seat: int, public: Point, c1: Point, share: Share) -> Point:
    """Check ``seat``'s share of the card with first component ``c1``, where ``public`` is
    that seat's (already checked) game key and ``c1`` comes from an accepted deck. Returns
    the share as a checked point; raises :class:`BadShare` naming ``seat``."""
    if not is_valid_point(share.point):
        raise BadShare(N_("decryption share is not a valid point"), peer=seat)
    c, z = share.proof.challenge, share.proof.response
    if not (is_canonical_scalar(c) and is_canonical_scalar(z)):
        raise BadShare(N_("share proof has a malformed scalar"), peer=seat)
    # both commitments are recomputed from the one response z, so the same exponent x
    # must link B to PK and c1 to D
    a1 = sub(mul_base(z), mul(c, public))
    a2 = sub(mul(z, c1), mul(c, share.point))
    if _share_challenge(room, seat, public, c1, share.point, a1, a2) != c:
        raise BadShare(N_("decryption share does not verify"), peer=seat)
    return share.point

"""The cut-and-choose shuffle proof the package used before its shuffle argument, kept
only so ``bench/mental.py`` can print the figures before and after side by side.

Do not use it for anything else: its Fiat–Shamir challenge is λ bits, which a forger can
grind (2^32 hash tries at λ = 32 is minutes of work). See ``cakeparty.protocol.shuffle``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass

from cakeparty.protocol.elgamal import Ciphertext, Deck, deck_bytes, mix, random_mix, unmix
from cakeparty.protocol.errors import BadMix
from cakeparty.protocol.group import (
    Point,
    RandomBytes,
    Scalar,
    framed,
    is_canonical_scalar,
    is_valid_point,
    random_permutation,
    random_scalars,
    scalar_sub,
    u64,
)
from cakeparty.protocol.shuffle import Opening

SHUFFLE_DOMAIN = b"cakeparty/v1/proof/shuffle"
DEFAULT_LAMBDA = 32
MAX_LAMBDA = 256


@dataclass(frozen=True)
class ShuffleProof:
    """The challenge digest and one opening per shadow mix (how that shadow deck is
    rebuilt: ``mix`` of the input for bit 0, ``unmix`` of the output for bit 1); the
    shadows themselves are not sent, since the verifier rebuilds them from the openings."""

    challenge: bytes
    openings: tuple[Opening, ...]


def _shuffle_digest(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    shadows: Sequence[Sequence[Ciphertext]],
) -> bytes:
    parts = [u64(seat), u64(len(shadows)), joint, deck_bytes(inp), deck_bytes(out)]
    parts += [deck_bytes(s) for s in shadows]
    return hashlib.sha256(framed(SHUFFLE_DOMAIN, room.encode(), *parts)).digest()


def challenge_bits(digest: bytes, lam: int) -> list[int]:
    """The first ``lam`` bits of ``digest``, least significant bit of each byte first."""
    return [(digest[j >> 3] >> (j & 7)) & 1 for j in range(lam)]


def _check_lambda(lam: int) -> None:
    if not 1 <= lam <= MAX_LAMBDA:
        raise ValueError(f"lambda must be in 1..{MAX_LAMBDA}")


def prove_shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    perm: Sequence[int],
    scalars: Sequence[Scalar],
    *,
    lam: int = DEFAULT_LAMBDA,
    random_bytes: RandomBytes = os.urandom,
) -> ShuffleProof:
    """Prove that ``out == mix(inp, joint, perm, scalars)`` without revealing ``perm``.

    The prover makes ``lam`` shadow mixes ``S_j = mix(inp, φ_j, t_j)`` and hashes them with
    the statement. Each challenge bit asks for one of two openings of ``S_j``: towards the
    input, ``(φ_j, t_j)``; or towards the output, ``(ψ_j, u_j)`` with
    ``out = mix(S_j, ψ_j, u_j)``, i.e. ``ψ_j = φ_j⁻¹∘perm`` and ``u_j = scalars − t_j∘ψ_j``.

    Hiding: either opening alone is uniformly random (``φ_j`` and ``t_j`` are fresh and
    secret), so it says nothing about ``perm``. Soundness: if ``out`` is not a re-encrypted
    permutation of ``inp``, no shadow can be opened both ways (the two openings would
    compose into one), so the prover must guess every bit before hashing — probability
    ``2^-lam`` per attempt. With the default ``lam = 32`` a forger needs ~2^32 attempts,
    each costing at least one re-encryption, within the mix timeout of one live game
    (the input deck, which the hash binds, does not exist before that game).
    """
    _check_lambda(lam)
    n = len(inp)
    secrets = [
        (random_permutation(n, random_bytes), random_scalars(n, random_bytes)) for _ in range(lam)
    ]
    shadows = [mix(inp, joint, phi, t) for phi, t in secrets]
    digest = _shuffle_digest(room, seat, joint, inp, out, shadows)
    openings = []
    for (phi, t), bit in zip(secrets, challenge_bits(digest, lam), strict=True):
        if bit == 0:
            openings.append(Opening(phi, tuple(t)))
            continue
        inverse = [0] * n
        for k, p in enumerate(phi):
            inverse[p] = k
        psi = tuple(inverse[p] for p in perm)
        openings.append(
            Opening(psi, tuple(scalar_sub(r, t[k]) for r, k in zip(scalars, psi, strict=True)))
        )
    return ShuffleProof(digest, tuple(openings))


def shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    *,
    lam: int = DEFAULT_LAMBDA,
    random_bytes: RandomBytes = os.urandom,
) -> tuple[Deck, ShuffleProof]:
    """``seat``'s mix of ``inp``: a freshly re-encrypted, permuted deck and its proof."""
    out, perm, scalars = random_mix(inp, joint, random_bytes)
    proof = prove_shuffle(
        room, seat, joint, inp, out, perm, scalars, lam=lam, random_bytes=random_bytes
    )
    return out, proof


def _is_opening(opening: object, n: int) -> bool:
    if not isinstance(opening, Opening):
        return False
    perm, scalars = opening.perm, opening.scalars
    return (
        len(perm) == n
        and len(scalars) == n
        and all(type(p) is int for p in perm)
        and sorted(perm) == list(range(n))
        and all(is_canonical_scalar(s) for s in scalars)
    )


def verify_shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    proof: ShuffleProof,
    *,
    lam: int = DEFAULT_LAMBDA,
) -> None:
    """Check that ``out`` is a correct mix of ``inp`` by ``seat``; ``inp`` is the accepted
    deck, ``out`` as received. ``lam`` is the room's setting: a proof with fewer shadows is
    refused, whatever it claims. Raises :class:`BadMix` naming ``seat``."""
    _check_lambda(lam)
    n = len(inp)
    if len(out) != n:
        raise BadMix(f"mixed deck has {len(out)} cards, not {n}", peer=seat)
    if not isinstance(proof.challenge, bytes) or len(proof.challenge) != 32:
        raise BadMix("malformed shuffle challenge", peer=seat)
    if len(proof.openings) != lam:
        raise BadMix(f"shuffle proof has {len(proof.openings)} openings, not {lam}", peer=seat)
    if not all(_is_opening(o, n) for o in proof.openings):
        raise BadMix("malformed shuffle opening", peer=seat)
    for ct in out:
        if not (is_valid_point(ct.c1) and is_valid_point(ct.c2)):
            raise BadMix("mixed deck holds an invalid point", peer=seat)
    # rebuild each shadow the way its challenge bit asked; if any opening is false, the
    # rebuilt shadows differ from the ones the prover hashed, and so does the digest
    shadows = [
        mix(inp, joint, o.perm, o.scalars) if bit == 0 else unmix(out, joint, o.perm, o.scalars)
        for o, bit in zip(proof.openings, challenge_bits(proof.challenge, lam), strict=True)
    ]
    if _shuffle_digest(room, seat, joint, inp, out, shadows) != proof.challenge:
        raise BadMix("shuffle proof does not verify", peer=seat)

"""Wire forms of the protocol's values, for envelope bodies.

Each value has a ``*_to_data`` giving plain msgpack data and a ``*_from_data`` reading it
back from decoded, untrusted data. Readers check *shape* (types, lengths, sizes) and raise
:class:`~cakeparty.protocol.errors.MalformedMessage`; they do not check group membership
or proofs. That is the job of the ``verify_*`` functions of
:mod:`cakeparty.protocol.proofs`, the single gate every received point and scalar passes
before it is used, so nothing is validated twice.

Decks and shuffle proofs travel as flat byte strings (64 bytes a card, 32 bytes a point or
scalar of a proof): compact, and a few long strings rather than thousands of tiny items.
Every length is fixed by the number of cards, itself at most :data:`MAX_CARDS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.protocol.codec import expect_bytes, expect_list
from cakeparty.protocol.elgamal import Ciphertext, Deck, deck_bytes
from cakeparty.protocol.errors import MalformedMessage
from cakeparty.protocol.group import POINT_BYTES, SCALAR_BYTES, Point, Scalar
from cakeparty.protocol.proofs import DleqProof, SchnorrProof, Share
from cakeparty.protocol.shuffle import Opening, ShuffleProof

MAX_CARDS = 1024
CARD_BYTES = 2 * POINT_BYTES


def point_from_data(obj: Any, what: str = "point") -> Point:
    """A 32-byte string, as an unchecked point."""
    return Point(expect_bytes(obj, what, POINT_BYTES))


def scalar_from_data(obj: Any, what: str = "scalar") -> Scalar:
    """A 32-byte string, as an unchecked scalar."""
    return Scalar(expect_bytes(obj, what, SCALAR_BYTES))


def deck_to_data(deck: Sequence[Ciphertext]) -> bytes:
    """A deck as ``c1 ‖ c2`` for each card."""
    return deck_bytes(deck)


def deck_from_data(obj: Any, cards: int | None = None) -> Deck:
    """A deck of (unchecked) ciphertexts, of exactly ``cards`` cards if given."""
    data = expect_bytes(obj, "deck")
    if len(data) % CARD_BYTES or len(data) // CARD_BYTES > MAX_CARDS:
        raise MalformedMessage(N_("deck: not a whole number of cards"))
    if cards is not None and len(data) != cards * CARD_BYTES:
        raise MalformedMessage(f"deck: expected {cards} cards")
    return tuple(
        Ciphertext(Point(data[i : i + 32]), Point(data[i + 32 : i + 64]))
        for i in range(0, len(data), CARD_BYTES)
    )


def key_proof_to_data(proof: SchnorrProof) -> list[bytes]:
    """``[c, z]``."""
    return [proof.challenge, proof.response]


def key_proof_from_data(obj: Any) -> SchnorrProof:
    """A Schnorr proof from ``[c, z]``."""
    c, z = expect_list(obj, "key proof", 2)
    return SchnorrProof(scalar_from_data(c), scalar_from_data(z))


def share_to_data(share: Share) -> list[bytes]:
    """``[D, c, z]``."""
    return [share.point, share.proof.challenge, share.proof.response]


def share_from_data(obj: Any) -> Share:
    """A decryption share from ``[D, c, z]``."""
    d, c, z = expect_list(obj, "share", 3)
    return Share(point_from_data(d, "share"), DleqProof(scalar_from_data(c), scalar_from_data(z)))


def _split(data: bytes, size: int) -> tuple[bytes, ...]:
    return tuple(data[i : i + size] for i in range(0, len(data), size))


def opening_to_data(opening: Opening) -> list[bytes]:
    """A permutation and its scalars (a re-mix's opening, boxed to a co-holder)."""
    return _opening_to_data(opening)


def opening_from_data(obj: Any, cards: int) -> Opening:
    """The inverse of :func:`opening_to_data` for ``cards`` cards."""
    if not 0 <= cards <= MAX_CARDS:
        raise MalformedMessage(N_("opening: too many cards"))
    return _opening_from_data(obj, cards)


def _opening_to_data(opening: Opening) -> list[bytes]:
    perm = b"".join(p.to_bytes(2, "big") for p in opening.perm)
    return [perm, b"".join(opening.scalars)]


def _opening_from_data(obj: Any, cards: int) -> Opening:
    perm_data, scalar_data = expect_list(obj, "opening", 2)
    expect_bytes(perm_data, "opening permutation", 2 * cards)
    expect_bytes(scalar_data, "opening scalars", SCALAR_BYTES * cards)
    perm = tuple(int.from_bytes(perm_data[i : i + 2], "big") for i in range(0, 2 * cards, 2))
    scalars = tuple(
        Scalar(scalar_data[i : i + SCALAR_BYTES])
        for i in range(0, SCALAR_BYTES * cards, SCALAR_BYTES)
    )
    return Opening(perm, scalars)


def shuffle_proof_to_data(proof: ShuffleProof) -> list[bytes]:
    """``[commitments, chain, challenge, responses, chain responses, perm responses]``,
    each the concatenation of its 32-byte values (``N``, ``N``, 1, 4, ``N`` and ``N``)."""
    return [
        b"".join(proof.commitments),
        b"".join(proof.chain),
        proof.challenge,
        b"".join(proof.responses),
        b"".join(proof.chain_responses),
        b"".join(proof.perm_responses),
    ]


def shuffle_proof_from_data(obj: Any, cards: int) -> ShuffleProof:
    """A shuffle proof for a deck of ``cards`` cards (unchecked points and scalars)."""
    if not 0 <= cards <= MAX_CARDS:
        raise MalformedMessage(N_("shuffle proof: too many cards"))
    commitments, chain, challenge, responses, chain_responses, perm_responses = expect_list(
        obj, "shuffle proof", 6
    )
    vector = cards * POINT_BYTES
    return ShuffleProof(
        commitments=tuple(
            Point(p) for p in _split(expect_bytes(commitments, "commitments", vector), 32)
        ),
        chain=tuple(Point(p) for p in _split(expect_bytes(chain, "chain", vector), 32)),
        challenge=scalar_from_data(challenge, "challenge"),
        responses=tuple(
            Scalar(s) for s in _split(expect_bytes(responses, "responses", 4 * SCALAR_BYTES), 32)
        ),
        chain_responses=tuple(
            Scalar(s) for s in _split(expect_bytes(chain_responses, "chain responses", vector), 32)
        ),
        perm_responses=tuple(
            Scalar(s) for s in _split(expect_bytes(perm_responses, "perm responses", vector), 32)
        ),
    )

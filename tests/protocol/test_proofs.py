"""Key and share proofs: they verify when honest and name the seat otherwise."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cakeparty.protocol.elgamal import (
    Ciphertext,
    GameKey,
    decrypt,
)
from cakeparty.protocol.errors import BadProof, BadShare
from cakeparty.protocol.group import (
    IDENTITY,
    ZERO,
    L,
    Point,
    RandomBytes,
    Scalar,
    mul_base,
    random_scalar,
    sub,
)
from cakeparty.protocol.proofs import (
    DleqProof,
    SchnorrProof,
    Share,
    make_share,
    prove_key,
    verify_key,
    verify_share,
)
from cakeparty.protocol.shuffle import shuffle

from .conftest import CARDS, ROOM, Room
from .test_group import SMALL_ORDER

BITS = (0, 9, 130, 255)  # low, middle and top bits of a 32-byte field


def flip(data: bytes, bit: int) -> bytes:
    """``data`` with one bit flipped."""
    i = bit // 8
    return data[:i] + bytes([data[i] ^ (1 << (bit % 8))]) + data[i + 1 :]


def plus_order(s: Scalar) -> Scalar:
    """The same scalar mod L, written non-canonically (libsodium would take it)."""
    return Scalar((int.from_bytes(s, "little") + L).to_bytes(32, "little"))


# -- Schnorr ---------------------------------------------------------------------------------


def test_key_proof_round_trip(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    assert verify_key(ROOM, 4, key.public, prove_key(ROOM, 4, key, rb)) == key.public


@pytest.mark.parametrize("bit", BITS)
@pytest.mark.parametrize("part", ["public", "challenge", "response"])
def test_key_proof_rejects_a_flipped_bit(rb: RandomBytes, part: str, bit: int) -> None:
    key = GameKey.generate(rb)
    proof = prove_key(ROOM, 2, key, rb)
    public = key.public
    if part == "public":
        public = Point(flip(public, bit))
    else:
        proof = dataclasses.replace(proof, **{part: Scalar(flip(getattr(proof, part), bit))})
    with pytest.raises(BadProof) as info:
        verify_key(ROOM, 2, public, proof)
    assert info.value.peer == 2


@pytest.mark.parametrize(
    "room, seat", [("other-room", 2), (ROOM, 3)], ids=["wrong room", "wrong prover"]
)
def test_key_proof_is_bound_to_room_and_seat(rb: RandomBytes, room: str, seat: int) -> None:
    key = GameKey.generate(rb)
    proof = prove_key(ROOM, 2, key, rb)
    with pytest.raises(BadProof) as info:
        verify_key(room, seat, key.public, proof)
    assert info.value.peer == seat


def test_key_proof_for_another_key_fails(rb: RandomBytes) -> None:
    a, b = GameKey.generate(rb), GameKey.generate(rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, b.public, prove_key(ROOM, 0, a, rb))


@pytest.mark.parametrize("public", [IDENTITY, SMALL_ORDER, b"\x00" * 31], ids=repr)
def test_key_proof_rejects_bad_points(rb: RandomBytes, public: bytes) -> None:
    proof = prove_key(ROOM, 0, GameKey.generate(rb), rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, public, proof)


def test_key_proof_with_zero_scalars_is_rejected_not_crashed(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    with pytest.raises(BadProof):
        verify_key(ROOM, 0, key.public, SchnorrProof(ZERO, ZERO))


def test_rogue_key_cannot_be_proved(rb: RandomBytes) -> None:
    # seat 1 wants Y = x·B for an x it knows, so it publishes x·B − PK_0: it knows no
    # discrete log of that key, and any proof it tries (here, with x) fails
    honest = GameKey.generate(rb)
    x = random_scalar(rb)
    rogue = GameKey(x, sub(mul_base(x), honest.public))
    with pytest.raises(BadProof) as info:
        verify_key(ROOM, 1, rogue.public, prove_key(ROOM, 1, rogue, rb))
    assert info.value.peer == 1


# -- Chaum–Pedersen shares ---------------------------------------------------------------------


def test_share_round_trip_decrypts(room: Room, rb: RandomBytes) -> None:
    ct = room.deck[3]
    shares = [
        verify_share(ROOM, s, room.publics[s], ct.c1, make_share(ROOM, s, k, ct.c1, rb))
        for s, k in enumerate(room.keys)
    ]
    assert room.table.card_of(decrypt(ct, shares)) == CARDS[3]


def _mixed_card(room: Room, rb: RandomBytes) -> Ciphertext:
    out, _ = shuffle(ROOM, 0, room.joint, room.deck, context=b"test", random_bytes=rb)
    return out[0]


@pytest.mark.parametrize("bit", BITS)
@pytest.mark.parametrize("part", ["point", "challenge", "response"])
def test_share_rejects_a_flipped_bit(room: Room, rb: RandomBytes, part: str, bit: int) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 1, room.keys[1], c1, rb)
    if part == "point":
        share = dataclasses.replace(share, point=Point(flip(share.point, bit)))
    else:
        proof = dataclasses.replace(
            share.proof, **{part: Scalar(flip(getattr(share.proof, part), bit))}
        )
        share = dataclasses.replace(share, proof=proof)
    with pytest.raises(BadShare) as info:
        verify_share(ROOM, 1, room.publics[1], c1, share)
    assert info.value.peer == 1


@pytest.mark.parametrize("change", ["room", "seat", "public", "c1"])
def test_share_is_bound_to_its_statement(room: Room, rb: RandomBytes, change: str) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 1, room.keys[1], c1, rb)
    args: dict[str, Any] = {"room": ROOM, "seat": 1, "public": room.publics[1], "c1": c1}
    args[change] = {
        "room": "other-room",
        "seat": 2,
        "public": room.publics[2],
        "c1": room.deck[0].c1,
    }[change]
    with pytest.raises(BadShare) as info:
        verify_share(share=share, **args)
    assert info.value.peer == args["seat"]


@pytest.mark.parametrize("point", [IDENTITY, SMALL_ORDER], ids=["identity", "small order"])
def test_share_rejects_bad_points(room: Room, rb: RandomBytes, point: bytes) -> None:
    c1 = _mixed_card(room, rb).c1
    share = Share(Point(point), DleqProof(ZERO, ZERO))
    with pytest.raises(BadShare):
        verify_share(ROOM, 0, room.publics[0], c1, share)


def test_bad_share_is_detected_and_names_its_seat(room: Room, rb: RandomBytes) -> None:
    # seat 2 answers with a share under a key of its own making, with a proof that is
    # valid for that key: the proof does not hold for the key seat 2 published
    ct = _mixed_card(room, rb)
    liar = GameKey.generate(rb)
    shares = {s: make_share(ROOM, s, k, ct.c1, rb) for s, k in enumerate(room.keys)}
    shares[2] = make_share(ROOM, 2, liar, ct.c1, rb)
    blamed = []
    for seat, share in shares.items():
        try:
            verify_share(ROOM, seat, room.publics[seat], ct.c1, share)
        except BadShare as exc:
            blamed.append(exc.peer)
            assert "seat 2" in str(exc)
    assert blamed == [2]


def test_share_with_non_canonical_response_is_rejected(room: Room, rb: RandomBytes) -> None:
    c1 = _mixed_card(room, rb).c1
    share = make_share(ROOM, 0, room.keys[0], c1, rb)
    bad = dataclasses.replace(share.proof, response=plus_order(share.proof.response))
    with pytest.raises(BadShare):
        verify_share(ROOM, 0, room.publics[0], c1, dataclasses.replace(share, proof=bad))

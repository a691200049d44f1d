"""Wire forms of protocol values, through real envelopes."""

from __future__ import annotations

from typing import Any

import nacl.signing
import pytest

from cakeparty.protocol.codec import MAX_ENVELOPE_BYTES, decode, encode, genesis, seal
from cakeparty.protocol.elgamal import Ciphertext, GameKey
from cakeparty.protocol.errors import BadShare, MalformedMessage
from cakeparty.protocol.group import BASE, ZERO, Point, RandomBytes, Scalar
from cakeparty.protocol.proofs import make_share, prove_key, verify_key, verify_share
from cakeparty.protocol.shuffle import ShuffleProof, shuffle, verify_shuffle
from cakeparty.protocol.wire import (
    MAX_CARDS,
    deck_from_data,
    deck_to_data,
    key_proof_from_data,
    key_proof_to_data,
    share_from_data,
    share_to_data,
    shuffle_proof_from_data,
    shuffle_proof_to_data,
)

from .conftest import ROOM, Room

KEY = nacl.signing.SigningKey(b"\x03" * 32)


def through_envelope(body: Any) -> Any:
    """``body`` as another peer receives it."""
    env = seal(KEY, room=ROOM, seq=0, prev=genesis(ROOM), kind="test", body=body)
    return decode(encode(env)).body


def test_key_proof_travels(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    body = through_envelope([key.public, key_proof_to_data(prove_key(ROOM, 0, key, rb))])
    assert verify_key(ROOM, 0, body[0], key_proof_from_data(body[1])) == key.public


def test_mix_and_share_travel(room: Room, rb: RandomBytes) -> None:
    out, proof = shuffle(ROOM, 0, room.joint, room.deck, context=b"7", random_bytes=rb)
    body = through_envelope({"deck": deck_to_data(out), "proof": shuffle_proof_to_data(proof)})
    got = deck_from_data(body["deck"], len(room.deck))
    assert got == out
    assert shuffle_proof_from_data(body["proof"], len(got)) == proof
    verify_shuffle(ROOM, 0, room.joint, room.deck, got, proof, context=b"7")

    share = make_share(ROOM, 1, room.keys[1], out[0].c1, rb)
    back = share_from_data(through_envelope(share_to_data(share)))
    assert verify_share(ROOM, 1, room.publics[1], out[0].c1, back) == share.point


def test_a_full_size_mix_fits_in_an_envelope() -> None:
    cards = 130
    deck = (Ciphertext(BASE, BASE),) * cards
    proof = ShuffleProof(
        (BASE,) * cards, (BASE,) * cards, ZERO, (ZERO,) * 4, (ZERO,) * cards, (ZERO,) * cards
    )
    body = {"deck": deck_to_data(deck), "proof": shuffle_proof_to_data(proof)}
    env = seal(KEY, room=ROOM, seq=0, prev=genesis(ROOM), kind="mix", body=body)
    size = len(encode(env))
    assert size < MAX_ENVELOPE_BYTES // 8
    assert shuffle_proof_from_data(decode(encode(env)).body["proof"], cards) == proof


MALFORMED_DECKS = {
    "ragged": (b"\x00" * 63, None),
    "wrong count": (b"\x00" * 128, 3),
    "text": ("deck", None),
    "too many": (b"\x00" * 64 * (MAX_CARDS + 1), None),
}


@pytest.mark.parametrize("obj, cards", MALFORMED_DECKS.values(), ids=MALFORMED_DECKS.keys())
def test_malformed_decks(obj: object, cards: int | None) -> None:
    with pytest.raises(MalformedMessage):
        deck_from_data(obj, cards)


def good_proof(cards: int) -> list[bytes]:
    """A well-shaped (not valid) proof for ``cards`` cards."""
    v = b"\x00" * (32 * cards)
    return [v, v, b"\x00" * 32, b"\x00" * 128, v, v]


def _with(index: int, value: object) -> list[object]:
    data: list[object] = list(good_proof(2))
    data[index] = value
    return data


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [b"\x00" * 32],
        good_proof(2)[:5],
        [*good_proof(2), b""],
        _with(0, b"\x00" * 32),
        _with(1, b"\x00" * 96),
        _with(2, b"\x00" * 31),
        _with(3, b"\x00" * 96),
        _with(4, "text"),
        _with(5, [b"\x00" * 32] * 2),
    ],
    ids=repr,
)
def test_malformed_shuffle_proofs(obj: object) -> None:
    with pytest.raises(MalformedMessage):
        shuffle_proof_from_data(obj, 2)


def test_shuffle_proof_shape_is_read_and_bounded() -> None:
    proof = shuffle_proof_from_data(good_proof(2), 2)
    assert len(proof.commitments) == len(proof.chain) == 2
    assert proof.perm_responses == (Scalar(b"\x00" * 32),) * 2
    assert len(proof.responses) == 4
    with pytest.raises(MalformedMessage):
        shuffle_proof_from_data(good_proof(2), MAX_CARDS + 1)


@pytest.mark.parametrize("obj", [None, [], [b"\x00" * 32] * 2, [b"\x00" * 32, b"\x00" * 32, 1]])
def test_malformed_shares(obj: object) -> None:
    with pytest.raises(MalformedMessage):
        share_from_data(obj)


@pytest.mark.parametrize("obj", [None, [b"\x00" * 32], [b"\x00" * 32, "z"]])
def test_malformed_key_proofs(obj: object) -> None:
    with pytest.raises(MalformedMessage):
        key_proof_from_data(obj)


def test_points_are_read_unchecked_and_checked_by_the_verifier(room: Room, rb: RandomBytes) -> None:
    share = make_share(ROOM, 0, room.keys[0], room.deck[0].c1, rb)
    data = share_to_data(share)
    data[0] = b"\x01" + bytes(31)  # the identity: well-shaped, but no valid share
    with pytest.raises(BadShare):
        verify_share(ROOM, 0, room.publics[0], room.deck[0].c1, share_from_data(data))
    assert Point(data[0]) == share_from_data(data).point

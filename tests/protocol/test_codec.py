"""Envelopes: signed, chained, canonical; untrusted bytes never crash the decoder."""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack  # type: ignore[import-untyped]
import nacl.signing
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cakeparty.protocol.codec import (
    FIELDS,
    MAX_DEPTH,
    MAX_ENVELOPE_BYTES,
    Envelope,
    check_next,
    decode,
    encode,
    genesis,
    pack,
    seal,
    unpack,
)
from cakeparty.protocol.errors import BadChain, BadSignature, MalformedMessage

ROOM = "test-room"
ALICE = nacl.signing.SigningKey(b"\x01" * 32)
MALLORY = nacl.signing.SigningKey(b"\x02" * 32)
REJECTIONS = (MalformedMessage, BadSignature)


def sample(seq: int = 0, body: Any = None, key: nacl.signing.SigningKey = ALICE) -> Envelope:
    body = {"slots": [1, 2, 3], "deck": b"\x00" * 64, "to": None} if body is None else body
    return seal(key, room=ROOM, seq=seq, prev=genesis(ROOM), kind="mix", body=body)


def raw(envelope: Envelope, **change: Any) -> bytes:
    """The envelope's wire map with some fields changed (and not re-signed)."""
    fields = {**envelope.unsigned(), "sig": envelope.sig}
    fields.update(change)
    return pack(fields)


def test_round_trip() -> None:
    env = sample()
    data = encode(env)
    assert decode(data) == env
    assert list(msgpack.unpackb(data)) == list(FIELDS)
    assert env.sender == bytes(ALICE.verify_key)
    assert env.digest() == hashlib.sha256(data).digest()


def test_hash_chain() -> None:
    first = sample(0)
    check_next(first, room=ROOM, seq=0, prev=genesis(ROOM))
    second = seal(ALICE, room=ROOM, seq=1, prev=first.digest(), kind="deal", body=[1])
    check_next(decode(encode(second)), room=ROOM, seq=1, prev=first.digest())
    assert genesis(ROOM) != genesis("other-room")


@pytest.mark.parametrize(
    "seq, prev, room",
    [(1, b"", ROOM), (0, b"x" * 32, ROOM), (0, b"", "other-room")],
    ids=["replayed or out of order", "forked", "other room"],
)
def test_chain_breaks_are_refused(seq: int, prev: bytes, room: str) -> None:
    env = sample(0)
    with pytest.raises(BadChain) as info:
        check_next(env, room=room, seq=seq, prev=prev or genesis(room))
    assert info.value.peer == env.sender and info.value.seq == 0


def test_changed_body_breaks_the_signature() -> None:
    env = sample()
    with pytest.raises(BadSignature) as info:
        decode(raw(env, body={"slots": [1, 2, 4], "deck": b"\x00" * 64, "to": None}))
    assert info.value.peer is None  # the bytes may not be the named sender's at all


@pytest.mark.parametrize("field", ["room", "seq", "prev", "kind"])
def test_every_signed_field_is_covered(field: str) -> None:
    env = sample()
    change = {"room": "room-b", "seq": 7, "prev": b"\x07" * 32, "kind": "deal"}[field]
    with pytest.raises(BadSignature):
        decode(raw(env, **{field: change}))


def test_a_forged_sender_is_refused_and_names_nobody() -> None:
    # Mallory signs, but claims to be Alice: Alice must not be the one blamed
    forged = sample(key=MALLORY)
    with pytest.raises(BadSignature) as info:
        decode(raw(forged, **{"from": bytes(ALICE.verify_key)}))
    assert info.value.peer is None
    assert "player" not in str(info.value)


@pytest.mark.parametrize("bit", [0, 255, 256, 511])
def test_flipped_signature_bit_is_refused(bit: int) -> None:
    env = sample()
    sig = bytearray(env.sig)
    sig[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(BadSignature):
        decode(raw(env, sig=bytes(sig)))


def test_invalid_sender_key_is_a_signature_failure() -> None:
    env = sample()
    with pytest.raises(BadSignature):
        decode(raw(env, **{"from": b"\x00" * 32}))


def test_unverified_decoding_skips_only_the_signature() -> None:
    env = sample()
    data = raw(env, sig=b"\x00" * 64)
    assert decode(data, verify=False).body == env.body


def _with(env: Envelope, **change: Any) -> dict[str, Any]:
    fields = {**env.unsigned(), "sig": env.sig}
    fields.update(change)
    return fields


def _nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


MALFORMED: dict[str, Any] = {
    "empty": b"",
    "nil": pack(None),
    "list": pack(list(FIELDS)),
    "truncated": encode(sample())[:-1],
    "trailing": encode(sample()) + b"\x00",
    "two envelopes": encode(sample()) * 2,
    "too long": b"\x00" * (MAX_ENVELOPE_BYTES + 1),
    "missing field": pack({k: v for k, v in _with(sample()).items() if k != "kind"}),
    "extra field": pack({**_with(sample()), "x": 1}),
    "field order": pack(dict(reversed(_with(sample()).items()))),
    "version 2": pack(_with(sample(), v=2)),
    "version text": pack(_with(sample(), v="1")),
    "negative seq": pack(_with(sample(), seq=-1)),
    "bool seq": pack(_with(sample(), seq=True)),
    "room chars": pack(_with(sample(), room="a/b")),
    "room empty": pack(_with(sample(), room="")),
    "room bytes": pack(_with(sample(), room=b"test-room")),
    "kind upper": pack(_with(sample(), kind="Mix")),
    "prev short": pack(_with(sample(), prev=b"\x00" * 31)),
    "from text": pack(_with(sample(), **{"from": "alice"})),
    "sig short": pack(_with(sample(), sig=b"\x00" * 63)),
    "float body": pack(_with(sample(), body=[1.5])),
    "int key": msgpack.packb({1: 2}),
    "bytes key in body": pack(_with(sample(), body={b"k": 1})),
    "ext body": pack(_with(sample(), body=msgpack.ExtType(5, b"abc"))),
    "empty ext": b"\xc7\x00\x05",
    "timestamp": msgpack.packb(msgpack.Timestamp(1, 2)),
    "deep body": pack(_with(sample(), body=_nested(MAX_DEPTH + 1))),
    "very deep": b"\x91" * 5000 + b"\x00",
    "wide int seq": encode(sample()).replace(b"\xa3seq\x00", b"\xa3seq\xcf" + bytes(8)),
    "str8 for short text": encode(sample()).replace(b"\xa4kind\xa3mix", b"\xa4kind\xd9\x03mix"),
    "bad utf-8": b"\xa2\xff\xfe",
    "huge array header": b"\xdd\xff\xff\xff\xff",
    "huge bin header": b"\xc6\xff\xff\xff\xff",
    "huge map header": b"\xdf\xff\xff\xff\xff",
}


@pytest.mark.parametrize("data", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(MalformedMessage):
        decode(data)


def test_non_bytes_are_refused() -> None:
    for data in (None, "text", bytearray(encode(sample())), memoryview(b"")):
        with pytest.raises(MalformedMessage):
            decode(data)


def test_seal_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        seal(ALICE, room="a b", seq=0, prev=genesis(ROOM), kind="mix", body=None)
    with pytest.raises(ValueError):
        seal(ALICE, room=ROOM, seq=-1, prev=genesis(ROOM), kind="mix", body=None)
    with pytest.raises(ValueError):
        seal(ALICE, room=ROOM, seq=0, prev=genesis(ROOM), kind="mix", body=[0.5])


def test_unpack_accepts_plain_data_in_canonical_form() -> None:
    value = {"a": [None, True, -3, 2**40, "é", b"\x00"], "b": {}}
    assert unpack(pack(value)) == value


# -- property tests ----------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=8)
    | st.binary(max_size=8)
)
plain = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(data=st.binary(max_size=600))
@settings(max_examples=300, deadline=None)
def test_random_bytes_are_always_refused_cleanly(data: bytes) -> None:
    with pytest.raises(REJECTIONS):
        decode(data)


@given(body=plain, seq=st.integers(0, 2**63 - 1))
@settings(max_examples=100, deadline=None)
def test_any_plain_body_round_trips(body: Any, seq: int) -> None:
    env = seal(ALICE, room=ROOM, seq=seq, prev=genesis(ROOM), kind="note", body=body)
    assert decode(encode(env)) == env


VALID = encode(sample())


@given(data=st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_envelopes_are_always_refused_cleanly(data: st.DataObject) -> None:
    blob = bytearray(VALID)
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        op = data.draw(st.sampled_from(["flip", "set", "insert", "delete", "cut"]), label="op")
        at = data.draw(st.integers(0, max(len(blob) - 1, 0)), label="at")
        if op == "flip" and blob:
            blob[at] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "set" and blob:
            blob[at] = data.draw(st.integers(0, 255))
        elif op == "insert":
            blob[at:at] = data.draw(st.binary(min_size=1, max_size=8))
        elif op == "delete" and blob:
            del blob[at : at + data.draw(st.integers(1, 8))]
        elif op == "cut":
            del blob[at:]
    mutated = bytes(blob)
    if mutated == VALID:
        return
    with pytest.raises(REJECTIONS):
        decode(mutated)


@given(fields=st.dictionaries(st.sampled_from(FIELDS), plain, min_size=6, max_size=8))
@settings(max_examples=200, deadline=None)
def test_envelope_shaped_junk_is_refused_cleanly(fields: dict[str, Any]) -> None:
    with pytest.raises(REJECTIONS):
        decode(pack(fields))

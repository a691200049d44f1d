"""The Ed25519 group: arithmetic, point checks, hashing, randomness, counting."""

from __future__ import annotations

import collections
import hashlib

import nacl.bindings
import pytest

from cakeparty.protocol import group
from cakeparty.protocol.group import (
    BASE,
    COUNTER,
    IDENTITY,
    ONE,
    ZERO,
    L,
    Point,
    Scalar,
    add,
    card_point,
    hash_to_scalar,
    is_canonical_scalar,
    is_valid_point,
    mul,
    mul_base,
    random_below,
    random_permutation,
    random_scalar,
    random_scalars,
    scalar,
    scalar_add,
    scalar_mul,
    scalar_sub,
    seeded_random_bytes,
    sub,
)

# a point of order 8 and one of order 2·L (base point plus a torsion point)
SMALL_ORDER = Point(
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
)
ORDER_TWO = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")


def test_base_point_is_the_standard_one() -> None:
    assert BASE.hex() == "58" + "66" * 31


def test_scalar_arithmetic_matches_integers(rb: group.RandomBytes) -> None:
    a, b = random_scalar(rb), random_scalar(rb)
    ia, ib = int.from_bytes(a, "little"), int.from_bytes(b, "little")
    assert scalar_add(a, b) == scalar(ia + ib)
    assert scalar_sub(a, b) == scalar(ia - ib)
    assert scalar_mul(a, b) == scalar(ia * ib)
    assert scalar(L) == ZERO and scalar(L + 1) == ONE


def test_multiplication_is_linear(rb: group.RandomBytes) -> None:
    a, b = random_scalar(rb), random_scalar(rb)
    assert mul_base(scalar_add(a, b)) == add(mul_base(a), mul_base(b))
    assert mul(a, mul_base(b)) == mul_base(scalar_mul(a, b)) == mul(b, mul_base(a))
    assert sub(mul_base(a), mul_base(a)) == IDENTITY


def test_identity_and_zero_do_not_crash(rb: group.RandomBytes) -> None:
    p = mul_base(random_scalar(rb))
    assert mul_base(ZERO) == IDENTITY
    assert mul(ZERO, p) == IDENTITY
    assert mul(random_scalar(rb), IDENTITY) == IDENTITY
    assert add(IDENTITY, p) == p
    assert sub(p, IDENTITY) == p


def test_non_canonical_multiple_of_order_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        mul_base(Scalar(L.to_bytes(32, "little")))


def test_point_validation(rb: group.RandomBytes) -> None:
    p = mul_base(random_scalar(rb))
    assert is_valid_point(p)
    assert is_valid_point(BASE)
    assert not is_valid_point(IDENTITY)
    assert not is_valid_point(SMALL_ORDER)
    assert not is_valid_point(ORDER_TWO)
    assert not is_valid_point(add(p, SMALL_ORDER))  # mixed order: outside the subgroup
    assert not is_valid_point(b"\xff" * 32)  # not canonical
    assert not is_valid_point(p[:31])
    assert not is_valid_point(p + b"\x00")
    assert not is_valid_point(p.hex())
    assert not is_valid_point(None)


def test_scalar_canonical() -> None:
    assert is_canonical_scalar(ZERO)
    assert is_canonical_scalar((L - 1).to_bytes(32, "little"))
    assert not is_canonical_scalar(L.to_bytes(32, "little"))
    assert not is_canonical_scalar(b"\x01" * 31)
    assert not is_canonical_scalar(1)


def test_card_points_are_fixed_distinct_and_valid() -> None:
    p = card_point("cake-duel", "cake")
    assert p == card_point("cake-duel", "cake")
    assert is_valid_point(p)
    digest = hashlib.sha256(b"cakeparty/v1/card/cake-duel/cake").digest()
    assert p == nacl.bindings.crypto_core_ed25519_from_uniform(digest)
    assert p != card_point("cake-duel", "cookie")
    assert p != card_point("cake-of-doom", "cake")
    with pytest.raises(ValueError):
        card_point("cake/duel", "cake")


def test_hash_to_scalar_is_domain_and_room_separated() -> None:
    h = hash_to_scalar(b"d", "room", b"ab", b"c")
    assert is_canonical_scalar(h)
    assert h == hash_to_scalar(b"d", "room", b"ab", b"c")
    assert h != hash_to_scalar(b"e", "room", b"ab", b"c")
    assert h != hash_to_scalar(b"d", "other", b"ab", b"c")
    assert h != hash_to_scalar(b"d", "room", b"a", b"bc")  # length prefixes


def test_seeded_random_bytes_is_deterministic_and_stream_like() -> None:
    a, b = seeded_random_bytes(b"s"), seeded_random_bytes(b"s")
    assert a(10) + a(100) + a(1) == b(111)
    assert seeded_random_bytes(b"t")(32) != seeded_random_bytes(b"s")(32)


def test_random_scalars_are_nonzero_even_from_a_zero_source() -> None:
    calls = iter([bytes(64 * 3), bytes(64), bytes(64), b"\x05" * 64, b"\x07" * 64, b"\x09" * 64])
    out = random_scalars(3, lambda n: next(calls)[:n])
    assert len(out) == 3 and ZERO not in out


def test_random_permutation_is_a_permutation_and_unbiased() -> None:
    rb = seeded_random_bytes(b"perm")
    assert sorted(random_permutation(50, rb)) == list(range(50))
    assert random_permutation(0, rb) == () and random_permutation(1, rb) == (0,)
    counts = collections.Counter(random_permutation(3, rb) for _ in range(6000))
    assert len(counts) == 6 and all(800 < c < 1200 for c in counts.values())


def test_random_below() -> None:
    rb = seeded_random_bytes(b"below")
    assert {random_below(3, rb) for _ in range(200)} == {0, 1, 2}
    with pytest.raises(ValueError):
        random_below(0, rb)


def test_counter_counts_multiplications(rb: group.RandomBytes) -> None:
    s = random_scalar(rb)
    before = COUNTER.snapshot()
    p = mul_base(s)
    mul(s, p)
    mul(s, p)
    is_valid_point(p)
    delta = COUNTER.snapshot() - before
    assert (delta.base, delta.var, delta.checks, delta.mults) == (1, 2, 1, 3)

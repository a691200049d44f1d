"""The prime-order subgroup of Ed25519: points, scalars, hashing, randomness.

All arithmetic goes through libsodium (``nacl.bindings``). Points are 32-byte canonical
encodings, scalars 32-byte little-endian integers below the group order ``L``. The group has
prime order, so every non-identity element generates it and discrete logarithms are hard;
that is what every proof in this package rests on.

Two facts about libsodium shape this module:

* ``crypto_scalarmult_ed25519*`` refuse the identity as input or output, and a zero scalar.
  Honest runs meet those only with negligible probability, but a cheater may craft them (a
  zero response in a proof, say), so :func:`mul` and :func:`mul_base` answer them with
  :data:`IDENTITY` themselves instead of raising: a verifier must reach its "reject"
  verdict, never crash.
* ``crypto_core_ed25519_add``/``sub`` do not check their inputs. A point received from a
  peer must therefore pass :func:`is_valid_point` (canonical, on the curve, in the
  prime-order subgroup, not of small order) before it takes part in any computation.
  Points this peer computes itself need no such check, and do not get one: the check costs
  about half a scalar multiplication.

:data:`COUNTER` counts scalar multiplications (and point checks) so benchmarks can relate
running time to the arithmetic done.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import NewType

import nacl.bindings as _nb
import nacl.exceptions

Point = NewType("Point", bytes)
Scalar = NewType("Scalar", bytes)
RandomBytes = Callable[[int], bytes]
"""A source of random bytes, ``os.urandom`` by default; tests pass a seeded one."""

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup (and of every non-identity element in it)."""

POINT_BYTES = 32
SCALAR_BYTES = 32
IDENTITY = Point(b"\x01" + bytes(31))
ZERO = Scalar(bytes(32))
ONE = Scalar((1).to_bytes(32, "little"))
BASE = Point(_nb.crypto_scalarmult_ed25519_base_noclamp(ONE))

CARD_PREFIX = b"cakeparty/v1/card/"

_base_mul = _nb.crypto_scalarmult_ed25519_base_noclamp
_var_mul = _nb.crypto_scalarmult_ed25519_noclamp
_add = _nb.crypto_core_ed25519_add
_sub = _nb.crypto_core_ed25519_sub
_valid = _nb.crypto_core_ed25519_is_valid_point
_reduce = _nb.crypto_core_ed25519_scalar_reduce
_sc_add = _nb.crypto_core_ed25519_scalar_add
_sc_sub = _nb.crypto_core_ed25519_scalar_sub
_sc_mul = _nb.crypto_core_ed25519_scalar_mul


# -- counting ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpCount:
    """A snapshot of :class:`OpCounter`."""

    base: int
    var: int
    checks: int

    @property
    def mults(self) -> int:
        """Scalar multiplications of either kind."""
        return self.base + self.var

    def __sub__(self, other: OpCount) -> OpCount:
        return OpCount(self.base - other.base, self.var - other.var, self.checks - other.checks)


@dataclass
class OpCounter:
    """Running totals of group operations in this process."""

    base: int = 0
    """multiples of the base point (libsodium's fixed-base tables make these ~5× cheaper)"""
    var: int = 0
    """multiples of any other point"""
    checks: int = 0
    """validations of received points"""

    def snapshot(self) -> OpCount:
        """The totals so far."""
        return OpCount(self.base, self.var, self.checks)

    def reset(self) -> None:
        """Start again from zero."""
        self.base = self.var = self.checks = 0


COUNTER = OpCounter()
"""The process-wide counter every operation in this module adds to."""


# -- points ------------------------------------------------------------------------------


def is_valid_point(data: object) -> bool:
    """Is ``data`` the canonical encoding of a point of the prime-order subgroup, other than
    the identity? Anything received must pass this before it is used: small-order and
    mixed-order points would let a cheater learn secret scalars modulo the cofactor or
    make two different encodings act alike."""
    if not isinstance(data, bytes) or len(data) != POINT_BYTES:
        return False
    COUNTER.checks += 1
    return bool(_valid(data))


def add(p: Point, q: Point) -> Point:
    """``p + q``."""
    return Point(_add(p, q))


def sub(p: Point, q: Point) -> Point:
    """``p − q``."""
    return Point(_sub(p, q))


def mul_base(s: Scalar) -> Point:
    """``s·B``; the identity for ``s = 0``."""
    COUNTER.base += 1
    if s == ZERO:
        return IDENTITY
    try:
        return Point(_base_mul(s))
    except nacl.exceptions.CryptoError as exc:  # a malformed or non-canonical scalar
        raise ValueError("not a canonical non-zero scalar") from exc


def mul(s: Scalar, p: Point) -> Point:
    """``s·p`` for a valid point ``p`` or the identity; the identity for ``s = 0``."""
    COUNTER.var += 1
    if s == ZERO or p == IDENTITY:
        return IDENTITY
    try:
        return Point(_var_mul(s, p))
    except nacl.exceptions.CryptoError as exc:  # an unchecked point reached us: a bug
        raise ValueError("not a point of the prime-order subgroup") from exc


def card_point(game: str, card_type: str) -> Point:
    """The point ``M_t`` standing for a card type of a game. Public and the same in every
    room: hiding comes from the encryption, not from the encoding. ``game`` may not contain
    "/", so the hashed string names one (game, card type) pair only."""
    if not game or "/" in game or not card_type:
        raise ValueError(f"bad game or card name: {game!r}, {card_type!r}")
    digest = hashlib.sha256(CARD_PREFIX + game.encode() + b"/" + card_type.encode()).digest()
    return Point(_nb.crypto_core_ed25519_from_uniform(digest))


# -- scalars -----------------------------------------------------------------------------


def is_canonical_scalar(data: object) -> bool:
    """Is ``data`` a 32-byte scalar below ``L``? Received scalars must be: libsodium would
    silently reduce the others, letting a proof be altered without being invalidated."""
    return (
        isinstance(data, bytes) and len(data) == SCALAR_BYTES and int.from_bytes(data, "little") < L
    )


def scalar(n: int) -> Scalar:
    """The scalar ``n mod L``."""
    return Scalar((n % L).to_bytes(32, "little"))


def scalar_add(a: Scalar, b: Scalar) -> Scalar:
    """``a + b mod L``."""
    return Scalar(_sc_add(a, b))


def scalar_sub(a: Scalar, b: Scalar) -> Scalar:
    """``a − b mod L``."""
    return Scalar(_sc_sub(a, b))


def scalar_mul(a: Scalar, b: Scalar) -> Scalar:
    """``a · b mod L``."""
    return Scalar(_sc_mul(a, b))


def random_scalar(random_bytes: RandomBytes = os.urandom) -> Scalar:
    """A uniform non-zero scalar: 64 random bytes reduced mod ``L`` (bias below 2^-250)."""
    while True:
        s = _reduce(random_bytes(64))
        if s != ZERO:
            return Scalar(s)


def random_scalars(n: int, random_bytes: RandomBytes = os.urandom) -> list[Scalar]:
    """``n`` independent :func:`random_scalar` values, drawing the bytes in one go."""
    pool = random_bytes(64 * n)
    out = [Scalar(_reduce(pool[i : i + 64])) for i in range(0, 64 * n, 64)]
    return [s if s != ZERO else random_scalar(random_bytes) for s in out]


# -- hashing -----------------------------------------------------------------------------


def framed(*parts: bytes) -> bytes:
    """Each part prefixed with its length, so no two lists of parts hash alike."""
    return b"".join(len(p).to_bytes(8, "big") + p for p in parts)


def u64(n: int) -> bytes:
    """An unsigned integer as a hash part."""
    return n.to_bytes(8, "big")


def hash_to_scalar(domain: bytes, room: str, *parts: bytes) -> Scalar:
    """``scalar_reduce(SHA-512(domain ‖ room ‖ parts…))``, length-prefixed. The domain and
    the room make a challenge from one proof or one room useless in any other."""
    digest = hashlib.sha512(framed(domain, room.encode(), *parts)).digest()
    return Scalar(_reduce(digest))


# -- randomness --------------------------------------------------------------------------


def random_below(n: int, random_bytes: RandomBytes = os.urandom) -> int:
    """A uniform integer in ``range(n)``, by rejection (no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = 2**64 - (2**64 % n)
    while True:
        x = int.from_bytes(random_bytes(8), "big")
        if x < limit:
            return x % n


def random_permutation(n: int, random_bytes: RandomBytes = os.urandom) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates with unbiased draws)."""
    items = list(range(n))
    pool = random_bytes(8 * n)
    for i in range(n - 1, 0, -1):
        m = i + 1
        x = int.from_bytes(pool[8 * i : 8 * i + 8], "big")
        j = x % m if x < 2**64 - (2**64 % m) else random_below(m, random_bytes)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def seeded_random_bytes(seed: bytes) -> RandomBytes:
    """A deterministic byte stream (SHA-512 in counter mode) for tests and reproducible
    benchmarks. Never use it for real games: anyone who knows the seed knows every key."""
    counter = 0
    buffer = b""

    def draw(n: int) -> bytes:
        nonlocal counter, buffer
        if len(buffer) < n:
            blocks = (n - len(buffer) + 63) // 64
            buffer += b"".join(
                hashlib.sha512(seed + u64(counter + i)).digest() for i in range(blocks)
            )
            counter += blocks
        out, buffer = buffer[:n], buffer[n:]
        return out

    return draw

"""A proof that a mixed deck holds the same cards as its input: the shuffle argument.

A mix (:func:`~cakeparty.protocol.elgamal.mix`) re-encrypts every card and permutes the
deck, ``out[i] = reencrypt(inp[ψ(i)], r̃_i)``. :func:`shuffle` makes a mix and proves it;
:func:`verify_shuffle` checks the proof, knowing nothing of ``ψ`` or ``r̃``.

The proof is the argument of Terelius and Wikström (AFRICACRYPT 2010) in the form of
Verificatum and of Haenni, Locher, Koenig and Dubuis, *Pseudo-code algorithms for
verifiable re-encryption mix-nets* (FC 2017), written additively over the prime-order
subgroup of Ed25519 (order ``L``, base ``B``), made non-interactive with Fiat–Shamir.

**Generators.** ``H_0 … H_{N−1}`` and the chain start ``H_chain`` are
``from_uniform(SHA-512("cakeparty/v1/shuffle/generator" ‖ label)[:32])``: points with no
known discrete logarithm to ``B`` or to each other, the same for everyone, chosen by nobody.
A Pedersen vector commitment ``r·B + Σ m_i·H_i`` is therefore binding under the discrete
logarithm assumption (opening it two ways would give a relation among the generators).

**The argument.** The mixer

1. commits to its permutation column by column: ``c_j = r_j·B + H_{ψ⁻¹(j)}``;
2. derives ``u_1 … u_N`` by hashing the statement and ``c``; with ``u'_i = u_{ψ(i)}``, it
   builds the chain ``ĉ_0 = H_chain``, ``ĉ_i = r̂_i·B + u'_i·ĉ_{i−1}``, so that
   ``ĉ_N = (Π u'_i)·H_chain + r̂·B``;
3. proves in one Sigma protocol knowledge of ``r̄, r̂, r, r̃, r̂_i, u'_i`` with

   * ``Σ c_j − Σ H_j = r̄·B`` — every row of the committed matrix sums to one;
   * ``ĉ_N − (Π u_j)·H_chain = r̂·B`` — the ``u'_i`` have the same product as the ``u_j``;
   * ``Σ u_j·c_j = r·B + Σ u'_i·H_i`` — the ``u'_i`` are the ``u_j`` through the matrix;
   * ``Σ u_j·inp_j = Σ u'_i·out_i − r̃·(B, Y)`` — the outputs, weighted by the same
     ``u'_i``, re-encrypt the weighted inputs;
   * ``ĉ_i = r̂_i·B + u'_i·ĉ_{i−1}`` for each ``i`` — the chain is built from the ``u'_i``.

**Soundness.** If the committed matrix is not a permutation matrix, the first three
relations can hold for the hashed ``u`` only with probability about ``N/L`` (a non-zero
polynomial in ``u`` of degree ``N`` vanishing at a random point, Schwartz–Zippel), or by
breaking the commitment's binding. If it is a permutation ``ψ`` but some ``out_i`` is not
a re-encryption of ``inp_{ψ(i)}``, the fourth relation holds for random ``u`` with
probability at most ``1/L``. The Sigma protocol is special-sound for the challenge ``c``,
a full 252-bit scalar. Both ``u`` and ``c`` are SHA-512 outputs reduced mod ``L`` over
everything the mixer has committed to *before* them — domain, room, the caller's step
``context``, the mixer's seat, the joint key, the whole input and output decks, the
permutation commitments and (for ``c``) the chain and every first message. A forger who
changes any of those to steer the hash gets a fresh, unrelated challenge: each try succeeds
with probability about ``2^-252``, so no amount of offline grinding helps (compare the
cut-and-choose this replaces, whose ``λ`` challenge bits a grinder could steer in ``2^λ``
tries). Overall soundness error is below ``2^-128`` for any deck this package allows.

**Zero knowledge.** The responses are uniform masks (``ω``) minus challenge multiples; the
commitments ``c_j`` and ``ĉ_i`` carry fresh uniform ``B``-components, so they are uniform
points whatever ``ψ`` is. The proof says nothing about the permutation (honest-verifier
zero knowledge of the Sigma protocol, in the random-oracle model).

**Validation.** Every received point is checked — canonical, on the curve, in the
prime-order subgroup, not the identity — by the libsodium multiplication that first uses
it (or explicitly, where its coefficient happens to be zero); every scalar must be
canonical. Anything malformed raises :class:`~cakeparty.protocol.errors.BadMix` naming the
mixer, never another exception.

**Cost** (``N`` cards): proving ~6N variable-base and ~4N fixed-base multiplications,
mixing included; verifying ~8N variable-base and N fixed-base ones, the point checks
included. The cut-and-choose at λ = 32 cost ~32 of each per card on both sides. The
verifier's multiplications are independent of each other, and libsodium runs them without
Python's global lock: a large proof is checked on all the machine's cores at once.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, lru_cache

import nacl.bindings as _nb
import nacl.exceptions

from cakeparty.core.i18n import N_
from cakeparty.protocol.elgamal import Ciphertext, Deck, deck_bytes, random_mix
from cakeparty.protocol.errors import BadMix, ProtocolError
from cakeparty.protocol.group import (
    BASE,
    COUNTER,
    IDENTITY,
    POINT_BYTES,
    L,
    OpCounter,
    Point,
    RandomBytes,
    Scalar,
    framed,
    is_canonical_scalar,
    u64,
)

SHUFFLE_DOMAIN = b"cakeparty/v1/shuffle"
GENERATOR_PREFIX = b"cakeparty/v1/shuffle/generator"

_base_mul = _nb.crypto_scalarmult_ed25519_base_noclamp
_var_mul = _nb.crypto_scalarmult_ed25519_noclamp
_add = _nb.crypto_core_ed25519_add
_valid = _nb.crypto_core_ed25519_is_valid_point
_from_uniform = _nb.crypto_core_ed25519_from_uniform


# -- generators --------------------------------------------------------------------------


def _hash_to_point(label: bytes) -> Point:
    digest = hashlib.sha512(GENERATOR_PREFIX + label).digest()[:32]
    return Point(_from_uniform(digest))


@cache
def generator(index: int) -> Point:
    """``H_index``, the Pedersen generator for position ``index`` of a committed vector."""
    if index < 0:
        raise ValueError("a generator index is not negative")
    return _hash_to_point(b"/" + u64(index))


CHAIN_START = _hash_to_point(b"/chain")
"""``H_chain``, where the commitment chain starts; independent of every ``H_i``."""


@lru_cache(maxsize=64)
def generators(n: int) -> tuple[Point, ...]:
    """``H_0 … H_{n−1}``."""
    return tuple(generator(i) for i in range(n))


@lru_cache(maxsize=64)
def _generator_sum(n: int) -> Point:
    total = IDENTITY
    for h in generators(n):
        total = Point(_add(total, h))
    return total


# -- arithmetic --------------------------------------------------------------------------


class _Malformed(Exception):
    """A received point failed libsodium's checks."""


def _sc(n: int) -> bytes:
    return (n % L).to_bytes(32, "little")


def _int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def _random_ints(n: int, random_bytes: RandomBytes) -> list[int]:
    pool = random_bytes(64 * n)
    return [int.from_bytes(pool[i : i + 64], "little") % L for i in range(0, 64 * n, 64)]


def _mul(s: int, p: bytes, count: _Count | OpCounter = COUNTER) -> bytes:
    """``s·p``, checking ``p`` (canonical, in the subgroup, not the identity) on the way:
    libsodium's multiplication refuses any other point, and a zero multiple gets the same
    check explicitly, so no point escapes validation by a zero coefficient."""
    s %= L
    if s == 0:
        count.checks += 1
        if not _valid(p):
            raise _Malformed
        return IDENTITY
    if p == BASE:
        count.base += 1
        return bytes(_base_mul(_sc(s)))
    count.var += 1
    try:
        return bytes(_var_mul(_sc(s), p))
    except nacl.exceptions.CryptoError as exc:
        raise _Malformed from exc


def _base(s: int) -> bytes:
    s %= L
    COUNTER.base += 1
    return IDENTITY if s == 0 else bytes(_base_mul(_sc(s)))


def _sum(points: Iterable[bytes]) -> bytes:
    total: bytes = IDENTITY
    for p in points:
        total = p if total == IDENTITY else bytes(_add(total, p))
    return total


def _merge(terms: Iterable[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
    """Terms on one point merged: a fresh deck's cards all share ``c1 = B``, and copies
    of a card type share their ``c2``."""
    merged: dict[bytes, int] = {}
    for s, p in terms:
        merged[p] = merged.get(p, 0) + s
    return [(s, p) for p, s in merged.items()]


PARALLEL_MIN = 96
"""Fewer multiplications than this are not worth handing to other threads."""

_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 8))


def _threads() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(_workers(), thread_name_prefix="cakeparty-shuffle")
        return _pool


def _mul_part(jobs: Sequence[tuple[int, bytes]]) -> tuple[list[bytes], list[int]]:
    """The products of one share of the work, and what they cost (the counter is added to
    by the calling thread only)."""
    local = _Count()
    products = [_mul(s, p, local) for s, p in jobs]
    return products, [local.base, local.var, local.checks]


class _Count:
    """Operation counts of one worker's share."""

    __slots__ = ("base", "checks", "var")

    def __init__(self) -> None:
        self.base = self.var = self.checks = 0


def _lincombs(groups: Sequence[Iterable[tuple[int, bytes]]]) -> list[bytes]:
    """``Σ s·p`` for each group of terms, the multiplications of all groups shared among
    the machine's cores; any malformed point raises :class:`_Malformed` as in ``_mul``."""
    merged = [_merge(g) for g in groups]
    jobs = [job for m in merged for job in m]
    workers = _workers()
    if workers < 2 or len(jobs) < PARALLEL_MIN:
        products = [_mul(s, p) for s, p in jobs]
    else:
        size = -(-len(jobs) // workers)
        shares = [jobs[i : i + size] for i in range(0, len(jobs), size)]
        products = []
        for part, (base, var, checks) in _threads().map(_mul_part, shares):
            products += part
            COUNTER.base += base
            COUNTER.var += var
            COUNTER.checks += checks
    sums, k = [], 0
    for m in merged:
        sums.append(_sum(products[k : k + len(m)]))
        k += len(m)
    return sums


# -- hashing -----------------------------------------------------------------------------


def _seed(
    room: str,
    context: bytes,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    commitments: Sequence[bytes],
) -> bytes:
    parts = (room.encode(), context, u64(seat), joint, u64(len(inp)))
    body = (deck_bytes(inp), deck_bytes(out), b"".join(commitments))
    return hashlib.sha512(framed(SHUFFLE_DOMAIN, *parts, *body)).digest()


def _challenges(seed: bytes, n: int) -> list[int]:
    """``u_0 … u_{n−1}``: full-size scalars, each a SHA-512 of the seed and its index."""
    return [_int(hashlib.sha512(framed(seed, b"u", u64(i))).digest()) % L for i in range(n)]


def _challenge(seed: bytes, chain: Sequence[bytes], firsts: Sequence[bytes]) -> int:
    digest = hashlib.sha512(framed(seed, b"c", b"".join(chain), *firsts)).digest()
    return _int(digest) % L


# -- the proof ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    """How a mix was made: the permutation and the re-encryption scalars. Secret to the
    mixer, except a hand's re-mix, whose holder boxes it to the seat sharing the hand."""

    perm: tuple[int, ...]
    scalars: tuple[Scalar, ...]


@dataclass(frozen=True)
class ShuffleProof:
    """A proof of one mix of ``N`` cards: ``4N + 5`` values of 32 bytes."""

    commitments: tuple[Point, ...]
    """``c_j = r_j·B + H_{ψ⁻¹(j)}``, the permutation committed column by column"""
    chain: tuple[Point, ...]
    """``ĉ_1 … ĉ_N``"""
    challenge: Scalar
    """the Fiat–Shamir challenge ``c``"""
    responses: tuple[Scalar, ...]
    """``s_1 … s_4`` for ``r̄, r̂, r, r̃``"""
    chain_responses: tuple[Scalar, ...]
    """``ŝ_i`` for each ``r̂_i``"""
    perm_responses: tuple[Scalar, ...]
    """``s'_i`` for each ``u'_i``"""


def prove_shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    perm: Sequence[int],
    scalars: Sequence[Scalar],
    *,
    context: bytes,
    random_bytes: RandomBytes = os.urandom,
) -> ShuffleProof:
    """Prove ``out == mix(inp, joint, perm, scalars)`` for ``seat`` in ``room``, at the step
    named by ``context``, without revealing ``perm`` or ``scalars``."""
    n = len(inp)
    hs = generators(n)
    inverse = [0] * n
    for i, p in enumerate(perm):
        inverse[p] = i
    r = _random_ints(n, random_bytes)
    commitments = [_sum((_base(r[j]), hs[inverse[j]])) for j in range(n)]
    seed = _seed(room, context, seat, joint, inp, out, commitments)
    u = _challenges(seed, n)
    u_perm = [u[p] for p in perm]

    r_hat = _random_ints(n, random_bytes)
    chain: list[bytes] = []
    previous: bytes = CHAIN_START
    for i in range(n):
        previous = _sum((_base(r_hat[i]), _mul(u_perm[i], previous)))
        chain.append(previous)

    w1, w2, w3, w4 = _random_ints(4, random_bytes)
    w_hat = _random_ints(n, random_bytes)
    w_perm = _random_ints(n, random_bytes)
    re = [_int(s) for s in scalars]
    # Σ ω'_i·out_i, computed from the inputs the outputs re-encrypt (a fresh deck's c1
    # are all B, and so merge into one fixed-base multiplication)
    w_re = sum(w * s for w, s in zip(w_perm, re, strict=True)) - w4
    links = [bytes(CHAIN_START), *chain[:-1]]
    t3, t4a, t4b, *t_hat = _lincombs(
        [
            [(w3, BASE), *zip(w_perm, hs, strict=True)],
            [(w_re, BASE)] + [(w_perm[i], inp[perm[i]].c1) for i in range(n)],
            [(w_re, joint)] + [(w_perm[i], inp[perm[i]].c2) for i in range(n)],
            *([(w_hat[i], BASE), (w_perm[i], links[i])] for i in range(n)),
        ]
    )
    firsts = [_base(w1), _base(w2), t3, t4a, t4b, *t_hat]
    c = _challenge(seed, chain, firsts)

    weights = [1] * n  # v_i = Π_{k>i} u'_k
    for i in range(n - 2, -1, -1):
        weights[i] = weights[i + 1] * u_perm[i + 1] % L
    r_bar = sum(r)
    r_chain = sum(a * b for a, b in zip(r_hat, weights, strict=True))
    r_u = sum(a * b for a, b in zip(r, u, strict=True))
    r_re = sum(a * b for a, b in zip(re, u_perm, strict=True))
    return ShuffleProof(
        commitments=tuple(Point(x) for x in commitments),
        chain=tuple(Point(x) for x in chain),
        challenge=Scalar(_sc(c)),
        responses=tuple(
            Scalar(_sc(w - c * x)) for w, x in ((w1, r_bar), (w2, r_chain), (w3, r_u), (w4, r_re))
        ),
        chain_responses=tuple(Scalar(_sc(w - c * x)) for w, x in zip(w_hat, r_hat, strict=True)),
        perm_responses=tuple(Scalar(_sc(w - c * x)) for w, x in zip(w_perm, u_perm, strict=True)),
    )


def shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    *,
    context: bytes,
    random_bytes: RandomBytes = os.urandom,
) -> tuple[Deck, ShuffleProof]:
    """``seat``'s mix of ``inp``: a freshly re-encrypted, permuted deck and its proof, bound
    to ``room``, the step ``context`` and the joint key."""
    out, perm, scalars = random_mix(inp, joint, random_bytes)
    proof = prove_shuffle(
        room, seat, joint, inp, out, perm, scalars, context=context, random_bytes=random_bytes
    )
    return out, proof


def _is_point_bytes(p: object) -> bool:
    return isinstance(p, bytes) and len(p) == POINT_BYTES


def _shape_error(proof: object, n: int) -> str | None:
    if not isinstance(proof, ShuffleProof):
        return "not a shuffle proof"
    vectors = (proof.commitments, proof.chain, proof.chain_responses, proof.perm_responses)
    if not all(isinstance(v, tuple) and len(v) == n for v in vectors):
        return f"shuffle proof is not for {n} cards"
    if not isinstance(proof.responses, tuple) or len(proof.responses) != 4:
        return "shuffle proof has the wrong number of responses"
    if not all(_is_point_bytes(p) for p in proof.commitments + proof.chain):
        return "shuffle proof holds a malformed point"
    scalars = (proof.challenge, *proof.responses, *proof.chain_responses, *proof.perm_responses)
    if not all(is_canonical_scalar(s) for s in scalars):
        return "shuffle proof holds a non-canonical scalar"
    return None


def verify_shuffle(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    proof: ShuffleProof,
    *,
    context: bytes,
) -> None:
    """Check that ``out`` is a correct mix of ``inp`` by ``seat`` in ``room`` at the step
    ``context``. ``inp`` is the accepted deck and ``joint`` the checked joint key; ``out``
    and ``proof`` are as received. Raises :class:`BadMix` naming ``seat``, and nothing
    else, whatever ``out`` and ``proof`` hold."""
    n = len(inp)
    if not isinstance(out, Sequence) or len(out) != n:
        raise BadMix(f"mixed deck does not have {n} cards", peer=seat)
    if not all(
        isinstance(ct, Ciphertext) and _is_point_bytes(ct.c1) and _is_point_bytes(ct.c2)
        for ct in out
    ):
        raise BadMix(N_("mixed deck holds a malformed card"), peer=seat)
    problem = _shape_error(proof, n)
    if problem is not None:
        raise BadMix(problem, peer=seat)
    try:
        ok = _verify(room, seat, joint, inp, out, proof, context)
    except ProtocolError:
        raise
    except (_Malformed, nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
        raise BadMix(N_("mix or shuffle proof holds an invalid point"), peer=seat) from exc
    if not ok:
        raise BadMix(N_("shuffle proof does not verify"), peer=seat)


def _verify(
    room: str,
    seat: int,
    joint: Point,
    inp: Sequence[Ciphertext],
    out: Sequence[Ciphertext],
    proof: ShuffleProof,
    context: bytes,
) -> bool:
    n = len(inp)
    hs = generators(n)
    commitments, chain = proof.commitments, proof.chain
    seed = _seed(room, context, seat, joint, inp, out, commitments)
    u = _challenges(seed, n)
    c = _int(proof.challenge)
    s1, s2, s3, s4 = (_int(s) for s in proof.responses)
    s_hat = [_int(s) for s in proof.chain_responses]
    s_perm = [_int(s) for s in proof.perm_responses]

    # every received point is first met as a multiplicand, which checks it
    links = [bytes(CHAIN_START), *chain]
    t3, t4a, t4b, *t_hat = _lincombs(
        [
            [(s3, BASE)]
            + [(c * u[j], commitments[j]) for j in range(n)]
            + [(s_perm[i], hs[i]) for i in range(n)],
            [(-s4, BASE)]
            + [(c * u[j], inp[j].c1) for j in range(n)]
            + [(s_perm[i], out[i].c1) for i in range(n)],
            [(-s4, joint)]
            + [(c * u[j], inp[j].c2) for j in range(n)]
            + [(s_perm[i], out[i].c2) for i in range(n)],
            *([(c, links[i + 1]), (s_hat[i], BASE), (s_perm[i], links[i])] for i in range(n)),
        ]
    )
    product = 1
    for x in u:
        product = product * x % L
    # c·(Σ c_j − Σ H_j) and c·(ĉ_N − Π u_j·H_chain), each as one multiplication of a sum
    row_sums = _sum([_sum(commitments), _neg(_generator_sum(n))])
    t1 = _sum((_mul_trusted(c, row_sums), _base(s1)))
    chain_end = _sum((links[-1], _neg(_mul(product, bytes(CHAIN_START)))))
    t2 = _sum((_mul_trusted(c, chain_end), _base(s2)))
    return _challenge(seed, chain, [t1, t2, t3, t4a, t4b, *t_hat]) == c


def _neg(p: bytes) -> bytes:
    return IDENTITY if p == IDENTITY else bytes(_nb.crypto_core_ed25519_sub(IDENTITY, p))


def _mul_trusted(s: int, p: bytes) -> bytes:
    """``s·p`` for a point already checked (or computed here); the identity stays so."""
    return IDENTITY if p == IDENTITY else _mul(s, p)

"""Commit-reveal and fair joint randomness."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cakeparty.protocol.commit import (
    RANDOM_DOMAIN,
    check_reveal,
    commit,
    commit_contribution,
    commitment,
    fair_number,
    joint_seed,
    random_contribution,
)
from cakeparty.protocol.errors import CommitMismatch
from cakeparty.protocol.group import RandomBytes, seeded_random_bytes

from .conftest import ROOM


def test_commit_then_reveal(rb: RandomBytes) -> None:
    digest, nonce = commit(ROOM, 2, b"left", random_bytes=rb)
    assert len(digest) == 32 and len(nonce) == 32
    check_reveal(digest, ROOM, 2, b"left", nonce)
    assert digest == commitment(ROOM, 2, b"left", nonce)


def test_commitment_hides_equal_payloads(rb: RandomBytes) -> None:
    first, _ = commit(ROOM, 2, b"left", random_bytes=rb)
    second, _ = commit(ROOM, 2, b"left", random_bytes=rb)
    assert first != second


@pytest.mark.parametrize(
    "change",
    [
        {"payload": b"right"},
        {"nonce": b"\x00" * 32},
        {"nonce": b"short"},
        {"room": "other-room"},
        {"seat": 1},
        {"domain": b"cakeparty/v1/commit/bid"},
    ],
    ids=["payload", "nonce", "short nonce", "room", "seat", "domain"],
)
def test_mismatched_reveal_names_the_seat(rb: RandomBytes, change: dict[str, object]) -> None:
    digest, nonce = commit(ROOM, 2, b"left", random_bytes=rb)
    args: dict[str, object] = {"room": ROOM, "seat": 2, "payload": b"left", "nonce": nonce}
    args.update(change)
    with pytest.raises(CommitMismatch) as info:
        check_reveal(digest, **args)  # type: ignore[arg-type]
    assert info.value.peer == args["seat"]


def test_a_copied_commitment_cannot_be_opened_by_the_copier(rb: RandomBytes) -> None:
    digest, nonce = commit(ROOM, 0, b"bid 5", random_bytes=rb)
    with pytest.raises(CommitMismatch) as info:
        check_reveal(digest, ROOM, 1, b"bid 5", nonce)  # seat 1 echoed seat 0's commitment
    assert info.value.peer == 1


def _round(rb: RandomBytes, seats: int) -> tuple[dict[int, bytes], dict[int, tuple[bytes, bytes]]]:
    commitments, reveals = {}, {}
    for seat in range(seats):
        contribution = random_contribution(rb)
        commitments[seat], nonce = commit_contribution(ROOM, seat, contribution, random_bytes=rb)
        reveals[seat] = (contribution, nonce)
    return commitments, reveals


def test_joint_seed_round(rb: RandomBytes) -> None:
    commitments, reveals = _round(rb, 4)
    seed = joint_seed(ROOM, commitments, reveals)
    assert len(seed) == 32
    assert seed == joint_seed(ROOM, dict(reversed(commitments.items())), reveals)
    assert seed != joint_seed("other-room", *_round_for_room("other-room", reveals))


def _round_for_room(
    room: str, reveals: dict[int, tuple[bytes, bytes]]
) -> tuple[dict[int, bytes], dict[int, tuple[bytes, bytes]]]:
    commitments = {
        s: commitment(room, s, c, n, domain=RANDOM_DOMAIN) for s, (c, n) in reveals.items()
    }
    return commitments, reveals


def test_joint_seed_names_a_cheating_seat(rb: RandomBytes) -> None:
    commitments, reveals = _round(rb, 4)
    _, nonce = reveals[2]
    reveals[2] = (bytes(32), nonce)  # seat 2 changed its mind after seeing the others
    with pytest.raises(CommitMismatch) as info:
        joint_seed(ROOM, commitments, reveals)
    assert info.value.peer == 2


def test_joint_seed_names_a_missing_or_extra_seat(rb: RandomBytes) -> None:
    commitments, reveals = _round(rb, 3)
    missing = dict(reveals)
    del missing[1]
    with pytest.raises(CommitMismatch) as info:
        joint_seed(ROOM, commitments, missing)
    assert info.value.peer == 1
    extra = {**reveals, 7: reveals[0]}
    with pytest.raises(CommitMismatch) as info:
        joint_seed(ROOM, commitments, extra)
    assert info.value.peer == 7


def test_contribution_of_wrong_length_is_refused(rb: RandomBytes) -> None:
    nonce = rb(32)
    digest = commitment(ROOM, 0, b"short", nonce, domain=RANDOM_DOMAIN)
    with pytest.raises(CommitMismatch):
        joint_seed(ROOM, {0: digest}, {0: (b"short", nonce)})


@given(seed=st.binary(min_size=32, max_size=32), n=st.integers(1, 2**64 - 1), i=st.integers(0, 9))
def test_fair_number_is_in_range_and_deterministic(seed: bytes, n: int, i: int) -> None:
    x = fair_number(seed, n, index=i)
    assert 0 <= x < n
    assert x == fair_number(seed, n, index=i)


def test_fair_number_is_uniform_for_an_awkward_range() -> None:
    rb = seeded_random_bytes(b"fair")
    counts = collections.Counter(fair_number(rb(32), 3) for _ in range(3000))
    assert sorted(counts) == [0, 1, 2]
    assert all(900 < c < 1100 for c in counts.values())


def test_fair_number_indexes_are_independent() -> None:
    seed = bytes(32)
    assert len({fair_number(seed, 2**40, index=i) for i in range(20)}) == 20


def test_fair_number_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError):
        fair_number(bytes(32), 0)

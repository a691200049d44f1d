"""The protocol's error family."""

from __future__ import annotations

import pytest

from cakeparty.protocol.errors import (
    BadBox,
    BadChain,
    BadMix,
    BadProof,
    BadShare,
    BadSignature,
    CommitMismatch,
    MalformedMessage,
    ProtocolError,
    UnknownCard,
)

FAMILY = (
    BadBox,
    BadChain,
    BadMix,
    BadProof,
    BadShare,
    BadSignature,
    CommitMismatch,
    MalformedMessage,
    UnknownCard,
)


@pytest.mark.parametrize("cls", FAMILY, ids=lambda c: c.__name__)
def test_every_error_is_a_protocol_value_error(cls: type[ProtocolError]) -> None:
    err = cls("it went wrong", peer=3, seq=12)
    assert isinstance(err, ProtocolError) and isinstance(err, ValueError)
    assert (err.peer, err.seq, err.reason) == (3, 12, "it went wrong")
    assert str(err) == "seat 3 at #12: it went wrong"


def test_peer_labels() -> None:
    assert str(BadSignature("x", peer=b"\xab" * 32)) == "player " + "ab" * 8 + ": x"
    assert str(MalformedMessage("x")) == "unknown peer: x"


def test_blame_names_a_peer_later() -> None:
    err = UnknownCard("not a card").blame(2, seq=40)
    assert type(err) is UnknownCard
    assert (err.peer, err.seq, err.reason) == (2, 40, "not a card")


def test_a_peer_keeps_its_first_incidents_once_each_and_counts_the_rest() -> None:
    """However many a seated cheat provokes, a peer keeps the first MAX_INCIDENTS (the
    audit names the first seat at fault), each once, its reason cut short."""
    from cakeparty.protocol.errors import MAX_INCIDENTS, MAX_REASON, Incidents

    kept = Incidents()
    for n in range(3 * MAX_INCIDENTS):
        kept.append(BadChain("x" * 10_000 + str(n), peer=n % 3, seq=n))
        kept.append(BadChain("x" * 10_000 + str(n), peer=n % 3, seq=n))  # again: once
    assert len(kept) == MAX_INCIDENTS
    assert [i.seq for i in kept] == list(range(MAX_INCIDENTS))
    assert kept.dropped == 2 * 2 * MAX_INCIDENTS
    assert all(len(i.reason) <= MAX_REASON for i in kept)

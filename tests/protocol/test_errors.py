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

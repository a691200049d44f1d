"""The mental deck: encryption, mixes, decryption shares, the card table."""

from __future__ import annotations

import pytest

from cakeparty.protocol.elgamal import (
    CardTable,
    Ciphertext,
    GameKey,
    deck_bytes,
    decrypt,
    initial_deck,
    joint_key,
    mix,
    random_mix,
    reencrypt,
    unmix,
)
from cakeparty.protocol.errors import ProtocolError, UnknownCard
from cakeparty.protocol.group import BASE, IDENTITY, RandomBytes, add, mul_base, random_scalar

from .conftest import CARDS, Room


def open_card(room: Room, ct: Ciphertext) -> str:
    """Decrypt with every seat's share."""
    return room.table.card_of(decrypt(ct, [k.share(ct.c1) for k in room.keys]))


def test_game_key_public_matches_secret(rb: RandomBytes) -> None:
    key = GameKey.generate(rb)
    assert key.public == mul_base(key.secret)
    assert key.secret.hex() not in repr(key)


def test_joint_key_is_the_sum(room: Room) -> None:
    expected = IDENTITY
    for pk in room.publics:
        expected = add(expected, pk)
    assert room.joint == expected
    assert joint_key([]) == IDENTITY


def test_initial_deck_is_public_and_decrypts(room: Room) -> None:
    assert all(ct.c1 == BASE for ct in room.deck)
    assert room.deck == initial_deck([room.table.point(c) for c in CARDS], room.joint)
    assert [open_card(room, ct) for ct in room.deck] == list(CARDS)


def test_reencryption_keeps_the_card_and_changes_the_bytes(room: Room, rb: RandomBytes) -> None:
    ct = room.deck[2]
    again = reencrypt(ct, random_scalar(rb), room.joint)
    assert again.c1 != ct.c1 and again.c2 != ct.c2
    assert open_card(room, again) == CARDS[2]


def test_mix_permutes_and_unmix_inverts(room: Room, rb: RandomBytes) -> None:
    out, perm, scalars = random_mix(room.deck, room.joint, rb)
    assert [open_card(room, ct) for ct in out] == [CARDS[p] for p in perm]
    assert out == mix(room.deck, room.joint, perm, scalars)
    assert unmix(out, room.joint, perm, scalars) == room.deck
    assert len(deck_bytes(out)) == 64 * len(CARDS)


def test_unmix_rejects_a_non_permutation(room: Room, rb: RandomBytes) -> None:
    _, perm, scalars = random_mix(room.deck, room.joint, rb)
    with pytest.raises(ValueError):
        unmix(room.deck, room.joint, (0,) * len(perm), scalars)


def test_missing_share_does_not_decrypt(room: Room) -> None:
    ct = room.deck[0]
    partial = [k.share(ct.c1) for k in room.keys[1:]]
    with pytest.raises(UnknownCard) as info:
        room.table.card_of(decrypt(ct, partial))
    assert isinstance(info.value, ProtocolError)


def test_card_table_both_ways() -> None:
    table = CardTable.for_game("cake-master", ["a", "b", "a"])
    assert len(table.points) == 2
    assert table.card_of(table.point("b")) == "b"
    with pytest.raises(KeyError):
        table.point("c")

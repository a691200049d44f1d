"""Shared fixtures: a small seeded room with a few seats and a short deck."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cakeparty.protocol.elgamal import CardTable, Deck, GameKey, initial_deck, joint_key
from cakeparty.protocol.group import Point, RandomBytes, seeded_random_bytes
from cakeparty.protocol.proofs import prove_key, verify_key

ROOM = "test-room"
CARDS = ("cake", "cookie", "crumb", "donut", "eclair", "flan")


@dataclass(frozen=True)
class Room:
    """Seats with checked game keys, the joint key and the initial deck."""

    keys: tuple[GameKey, ...]
    publics: tuple[Point, ...]
    joint: Point
    table: CardTable
    deck: Deck


def make_room(seats: int, rb: RandomBytes, cards: tuple[str, ...] = CARDS) -> Room:
    """A room whose seats have published and checked their keys."""
    keys = tuple(GameKey.generate(rb) for _ in range(seats))
    publics = tuple(
        verify_key(ROOM, seat, key.public, prove_key(ROOM, seat, key, rb))
        for seat, key in enumerate(keys)
    )
    joint = joint_key(publics)
    table = CardTable.for_game("cake-duel", cards)
    return Room(keys, publics, joint, table, initial_deck([table.point(c) for c in cards], joint))


@pytest.fixture
def rb(request: pytest.FixtureRequest) -> RandomBytes:
    """A random-byte source seeded by the test's name: reproducible, distinct per test."""
    return seeded_random_bytes(request.node.nodeid.encode())


@pytest.fixture
def room(rb: RandomBytes) -> Room:
    """Three seats and six cards."""
    return make_room(3, rb)

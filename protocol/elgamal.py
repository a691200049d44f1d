"""ElGamal over the Ed25519 group: the mental deck of Barnett and Smart.

A card of type ``t`` is a ciphertext ``(c1, c2)`` with ``c2 − x·c1 = M_t`` where ``x`` is
the sum of every seat's secret key and ``M_t`` the card's point. Because the joint key
``Y = Σ x_i·B`` has no single owner, no coalition short of *all* seats can open a card:
each seat contributes its decryption share ``D_i = x_i·c1`` and ``M_t = c2 − Σ D_i``.

A mix re-encrypts every card with fresh randomness and permutes the deck. Under DDH a
re-encrypted card cannot be linked to the card it came from, so as long as one seat mixed
honestly and kept its permutation secret, nobody knows where any card went.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cakeparty.protocol.errors import UnknownCard
from cakeparty.protocol.group import (
    BASE,
    IDENTITY,
    Point,
    RandomBytes,
    Scalar,
    add,
    card_point,
    mul,
    mul_base,
    random_permutation,
    random_scalar,
    random_scalars,
    sub,
)


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """One facedown card: ``(c1, c2) = (r·B, M + r·Y)`` for some unknown ``r``."""

    c1: Point
    c2: Point

    def to_bytes(self) -> bytes:
        """``c1 ‖ c2``, 64 bytes (what hashes and the wire carry)."""
        return self.c1 + self.c2


Deck = tuple[Ciphertext, ...]


def deck_bytes(deck: Sequence[Ciphertext]) -> bytes:
    """Every card's bytes in order."""
    return b"".join(ct.c1 + ct.c2 for ct in deck)


@dataclass(frozen=True)
class GameKey:
    """A seat's key pair for one game: secret ``x``, public ``PK = x·B``.

    Fresh for each game and published at its end for the audit, so it must never be the
    long-lived identity key."""

    secret: Scalar = field(repr=False)
    public: Point

    @classmethod
    def generate(cls, random_bytes: RandomBytes = os.urandom) -> GameKey:
        """A new random key pair."""
        x = random_scalar(random_bytes)
        return cls(x, mul_base(x))

    def share(self, c1: Point) -> Point:
        """This seat's decryption share ``D = x·c1`` of a card."""
        return mul(self.secret, c1)


def joint_key(publics: Iterable[Point]) -> Point:
    """``Y = Σ PK_i``. Only sound once every ``PK_i`` came with a proof of knowledge of its
    secret: otherwise the last seat could pick ``PK = x·B − Σ others`` and know all of
    ``Y``'s secret alone (a rogue key)."""
    y = IDENTITY
    for pk in publics:
        y = add(y, pk)
    return y


def initial_deck(points: Iterable[Point], joint: Point) -> Deck:
    """The public, unmixed deck: ``(B, M + Y)`` for each card (randomness 1, known to all).
    Every peer computes the same deck, so the first mix has a common starting point."""
    return tuple(Ciphertext(BASE, add(m, joint)) for m in points)


def reencrypt(ct: Ciphertext, s: Scalar, joint: Point) -> Ciphertext:
    """``(c1 + s·B, c2 + s·Y)``: the same card under fresh randomness."""
    return Ciphertext(add(ct.c1, mul_base(s)), add(ct.c2, mul(s, joint)))


def mix(
    deck: Sequence[Ciphertext],
    joint: Point,
    perm: Sequence[int],
    scalars: Sequence[Scalar],
) -> Deck:
    """``out[i] = reencrypt(deck[perm[i]], scalars[i])``."""
    return tuple(reencrypt(deck[p], s, joint) for p, s in zip(perm, scalars, strict=True))


def unmix(
    deck: Sequence[Ciphertext],
    joint: Point,
    perm: Sequence[int],
    scalars: Sequence[Scalar],
) -> Deck:
    """The deck ``src`` with ``mix(src, joint, perm, scalars) == deck`` (the inverse)."""
    src: list[Ciphertext | None] = [None] * len(deck)
    for ct, p, s in zip(deck, perm, scalars, strict=True):
        src[p] = Ciphertext(sub(ct.c1, mul_base(s)), sub(ct.c2, mul(s, joint)))
    if any(ct is None for ct in src):
        raise ValueError("perm is not a permutation")
    return tuple(ct for ct in src if ct is not None)


def random_mix(
    deck: Sequence[Ciphertext], joint: Point, random_bytes: RandomBytes = os.urandom
) -> tuple[Deck, tuple[int, ...], list[Scalar]]:
    """A fresh mix of ``deck``: the new deck, its permutation and re-encryption scalars.
    The permutation and scalars are this seat's secret; they open the shuffle proof."""
    perm = random_permutation(len(deck), random_bytes)
    scalars = random_scalars(len(deck), random_bytes)
    return mix(deck, joint, perm, scalars), perm, scalars


def decrypt(ct: Ciphertext, shares: Iterable[Point]) -> Point:
    """``M = c2 − Σ D_i`` given every seat's (checked) decryption share."""
    m = ct.c2
    for d in shares:
        m = sub(m, d)
    return m


@dataclass(frozen=True)
class CardTable:
    """The card points of one game, both ways round."""

    game: str
    points: Mapping[str, Point]
    cards: Mapping[Point, str]

    @classmethod
    def for_game(cls, game: str, card_types: Iterable[str]) -> CardTable:
        """The table for ``card_types`` (duplicates allowed: copies share a point)."""
        points = {t: card_point(game, t) for t in card_types}
        cards = {p: t for t, p in points.items()}
        if len(cards) != len(points) or IDENTITY in cards:
            raise ValueError("two card types share a point")  # a SHA-256 collision
        return cls(game, points, cards)

    def point(self, card_type: str) -> Point:
        """``M_t`` for a card type."""
        return self.points[card_type]

    def card_of(self, point: Point) -> str:
        """The card type a decrypted point stands for; :class:`UnknownCard` if none."""
        try:
            return self.cards[point]
        except KeyError:
            raise UnknownCard("decrypted point is not a card of " + self.game) from None

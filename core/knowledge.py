"""Who knows which card: the identity of every slot, as far as a state knows it.

A slot is one physical card with a stable id. ``cards[slot]`` is its identity when the
state holding it knows it (``None`` otherwise); ``known_by[slot]`` is a bit mask of the
seats allowed to know it, with :data:`PUBLIC` set when everyone, spectators included, may.
The masks are public facts (they follow from the action history alone), so every peer
holds the same masks even where it holds different identities.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PUBLIC = 1 << 30
EVERYONE = PUBLIC | (PUBLIC - 1)


def mask_of(seats: Iterable[int] | None) -> int:
    """The mask for a tuple of seats, or for everyone when ``None``."""
    if seats is None:
        return EVERYONE
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


@dataclass(frozen=True)
class Knowledge:
    """Identities of slots and who may know them."""

    cards: tuple[str | None, ...]
    known_by: tuple[int, ...]

    @classmethod
    def public(cls, cards: Iterable[str]) -> Knowledge:
        """Every slot face up: the cards as they come out of the box."""
        ident = tuple(cards)
        return cls(ident, (EVERYONE,) * len(ident))

    def __len__(self) -> int:
        return len(self.cards)

    def knows(self, seat: int | None, slot: int) -> bool:
        """May ``seat`` (``None``: a spectator) know ``slot``'s identity?"""
        bit = PUBLIC if seat is None else 1 << seat
        return bool(self.known_by[slot] & bit)

    def card(self, slot: int) -> str | None:
        """The identity of ``slot`` if this state holds it."""
        return self.cards[slot]

    def visible(self, seat: int | None) -> dict[int, str]:
        """Every identity ``seat`` may know and this state holds."""
        bit = PUBLIC if seat is None else 1 << seat
        return {
            slot: card
            for slot, (card, mask) in enumerate(zip(self.cards, self.known_by, strict=True))
            if card is not None and mask & bit
        }

    def reveal(
        self, slots: Iterable[int], cards: Iterable[str | None], to: Iterable[int] | None
    ) -> Knowledge:
        """Record that ``slots`` are now known to ``to``; keep identities given."""
        ident = list(self.cards)
        known = list(self.known_by)
        extra = mask_of(to)
        for slot, card in zip(slots, cards, strict=True):
            known[slot] |= extra
            if card is not None:
                ident[slot] = card
        return Knowledge(tuple(ident), tuple(known))

    def forget(self, slots: Iterable[int]) -> Knowledge:
        """Nobody knows ``slots`` any more (they were shuffled)."""
        ident = list(self.cards)
        known = list(self.known_by)
        for slot in slots:
            ident[slot] = None
            known[slot] = 0
        return Knowledge(tuple(ident), tuple(known))

    def remix(
        self, slots: Iterable[int], cards: Iterable[str | None], to: Iterable[int]
    ) -> Knowledge:
        """``slots`` were re-mixed by their holder: only ``to`` knows them, as ``cards``."""
        slots = tuple(slots)
        return self.forget(slots).reveal(slots, cards, to)

    def restore(self, cards: Iterable[str]) -> Knowledge:
        """Every slot face up again with ``cards`` (the cards sorted back into the box)."""
        return Knowledge.public(cards)

"""The local dealer: knows every card and fulfils requests at once.

It serves solo and hot-seat play, simulations and most tests. It can be given the exact
outcome of each shuffle, re-mix and random draw, so a test can stack the deck, and it records
every shuffle and re-mix, so a duel can be replayed face up afterwards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress

from cakeparty.core.actions import Action, RandomResult, Remixed, Revealed, Shuffled
from cakeparty.core.errors import CakePartyError
from cakeparty.core.knowledge import PUBLIC, Knowledge
from cakeparty.core.requests import Commit, Random, Remix, Request, Reveal, Shuffle


class LocalDealer:
    """A trusted dealer that holds the identity of every slot."""

    def __init__(
        self,
        box: Sequence[str],
        seed: int | None = None,
        *,
        orders: Iterable[Sequence[str] | None] = (),
        randoms: Iterable[int] = (),
        remixes: Iterable[Sequence[str] | None] = (),
    ) -> None:
        """``orders``: for each shuffle in turn, the cards the shuffled slots must hold, in
        the order the request lists the slots (for a deck: top first), or ``None`` for a
        random shuffle. ``randoms``: the results of the first random draws. ``remixes``:
        likewise for each re-mix of a hand in turn."""
        self.truth: list[str] = list(box)
        self.rng = random.Random(seed)
        # re-mixes draw from their own stream, so a seed deals the same decks with or
        # without them
        self.remix_rng = random.Random(None if seed is None else f"remix/{seed}")
        self._orders = iter(orders)
        self._randoms = iter(randoms)
        self._remixes = iter(remixes)
        self.shuffles: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
        self.remixes: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
        self._synced: tuple[tuple[str | None, ...], tuple[int, ...]] | tuple[None, None] = (
            None,
            None,
        )

    def card(self, slot: int) -> str:
        """The identity of ``slot`` now."""
        return self.truth[slot]

    def _sync(self, knowledge: Knowledge) -> None:
        # a card whose identity is public (say, sorted back into the box for a new duel)
        # is what the table says it is; a table that has not changed since the last
        # request (the same tuples) has nothing new to say
        cards, known = knowledge.cards, knowledge.known_by
        if cards is self._synced[0] and known is self._synced[1]:
            return
        self._synced = (cards, known)
        truth = self.truth
        for slot in compress(range(len(cards)), map(PUBLIC.__and__, known)):
            card = cards[slot]
            if card is not None:
                truth[slot] = card

    def fulfil(self, request: Request, knowledge: Knowledge) -> Action:
        """The answer to ``request``."""
        self._sync(knowledge)
        if isinstance(request, Reveal):
            cards = tuple(self.truth[s] for s in request.slots)
            return Revealed(request.slots, cards, request.to)
        if isinstance(request, Shuffle):
            self.shuffles.append(self._permute(request.slots, self._orders, self.rng))
            return Shuffled(request.slots)
        if isinstance(request, Remix):
            slots, cards = self._permute(request.slots, self._remixes, self.remix_rng)
            self.remixes.append((slots, cards))
            return Remixed(request.seat, slots, cards, request.to)
        if isinstance(request, Random):
            value = next(self._randoms, None)
            if value is None:
                value = self.rng.randrange(request.n)
            return RandomResult(request.n, value)
        assert isinstance(request, Commit)
        raise CakePartyError("a commit is answered by the seats' own choices")

    def _permute(
        self,
        slots: tuple[int, ...],
        stacked: Iterator[Sequence[str] | None],
        rng: random.Random,
    ) -> tuple[tuple[int, ...], tuple[str, ...]]:
        cards = [self.truth[s] for s in slots]
        order = next(stacked, None)
        if order is None:
            rng.shuffle(cards)
        else:
            if Counter(order) != Counter(cards):
                raise CakePartyError(
                    f"a stacked order must hold exactly the shuffled cards: {sorted(cards)}"
                )
            cards = list(order)
        for slot, card in zip(slots, cards, strict=True):
            self.truth[slot] = card
        return slots, tuple(cards)

"""A seat's listing of choices answers its length, an index and ``in`` without making
every action, and answers them exactly as the list of every action would."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cake_master import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.bots import random_bot
from cakeparty.core.games.cake_master.legal import Listing


def listings(players: int, seed: int) -> list[tuple[Listing, Listing]]:
    """Along a seeded game, every listing twice over (one to make, one to leave unmade)."""
    m = new_match("cake-master", players=players, seed=seed)
    rng = random.Random(seed)
    out = []
    while m.outcome is None:
        seat = m.to_act[0]
        listing = m.legal_actions(seat)
        assert isinstance(listing, Listing)
        out.append((listing, m.legal_actions(seat)))
        m.apply(random_bot(m.view(seat), rng), seat)
    return out


def strangers(listing: Listing) -> list[object]:
    """Actions near the listed ones that are not listed."""
    hand = sorted({s for a in list(listing)[:40] for s in getattr(a, "slots", ())})
    return [
        PassCards(200, 201),
        Keep(999),
        Exchange((998,)),
        Place((1, 2, 3), (0, 0, 0), (0, 1, 2)),
        Place.of({500: (0, 0), 501: (0, 1), 502: (0, 2)}),
        *(Exchange(tuple(hand[:2])) for _ in [0] if len(hand) >= 2),
        "place 1,2,3 0,0,0 0,1,2",
        None,
    ]


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_listing_answers_as_the_list_of_every_action(players: int) -> None:
    rng = random.Random(players)
    for listing, again in listings(players, seed=players)[::3]:
        made = list(listing)
        assert listing == made and len(again) == len(made)
        for i in [0, len(made) - 1, -1, *(rng.randrange(len(made)) for _ in range(20))]:
            assert again[i] == made[i]
        for action in [made[0], made[-1], *rng.sample(made, min(20, len(made)))]:
            assert action in again
        for action in strangers(listing):
            if action not in made:
                assert action not in again
        with pytest.raises(IndexError):
            again[len(made)]
        assert not again._made  # every answer above came without making the actions


def test_a_changed_listing_is_a_plain_list() -> None:
    listing = next(x for x, _ in listings(2, seed=4) if len(x) > 100)
    first = listing[0]
    listing.remove(first)
    assert first not in listing and len(listing) == len(list(listing))
    listing.append(first)
    assert listing[-1] == first and first in listing
    assert listing[:2] == list(listing)[:2]

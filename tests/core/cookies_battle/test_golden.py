"""Golden games: the same seeds give the same games, move for move.

Each digest is the SHA-256 (first 16 hex digits) of a whole seeded game's history — one
line ``f"{seat} {action!r}\\n"`` per action, dealer answers included — followed by
``repr`` of the outcome. They were recorded from the engine as it stood before its speed
work (branch ``search-base``) with exactly the code of :func:`digest`; a change of
behaviour anywhere in the rules, the views the bots read or the bots changes a digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cookies_battle.bots import normal_bot, random_bot


def digest(players: int, variant: str | None, bots: str, seed: int) -> str:
    """The digest of the game ``seed`` between ``bots`` (one letter per seat: ``r``
    random, ``n`` normal)."""
    options = {} if variant is None else {"variant": variant}
    m = new_match("cookies-battle", players=players, seed=seed, options=options)
    seats = [normal_bot if b == "n" else random_bot for b in bots]
    out = m.play(seats, random.Random(seed))
    h = hashlib.sha256()
    for seat, action in m.history:
        h.update(f"{seat} {action!r}\n".encode())
    h.update(repr(out).encode())
    return h.hexdigest()[:16]


GOLDEN = [
    (2, None, "rr", 0, "114870f67b813959"),
    (2, None, "rr", 1, "89ad5731f4c8fe8c"),
    (2, None, "nn", 5, "d4c2580c7df23d7c"),
    (3, "standard", "rrr", 0, "77e96430528fad21"),
    (3, "standard", "rrr", 1, "5ad7d2b3a1dcdfd6"),
    (3, "standard", "nnn", 5, "8b655c042616ced0"),
    (3, "beginners", "rrr", 0, "2cb0c533c4bbe0fa"),
    (3, "beginners", "rrr", 1, "65711a5cc0a6c330"),
    (4, "standard", "rrrr", 0, "a9e8d87aef2cde9b"),
    (4, "standard", "rrrr", 1, "dd95b08cca6f1c68"),
    (4, "beginners", "rrrr", 0, "f9087ce9361350f2"),
    (4, "beginners", "rrrr", 1, "07a47444658f6fb6"),
    (5, "standard", "rrrrr", 0, "9a0e9feaf6745cd1"),
    (5, "standard", "rrrrr", 1, "c2c105bc84228125"),
    (5, "beginners", "rrrrr", 0, "5f5f118df6ed90ca"),
    (5, "beginners", "rrrrr", 1, "bcfa91e1d53f123f"),
    (6, "standard", "rrrrrr", 0, "96034aef14ee24fa"),
    (6, "standard", "rrrrrr", 1, "66cebc47efff61f6"),
    (6, "beginners", "rrrrrr", 0, "6a8a05fd5c55a2f8"),
    (6, "beginners", "rrrrrr", 1, "97f29dd11af11053"),
    (4, "standard", "nrrr", 2, "c2a03f4be879b716"),
    (5, "beginners", "rnrrn", 3, "9458007c24bdac48"),
    (6, "standard", "rrnrrr", 4, "e067c53f7d1fa159"),
]


@pytest.mark.parametrize(("players", "variant", "bots", "seed", "expected"), GOLDEN)
def test_the_same_seeds_give_the_same_games(
    players: int, variant: str | None, bots: str, seed: int, expected: str
) -> None:
    assert digest(players, variant, bots, seed) == expected

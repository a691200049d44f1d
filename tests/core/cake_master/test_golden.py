"""Golden games: the same seeds give the same games, move for move.

Each case plays one whole seeded game through ``new_match(...).play(...)`` and hashes its
history (``repr`` of every ``(seat, action)`` in order, one per line, then the outcome's
``repr``) with SHA-256. The digests were recorded from the engine as it stood before any
speed work (the ``search-base`` branch) by running this very function and printing
``digest(...)`` for every case; an engine change that alters any shuffle request, reveal,
choice list, bot decision or outcome changes a digest.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cake_master.bots import normal_bot, random_bot

#: (players, seat bots: "r" random, "n" normal, seed) → SHA-256 of the game.
GOLDEN: dict[tuple[int, str, int], str] = {
    (1, "r", 3): "a1f90144feef29baebe02951b24aab3553bf166c35e8a48fc44b4caf9a0b00d9",
    (1, "r", 11): "7169f931194b15d900b6268d6e7abe58ab2f2af2e938033fb0cd8fab1a971768",
    (2, "rr", 3): "df293054b6d54836de14549b4ad87eca0f97c9df18332a204630b2b75c02fd71",
    (2, "rr", 11): "3aee9c0a49e5435cd149a2e777406b45a5fdad51f957aab0fdfd446c4450cab7",
    (3, "rrr", 3): "42cc777290e33eb9abc0e1d43960966d9fb3d36ede1fda0b7b2330d7b4555246",
    (3, "rrr", 11): "cee5d499e98886f62ab643c7739853cac2c1b5fc46a4ab3703379e2cc0ca566c",
    (4, "rrrr", 3): "9cb99603847f1af87d84fb37c1425842fa9525d10e124ce66079fd79f9758444",
    (4, "rrrr", 11): "41528449d5a783aa89a3301b7ab860d5f6b4aca66c5d7a311d7d4b646241ed60",
    (5, "rrrrr", 3): "24d76ca26d5c0dc433c4301ad66ef7fcee763e4510eef963e6d66c56651ec596",
    (5, "rrrrr", 11): "9855ef011a7382455dd79541e77845732156ff2c7f3a9cee3daf1036c9024fc6",
    (6, "rrrrrr", 3): "2c9cda0f03c3319842037e323d13f912dc38d1ca90c1c6b6598c8c4d02b84b3e",
    (6, "rrrrrr", 11): "fe4fee2b34761f244f8355add5d4931bcec18454b3469d53108299ad50f344b1",
    (1, "n", 7): "c966566992c6fe86e030100568255daad035a4b3f32a28a772a59b931fb21a36",
    (2, "nn", 7): "0f77bd696f1e03af793e59bb7466d1cab3bfafb14ec0eb9ef440851dfc2a0a3b",
    (3, "nnn", 7): "ccbff100601dcb0f755917ca9090dc8131a32e54ec783cd443fc58eb8cd02bd9",
    (4, "nrnr", 7): "7a6f8473cd6eb3027ad7f329ba0537135a0a25588bd3cfdcf2de31a39b7c7f62",
    (5, "nrrrr", 7): "92d9ee2b3387db9e8d879bffaefc5d40fe6739521d065ea47790e74e26eb6e08",
    (6, "rrrnrr", 7): "93f4ee8d4d302aab43a9893369fc174da0a8975400ab03d21fa04964cd5c4214",
}


def digest(players: int, bots: str, seed: int) -> str:
    """The SHA-256 of one seeded game's history and outcome."""
    chosen = [normal_bot if b == "n" else random_bot for b in bots]
    match = new_match("cake-master", players=players, seed=seed)
    result = match.play(chosen, random.Random(seed))
    lines = [repr(entry) for entry in match.history]
    lines.append(repr(result))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


@pytest.mark.parametrize(("players", "bots", "seed"), sorted(GOLDEN))
def test_the_same_seed_gives_the_same_game(players: int, bots: str, seed: int) -> None:
    assert digest(players, bots, seed) == GOLDEN[players, bots, seed]

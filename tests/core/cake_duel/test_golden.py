"""Golden games: the same seeds give the same duels, move for move.

Each case plays one whole seeded duel through ``new_match(...).play(...)`` and digests its
history: SHA-256 over the JSON of ``[seat, to_data(action)]`` per action (the actions'
stable wire form, ``separators=(",", ":")``), followed by the outcome's winners, reason
and scores. The digests were recorded from the engine as it stood before its speed work
(branch ``search-base``) by running this file's ``digest`` over every case and pasting the
results; any change to what the engine does with a seed shows up here.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.actions import to_data

# (players, options, bots, seed) -> digest
CASES: list[tuple[int, dict[str, bool], str, int, str]] = [
    (
        2,
        {"full": True},
        "random",
        1,
        "5a89aa49a265ac52492ec764d599f92fc408484caecebd3b9883f0758bd0121f",
    ),
    (
        2,
        {"full": True},
        "random",
        2,
        "7c8c024184ad009e63635b8a9d0213045d0a2d4020b53c3aa2cb1ccf20886200",
    ),
    (
        2,
        {"full": True},
        "normal",
        3,
        "bbb984cce70d1493ba1fa58895edc776deda71fbad9081288f5486012600753c",
    ),
    (
        2,
        {"full": True},
        "normal",
        4,
        "a601e13fe6dfd147d5dd4b89a12bd8d2e6841de78e8d63ef387362c594661d7b",
    ),
    (
        2,
        {"full": False},
        "random",
        5,
        "e39d47092fe37c475b3672c877ff6f330cae105e5669991e2552fb08ad348520",
    ),
    (
        2,
        {"full": False},
        "normal",
        6,
        "2665ffa6ddc8faa893d679347d9c0695510e442d43d743fdcf7135b0667f8228",
    ),
    (
        2,
        {"full": True, "show_specials": True},
        "random",
        7,
        "eb1496b13e651ff18646dc98856da0290a876cddc3b65c5507d072d5c40a354c",
    ),
    (
        2,
        {"full": True, "show_specials": True},
        "normal",
        8,
        "b7cd4d4dce1cd5874ff1b86a44584fa301e79cb4fd93e0d5e6de02af1f7d0c9a",
    ),
    (
        2,
        {"full": True, "tournament": True},
        "random",
        9,
        "c817756084226772e879281b8f66943060c6772c6204073e460223b932b57069",
    ),
    (
        2,
        {"full": True, "tournament": True},
        "normal",
        10,
        "c5504bb3c47b728575df39aaf606b42890a534e2864008ae36106cfadfc1829e",
    ),
    (
        2,
        {"full": False, "tournament": True},
        "mixed",
        11,
        "0b80abe61e440a69a7b435d4701b1fb3137ade5298d1096b8120d717961f7a6d",
    ),
    (
        2,
        {"full": True},
        "mixed",
        12,
        "c4bc1807c331e203022020a877986640f9a0ebd322015e6c35574bd84a24a786",
    ),
    (
        4,
        {"full": True},
        "random",
        13,
        "c377abbde35d2c5b8ed8b28c152d920bae66ab0fcdfa8680b80d6e5756f1926c",
    ),
    (
        4,
        {"full": True},
        "random",
        14,
        "5417811c890ae43308143ed8fe75c38e3173b10b46348148456200ec7e2e06c9",
    ),
    (
        4,
        {"full": True},
        "normal",
        15,
        "09dbd5b47c2912a71a2769caa76fd98823cb1fde179ec12857fa1e2ee8fcee2b",
    ),
    (
        4,
        {"full": True},
        "normal",
        16,
        "b5d1589e60472e69bdb3d1da187de2ab771e10f172b2eb75611314a58ad4af1d",
    ),
    (
        4,
        {"full": False},
        "random",
        17,
        "d1e3034454fb534bb7f5fb71ed09ed4c5349b79c0171819f7d075e776ea0e1a3",
    ),
    (
        4,
        {"full": False},
        "normal",
        18,
        "6e743b296a6ae3892e532be0c6a556194ccf65c00c476ec8fd5401ba29ff5dc1",
    ),
    (
        4,
        {"full": True, "show_specials": True},
        "mixed",
        19,
        "2b5b6a341bfb0da83bf200b00e8402ecc0d2f97606f58c66b2ede65d6fc27448",
    ),
    (
        4,
        {"full": True, "tournament": True},
        "random",
        20,
        "8412efbbc815ca48eb218a6417c2d83b47ea257d0be9bde6db69819602a7a2e0",
    ),
    (
        4,
        {"full": True, "tournament": True},
        "normal",
        21,
        "4507ae588cf9df0099833187d6f52dddb224019db88a69b230a07175c8330ef5",
    ),
    (
        4,
        {"full": False, "tournament": True},
        "mixed",
        22,
        "5b0b52e366a8be1fe6fb8ed981251c58a70ba526e181b8dba0dd1740482f357b",
    ),
]


def digest(players: int, options: dict[str, bool], bots: str, seed: int) -> str:
    """The digest of one seeded duel's history and outcome."""
    spec = get_game("cake-duel")
    if bots == "mixed":
        seats = [spec.bots["normal" if s % 2 == 0 else "random"] for s in range(players)]
    else:
        seats = [spec.bots[bots]] * players
    m = new_match("cake-duel", players=players, seed=seed, options=options)
    outcome = m.play(seats, random.Random(seed))
    h = hashlib.sha256()
    for seat, action in m.history:
        h.update(json.dumps([seat, to_data(action)], separators=(",", ":")).encode())
        h.update(b"\n")
    h.update(json.dumps([outcome.winners, outcome.reason, outcome.scores]).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("players", "options", "bots", "seed", "expected"), CASES)
def test_same_seed_same_duel(
    players: int, options: dict[str, bool], bots: str, seed: int, expected: str
) -> None:
    assert digest(players, options, bots, seed) == expected

"""Golden games: the same seeds give the same games, move for move.

Each case plays one whole seeded game through ``new_match(...).play(...)`` and compares a
SHA-256 digest of its history with the digest recorded from the engine as it stood before
its speed work (commit d81cb08 on ``search-base``), produced by this very function
(:func:`digest`): one line per history entry, the JSON of ``[seat, to_data(action)]``
(the action's stable wire form), then the JSON of the outcome. A change in any deal, any
move a bot chose, any request the engine made or the result breaks it.

A discard of the turn player's own accord (one card a move, any time of its turn) came
later: the random bots here choose among every other move, as the random bot did then, so
the digests still prove the rest of the engine unchanged; the normal bot never makes it.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.actions import Action, to_data
from cakeparty.core.games.cake_of_doom.actions import Discard
from cakeparty.core.games.cake_of_doom.state import DoomState, Phase
from tests.core.cake_of_doom.helpers import VARIANTS

# (variant, players, bots, seed, digest)
GOLDEN = [
    ("basic", 3, "random", 103, "385e77c4be9e2cd596d34dc40ea23d19eb8d83de391a01d3571b9732e0698ece"),
    ("basic", 4, "random", 104, "abe49f3ffaf305dac328bab145674a5ac93e32a32307fb79202ba99f66172c4a"),
    ("basic", 5, "random", 105, "a85cdf0a77a980c9d7aa2a9d36c1a6b931ae3182ad9f4c34cdfee9ab293f8ab4"),
    ("basic", 6, "random", 106, "67fdbfc5320fa728dd313acb8083f53254038a19856e3f7a0c9c9a4743970177"),
    (
        "advanced",
        3,
        "random",
        113,
        "8fb2b6985acb0854b1d5ef5e76768ea99898daa551cbe2453b7c8ce5a71d817f",
    ),
    (
        "advanced",
        4,
        "random",
        114,
        "01010e091d8cc149e3889cb455a36cb252009b8a3c6f6e47dcdf84d06906f912",
    ),
    (
        "advanced",
        5,
        "random",
        115,
        "70f5d8b4066c9b957718c2346614a018dc1b67cb8f2e581ca29ab9e7b8b16330",
    ),
    (
        "advanced",
        6,
        "random",
        116,
        "fbea608fd11f8d284b4ff103b7eb4e209c342cf84a14c0ea92ef761b05e950db",
    ),
    ("blind", 3, "random", 123, "8e2477d4749a03fd2ed13e0807a56b393fc61f2b090396e94ba164030943ea66"),
    ("blind", 4, "random", 124, "8b2ba011e9df490183c95d620249d57c9a7891c3b28e7cde5ddca79616f1a7da"),
    ("blind", 5, "random", 125, "ec8d57106adc94138ab50806537d9dd678ecd9250cdd3c3c1fc3f33f334f480d"),
    ("blind", 6, "random", 126, "06307114b69278b7caeafb6bb9c25b24247500f015b7688e3d13f9bda83adc42"),
    (
        "advanced-blind",
        3,
        "random",
        133,
        "78b03eddbcb407c16c155d0c48dcef7d5bfd59494840c52fba025064f85739ce",
    ),
    (
        "advanced-blind",
        4,
        "random",
        134,
        "e5ec866016e5e5e133b904bf52b974ddee41ae3b69b5683f4ddb43756f361e78",
    ),
    (
        "advanced-blind",
        5,
        "random",
        135,
        "cb5e1e216674a0a520ad0f5ab3b4d0a0fd048967daae46773cdf60fc1c14a371",
    ),
    (
        "advanced-blind",
        6,
        "random",
        136,
        "98713e0c2134196603e6784d350a50c4209d3198729eba3ab94b763d71a53986",
    ),
    ("basic", 3, "normal", 200, "02a46f8943c987333e06b5d2f2cd85b196f6e1efbaaadb2653202e84a731541b"),
    (
        "advanced",
        4,
        "normal",
        201,
        "dc94d2547303d524ab5cfba8685c04b829b4a2ea0b9074276e8f832f43386482",
    ),
    ("blind", 5, "normal", 202, "f7aeaa7f2d76b99bb6181b3df73848fbf0f736ae0ecf47df9763774f4ed1c8ab"),
    (
        "advanced-blind",
        6,
        "normal",
        203,
        "ca88bbc25d4b1871a3515bd03e18bb15184cb7a0b81962a8bb3807e37a2a205f",
    ),
]


def random_as_before(view: Any, rng: random.Random) -> Action:
    """The random bot, choosing among every move but a discard of the turn's own accord."""
    legal = view.legal
    if view.phase is Phase.PLAY:
        legal = [a for a in legal if not isinstance(a, Discard)]
    choice: Action = rng.choice(legal)
    return choice


def digest(variant: str, players: int, bots: str, seed: int) -> str:
    """The SHA-256 of one seeded game's history and outcome."""
    game = get_game("cake-of-doom")
    match = new_match("cake-of-doom", players=players, seed=seed, options=VARIANTS[variant])
    bot = random_as_before if bots == "random" else game.bots[bots]
    result = match.play([bot] * players, random.Random(seed))
    h = hashlib.sha256()
    for seat, action in match.history:
        h.update(json.dumps([seat, to_data(action)], separators=(",", ":")).encode() + b"\n")
    ending = [list(result.winners), result.reason, list(result.scores), result.shared]
    h.update(json.dumps(ending, separators=(",", ":")).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("variant", "players", "bots", "seed", "expected"), GOLDEN)
def test_a_seeded_game_is_played_as_before(
    variant: str, players: int, bots: str, seed: int, expected: str
) -> None:
    assert digest(variant, players, bots, seed) == expected


def test_states_kept_by_callers_stay_as_they_were() -> None:
    """``apply`` works on a private copy: every state handed out keeps its fields, and is
    a plain :class:`DoomState`."""
    game = get_game("cake-of-doom")
    match = new_match("cake-of-doom", players=4, seed=9, options={"blind": True})
    kept: list[tuple[DoomState, dict[str, object]]] = []
    bot = game.bots["random"]
    rng = random.Random(9)
    while match.outcome is None:
        kept.append((match.state, dict(vars(match.state))))
        seat = match.to_act[0]
        match.apply(bot(match.view(seat), rng), seat)
    assert len(kept) > 100
    for state, fields in kept:
        assert type(state) is DoomState
        assert vars(state) == fields

"""What the strong bot's search needs of Cake Master: where a walk can be judged, which
placements are worth searching, and a quick policy for the rest of a walk.

Every round reshuffles all the cake cards and draws new customers, so once a round is
scored the game ahead depends on the stars alone. A walk therefore stops at the end of the
round it began in, and each seat's chance to win is read off the stars: a seat ahead by
one star per round still to play is well placed, not safe (a round moves the stars by up
to two for taste and one per customer).

A placement offers up to 5,295 choices, too many for a search of a few dozen walks to
tell apart: the search weighs the few the normal bot rates best (:data:`PLACES`). Walks
place cards greedily, one card at a time on the quarter where it adds most, which takes a
tenth of the normal bot's weighing of every placement.

Every move searched is walked in each world drawn, with the same deals and the same
choices of the others (a paired search): whether a card kept or a placement is better
shows walk for walk, which the luck of the deals would drown in a few dozen walks. Over
60 games (seed 3, 0.1 s a decision) the paired search won 40 against the normal bot's
18; walked one move per world, 33 against 27.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.actions import Place
from cakeparty.core.games.cake_master.bots import TASTE_WEIGHT, best_places, normal_bot
from cakeparty.core.games.cake_master.judge import chances, expected_taste, weighed
from cakeparty.core.games.cake_master.scoring import Cake
from cakeparty.core.games.cake_master.state import ROUNDS, MasterState, Phase
from cakeparty.core.games.cake_master.view import MasterView

#: How many placements a search weighs (the normal bot's best).
PLACES = 6
#: The search's settings (:class:`cakeparty.core.search.Budget`): paired walks, and at
#: least this many worlds before a move replaces the normal bot's.
SETTINGS: Mapping[str, Any] = {"paired": True, "least": 3}

#: How far one round moves a seat's stars against another's, as a spread for the chance.
ROUND_SPREAD = 1.3
#: A tie is broken by the last round's taste: each taste point is worth this share of a star.
TASTE_TIE = 0.05


def win_chances(stars: Sequence[int], taste: Sequence[int], rounds_left: int) -> list[float]:
    """Each seat's chance to win, from its stars (and the last round's taste, which breaks
    a tie) with ``rounds_left`` rounds still to play: a softmax whose temperature grows with
    the rounds left; with none left, the leader wins (a tie is shared)."""
    points = [s + TASTE_TIE * t for s, t in zip(stars, taste, strict=True)]
    if rounds_left <= 0:
        top = max(points)
        leaders = [i for i, p in enumerate(points) if p == top]
        return [1.0 / len(leaders) if i in leaders else 0.0 for i in range(len(points))]
    spread = ROUND_SPREAD * math.sqrt(rounds_left)
    top = max(points)
    weights = [math.exp((p - top) / spread) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


def cutoff(start: MasterState, state: MasterState) -> list[float] | None:
    """Each seat's chance to win once the round a walk began in is scored (``None`` before,
    and always in the solo game, which has nobody to beat)."""
    if state.round == start.round or state.options.solo or not state.results:
        return None
    # ``round`` is the round under way: the one just started is still to play
    return win_chances(state.stars, state.last_taste, ROUNDS - state.round + 1)


def search_moves(view: MasterView) -> list[Action] | None:
    """The placements worth searching (the normal bot's best :data:`PLACES`); ``None``
    for every other decision, whose few choices are all searched, and in the solo game."""
    if view.phase is not Phase.PLACE or view.options.solo or len(view.legal) <= PLACES:
        return None
    return best_places(view, PLACES)


def rollout_bot(view: MasterView, rng: random.Random) -> Action:
    """The normal bot, but placing its cards greedily, one at a time where it adds most."""
    if view.phase is not Phase.PLACE or view.options.solo or len(view.legal) == 1:
        return normal_bot(view, rng)
    assert view.seat is not None
    names = {slot: view.card(slot) for slot in view.hand}
    cakes = [list(cake) for cake in view.seat_cakes(view.seat)]
    customers = view.customer_names
    parts: dict[Cake, tuple[float, tuple[float, ...]]] = {}

    def part(cake: list[str | None]) -> tuple[float, tuple[float, ...]]:
        key = tuple(cake)
        got = parts.get(key)
        if got is None:
            got = parts[key] = (expected_taste(key), chances(key, customers))
        return got

    left = sorted(view.hand)
    placed: dict[int, tuple[int, int]] = {}
    while left:
        best: tuple[float, int, int, int] | None = None
        now = [part(cake) for cake in cakes]
        for slot in left:
            for c, cake in enumerate(cakes):
                for q, quarter in enumerate(cake):
                    if quarter is not None:
                        continue
                    cake[q] = names[slot]
                    rows = [now[0], now[1], now[2]]
                    rows[c] = part(cake)
                    cake[q] = None
                    score = weighed(TASTE_WEIGHT, [r[0] for r in rows], tuple(r[1] for r in rows))
                    if best is None or score > best[0]:
                        best = (score, slot, c, q)
        assert best is not None
        _, slot, c, q = best
        cakes[c][q] = names[slot]
        placed[slot] = (c, q)
        left.remove(slot)
    slots = tuple(sorted(placed))
    action = Place(slots, tuple(placed[s][0] for s in slots), tuple(placed[s][1] for s in slots))
    return action if action in view.legal else normal_bot(view, rng)


def search_settings(view: MasterView) -> Mapping[str, Any]:
    """The paired search (:data:`SETTINGS`), in every game but the solo one."""
    return {} if view.options.solo else SETTINGS

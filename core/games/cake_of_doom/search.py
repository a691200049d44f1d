"""What the strong bot's search needs from Cake of Doom: a judgement of a position, where a
walk may stop to be judged, and the settings of its search.

* **Features.** Each seat is described by a few numbers read from a complete world: the
  regions it holds and the value lying on them, whether DOOM is open to it and how much of
  the 7 its cake cards reach, its cake and mischief cards, its Force Fields and sabotage
  cards, and how soon its next turn comes.
* **Judgement.** :func:`evaluate` turns the features into each seat's chance to win with
  a conditional logit (weights fitted on games between normal bots, at the start of
  turns): the chances sum to 1.
* **Cut-off.** A walk is judged at the start of the turn after the one it began in
  (nothing is half done then: the bribe has resolved, the cards are drawn), unless the
  game ended first. Judged a turn ahead, a walk takes a few milliseconds: the search makes
  about a hundred of them in 0.1 s, where a walk played to the end took a fifth of a
  second. Two turns ahead made a third as many walks and won fewer games.
* **Moves.** A discard of the seat's own accord, one card at a time, is left out of the
  search (:func:`search_moves`): the normal bot never makes it, and the walks, judged a
  turn ahead, would spend their time on every card of the hand.
* **Settings.** A walk judged this way is far less noisy than a game played out, so
  another move than the normal bot's needs a smaller lead (``confidence``) to replace it,
  after a few more walks (``least``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_of_doom.actions import Discard
from cakeparty.core.games.cake_of_doom.cards import (
    DOOM_MINIMUM,
    DOOM_REGIONS,
    FORCE_FIELD,
    ROUNDS,
    SABOTAGES,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.rules import units
from cakeparty.core.games.cake_of_doom.state import DoomState, Phase

#: the names of the features of one seat, in order
FEATURES = (
    "regions",
    "one_region",
    "open",
    "guard",
    "cakes",
    "doom_reach",
    "open_reach",
    "doom_ready",
    "mischief",
    "shields",
    "open_shields",
    "bite",
    "soon",
    "open_soon",
    "ready_soon",
    "regions_late",
    "cakes_late",
)


def features(state: DoomState, seat: int) -> list[float]:
    """The features of ``seat`` in the complete world ``state``, named by :data:`FEATURES`."""
    names = state.knowledge.cards
    mine = [r for r in state.regions if r.holder == seat]
    held = len(mine)
    guard = sum(r.value for r in mine) / 10.0
    alien = state.aliens[seat] if state.aliens else None
    favourite = state.favourite
    count = reach = mischief = shields = bite = 0
    for slot in state.hands[seat]:
        name = names[slot]
        if is_cake_slot(slot):
            count += 1
            reach += units(name, favourite, alien) if name is not None else 1
        else:
            mischief += 1
            if name is None:
                continue
            sort = card(name).sort
            if sort == FORCE_FIELD:
                shields += 1
            elif sort in SABOTAGES:
                fixed = SABOTAGES[sort]
                bite += 3 if fixed is None else fixed
    opened = 1.0 if held >= DOOM_REGIONS else 0.0
    share = min(reach, DOOM_MINIMUM) / DOOM_MINIMUM
    ready = opened * (1.0 if reach >= DOOM_MINIMUM else 0.0)
    late = max(0, state.round - 1) / (ROUNDS - 1)
    soon = ((seat - state.current) % state.players) / state.players
    cakes = count / 10.0
    return [
        float(held),
        1.0 if held == 1 else 0.0,
        opened,
        guard,
        cakes,
        share,
        opened * share,
        ready,
        mischief / 10.0,
        float(shields),
        opened * shields,
        bite / 5.0,
        soon,
        opened * soon,
        ready * soon,
        held * late,
        cakes * late,
    ]


#: the weights of :data:`FEATURES` in rounds 1–3, 4–6 and 7–10: a conditional logit
#: fitted, for each of these stretches, on the winners of 1,500 four-player games of
#: normal bots, from the start of every turn
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (
        -0.295,
        -0.096,
        -0.094,
        1.456,
        -1.415,
        2.329,
        0.004,
        0.021,
        0.496,
        -0.094,
        0.24,
        -0.19,
        -0.123,
        -0.134,
        0.011,
        -0.05,
        -0.221,
    ),
    (
        -0.682,
        0.036,
        0.226,
        2.35,
        -0.693,
        2.05,
        -0.089,
        0.599,
        0.436,
        0.083,
        0.14,
        -0.015,
        -0.461,
        -0.375,
        -0.139,
        -0.55,
        -0.261,
    ),
    (
        -1.197,
        -0.189,
        -0.352,
        3.175,
        0.88,
        0.677,
        -0.407,
        0.632,
        0.697,
        -0.052,
        0.221,
        -0.172,
        -0.648,
        -0.264,
        -0.116,
        0.292,
        0.635,
    ),
)


def weights_of(round_: int) -> tuple[float, ...]:
    """The weights of the features in round ``round_``."""
    return WEIGHTS[0] if round_ <= 3 else WEIGHTS[1] if round_ <= 6 else WEIGHTS[2]


def evaluate(state: DoomState, weights: Sequence[float] | None = None) -> list[float]:
    """Each seat's chance to win from ``state`` (a complete world), summing to 1."""
    if weights is None:
        weights = weights_of(state.round)
    scores = [
        sum(w * f for w, f in zip(weights, features(state, s), strict=True))
        for s in range(state.players)
    ]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


#: turns a walk plays past the one it began in before it is judged
HORIZON = 1


def cutoff(start: DoomState, state: DoomState, horizon: int = HORIZON) -> list[float] | None:
    """Each seat's chance to win once ``state`` is the start of a turn ``horizon`` turns
    after ``start``'s; ``None`` before (the game's end is judged by the search itself)."""
    if state.turn < start.turn + horizon or state.phase is not Phase.PLAY:
        return None
    return evaluate(state)


#: the search settings of every decision (fields of the search's budget): a lead of 0.15
#: of the noise bound, after 4 walks
SETTINGS: dict[str, Any] = {"confidence": 0.15, "least": 4}


def settings(view: Any) -> dict[str, Any]:
    """The search's settings for the decision of ``view``."""
    return dict(SETTINGS)


def search_moves(view: Any) -> list[Action] | None:
    """The turn's moves but a discard of the seat's own accord; ``None`` (every legal move)
    in any other step, or where no such discard is offered."""
    if view.phase is not Phase.PLAY:
        return None
    moves = [a for a in view.legal if not isinstance(a, Discard)]
    return moves if len(moves) < len(view.legal) else None

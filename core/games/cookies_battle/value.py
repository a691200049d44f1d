"""A learned judgement of a Cookies Battle table: each seat's chance of the winning place.

The strong bot's search ends its walks at the end of a trick and asks how likely each seat
is to win from there. This module answers with a small network fitted on games of normal
bots (``bench/fit_cookies.py``, which writes :mod:`.weights`): each seat's table is read
as a row of numbers (:func:`features`), the network gives each row a score, and the
chances are the scores' softmax over the seats.

What a row holds, for one seat of a table where every held item is named (a world of the
search, or a local game): its lead in points (pieces by the optimal assembly, plus 2 a
marker) over each other seat, from the highest to the lowest, in three scales (against
the spread of the pieces still to come, bounded, and plain); its markers, by kind; the
power of its hand against the table's; the pieces still to be won, this round and in
all; the pieces it holds, its rotten ones, and how far each kind is from a whole cookie;
whether it leads the next trick; what the pieces left in the pile are worth.

Pure: no I/O; the weights are plain numbers in :mod:`.weights`.
"""

from __future__ import annotations

import math
from operator import mul

from cakeparty.core.games.cookies_battle import weights
from cakeparty.core.games.cookies_battle.bots import power
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    MARKER_POINTS,
    PIECE_KINDS,
    ROUNDS,
    cards,
    marker_kind,
    markers,
    piece_kind,
    pieces,
)
from cakeparty.core.games.cookies_battle.judge import KIND_INDEX, count_score
from cakeparty.core.games.cookies_battle.state import CookiesState

#: the kind index of every piece name, looked up once
_KIND: dict[str, int] = {name: KIND_INDEX[piece_kind(name)] for name in pieces()}
#: the pieces of each kind in the box, by kind index
_BOX = tuple(PIECE_KINDS[kind][0] for kind in KIND_INDEX)
#: the points of one piece of each kind, by kind index
_POINTS = tuple(PIECE_KINDS[kind][1] for kind in KIND_INDEX)
#: the power of every card for taking tricks, looked up once
_POWER: dict[str, float] = {name: power(name, False) for name in cards("standard")}
#: the marker kinds a row counts, in its order (the two breezes as one)
MARKER_FEATURES = ("theft", "puppet", "swap", "breeze", "defense")
_MARKER: dict[str, int] = {
    name: MARKER_FEATURES.index("breeze" if "breeze" in marker_kind(name) else marker_kind(name))
    for name in markers()
}
#: a rotten piece's worth in the pile's mean worth (it cancels about a traditional piece)
ROTTEN_WORTH = -1.2


#: the tables the weights were fitted on
PLAYERS = 4
#: the numbers in a row (:func:`features`)
ROW = 26


def fits(state: CookiesState) -> bool:
    """Whether the weights judge this table: 4 players, the second place wins, and
    weights fitted on rows of today's :func:`features` there are."""
    return state.players == PLAYERS and state.options.tummy_ache and weights.FEATURES == ROW


def features(state: CookiesState) -> list[list[float]]:
    """Every seat's row of numbers (see the module's docstring), seat by seat."""
    n = state.players
    names = state.knowledge.cards
    counts: list[list[int]] = []
    kinds: list[list[int]] = []
    for held, tokens in zip(state.pieces, state.markers, strict=True):
        c = [0, 0, 0, 0]
        for slot in held:
            name = names[slot]
            if name is not None:
                c[_KIND[name]] += 1
        counts.append(c)
        k = [0] * len(MARKER_FEATURES)
        for slot in tokens:
            name = names[slot]
            if name is not None:
                k[_MARKER[name]] += 1
        kinds.append(k)
    value = [
        count_score((c[0], c[1], c[2], c[3])) + MARKER_POINTS * len(m)
        for c, m in zip(counts, state.markers, strict=True)
    ]
    hands = state.hands or ((),) * n
    strength = [sum(_POWER.get(names[slot] or "", 0.5) for slot in hand) for hand in hands]
    mean_power = sum(strength) / n
    tricks = ROUNDS * DEAL[n] - sum(state.tricks_won)
    future = max(0, min(tricks, len(state.piece_pile) + (state.dispute is not None)))
    this_round = min(future, max((len(hand) for hand in hands), default=0))
    spread = math.sqrt(future + 1.0)
    left = [_BOX[k] - sum(c[k] for c in counts) for k in range(4)]
    good = sum(x * p for x, p in zip(left, _POINTS, strict=True))
    worth = (good + ROTTEN_WORTH * left[3]) / max(1, sum(left))
    share = this_round / max(1, future)
    rows = []
    for seat in range(n):
        others = sorted((value[s] for s in range(n) if s != seat), reverse=True)
        lead = [value[seat] - x for x in others]
        c = counts[seat]
        gain = (strength[seat] - mean_power) / 3
        rows.append(
            [
                *(d / spread for d in lead),
                *(math.tanh(d / 3) for d in lead),
                *(d / 5 for d in lead),
                *(x / 3 for x in kinds[seat]),
                gain * share,
                gain,
                future / 36,
                this_round / 12,
                sum(c) / 10,
                c[3] / 4,
                float(state.leader == seat),
                good / 30,
                worth,
                *((c[k] % 4) / 4 for k in range(3)),
            ]
        )
    return rows


def scores(rows: list[list[float]]) -> list[float]:
    """The network's score of each row."""
    out = []
    hidden, tanh = weights.HIDDEN, math.tanh
    for row in rows:
        total = weights.OUT_BIAS
        for bias, column, weight in hidden:
            total += weight * tanh(bias + sum(map(mul, column, row)))
        out.append(total)
    return out


def chances(state: CookiesState) -> list[float]:
    """Each seat's chance of the winning place from this table; they sum to 1."""
    s = scores(features(state))
    top = max(s)
    e = [math.exp(x - top) for x in s]
    total = sum(e)
    return [x / total for x in e]

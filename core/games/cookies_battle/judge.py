"""How the normal Cookies Battle bot judges a table: pieces and the final places.

Pure helpers over piece names and counts; nothing here reads a hidden item. The bot
feeds them what its own view shows (the pieces it can name, the counts) and its guesses
for the rest.

- :func:`count_score` is the optimal assembly by counts (every rotten piece cancels the
  good piece whose loss costs least, then whole cookies), cached: the bot asks it often;
- :func:`place_chance` is the chance of ending in a given place when every final score is
  a rough normal guess: the bot aims for the second place under the tummy ache, the first
  in the beginners' game and the duel;
- :class:`Holding` and :class:`Outlook` are what the bot believes each seat holds and
  the chance of the winning place that follows from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from cakeparty.core.games.cookies_battle.cards import (
    MARKER_POINTS,
    PIECE_KINDS,
    ROTTEN,
    WHOLE,
    piece_kind,
)

# -- pieces ------------------------------------------------------------------------------


def _kind_points(kind: str, n: int) -> int:
    _, per, whole = PIECE_KINDS[kind]
    return (n // WHOLE) * whole + (n % WHOLE) * per


@cache
def count_score(counts: tuple[int, int, int, int]) -> int:
    """The best score of ``(traditional, sprinkle, strawberry, rotten)`` piece counts."""
    t, s, w, r = counts
    cancel = min(r, t + s + w)
    best = 0
    for a in range(min(cancel, t) + 1):
        for b in range(min(cancel - a, s) + 1):
            c = cancel - a - b
            if c > w:
                continue
            total = (
                _kind_points("traditional", t - a)
                + _kind_points("sprinkle", s - b)
                + _kind_points("strawberry", w - c)
            )
            best = max(best, total)
    return best


def counts_of(names: Iterable[str]) -> tuple[int, int, int, int]:
    """``(traditional, sprinkle, strawberry, rotten)`` counts of piece names."""
    kinds = [piece_kind(n) for n in names]
    return (
        kinds.count("traditional"),
        kinds.count("sprinkle"),
        kinds.count("strawberry"),
        kinds.count(ROTTEN),
    )


def piece_score(names: Iterable[str]) -> int:
    """The optimal assembly's points of the pieces called ``names``."""
    return count_score(counts_of(names))


KIND_INDEX = {"traditional": 0, "sprinkle": 1, "strawberry": 2, ROTTEN: 3}


# -- places ------------------------------------------------------------------------------

# Gauss–Hermite nodes and weights (9 points) for an expectation over a normal variable
_NODES = (
    -3.190993201781528,
    -2.266580584531843,
    -1.468553289216668,
    -0.723551018752838,
    0.0,
    0.723551018752838,
    1.468553289216668,
    2.266580584531843,
    3.190993201781528,
)
_WEIGHTS = (
    3.960697726326e-05,
    4.943624275537e-03,
    8.847452739438e-02,
    4.326515590026e-01,
    7.202352156061e-01,
    4.326515590026e-01,
    8.847452739438e-02,
    4.943624275537e-03,
    3.960697726326e-05,
)
_SQRT2 = math.sqrt(2.0)
_SQRTPI = math.sqrt(math.pi)


def _above(score: float, mean: float, sd: float) -> float:
    """The chance that a normal (``mean``, ``sd``) ends above ``score``."""
    if sd <= 1e-9:
        return 1.0 if mean > score else (0.5 if mean == score else 0.0)
    return 0.5 * math.erfc((score - mean) / (sd * _SQRT2))


def _exactly(chances: Sequence[float], k: int) -> float:
    """The chance that exactly ``k`` of independent events with ``chances`` happen."""
    dist = [1.0] + [0.0] * len(chances)
    for p in chances:
        for j in range(len(dist) - 1, 0, -1):
            dist[j] = dist[j] * (1 - p) + dist[j - 1] * p
        dist[0] *= 1 - p
    return dist[k] if k < len(dist) else 0.0


def place_chance(
    mine: tuple[float, float], others: Sequence[tuple[float, float]], above: int
) -> float:
    """The chance that exactly ``above`` of the ``others`` end above me, every final score
    a normal guess ``(mean, sd)``: 0 for the first place, 1 for the second."""
    mean, sd = mine
    if sd <= 1e-9:
        return _exactly([_above(mean, m, s) for m, s in others], above)
    total = 0.0
    for x, w in zip(_NODES, _WEIGHTS, strict=True):
        score = mean + _SQRT2 * sd * x
        total += w * _exactly([_above(score, m, s) for m, s in others], above)
    return total / _SQRTPI


# -- the table as the bot sees it ---------------------------------------------------------

#: A loose piece's worth where the owner's other pieces are not known (a rotten piece
#: cancels about one traditional piece and a bit).
LOOSE: dict[str, float] = {"traditional": 1.3, "sprinkle": 2.3, "strawberry": 4.5, ROTTEN: -1.2}
#: the mean and the mean square of a piece's worth over the whole box
BOX_MEAN = sum(PIECE_KINDS[k][0] * v for k, v in LOOSE.items()) / 36
BOX_SQUARE = sum(PIECE_KINDS[k][0] * v * v for k, v in LOOSE.items()) / 36
#: the spread of a piece nobody can name
UNKNOWN_VAR = BOX_SQUARE - BOX_MEAN**2
#: the spread every final score keeps to the end, from what no count shows (markers still
#: to be used, pieces still to move); measured guesses were too sure without it
FLOOR_VAR = 1.5
#: how many of the pieces still to be won the bot expects for itself, against one seat's
#: fair share: it plays for the pieces it wants, so it ends higher than a fair share says
#: (measured over seeded games: about 1.5 places it best)
SELF_SHARE = 1.5
#: the spread of a piece whose kind is guessed from the public story
GUESS_VAR = 2.0


@dataclass(frozen=True)
class Holding:
    """What the bot believes one seat holds: the kinds of pieces it can name, how many
    it cannot (each worth ``mean`` give or take ``var``), and the seat's markers (each
    worth its points if kept, which it is with the chance ``keep``); ``guessed`` of the
    pieces counted are guesses of their kind."""

    counts: tuple[int, int, int, int] = (0, 0, 0, 0)
    unknown: int = 0
    markers: int = 0
    mean: float = BOX_MEAN
    var: float = UNKNOWN_VAR
    guessed: int = 0
    keep: float = 1.0

    @property
    def size(self) -> int:
        return sum(self.counts) + self.unknown

    @property
    def score(self) -> float:
        markers = MARKER_POINTS * self.markers * self.keep
        return count_score(self.counts) + self.unknown * self.mean + markers

    def _but(self, counts: tuple[int, int, int, int], unknown: int, markers: int) -> Holding:
        # ``dataclasses.replace`` without its checks: the bot asks thousands of these
        return Holding(counts, unknown, markers, self.mean, self.var, self.guessed, self.keep)

    def plus(self, kind: str | None) -> Holding:
        """One more piece of ``kind`` (``None``: a piece the bot cannot name)."""
        if kind is None:
            return self._but(self.counts, self.unknown + 1, self.markers)
        return self._but(_with(self.counts, kind, 1), self.unknown, self.markers)

    def minus(self, kind: str | None) -> Holding:
        """One piece of ``kind`` fewer (``None``: one the bot cannot name)."""
        if kind is None:
            return self._but(self.counts, self.unknown - 1, self.markers)
        return self._but(_with(self.counts, kind, -1), self.unknown, self.markers)

    def with_markers(self, n: int) -> Holding:
        """``n`` markers more (fewer when negative)."""
        return self._but(self.counts, self.unknown, self.markers + n)

    def kinds(self) -> list[tuple[str | None, float]]:
        """The kinds a random pick from this holding may be, with their chances."""
        n = self.size
        if n == 0:
            return []
        out: list[tuple[str | None, float]] = [
            (k, c / n) for k, c in zip(KIND_INDEX, self.counts, strict=True) if c
        ]
        if self.unknown:
            out.append((None, self.unknown / n))
        return out


def _with(counts: tuple[int, int, int, int], kind: str, n: int) -> tuple[int, int, int, int]:
    t, s, w, r = counts
    i = KIND_INDEX[kind]
    return (t + n * (i == 0), s + n * (i == 1), w + n * (i == 2), r + n * (i == 3))


@dataclass(frozen=True)
class Outlook:
    """The bot's guess of the final places: the holdings now, how many tricks are still
    to be won after the current one, and which place wins (0: first, 1: second)."""

    seat: int
    holdings: tuple[Holding, ...]
    future: int  # pieces still to be won after the piece in dispute
    aim: int

    @property
    def players(self) -> int:
        return len(self.holdings)

    def chance(
        self, holdings: Sequence[Holding] | None = None, shifts: Sequence[float] = ()
    ) -> float:
        """The chance of ending in the winning place if the seats held ``holdings``, each
        score moved by its ``shifts`` (expected changes not held as pieces)."""
        held = self.holdings if holdings is None else holdings
        n = len(held)
        mine_share = min(1.0, SELF_SHARE / n)
        finals = []
        for s, h in enumerate(held):
            # the share of the pieces still to be won this seat may expect
            share = mine_share if s == self.seat else (1 - mine_share) / (n - 1)
            mean_future = self.future * share * BOX_MEAN
            var_future = self.future * (share * BOX_SQUARE - (share * BOX_MEAN) ** 2)
            spread = var_future + h.unknown * h.var + h.guessed * GUESS_VAR + FLOOR_VAR
            finals.append((h.score + mean_future + (shifts[s] if shifts else 0.0), spread**0.5))
        mine = finals[self.seat]
        others = [f for s, f in enumerate(finals) if s != self.seat]
        return place_chance(mine, others, self.aim)

    def value_of(self, holding: Holding, kind: str | None) -> float:
        """What one more piece of ``kind`` adds to ``holding``."""
        return holding.plus(kind).score - holding.score

    def with_piece(self, seat: int, kind: str | None, markers: int = 0) -> list[Holding]:
        """The holdings after ``seat`` takes a piece of ``kind`` (and I earn ``markers``)."""
        held = list(self.holdings)
        held[seat] = held[seat].plus(kind)
        if markers:
            held[self.seat] = held[self.seat].with_markers(markers)
        return held

    def after_take(self, held: Sequence[Holding], taker: int, victim: int) -> float:
        """The expected chance after ``taker`` takes a random piece of ``victim``."""
        kinds = held[victim].kinds()
        if not kinds:
            return self.chance(held)
        total = 0.0
        for kind, p in kinds:
            after = list(held)
            after[victim] = after[victim].minus(kind)
            after[taker] = after[taker].plus(kind)
            total += p * self.chance(after)
        return total

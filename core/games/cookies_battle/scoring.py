"""Scoring: the best assembly of a player's pieces, marker points, and who wins.

Each rotten piece cancels one good piece of the owner's choice; the app chooses for the
owner, optimally: of every way to spend the rotten pieces (as many as there are good
pieces to cancel), the one that leaves the most points once whole cookies of 4 are formed.
Among equally good ways the one that cancels the cheapest pieces is taken, so every peer
shows the same assembly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from cakeparty.core.games.cookies_battle.cards import (
    MARKER_POINTS,
    PIECE_KINDS,
    ROTTEN,
    WHOLE,
    piece_kind,
)

#: the good kinds, cheapest piece first
GOOD = tuple(k for k in PIECE_KINDS if k != ROTTEN)


def kind_points(kind: str, count: int) -> int:
    """The points of ``count`` pieces of one ``kind``: whole cookies first, then loose."""
    _, per_piece, whole = PIECE_KINDS[kind]
    return (count // WHOLE) * whole + (count % WHOLE) * per_piece


@dataclass(frozen=True)
class Assembly:
    """How a player's pieces are put together: per good kind, whole cookies, loose pieces
    and pieces cancelled by rotten ones (tuples in :data:`GOOD` order)."""

    cookies: tuple[int, ...]
    loose: tuple[int, ...]
    cancelled: tuple[int, ...]
    rotten: int

    @property
    def points(self) -> int:
        return sum(
            kind_points(kind, self.cookies[i] * WHOLE + self.loose[i])
            for i, kind in enumerate(GOOD)
        )

    @property
    def pieces(self) -> int:
        """Every piece held, rotten ones included."""
        return (
            sum(c * WHOLE for c in self.cookies)
            + sum(self.loose)
            + sum(self.cancelled)
            + (self.rotten)
        )


def _assembly(counts: Sequence[int], cancel: Sequence[int], rotten: int) -> Assembly:
    kept = [n - c for n, c in zip(counts, cancel, strict=True)]
    return Assembly(
        cookies=tuple(k // WHOLE for k in kept),
        loose=tuple(k % WHOLE for k in kept),
        cancelled=tuple(cancel),
        rotten=rotten,
    )


def assemble_counts(counts: Sequence[int], rotten: int) -> Assembly:
    """The best assembly of ``counts`` good pieces (in :data:`GOOD` order) and ``rotten``."""
    to_cancel = min(rotten, sum(counts))
    best: tuple[tuple[int, int], Assembly] | None = None
    for cancel in product(*(range(n + 1) for n in counts)):
        if sum(cancel) != to_cancel:
            continue
        candidate = _assembly(counts, cancel, rotten)
        # most points; then the cheapest pieces cancelled (the loss counted piece by piece)
        loss = sum(c * PIECE_KINDS[k][1] for c, k in zip(cancel, GOOD, strict=True))
        key = (candidate.points, -loss)
        if best is None or key > best[0]:
            best = (key, candidate)
    assert best is not None
    return best[1]


def assemble(names: Iterable[str]) -> Assembly:
    """The best assembly of the pieces called ``names``."""
    kinds = Counter(piece_kind(n) for n in names)
    return assemble_counts([kinds[k] for k in GOOD], kinds[ROTTEN])


@dataclass(frozen=True)
class SeatScore:
    """One player's final score, item by item."""

    assembly: Assembly
    markers: int  # unused markers
    pieces: int
    rotten: int

    @property
    def marker_points(self) -> int:
        return self.markers * MARKER_POINTS

    @property
    def total(self) -> int:
        return self.assembly.points + self.marker_points


def seat_score(names: Iterable[str], unused_markers: int) -> SeatScore:
    assembly = assemble(names)
    return SeatScore(assembly, unused_markers, assembly.pieces, assembly.rotten)


def _best(seats: Sequence[int], scores: Sequence[SeatScore]) -> tuple[int, ...]:
    """Among ``seats``: the highest total, then most pieces, then fewest rotten pieces."""
    if not seats:
        return ()

    def key(s: int) -> tuple[int, int, int]:
        return (scores[s].total, scores[s].pieces, -scores[s].rotten)

    top = max(key(s) for s in seats)
    return tuple(s for s in seats if key(s) == top)


def decide(
    scores: Sequence[SeatScore], tummy_ache: bool
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(winners, tummy_aches)``.

    With the tummy ache, every player tied for the highest total is out and the best of
    the rest wins; if every player is tied, nobody is out and the tie-breaks decide among
    all. Without it the highest total wins. Ties for the win: most pieces, then fewest
    rotten pieces, then a shared win.
    """
    seats = list(range(len(scores)))
    out: tuple[int, ...] = ()
    if tummy_ache:
        high = max(s.total for s in scores)
        out = tuple(s for s in seats if scores[s].total == high)
        if len(out) == len(seats):
            out = ()
        seats = [s for s in seats if s not in out]
    return _best(seats, scores), out

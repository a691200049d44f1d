"""The end of a Cookies Battle game in words: each player's assembly — whole cookies, loose
pieces, pieces cancelled by rotten ones, unused markers — the tummy ache and the winner.
Pure functions of the final scores and the seats' names: no widgets here.

The breakdown (two rows a player) opens before the end box, which then ranks the players
one row each: six players fit 80×24 either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import wrap

from rich.text import Text

from cakeparty.core.games.cookies_battle.cards import PIECE_TITLES
from cakeparty.core.games.cookies_battle.scoring import GOOD, SeatScore
from cakeparty.core.i18n import _, ngettext

#: The columns of the breakdown's box (a dialog 72 wide, less its border and padding): an
#: assembly longer than that goes on under itself, indented, not at the box's edge.
BREAKDOWN_WIDTH = 68


def assembly_line(score: SeatScore) -> str:
    """A player's pieces put together, in short: "1 Traditional cookie, 3 Sprinkle,
    1 Strawberry · 2 rotten cancel 2 Traditional · 1 marker +2"."""
    assembly = score.assembly
    kept = []
    for index, kind in enumerate(GOOD):
        title = _(PIECE_TITLES[kind])
        cookies, loose = assembly.cookies[index], assembly.loose[index]
        if cookies:
            kept.append(
                ngettext("{n} {kind} cookie", "{n} {kind} cookies", cookies).format(
                    n=cookies, kind=title
                )
            )
        if loose:
            kept.append(_("{n} {kind}").format(n=loose, kind=title))
    parts = [", ".join(kept) if kept else _("no good piece")]
    if assembly.rotten:
        cancelled = ", ".join(
            _("{n} {kind}").format(n=n, kind=_(PIECE_TITLES[kind]))
            for kind, n in zip(GOOD, assembly.cancelled, strict=True)
            if n
        )
        if cancelled:
            parts.append(
                ngettext(
                    "{n} rotten cancels {pieces}", "{n} rotten cancel {pieces}", assembly.rotten
                ).format(n=assembly.rotten, pieces=cancelled)
            )
        else:
            parts.append(
                ngettext(
                    "{n} rotten, nothing to cancel",
                    "{n} rotten, nothing to cancel",
                    assembly.rotten,
                ).format(n=assembly.rotten)
            )
    if score.markers:
        parts.append(
            ngettext("{n} marker +{points}", "{n} markers +{points}", score.markers).format(
                n=score.markers, points=score.marker_points
            )
        )
    return " · ".join(parts)


def _order(scores: Sequence[SeatScore]) -> list[int]:
    """Highest score first; equal scores in the order of the tie-breaks (most pieces, then
    fewest rotten), then by seat."""
    return sorted(
        range(len(scores)),
        key=lambda s: (-scores[s].total, -scores[s].pieces, scores[s].rotten, s),
    )


def _total(
    seat: int, name: str, score: SeatScore, winners: Sequence[int], ache: Sequence[int]
) -> str:
    """A player's total, with the win or the tummy ache said (one sentence each)."""
    total = score.total
    if seat in winners:
        text = ngettext("{name}: {total} point ★ wins", "{name}: {total} points ★ wins", total)
    elif seat in ache:
        text = ngettext(
            "{name}: {total} point — tummy ache", "{name}: {total} points — tummy ache", total
        )
    else:
        text = ngettext("{name}: {total} point", "{name}: {total} points", total)
    return text.format(name=name, total=total)


def tie_line(
    scores: Sequence[SeatScore],
    names: Sequence[str],
    winners: Sequence[int],
    tummy_ache: Sequence[int],
) -> str | None:
    """Why the win went as it did when others in the race had as many points: "Tied on 14
    points — the most pieces win: Bob 6, Cy 5", or on the fewest rotten pieces next;
    ``None`` when the points alone decided."""
    if not winners:
        return None
    total = scores[winners[0]].total
    # in the tie-breaks' order already
    tied = [s for s in _order(scores) if s not in tummy_ache and scores[s].total == total]
    if len(tied) == len(winners):
        return None  # nobody lost on a tie-break (a shared win the headline says)
    points = ngettext("{n} point", "{n} points", total).format(n=total)
    pieces = scores[winners[0]].pieces
    level = [s for s in tied if scores[s].pieces == pieces]
    if len(level) == len(winners):
        seats = ", ".join(f"{names[s]} {scores[s].pieces}" for s in tied)
        return _("Tied on {points} — the most pieces win: {seats}").format(
            points=points, seats=seats
        )
    seats = ", ".join(f"{names[s]} {scores[s].rotten}" for s in level)
    return _("Tied on {points} and {pieces} — the fewest rotten pieces win: {seats}").format(
        points=points,
        pieces=ngettext("{n} piece", "{n} pieces", pieces).format(n=pieces),
        seats=seats,
    )


def ranking_lines(
    scores: Sequence[SeatScore],
    names: Sequence[str],
    winners: Sequence[int],
    tummy_ache: Sequence[int],
) -> list[str]:
    """Every player, highest score first, one row each, the winner and the tummy ache
    said; then why a tie went the way it did (:func:`tie_line`)."""
    lines = [
        _total(seat, names[seat], scores[seat], winners, tummy_ache) for seat in _order(scores)
    ]
    tie = tie_line(scores, names, winners, tummy_ache)
    return [*lines, tie] if tie else lines


def assembly_lines(scores: Sequence[SeatScore], names: Sequence[str]) -> list[str]:
    """Every player, highest score first, one row each: "Ann: 1 Traditional cookie,
    3 Sprinkle · 1 marker +2" (:func:`assembly_line`)."""
    return [
        _("{name}: {assembly}").format(name=names[seat], assembly=assembly_line(scores[seat]))
        for seat in _order(scores)
    ]


def breakdown_lines(
    scores: Sequence[SeatScore],
    names: Sequence[str],
    winners: Sequence[int],
    tummy_ache: Sequence[int],
) -> list[Text]:
    """Every player, highest score first: the total, then how the pieces were put
    together (one item each, two rows)."""
    lines = []
    for seat in _order(scores):
        score = scores[seat]
        text = Text(_total(seat, names[seat], score, winners, tummy_ache), style="bold")
        text.append("\n")
        text.append("\n".join(_wrapped(assembly_line(score))), style="")
        lines.append(text)
    tie = tie_line(scores, names, winners, tummy_ache)
    return [*lines, Text(tie)] if tie else lines


def _wrapped(assembly: str) -> list[str]:
    """``assembly`` in rows of :data:`BREAKDOWN_WIDTH`, indented, broken between its parts
    (" · ") where it can be, so that "1 marker +2" stays on one row; a row that ends
    between two parts ends in "·"."""
    room = BREAKDOWN_WIDTH - len(" ·")
    rows: list[str] = []
    for part in assembly.split(" · "):
        if rows and len(rows[-1]) + len(" · ") + len(part) <= room:
            rows[-1] += " · " + part
            continue
        if rows:
            rows[-1] += " ·"
        indent = "    " if rows else "  "
        rows += wrap(part, room, initial_indent=indent, subsequent_indent="    ")
    return rows


def headline(names: Sequence[str], winners: Sequence[int], tummy_ache: Sequence[int]) -> str:
    """ "Bob wins — Ann has a tummy ache" (a shared win names them all)."""
    won = ", ".join(names[s] for s in winners)
    if not winners:
        text = _("Nobody wins")
    elif len(winners) == 1:
        text = _("{names} wins").format(names=won)
    else:
        text = _("{names} share the win").format(names=won)
    if tummy_ache:
        ache = ", ".join(names[s] for s in tummy_ache)
        text += " — " + ngettext(
            "{names} has a tummy ache", "{names} have a tummy ache", len(tummy_ache)
        ).format(names=ache)
    return text

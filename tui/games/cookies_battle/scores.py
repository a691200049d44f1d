"""The end of a Cookies Battle game in words: each player's assembly — whole cookies, loose
pieces, pieces cancelled by rotten ones, unused markers — the tummy ache and the winner.
Pure functions of the final scores and the seats' names: no widgets here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.games.cookies_battle.scoring import SeatScore
from cakeparty.core.games.cookies_battle.text import assembly_words
from cakeparty.core.i18n import _, ngettext


def score_lines(
    scores: Sequence[SeatScore],
    names: Sequence[str],
    winners: Sequence[int],
    tummy_ache: Sequence[int],
) -> list[str]:
    """Every player, highest score first: total, then the assembly; the tummy ache said."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s].total, s))
    lines = []
    for seat in order:
        score = scores[seat]
        name = names[seat] if seat < len(names) else "?"
        note = ""
        if seat in winners:
            note = " ★ " + _("wins")
        elif seat in tummy_ache:
            note = " — " + _("tummy ache")
        lines.append(
            ngettext(
                "{name}: {total} point{note}", "{name}: {total} points{note}", score.total
            ).format(name=name, total=score.total, note=note)
        )
        lines.append("   " + assembly_words(score))
    return lines


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


def results_of(view: Any) -> tuple[SeatScore, ...]:
    return tuple(getattr(view, "results", ()) or ())

"""The Cake of Doom screen's one-line texts: the title, what a seat decides now, and the
prompt that says what the keys do in this step. Pure functions of one seat's view and the
seats' names: no widgets here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from cakeparty.core.games.cake_of_doom.cards import ROUNDS, TURN_PLAYS
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cake_of_doom.parts import (
    discard_words,
    offer_lines,
    players_text,
    regions_text,
    seat_name,
)
from cakeparty.tui.table.session import away_seats
from cakeparty.tui.widgets.fitted import cut_rows

#: What each step asks of the seat deciding, for the status line and the others waiting.
STEP_WORDS: dict[Phase, str] = {
    Phase.MIX: N_("choose the opening mix of 8 cards"),
    Phase.PLAY: N_("grab or steal, then bribe or pass"),
    Phase.SABOTAGE: N_("sabotage the bribe, or not"),
    Phase.FORCE_FIELD: N_("answer the sabotage with a Force Field, or not"),
    Phase.REMOVE: N_("choose what the sabotage removes"),
    Phase.PICK: N_("take a card"),
    Phase.ROB: N_("choose whom to steal from"),
    Phase.PEEK: N_("choose whose hand to look at"),
}


def step_words(view: DoomView) -> str:
    """The step of the seat deciding, in words (with the count of a draw or discard)."""
    task = view.task
    if task is None:
        return ""
    if task.phase is Phase.DRAW:
        return ngettext("draw {n} card", "draw {n} cards", task.count).format(n=task.count)
    if task.phase is Phase.DISCARD:
        if task.upto:
            return ngettext("discard up to {n} card", "discard up to {n} cards", task.count).format(
                n=task.count
            )
        return ngettext("discard {n} card", "discard {n} cards", task.count).format(n=task.count)
    words = STEP_WORDS.get(task.phase)
    return _(words) if words else ""


def decision_line(view: DoomView, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides now, from the public view: "Bob decides: draw 2 cards"."""
    name = seat_name(seat, names)
    words = step_words(view)
    if not words:
        return _("{name} decides").format(name=name)
    return _("{name} decides: {step}").format(name=name, step=words)


def title_line(view: DoomView, names: Sequence[str]) -> Text:
    """Game, variant, round r of 10, whose turn."""
    text = Text()
    text.append(_("Cake of Doom"), style="bold")
    variant = []
    if view.options.advanced:
        variant.append(_("advanced"))
    if view.options.blind:
        variant.append(_("blind"))
    if variant:
        text.append(" (" + ", ".join(variant) + ")")
    text.append(" · ")
    text.append(_("round {n} of {of}").format(n=max(view.round, 1), of=ROUNDS), style="bold")
    if view.over:
        text.append(" · ")
        text.append(_("game over"))
    elif view.round:
        text.append(" · ")
        text.append(_("{name}'s turn").format(name=seat_name(view.current, names)))
    return text


#: The keys of the turn's moves, in the prompt, when the move is legal.
TURN_KEYS = (
    ("grab", N_("t Tractor Beam")),
    ("abduct", N_("a Abduction")),
    ("bribe", N_("b bribe")),
    ("no-bribe", N_("p pass")),
    ("discard", N_("x discard")),
)


def prompt_text(view: DoomView, building: str | None) -> str:
    """What the keys do in the viewer's step (the footer lists them too)."""
    task = view.task
    if task is None:
        return ""
    if building == "bribe":
        return _("space adds a card · - takes one back · enter offers · esc drops the offer")
    if building == "discard" and task.phase is Phase.PLAY:
        return _("space marks a card · - unmarks one · enter discards them · esc stops")
    if building == "discard" or task.phase is Phase.DISCARD:
        return _("space marks a card · - unmarks one · enter discards them")
    if task.phase is Phase.PLAY:
        tags = {type(a).TAG for a in view.legal}
        keys = [_(words) for tag, words in TURN_KEYS if tag in tags]
        if task.count >= TURN_PLAYS:
            keys.insert(0, _("no more grabs, steals or discards this turn"))
        return " · ".join(keys)
    if task.phase is Phase.SABOTAGE:
        return _("s sabotage (choose the card) · n no sabotage")
    if task.phase is Phase.FORCE_FIELD:
        return _("f Force Field: cancel this sabotage · n let it stand")
    return _("enter: choose")


def _columns(text: Text, width: int, gap: int = 2) -> list[Text]:
    """``text``'s rows in two columns of ``width``, left first, top to bottom."""
    rows = text.split("\n")
    half = (len(rows) + 1) // 2
    out = []
    for index in range(half):
        row = rows[index].copy()
        row.truncate(width, overflow="ellipsis", pad=True)
        if index + half < len(rows):
            row.append(" " * gap)
            row.append_text(rows[index + half])
        out.append(row)
    return out


def board(table: Any, view: DoomView, width: int) -> Text:
    """A spectator's table: the round, whose turn and the piles; every region with its
    holder and value (two columns where the width allows); each player's alien, cards
    and regions; the bribe on the table, or else the discards' tops."""
    names = table.names
    title = title_line(view, names)
    piles = _("piles {cakes}/{mischief}").format(cakes=view.cake_pile, mischief=view.mischief_pile)
    title.append(" · " + piles, style="dim")
    rows = [title]
    gap = 2
    column = (width - gap) // 2
    target = view.offer.target if view.offer is not None else None
    active = view.to_act[0] if view.to_act else None
    away = away_seats(table)
    if column >= 36:  # two columns of regions, and of players
        rows += _columns(regions_text(view, names, column, target), column, gap)
        rows += _columns(players_text(view, names, active, column, away), column, gap)
    else:
        rows += regions_text(view, names, width, target).split("\n")
        rows += players_text(view, names, active, width, away).split("\n")
    if view.offer is not None:
        rows += offer_lines(view, names).split("\n")
    else:
        rows.append(Text(discard_words(view) + " · " + _("▯ cards ⚑ regions"), style="dim"))
    return cut_rows(rows, width)

"""The Cookies Battle screen's one-line texts: the title, the table's footnote, what a
seat decides now and what the keys do. Pure functions of one seat's view and the seats'
names: no widgets here."""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import wrap
from typing import Any

from rich.text import Text

from cakeparty.core.games.cookies_battle.actions import Play, UseMarker
from cakeparty.core.games.cookies_battle.cards import DEAL, ROUNDS, SUIT_TITLES
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cookies_battle.parts import card_words, piece_words, seats_text
from cakeparty.tui.games.cookies_battle.scores import assembly_lines, ranking_lines
from cakeparty.tui.table.session import away_seats
from cakeparty.tui.widgets.fitted import cut_rows

#: The steps of the game as the screen tells them, by the word in the phase's name.
PASS, PLAY, WINDOW, DEFENSE, SWAP, OVER = "pass", "play", "window", "defense", "swap", "over"
#: Which marker windows ask the person here, in the order w turns them: every one, only a
#: window that answers a marker just used (:data:`DEFENSE`), none.
ALL, ANSWERS, NEVER = "all", "answers", "never"
ASKS = (ALL, ANSWERS, NEVER)

#: What each step asks, in the status line.
STEP_WORDS = {
    PASS: N_("pass a card to each neighbour"),
    PLAY: N_("play a card"),
    WINDOW: N_("marker window"),
    DEFENSE: N_("Defense window"),
    SWAP: N_("Swap: give a piece"),
}


def step_of(view: Any) -> str:
    """The view's step: pass, play, window (a marker may be used), defense, swap or over."""
    phase = view.phase
    word = str(getattr(phase, "value", phase)).lower()
    for step in (DEFENSE, SWAP, PASS, OVER):
        if step in word:
            return step
    if "marker" in word or "window" in word:
        return WINDOW
    if view.over:
        return OVER
    return PLAY


def seat_name(seat: int | None, names: Sequence[str]) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def step_words(view: Any) -> str:
    """What the view's step asks, in words (the duel's pass gives one card, to the other
    player); "" where there are none."""
    step = step_of(view)
    if step == PASS and view.players == 2:
        return _("give a card to the other player")
    return _(STEP_WORDS[step]) if step in STEP_WORDS else ""


def decision_line(view: Any, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides now, from the public view: "Bob plays a card"."""
    name = seat_name(seat, names)
    step = step_of(view)
    if step == PASS and view.players == 2:
        return _("{name} chooses the card to give").format(name=name)
    if step == PASS:
        return _("{name} chooses the cards to pass").format(name=name)
    if step == PLAY:
        return _("{name} plays a card").format(name=name)
    if step == WINDOW:
        return _("{name} may use a magic marker").format(name=name)
    if step == DEFENSE:
        return _("{name} may answer with a Defense").format(name=name)
    if step == SWAP:
        return _("{name} chooses a piece to give").format(name=name)
    return _("{name} decides").format(name=name)


def title_line(view: Any, names: Sequence[str]) -> Text:
    """Game, variant, round and trick, and the turn suit."""
    text = Text()
    text.append(_("Cookies Battle"), style="bold")
    variant = str(getattr(view.options, "variant", ""))
    if variant == "beginners":
        text.append(" · " + _("beginners"))
    elif variant == "duel":
        text.append(" · " + _("duel"))
    text.append(" · ")
    text.append(_("round {n}/{of}").format(n=max(view.round, 1), of=ROUNDS))
    tricks = DEAL.get(view.players, 0)
    text.append(" · ")
    text.append(_("trick {n}/{of}").format(n=max(view.trick_no, 1), of=tricks))
    suit = view.turn_suit
    text.append(" · ")
    if suit is not None:
        text.append(_("turn suit {suit}").format(suit=_(SUIT_TITLES[suit])), style="bold")
    else:
        text.append(_("no turn suit yet"), style="dim")
    return text


def dispute_line(view: Any, names: Sequence[str]) -> Text:
    """The piece in dispute, face up; whose next card a Puppet draws at random."""
    text = Text()
    if view.dispute is None:
        text.append(_("No piece in dispute"), style="dim")
    else:
        text.append(_("In dispute:") + " ")
        text.append(piece_words(view.known.get(view.dispute)), style="bold")
    if view.puppets:
        who = ", ".join(seat_name(s, names) for s in dict.fromkeys(view.puppets))
        text.append(" · ")
        text.append(_("Puppet: {names}").format(names=who), style="italic")
    return text


def piles_line(view: Any) -> str:
    """What is left in the piles: "34 pieces · 18 markers left"."""
    pieces = ngettext("{n} piece", "{n} pieces", view.piece_pile).format(n=view.piece_pile)
    if view.players == 2:
        return _("{pieces} left").format(pieces=pieces)
    markers = ngettext("{n} marker", "{n} markers", view.marker_pile).format(n=view.marker_pile)
    return _("{pieces} · {markers} left").format(pieces=pieces, markers=markers)


def window_words(view: Any, names: Sequence[str]) -> str:
    """The marker being resolved: "Bob used a Theft against Cy" (blank when none)."""
    window = view.window
    if window is None:
        return ""
    from cakeparty.tui.games.cookies_battle.events_text import used_words

    return used_words(window.user, window.kind, window.target, names)


def prompt_line(
    view: Any,
    names: Sequence[str],
    *,
    slot: int | None,
    marks: Any,
    wait: float | None,
    windows: str,
) -> Text:
    """What the keys do now in the viewer's step."""
    seat = view.seat
    assert seat is not None
    step = step_of(view)
    legal = view.legal
    markers = any(isinstance(a, UseMarker) for a in legal)
    if step == PASS:
        if view.players == 2:
            return Text(_("Pick the card to give (←→), enter gives it"))
        if marks.left is not None and marks.right is not None:
            return Text(_("enter: pass them · u undo"), style="bold")
        left, right = names[(seat + 1) % view.players], names[(seat - 1) % view.players]
        return Text(
            _("Pick a card (←→): l gives it to {left}, r to {right}").format(left=left, right=right)
        )
    if step == SWAP:
        return Text(_("Swap: choose the piece you give (the list is open)"), style="bold")
    if step in (WINDOW, DEFENSE):
        said = [_("m use a marker") if markers else _("no marker to use now")]
        said.append(_("n let it pass"))
        if wait:
            said.append(_("passes by itself in {s} s").format(s=max(1, round(wait))))
        return Text(" · ".join(said), style="bold")
    if step == PLAY:
        playable = [a for a in legal if isinstance(a, Play)]
        text = Text()
        if slot is not None and any(a.slot == slot for a in playable):
            text.append(
                _("enter plays {card}").format(card=card_words(view.known.get(slot))),
                style="bold",
            )
        else:
            text.append(
                ngettext(
                    "{n} card may be played (bright): pick it with ←→",
                    "{n} cards may be played (bright): pick one with ←→",
                    len(playable),
                ).format(n=len(playable))
            )
        if markers:
            text.append(" · " + _("m marker first"))
        if windows == ANSWERS:
            text.append(" · " + _("windows: answers only (w)"), style="dim")
        elif windows == NEVER:
            text.append(" · " + _("windows: never ask (w)"), style="dim")
        return text
    return Text("")


#: The rows a spectator's board has at 80×24 (the title, the log, the status and the keys
#: take the others).
BOARD_ROWS = 14


def board(table: Any, view: Any, width: int) -> Text:
    """A spectator's table: the round and trick, every seat's card, pieces, markers and
    pieces won face up, the piece in dispute, the marker being resolved and the piles;
    once the pieces are shown, the final scores, then how each player's pieces were put
    together (in two rows each where they all fit in :data:`BOARD_ROWS`, else one row
    each; last: a short terminal cuts them first)."""
    names = table.names
    title = title_line(view, names)
    if view.over and view.results:
        ranking = ranking_lines(view.results, names, view.winners, view.tummy_ache)
        rows = [row for line in ranking for row in wrap(line, width, subsequent_indent="  ")]
        assembly = assembly_lines(view.results, names)
        wrapped = [
            row
            for line in assembly
            for row in wrap(line, width, subsequent_indent="  ", max_lines=2, placeholder=" …")
        ]
        if 1 + len(rows) + len(wrapped) <= BOARD_ROWS:  # whole where they fit, else cut
            assembly = wrapped
        pieces = [Text(row, style="dim") for row in assembly]
        return cut_rows([title, *(Text(row) for row in rows), *pieces], width)
    bottom = dispute_line(view, names)
    bottom.append(" · " + piles_line(view), style="dim")
    below = [bottom]
    window = window_words(view, names)
    if window:
        below.append(Text(window, style="italic"))
    seats = seats_text(view, names, None, width, gap=False, away=away_seats(table)).split("\n")
    return cut_rows([title, *seats, *below], width)

"""What the Cookies Battle screen shows, computed from one seat's view: no widgets here.

A card is drawn short, its suit by letter (readable without colour) and its value::

    B7  blue 7     G12 green 12     R1 red 1     ★5 gold 5     0  13  Mg (the Magician)

The hand is one line per suit, cards in value order; the cards that may be played now are
bright, the others dimmed; the cursor is reversed. The table lists every seat with the
card it played to this trick, its pieces and markers (counts) and what it won face up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from cakeparty.core.games.cookies_battle.cards import (
    COLOURS,
    GOLD,
    PIECE_KINDS,
    PIECE_TITLES,
    SUIT_TITLES,
    card,
    is_card,
    piece_kind,
)
from cakeparty.core.games.cookies_battle.text import card_words, piece_words
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.widgets.fitted import cut, cut_apart, fit

__all__ = ["card_words", "piece_words"]  # the game's own words, for the screen's modules

#: A numbered card in short, its suit by letter (translators may choose their own
#: initials; a letter alone would be one text with a piece's letter); Gold is a star.
SHORT_CARDS = {
    "blue": N_("B{value}"),
    "green": N_("G{value}"),
    "red": N_("R{value}"),
    "gold": "★{value}",
}
#: The suits' colours where colours are shown.
SUIT_STYLES = {
    "blue": "bold #5f87ff",
    "green": "bold #5fd75f",
    "red": "bold #ff5f5f",
    "gold": "bold #ffd700",
    None: "bold #d787ff",
}
#: The hand's rows: the colours, Gold, then the specials.
ROWS: tuple[str | None, ...] = (*COLOURS, GOLD, None)
#: A piece kind's short form, in the table's "won face up" column.
PIECE_LETTERS = {
    "traditional": N_("T"),
    "sprinkle": N_("S"),
    "strawberry": N_("St"),
    "rotten": N_("R"),
}
CELL = 4  # a card's width in the hand


def short_card(name: str) -> str:
    """A card in at most three columns: "B7", "★12", "0", "13", "Mg"."""
    item = card(name)
    if item.magician:
        return _("Mg")
    if item.suit is None:
        return str(item.value)
    return _(SHORT_CARDS[item.suit]).format(value=item.value)


def card_style(name: str) -> str:
    return SUIT_STYLES[card(name).suit]


def sort_key(name: str) -> tuple[int, int, str]:
    """Suit order (Blue, Green, Red, Gold, specials), then value (the Magician last)."""
    item = card(name)
    value = item.value if item.value is not None else 99
    return ROWS.index(item.suit), value, name


def pieces_summary(names: Iterable[str | None], *, short: bool = False) -> str:
    """Pieces counted by kind, in the box's order: "2 Traditional, 1 Rotten" (short:
    "2T 1R"); face-down ones as "2 face down"."""
    counts = Counter(piece_kind(n) if n is not None else None for n in names)
    parts = []
    for kind in PIECE_KINDS:
        if counts[kind]:
            if short:
                parts.append(f"{counts[kind]}{_(PIECE_LETTERS[kind])}")
            else:
                parts.append(_("{n} {kind}").format(n=counts[kind], kind=_(PIECE_TITLES[kind])))
    if counts[None]:
        parts.append(
            ngettext("{n} face down", "{n} face down", counts[None]).format(n=counts[None])
        )
    return (" " if short else ", ").join(parts)


@dataclass
class Marks:
    """What a person has chosen so far in the pass step, before passing."""

    left: int | None = None  # the card for the left neighbour
    right: int | None = None  # the card for the right neighbour

    def clear(self) -> None:
        self.left = self.right = None


def hand_order(known: dict[int, str] | object, hand: Sequence[int]) -> list[int]:
    """The hand's slots in the order drawn: by suit, then value (unknown cards last)."""
    names = dict(known)  # type: ignore[call-overload]
    seen = [s for s in hand if is_card(names.get(s, ""))]
    unseen = [s for s in hand if s not in seen]
    return sorted(seen, key=lambda s: sort_key(names[s])) + unseen


def hand_lines(
    names: dict[int, str],
    order: Sequence[int],
    cursor: int | None,
    playable: set[int],
    marks: Marks,
    received: set[int],
    *,
    dim_unplayable: bool,
) -> Text:
    """One line per suit held: "Blue    3   7   11", the cursor's card reversed, the
    playable cards bright and the others dimmed (while a card is to be played), the
    pass marks (← left, → right) and cards just received (+) beside their value."""
    rows: dict[str | None, list[Text]] = {}
    for index, slot in enumerate(order):
        name = names.get(slot)
        if name is None:
            continue
        item = card(name)
        label = _("Mg") if item.magician else str(item.value)
        mark = " "
        if slot == marks.left:
            mark = "←"
        elif slot == marks.right:
            mark = "→"
        elif slot in received:
            mark = "+"
        style = card_style(name)
        if dim_unplayable and slot not in playable:
            style = "dim"
        token = Text(label.rjust(2) + mark, style=style)
        if index == cursor:
            token.stylize("reverse")
        rows.setdefault(item.suit, []).append(token)
    titles = {s: _(SUIT_TITLES[s]) if s is not None else _("Special") for s in rows}
    width = max([8, *(len(t) for t in titles.values())])  # the rows' cards line up
    lines = []
    for suit in ROWS:
        if suit not in rows:
            continue
        line = Text(titles[suit].ljust(width), style=SUIT_STYLES[suit])
        for token in rows[suit]:
            line.append(" ")
            line.append_text(token)
        lines.append(line)
    return Text("\n").join(lines)


#: the columns a player's name takes in a seat's line (its mark for the leader after it)
NAME_CUT = 8


def seat_line(
    name: str,
    *,
    played: str | None,
    pieces: int,
    markers: int | None,
    won: Sequence[str],
    to_act: bool,
    leader: bool,
    you: bool,
    width: int,
    faded: bool = False,
    winner: bool = False,
    card_width: int = 5,
    away: bool = False,
) -> Text:
    """One seat at the table: "▸ Ann*    B7    3  1  2T 1S" (▸ to act, * leads); the
    last trick's cards ``faded`` once it is won, its winner's card ticked; the card in a
    column of ``card_width`` (as wide as its header); a player ``away`` tagged offline
    before what they won."""
    text = Text()
    text.append("▸" if to_act else " ", style="bold")
    label = cut(name, NAME_CUT) + ("*" if leader else "")
    text.append(fit(label, 10), style="bold" if you else "")
    if played is not None:
        shown = short_card(played) + ("✓" if winner else "")
        style = "dim" if faded and not winner else card_style(played)
        text.append(shown.ljust(card_width), style=style)
    else:
        text.append("·".ljust(card_width), style="dim")
    text.append(str(pieces).rjust(3))
    text.append(str(markers).rjust(4) if markers is not None else "    ")
    text.append("  ")
    if away:
        text.append(_("offline"), style="bold reverse")
        text.append(" ")
    summary = pieces_summary(won, short=True)
    room = max(0, width - text.cell_len)
    text.append(summary[:room], style="italic")
    return text


def last_trick_line(view: Any, names: Sequence[str], width: int | None = None) -> Text:
    """The trick just won, while the next is played, its cards in the order played and the
    winning one ticked: "Last trick, taken by Eclair: R6✓ B2 R5 0" (where that is wider than
    ``width``, "Last trick, Eclair: …")."""
    winner = view.last_winner
    cards = Text()
    for seat, slot in view.last_trick:
        name = view.known.get(slot)
        cards.append(" ")
        if name is None:
            cards.append("?")
            continue
        mark = "✓" if seat == winner else ""
        cards.append(short_card(name) + mark, style=card_style(name) if mark else "")
    label = _("Last trick, taken by {name}:").format(name=names[winner])
    if width is not None and cell_len(label) + cards.cell_len > width:
        label = _("Last trick, {name}:").format(name=names[winner])
    text = Text(style="dim")
    text.append(label)
    text.append_text(cards)
    return text


def _gap_fits(players: int) -> bool:
    """Whether a blank line fits between the seats and the last trick (six seats fill
    the panel)."""
    return players < 6


def seats_height(players: int) -> int:
    """The rows :func:`seats_text` takes at most with ``players`` seats (with the last
    trick under them): the dispute line goes right under them, not wherever a tall
    terminal's panel ends."""
    return 1 + players + (1 if _gap_fits(players) else 0) + 1


def seats_text(
    view: Any,
    names: Sequence[str],
    viewer: int | None,
    width: int,
    *,
    gap: bool = True,
    away: Collection[int] = (),
) -> Text:
    """A header, then one line per seat: its card on the table, pieces, markers, and what
    it won face up (the seats ``away`` tagged offline); then the last trick while the next
    is played (after a blank line where there is room, if ``gap``)."""
    faded = not view.trick and bool(view.last_trick)  # the trick just won stays
    trick = view.last_trick if faded else view.trick
    played = {seat: view.known.get(slot) for seat, slot in trick}
    markers = view.players > 2
    header = Text(style="dim")
    header.append(" " + _("player").ljust(10))
    card = _("card")
    card_width = max(5, len(card) + 1)  # a longer word widens the column
    header.append(card.ljust(card_width))
    header.append(_("pcs").rjust(3))
    header.append(_("mrk").rjust(4) if markers else "    ")
    header.append("  " + _("won face up"))
    lines = [header]
    acting = set(view.to_act)
    shown = cut_apart(names, NAME_CUT)
    for seat in range(view.players):
        lines.append(
            seat_line(
                shown[seat],
                played=played.get(seat),
                pieces=view.piece_counts[seat],
                markers=view.marker_counts[seat] if markers else None,
                won=view.won_face_up[seat],
                to_act=seat in acting and not view.over,
                leader=seat == view.leader and not view.over,
                you=seat == viewer,
                width=width,
                faded=faded,
                winner=faded and seat == view.last_winner,
                card_width=card_width,
                away=seat in away,
            )
        )
    if view.trick and view.last_trick and view.last_winner is not None:
        if gap and _gap_fits(view.players):
            lines.append(Text(""))
        lines.append(last_trick_line(view, names, width))
    return Text("\n").join(lines)

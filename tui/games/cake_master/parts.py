"""What the Cake Master screen shows, computed from one seat's view: no widgets here.

A cake is drawn as a ring of four quarters, clockwise from the top left::

    1·a taste 5
    P rb ● W b
      ◐      ·
    C -  ·  3

Each quarter shows its icing as a letter (P, W, C: readable without colour) and its
fruit (``r`` a raspberry, ``b`` a blueberry, ``-`` none); an empty quarter shows its
number. The heading names the cake (1–3), its key (a–c) and its taste as it stands.
Between two quarters the seam: ``●`` a complete rosette, ``◐`` a half-rosette that
nothing matches (yet), ``·`` plain edges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.text import Text

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.cards import CARDS, CUSTOMERS
from cakeparty.core.games.cake_master.scoring import Cake, best_matching, taste
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.core.games.cake_master.text import card_words, customer_words
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.i18n import N_, _
from cakeparty.tui.widgets.fitted import cut, wrap

#: The icing letters (translators may choose their own initials).
ICING_LETTERS = {"pink": N_("P"), "white": N_("W"), "chocolate": N_("C")}
#: The fruit letters, a raspberry and a blueberry (translators may choose their own).
RASPBERRY, BLUEBERRY = N_("r"), N_("b")
#: The icing colours where colours are shown.
ICING_STYLES = {"pink": "bold #ff5f87", "white": "bold #e4e4e4", "chocolate": "bold #d7875f"}
#: The cakes by letter, the keys that choose them.
CAKE_KEYS = ("a", "b", "c")

COMPLETE, OPEN, PLAIN = "●", "◐", "·"
CELL = 4  # a quarter's width


def icing_letter(name: str) -> str:
    return _(ICING_LETTERS[CARDS[name].icing])


def fruit_code(name: str) -> str:
    """A card's fruit in letters: "rb", "bb"; "-" for none."""
    card = CARDS[name]
    return _(RASPBERRY) * card.raspberries + _(BLUEBERRY) * card.blueberries or "-"


def short_card(name: str) -> Text:
    """A card in four columns: "P rb"."""
    text = Text()
    text.append(icing_letter(name), style=ICING_STYLES[CARDS[name].icing])
    text.append(f" {fruit_code(name)}".ljust(CELL - 1))
    return text


def seam(left: str | None, right: str | None) -> str:
    """The seam joining the right edge of ``left`` to the left edge of ``right``."""
    a = CARDS[left].right if left is not None else False
    b = CARDS[right].left if right is not None else False
    if a and b:
        return COMPLETE
    if a or b:
        return OPEN
    return PLAIN if left is not None and right is not None else " "


def _cell(cake: Cake, quarter: int, marked: Mapping[int, str]) -> Text:
    name = cake[quarter]
    if name is not None:
        cell = short_card(name)
        if quarter in marked:
            cell.stylize("reverse")
        return cell
    label = marked.get(quarter, "")
    if label:
        return Text(f" {label}".ljust(CELL), style="reverse")
    return Text(f" {quarter + 1}".ljust(CELL), style="dim")


def ring(cake: Cake, marked: Mapping[int, str] | None = None) -> list[Text]:
    """The three lines of a cake's ring: quarters 1 2 on top, 4 3 below.

    ``marked``: quarters to highlight (a card about to go there), with a label for an
    empty one (the quarter offered).
    """
    marks = marked or {}
    top = Text.assemble(
        _cell(cake, 0, marks), " ", seam(cake[0], cake[1]), " ", _cell(cake, 1, marks)
    )
    middle = Text(f"  {seam(cake[3], cake[0])}      {seam(cake[1], cake[2])} ")
    bottom = Text.assemble(
        _cell(cake, 3, marks), " ", seam(cake[2], cake[3]), " ", _cell(cake, 2, marks)
    )
    return [top, middle, bottom]


RING_WIDTH = 2 * CELL + 3
COLUMN = 15  # a cake's column: its ring, or its heading "1·a taste 12 ✓", and a gap


def column_width(index: int, count: int) -> int:
    """The columns of cake ``index`` of ``count``: the last one needs no gap after it."""
    return COLUMN - 1 if index == count - 1 else COLUMN


def cakes_text(
    cakes: Sequence[Cake],
    customers: Sequence[str],
    marked: Mapping[int, Mapping[int, str]] | None = None,
    focus: int | None = None,
    *,
    solo: bool = False,
) -> Text:
    """Three cakes side by side with their taste (not solo: it does not score there), the
    customers they meet as they stand, and a legend line."""
    marks = marked or {}
    matches = dict(best_matching(tuple(cakes), tuple(customers))) if customers else {}
    heads = []
    for index, cake in enumerate(cakes):
        if solo:  # solo scores customers only
            head = _("cake {n}·{key}").format(n=index + 1, key=CAKE_KEYS[index])
        else:
            head = _("{n}·{key} taste {taste}").format(
                n=index + 1, key=CAKE_KEYS[index], taste=taste(tuple(cake)).total
            )
        if index in matches:
            head += " ✓"
        style = "bold reverse" if index == focus else "bold"
        width = column_width(index, len(cakes))
        heads.append(Text(head[:width].ljust(width), style=style))
    lines = [Text("").join(heads)]
    rings = [ring(cake, marks.get(i)) for i, cake in enumerate(cakes)]
    for row in range(3):
        lines.append(
            Text("").join(
                r[row] + Text(" " * (column_width(i, len(rings)) - RING_WIDTH))
                for i, r in enumerate(rings)
            )
        )
    met = [
        _("cake {cake} meets {customer}").format(cake=c + 1, customer=customer_words(customers[k]))
        for c, k in sorted(matches.items())
    ]
    lines.append(
        Text("; ".join(met), style="italic")
        if met
        else Text(_("● rosette ◐ open half · r/b fruit"), style="dim")
    )
    return Text("\n").join(lines)


def customers_text(view: MasterView, width: int) -> Text:
    """The open customers in ``width`` columns, each request whole: its number, then its
    words, a line too long going on under the request's first letter (never under the
    number, where it would read as another customer)."""
    names = view.customer_names
    if not names:
        words = _("The game is over") if view.over else _("No customers yet")
        return Text("\n".join(wrap(words, width)), style="dim")
    lines = []
    for index, name in enumerate(names):
        number = f"{index + 1} "
        indent = " " * len(number)
        if name in CUSTOMERS:
            words, style = customer_words(name), ""
        else:
            words, style = _("face down"), "dim"
        for row, part in enumerate(wrap(words, width - len(number))):
            lines.append(Text.assemble((number if row == 0 else indent, "bold"), (part, style)))
    return Text("\n").join(lines)


@dataclass
class Marks:
    """What a person has chosen so far this step, before committing it."""

    left: int | None = None  # the card for the left neighbour (pass)
    right: int | None = None  # the card for the right neighbour (pass)
    spots: dict[int, tuple[int, int]] = field(default_factory=dict)  # slot: (cake, quarter)
    order: list[int] = field(default_factory=list)  # the slots placed, in order (undo)
    exchange: set[int] = field(default_factory=set)  # solo: the cards to exchange
    cake: int | None = None  # place: the cake chosen, waiting for its quarter
    kept: int | None = None  # a sealed keep: the card kept

    def clear(self) -> None:
        self.left = self.right = self.cake = self.kept = None
        self.spots.clear()
        self.order.clear()
        self.exchange.clear()

    @classmethod
    def of(cls, action: Action) -> Marks:
        """The marks that show a choice made (a sealed one, until it is revealed)."""
        marks = cls()
        if isinstance(action, PassCards):
            marks.left, marks.right = action.left, action.right
        elif isinstance(action, Keep):
            marks.kept = action.slot
        elif isinstance(action, Place):
            marks.spots = action.spots
            marks.order = list(action.slots)
        elif isinstance(action, Exchange):
            marks.exchange = set(action.slots)
        return marks


def hand_lines(
    view: MasterView,
    cursor: int,
    marks: Marks,
    names: Sequence[str],
    *,
    keys_live: bool,
    seen: set[int] | None = None,
    width: int | None = None,
) -> Text:
    """The hand, each card in full, with what is chosen for it; cards not in ``seen``
    (the hand at this seat's last choice this turn) are marked new, with who gave them,
    and the others kept. A row longer than ``width`` cuts the card's words, never what is
    chosen for it."""
    lines = []
    placing = len(marks.spots) == 3
    for index, slot in enumerate(view.hand):
        name = view.card(slot)
        here = index == cursor and keys_live
        text = Text()
        text.append("▸" if here else " ", style="bold")
        text.append(f"{index + 1} ", style="bold")
        note = _card_note(view, slot, marks, names, placing)
        if not note and seen is not None:
            note = _("kept") if slot in seen else _new_note(view, slot, names)
        note = f"  {note}" if note else ""
        if name is not None:
            text.append_text(short_card(name))
            text.append(" ")
            words = card_words(name)
        else:
            words = _("a card you have not seen")
        if width is not None:
            words = cut(words, width - text.cell_len - len(note))
        text.append(words)
        if note:
            text.append(note, style="bold italic")
        if here:
            text.stylize("reverse")
        lines.append(text)
    return Text("\n").join(lines)


def _new_note(view: MasterView, slot: int, names: Sequence[str]) -> str:
    """A card new in the hand: "new from Bob" when a player gave it (the one other seat that
    may know it), else "new" (dealt, or drawn in an exchange)."""
    givers = [
        seat
        for seat in range(view.players)
        if seat != view.seat and view.known_by[slot] & (1 << seat)
    ]
    if len(givers) == 1 and givers[0] < len(names):
        return _("new from {name}").format(name=names[givers[0]])
    return _("new")


def _card_note(
    view: MasterView, slot: int, marks: Marks, names: Sequence[str], placing: bool
) -> str:
    if slot == marks.left:
        return _("→ left ({name})").format(name=names[((view.seat or 0) + 1) % view.players])
    if slot == marks.right:
        return _("→ right ({name})").format(name=names[((view.seat or 0) - 1) % view.players])
    if slot in marks.spots:
        cake, quarter = marks.spots[slot]
        return _("→ cake {cake}, quarter {quarter}").format(cake=cake + 1, quarter=quarter + 1)
    if slot in marks.exchange:
        return _("→ exchange")
    if slot == marks.kept:
        return _("kept")
    if placing and view.solo:
        return _("→ discard")
    if slot in view.received:
        if view.phase is Phase.KEEP_BACK and marks.kept is not None:
            # the other card received, given back
            return _("→ back ({name})").format(name=names[1 - (view.seat or 0)])
        return _("received")
    return ""

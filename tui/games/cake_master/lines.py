"""The Cake Master screen's one-line texts: the title, and the prompt that says what the
keys do now and what the choice so far would score. Pure functions of one seat's view,
the marks made so far and the seats' names: no widgets here."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.actions import Keep, Place
from cakeparty.core.games.cake_master.cards import CARDS, CUSTOMERS
from cakeparty.core.games.cake_master.scoring import Cake, best_matching, meets, taste
from cakeparty.core.games.cake_master.state import ROUNDS, TURNS, Phase
from cakeparty.core.games.cake_master.text import (
    customer_words,
    exchanges_left_words,
    preview_words,
    seat_name,
)
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cake_master.parts import ICING_STYLES, Marks, fruit_code, icing_letter
from cakeparty.tui.table.session import away_seats
from cakeparty.tui.widgets.fitted import cut_apart, cut_rows, fit

#: What each step asks, in the prompt line.
STEP_WORDS = {
    Phase.PASS: N_("pass a card each way, keep one"),
    Phase.KEEP: N_("keep one card, give two"),
    Phase.KEEP_BACK: N_("keep one card, give one back"),
    Phase.PLACE: N_("place the cards on the cakes"),
}


def placed_line(event: ev.Placed, names: Sequence[str]) -> str:
    """A placement in one short line, so the log shows every seat's at once: "Bob: P rb
    → cake 1 q2, W - → cake 3 q1, C bb → cake 3 q2" (a card as its icing letter and
    fruit, as the hand shows it; the replay tells the cards in full)."""
    cards = ", ".join(
        _("{card} → cake {cake} q{quarter}").format(
            card=f"{icing_letter(card)} {fruit_code(card)}", cake=cake + 1, quarter=quarter + 1
        )
        for card, cake, quarter in zip(event.cards, event.cakes, event.quarters, strict=True)
    )
    return _("{name}: {cards}").format(name=seat_name(event.seat, names), cards=cards)


def decision_line(view: MasterView, seat: int, names: Sequence[str]) -> str:
    """What ``seat`` decides now, from the public view: "Bob chooses: place the cards on
    the cakes"."""
    name = names[seat] if 0 <= seat < len(names) else "?"
    step = STEP_WORDS.get(view.phase)
    if step is None:
        return _("{name} chooses").format(name=name)
    return _("{name} chooses: {step}").format(name=name, step=_(step))


def free_quarters(view: MasterView, marks: Marks, cake: int) -> list[int]:
    """The quarters of the viewer's ``cake`` still empty, this step's marks counted."""
    assert view.seat is not None
    taken = {q for c, q in marks.spots.values() if c == cake}
    return [
        q for q, slot in enumerate(view.cakes[view.seat][cake]) if slot is None and q not in taken
    ]


def cakes_with_marks(view: MasterView, marks: Marks) -> list[Cake]:
    """The viewer's cakes with this step's placements so far put on them."""
    assert view.seat is not None
    cakes = [list(c) for c in view.seat_cakes(view.seat)]
    for slot, (cake, quarter) in marks.spots.items():
        cakes[cake][quarter] = view.card(slot)
    return [tuple(c) for c in cakes]


def title_line(
    view: MasterView, names: Sequence[str], width: int, away: Collection[int] = ()
) -> Text:
    """Game, round and turn; the stars of every seat, a player ``away`` (offline) shown
    reversed (solo: customers met, exchanges). The line fits ``width`` less its two
    columns of padding: the names are cut alike to the room left (a short name kept
    whole); where that would leave them fewer than :data:`NAME_MOST` columns, the round
    and turn are told in short ("R1/3 T2/4") to give the names more."""
    text = _title_start(view, short=False)
    if view.solo:
        text.append(_("customers met {n}").format(n=view.met), style="bold")
        text.append(" · ")
        text.append(_("exchanges left {n}").format(n=view.exchanges_left))
        return text
    limit = width - 2
    longest = max(1, *(cell_len(n) for n in names[: view.players]))
    line = text
    for short, fewest in ((False, NAME_MOST), (True, 1)):
        for most in range(longest, fewest - 1, -1):
            line = _title_start(view, short)
            _append_stars(line, view, names, most, away)
            if line.cell_len <= limit:
                return line
    return line


#: The fewest columns Cake Master's title cuts the names to before it shortens the round
#: and turn to give them more.
NAME_MOST = 5


def _title_start(view: MasterView, short: bool) -> Text:
    """The game, the round and the turn, each in words or (``short``) in short."""
    text = Text()
    text.append(_("Cake Master"), style="bold")
    text.append(" · ")
    round_, turn = max(view.round, 1), max(view.turn_in_round, 1)
    if short:
        text.append(
            _("R{n}/{of} T{turn}/{turns}").format(n=round_, of=ROUNDS, turn=turn, turns=TURNS)
        )
    else:
        text.append(_("round {n}/{of}").format(n=round_, of=ROUNDS))
        text.append(" · ")
        text.append(_("turn {n}/{of}").format(n=turn, of=TURNS))
    text.append(" · ")
    return text


def _append_stars(
    text: Text, view: MasterView, names: Sequence[str], most: int, away: Collection[int]
) -> None:
    """Every seat's name, cut alike to ``most`` columns, and its stars."""
    # a share too narrow for an ellipsis keeps one more letter of each name
    shown = cut_apart(names, most, "…" if most > 5 else "")
    for seat in range(view.players):
        if seat:
            text.append(" ")
        style = "bold reverse" if seat in away else "bold"
        text.append(f"{shown[seat]}★{view.stars[seat]}", style=style)


def prompt_line(
    view: MasterView, marks: Marks, names: Sequence[str], slot: int, placement: Place | None
) -> Text:
    """What the keys do now in the viewer's step, and what the choice would score.

    ``slot``: the card under the cursor; ``placement``: the legal placement the marks
    make once all three cards are placed.
    """
    seat = view.seat
    assert seat is not None
    if view.phase is Phase.PASS:
        left, right = names[(seat + 1) % view.players], names[(seat - 1) % view.players]
        if marks.left is not None and marks.right is not None:
            return Text(_("enter: pass them · u undo"), style="bold")
        return Text(
            _("Pick a card (←→ {keys}): l gives it to {left}, r to {right}").format(
                keys=card_keys(view), left=left, right=right
            )
        )
    if view.phase is Phase.KEEP:
        return Text(
            _("Pick the card to keep (←→ {keys}), k or enter: the other two go over").format(
                keys=card_keys(view)
            )
        )
    if view.phase is Phase.KEEP_BACK:
        return Text(
            _("Keep one of the cards received (←→ {keys}), k or enter: give the other back").format(
                keys=card_keys(view)
            )
        )
    if view.phase is not Phase.PLACE:
        return Text("")
    if marks.exchange:
        count = len(marks.exchange)
        return Text(
            ngettext(
                "enter: exchange {n} card · x marks or unmarks · {left}",
                "enter: exchange {n} cards · x marks or unmarks · {left}",
                count,
            ).format(n=count, left=exchanges_left_words(view.exchanges_left)),
            style="bold",
        )
    if len(marks.spots) == 3:
        words = preview_words(view, placement) if placement is not None else ""
        return Text(_("{preview} · enter commits · u undo").format(preview=words), style="bold")
    if marks.cake is not None:
        return quarter_hints(view, marks, slot, marks.cake)
    if view.exchanges_left > 0 and not marks.spots:
        words = _("Place card {n} of 3: pick it (←→ {keys}), cake a/b/c, quarter 1–4 · x exchange")
    else:
        words = _("Place card {n} of 3: pick it (←→ {keys}), cake a/b/c, quarter 1–4")
    return Text(words.format(n=len(marks.spots) + 1, keys=card_keys(view)))


def card_keys(view: MasterView) -> str:
    """The number keys that pick a card now: every card of the hand, or in the give-back
    step the cards received (the only ones that may be kept)."""
    if view.phase is Phase.KEEP_BACK:
        numbers = [i + 1 for i in keepable(view)]
    else:
        numbers = list(range(1, len(view.hand) + 1))
    if len(numbers) < 2:
        return "".join(map(str, numbers))
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return " ".join(map(str, numbers))


def keepable(view: MasterView) -> list[int]:
    """The places in the hand of the cards that may be kept now."""
    return [i for i, slot in enumerate(view.hand) if Keep(slot) in view.legal]


def quarter_hints(view: MasterView, marks: Marks, slot: int, cake: int) -> Text:
    """Each free quarter of ``cake`` with the cake's taste if ``slot`` goes there (solo:
    none), and the customer a finished cake would meet."""
    cakes = cakes_with_marks(view, marks)
    hints = []
    for quarter in free_quarters(view, marks, cake):
        trial = list(cakes[cake])
        trial[quarter] = view.card(slot)
        cake_now = tuple(trial)
        hint = str(quarter + 1)
        if not view.solo:
            hint = _("{q}: taste {n}").format(q=quarter + 1, n=taste(cake_now).total)
        met = [c for c in view.customer_names if c in CUSTOMERS and meets(c, cake_now)]
        if met:
            hint += " ✓ " + customer_words(met[0])
        hints.append(hint)
    return Text(
        _("Cake {cake}, which quarter? {hints}").format(cake=cake + 1, hints=" · ".join(hints))
    )


def _cake_head(cake: Cake, met: bool) -> str:
    """A cake's taste, ticked where it meets a customer as the cakes stand: "12 ✓"."""
    return str(taste(tuple(cake)).total) + (" ✓" if met else "")


def board(table: Any, view: MasterView, width: int) -> Text:
    """A spectator's table: round and turn; a line per seat: its stars, and each of its
    three cakes as the icing of its quarters (· where none is placed yet) and its taste,
    ✓ where the cake meets a customer as the cakes stand; then the open customers."""
    names = table.names
    title = Text(_("Cake Master"), style="bold")
    title.append(" · " + _("round {n}/{of}").format(n=max(view.round, 1), of=ROUNDS))
    title.append(" · " + _("turn {n}/{of}").format(n=max(view.turn_in_round, 1), of=TURNS))
    rows = [title, *cake_rows(names, view, away_seats(table))]
    for index, customer in enumerate(view.customer_names):
        row = Text(_("Customer {n}:").format(n=index + 1) + " ", style="bold")
        if customer in CUSTOMERS:
            row.append(customer_words(customer))
        else:
            row.append(_("face down"), style="dim")
        rows.append(row)
    return cut_rows(rows, width)


def cake_rows(names: Sequence[str], view: MasterView, away: Collection[int] = ()) -> list[Text]:
    """A row per seat: its stars, and each of its three cakes as the icing of its
    quarters (· where none is placed yet) and its taste, ✓ where the cake meets a customer
    as the cakes stand, then "offline" for a player ``away``; then a line that says what
    the row shows."""
    rows = []
    customers = tuple(c for c in view.customer_names if c in CUSTOMERS)  # face up
    seats = range(view.players)
    met = {
        seat: dict(best_matching(view.seat_cakes(seat), customers)) if customers else {}
        for seat in seats
    }
    name_width = min(10, max(cell_len(n) for n in names) + 1)
    shown = cut_apart(names, name_width - 1)
    for seat in seats:
        row = Text(fit(shown[seat], name_width - 1) + " ", style="bold")
        row.append(f"★{view.stars[seat]}".ljust(4))
        for index, cake in enumerate(view.seat_cakes(seat)):
            row.append("│ ", style="dim")
            for name in cake:
                if name is None:
                    row.append("· ", style="dim")
                else:
                    row.append(icing_letter(name), style=ICING_STYLES[CARDS[name].icing])
                    row.append(" ")
            said = _cake_head(cake, index in met[seat])
            row.append(said.ljust(6), style="bold" if index in met[seat] else "")
        if seat in away:
            row.append(" ")
            row.append(_("offline"), style="bold reverse")
        rows.append(row)
    rows.append(Text(_("each quarter's icing, then the taste; ✓ meets a customer"), style="dim"))
    return rows

"""Cake Master's help: its keys, and a card reference (the card anatomy, the taste points
and the 18 customers) for the help screen's Cards tab."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cakeparty.core.games.cake_master.cards import CUSTOMERS
from cakeparty.core.games.cake_master.text import customer_words
from cakeparty.core.i18n import N_, _

#: The keys, for the Keys tab and the README.
KEYS: tuple[tuple[str, str], ...] = (
    ("← → / 1–4", N_("pick a card of your hand")),
    ("l / r", N_("pass step: give the card to the left / to the right neighbour")),
    ("k / enter", N_("two players: keep the card (the others are given)")),
    ("a b c → 1–4", N_("place step: the cake, then the quarter, for the card")),
    ("esc", N_("place step: back from the quarter to the cakes")),
    ("x", N_("solo: mark the card to exchange (3 exchanges a game)")),
    ("enter", N_("commit the choice (all 3 cards placed, or both passed)")),
    ("u / backspace", N_("undo the last mark")),
    ("o", N_("look at the next player's cakes (again: back to yours)")),
    ("PgUp / PgDn", N_("scroll the log")),
    ("r / d / e", N_("after the game: replay face up / new game / the results again")),
    ("? / F1", N_("this help")),
    ("q", N_("quit the game (asks first)")),
)

#: How a card and a cake read on the screen.
ANATOMY = (
    N_(
        "Each card is a quarter of a cake: an icing (P Pink, W White, C Chocolate), a left "
        "and a right edge (plain, or a half-rosette) and fruit (r a raspberry, b a blueberry)."
    ),
    N_(
        "A cake is a ring of quarters 1 2 / 4 3, clockwise; between two quarters: ● a "
        "complete rosette, ◐ a half-rosette nothing matches, · plain edges."
    ),
    N_(
        "Taste: one icing 3, two icings 1, three 0; +1 per complete rosette; +1 for a finished "
        "cake with no unmatched half; +1 per raspberry–blueberry pair."
    ),
)


def cards_reference() -> Group:
    """The card anatomy, then every customer with its request."""
    table = Table(expand=True, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column(_("customer"), no_wrap=True, style="bold")
    table.add_column(_("wants one cake with"), ratio=1)
    for name, customer in CUSTOMERS.items():
        table.add_row(_("C{n}").format(n=customer.number), customer_words(name))
    parts = [Text(_(line)) for line in ANATOMY]
    return Group(*(p for line in parts for p in (line, Text(""))), table)

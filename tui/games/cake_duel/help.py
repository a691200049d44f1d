"""Cake Duel's help: its keys, and the card reference for the help screen's Cards tab."""

from __future__ import annotations

from functools import cache

from rich.table import Table
from rich.text import Text

from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.text import card_effect, card_title, card_type
from cakeparty.core.i18n import N_, _, current_language

#: The keys of a duel, for the Keys tab and the README.
DUEL_KEYS: tuple[tuple[str, str], ...] = (
    ("← → / h l", N_("move along your hand")),
    ("space / 1–9", N_("select a card (or unselect it)")),
    ("c", N_("claim an attack with the selected cards")),
    ("p", N_("pass (no attack this turn)")),
    ("b", N_("block with the selected cards")),
    ("x", N_("challenge the claim just made")),
    ("a", N_("accept: no challenge, no block, the claim stands")),
    ("s", N_("Summoner: name the card to look for")),
    ("t", N_("Priest: the card to take")),
    ("f", N_("team mode: choose who attacks first")),
    ("o / k", N_("team mode: offer a trade / keep your hand")),
    ("y / n", N_("team mode: agree to / refuse a trade")),
    ("w / h", N_("tournament: reveal your played Sir Wolfy / keep it hidden")),
    ("PgUp / PgDn", N_("scroll the log")),
    ("r / d / e", N_("after the duel: replay face up / new duel / the results again")),
    ("? / F1", N_("this help")),
    ("esc", N_("close a dialog")),
    ("q", N_("quit the game (asks first)")),
)


#: A tournament's keys: a duel's, but the game ends after its last duel, and d starts a
#: new tournament.
TOURNAMENT_KEYS: tuple[tuple[str, str], ...] = tuple(
    (
        key,
        N_("after the tournament: replay face up / new tournament / the results again"),
    )
    if key == "r / d / e"
    else (key, what)
    for key, what in DUEL_KEYS
)


def cards_table() -> Table:
    """The reference in the language in effect (drawn once per language)."""
    return _cards_table(current_language())


@cache
def _cards_table(language: str) -> Table:
    """Every Cake Duel card: name, copies, type and effect; core set first."""
    table = Table(expand=True, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column(_("card"), no_wrap=True, style="bold")
    table.add_column("×", justify="right", no_wrap=True)
    table.add_column(_("type"), no_wrap=True)
    table.add_column(_("effect"), ratio=1)
    core = [n for n, c in CARDS.items() if not c.special]
    specials = [n for n, c in CARDS.items() if c.special]
    for group, names in ((_("Core deck"), core), (_("Specials"), specials)):
        table.add_row(Text(group, style="italic underline"), "", "", "")
        for name in names:
            table.add_row(
                card_title(name),
                str(CARDS[name].copies),
                card_type(name, short=True),
                card_effect(name),
            )
    return table


def reference_entries(specials: bool = True) -> list[Text]:
    """The cards in short, one entry each, for a tall terminal's spare rows ("Soldier ×5
    weapon · Steal 1 cake."): the core deck, then the specials (unless the game has
    none: ``specials`` False)."""
    entries = []
    cards = sorted(CARDS.items(), key=lambda item: item[1].special)
    for name, card in cards if specials else [c for c in cards if not c[1].special]:
        entry = Text(card_title(name), style="bold")
        entry.append(f" ×{card.copies} ")
        entry.append(card_type(name, short=True), style="italic")
        entry.append(" · " + card_effect(name))
        entries.append(entry)
    return entries

"""Cake of Doom's help: its keys, and a reference for the help screen's Cards tab — the
aliens and their powers, the regions (continent, minimum, control bonus), DOOM and the
cards."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cakeparty.core.games.cake_of_doom.cards import (
    ALIENS,
    CONTINENT_TITLES,
    DOOM_MINIMUM,
    MISCHIEF,
    MISCHIEF_EFFECTS,
    REGIONS,
    SORT_TITLES,
    SPECIALTIES,
    SPONGES,
)
from cakeparty.core.i18n import N_, _, current_language

#: The keys, for the Keys tab and the README.
KEYS: tuple[tuple[str, str], ...] = (
    ("← → / h l", N_("move along your hand (cakes, then mischief)")),
    (
        "space / + , - / backspace",
        N_("add one card of that kind to the offer or discard; take one back"),
    ),
    ("t", N_("play a Tractor Beam: take the top card of a discard pile")),
    ("a", N_("play an Abduction: a random card from another player's hand")),
    ("b", N_("bribe: choose the target, then add cake cards; enter offers")),
    ("p", N_("pass the bribe step")),
    ("x", N_("discard cards of your choice on your turn: mark them, then enter")),
    ("s / n", N_("sabotage the bribe (choose the card) / no sabotage")),
    ("f / n", N_("answer a sabotage with a Force Field / let it stand")),
    ("enter", N_("offer, discard, or open the list of this step's choices")),
    ("esc", N_("drop the offer or the discard being built; close a dialog")),
    ("PgUp / PgDn", N_("scroll the log")),
    ("r / d / e", N_("after the game: replay face up / new game / the results again")),
    ("? / F1", N_("this help")),
    ("q", N_("quit the game (asks first)")),
)

#: How the screen reads.
READING = (
    N_(
        "Regions: the continent, the minimum bribe (≥), who holds it and the value lying on "
        "it; to take a held region an offer must beat that value. ★ marks a control bonus "
        "(advanced game)."
    ),
    N_(
        "An offer shows each card with its +1 where its specialty counts, the value with every "
        "bonus, and what it must reach. A specialty's continent is written after it (Eu, As, "
        "Af, Am, Oc, Po)."
    ),
)


def _table(*columns: tuple[str, bool]) -> Table:
    table = Table(expand=True, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    for title, wide in columns:
        if wide:
            table.add_column(title, ratio=1)
        else:
            table.add_column(title, no_wrap=True)
    return table


def reference() -> Group:
    """The reference in the language in effect (drawn once per language)."""
    return _reference(current_language())


@cache
def _reference(language: str) -> Group:
    """The aliens, the regions and DOOM, the cake cards, the mischief cards."""
    aliens = _table((_("alien"), False), (_("power"), True))
    for alien in ALIENS.values():
        aliens.add_row(Text(_(alien.title), style="bold"), _(alien.power))
    regions = _table(
        (_("region"), False), (_("continent"), False), ("≥", False), (_("control bonus"), True)
    )
    for region in REGIONS.values():
        regions.add_row(
            Text(_(region.title), style="bold"),
            _(CONTINENT_TITLES[region.continent]),
            str(region.minimum),
            _(region.bonus),
        )
    regions.add_row(
        Text(_("DOOM"), style="bold"),
        _("favourite"),
        str(DOOM_MINIMUM),
        _("hold 2 regions to bribe it; win it and win the game at once"),
    )
    cakes = _table((_("cake card"), False), ("×", False), (_("+1 on"), True))
    cakes.add_row(Text(_(SORT_TITLES["sponge"]), style="bold"), str(SPONGES), "—")
    for continent, sorts in SPECIALTIES.items():
        for sort in sorts:
            cakes.add_row(
                Text(_(SORT_TITLES[sort]), style="bold"), "3", _(CONTINENT_TITLES[continent])
            )
    mischief = _table((_("mischief card"), False), ("×", False), (_("effect"), True))
    for sort, copies in MISCHIEF.items():
        mischief.add_row(
            Text(_(SORT_TITLES[sort]), style="bold"), str(copies), _(MISCHIEF_EFFECTS[sort])
        )
    parts: list[object] = []
    for line in READING:
        parts += [Text(_(line)), Text("")]
    for title, table in (
        (_("Aliens"), aliens),
        (_("Regions and DOOM"), regions),
        (_("Cake cards"), cakes),
        (_("Mischief cards"), mischief),
    ):
        parts += [Text(title, style="bold underline"), table, Text("")]
    return Group(*parts)  # type: ignore[arg-type]


def reference_entries(aliens: Sequence[str] = ()) -> list[Text]:
    """The powers of the ``aliens`` in play, then what each mischief card does, one entry
    each, for a tall terminal's spare rows."""
    entries = []
    for name in dict.fromkeys(aliens):
        entry = Text(_(ALIENS[name].title), style="bold")
        entry.append(" · " + _(ALIENS[name].power))
        entries.append(entry)
    for sort, copies in MISCHIEF.items():
        entry = Text(_(SORT_TITLES[sort]), style="bold")
        entry.append(f" ×{copies} · " + _(MISCHIEF_EFFECTS[sort]))
        entries.append(entry)
    return entries

"""Cookies Battle's help: its keys, and a reference of the cards, the pieces, the markers
and who wins a trick, for the help screen's Cards tab."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cakeparty.core.games.cookies_battle.cards import (
    MARKER_KINDS,
    MARKER_TITLES,
    PIECE_KINDS,
    PIECE_TITLES,
)
from cakeparty.core.i18n import N_, _

#: The keys, for the Keys tab and the README.
KEYS: tuple[tuple[str, str], ...] = (
    ("← → / Home End", N_("pick a card of your hand (sorted by suit)")),
    (
        "enter / space",
        N_("play the card (the bright ones may be played, the dim ones not) · the duel: give it"),
    ),
    ("l / r", N_("pass step: the card for the left / the right neighbour")),
    ("enter", N_("pass step: pass both cards once chosen")),
    ("u", N_("undo the pass marks")),
    ("m", N_("use a magic marker: on your turn, or when a marker window asks you")),
    ("n", N_("let a marker window pass (it passes by itself after a few seconds)")),
    ("g", N_("a Swap aimed at you: choose the piece you give")),
    (
        "w",
        N_(
            "marker windows: ask me always, only to answer a marker just used (a Defense;"
            " the default at a shared keyboard), or never (markers then on your own turn)"
        ),
    ),
    ("PgUp / PgDn", N_("scroll the log")),
    ("r / d / e", N_("after the game: replay face up / new game / the results again")),
    ("? / F1", N_("this help")),
    ("q", N_("quit the game (asks first)")),
)

#: What each marker does, by kind.
MARKER_EFFECTS: dict[str, str] = {
    "theft": N_("take one piece of a player, at random"),
    "puppet": N_("a player's next card is taken at random from their hand"),
    "swap": N_("you and a player give each other one piece, each choosing"),
    "right-breeze": N_("everyone takes a random piece from the player on their right"),
    "left-breeze": N_("everyone takes a random piece from the player on their left"),
    "defense": N_("cancel the marker another player has just used"),
}

#: The cards, how they read on the screen.
CARD_LINES = (
    N_("B G R: Blue, Green and Red, 1–12 · ★: Gold trumps, 1–12"),
    N_("Specials, playable at any time: 0 (three), 13 (two), Mg the Magician"),
    N_(
        "Follow the turn suit (the first colour card played) if you can; a special always; "
        "no Gold while you hold the turn suit."
    ),
    N_(
        "Who wins: a 13 (the first); else a 0 if a 12 is on the table; else the highest "
        "Gold; else the highest of the turn suit; else the first 0, else the first card."
    ),
    N_(
        "Markers: the Magician earns one; so does the lowest 2–5 (a 1 stops it, any 0 "
        "blocks it; ties: the weaker card, still tied both)."
    ),
)


def cards_reference(options: Any = None) -> Group:
    """The cards, then the pieces with their points, then the markers with their effect,
    as the game's ``options`` play it (the beginners' deck has no 0, 13 or Magician and the
    highest score wins; the duel has no Magician and no markers); built when shown, in the
    language in use then."""
    rules = variant_rules(options)
    pieces = Table(expand=True, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    pieces.add_column(_("piece"), no_wrap=True, style="bold")
    pieces.add_column(_("in the box"), justify="right")
    pieces.add_column(_("one piece"), justify="right")
    pieces.add_column(_("whole cookie of 4"), justify="right")
    for kind, (count, points, whole) in PIECE_KINDS.items():
        pieces.add_row(_(PIECE_TITLES[kind]), str(count), str(points), str(whole or "—"))
    lines = [*rules.deck, rules.follow, *rules.wins]
    parts: list[Any] = [Text(_(line)) for line in lines]
    parts += [Text(""), pieces]
    if rules.markers:
        markers = Table(expand=True, box=None, padding=(0, 1), show_edge=False, header_style="bold")
        markers.add_column(_("marker"), no_wrap=True, style="bold")
        markers.add_column(_("what it does"), ratio=1)
        for kind in MARKER_KINDS:
            markers.add_row(_(MARKER_TITLES[kind]), _(MARKER_EFFECTS[kind]))
        parts += [Text(""), markers]
    return Group(*parts, Text(""), Text(_(rules.scoring)))


def reference_entries(options: Any = None) -> list[Text]:
    """Who wins a trick, what earns a marker, what each marker does, then which card may
    be played, one entry each, for a tall terminal's spare rows; as the game's
    ``options`` play it (the beginners' deck has no 0, 13 or Magician; the duel no
    Magician and no markers)."""
    rules = variant_rules(options)
    entries = [Text(_(line)) for line in rules.wins]
    for kind in MARKER_KINDS if rules.markers else ():
        entry = Text(_(MARKER_TITLES[kind]), style="bold")
        entry.append(" · " + _(MARKER_EFFECTS[kind]))
        entries.append(entry)
    return entries + [Text(_(line)) for line in (rules.follow, *rules.deck)]


@dataclass(frozen=True)
class VariantRules:
    """What a variant's reference says, untranslated: the deck's lines, which card may be
    played, who wins a trick (and what earns a marker), how the game is scored; whether
    it has markers."""

    deck: tuple[str, ...]
    follow: str
    wins: tuple[str, ...]
    scoring: str
    markers: bool = True


def variant_rules(options: Any) -> VariantRules:
    """The reference of the variant ``options`` play (None: the standard game's)."""
    if options is not None and options.beginners:
        return VariantRules(
            (CARD_LINES[0],),
            BEGINNERS_FOLLOW,
            (BEGINNERS_WINNER, BEGINNERS_MARKERS),
            BEGINNERS_SCORING,
        )
    if options is not None and options.duel:
        return VariantRules(
            (DUEL_CARDS, DUEL_SPECIALS), CARD_LINES[2], (CARD_LINES[3],), DUEL_SCORING, False
        )
    return VariantRules(CARD_LINES[:2], CARD_LINES[2], CARD_LINES[3:], SCORING)


#: How the game is scored, by variant.
SCORING = N_(
    "Scoring: each rotten piece cancels the good piece whose loss costs you least, then "
    "whole cookies; +2 per unused marker. The highest score has a tummy ache: the "
    "second wins."
)
BEGINNERS_SCORING = N_(
    "Scoring: each rotten piece cancels the good piece whose loss costs you least, then "
    "whole cookies; +2 per unused marker. The highest score wins."
)
DUEL_SCORING = N_(
    "Scoring: each rotten piece cancels the good piece whose loss costs you least, then "
    "whole cookies. The highest score wins."
)


#: The beginners' game, which has no 0, 13 or Magician: who wins a trick, what earns a
#: marker, and which card may be played.
BEGINNERS_WINNER = N_("Who wins: the highest Gold; else the highest of the turn suit.")
BEGINNERS_MARKERS = N_(
    "Markers: the lowest 2–5 earns one (a 1 stops it; ties: the weaker card, still tied both)."
)
BEGINNERS_FOLLOW = N_(
    "Follow the turn suit (the first colour card played) if you can; no Gold while you hold "
    "the turn suit."
)
#: The duel's cards: two colours and the gold, five values each; no Magician.
DUEL_CARDS = N_("B G: Blue and Green, 1 6 8 10 12 · ★: Gold trumps, 1 6 8 10 12")
DUEL_SPECIALS = N_("Specials, playable at any time: 0 (three), 13 (two)")

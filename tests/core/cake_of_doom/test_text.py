"""Cake of Doom in words: every move a seat is offered and every event has a sentence."""

from __future__ import annotations

import doctest
import random

from cakeparty.core import i18n
from cakeparty.core.games.cake_of_doom import text
from cakeparty.core.games.cake_of_doom.text import (
    alien_words,
    card_words,
    describe_action,
    final_lines,
    offer_words,
    region_words,
)
from tests.i18n_catalogs import language

from .helpers import new
from .stacking import NAMES, one, stacked

ABDUCTIONS = ["abduction"] * 3


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(text).failed == 0


def test_cards_regions_and_aliens_read_as_words() -> None:
    assert card_words("moon-cake-1") == "Moon Cake (Asia +1)"
    assert card_words("sponge-9") == "Sponge Cake"
    assert card_words("cake-monster-1").startswith("Cake Monster (sabotage")
    assert card_words(None) == "a hidden card"
    assert region_words("western-europe") == "Western Europe (Europe, minimum 3)"
    assert region_words("arctic", bonus=True).endswith("from the player on your left")
    assert alien_words("glorp") == "Glorp: hand limit 12 instead of 10"


def test_every_move_offered_in_a_game_reads_as_words() -> None:
    match = new(4, 5, "advanced-blind")
    rng = random.Random(5)
    seen: set[type] = set()
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        for move in view.legal:
            words = describe_action(view, move, NAMES)
            assert words and words != str(move), move
            seen.add(type(move))
        if view.offer is not None:
            assert offer_words(view.offer, NAMES, view.known)
        match.apply(rng.choice(view.legal), seat)
    assert len(seen) >= 8


def test_a_forfeit_reads_its_reason_in_words_not_the_peers_code() -> None:
    from cakeparty.core import get_game
    from cakeparty.core.actions import Forfeited
    from cakeparty.core.games.cake_of_doom import events as ev

    match = new(3, 5)
    state = get_game("cake-of-doom").apply(match.state, Forfeited(1, "false-opening"), None)
    (forfeit,) = (e for e in state.events if isinstance(e, ev.Forfeited))
    # it read "Paulo forfeits: false-opening"
    assert text.describe(forfeit, NAMES) == (
        "Paulo forfeits: a sealed choice opened to something else"
    )


def test_a_false_claim_reads_in_the_language_of_its_reader_not_of_the_move() -> None:
    """A card played as what it is not, applied in Spanish, reads in Polish (and in English)
    in the event and the end's standings; the state keeps the reason untranslated, with the
    cards' titles that fill it."""
    from cakeparty.core.games.cake_of_doom import events as ev
    from cakeparty.core.games.cake_of_doom.actions import Abduct

    with language("es"):
        m = stacked(3, mischief={0: ["space-teddy"] * 3, 1: ABDUCTIONS, 2: ABDUCTIONS})
        m.apply(Abduct(one(m, 0, "space-teddy"), 1), 0)
    (cheated,) = (e for e in m.state.events if isinstance(e, ev.Cheated))
    (breach,) = m.state.breaches
    assert cheated.reason == breach.reason == "played {card} as {claimed}"
    assert cheated.params == breach.params == (("card", "Space Teddy"), ("claimed", "Abduction"))
    view = m.view(None)
    english = "Sally cheated: played Space Teddy as Abduction"
    assert text.describe(cheated, NAMES) == english
    assert final_lines(view, NAMES)[-1] == english
    with language("pl"):
        polish = "Sally oszukuje: zagrano kartę {card} jako {claimed}".format(
            card=i18n._("Space Teddy"), claimed=i18n._("Abduction")
        )
        assert "Space Teddy" not in polish  # the cards' titles in Polish too
        assert text.describe(cheated, NAMES) == polish
        assert final_lines(view, NAMES)[-1] == polish  # the end dialog's last line


def test_an_offer_below_the_minimum_reads_in_the_language_of_its_reader() -> None:
    from cakeparty.core.games.cake_of_doom import events as ev
    from cakeparty.core.games.cake_of_doom.actions import Bribe

    with language("pl"):
        m = stacked(
            3,
            regions=["western-europe"],
            cakes={0: ["sponge", "sponge", "tiramisu"]},
            mischief={0: ["laser-fork"] * 3, 1: ABDUCTIONS, 2: ABDUCTIONS},
        )
        two = tuple(sorted(s for s in m.state.hands[0] if m.dealer.card(s).startswith("sponge")))
        m.apply(Bribe("western-europe", two[:2]), 0)
    (cheated,) = (e for e in m.state.events if isinstance(e, ev.Cheated))
    assert cheated.params == (("value", 2), ("need", 3))
    with language("es"):
        assert text.describe(cheated, NAMES) == "Sally hizo trampa: ofreció 2 donde hacía falta 3"
    assert text.describe(cheated, NAMES) == "Sally cheated: offered 2 where 3 is needed"

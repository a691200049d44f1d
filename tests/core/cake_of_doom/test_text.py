"""Cake of Doom in words: every move a seat is offered and every event has a sentence."""

from __future__ import annotations

import doctest
import random

from cakeparty.core.games.cake_of_doom import text
from cakeparty.core.games.cake_of_doom.text import (
    alien_words,
    card_words,
    describe_action,
    offer_words,
    region_words,
)

from .helpers import new
from .stacking import NAMES


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

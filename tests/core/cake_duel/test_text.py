"""Plain-words rendering of Cake Duel events and actions."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
    AGREE,
    CHALLENGE,
    NO_ACTION,
    NO_TRADE,
    PASS,
    REFUSE,
    Block,
    Claim,
    Declare,
    Lead,
    Summon,
    Take,
    Taunt,
    Trade,
)
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.games.cake_duel.text import (
    card_list,
    card_title,
    card_type,
    claim_text,
    describe,
    describe_action,
    describe_decision,
    score_text,
    side_name,
    side_says,
)
from cakeparty.core.i18n import _, use_language

DUO = ("Ann", "Bot")
TEAM = ("Ann", "Bo", "Cy", "Di")


def test_card_names_come_from_their_titles() -> None:
    assert card_title("sir-wolfy") == "Sir Wolfy"
    assert card_list(["defender", None, "soldier"]) == "Defender, ?, Soldier"
    assert claim_text(2, "wizard") == "2 × Wizard"
    assert card_type("wizard") == "magic attacker"
    assert card_type("pierrot", short=True) == "transforming"
    for name, card in CARDS.items():
        assert card_title(name) == card.title


def test_sides_are_named_by_their_players() -> None:
    assert side_name(1, DUO) == "Bot"
    assert side_name(0, TEAM) == "team Ann & Cy"
    assert score_text((1, 2), DUO) == "Ann 1 – 2 Bot"


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (ev.Claimed(1, 0, "wizard", (3, 8)), "Bot claims 2 × Wizard (2 cards facedown)"),
        (ev.Claimed(0, 1, "soldier", (3,)), "Ann claims 1 × Soldier (1 card facedown)"),
        (ev.Passed(1, auto=False), "Bot passes"),
        (ev.Passed(0, auto=True), "Ann has no cards and passes"),
        (ev.Blocked(0, "defender", (4,)), "Ann blocks with 1 × Defender (1 card facedown)"),
        (ev.Accepted(1), "Bot takes no action"),
        (
            ev.Challenged(0, 1, "defender", (1, 2), ("defender", "soldier"), truthful=False),
            "Ann challenges Bot's 2 × Defender — the cards were Defender, Soldier: a bluff!",
        ),
        (
            ev.Challenged(0, 1, "wizard", (1,), ("wizard",), truthful=True),
            "Ann challenges Bot's 1 × Wizard — the cards were Wizard: true!",
        ),
        (  # a Pierrot flipped became the card claimed: the claim's truth is explained
            ev.Challenged(0, 1, "soldier", (1, 2), ("soldier", "pierrot"), truthful=True),
            "Ann challenges Bot's 2 × Soldier — the cards were Soldier, Pierrot: true! "
            "(Pierrot counted as Soldier)",
        ),
        (
            ev.Challenged(0, 1, "archer", (1, 2), ("mimic", "archer"), truthful=True),
            "Ann challenges Bot's 2 × Archer — the cards were Mimic, Archer: true! "
            "(Mimic counted as Archer)",
        ),
        (  # a lie says nothing of the kind (a Pierrot does not make a special card)
            ev.Challenged(0, 1, "priest", (1,), ("pierrot",), truthful=False),
            "Ann challenges Bot's 1 × Priest — the cards were Pierrot: a bluff!",
        ),
        (ev.Took(0, 1, (5,)), "Ann's Priest takes 1 of Bot's facedown cards into hand"),
        (ev.Stole(1, 0, 2), "Bot steals 2 cakes from Ann"),
        (ev.Stole(1, 0, 1), "Bot steals 1 cake from Ann"),
        (ev.HandSizeUp(0, 5), "Ann's hand size is now 5"),
        (ev.Summoned(1, "wizard"), "Bot's Summoner calls for Wizard"),
        (ev.Declared(0, "wizard", 0), "Ann holds no Wizard"),
        (ev.Declared(0, "wizard", 2), "Ann holds 2 × Wizard"),
        (ev.Looked(1, 0), "Bot looks at Ann's hand"),
        (ev.ExtraTurn(0), "Ann takes another turn"),
        (ev.Drew(0, 2), "Ann draws 2 cards"),
        (ev.Taunted(1, 9), "Bot reveals Sir Wolfy to taunt!"),
        (
            ev.BoutStarted(2, 1, (4, 3)),
            "Bout 2: Bot attacks first, 3 cakes against 4.",
        ),
        (
            ev.BoutWon(0, "challenge", (1, 0)),
            "Ann wins the bout by a challenge. Trophies: Ann 1 – 0 Bot",
        ),
        (ev.DuelWon(1, (0, 1)), "Bot wins the duel!"),
    ],
)
def test_events_in_words(event: object, text: str) -> None:
    assert describe(event, DUO) == text


def test_team_events_name_targets_and_teams() -> None:
    assert describe(ev.Claimed(1, 2, "soldier", (7,)), TEAM) == (
        "Bo attacks Cy: claims 1 × Soldier (1 card facedown)"
    )
    assert describe(ev.LeadChosen(2), TEAM) == "Cy attacks first for the team."
    assert describe(ev.Traded(0, 2, (1,), (2,), agreed=True), TEAM) == "Ann swaps a card with Cy"
    assert describe(ev.Traded(0, 2, (1,), (), agreed=True), TEAM) == "Ann gives Cy a card"
    assert describe(ev.Traded(0, 2, (), (2,), agreed=True), TEAM) == "Ann takes a card from Cy"
    assert describe(ev.Traded(0, 2, (1,), (2,), agreed=False), TEAM) == "Cy refuses Ann's trade"
    assert describe(ev.BoutWon(1, "passes", (0, 1)), TEAM) == (
        "Team Bo & Di wins the bout with more cakes after everyone passed. "
        "Trophies: team Ann & Cy 0 – 1 team Bo & Di"
    )


#: A team's duel, a team's bout, a bout's start and the networked end's result, in each
#: language: a team that opens the sentence is written with a capital (after a "¡" too),
#: a team the language names later in it is not.
TEAM_WORDS = {
    "en": (
        "Team Bo & Di wins the duel!",
        "Team Ann & Cy wins the bout by a challenge. Trophies: team Ann & Cy 1 – 0 team Bo & Di",
        "Bout 2: team Bo & Di attacks first, 5 cakes against 4.",
        "Team Ann & Cy wins",
    ),
    "es": (
        "¡Equipo Bo & Di gana el duelo!",
        "Equipo Ann & Cy gana el combate por un desafío. "
        "Trofeos: equipo Ann & Cy 1 – 0 equipo Bo & Di",
        "Combate 2: equipo Bo & Di ataca primero, 5 pasteles contra 4.",
        "Gana equipo Ann & Cy",
    ),
    "pl": (
        "Drużyna Bo & Di wygrywa pojedynek!",
        "Drużyna Ann & Cy wygrywa rundę dzięki sprawdzeniu. "
        "Trofea: drużyna Ann & Cy 1 – 0 drużyna Bo & Di",
        "Runda 2: zaczyna drużyna Bo & Di, 5 ciastek przeciw 4.",
        "Wygrywa drużyna Ann & Cy",
    ),
}


@pytest.mark.parametrize("language", list(TEAM_WORDS))
def test_a_team_opening_a_sentence_starts_with_a_capital_in_every_language(language: str) -> None:
    duel, bout, started, result = TEAM_WORDS[language]
    try:
        assert use_language(language) == language
        assert describe(ev.DuelWon(1, (0, 1)), TEAM) == duel
        assert describe(ev.BoutWon(0, "challenge", (1, 0)), TEAM) == bout
        assert describe(ev.BoutStarted(2, 1, (4, 5)), TEAM) == started
        assert side_says(_("{side} wins"), 0, TEAM) == result
    finally:
        use_language("en")


def test_a_players_own_name_opening_a_sentence_is_left_as_written() -> None:
    assert describe(ev.DuelWon(1, (0, 1)), ("ann", "bob")) == "bob wins the duel!"
    assert side_name(1, ("ann", "bob"), opening=True) == "bob"


@pytest.mark.parametrize(
    ("action", "sentence", "label"),
    [
        (Claim((1, 2), "wizard", 1), "Ann claims 2 × Wizard", "Claim 2 × Wizard"),
        (PASS, "Ann passes", "Pass"),
        (Block((4,), "scientist"), "Ann blocks with 1 × Scientist", "Block with 1 × Scientist"),
        (CHALLENGE, "Ann challenges", "Challenge"),
        (NO_ACTION, "Ann takes no action", "No action"),
        (Take((3,)), "Ann takes 1 facedown card", "Take 1 facedown card"),
        (Summon("archer"), "Ann calls for Archer", "Call for Archer"),
        (Declare(1), "Ann declares 1", "Declare 1"),
        (Taunt(5), "Ann reveals Sir Wolfy to taunt", "Reveal Sir Wolfy to taunt"),
    ],
)
def test_actions_in_words(action: object, sentence: str, label: str) -> None:
    assert describe_action(action, DUO, 0) == sentence  # type: ignore[arg-type]
    assert describe_action(action, DUO) == label  # type: ignore[arg-type]


def test_team_actions_name_seats_and_known_cards() -> None:
    assert describe_action(Claim((1,), "soldier", 3), TEAM, 0) == "Ann attacks Di with 1 × Soldier"
    assert describe_action(Claim((1,), "soldier", 3), TEAM) == "Claim 1 × Soldier against Di"
    assert describe_action(Lead(2), TEAM) == "Cy attacks first"
    known = {1: "wizard", 2: "defender"}
    assert describe_action(Trade((1,), (2,)), TEAM, known=known) == "Give Wizard, take Defender"
    assert describe_action(Trade((1,), ()), TEAM) == "Give a card"
    assert describe_action(NO_TRADE, TEAM) == "No trade"
    assert describe_action(AGREE, TEAM, 2) == "Cy agrees to the trade"
    assert describe_action(REFUSE, TEAM) == "Refuse the trade"


def test_decisions_in_words() -> None:
    assert describe_decision(Phase.ATTACK, 1, DUO) == "Bot attacks: claim or pass"
    assert describe_decision(Phase.SHUFFLE, None, DUO) == "Dealing…"
    assert describe_decision(Phase.OVER, None, DUO) == "The duel is over"


def test_every_event_of_random_duels_reads_as_words() -> None:
    """No event of a real duel falls through to its dataclass repr."""
    seen: set[type] = set()
    for seed in range(12):
        players = 4 if seed % 3 == 0 else 2
        match = new_match("cake-duel", players=players, seed=seed)
        names = TEAM if players == 4 else DUO
        rng = random.Random(seed)
        while match.outcome is None:
            for event in match.view(None).events:
                seen.add(type(event))
                text = describe(event, names)
                assert text and "(" not in text.split(" ")[0]
                assert type(event).__name__ not in text
            seat = match.to_act[0]
            action = rng.choice(match.legal_actions(seat))
            assert describe_action(action, names, seat)
            assert describe_action(action, names)
            match.apply(action, seat)
    assert {ev.Claimed, ev.BoutStarted} <= seen

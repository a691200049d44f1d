"""Setting up a duel, the end of a bout, trophies, the next bout and the end of the duel."""

from __future__ import annotations

from collections import Counter

import pytest

from cakeparty.core import IllegalActionError, Outcome, RandomResult, Shuffled, new_match
from cakeparty.core.games.cake_duel import CHALLENGE, NO_ACTION, PASS, Block, Claim, Phase
from cakeparty.core.games.cake_duel.cards import CORE_SET, SPECIAL_SET
from cakeparty.core.games.cake_duel.events import BoutStarted, BoutWon, ExtraTurn, Passed
from tests.core.cake_duel.play import accept, burn, claim, events, pass_turn, win_bout
from tests.core.cake_duel.stacking import stacked

ALICE = ["wizard", "soldier", "wizard", "archer"]
ALICE_SCOUT = ["scout", "soldier", "wizard", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


# -- setting up ---------------------------------------------------------------------------


def test_core_game_deck_is_the_twenty_core_cards() -> None:
    m = new_match("cake-duel", 2, seed=3, options={"full": False})
    cards = Counter(m.dealer.card(s) for s in m.state.game_slots())
    assert cards == Counter(CORE_SET)
    assert sum(cards.values()) == 20
    assert cards == Counter(
        soldier=5, archer=4, wizard=3, defender=4, scientist=3, **{"sir-wolfy": 1}
    )


def test_full_game_adds_two_specials_for_the_whole_duel() -> None:
    m = new_match("cake-duel", 2, seed=5)
    assert m.state.options.full
    slots = m.state.game_slots()
    assert len(slots) == 22
    cards = Counter(m.dealer.card(s) for s in slots)
    specials = cards - Counter(CORE_SET)
    assert sum(specials.values()) == 2
    assert not specials - Counter(SPECIAL_SET)
    # the same two stay for every bout of the duel
    win_bout(m, 0)
    win_bout(m, 1)
    assert m.state.bout == 3
    again = Counter(m.dealer.card(s) for s in m.state.game_slots()) - Counter(CORE_SET)
    assert again == specials


def test_four_cards_dealt_to_each_in_seat_order_from_the_top() -> None:
    deck = ["soldier", "wizard", "defender", "defender"]
    m = stacked([ALICE, BOB], deck, specials=["scout", "angel"])
    assert [[m.dealer.card(s) for s in h] for h in m.state.hands] == [ALICE, BOB]
    assert [m.dealer.card(s) for s in m.state.deck[:4]] == deck
    assert len(m.state.deck) == 22 - 8
    assert m.view(0).hand_cards == tuple(ALICE)


@pytest.mark.parametrize("starter", [0, 1])
def test_first_attacker_by_fair_random_with_three_cakes_against_four(starter: int) -> None:
    m = stacked([ALICE, BOB], specials=["scout", "angel"], starter=starter)
    assert (None, RandomResult(2, starter)) in m.history
    assert m.to_act == (starter,)
    assert m.state.phase is Phase.ATTACK
    cakes = [4, 4]
    cakes[starter] = 3
    assert m.state.cakes == tuple(cakes)
    assert events(m, BoutStarted) == [BoutStarted(1, starter, tuple(cakes))]


def test_the_first_attacker_is_drawn_from_the_seeded_dealer() -> None:
    starters = set()
    for seed in range(12):
        m = new_match("cake-duel", 2, seed=seed)
        draws = [a for _, a in m.history if isinstance(a, RandomResult)]
        assert [d.n for d in draws] == [2]
        assert m.to_act == (draws[0].value,)
        starters.add(draws[0].value)
    assert starters == {0, 1}


# -- the end of a bout --------------------------------------------------------------------


def test_a_side_without_cakes_loses_the_bout() -> None:
    m = stacked([["wizard", "wizard", "soldier", "archer"], BOB])
    claim(m, 0, ["wizard", "wizard"], "wizard")
    accept(m)
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]
    assert m.state.trophies == (1, 0)


def test_both_pass_in_succession_more_cakes_wins() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    accept(m)
    assert m.state.cakes == (4, 3)
    pass_turn(m)  # Bob
    assert m.state.passes == 1 and m.state.bout == 1
    pass_turn(m)  # Alice
    assert events(m, Passed) == [Passed(1, auto=False), Passed(0, auto=False)]
    assert events(m, BoutWon) == [BoutWon(0, "passes", (1, 0))]
    assert m.state.bout == 2


def test_the_side_with_more_cakes_wins_even_if_it_passed_first() -> None:
    m = stacked([ALICE, BOB])
    pass_turn(m)  # Alice, 3 cakes
    pass_turn(m)  # Bob, 4 cakes
    assert events(m, BoutWon) == [BoutWon(1, "passes", (0, 1))]


def test_a_claim_between_passes_resets_the_count() -> None:
    m = stacked([ALICE, BOB])
    pass_turn(m)  # Alice
    claim(m, 1, ["soldier"], "soldier", target=0)
    assert m.state.passes == 0
    accept(m)
    pass_turn(m)  # Alice
    assert m.state.passes == 1 and m.state.bout == 1
    assert events(m, BoutWon) == []
    pass_turn(m)  # Bob
    assert events(m, BoutWon) == [BoutWon(1, "passes", (0, 1))]


def test_an_extra_turn_ending_in_a_pass_counts_as_a_pass() -> None:
    m = stacked([ALICE_SCOUT, BOB], specials=["scout", "angel"])
    claim(m, 0, ["scout"], "scout")
    accept(m)
    assert events(m, ExtraTurn) == [ExtraTurn(0)]
    assert m.state.cakes == (4, 3)
    pass_turn(m)  # Alice's extra turn
    assert m.to_act == (1,)
    pass_turn(m)  # Bob
    assert events(m, BoutWon) == [BoutWon(0, "passes", (1, 0))]


def test_no_cards_anywhere_ends_the_bout_as_if_both_passed() -> None:
    m = stacked([ALICE, BOB])
    burn(m, 6)  # the deck is empty, four cards each, Alice to attack
    assert m.state.deck == () and m.to_act == (0,)
    m.apply(Claim(m.state.hands[0], "soldier", 1), 0)
    m.apply(Block(m.state.hands[1], "defender"), 1)
    m.apply(NO_ACTION, 0)
    assert events(m, Passed) == [Passed(1, auto=True), Passed(0, auto=True)]
    assert events(m, BoutWon) == [BoutWon(1, "passes", (0, 1))]


# -- trophies, the next bout, the end of the duel -----------------------------------------


def test_the_loser_of_a_bout_attacks_first_in_the_next_with_three_cakes() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    m.apply(CHALLENGE, 1)  # a true claim: Alice wins the bout
    assert m.state.trophies == (1, 0)
    assert m.state.bout == 2 and m.state.phase is Phase.ATTACK
    assert m.to_act == (1,)
    assert m.state.cakes == (4, 3)
    assert events(m, BoutStarted)[-1] == BoutStarted(2, 1, (4, 3))
    # every card went back into the deck, shuffled, and four were dealt to each
    shuffles = [a for _, a in m.history if isinstance(a, Shuffled)]
    assert len(shuffles) == 2 and len(shuffles[-1].slots) == 20
    assert [len(h) for h in m.state.hands] == [4, 4]
    assert len(m.state.deck) == 12 and m.state.discard == ()


def test_three_trophies_win_the_duel() -> None:
    m = stacked([ALICE, BOB])
    for side in (0, 1, 0, 1):
        win_bout(m, side)
    assert m.state.trophies == (2, 2) and m.outcome is None
    win_bout(m, 1)
    assert m.state.trophies == (2, 3)
    assert m.state.phase is Phase.OVER
    assert m.outcome == Outcome(winners=(1,), reason="trophies", scores=(2, 3))
    assert m.to_act == ()
    assert m.legal_actions(0) == [] and m.legal_actions(1) == []
    assert m.view(0).winner == 1
    with pytest.raises(IllegalActionError) as err:
        m.apply(PASS, 0)
    assert (err.value.seat, err.value.action, err.value.reason) == (0, PASS, "the duel is over")


def test_trophies_are_per_side_and_each_bout_starts_afresh() -> None:
    m = stacked([ALICE, BOB])
    win_bout(m, 1)
    assert m.state.trophies == (0, 1)
    # Alice lost: she starts bout 2
    assert m.to_act == (0,) and m.state.cakes == (3, 4)
    win_bout(m, 1)
    assert m.state.trophies == (0, 2)
    assert m.to_act == (0,)
    assert [e.bout for e in events(m, BoutStarted)] == [1, 2, 3]

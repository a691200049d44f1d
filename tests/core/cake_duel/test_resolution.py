"""Resolution without a challenge: claimed cards steal, blockers match, both resupply."""

from __future__ import annotations

from cakeparty.core import Revealed
from cakeparty.core.games.cake_duel import CHALLENGE, NO_ACTION, Block, Claim, Phase
from cakeparty.core.games.cake_duel.events import (
    Accepted,
    Blocked,
    BoutWon,
    Claimed,
    Drew,
    Passed,
    Stole,
)
from tests.core.cake_duel.play import accept, block, burn, claim, events, pass_turn, settle
from tests.core.cake_duel.stacking import hand_slots, stacked

ALICE = ["wizard", "wizard", "soldier", "archer"]
BOB = ["scientist", "defender", "soldier", "archer"]


def test_example_two_wizards_against_one_scientist() -> None:
    # Alice claims two Wizards; Bob claims one Scientist; Alice accepts -> Alice takes 2
    m = stacked([ALICE, BOB])
    assert m.state.cakes == (3, 4)
    alice = claim(m, 0, ["wizard", "wizard"], "wizard")
    bob = block(m, 1, ["scientist"], "scientist")
    m.apply(NO_ACTION, 0)
    settle(m)
    assert m.state.cakes == (5, 2)
    assert m.view(None).events[1:] == (
        Claimed(0, 1, "wizard", alice),
        Blocked(1, "scientist", bob),
        Accepted(0),
        Stole(0, 1, 2),
        Drew(0, 2),
        Drew(1, 1),
    )
    assert m.state.phase is Phase.ATTACK
    assert m.to_act == (1,)


def test_example_two_archers_with_two_cards_left_in_the_deck() -> None:
    # 2 cards left in the deck; Alice claims 2 Archers, Bob blocks with 1 Defender; Alice
    # takes 1 cake and draws the last two cards; Bob starts his turn with 3 cards
    m = stacked([["archer", "archer", "soldier", "soldier"], ["defender", *["soldier"] * 3]])
    burn(m, 1)  # Alice
    pass_turn(m)  # Bob
    burn(m, 4)  # Alice, Bob, Alice, Bob
    assert len(m.state.deck) == 2
    assert m.to_act == (0,) and m.state.cakes == (3, 4)
    last_two = m.state.deck
    claim(m, 0, ["archer", "archer"], "archer")
    block(m, 1, ["defender"], "defender")
    m.apply(NO_ACTION, 0)
    settle(m)
    assert m.state.cakes == (4, 3)
    assert m.state.deck == ()
    assert m.state.hands[0][-2:] == last_two
    assert len(m.state.hands[0]) == 4
    assert m.to_act == (1,) and m.state.phase is Phase.ATTACK
    assert len(m.state.hands[1]) == 3
    assert m.view(None).events[-2:] == (Stole(0, 1, 1), Drew(0, 2))


def test_no_block_every_attacker_steals() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier", "archer"], "soldier")
    accept(m)
    assert m.state.cakes == (5, 2)
    assert events(m, Stole) == [Stole(0, 1, 2)]


def test_each_blocker_blocks_one_attacker() -> None:
    m = stacked([["wizard"] * 3 + ["archer"], ["scientist", "scientist", "defender", "archer"]])
    claim(m, 0, ["wizard"] * 3, "wizard")
    block(m, 1, ["scientist", "scientist"], "scientist")
    accept(m)
    assert m.state.cakes == (5, 2)


def test_a_full_block_steals_nothing() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    block(m, 1, ["defender"], "defender")
    accept(m)
    assert m.state.cakes == (3, 4)
    assert events(m, Stole) == []


def test_the_claimed_cards_resolve_and_nothing_is_flipped() -> None:
    # an Archer claimed as a Wizard steals like a Wizard; its identity stays hidden
    m = stacked([ALICE, BOB])
    (slot,) = claim(m, 0, ["archer"], "wizard")
    accept(m)
    assert m.state.cakes == (5, 2)
    assert all(not (isinstance(a, Revealed) and a.to is None) for _, a in m.history)
    assert slot not in m.view(1).known
    assert slot not in m.view(None).known
    assert m.view(0).known[slot] == "archer"


def test_cakes_stolen_never_exceed_what_the_opponent_has() -> None:
    m = stacked([["wizard"] * 3 + ["archer"], BOB])
    claim(m, 0, ["wizard"] * 3, "wizard")  # 6 cakes against Bob's 4
    accept(m)
    assert events(m, Stole) == [Stole(0, 1, 4)]
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]
    assert m.state.trophies == (1, 0)


def test_resupply_attacker_first_then_blocker() -> None:
    m = stacked([ALICE, BOB])
    burn(m, 5)  # ten cards drawn: two left, Bob to attack
    first, second = m.state.deck
    m.apply(Claim(m.state.hands[1][:1], "soldier", 0), 1)
    m.apply(Block(m.state.hands[0][:1], "defender"), 0)
    accept(m)
    # each needs one card: the attacker takes the top one, then the blocker
    assert m.view(None).events[-2:] == (Drew(1, 1), Drew(0, 1))
    assert m.state.hands[1][-1] == first
    assert m.state.hands[0][-1] == second


def test_the_attacker_draws_before_the_blocker_when_the_deck_runs_short() -> None:
    m = stacked([ALICE, BOB])
    burn(m, 5)
    (last, other) = m.state.deck
    # Bob attacks with two cards, Alice blocks with one: Bob needs two, Alice one
    bob = m.state.hands[1][:2]
    m.apply(Claim(bob, "soldier", 0), 1)
    m.apply(Block(m.state.hands[0][:1], "defender"), 0)
    accept(m)
    assert m.state.hands[1][-2:] == (last, other)
    assert len(m.state.hands[0]) == 3
    assert m.view(None).events[-1] == Drew(1, 2)


def test_deck_runs_out_play_goes_on_with_the_cards_in_hand() -> None:
    m = stacked([ALICE, BOB])
    burn(m, 6)
    assert m.state.deck == ()
    assert [len(h) for h in m.state.hands] == [4, 4]
    drawn = len(events(m, Drew))
    burn(m, 2)  # each plays one card a turn and draws nothing
    assert [len(h) for h in m.state.hands] == [2, 2]
    assert len(events(m, Drew)) == drawn
    assert m.state.phase is Phase.ATTACK
    assert m.state.cakes == (3, 4)


def test_a_player_with_no_cards_passes_automatically() -> None:
    m = stacked([ALICE, BOB])
    burn(m, 6)  # deck empty, four cards each, Alice to attack
    assert m.to_act == (0,) and m.state.deck == ()
    m.apply(Claim(m.state.hands[0], "soldier", 1), 0)
    m.apply(Block(m.state.hands[1][:1], "defender"), 1)
    accept(m)
    assert m.state.hands[0] == ()
    assert m.state.cakes == (6, 1)
    m.apply(Claim(m.state.hands[1][:1], "soldier", 0), 1)
    # Alice, with no cards, may only challenge or let the claim stand
    assert m.legal_actions(0) == [CHALLENGE, NO_ACTION]
    accept(m)
    assert m.state.cakes == (5, 2)
    # Alice has no cards: she passes at once and Bob attacks again
    assert events(m, Passed)[-1] == Passed(0, auto=True)
    assert m.to_act == (1,)
    assert m.state.passes == 1


def test_blocker_played_from_the_hand_of_the_target() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    (d,) = hand_slots(m, 1, "defender")
    block(m, 1, ["defender"], "defender")
    assert d not in m.state.hands[1]
    assert m.state.discard[-1] == d

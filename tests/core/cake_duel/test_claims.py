"""Claim validity: quantity, one name, unclaimables, caps, core and full names, blockers."""

from __future__ import annotations

import pytest

from cakeparty.core import ActionSyntaxError, IllegalActionError, parse
from cakeparty.core.games.cake_duel import (
    CHALLENGE,
    NO_ACTION,
    PASS,
    Block,
    Claim,
    DuelOptions,
    Phase,
)
from cakeparty.core.games.cake_duel.claims import (
    attack_names,
    attack_problem,
    block_names,
    block_problem,
    claim_cap,
    max_block,
)
from cakeparty.core.games.cake_duel.state import Play
from tests.core.cake_duel.play import claim
from tests.core.cake_duel.stacking import hand_slots, stacked

DUEL = DuelOptions(players=2, full=True)
CORE = DuelOptions(players=2, full=False)
TEAM = DuelOptions(players=4, full=True)

CORE_ATTACKERS = ("soldier", "archer", "wizard")
SPECIAL_ATTACKERS = ("assassin", "scout", "summoner", "quartermaster", "oracle")
FULL = ("priest", "angel")  # two specials: the full game


def _attack(name: str, count: int = 1) -> Play:
    return Play(0, tuple(range(count)), name)


# -- the worked examples on claims --------------------------------------------------------


def test_example_two_cards_as_two_wizards_is_valid() -> None:
    m = stacked([["soldier", "archer", "defender", "defender"], ["archer"] * 3 + ["soldier"]])
    slots = hand_slots(m, 0, "soldier", "archer")
    assert Claim(slots, "wizard", 1) in m.legal_actions(0)
    m.apply(Claim(slots, "wizard", 1), 0)
    assert m.state.attack == Play(0, slots, "wizard")
    assert m.state.attack.count == 2
    assert m.state.phase is Phase.RESPOND


def test_example_one_card_as_two_wizards_is_invalid() -> None:
    # the quantity of a claim is the number of cards played: one card twice is not two
    m = stacked([["wizard", "archer", "defender", "defender"], ["archer"] * 3 + ["soldier"]])
    (slot,) = hand_slots(m, 0, "wizard")
    bad = Claim((slot, slot), "wizard", 1)
    assert bad not in m.legal_actions(0)
    with pytest.raises(IllegalActionError) as err:
        m.apply(bad, 0)
    assert (err.value.seat, err.value.action) == (0, bad)
    assert err.value.reason == "the cards played must be distinct cards from your hand"
    assert m.state.phase is Phase.ATTACK


def test_example_one_card_as_sir_wolfy_is_invalid() -> None:
    m = stacked([["sir-wolfy", "archer", "defender", "defender"], ["archer"] * 3 + ["soldier"]])
    (slot,) = hand_slots(m, 0, "sir-wolfy")
    bad = Claim((slot,), "sir-wolfy", 1)
    assert all(a.name != "sir-wolfy" for a in m.legal_actions(0) if isinstance(a, Claim))
    with pytest.raises(IllegalActionError) as err:
        m.apply(bad, 0)
    assert err.value.reason == "Sir Wolfy can never be claimed"


def test_example_one_soldier_and_one_archer_is_invalid() -> None:
    # one name per claim: the action has room for one name and its text form for one token
    with pytest.raises(ActionSyntaxError):
        parse("claim 0,1 soldier,archer 1")
    with pytest.raises(ActionSyntaxError):
        parse("claim 0,1 soldier archer 1")
    assert attack_problem("soldier-archer", 2, DUEL) == "there is no card called soldier-archer"
    m = stacked([["soldier", "archer", "defender", "defender"], ["archer"] * 3 + ["soldier"]])
    claims = [a for a in m.legal_actions(0) if isinstance(a, Claim)]
    assert {a.name for a in claims} == set(CORE_ATTACKERS)


# -- attack names and quantities -----------------------------------------------------------


def test_text_forms_round_trip() -> None:
    for action in (Claim((3, 7), "wizard", 1), Block((12,), "defender"), PASS, CHALLENGE):
        assert parse(str(action)) == action
    assert str(Claim((3, 7), "wizard", 1)) == "claim 3,7 wizard 1"


@pytest.mark.parametrize("name", ["sir-wolfy", "pierrot", "mimic"])
def test_unclaimables_are_never_claimed(name: str) -> None:
    assert attack_problem(name, 1, DUEL) is not None
    assert attack_problem(name, 1, DUEL).endswith("can never be claimed")
    assert name not in attack_names(DUEL)
    assert block_problem(_attack("soldier"), name, 1, DUEL).endswith("can never be claimed")


@pytest.mark.parametrize(
    ("name", "cap"),
    [("soldier", 5), ("archer", 4), ("wizard", 3), ("assassin", 1), ("priest", 2), ("angel", 1)],
)
def test_claim_cap_is_the_copies_in_the_full_game(name: str, cap: int) -> None:
    assert claim_cap(name, DUEL) == cap
    assert claim_cap(name, TEAM) == 2 * cap


def test_four_wizards_is_never_offered_nor_allowed() -> None:
    assert attack_problem("wizard", 3, DUEL) is None
    assert attack_problem("wizard", 4, DUEL) == "there are only 3 × Wizard in the game"
    assert attack_problem("soldier", 5, DUEL) is None
    assert attack_problem("soldier", 6, DUEL) == "there are only 5 × Soldier in the game"
    assert attack_problem("scout", 2, DUEL) == "there are only 1 × Scout in the game"
    # in team mode two games are combined
    assert attack_problem("wizard", 4, TEAM) is None
    assert attack_problem("wizard", 7, TEAM) == "there are only 6 × Wizard in the game"
    m = stacked([["wizard"] * 3 + ["archer"], ["archer"] * 3 + ["soldier"]])
    hand = m.state.hands[0]
    assert Claim(hand, "wizard", 1) not in m.legal_actions(0)
    assert Claim(hand, "soldier", 1) in m.legal_actions(0)
    assert Claim(hand[:3], "wizard", 1) in m.legal_actions(0)
    with pytest.raises(IllegalActionError) as err:
        m.apply(Claim(hand, "wizard", 1), 0)
    assert err.value.reason == "there are only 3 × Wizard in the game"


def test_a_claim_plays_at_least_one_card() -> None:
    assert attack_problem("soldier", 0, DUEL) == "a claim plays at least one card"
    m = stacked([["soldier", "archer", "defender", "defender"], ["soldier"] * 4])
    with pytest.raises(IllegalActionError) as err:
        m.apply(Claim((), "soldier", 1), 0)
    assert err.value.reason == "a claim plays at least one card"


@pytest.mark.parametrize("name", ["defender", "scientist", "priest", "angel"])
def test_a_blocker_is_not_an_attack(name: str) -> None:
    assert attack_problem(name, 1, DUEL).endswith("is not an attacker")
    assert name not in attack_names(DUEL)


def test_specials_only_in_the_full_game() -> None:
    assert attack_names(CORE) == CORE_ATTACKERS
    assert set(attack_names(DUEL)) == set(CORE_ATTACKERS + SPECIAL_ATTACKERS)
    assert attack_problem("assassin", 1, CORE) == "Assassin is not in the core game"
    assert block_names("soldier", CORE) == ("defender",)
    assert block_names("wizard", CORE) == ("scientist",)
    core = stacked([["soldier", "archer", "defender", "scientist"], ["soldier"] * 4])
    names = {a.name for a in core.legal_actions(0) if isinstance(a, Claim)}
    assert names == set(CORE_ATTACKERS)
    with pytest.raises(IllegalActionError) as err:
        claim(core, 0, ["soldier"], "scout")
    assert err.value.reason == "Scout is not in the core game"


def test_any_special_may_be_claimed_even_if_not_in_the_deck() -> None:
    # the deck holds Priest and Angel only, yet an Assassin may be claimed
    m = stacked(
        [["soldier", "archer", "defender", "scientist"], ["soldier"] * 4],
        specials=["priest", "angel"],
    )
    claim(m, 0, ["soldier"], "assassin")
    assert m.state.attack.name == "assassin"
    assert m.state.phase is Phase.RESPOND


def test_claims_are_offered_against_the_opponent_only() -> None:
    m = stacked([["soldier", "archer", "defender", "scientist"], ["soldier"] * 4])
    targets = {a.target for a in m.legal_actions(0) if isinstance(a, Claim)}
    assert targets == {1}
    with pytest.raises(IllegalActionError) as err:
        claim(m, 0, ["soldier"], "soldier", target=0)
    assert err.value.reason == "seat 0 is not an opponent"


def test_every_attack_offered_is_a_subset_of_the_hand_within_the_cap() -> None:
    m = stacked([["soldier", "archer", "defender", "scientist"], ["soldier"] * 4], specials=FULL)
    claims = [a for a in m.legal_actions(0) if isinstance(a, Claim)]
    # 15 non-empty subsets; capped names: assassin, scout, summoner, quartermaster, oracle
    # take 4 singles each; wizard takes subsets of size <= 3 (14); soldier, archer all 15
    assert len(claims) == 15 + 15 + 14 + 5 * 4
    assert all(set(a.slots) <= set(m.state.hands[0]) for a in claims)
    assert PASS in m.legal_actions(0)


# -- blocks -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "blockers"),
    [
        ("soldier", ("defender", "priest", "angel")),
        ("archer", ("defender", "priest", "angel")),
        ("assassin", ("defender", "priest", "angel")),
        ("scout", ("defender", "priest", "angel")),
        ("wizard", ("scientist", "priest", "angel")),
        ("summoner", ("scientist", "priest", "angel")),
        ("quartermaster", ("priest", "angel")),
        ("oracle", ("priest", "angel")),
    ],
)
def test_blocker_compatibility(attacker: str, blockers: tuple[str, ...]) -> None:
    assert block_names(attacker, DUEL) == blockers
    for name in ("defender", "scientist", "priest", "angel"):
        problem = block_problem(_attack(attacker), name, 1, DUEL)
        assert (problem is None) == (name in blockers), name


def test_defender_cannot_block_magic_nor_scientist_weapons() -> None:
    assert block_problem(_attack("wizard"), "defender", 1, DUEL) == "Defender cannot block Wizard"
    assert block_problem(_attack("soldier"), "scientist", 1, DUEL) == (
        "Scientist cannot block Soldier"
    )
    m = stacked(
        [["soldier", "archer", "defender", "scientist"], ["defender", "scientist"] * 2],
        specials=FULL,
    )
    claim(m, 0, ["soldier"], "wizard")
    legal = m.legal_actions(1)
    assert {a.name for a in legal if isinstance(a, Block)} == {"scientist", "priest", "angel"}
    (d,) = hand_slots(m, 1, "defender")
    with pytest.raises(IllegalActionError) as err:
        m.apply(Block((d,), "defender"), 1)
    assert (err.value.seat, err.value.reason) == (1, "Defender cannot block Wizard")


def test_special_attackers_are_not_blocked_by_defender_or_scientist() -> None:
    for attacker in ("quartermaster", "oracle"):
        for name in ("defender", "scientist"):
            assert block_problem(_attack(attacker), name, 1, DUEL) is not None
    m = stacked(
        [["soldier", "archer", "defender", "scientist"], ["defender", "scientist"] * 2],
        specials=FULL,
    )
    claim(m, 0, ["archer"], "oracle")
    assert {a.name for a in m.legal_actions(1) if isinstance(a, Block)} == {"priest", "angel"}


def test_an_attacker_name_is_not_a_block() -> None:
    assert block_problem(_attack("soldier"), "soldier", 1, DUEL) == "Soldier is not a blocker"


def test_at_most_as_many_blockers_as_the_attack() -> None:
    # the FAQ: two Defenders against one Soldier is illegal
    one = _attack("soldier")
    assert block_problem(one, "defender", 2, DUEL) == "at most 1 × Defender may block this claim"
    assert max_block(_attack("soldier", 3), "defender", DUEL) == 3
    assert max_block(_attack("soldier", 3), "priest", DUEL) == 2  # only two Priests exist
    m = stacked([["soldier", "archer", "wizard", "scientist"], ["defender"] * 4], specials=FULL)
    claim(m, 0, ["soldier"], "soldier")
    blocks = [a for a in m.legal_actions(1) if isinstance(a, Block)]
    assert blocks and all(len(a.slots) == 1 for a in blocks)
    two = hand_slots(m, 1, "defender", "defender")
    with pytest.raises(IllegalActionError) as err:
        m.apply(Block(two, "defender"), 1)
    assert err.value.reason == "at most 1 × Defender may block this claim"


def test_angel_only_as_exactly_one_angel() -> None:
    three = _attack("wizard", 3)
    assert block_problem(three, "angel", 1, DUEL) is None
    assert block_problem(three, "angel", 2, DUEL) == "at most 1 × Angel may block this claim"
    assert block_problem(three, "angel", 2, TEAM) == "at most 1 × Angel may block this claim"
    m = stacked([["wizard"] * 3 + ["archer"], ["scientist"] * 3 + ["defender"]], specials=FULL)
    claim(m, 0, ["wizard", "wizard"], "wizard")
    angels = [a for a in m.legal_actions(1) if isinstance(a, Block) and a.name == "angel"]
    assert len(angels) == 4 and all(len(a.slots) == 1 for a in angels)


def test_respond_offers_challenge_block_or_no_action() -> None:
    m = stacked([["soldier", "archer", "wizard", "scientist"], ["defender"] * 4], specials=FULL)
    claim(m, 0, ["soldier", "archer"], "archer")
    legal = m.legal_actions(1)
    assert legal[:2] == [CHALLENGE, NO_ACTION]
    # Defender: 4 singles + 6 pairs; Priest the same; Angel 4 singles
    assert len(legal) == 2 + 10 + 10 + 4
    assert m.legal_actions(0) == []

"""Challenges of attacks and of blocks: bluff against truth, Pierrot, Mimic, Sir Wolfy."""

from __future__ import annotations

import pytest

from cakeparty.core import IllegalActionError, Revealed
from cakeparty.core.games.cake_duel import CHALLENGE, NO_ACTION, Phase
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.events import BoutWon, Challenged, Stole
from tests.core.cake_duel.play import block, challenge, claim, events, settle
from tests.core.cake_duel.stacking import stacked

ALICE = ["soldier", "soldier", "wizard", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


def _bout_result(m) -> tuple[Challenged, BoutWon]:
    (flip,) = events(m, Challenged)
    (won,) = events(m, BoutWon)
    return flip, won


def test_example_two_defenders_flipped_as_defender_and_soldier() -> None:
    # Alice claims two Soldiers; Bob claims two Defenders; Alice challenges; Bob's cards are
    # a Defender and a Soldier -> Alice wins the bout
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier", "soldier"], "soldier")
    bob = block(m, 1, ["defender", "soldier"], "defender")
    m.apply(CHALLENGE, 0)
    flip, won = _bout_result(m)
    assert flip == Challenged(0, 1, "defender", bob, ("defender", "soldier"), False)
    assert won == BoutWon(0, "challenge", (1, 0))
    assert m.state.trophies == (1, 0)
    # the flip was shown to everyone
    assert (None, Revealed(bob, ("defender", "soldier"), None)) in m.history
    # the loser of the bout attacks first in the next, 3 cakes against 4
    assert m.state.bout == 2
    assert m.state.cakes == (4, 3)
    assert m.to_act == (1,)
    assert m.state.phase is Phase.ATTACK


def test_a_bluffed_attack_challenged_loses_the_bout() -> None:
    m = stacked([ALICE, BOB])
    played = claim(m, 0, ["archer"], "wizard")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert flip == Challenged(1, 0, "wizard", played, ("archer",), False)
    assert won == BoutWon(1, "challenge", (0, 1))
    assert m.state.trophies == (0, 1)
    assert m.to_act == (0,)


def test_a_true_attack_challenged_wins_the_bout() -> None:
    m = stacked([ALICE, BOB])
    played = claim(m, 0, ["soldier", "soldier"], "soldier")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert flip == Challenged(1, 0, "soldier", played, ("soldier", "soldier"), True)
    assert won == BoutWon(0, "challenge", (1, 0))


def test_a_true_block_challenged_wins_the_bout_for_the_blocker() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["wizard"], "wizard")
    played = block(m, 1, ["scientist"], "scientist")
    m.apply(CHALLENGE, 0)
    flip, won = _bout_result(m)
    assert flip == Challenged(0, 1, "scientist", played, ("scientist",), True)
    assert won == BoutWon(1, "challenge", (0, 1))


def test_a_bluffed_block_challenged_loses_the_bout() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["archer"], "archer")
    block(m, 1, ["archer"], "defender")
    challenge(m)
    assert _bout_result(m)[1] == BoutWon(0, "challenge", (1, 0))


def test_cakes_do_not_move_on_a_challenge() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["wizard"], "wizard")
    m.apply(CHALLENGE, 1)
    assert events(m, Stole) == []
    assert m.state.cakes == (4, 3)  # the next bout's, Bob starting


def test_a_challenge_only_right_after_the_claim_it_targets() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    block(m, 1, ["defender"], "defender")
    # the attack's window closed when Bob blocked: Bob may not challenge it any more
    assert m.to_act == (0,)
    with pytest.raises(IllegalActionError) as err:
        m.apply(CHALLENGE, 1)
    assert (err.value.seat, err.value.reason) == (1, "it is not this seat's turn")
    m.apply(NO_ACTION, 0)
    settle(m)
    # once resolved, nothing is left to challenge
    assert m.state.phase is Phase.ATTACK and m.to_act == (1,)
    with pytest.raises(IllegalActionError) as err:
        m.apply(CHALLENGE, 1)
    assert err.value.reason == "not possible now: attack"
    assert m.state.trophies == (0, 0)


def test_the_claimer_cannot_challenge_its_own_claim() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    assert CHALLENGE not in m.legal_actions(0)
    with pytest.raises(IllegalActionError) as err:
        m.apply(CHALLENGE, 0)
    assert err.value.seat == 0
    assert err.value.reason == "it is not this seat's turn"


def test_the_attacker_is_offered_challenge_or_no_action_after_a_block() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["soldier"], "soldier")
    block(m, 1, ["defender"], "defender")
    assert m.state.phase is Phase.REPLY
    assert m.legal_actions(0) == [CHALLENGE, NO_ACTION]


# -- transformations ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claimed", "flipped", "truthful"),
    [
        ("soldier", ["soldier"], True),
        ("soldier", ["archer"], False),
        ("wizard", ["wizard", "wizard", "soldier"], False),
        # Pierrot becomes the claimed card when it is a core card
        ("soldier", ["pierrot"], True),
        ("wizard", ["pierrot", "wizard"], True),
        ("defender", ["pierrot"], True),
        ("scientist", ["pierrot"], True),
        # … but never a special
        ("assassin", ["pierrot"], False),
        ("scout", ["pierrot"], False),
        ("priest", ["pierrot"], False),
        ("angel", ["pierrot"], False),
        # Mimic copies another real card flipped with it
        ("soldier", ["mimic", "soldier"], True),
        ("scout", ["scout", "mimic"], True),
        ("priest", ["mimic", "priest"], True),
        ("soldier", ["mimic", "archer"], False),
        # alone, or with unclaimables only, it is a lie
        ("soldier", ["mimic"], False),
        ("soldier", ["mimic", "sir-wolfy"], False),
        ("soldier", ["mimic", "pierrot"], False),
        # Sir Wolfy never transforms
        ("soldier", ["sir-wolfy"], False),
        ("soldier", ["sir-wolfy", "soldier"], False),
    ],
)
def test_is_truthful(claimed: str, flipped: list[str], truthful: bool) -> None:
    assert is_truthful(claimed, flipped) is truthful


def test_pierrot_flipped_as_a_claimed_soldier_is_the_truth() -> None:
    m = stacked([["pierrot", "archer", "wizard", "defender"], BOB], specials=["pierrot", "angel"])
    played = claim(m, 0, ["pierrot"], "soldier")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert flip == Challenged(1, 0, "soldier", played, ("pierrot",), True)
    assert won.side == 0


def test_pierrot_flipped_as_a_claimed_special_is_a_bluff() -> None:
    m = stacked([["pierrot", "archer", "wizard", "defender"], BOB], specials=["pierrot", "scout"])
    claim(m, 0, ["pierrot"], "scout")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert (flip.cards, flip.truthful, won.side) == (("pierrot",), False, 1)


def test_pierrot_in_a_block_becomes_a_defender() -> None:
    m = stacked(
        [ALICE, ["pierrot", "soldier", "scientist", "archer"]], specials=["pierrot", "angel"]
    )
    claim(m, 0, ["soldier"], "soldier")
    block(m, 1, ["pierrot"], "defender")
    challenge(m)
    flip, won = _bout_result(m)
    assert (flip.claimer, flip.truthful, won.side) == (1, True, 1)


def test_mimic_with_a_real_card_of_the_claim_is_the_truth() -> None:
    m = stacked([["mimic", "soldier", "wizard", "defender"], BOB], specials=["mimic", "angel"])
    played = claim(m, 0, ["mimic", "soldier"], "soldier")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert flip == Challenged(1, 0, "soldier", played, ("mimic", "soldier"), True)
    assert won.side == 0


def test_mimic_with_a_real_card_of_another_name_is_a_bluff() -> None:
    m = stacked([["mimic", "archer", "wizard", "defender"], BOB], specials=["mimic", "angel"])
    claim(m, 0, ["mimic", "archer"], "soldier")
    m.apply(CHALLENGE, 1)
    assert _bout_result(m)[1].side == 1


def test_mimic_alone_is_a_lie() -> None:
    m = stacked([["mimic", "archer", "wizard", "defender"], BOB], specials=["mimic", "angel"])
    claim(m, 0, ["mimic"], "archer")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert (flip.cards, flip.truthful, won.side) == (("mimic",), False, 1)


def test_mimic_with_only_unclaimables_is_a_lie() -> None:
    hand = ["mimic", "pierrot", "sir-wolfy", "defender"]
    m = stacked([hand, BOB], specials=["mimic", "pierrot"])
    claim(m, 0, ["mimic", "pierrot", "sir-wolfy"], "soldier")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert (flip.cards, flip.truthful, won.side) == (("mimic", "pierrot", "sir-wolfy"), False, 1)


def test_mimic_in_a_block_copies_the_defender_with_it() -> None:
    m = stacked([ALICE, ["mimic", "defender", "scientist", "archer"]], specials=["mimic", "angel"])
    claim(m, 0, ["soldier", "soldier"], "soldier")
    block(m, 1, ["mimic", "defender"], "defender")
    challenge(m)
    flip, won = _bout_result(m)
    assert (flip.truthful, won.side) == (True, 1)


def test_sir_wolfy_never_transforms() -> None:
    m = stacked([["sir-wolfy", "soldier", "wizard", "defender"], BOB])
    claim(m, 0, ["sir-wolfy", "soldier"], "soldier")
    m.apply(CHALLENGE, 1)
    flip, won = _bout_result(m)
    assert (flip.cards, flip.truthful, won.side) == (("sir-wolfy", "soldier"), False, 1)

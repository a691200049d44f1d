"""Illegal actions raise IllegalActionError naming the seat, the action and the reason."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import (
    ActionSyntaxError,
    CakePartyError,
    IllegalActionError,
    Match,
    RandomResult,
    Revealed,
    RuleBreach,
    Shuffled,
    new_match,
    parse,
)
from cakeparty.core.games.cake_duel import (
    CHALLENGE,
    NO_ACTION,
    PASS,
    Block,
    Claim,
    Declare,
    Lead,
    Summon,
    Take,
    Trade,
)
from cakeparty.core.games.cake_duel.legal import check
from tests.core.cake_duel.play import accept, block, claim
from tests.core.cake_duel.stacking import hand_slots, stacked

ALICE = ["soldier", "soldier", "wizard", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


def _refused(m: Match, seat: int | None, action, reason: str) -> IllegalActionError:
    """Apply ``action`` as ``seat``; check the error and that nothing changed."""
    state, history = m.state, list(m.history)
    with pytest.raises(IllegalActionError) as err:
        m.apply(action, seat)
    assert (err.value.seat, err.value.action, err.value.reason) == (seat, action, reason)
    assert m.state is state and m.history == history
    return err.value


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalActionError, CakePartyError)
    assert issubclass(CakePartyError, ValueError)
    assert issubclass(RuleBreach, IllegalActionError)
    err = IllegalActionError(1, PASS, "why")
    assert str(err) == "seat 1: pass: why"
    assert str(IllegalActionError(None, PASS, "why")) == "dealer: pass: why"


def test_acting_out_of_turn() -> None:
    m = stacked([ALICE, BOB])
    slots = hand_slots(m, 1, "soldier")
    _refused(m, 1, Claim(slots, "soldier", 0), "it is not this seat's turn")
    _refused(m, 1, PASS, "it is not this seat's turn")
    assert m.legal_actions(1) == []


def test_the_seat_may_be_left_out_only_for_the_seat_to_act() -> None:
    m = stacked([ALICE, BOB])
    m.apply(PASS)
    assert m.history[-1] == (0, PASS)
    assert m.to_act == (1,)


def test_cards_not_in_the_hand() -> None:
    m = stacked([ALICE, BOB])
    bobs = hand_slots(m, 1, "soldier")
    reason = "the cards played must be distinct cards from your hand"
    _refused(m, 0, Claim(bobs, "soldier", 1), reason)
    _refused(m, 0, Claim((99,), "soldier", 1), reason)
    claim(m, 0, ["soldier"], "soldier")
    alices = m.state.hands[0][:1]
    _refused(m, 1, Block(alices, "defender"), reason)
    (d,) = hand_slots(m, 1, "defender")
    _refused(m, 1, Block((d, d), "defender"), reason)


def test_bad_claims() -> None:
    m = stacked([ALICE, BOB])
    (s,) = hand_slots(m, 0, "soldier")
    _refused(m, 0, Claim((s,), "dragon", 1), "there is no card called dragon")
    _refused(m, 0, Claim((s,), "defender", 1), "Defender is not an attacker")
    _refused(m, 0, Claim((s,), "mimic", 1), "Mimic can never be claimed")
    _refused(m, 0, Claim((s,), "soldier", 2), "seat 2 is not an opponent")
    claim(m, 0, ["soldier"], "soldier")
    (d,) = hand_slots(m, 1, "defender")
    _refused(m, 1, Block((d,), "soldier"), "Soldier is not a blocker")
    _refused(m, 1, Block((d,), "scientist"), "Scientist cannot block Soldier")
    _refused(m, 1, Block((d,), "priest"), "Priest is not in the core game")


def test_wrong_phase() -> None:
    m = stacked([ALICE, BOB])
    (d,) = hand_slots(m, 0, "wizard")
    _refused(m, 0, CHALLENGE, "not possible now: attack")
    _refused(m, 0, Block((d,), "scientist"), "not possible now: attack")
    _refused(m, 0, Summon("wizard"), "not possible now: attack")
    _refused(m, 0, Lead(0), "not possible now: attack")
    _refused(m, 0, Declare(0), "not possible now: attack")
    claim(m, 0, ["soldier"], "soldier")
    (s,) = hand_slots(m, 1, "soldier")
    _refused(m, 1, Claim((s,), "soldier", 0), "not possible now: respond")
    _refused(m, 1, PASS, "not possible now: respond")
    _refused(m, 1, Take(m.state.attack.slots), "not possible now: respond")
    block(m, 1, ["defender"], "defender")
    (w,) = hand_slots(m, 0, "wizard")
    _refused(m, 0, Block((w,), "defender"), "not possible now: reply")
    _refused(m, 0, PASS, "not possible now: reply")


def test_dealer_answers_from_a_seat() -> None:
    m = stacked([ALICE, BOB])
    reason = "only the dealer answers requests"
    _refused(m, 0, RandomResult(2, 0), reason)
    _refused(m, 0, Shuffled(m.state.deck), reason)
    _refused(m, 0, Revealed((0,), ("wizard",), None), reason)


def test_dealer_answers_that_answer_nothing() -> None:
    m = stacked([ALICE, BOB])
    action = RandomResult(2, 1)
    with pytest.raises(IllegalActionError) as err:
        m.game.apply(m.state, action, None)
    assert (err.value.seat, err.value.action, err.value.reason) == (
        None,
        action,
        "no request is waiting",
    )
    # a challenge waits on a reveal of the challenged cards; nothing else answers it
    played = claim(m, 0, ["soldier"], "soldier")
    waiting = m.game.apply(m.state, CHALLENGE, 1)
    with pytest.raises(IllegalActionError) as err:
        m.game.apply(waiting, Shuffled(played), None)
    assert err.value.seat is None and err.value.reason.startswith("does not answer Reveal")
    # nor may the reveal claim another identity than the one the slot holds
    with pytest.raises(IllegalActionError) as err:
        m.game.apply(waiting, Revealed(played, ("archer",), None), None)
    assert err.value.reason == f"slot {played[0]} is soldier, not archer"


def test_priest_takes_exactly_one_card_per_priest_from_the_attack() -> None:
    m = stacked([ALICE, ["priest", *BOB[1:]]], specials=["priest", "angel"])
    a, b = claim(m, 0, ["soldier", "soldier"], "soldier")
    block(m, 1, ["priest"], "priest")
    accept(m)
    reason = "take 1 card of the attack"
    _refused(m, 1, Take((a, b)), reason)
    _refused(m, 1, Take(()), reason)
    _refused(m, 1, Take(m.state.hands[1][:1]), reason)
    _refused(m, 0, Take((a,)), "it is not this seat's turn")


def test_summon_and_declare_errors() -> None:
    m = stacked([["summoner", *ALICE[1:]], BOB], specials=["summoner", "angel"])
    claim(m, 0, ["summoner"], "summoner")
    accept(m)
    _refused(m, 0, Summon("dragon"), "there is no card called dragon")
    _refused(m, 1, Declare(0), "it is not this seat's turn")
    m.apply(Summon("soldier"), 0)
    _refused(m, 0, Declare(1), "it is not this seat's turn")
    _refused(m, 1, Declare(5), "the hand holds only 4 cards")
    _refused(m, 1, Declare(2), "declared 2 × Soldier, the hand holds 1")
    m.apply(Declare(1), 1)
    assert m.state.breaches == ()


def test_team_errors() -> None:
    hands = [ALICE, BOB, ["wizard", "wizard", "defender", "defender"], ["archer"] * 4]
    m = stacked(hands)
    _refused(m, 1, Lead(1), "it is not this seat's turn")
    _refused(m, 0, Lead(3), "seat 3 is not on your team")
    m.apply(Lead(0), 0)
    claim(m, 0, ["soldier"], "soldier", target=3)
    accept(m)
    mine, mates, theirs = m.state.hands[0], m.state.hands[2], m.state.hands[1]
    _refused(m, 0, Trade(theirs[:1], mates[:1]), "you can only give a card from your hand")
    _refused(
        m, 0, Trade(mine[:1], theirs[:1]), "you can only take a card from your teammate's hand"
    )
    _refused(m, 2, Trade(mates[:1], mine[:1]), "it is not this seat's turn")
    with pytest.raises(ValueError, match="one card each way"):
        Trade((1, 2), (3,))
    with pytest.raises(ActionSyntaxError):
        parse("trade - -")


def test_every_legal_action_passes_the_check_and_others_seats_cannot_act() -> None:
    rng = random.Random(7)
    for seed in range(3):
        m = new_match("cake-duel", 2, seed=seed)
        for _ in range(150):
            if m.outcome is not None:
                break
            seat = m.to_act[0]
            legal = m.legal_actions(seat)
            for action in legal:
                check(m.state, seat, action)
            with pytest.raises(IllegalActionError):
                check(m.state, 1 - seat, legal[0])
            m.apply(rng.choice(legal), seat)


def test_illegal_text_is_a_syntax_error_not_an_illegal_action() -> None:
    for text in ("claim", "claim x soldier 1", "claim 1 Soldier 1", "block 1", "frobnicate"):
        with pytest.raises(ActionSyntaxError):
            parse(text)
    assert parse("accept") == NO_ACTION

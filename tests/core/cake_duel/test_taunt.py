"""Sir Wolfy's taunt: an unchallenged played Sir Wolfy may be revealed by its owner."""

from __future__ import annotations

import pytest

from cakeparty.core import IllegalActionError, Revealed
from cakeparty.core.games.cake_duel import NO_TRADE, PASS, Lead, Phase, Taunt
from cakeparty.core.games.cake_duel.events import Taunted
from tests.core.cake_duel.play import accept, block, claim, events, pass_turn
from tests.core.cake_duel.stacking import stacked

ALICE = ["sir-wolfy", "soldier", "wizard", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


def _taunts(m, seat: int) -> list[Taunt]:
    return [a for a in m.legal_actions(seat) if isinstance(a, Taunt)]


def test_the_owner_may_taunt_at_its_next_decision() -> None:
    m = stacked([ALICE, BOB])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m)
    assert m.state.cakes == (4, 3)  # the claim resolved as a Soldier
    claim(m, 1, ["soldier"], "soldier", target=0)
    assert _taunts(m, 0) == [Taunt(wolfy)]
    phase, cakes, state_id = m.state.phase, m.state.cakes, m.state.state_id
    m.apply(Taunt(wolfy), 0)
    # shown to everyone, with no game effect: Alice still has to answer the attack
    assert m.view(None).known[wolfy] == "sir-wolfy"
    assert m.view(1).known[wolfy] == "sir-wolfy"
    assert (None, Revealed((wolfy,), ("sir-wolfy",), None)) in m.history
    assert events(m, Taunted) == [Taunted(0, wolfy)]
    assert (m.state.phase, m.state.cakes, m.to_act) == (phase, cakes, (0,))
    assert m.state.state_id > state_id
    assert _taunts(m, 0) == []


def test_a_taunt_waits_while_the_opponent_passes() -> None:
    m = stacked([ALICE, BOB])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "archer")
    accept(m)
    pass_turn(m)  # Bob: Alice had no decision in his turn
    assert m.to_act == (0,)
    assert _taunts(m, 0) == [Taunt(wolfy)]


def test_the_taunt_lapses_after_the_owners_next_decision() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m)
    claim(m, 1, ["soldier"], "soldier", target=0)
    accept(m)  # Alice decides without taunting
    assert m.to_act == (0,)
    assert _taunts(m, 0) == []


def test_a_wolfy_played_in_a_block_may_taunt() -> None:
    m = stacked([BOB, ALICE])  # Alice is seat 1 here
    claim(m, 0, ["soldier"], "soldier")
    (wolfy,) = block(m, 1, ["sir-wolfy"], "defender")
    accept(m)
    assert m.to_act == (1,)
    assert _taunts(m, 1) == [Taunt(wolfy)]


def test_only_sir_wolfy_is_offered_and_only_to_its_owner() -> None:
    m = stacked([ALICE, BOB])
    (wolfy, soldier) = claim(m, 0, ["sir-wolfy", "soldier"], "soldier")
    accept(m)
    claim(m, 1, ["soldier"], "soldier", target=0)
    assert _taunts(m, 0) == [Taunt(wolfy)]
    with pytest.raises(IllegalActionError) as err:
        m.apply(Taunt(soldier), 0)
    assert (err.value.seat, err.value.action) == (0, Taunt(soldier))
    assert err.value.reason == "that card is not Sir Wolfy"
    (kept,) = [s for s in m.state.hands[0] if m.dealer.card(s) == "wizard"]
    with pytest.raises(IllegalActionError) as err:
        m.apply(Taunt(kept), 0)
    assert err.value.reason == "only a card you played, unchallenged, in the turn just ended"


def test_a_wolfy_taken_by_a_priest_cannot_taunt() -> None:
    m = stacked([ALICE, ["priest", *BOB[1:]]], specials=["priest", "angel"])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    block(m, 1, ["priest"], "priest")
    accept(m)
    assert wolfy in m.state.hands[1]
    claim(m, 1, ["soldier"], "soldier", target=0)
    assert _taunts(m, 0) == []


def test_no_taunt_in_tournament_play() -> None:
    m = stacked([ALICE, BOB], specials=["scout", "angel"], options={"tournament": True})
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m)
    claim(m, 1, ["soldier"], "soldier", target=0)
    assert _taunts(m, 0) == []
    with pytest.raises(IllegalActionError) as err:
        m.apply(Taunt(wolfy), 0)
    assert err.value.reason == "Sir Wolfy is never revealed in tournament play"
    assert wolfy not in m.view(1).known


def test_team_mode_taunt_waits_for_the_owners_next_decision() -> None:
    hands = [ALICE, ["defender"] * 4, ["soldier"] * 4, ["wizard"] * 3 + ["archer"]]
    m = stacked(hands)
    m.apply(Lead(0), 0)
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "wizard", target=1)
    accept(m)
    m.apply(NO_TRADE, 0)
    # seats 1 and 2 pass: seat 0 has had no decision since
    m.apply(PASS, 1)
    m.apply(PASS, 2)
    claim(m, 3, ["wizard"], "wizard", target=0)
    assert m.state.phase is Phase.RESPOND
    assert _taunts(m, 0) == [Taunt(wolfy)]

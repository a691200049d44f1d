"""Sir Wolfy at the end of the turn: a played Sir Wolfy nobody flipped is revealed [printed];
in tournament play the reveal is its owner's choice."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import IllegalActionError, Revealed
from cakeparty.core.actions import forfeit_words
from cakeparty.core.games.cake_duel import KEEP_HIDDEN, NO_ACTION, NO_TRADE, Lead, Phase, Taunt
from cakeparty.core.games.cake_duel.bots import normal_bot
from cakeparty.core.games.cake_duel.events import Taunted
from cakeparty.core.games.cake_duel.flow import apply
from cakeparty.core.games.cake_duel.legal import to_act
from tests.core.cake_duel.play import accept, block, challenge, claim, events, settle
from tests.core.cake_duel.stacking import stacked
from tests.i18n_catalogs import language

ALICE = ["sir-wolfy", "soldier", "wizard", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


def test_a_played_wolfy_is_revealed_at_the_end_of_the_turn() -> None:
    m = stacked([ALICE, BOB])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m, end_turn=False)
    assert m.state.cakes == (4, 3)  # the claim resolved as a Soldier
    # the turn is not over until Alice shows her Sir Wolfy: it is her only choice
    assert (m.state.phase, m.to_act) == (Phase.WOLFY, (0,))
    assert m.legal_actions(0) == [Taunt(wolfy)]
    m.apply(Taunt(wolfy), 0)
    assert m.view(None).known[wolfy] == "sir-wolfy"
    assert m.view(1).known[wolfy] == "sir-wolfy"
    assert (None, Revealed((wolfy,), ("sir-wolfy",), None)) in m.history
    assert events(m, Taunted) == [Taunted(0, wolfy)]
    # no game effect: the cakes stand and Bob attacks next
    assert (m.state.phase, m.state.cakes, m.to_act) == (Phase.ATTACK, (4, 3), (1,))


def test_keeping_a_played_wolfy_hidden_is_refused() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m, end_turn=False)
    with pytest.raises(IllegalActionError) as err:
        m.apply(KEEP_HIDDEN, 0)
    assert (err.value.seat, err.value.action) == (0, KEEP_HIDDEN)
    assert err.value.reason == "a played Sir Wolfy is revealed at the end of the turn"


def test_every_seat_that_played_declares_attacker_first() -> None:
    m = stacked([BOB, ALICE])  # Alice is seat 1 here
    claim(m, 0, ["soldier"], "soldier")
    (wolfy,) = block(m, 1, ["sir-wolfy"], "defender")
    accept(m, end_turn=False)
    # the attacker played no Sir Wolfy: its one choice is to reveal none
    assert m.to_act == (0,) and m.legal_actions(0) == [KEEP_HIDDEN]
    m.apply(KEEP_HIDDEN, 0)
    assert (m.state.phase, m.to_act, m.legal_actions(1)) == (Phase.WOLFY, (1,), [Taunt(wolfy)])
    m.apply(Taunt(wolfy), 1)
    assert events(m, Taunted) == [Taunted(1, wolfy)]
    assert m.state.phase is Phase.ATTACK and m.to_act == (1,)


def test_only_sir_wolfy_may_be_shown_and_only_a_card_played_this_turn() -> None:
    m = stacked([ALICE, BOB])
    (wolfy, soldier) = claim(m, 0, ["sir-wolfy", "soldier"], "soldier")
    accept(m, end_turn=False)
    with pytest.raises(IllegalActionError) as err:
        m.apply(Taunt(soldier), 0)
    assert err.value.reason == "that card is not Sir Wolfy"
    (kept,) = [s for s in m.state.hands[0] if m.dealer.card(s) == "wizard"]
    with pytest.raises(IllegalActionError) as err:
        m.apply(Taunt(kept), 0)
    assert err.value.reason == "only a card you played, unflipped, in the turn just ended"
    m.apply(Taunt(wolfy), 0)
    # the next turn's decisions offer no taunt: the moment has passed
    assert not [a for a in m.legal_actions(1) if isinstance(a, Taunt)]


def test_a_wolfy_taken_by_a_priest_is_not_revealed() -> None:
    m = stacked([ALICE, ["priest", *BOB[1:]]], specials=["priest", "angel"])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    block(m, 1, ["priest"], "priest")
    accept(m, end_turn=False)
    assert wolfy in m.state.hands[1]
    # only Bob's Priest lies on the table: Alice has nothing left to declare
    assert m.to_act == (1,) and m.legal_actions(1) == [KEEP_HIDDEN]
    settle(m)
    assert events(m, Taunted) == [] and wolfy not in m.view(None).known


def test_a_turn_that_ends_the_bout_reveals_nothing() -> None:
    # the bout ends "at once" on a challenge: the unchallenged Sir Wolfy goes back unseen
    m = stacked([ALICE, BOB])
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    block(m, 1, ["soldier"], "defender")
    challenge(m)
    assert m.state.bout == 2 and events(m, Taunted) == []
    assert wolfy not in m.view(1).known


def test_once_wolfy_is_shown_no_seat_declares_again_this_bout() -> None:
    m = stacked([ALICE, BOB])
    claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m)
    claim(m, 1, ["soldier"], "soldier", target=0)
    m.apply(NO_ACTION, 0)
    # the one Sir Wolfy is face up: this turn ends without a step
    assert m.state.phase is Phase.ATTACK and m.to_act == (0,)


@pytest.mark.parametrize("show", [True, False])
def test_in_a_tournament_the_owner_chooses(show: bool) -> None:
    m = stacked([ALICE, BOB], specials=["scout", "angel"], options={"tournament": True})
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
    accept(m, end_turn=False)
    assert m.legal_actions(0) == [Taunt(wolfy), KEEP_HIDDEN]
    m.apply(Taunt(wolfy) if show else KEEP_HIDDEN, 0)
    assert (wolfy in m.view(1).known) is show
    assert events(m, Taunted) == ([Taunted(0, wolfy)] if show else [])
    assert m.state.phase is Phase.ATTACK and m.to_act == (1,)


def test_team_mode_the_owner_reveals_before_the_trade_is_over() -> None:
    hands = [ALICE, ["defender"] * 4, ["soldier"] * 4, ["wizard"] * 3 + ["archer"]]
    m = stacked(hands)
    m.apply(Lead(0), 0)
    (wolfy,) = claim(m, 0, ["sir-wolfy"], "wizard", target=1)
    accept(m, end_turn=False)
    m.apply(NO_TRADE, 0)
    assert m.state.phase is Phase.WOLFY and m.legal_actions(0) == [Taunt(wolfy)]
    m.apply(Taunt(wolfy), 0)
    assert events(m, Taunted) == [Taunted(0, wolfy)]
    assert m.to_act == (1,)


def test_a_hidden_wolfy_is_a_breach_that_only_its_team_can_witness() -> None:
    # every peer stays in step (the opponents cannot tell); the breach is recorded where
    # the card is known, and the local dealer, knowing it, refuses the move outright
    hands = [ALICE, ["defender"] * 4, ["soldier"] * 4, ["wizard"] * 3 + ["archer"]]
    m = stacked(hands)
    m.apply(Lead(0), 0)
    claim(m, 0, ["sir-wolfy"], "wizard", target=1)
    accept(m, end_turn=False)
    m.apply(NO_TRADE, 0)
    with language("es"):
        after = apply(m.state, KEEP_HIDDEN, 0)
    (breach,) = after.breaches
    assert (breach.seat, breach.action) == (0, "keep-hidden")
    # the reason is kept untranslated (it read in the language the move was applied in)
    assert breach.reason == "a played Sir Wolfy is revealed at the end of the turn"
    with language("pl"):
        assert forfeit_words(breach.reason) == "zagraną kartę Sir Wolfy odkrywa się na koniec tury"
    assert breach.witnesses == 0b0101  # Alice and her teammate, not the opponents
    assert after.phase is Phase.ATTACK and to_act(after) == (1,)
    with pytest.raises(IllegalActionError):
        m.apply(KEEP_HIDDEN, 0)


def test_the_normal_bot_keeps_its_wolfy_hidden_in_a_tournament_and_shows_it_otherwise() -> None:
    for tournament, expected in ((True, KEEP_HIDDEN), (False, None)):
        m = stacked([ALICE, BOB], specials=["scout", "angel"], options={"tournament": tournament})
        (wolfy,) = claim(m, 0, ["sir-wolfy"], "soldier")
        accept(m, end_turn=False)
        chosen = normal_bot(m.view(0), random.Random(0))
        assert chosen == (expected or Taunt(wolfy))

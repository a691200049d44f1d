"""Team mode: four seats, two sides (seats 0 and 2 against 1 and 3), shared cakes, trading."""

from __future__ import annotations

from collections import Counter

import pytest

from cakeparty.core import IllegalActionError, Match, Outcome, new_match
from cakeparty.core.games.cake_duel import (
    AGREE,
    CHALLENGE,
    NO_ACTION,
    NO_TRADE,
    PASS,
    REFUSE,
    Block,
    Claim,
    Lead,
    Phase,
    Trade,
)
from cakeparty.core.games.cake_duel.cards import CORE_SET, SPECIAL_SET
from cakeparty.core.games.cake_duel.events import (
    BoutStarted,
    BoutWon,
    Drew,
    LeadChosen,
    Stole,
    Traded,
)
from tests.core.cake_duel.play import accept, block, claim, events, settle, win_bout
from tests.core.cake_duel.stacking import hand_slots, stacked

HANDS = [
    ["wizard", "soldier", "archer", "defender"],  # A
    ["defender", "scientist", "soldier", "archer"],  # C
    ["soldier", "soldier", "wizard", "scientist"],  # B
    ["archer", "archer", "defender", "wizard"],  # D
]


def _led(lead: int = 0, **kw) -> Match:
    m = stacked(HANDS, **kw)
    m.apply(Lead(lead), m.to_act[0])
    return m


def _burn(m: Match, turns: int) -> None:
    """Turns that move no cake: one card as a Soldier against the next opponent, blocked by
    one card as a Defender, accepted, no trade."""
    for _ in range(turns):
        attacker = m.to_act[0]
        target = (attacker + 1) % 4
        m.apply(Claim(m.state.hands[attacker][-1:], "soldier", target), attacker)
        m.apply(Block(m.state.hands[target][-1:], "defender"), target)
        m.apply(NO_ACTION, attacker)
        settle(m)
        m.apply(NO_TRADE, attacker)
        settle(m)


# -- setting up ---------------------------------------------------------------------------


def test_team_deck_two_core_decks_less_one_sir_wolfy() -> None:
    m = new_match("cake-duel", 4, seed=2, options={"full": False})
    cards = Counter(m.dealer.card(s) for s in m.state.game_slots())
    assert sum(cards.values()) == 39
    assert cards == Counter(CORE_SET) + Counter(CORE_SET) - Counter({"sir-wolfy": 1})
    assert cards["sir-wolfy"] == 1


def test_team_full_game_adds_three_specials_from_two_sets() -> None:
    m = new_match("cake-duel", 4, seed=2)
    cards = Counter(m.dealer.card(s) for s in m.state.game_slots())
    assert sum(cards.values()) == 42
    specials = cards - (Counter(CORE_SET) + Counter(CORE_SET))
    assert sum(specials.values()) == 3
    assert not specials - (Counter(SPECIAL_SET) + Counter(SPECIAL_SET))
    assert m.view(0).specials_in_deck == 3


@pytest.mark.parametrize(("starter", "cakes"), [(0, (4, 5)), (1, (5, 4))])
def test_shared_cakes_four_for_the_starting_team_five_for_the_other(starter, cakes) -> None:
    m = stacked(HANDS, starter=starter)
    assert m.state.cakes == cakes
    assert sum(m.state.cakes) == 9
    assert events(m, BoutStarted) == [BoutStarted(1, starter, cakes)]
    assert [len(h) for h in m.state.hands] == [4, 4, 4, 4]
    assert len(m.state.deck) == 39 - 16


def test_teammates_see_each_others_hands() -> None:
    m = stacked(HANDS)
    hand = {seat: {s: m.dealer.card(s) for s in m.state.hands[seat]} for seat in range(4)}
    assert dict(m.view(0).known) == hand[0] | hand[2]
    assert dict(m.view(2).known) == hand[0] | hand[2]
    assert dict(m.view(1).known) == hand[1] | hand[3]
    assert dict(m.view(3).known) == hand[1] | hand[3]
    assert dict(m.view(None).known) == {}


# -- the lead and the turn order ----------------------------------------------------------


@pytest.mark.parametrize("starter", [0, 1])
def test_the_starting_team_chooses_its_attacker(starter: int) -> None:
    m = stacked(HANDS, starter=starter)
    assert m.state.phase is Phase.LEAD
    assert m.to_act == (starter,)
    assert m.legal_actions(starter) == [Lead(starter), Lead(starter + 2)]
    m.apply(Lead(starter + 2), starter)
    assert events(m, LeadChosen) == [LeadChosen(starter + 2)]
    assert m.to_act == (starter + 2,)
    assert m.state.phase is Phase.ATTACK


def test_the_lead_must_be_on_the_team_and_chosen_by_its_lower_seat() -> None:
    m = stacked(HANDS)
    with pytest.raises(IllegalActionError) as err:
        m.apply(Lead(1), 0)
    assert (err.value.seat, err.value.reason) == (0, "seat 1 is not on your team")
    with pytest.raises(IllegalActionError) as err:
        m.apply(Lead(2), 2)
    assert (err.value.seat, err.value.reason) == (2, "it is not this seat's turn")


@pytest.mark.parametrize(("lead", "order"), [(0, (0, 1, 2, 3)), (2, (2, 3, 0, 1))])
def test_turn_order_a_c_b_d(lead: int, order: tuple[int, ...]) -> None:
    m = _led(lead)
    assert m.state.order == order
    seen = []
    for _ in range(3):
        seen.append(m.to_act[0])
        m.apply(PASS, m.to_act[0])
    seen.append(m.to_act[0])
    # A, then an opponent C, then A's teammate B, then D
    assert tuple(seen) == order
    assert [s % 2 for s in seen] == [lead % 2, 1 - lead % 2, lead % 2, 1 - lead % 2]


def test_all_four_passing_ends_the_bout() -> None:
    m = _led(0)
    for seat in (0, 1, 2):
        m.apply(PASS, seat)
    assert m.state.passes == 3 and events(m, BoutWon) == []
    m.apply(PASS, 3)
    assert events(m, BoutWon) == [BoutWon(1, "passes", (0, 1))]
    # the losing team starts the next bout and chooses its lead again
    assert m.state.phase is Phase.LEAD and m.to_act == (0,)
    assert m.state.cakes == (4, 5)


def test_a_claim_among_the_passes_restarts_the_count() -> None:
    m = _led(0)
    m.apply(PASS, 0)
    m.apply(PASS, 1)
    claim(m, 2, ["soldier"], "soldier", target=3)
    accept(m)
    m.apply(NO_TRADE, 2)
    settle(m)
    for seat in (3, 0, 1):
        m.apply(PASS, seat)
    assert events(m, BoutWon) == []
    m.apply(PASS, 2)
    assert events(m, BoutWon) == [BoutWon(0, "passes", (1, 0))]


# -- attacking one opponent ---------------------------------------------------------------


def test_the_attacker_chooses_which_opponent_to_attack() -> None:
    m = _led(0)
    targets = {a.target for a in m.legal_actions(0) if isinstance(a, Claim)}
    assert targets == {1, 3}
    slots = hand_slots(m, 0, "soldier")
    with pytest.raises(IllegalActionError) as err:
        m.apply(Claim(slots, "soldier", 2), 0)
    assert err.value.reason == "seat 2 is not an opponent"
    m.apply(Claim(slots, "soldier", 3), 0)
    assert m.state.target == 3 and m.to_act == (3,)


def test_only_the_attacked_opponent_blocks_with_its_own_hand() -> None:
    m = _led(0)
    claim(m, 0, ["soldier"], "soldier", target=3)
    assert m.legal_actions(1) == []
    with pytest.raises(IllegalActionError) as err:
        m.apply(CHALLENGE, 1)
    assert (err.value.seat, err.value.reason) == (1, "it is not this seat's turn")
    (partner_card,) = hand_slots(m, 1, "defender")
    with pytest.raises(IllegalActionError) as err:
        m.apply(Block((partner_card,), "defender"), 3)
    assert err.value.reason == "the cards played must be distinct cards from your hand"
    block(m, 3, ["defender"], "defender")
    assert m.state.block.seat == 3
    # only the attacker may challenge the block
    assert m.to_act == (0,)
    with pytest.raises(IllegalActionError):
        m.apply(CHALLENGE, 2)


def test_cakes_move_between_team_pools() -> None:
    m = _led(0)
    claim(m, 0, ["wizard"], "wizard", target=1)
    accept(m)
    assert events(m, Stole) == [Stole(0, 1, 2)]
    assert m.state.cakes == (6, 3)


def test_a_challenge_wins_the_bout_for_a_team() -> None:
    m = _led(0)
    claim(m, 0, ["archer"], "wizard", target=3)
    m.apply(CHALLENGE, 3)
    assert events(m, BoutWon) == [BoutWon(1, "challenge", (0, 1))]
    assert m.state.trophies == (0, 1)


def test_a_team_without_cakes_loses_the_bout() -> None:
    m = _led(0)
    claim(m, 0, ["wizard", "soldier", "archer"], "wizard", target=1)  # 6 cakes, 5 there
    accept(m)
    assert events(m, Stole) == [Stole(0, 1, 5)]
    assert events(m, BoutWon) == [BoutWon(0, "cakes", (1, 0))]


def test_a_priests_card_is_seen_by_the_new_holder_and_its_teammate() -> None:
    m = stacked([HANDS[0], HANDS[1], HANDS[2], ["priest", *HANDS[3][1:]]], specials=["priest"] * 3)
    m.apply(Lead(0), 0)
    (card,) = claim(m, 0, ["archer"], "soldier", target=3)
    block(m, 3, ["priest"], "priest")
    accept(m)
    assert card in m.state.hands[3]
    hand = m.state.hands[3]
    assert "archer" in [m.view(3).known[s] for s in hand]
    assert "archer" in [m.view(1).known[s] for s in hand]
    assert m.view(0).glimpses[3] == ("archer",) and not set(hand) & set(m.view(0).known)
    assert card not in m.view(None).known


# -- trading ------------------------------------------------------------------------------


def _resolved(m: Match) -> None:
    claim(m, 0, ["soldier"], "soldier", target=1)
    block(m, 1, ["defender"], "defender")
    accept(m)


def test_after_resolving_the_attacker_may_offer_a_swap() -> None:
    m = _led(0)
    _resolved(m)
    assert m.state.phase is Phase.TRADE and m.to_act == (0,)
    legal = m.legal_actions(0)
    mine, theirs = m.state.hands[0], m.state.hands[2]
    assert legal == [NO_TRADE, *(Trade((g,), (t,)) for g in mine for t in theirs)]
    assert len(legal) == 1 + 3 * 4
    # the blocking team does not trade
    assert m.legal_actions(1) == [] and m.legal_actions(3) == []
    with pytest.raises(IllegalActionError) as err:
        m.apply(Trade(m.state.hands[1][:1], m.state.hands[3][:1]), 1)
    assert err.value.reason == "it is not this seat's turn"


def test_an_agreed_swap_then_resupply() -> None:
    m = _led(0)
    _resolved(m)
    (give,) = hand_slots(m, 0, "wizard")
    (take,) = hand_slots(m, 2, "scientist")
    m.apply(Trade((give,), (take,)), 0)
    assert m.state.phase is Phase.TRADE_ANSWER and m.to_act == (2,)
    assert m.legal_actions(2) == [AGREE, REFUSE]
    assert m.view(1).trade_offer == Trade((give,), (take,))
    m.apply(AGREE, 2)
    settle(m)
    assert take in m.state.hands[0] and give not in m.state.hands[0]
    assert give in m.state.hands[2] and take not in m.state.hands[2]
    evs = m.view(None).events
    i = evs.index(Traded(0, 2, (give,), (take,), agreed=True))
    assert evs[i + 1 :] == (Drew(0, 1), Drew(1, 1))
    assert [len(h) for h in m.state.hands] == [4, 4, 4, 4]
    # the opponents still do not see the cards
    assert give not in m.view(1).known and take not in m.view(3).known
    assert m.to_act == (1,)


def test_a_refused_trade_changes_nothing() -> None:
    m = _led(0)
    _resolved(m)
    before = m.state.hands
    offer = Trade(m.state.hands[0][:1], m.state.hands[2][:1])
    m.apply(offer, 0)
    m.apply(REFUSE, 2)
    assert events(m, Traded) == [Traded(0, 2, offer.give, offer.take, agreed=False)]
    assert m.state.hands[2] == before[2]
    assert m.state.hands[0][:3] == before[0]


def test_give_or_receive_only_when_the_deck_is_empty() -> None:
    m = _led(0)
    _resolved(m)
    legal = m.legal_actions(0)
    assert not [a for a in legal if isinstance(a, Trade) and not (a.give and a.take)]
    one_way = Trade(m.state.hands[0][:1], ())
    with pytest.raises(IllegalActionError) as err:
        m.apply(one_way, 0)
    assert (err.value.seat, err.value.action) == (0, one_way)
    assert err.value.reason == "only a swap while the deck has cards"


def test_with_an_empty_deck_a_card_may_be_given_or_received() -> None:
    m = _led(0)
    _burn(m, 12)  # 23 cards drawn: the deck is empty, seat 0 attacks
    assert m.state.deck == () and m.to_act == (0,)
    m.apply(Claim(m.state.hands[0][:1], "soldier", 1), 0)
    m.apply(NO_ACTION, 1)
    settle(m)
    legal = m.legal_actions(0)
    mine, theirs = m.state.hands[0], m.state.hands[2]
    assert {a for a in legal if isinstance(a, Trade) and not a.take} == {
        Trade((g,), ()) for g in mine
    }
    assert {a for a in legal if isinstance(a, Trade) and not a.give} == {
        Trade((), (t,)) for t in theirs
    }
    m.apply(Trade((), theirs[:1]), 0)  # receive one card
    m.apply(AGREE, 2)
    settle(m)
    assert m.state.hands[0] == (*mine, theirs[0])
    assert m.state.hands[2] == theirs[1:]


def test_a_hand_given_above_hand_size_keeps_its_cards() -> None:
    m = _led(0)
    _burn(m, 12)
    assert [len(h) for h in m.state.hands] == [3, 4, 4, 4]
    m.apply(Claim(m.state.hands[0][:1], "soldier", 1), 0)
    m.apply(NO_ACTION, 1)
    settle(m)
    m.apply(Trade(m.state.hands[0][:1], ()), 0)  # give one card
    m.apply(AGREE, 2)
    settle(m)
    m.apply(PASS, 1)
    # seat 2 holds five cards with a hand size of four: nothing is discarded
    assert m.to_act == (2,)
    assert len(m.state.hands[2]) == 5 and m.state.hand_sizes[2] == 4
    assert Claim(m.state.hands[2], "soldier", 1) in m.legal_actions(2)
    m.apply(PASS, 2)
    assert len(m.state.hands[2]) == 5


# -- the end of a team duel ---------------------------------------------------------------


def test_first_team_to_three_bouts_wins() -> None:
    m = stacked(HANDS)
    for side in (0, 1, 0, 0):
        win_bout(m, side)
    assert m.outcome == Outcome(winners=(0, 2), reason="trophies", scores=(3, 1, 3, 1))
    assert m.state.phase is Phase.OVER

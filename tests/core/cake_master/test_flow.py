"""The order of play: rounds, customers, the deal, passing, placing, solo, the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cakeparty.core import (
    ActionSyntaxError,
    CakePartyError,
    Committed,
    IllegalActionError,
    Match,
    Revealed,
    Shuffled,
    from_data,
    new_match,
    parse,
    to_data,
)
from cakeparty.core.games.cake_master import Exchange, Keep, PassCards, Phase, Place, rating
from cakeparty.core.games.cake_master.flow import winners
from cakeparty.core.games.cake_master.state import CAKE_SLOTS, MasterState
from cakeparty.core.requests import Reveal

from .stacking import choose, hand_names, slot, stacked


def first_place(m: Match, seat: int) -> Place:
    return next(a for a in m.legal_actions(seat) if isinstance(a, Place))


def finish_turn(m: Match) -> None:
    """Every seat still choosing takes its first legal choice until the next deal."""
    turn = m.state.turn
    while m.outcome is None and m.state.turn == turn:
        for seat in m.to_act:
            actions = m.legal_actions(seat)
            place = [a for a in actions if isinstance(a, Place)]
            m.apply((place or actions)[0], seat)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_actions_round_trip_text_and_wire(players: int) -> None:
    m = new_match("cake-master", players=players, seed=players)
    while m.outcome is None and m.state.turn < 3:
        for seat in m.to_act:
            for action in m.legal_actions(seat)[:50]:
                assert parse(str(action)) == action
                assert from_data(to_data(action)) == action
        finish_turn(m)


@pytest.mark.parametrize(
    "text",
    [
        "place 9,3,4 0,0,0 0,1,2",  # slots not ascending
        "place 3,4,9 0,0,0 0,0,2",  # two cards on one quarter
        "place 3,4,9 0,0,3 0,1,2",  # no cake 3
        "place 3,4,9 0,0,0 0,1,4",  # no quarter 4
        "place 3,4 0,0 0,1",  # two cards
        "give 3 3",
        "exchange -",
        "exchange 4,2",
    ],
)
def test_malformed_choices_are_refused_when_read(text: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse(text)


def test_rounds_bring_one_two_three_customers_and_four_turns_of_three_cards() -> None:
    m = new_match("cake-master", players=3, seed=4)
    seen_rounds = []
    while m.outcome is None:
        state = m.state
        if state.round not in seen_rounds:
            seen_rounds.append(state.round)
            assert len(state.customers) == state.round
            assert all(m.view(None).card(s) for s in state.customers), "customers face up"
        assert all(len(h) == 3 for h in state.hands)
        assert state.phase is Phase.PASS
        finish_turn(m)
        if m.outcome is None:
            assert m.state.turn_in_round == (m.state.turn - 1) % 4 + 1
    assert seen_rounds == [1, 2, 3]
    assert m.state.turn == 12
    assert len(m.state.results) == 3
    used = [c for r in m.state.results for c in r.customers]
    assert len(used) == len(set(used)) == 6, "customers are discarded after their round"
    for seat in range(3):
        # every cake of every round is finished: 12 cards a seat a round
        for result in m.state.results:
            assert all(None not in cake for cake in result.seats[seat].cakes)


def test_passing_gives_one_card_left_and_one_right() -> None:
    top = [
        *("pink-pp-none", "pink-pp-r", "pink-pp-b"),
        *("white-pp-none", "white-pp-r", "white-pp-b"),
        *("chocolate-pp-none", "chocolate-pp-r", "chocolate-pp-b"),
    ]
    m = stacked(3, top)
    assert m.state.phase is Phase.PASS and m.to_act == (0, 1, 2)
    choose(
        m,
        {
            0: PassCards(slot(m, "pink-pp-r"), slot(m, "pink-pp-b")),
            1: PassCards(slot(m, "white-pp-r"), slot(m, "white-pp-b")),
            2: PassCards(slot(m, "chocolate-pp-r"), slot(m, "chocolate-pp-b")),
        },
    )
    # the left neighbour is the next seat, the right neighbour the previous one
    assert hand_names(m, 0) == sorted(["pink-pp-none", "white-pp-b", "chocolate-pp-r"])
    assert hand_names(m, 1) == sorted(["white-pp-none", "pink-pp-r", "chocolate-pp-b"])
    assert hand_names(m, 2) == sorted(["chocolate-pp-none", "white-pp-r", "pink-pp-b"])
    # a passed card becomes known to its receiver, not to the third seat
    assert m.view(1).card(slot(m, "pink-pp-r")) == "pink-pp-r"
    assert m.view(2).card(slot(m, "pink-pp-r")) is None
    assert m.state.phase is Phase.PLACE


def test_a_sealed_choice_is_hidden_until_every_seat_has_chosen() -> None:
    m = new_match("cake-master", players=3, seed=2)
    before = [m.view(s) for s in (None, 1, 2)]
    m.apply(m.legal_actions(0)[3], 0)
    assert m.to_act == (1, 2)
    assert [m.view(s) for s in (None, 1, 2)] == before
    assert m.state.phase is Phase.PASS


def test_two_players_keep_one_give_two_then_keep_one_give_one_back() -> None:
    a = ["pink-pp-none", "pink-pp-r", "pink-pp-b"]
    b = ["white-pp-none", "white-pp-r", "white-pp-b"]
    m = stacked(2, [*a, *b])
    assert m.state.phase is Phase.KEEP
    assert sorted(m.legal_actions(0), key=str) == sorted((Keep(slot(m, n)) for n in a), key=str)
    choose(m, {0: Keep(slot(m, a[0])), 1: Keep(slot(m, b[0]))})
    assert m.state.phase is Phase.KEEP_BACK
    assert hand_names(m, 0) == sorted([a[0], b[1], b[2]])
    assert m.view(0).card(slot(m, b[1])) == b[1]
    # the second keep is among the two cards received
    assert set(m.legal_actions(0)) == {Keep(slot(m, b[1])), Keep(slot(m, b[2]))}
    with pytest.raises(IllegalActionError):
        m.apply(Keep(slot(m, a[0])), 0)
    choose(m, {0: Keep(slot(m, b[1])), 1: Keep(slot(m, a[1]))})
    assert m.state.phase is Phase.PLACE
    assert hand_names(m, 0) == sorted([a[0], b[1], a[2]])
    assert hand_names(m, 1) == sorted([b[0], a[1], b[2]])


def test_placing_puts_the_three_cards_face_up_where_chosen() -> None:
    top = ["pink-pp-none", "pink-pp-r", "pink-pp-b", "white-pp-none", "white-pp-r", "white-pp-b"]
    m = stacked(2, top)
    choose(m, {0: Keep(slot(m, top[0])), 1: Keep(slot(m, top[3]))})
    choose(m, {0: Keep(m.state.received[0][0]), 1: Keep(m.state.received[1][0])})
    hand = sorted(m.state.hands[0])
    place = Place.of({hand[0]: (0, 0), hand[1]: (0, 1), hand[2]: (2, 3)})
    choose(m, {0: place, 1: first_place(m, 1)})
    cakes = m.view(None).cakes[0]
    assert cakes[0][:2] == tuple(hand[:2]) and cakes[2][3] == hand[2]
    assert all(m.view(None).card(s) for s in hand), "placed cards are public"
    assert m.state.turn == 2 and m.state.phase is Phase.KEEP


def test_a_placement_on_a_full_quarter_is_refused() -> None:
    m = new_match("cake-master", players=3, seed=1)
    finish_turn(m)
    for seat in (0, 1, 2):
        m.apply(m.legal_actions(seat)[0], seat)  # passes
    taken = next((c, q) for c in range(3) for q in range(4) if m.state.cakes[0][c][q] is not None)
    free = [(c, q) for c in range(3) for q in range(4) if m.state.cakes[0][c][q] is None]
    hand = sorted(m.state.hands[0])
    bad = Place.of({hand[0]: taken, hand[1]: free[0], hand[2]: free[1]})
    assert bad not in m.legal_actions(0)
    with pytest.raises(IllegalActionError):
        m.apply(bad, 0)


def test_choices_reach_the_game_only_sealed_and_only_legal() -> None:
    m = new_match("cake-master", players=3, seed=1)
    state = m.state
    choice = m.legal_actions(0)[0]
    with pytest.raises(IllegalActionError):
        m.game.apply(state, choice, 0)
    good = [(s, m.legal_actions(s)[0]) for s in (0, 1, 2)]
    m.game.apply(state, Committed(tuple(good)), None)  # accepted
    stolen = PassCards(state.hands[1][0], state.hands[1][1])
    with pytest.raises(IllegalActionError):
        m.game.apply(state, Committed(((0, stolen), *good[1:])), None)
    with pytest.raises(IllegalActionError):
        m.game.apply(state, Committed(tuple(good[:2])), None)  # a seat missing


def test_a_reveal_must_fit_the_slot() -> None:
    m = new_match("cake-master", players=2, seed=1)
    state = m.game.new_state(2)
    # first the customers are shuffled; then the cake deck; then the first customer shown
    state = m.game.apply(state, m.dealer.fulfil(state.pending, state.knowledge), None)
    state = m.game.apply(state, m.dealer.fulfil(state.pending, state.knowledge), None)
    reveal = state.pending
    assert isinstance(reveal, Reveal) and reveal.to is None
    with pytest.raises(IllegalActionError):
        m.game.apply(state, Revealed(reveal.slots, ("pink-pp-none",), None), None)


# -- solo ------------------------------------------------------------------------------


def test_solo_deals_four_cards_places_three_and_discards_one() -> None:
    top = ["pink-pp-none", "white-pp-none", "chocolate-pp-none", "pink-hh-rr"]
    m = stacked(1, top, customers=["customer-13", "customer-7", "customer-12"])
    assert len(m.state.customers) == 3
    assert m.state.phase is Phase.PLACE and len(m.state.hands[0]) == 4
    place = Place.of(
        {slot(m, "pink-pp-none"): (0, 0), slot(m, "white-pp-none"): (0, 1),
         slot(m, "chocolate-pp-none"): (0, 2)}
    )  # fmt: skip
    m.apply(place, 0)
    assert m.state.discard == (slot(m, "pink-hh-rr"),)
    assert len(m.state.hands[0]) == 4 and m.state.turn == 2


def test_solo_exchanges_at_most_three_times_a_game() -> None:
    top = [
        *("pink-pp-none", "white-pp-none", "chocolate-pp-none", "pink-hh-rr"),
        *("pink-pp-r", "pink-pp-b"),
        *("white-pp-r",),
        *("white-pp-b", "white-hh-b"),
    ]
    m = stacked(1, top)
    first = slot(m, "pink-hh-rr"), slot(m, "chocolate-pp-none")
    m.apply(Exchange(tuple(sorted(first))), 0)
    assert hand_names(m, 0) == sorted(["pink-pp-none", "white-pp-none", "pink-pp-r", "pink-pp-b"])
    assert m.state.exchanges == 1 and m.view(0).exchanges_left == 2
    assert set(first) <= set(m.state.discard)
    m.apply(Exchange((slot(m, "pink-pp-b"),)), 0)
    assert "white-pp-r" in hand_names(m, 0)
    m.apply(Exchange(tuple(sorted((slot(m, "pink-pp-r"), slot(m, "white-pp-r"))))), 0)
    assert sorted(hand_names(m, 0)) == sorted(
        ["pink-pp-none", "white-pp-none", "white-pp-b", "white-hh-b"]
    )
    assert m.view(0).exchanges_left == 0
    assert not any(isinstance(a, Exchange) for a in m.legal_actions(0))
    with pytest.raises(IllegalActionError):
        m.apply(Exchange((m.state.hands[0][0],)), 0)
    # the limit is for the whole game
    while m.outcome is None:
        assert not any(isinstance(a, Exchange) for a in m.legal_actions(0))
        m.apply(first_place(m, 0), 0)
    assert m.outcome is not None and m.outcome.reason == rating(m.state.met)


def test_solo_scores_customers_only_and_refills_them_to_three() -> None:
    # cake 1 gets four cards without fruit: it meets "no fruit" (C13)
    no_fruit = ["pink-pp-none", "white-pp-none", "chocolate-pp-none", "pink-hh-none"]
    top = [
        *(no_fruit[0], no_fruit[1], no_fruit[2], "pink-hh-rr"),
        *(no_fruit[3], "white-hh-rr", "white-ph-rr", "white-hp-rr"),
    ]
    customers = ["customer-13", "customer-11", "customer-3", "customer-9"]
    m = stacked(1, top, customers=customers)
    s = [slot(m, n) for n in no_fruit]
    m.apply(Place.of({s[0]: (0, 0), s[1]: (0, 1), s[2]: (0, 2)}), 0)
    others = sorted(x for x in m.state.hands[0] if x != s[3])
    m.apply(Place.of({s[3]: (0, 3), others[0]: (1, 0), others[1]: (1, 1)}), 0)
    while m.state.round == 1:
        m.apply(first_place(m, 0), 0)
    result = m.state.results[0]
    assert result.seats[0].taste_stars == 0, "solo: no taste points"
    assert (0, 0) in result.seats[0].matches
    assert m.state.met == len(result.seats[0].matches) >= 1
    names = [m.view(0).card(c) for c in m.state.customers]
    assert len(names) == 3
    assert "customer-13" not in names and "customer-9" in names
    for name in customers[1:3]:
        # a customer not met stays for the next round
        assert (name in names) == (
            name not in [result.customers[k] for _c, k in result.seats[0].matches]
        )


def test_solo_ratings() -> None:
    assert [rating(n) for n in range(10)] == (
        ["apprentice"] * 4 + ["baker"] * 3 + ["cake-master"] * 3
    )


def test_the_deck_takes_the_discards_back_shuffled_when_it_runs_short() -> None:
    m = new_match("cake-master", players=1, seed=3)
    state = m.state
    m.state = replace(state, deck=state.deck[:1], discard=state.discard + state.deck[1:])
    hand = tuple(sorted(state.hands[0][:3]))
    before = len(m.history)
    m.apply(Exchange(hand), 0)
    shuffles = [a for _s, a in m.history[before:] if isinstance(a, Shuffled)]
    assert len(shuffles) == 1 and len(shuffles[0].slots) > 3
    assert m.state.discard == ()
    assert len(m.state.hands[0]) == 4
    zones = [*m.state.deck, *m.state.discard, *m.state.hands[0]]
    assert sorted(zones) == list(CAKE_SLOTS)


# -- the end -------------------------------------------------------------------------------


def test_most_stars_win_a_tie_goes_to_last_round_taste_then_is_shared() -> None:
    m = new_match("cake-master", players=3, seed=1)
    state = m.state
    assert winners(replace(state, stars=(9, 7, 8), last_taste=(1, 30, 2))) == ((0,), False)
    assert winners(replace(state, stars=(9, 9, 8), last_taste=(12, 15, 20))) == ((1,), False)
    assert winners(replace(state, stars=(9, 9, 8), last_taste=(15, 15, 20))) == ((0, 1), True)


def test_a_whole_game_ends_with_an_outcome_in_stars() -> None:
    m = new_match("cake-master", players=4, seed=8)
    while m.outcome is None:
        finish_turn(m)
    out = m.outcome
    assert out.reason == "stars" and out.scores == m.state.stars
    assert out.scores == m.state.results[-1].stars
    assert m.state.phase is Phase.OVER and m.to_act == ()
    assert m.game.pending(m.state) is None
    with pytest.raises(CakePartyError):
        m.game.apply(m.state, Committed(()), None)


def _table(players: int, cakes: dict[int, list[list[str]]], customers: list[int]) -> MasterState:
    """A state before any shuffle (every slot holds its box card, face up) with these cakes
    and open customers, ready to score."""
    from cakeparty.core.games.cake_master import CAKE_MASTER
    from cakeparty.core.games.cake_master.cards import CAKE_CARDS

    state = CAKE_MASTER.new_state(players)
    seats = []
    for seat in range(players):
        rows = cakes[seat]
        seats.append(tuple(tuple(CAKE_CARDS.index(n) for n in row) for row in rows))
    return replace(state, cakes=tuple(seats), customers=tuple(71 + n for n in customers), round=1)


NO_FRUIT_A = ["pink-pp-none", "white-pp-none", "chocolate-pp-none", "pink-hh-none"]
NO_FRUIT_B = ["white-hh-none", "chocolate-hh-none", "pink-ph-none", "white-hp-none"]
PINK = ["pink-pp-r", "pink-pp-b", "pink-pp-rb", "pink-pp-rr"]
WHITE = ["white-pp-r", "white-pp-b", "white-pp-rb", "white-pp-rr"]
MIX_A = ["chocolate-pp-r", "chocolate-pp-b", "white-hh-rb", "pink-hh-bb"]
MIX_B = ["chocolate-hh-r", "chocolate-hh-b", "white-ph-rb", "pink-ph-bb"]
CHOC = ["chocolate-ph-r", "chocolate-ph-b", "chocolate-ph-rb", "chocolate-ph-rr"]
WHITE_2 = ["white-ph-r", "white-ph-b", "white-ph-rr", "white-ph-bb"]
PINK_2 = ["pink-hp-r", "pink-hp-b", "pink-hp-rr", "pink-hp-bb"]


def test_a_round_scores_taste_stars_and_customers_several_players_may_share_one() -> None:
    state = _table(
        3,
        {0: [NO_FRUIT_A, PINK, MIX_A], 1: [NO_FRUIT_B, WHITE, MIX_B], 2: [CHOC, WHITE_2, PINK_2]},
        [13, 7],  # no fruit, all Pink
    )
    from cakeparty.core.games.cake_master.flow import _score_round
    from cakeparty.core.games.cake_master.scoring import taste as taste_of
    from cakeparty.core.games.cake_master.scoring import taste_stars

    scored = _score_round(state)
    result = scored.results[-1]
    totals = [sum(taste_of(c).total for c in state.seat_cakes(s)) for s in range(3)]
    assert [s.taste for s in result.seats] == totals
    assert [s.taste_stars for s in result.seats] == list(taste_stars(totals))
    # both no-fruit cakes meet "no fruit": one customer, two players
    assert result.seats[0].matches == ((0, 0), (1, 1))
    assert result.seats[1].matches == ((0, 0),)
    assert result.seats[2].matches == ((2, 1),)
    assert scored.stars == tuple(s.stars for s in result.seats)
    assert scored.customers == () and set(scored.customer_discard) == {84, 78}


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_view_lists_exactly_the_legal_choices(players: int) -> None:
    m = new_match("cake-master", players=players, seed=6)
    for _ in range(4):
        for seat in m.to_act:
            listed = m.legal_actions(seat)
            assert list(m.view(seat).legal) == listed
            assert len(set(listed)) == len(listed)
            assert m.view(None).legal == ()
        finish_turn(m)

"""Cake Master in words: cards, customers, taste, previews, the round's end, events."""

from __future__ import annotations

from dataclasses import replace

from cakeparty.core import new_match
from cakeparty.core.games.cake_master import Place
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.scoring import taste
from cakeparty.core.games.cake_master.text import (
    card_words,
    choice_words,
    customer_title,
    customer_words,
    describe,
    final_lines,
    preview,
    preview_words,
    rating_title,
    round_breakdown,
    taste_words,
)

from .stacking import stacked


def test_a_card_in_words() -> None:
    assert card_words("pink-hp-rb") == "Pink · half|plain · 1 raspberry, 1 blueberry"
    assert card_words("chocolate-pp-none") == "Chocolate · plain|plain · no fruit"
    assert card_words("white-hh-bb") == "White · half|half · 2 blueberries"
    assert card_words(None) == "?"


def test_customers_and_ratings_in_words() -> None:
    assert customer_words("customer-7") == "all Pink"
    assert customer_title("customer-18") == "C18: at least 2 raspberries and no blueberries"
    assert rating_title(3) == "Apprentice"
    assert rating_title(4) == "Baker"
    assert rating_title(9) == "Cake Master"


def test_taste_breakdown_of_the_worked_example() -> None:
    cake = ("pink-ph-rb", "pink-hp-rb", "pink-ph-r", "pink-hp-none")
    assert taste_words(taste(cake)) == "icing 3 · rosettes 2 · no half 1 · pairs 2 = 8"


def test_preview_shows_what_a_placement_would_score_before_it_is_sealed() -> None:
    top = [
        *("pink-pp-none", "pink-pp-r", "pink-pp-b"),
        *("white-pp-none", "white-pp-r", "white-pp-b"),
        *("chocolate-pp-none", "chocolate-pp-r", "chocolate-pp-b"),
    ]
    m = stacked(3, top)
    for seat in range(3):  # each passes its first two cards
        hand = m.state.hands[seat]
        m.apply(
            next(a for a in m.legal_actions(seat) if a.left == hand[0] and a.right == hand[1]), seat
        )  # type: ignore[attr-defined]
    view = m.view(0)
    hand = sorted(view.hand)
    together = Place.of({hand[0]: (0, 0), hand[1]: (0, 1), hand[2]: (0, 2)})
    apart = Place.of({hand[0]: (0, 0), hand[1]: (1, 0), hand[2]: (2, 0)})
    shown = preview(view, together)
    assert shown.cakes[0][:3] == tuple(view.card(s) for s in hand)
    assert shown.taste == taste(shown.cakes[0]).total
    # three single-card cakes of one colour each: 3 icing points a cake
    assert preview(view, apart).taste == sum(
        taste((view.card(s), None, None, None)).total for s in hand
    )
    assert preview_words(view, apart).startswith("taste ")
    assert "on cake 1, quarter 1" in choice_words(view, together)


def test_round_breakdown_lists_taste_stars_and_customers() -> None:
    m = new_match("cake-master", players=2, seed=5)
    while not m.state.results:
        for seat in m.to_act:
            m.apply(m.legal_actions(seat)[0], seat)
    result = m.state.results[0]
    lines = round_breakdown(result, ["Ann", "Bob"])
    assert lines[0].startswith("Round 1: customers ")
    for seat, name in enumerate(["Ann", "Bob"]):
        score = result.seats[seat]
        assert lines[seat + 1].startswith(f"{name}: taste ")
        assert f"= {score.taste} · {score.taste_stars} ★ for taste" in lines[seat + 1]
        # the stars of this round and of the game so far (round 2's line gave only these)
        assert f"{score.stars} ★ this round, {result.stars[seat]} ★ in all" in lines[seat + 1]
    events = m.view(None).events
    assert any(isinstance(e, ev.RoundScored) for e in events)
    for event in events:
        assert describe(event, ["Ann", "Bob"])
    placed = next(e for e in events if isinstance(e, ev.Placed))
    words = describe(placed, ["Ann", "Bob"])
    assert words.startswith(("Ann places ", "Bob places "))
    # each card's cake and quarter (which cards touch makes the rosettes)
    pairs = zip(placed.cakes, placed.quarters, strict=True)
    spots = [f"on cake {c + 1}, quarter {q + 1}" for c, q in pairs]
    assert all(spot in words for spot in spots) and words.count("; ") == len(spots) - 1


def test_the_final_table_and_the_solo_rating() -> None:
    m = new_match("cake-master", players=3, seed=2)
    while m.outcome is None:
        for seat in m.to_act:
            m.apply(m.legal_actions(seat)[0], seat)
    lines = final_lines(m.view(None), ["Ann", "Bob", "Cy"])
    winner = ["Ann", "Bob", "Cy"][m.outcome.winners[0]]
    assert lines[0].startswith(f"1. {winner}: {max(m.state.stars)} ★")
    assert len(lines) == 3
    # a shared win: the seats alike on stars and the last round's taste share first place
    view = m.view(None)
    tied = replace(view, stars=(9, 7, 9), last_taste=(4, 8, 4))
    assert [line[:8] for line in final_lines(tied, ["Ann", "Bob", "Cy"])] == [
        "1. Ann: ",
        "1. Cy: 9",
        "3. Bob: ",
    ]
    solo = new_match("cake-master", players=1, seed=2)
    while solo.outcome is None:
        solo.apply(solo.legal_actions(0)[0], 0)
    met = solo.state.met
    assert final_lines(solo.view(0), ["Ann"]) == [
        f"{met} customer met" if met == 1 else f"{met} customers met",
        f"Rating: {rating_title(met)}",
    ]


def test_a_pass_says_how_the_cards_went() -> None:
    """It read "Everyone passes their cards" for every pass: two players give two cards,
    and more keep one and pass one each way."""
    for players, names, first in (
        (3, ["Ann", "Bob", "Cy"], "Everyone keeps one card and passes one to each neighbour"),
        (2, ["Ann", "Bob"], "Each player keeps one card and gives the other two to the opponent"),
    ):
        m = new_match("cake-master", players=players, seed=3)
        while not any(isinstance(e, ev.CardsPassed) for e in m.view(None).events):
            for seat in m.to_act:
                m.apply(m.legal_actions(seat)[0], seat)
        passed = [e for e in m.view(None).events if isinstance(e, ev.CardsPassed)]
        assert describe(passed[0], names) == first

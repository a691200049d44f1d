"""The Cake Master bots: they see only their view, and ``normal`` plays a real strategy."""

from __future__ import annotations

import random
from dataclasses import replace

from cakeparty.core import new_match
from cakeparty.core.games.cake_master import PassCards, Place
from cakeparty.core.games.cake_master.bots import normal_bot, random_bot
from cakeparty.core.simulate import simulate

from .stacking import choose, slot, stacked


def test_normal_beats_three_random_players_in_most_games() -> None:
    report = simulate(
        "cake-master", games=12, seed=5, bots=["normal", "random", "random", "random"], players=4
    )
    assert report.errors == 0
    assert report.wins["normal"] >= 9


def test_normal_beats_random_at_two_players() -> None:
    report = simulate("cake-master", games=12, seed=5, bots=["normal", "random"], players=2)
    assert report.errors == 0
    assert report.wins["normal"] >= 10


def test_solo_normal_meets_more_customers_than_random() -> None:
    report = simulate("cake-master", games=12, seed=5, bots=["normal", "random"], players=1)
    met = report.as_json()["customers_met_per_game"]
    assert report.errors == 0
    assert met["normal"] >= 3.0
    assert met["normal"] > met["random"] + 1.5


def test_bots_decide_from_the_view_alone() -> None:
    m = new_match("cake-master", players=3, seed=9)
    for _ in range(6):
        seat = m.to_act[0]
        seen = m.view(seat)
        # the same table with every card this seat may not know swapped around
        cards = list(m.state.knowledge.cards)
        hidden = [s for s in range(72) if not m.state.knowledge.knows(seat, s)]
        names = [cards[s] for s in hidden]
        random.Random(1).shuffle(names)
        for s, name in zip(hidden, names, strict=True):
            cards[s] = name
        other = replace(m.state, knowledge=replace(m.state.knowledge, cards=tuple(cards)))
        for bot in (normal_bot, random_bot):
            assert bot(seen, random.Random(3)) == bot(m.game.view(other, seat), random.Random(3))
        for s in m.to_act:
            m.apply(normal_bot(m.view(s), random.Random(s)), s)


def test_normal_does_not_pass_a_neighbour_the_card_that_completes_its_customer() -> None:
    top = [
        *("pink-pp-r", "white-pp-none", "chocolate-pp-none"),
        *("pink-pp-none", "white-pp-r", "chocolate-pp-r"),
        *("pink-pp-b", "white-pp-b", "chocolate-pp-b"),
        # turn 2: seat 0 holds the one Pink card seat 1's all-Pink cake still needs
        *("pink-hh-none", "chocolate-pp-rb", "white-pp-rb"),
    ]
    m = stacked(3, top, customers=["customer-7"])  # all Pink
    choose(
        m,
        {
            0: PassCards(slot(m, "pink-pp-r"), slot(m, "white-pp-none")),
            1: PassCards(slot(m, "white-pp-r"), slot(m, "chocolate-pp-r")),
            2: PassCards(slot(m, "white-pp-b"), slot(m, "pink-pp-b")),
        },
    )
    pinks = [slot(m, n) for n in ("pink-pp-none", "pink-pp-r", "pink-pp-b")]
    assert set(m.state.hands[1]) == set(pinks)
    own = [slot(m, n) for n in ("chocolate-pp-none", "chocolate-pp-r", "white-pp-b")]
    choose(
        m,
        {
            0: Place.of({own[0]: (0, 0), own[1]: (0, 1), own[2]: (1, 0)}),
            1: Place.of({pinks[0]: (0, 0), pinks[1]: (0, 1), pinks[2]: (0, 2)}),
            2: next(a for a in m.legal_actions(2) if isinstance(a, Place)),
        },
    )
    assert m.view(0).seat_cakes(1)[0][:3] == ("pink-pp-none", "pink-pp-r", "pink-pp-b")
    choice = normal_bot(m.view(0), random.Random(0))
    assert isinstance(choice, PassCards)
    assert choice.left != slot(m, "pink-hh-none"), "seat 1 is the left neighbour"


def test_normal_places_to_keep_a_customer_within_reach() -> None:
    top = [
        *("white-pp-none", "white-pp-r", "white-pp-b", "pink-hh-rr"),
        *("white-hh-rb", "chocolate-ph-bb", "pink-hp-r", "white-pp-rb"),
    ]
    m = stacked(1, top, customers=["customer-8", "customer-13", "customer-11"])  # all White
    choice = normal_bot(m.view(0), random.Random(0))
    assert isinstance(choice, Place)
    whites = {slot(m, n) for n in ("white-pp-none", "white-pp-r", "white-pp-b")}
    # the three White cards go on one cake (all White), the Pink card is discarded
    assert set(choice.slots) == whites
    assert len(set(choice.cakes)) == 1

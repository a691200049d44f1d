"""Bribes: the worked example of the rulebook, offers and their values, sabotage, Force
Fields, success and failure, DOOM."""

from __future__ import annotations

import pytest

from cakeparty.core import IllegalActionError
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Bribe,
    Draw,
    ForceField,
    NoBribe,
    NoForceField,
    NoSabotage,
    Remove,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import card
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.text import describe, describe_action

from .stacking import (
    NAMES,
    discard_pile,
    events_of,
    give,
    hand_sorts,
    hold,
    one,
    slots_of,
    stacked,
)

ALIENS = ("glorp", "pib", "mumbo", "vashti", "zix", "krell")
TEDDIES = ["space-teddy"] * 3


def worked_example(options=None):
    """Sally (seat 0) holds Tiramisu, Starry Fruit Cake and Moon Cake; Paulo (seat 1) a
    Space Teddy; Western Europe is in play."""
    m = stacked(
        3,
        aliens=ALIENS,
        regions=["western-europe"],
        cakes={0: ["tiramisu", "starry-fruit-cake", "moon-cake"]},
        mischief={
            0: ["laser-fork", "laser-fork", "tractor-beam"],
            1: ["space-teddy", "abduction", "abduction"],
            2: ["space-teddy", "abduction", "abduction"],
        },
        options=options,
    )
    if options and options.get("advanced"):
        for seat in (0, 1, 2):
            m.apply(m.legal_actions(seat)[5], seat)  # 5 cakes, 3 mischief
    return m


@pytest.mark.parametrize("advanced", [False, True])
def test_worked_example_sallys_western_europe(advanced) -> None:
    m = worked_example({"advanced": advanced})
    tiramisu, starry, moon = (one(m, 0, s) for s in ("tiramisu", "starry-fruit-cake", "moon-cake"))
    m.apply(Bribe("western-europe", tuple(sorted((tiramisu, starry, moon)))), 0)
    offer = m.view(2).offer
    assert offer is not None and offer.opened
    assert (offer.value, offer.need) == (4, 3)  # Tiramisu +1 on Western Europe
    assert m.to_act == (1,) and m.state.phase is Phase.SABOTAGE
    m.apply(Sabotage(one(m, 1, "space-teddy"), "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    assert m.to_act == (1,) and m.state.phase is Phase.REMOVE
    # a move reads as what it takes: Tiramisu worth 2 here keeps its card (it said "remove
    # Tiramisu", and "remove Tiramisu, Tiramisu" for the whole card)
    view = m.view(1)
    assert describe_action(view, Remove((moon,), 0), NAMES) == "remove Moon Cake"
    sideways = "remove Tiramisu's +1 (it turns sideways)"
    assert describe_action(view, Remove((tiramisu,), 0), NAMES) == sideways
    whole = "remove Tiramisu with its +1"
    assert describe_action(view, Remove((tiramisu, tiramisu), 0), NAMES) == whole
    m.apply(Remove((moon,), 0), 1)
    assert m.view(0).offer.value == 3
    m.apply(NoSabotage(), 2)
    region = m.state.held("western-europe")
    assert region.holder == 0 and region.value == 3
    assert sorted(region.cards) == sorted((tiramisu, starry))
    assert events_of(m, ev.BribeWon)[-1] == ev.BribeWon(0, "western-europe", 3, None, 0)
    if advanced:
        # the control bonus: the top cake of the cake discard, the Moon Cake just removed
        assert moon in m.state.hands[0]
        assert m.state.cake_discard == ()
    else:
        assert m.state.cake_discard == (moon,)
        assert moon not in m.state.hands[0]
    assert m.state.phase is Phase.DRAW and m.to_act == (0,)


def test_an_offer_below_the_minimum_is_never_offered_and_a_target_needs_enough() -> None:
    m = worked_example()
    legal = m.legal_actions(0)
    bribes = [a for a in legal if isinstance(a, Bribe)]
    assert bribes, "Sally can bribe"
    for bribe in bribes:
        region = m.state.held(bribe.target)
        value = len(bribe.slots) + sum(
            1 for s in bribe.slots if card(m.dealer.card(s)).continent == region.continent
        )
        assert value >= (region.minimum if region else 7)
    # one Bribe per choice of sorts: the five sponges count as one sort
    we = [b for b in bribes if b.target == "western-europe"]
    assert len(we) == len(set(we))
    assert NoBribe() in legal


def test_a_mischief_card_in_an_offer_is_illegal_at_once() -> None:
    m = worked_example()
    fork = one(m, 0, "laser-fork")
    cake = one(m, 0, "sponge")
    with pytest.raises(IllegalActionError):
        m.apply(Bribe("western-europe", tuple(sorted((cake, fork)))), 0)


def test_own_region_and_doom_without_two_regions_are_no_targets() -> None:
    m = worked_example()
    hold(m, "western-europe", 0, ["sponge", "sponge", "sponge"])
    cakes = tuple(sorted(slots_of(m, 0, "sponge")))
    with pytest.raises(IllegalActionError):
        m.apply(Bribe("western-europe", cakes), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Bribe("doom", cakes), 0)
    assert not any(isinstance(a, Bribe) and a.target == "doom" for a in m.legal_actions(0))


def test_a_controlled_region_needs_more_than_the_value_lying_on_it() -> None:
    m = worked_example()
    hold(m, "north-america", 1, ["sponge"] * 4, value=4)
    give(m, 0, ["sponge"] * 3)
    bribes = [a for a in m.legal_actions(0) if isinstance(a, Bribe) and a.target == "north-america"]
    assert bribes and all(len(b.slots) >= 5 for b in bribes)
    sponges = tuple(slots_of(m, 0, "sponge")[:5])
    m.apply(Bribe("north-america", tuple(sorted(sponges))), 0)
    assert m.view(0).offer.need == 5
    for seat in (1, 2):
        m.apply(NoSabotage(), seat)
    region = m.state.held("north-america")
    assert region.holder == 0 and region.value == 5
    # the cards lying on the stolen region are eaten
    assert len(m.state.cake_discard) == 4
    won = events_of(m, ev.BribeWon)[-1]
    assert (won.previous, won.eaten) == (1, 4)


def test_sabotage_amounts_and_a_force_field_cancels_one() -> None:
    m = stacked(
        4,
        aliens=ALIENS,
        regions=["north-america"],
        cakes={0: ["sponge"] * 5},
        mischief={
            0: ["force-field", "tractor-beam", "tractor-beam"],
            1: ["laser-fork", "abduction", "abduction"],
            2: ["meteor-shower", "abduction", "abduction"],
            3: ["cake-monster", "abduction", "abduction"],
        },
    )
    offer = tuple(sorted(slots_of(m, 0, "sponge")))
    m.apply(Bribe("north-america", offer), 0)
    assert m.view(0).offer.value == 5
    m.apply(Sabotage(one(m, 1, "laser-fork"), "laser-fork"), 1)
    m.apply(ForceField(one(m, 0, "force-field")), 0)  # cancelled: nothing to remove
    assert m.state.phase is Phase.SABOTAGE and m.to_act == (2,)
    m.apply(Sabotage(one(m, 2, "meteor-shower"), "meteor-shower"), 2)
    # the briber holds no Force Field any more but still holds mischief: asked
    m.apply(NoForceField(), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Remove(offer[:2], 0), 2)  # a Meteor Shower removes exactly 3
    m.apply(Remove(offer[:3], 0), 2)
    assert m.view(0).offer.value == 2
    removed = events_of(m, ev.Removed)[-1]
    assert (len(removed.cards), removed.sideways) == (3, ())  # three cards of 1: gone
    text = "Quinn removes Sponge Cake, Sponge Cake, Sponge Cake: the offer is worth 2"
    assert describe(removed, NAMES) == text
    m.apply(Sabotage(one(m, 3, "cake-monster"), "cake-monster"), 3)
    m.apply(NoForceField(), 0)
    m.apply(Remove(offer[3:4], 0), 3)  # half of 2
    failed = events_of(m, ev.BribeFailed)[-1]
    assert (failed.value, failed.need, failed.returned) == (1, 4, 1)
    assert offer[4] in m.state.hands[0]
    assert set(offer[:4]) <= set(m.state.cake_discard)
    # sabotage and Force Field cards end on the mischief discard
    assert len(m.state.mischief_discard) == 4


def test_the_cake_monster_rounds_down_and_sideways_cards_stay_at_one() -> None:
    m = stacked(
        3,
        aliens=ALIENS,
        regions=["western-europe"],
        cakes={0: ["tiramisu", "tiramisu", "sponge", "sponge", "sponge"]},
        mischief={
            0: ["tractor-beam"] * 3,
            1: ["cake-monster", "abduction", "abduction"],
            2: ["abduction"] * 3,
        },
    )
    t1, t2 = slots_of(m, 0, "tiramisu")
    s1 = one(m, 0, "sponge")
    m.apply(Bribe("western-europe", tuple(sorted((t1, t2, s1)))), 0)
    assert m.view(0).offer.value == 5
    m.apply(Sabotage(one(m, 1, "cake-monster"), "cake-monster"), 1)
    m.apply(NoForceField(), 0)
    legal = m.legal_actions(1)
    assert all(len(a.slots) == 2 for a in legal)  # half of 5, rounded down
    # the +1 of both Tiramisus: the cards turn sideways and stay
    m.apply(Remove(tuple(sorted((t1, t2))), 0), 1)
    # the log says so: a card's +1 taken is not the card gone (it said "removes Tiramisu")
    removed = events_of(m, ev.Removed)[-1]
    assert removed.cards == () and len(removed.sideways) == 2
    assert describe(removed, NAMES) == (
        "Paulo removes Tiramisu's +1 (it turns sideways), Tiramisu's +1 (it turns sideways): "
        "the offer is worth 3"
    )
    m.apply(NoSabotage(), 2)
    region = m.state.held("western-europe")
    assert region.value == 3 and sorted(region.cards) == sorted((t1, t2, s1))


def test_doom_needs_two_regions_and_seven_with_its_favourite_continent() -> None:
    m = stacked(
        3,
        aliens=ALIENS,
        favourite="asia",
        cakes={0: ["moon-cake", "moon-cake", "tiramisu", "sponge", "sponge"]},
        mischief={s: ["abduction"] * 3 for s in range(3)},
    )
    names = [r.name for r in m.state.regions]
    hold(m, names[0], 0, ["sponge"] * 3)
    hold(m, names[1], 0, ["sponge"] * 3)
    offer = tuple(sorted(m.state.cakes_in_hand(0)))
    legal = [a for a in m.legal_actions(0) if isinstance(a, Bribe) and a.target == "doom"]
    assert Bribe("doom", offer) in legal
    # without the two Moon Cakes' +1 (Asia is favoured) the rest is worth only 3
    assert all(
        sum(1 for s in a.slots if m.dealer.card(s).startswith("moon-cake")) == 2 for a in legal
    )
    m.apply(Bribe("doom", offer), 0)
    assert m.view(0).offer.value == 7
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    outcome = m.outcome
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "doom"
    assert m.state.doom_cards == offer
    assert m.state.phase is Phase.OVER


def test_a_failed_bribe_returns_the_cards_and_the_hand_is_remixed() -> None:
    m = worked_example()
    cakes = tuple(sorted((one(m, 0, "tiramisu"), one(m, 0, "starry-fruit-cake"))))
    m.apply(Bribe("western-europe", cakes), 0)  # 2 + 1 = 3
    m.apply(Sabotage(one(m, 1, "space-teddy"), "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    m.apply(Remove((one_of(m, cakes, "starry-fruit-cake"),), 0), 1)
    m.apply(NoSabotage(), 2)
    assert events_of(m, ev.BribeFailed)
    tiramisu = one_of(m, cakes, "tiramisu")
    assert tiramisu not in m.state.hands[0] or not m.state.knowledge.knows(1, tiramisu)
    # whatever slot the Tiramisu is in now, only Sally knows it
    for slot in m.state.hands[0]:
        assert not m.state.knowledge.knows(1, slot) and not m.state.knowledge.knows(None, slot)
    assert hand_sorts(m, 0).count("tiramisu") == 1
    m.apply(Draw(1, 0), 0)
    assert m.state.current == 1


def one_of(m, slots, sort):
    return next(s for s in slots if m.dealer.card(s).startswith(sort))


def test_two_sabotages_remove_in_turn_and_discards_keep_the_order_played() -> None:
    m = worked_example()
    moon = one(m, 0, "moon-cake")
    discard_pile(m, "cake", ["sponge"])
    sponges = slots_of(m, 0, "sponge")
    offer = tuple(sorted([*sponges, moon]))
    m.apply(Bribe("western-europe", offer), 0)
    m.apply(Sabotage(one(m, 1, "space-teddy"), "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    m.apply(Remove((sponges[0],), 0), 1)
    m.apply(Sabotage(one(m, 2, "space-teddy"), "space-teddy"), 2)
    m.apply(NoForceField(), 0)
    m.apply(Remove((moon,), 0), 2)
    assert m.state.held("western-europe").holder is None
    # the removed cards go on the discard in the order of the offer's slots
    assert m.state.cake_discard[-2:] == tuple(s for s in offer if s in (sponges[0], moon))
    assert sponges[1] in m.state.hands[0]


def test_an_open_offer_below_the_minimum_is_named_as_soon_as_it_is_shown() -> None:
    m = worked_example()
    two = tuple(sorted(slots_of(m, 0, "sponge")))
    assert Bribe("western-europe", two) not in m.legal_actions(0)
    m.apply(Bribe("western-europe", two), 0)  # public checks cannot tell
    outcome = m.outcome
    assert outcome is not None and outcome.reason == "cheated"
    assert outcome.winners == (1, 2) and outcome.shared
    assert [b.seat for b in m.state.breaches] == [0]
    # kept untranslated, with what fills it; read in words by whoever reads it
    (cheated,) = events_of(m, ev.Cheated)
    assert cheated == ev.Cheated(
        0, "offered {value} where {need} is needed", (("value", 2), ("need", 3))
    )
    assert describe(cheated, ["Ann", "Bob", "Cy"]) == "Ann cheated: offered 2 where 3 is needed"

"""The eight aliens and their powers."""

from __future__ import annotations

import pytest

from cakeparty.core import IllegalActionError
from cakeparty.core.actions import Remixed, Revealed
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Abduct,
    Bribe,
    Discard,
    Draw,
    NoBribe,
    NoForceField,
    NoSabotage,
    PickCard,
    Remove,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.text import describe

from .stacking import events_of, give, hand_sorts, hold, one, slots_of, stacked

ABDUCTIONS = ["abduction"] * 3


def test_freya_gets_plus_one_on_a_neutral_region_and_loses_it_last() -> None:
    m = stacked(
        3,
        aliens=("freya", "glorp", "pib"),
        regions=["pacific-islands", "arctic"],
        cakes={0: ["sponge", "sponge", "tiramisu"]},
        mischief={0: ABDUCTIONS, 1: ["laser-fork", "abduction", "abduction"], 2: ABDUCTIONS},
    )
    sponges = slots_of(m, 0, "sponge")[:2]
    offer = tuple(sorted(sponges))
    m.apply(Bribe("pacific-islands", offer), 0)
    view = m.view(1)
    assert (view.offer.value, view.offer.freya) == (3, 1)
    # the log names her +1 in the value it gives (it read "Sponge Cake, Sponge Cake = 3")
    opened = events_of(m, ev.OfferOpened)[-1]
    words = "The offer: Sponge Cake, Sponge Cake, Freya's +1 = 3"
    assert describe(opened, ["Sally", "Paulo", "Quinn"]) == words
    m.apply(Sabotage(one(m, 1, "laser-fork"), "laser-fork"), 1)
    m.apply(NoForceField(), 0)
    # her +1 goes only once both of her cake cards are gone
    assert Remove((offer[0],), 1) not in m.legal_actions(1)
    with pytest.raises(IllegalActionError):
        m.apply(Remove((offer[0],), 1), 1)
    assert m.legal_actions(1) == [Remove(offer, 0)]
    m.apply(Remove(offer, 0), 1)
    assert m.view(0).offer.value == 1
    m.apply(NoSabotage(), 2)
    assert events_of(m, ev.BribeFailed)[-1].value == 1


def test_freya_gets_no_plus_one_on_a_controlled_region_or_doom() -> None:
    m = stacked(
        3,
        aliens=("freya", "glorp", "pib"),
        regions=["pacific-islands", "arctic", "antarctica"],
        cakes={0: ["sponge"] * 5},
        mischief={s: ABDUCTIONS for s in range(3)},
    )
    hold(m, "arctic", 1, ["sponge", "sponge"])
    bribes = [a for a in m.legal_actions(0) if isinstance(a, Bribe)]
    assert min(len(b.slots) for b in bribes if b.target == "arctic") == 3
    assert min(len(b.slots) for b in bribes if b.target == "pacific-islands") == 1


def test_glorp_keeps_twelve_cards() -> None:
    m = stacked(3, aliens=("glorp", "pib", "krell"), mischief={s: ABDUCTIONS for s in range(3)})
    give(m, 0, ["sponge"] * 4)  # 12 cards
    m.apply(NoBribe(), 0)
    m.apply(Draw(1, 0), 0)  # 13
    assert m.state.phase is Phase.DISCARD and m.state.task.count == 1
    m.apply(m.legal_actions(0)[0], 0)
    assert len(m.state.hands[0]) == 12 and m.state.current == 1


def test_other_aliens_keep_ten_one_card_at_a_time() -> None:
    m = stacked(3, aliens=("pib", "glorp", "krell"), mischief={s: ABDUCTIONS for s in range(3)})
    give(m, 0, ["sponge"] * 3)  # 11
    m.apply(NoBribe(), 0)
    m.apply(Draw(2, 0), 0)  # Pib draws 2 in round 1: 13
    assert m.state.task.count == 3
    assert all(len(a.slots) == 1 for a in m.legal_actions(0))
    two = tuple(sorted(m.state.hands[0][:2]))
    m.apply(Discard(two), 0)  # several at once is fine too
    assert m.state.task.count == 1
    m.apply(m.legal_actions(0)[0], 0)
    assert len(m.state.hands[0]) == 10 and m.state.current == 1
    assert len(m.state.cake_discard) + len(m.state.mischief_discard) == 3


def test_pib_draws_one_more() -> None:
    m = stacked(3, aliens=("pib", "glorp", "krell"), mischief={s: ABDUCTIONS for s in range(3)})
    m.apply(NoBribe(), 0)
    assert {a.count for a in m.legal_actions(0)} == {2}
    m.apply(Draw(1, 1), 0)
    m.apply(NoBribe(), 1)
    assert {a.count for a in m.legal_actions(1)} == {1}


def test_ozzy_gets_plus_one_everywhere_doom_included() -> None:
    m = stacked(
        3,
        aliens=("ozzy", "glorp", "pib"),
        regions=["arctic", "antarctica"],
        favourite="africa",
        cakes={0: ["tiramisu", "moon-cake", "pavlova", "sponge"]},
        mischief={s: ABDUCTIONS for s in range(3)},
    )
    hold(m, "arctic", 0, ["sponge", "sponge"])
    names = [r.name for r in m.state.regions if r.name != "arctic"]
    hold(m, names[0], 0, ["sponge", "sponge"])
    cakes = tuple(sorted(m.state.cakes_in_hand(0)))
    m.apply(Bribe("doom", cakes), 0)
    assert m.view(0).offer.value == 8  # 5 cards, 3 specialties of other continents
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    assert m.outcome.winners == (0,) and m.outcome.reason == "doom"


def test_krell_is_asked_for_a_second_sabotage() -> None:
    m = stacked(
        3,
        aliens=("glorp", "krell", "pib"),
        regions=["north-america"],
        cakes={0: ["sponge"] * 5},
        mischief={0: ABDUCTIONS, 1: ["space-teddy", "space-teddy", "abduction"], 2: ABDUCTIONS},
    )
    offer = tuple(sorted(m.state.cakes_in_hand(0)))
    m.apply(Bribe("north-america", offer), 0)
    teddies = slots_of(m, 1, "space-teddy")
    m.apply(Sabotage(teddies[0], "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    m.apply(Remove(offer[:1], 0), 1)
    assert m.state.phase is Phase.SABOTAGE and m.to_act == (1,)
    m.apply(Sabotage(teddies[1], "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    m.apply(Remove(offer[1:2], 0), 1)
    # never a third
    assert m.to_act == (2,)
    m.apply(NoSabotage(), 2)
    assert events_of(m, ev.BribeFailed)[-1].value == 3


def test_mumbo_draws_one_when_the_bribe_fails() -> None:
    m = stacked(
        3,
        aliens=("mumbo", "glorp", "pib"),
        regions=["north-america"],
        cakes={0: ["sponge"] * 5},
        mischief={0: ABDUCTIONS, 1: ["laser-fork", "abduction", "abduction"], 2: ABDUCTIONS},
    )
    offer = tuple(sorted(m.state.cakes_in_hand(0)))[:4]
    m.apply(Bribe("north-america", offer), 0)
    m.apply(Sabotage(one(m, 1, "laser-fork"), "laser-fork"), 1)
    m.apply(NoForceField(), 0)
    m.apply(Remove(offer[:2], 0), 1)
    m.apply(NoSabotage(), 2)
    assert m.state.task.why == "mumbo" and m.state.task.count == 1
    before = len(m.state.hands[0])
    m.apply(Draw(0, 1), 0)
    assert len(m.state.hands[0]) == before + 1
    assert m.state.task.why == "turn"


def test_vashti_takes_one_eaten_cake_back() -> None:
    m = stacked(
        3,
        aliens=("glorp", "vashti", "pib"),
        regions=["arctic"],
        cakes={0: ["sponge"] * 5},
        mischief={s: ABDUCTIONS for s in range(3)},
    )
    hold(m, "arctic", 1, ["tiramisu", "sponge"], value=2)
    eaten = m.state.held("arctic").cards
    offer = tuple(sorted(m.state.cakes_in_hand(0)))[:3]
    m.apply(Bribe("arctic", offer), 0)
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    assert m.state.phase is Phase.PICK and m.to_act == (1,)
    assert set(m.state.task.among) == set(eaten)
    tiramisu = next(s for s in eaten if m.dealer.card(s).startswith("tiramisu"))
    m.apply(PickCard(tiramisu), 1)
    assert "tiramisu" in hand_sorts(m, 1)
    assert set(m.state.cake_discard) == set(eaten) - {tiramisu}
    assert m.state.held("arctic").holder == 0


def test_zix_looks_at_the_hand_and_chooses_and_both_hands_are_remixed() -> None:
    m = stacked(
        3,
        aliens=("zix", "glorp", "pib"),
        cakes={1: ["tiramisu"]},
        mischief={0: ABDUCTIONS, 1: ["force-field", "laser-fork", "space-teddy"], 2: ABDUCTIONS},
    )
    m.apply(Abduct(one(m, 0, "abduction"), 1), 0)
    assert m.state.phase is Phase.PICK and m.to_act == (0,)
    view = m.view(0)
    assert all(s in view.known for s in m.state.hands[1]), "Zix sees the whole hand"
    assert not any(s in m.view(2).known for s in m.state.hands[1])
    fork = one(m, 1, "laser-fork")
    m.apply(PickCard(fork), 0)
    assert fork in m.state.hands[0] and "laser-fork" in hand_sorts(m, 0)
    remixes = [a for s, a in m.history if isinstance(a, Remixed)]
    assert [r.seat for r in remixes[-3:]] == [0, 1, 1]  # Zix's mischief; both of the hand
    for slot in m.state.hands[1]:
        assert not m.state.knowledge.knows(0, slot)
    for slot in m.state.hands[0]:
        assert not m.state.knowledge.knows(1, slot)
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)


def test_a_plain_abduction_takes_the_joint_random_card_shown_to_thief_and_victim() -> None:
    m = stacked(
        3,
        aliens=("glorp", "pib", "krell"),
        mischief={0: ABDUCTIONS, 1: ["force-field", "laser-fork", "space-teddy"], 2: ABDUCTIONS},
        randoms=[6],
    )
    victim_hand = m.state.hands[1]
    m.apply(Abduct(one(m, 0, "abduction"), 1), 0)
    taken = victim_hand[6]
    assert taken in m.state.hands[0] and taken not in m.state.hands[1]
    shown = [a for s, a in m.history if isinstance(a, Revealed) and a.slots == (taken,)]
    assert shown and shown[-1].to == (0,)  # the victim knew it
    assert events_of(m, ev.Stole)[-1] == ev.Stole(0, 1, "abduction")
    # the victim knew the card: the thief's hand is re-mixed, so nobody else can follow it
    for slot in m.state.hands[0]:
        assert not m.state.knowledge.knows(1, slot)
        assert not m.state.knowledge.knows(2, slot)
    assert m.state.phase is Phase.PLAY

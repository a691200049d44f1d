"""The advanced game: the chosen opening mix, every region's control bonus, and the
protection of a briber holding two regions of one continent."""

from __future__ import annotations

from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Bribe,
    ChooseMix,
    Discard,
    Draw,
    NoSabotage,
    Peek,
    PickCard,
    Rob,
)
from cakeparty.core.games.cake_of_doom.cards import REGIONS, is_cake_slot
from cakeparty.core.games.cake_of_doom.state import Phase

from .stacking import discard_pile, events_of, hand_sorts, hold, stacked

ABDUCTIONS = ["abduction"] * 3


def advanced(region: str, **kw):
    m = stacked(
        3,
        aliens=("glorp", "pib", "krell"),
        regions=[region],
        cakes={0: ["sponge"] * 5, 1: ["tiramisu", "sponge"], 2: ["moon-cake"]},
        mischief={s: ABDUCTIONS for s in range(3)},
        options={"advanced": True},
        **kw,
    )
    for seat in (0, 1, 2):
        m.apply(ChooseMix(5), seat)
    return m


def win(m, region: str) -> None:
    need = REGIONS[region].minimum
    offer = tuple(sorted(m.state.cakes_in_hand(0)))[:need]
    m.apply(Bribe(region, offer), 0)
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    assert m.state.held(region).holder == 0
    assert events_of(m, ev.ControlBonus)[-1] == ev.ControlBonus(0, region)


def test_the_opening_mix_is_chosen_in_turn_and_public() -> None:
    m = stacked(3, aliens=("glorp", "pib", "krell"), first=1, options={"advanced": True})
    assert m.state.phase is Phase.MIX and m.to_act == (1,)
    assert len(m.legal_actions(1)) == 9
    m.apply(ChooseMix(8), 1)
    assert m.to_act == (2,)
    m.apply(ChooseMix(0), 2)
    m.apply(ChooseMix(3), 0)
    assert [len(m.state.cakes_in_hand(s)) for s in range(3)] == [3, 8, 0]
    assert [len(m.state.mischief_in_hand(s)) for s in range(3)] == [5, 0, 8]
    assert [e for e in m.state.events if isinstance(e, ev.MixChosen)] == [
        ev.MixChosen(1, 8, 0),
        ev.MixChosen(2, 0, 8),
        ev.MixChosen(0, 3, 5),
    ]
    assert m.state.phase is Phase.PLAY and m.to_act == (1,)


def test_six_players_cannot_all_take_eight_mischief_cards() -> None:
    m = stacked(6, first=0, options={"advanced": True})
    for seat in range(5):
        m.apply(ChooseMix(0), seat)
    # five seats took all 40 mischief cards: the sixth opens with 8 cakes
    assert len(m.state.mischief_pile) == 0
    assert m.legal_actions(5) == [ChooseMix(8)]


def test_north_america_draws_two_of_any_mix() -> None:
    m = advanced("north-america")
    before = len(m.state.hands[0])
    win(m, "north-america")
    assert m.state.task.why == "north-america" and m.state.task.count == 2
    m.apply(Draw(0, 2), 0)
    assert len(m.state.hands[0]) == before - 4 + 2


def test_south_america_draws_one_cake() -> None:
    m = advanced("south-america")
    win(m, "south-america")
    assert len(m.state.cakes_in_hand(0)) == 3  # 5 - 3 + 1
    assert m.state.task.why == "turn"


def test_western_europe_takes_the_top_cake_of_the_discard() -> None:
    m = advanced("western-europe")
    discard_pile(m, "cake", ["sponge", "tiramisu"])
    win(m, "western-europe")
    assert "tiramisu" in hand_sorts(m, 0)
    assert len(m.state.cake_discard) == 1


def test_a_bonus_with_nothing_to_take_says_so() -> None:
    """An empty discard pile: the log said only "takes the bonus of Western Europe: take
    the top cake from the cake discard pile", and nothing came of it, unexplained."""
    from cakeparty.core.games.cake_of_doom.text import describe

    m = advanced("western-europe")
    assert not m.state.cake_discard
    hand = hand_sorts(m, 0)
    win(m, "western-europe")
    assert events_of(m, ev.BonusVoid) == [ev.BonusVoid(0, "western-europe")]
    assert describe(events_of(m, ev.BonusVoid)[0], ["Ann", "Bob", "Cleo"]) == (
        "Ann finds no card to take"
    )
    assert len(hand_sorts(m, 0)) == len(hand) - REGIONS["western-europe"].minimum
    # a bonus that does act says nothing of the kind
    m = advanced("western-europe")
    discard_pile(m, "cake", ["sponge"])
    win(m, "western-europe")
    assert not events_of(m, ev.BonusVoid)


def test_eastern_europe_takes_the_top_of_the_mischief_discard() -> None:
    m = advanced("eastern-europe")
    discard_pile(m, "mischief", ["space-teddy", "laser-fork"])
    win(m, "eastern-europe")
    assert "laser-fork" in hand_sorts(m, 0) and "space-teddy" not in hand_sorts(m, 0)


def test_east_asia_steals_from_a_player_of_choice() -> None:
    m = advanced("east-asia", randoms=[0])
    win(m, "east-asia")
    assert m.state.phase is Phase.ROB and m.state.task.among == (1, 2)
    target = m.state.hands[2][0]
    m.apply(Rob(2), 0)
    assert target in m.state.hands[0]
    assert events_of(m, ev.Stole)[-1] == ev.Stole(0, 2, "east-asia")


def test_south_asia_draws_one_mischief() -> None:
    m = advanced("south-asia")
    win(m, "south-asia")
    assert len(m.state.mischief_in_hand(0)) == 4


def test_middle_east_looks_and_takes_a_cake() -> None:
    m = advanced("middle-east")
    win(m, "middle-east")
    assert m.state.phase is Phase.PEEK
    m.apply(Peek(1), 0)
    assert m.state.phase is Phase.PICK
    assert all(is_cake_slot(s) for s in m.state.task.among)
    assert set(m.state.task.among) == set(m.state.cakes_in_hand(1))
    assert all(s in m.view(0).known for s in m.state.hands[1])
    tiramisu = next(s for s in m.state.task.among if m.dealer.card(s).startswith("tiramisu"))
    m.apply(PickCard(tiramisu), 0)
    assert tiramisu in m.state.hands[0]
    # the hand looked at is re-mixed: Sally no longer knows which slot holds what
    assert not any(m.state.knowledge.knows(0, s) for s in m.state.hands[1])


def test_north_africa_discards_any_number_then_draws_as_many() -> None:
    m = advanced("north-africa")
    win(m, "north-africa")
    assert m.state.phase is Phase.DISCARD and m.state.task.upto
    assert Discard(()) in m.legal_actions(0)
    two = tuple(sorted(m.state.mischief_in_hand(0)))[:2]
    m.apply(Discard(two), 0)
    assert m.state.phase is Phase.DRAW and m.state.task.count == 2
    m.apply(Draw(2, 0), 0)
    assert len(m.state.hands[0]) == 5


def test_west_africa_draws_one_from_either_pile() -> None:
    m = advanced("west-africa")
    win(m, "west-africa")
    assert m.legal_actions(0) == [Draw(0, 1), Draw(1, 0)]


def test_southern_africa_makes_each_other_player_discard_one() -> None:
    m = advanced("southern-africa")
    win(m, "southern-africa")
    assert m.to_act == (1,) and m.state.phase is Phase.DISCARD
    m.apply(m.legal_actions(1)[0], 1)
    assert m.to_act == (2,)
    m.apply(m.legal_actions(2)[0], 2)
    assert [len(h) for h in m.state.hands] == [5, 7, 7]
    assert m.state.task.why == "turn" and m.to_act == (0,)


def test_australia_takes_any_card_of_the_mischief_discard() -> None:
    m = advanced("australia")
    discard_pile(m, "mischief", ["force-field", "space-teddy"])
    win(m, "australia")
    field = next(s for s in m.state.mischief_discard if m.dealer.card(s).startswith("force"))
    assert field in m.state.task.among
    m.apply(PickCard(field), 0)
    assert "force-field" in hand_sorts(m, 0)


def test_pacific_islands_draws_two_cakes_then_discards_one() -> None:
    m = advanced("pacific-islands")
    win(m, "pacific-islands")
    assert len(m.state.cakes_in_hand(0)) == 5  # 5 - 2 + 2
    assert m.state.phase is Phase.DISCARD and m.state.task.count == 1
    m.apply(m.legal_actions(0)[0], 0)
    assert len(m.state.hands[0]) == 7


def test_arctic_and_antarctica_steal_from_the_neighbours() -> None:
    for region, victim in (("arctic", 1), ("antarctica", 2)):
        m = advanced(region, randoms=[0])
        taken = m.state.hands[victim][0]
        win(m, region)
        assert taken in m.state.hands[0]
        assert events_of(m, ev.Stole)[-1] == ev.Stole(0, victim, region)


def test_two_regions_of_one_continent_protect_from_sabotage() -> None:
    m = stacked(
        3,
        aliens=("glorp", "pib", "krell"),
        regions=["arctic", "antarctica", "north-america"],
        cakes={0: ["sponge"] * 5},
        mischief={s: ["space-teddy"] * 3 for s in range(3)},
        options={"advanced": True},
    )
    for seat in (0, 1, 2):
        m.apply(ChooseMix(5), seat)
    hold(m, "arctic", 0, ["sponge", "sponge"])
    hold(m, "antarctica", 0, ["sponge", "sponge"])
    offer = tuple(sorted(m.state.cakes_in_hand(0)))[:4]
    m.apply(Bribe("north-america", offer), 0)
    assert events_of(m, ev.Protected) == [ev.Protected(0)]
    assert m.state.held("north-america").holder == 0


def test_the_basic_game_has_no_protection_and_no_bonus() -> None:
    m = stacked(
        3,
        aliens=("glorp", "pib", "krell"),
        regions=["arctic", "antarctica", "north-america"],
        cakes={0: ["sponge"] * 5},
        mischief={s: ["space-teddy"] * 3 for s in range(3)},
    )
    hold(m, "arctic", 0, ["sponge", "sponge"])
    hold(m, "antarctica", 0, ["sponge", "sponge"])
    m.apply(Bribe("north-america", tuple(sorted(m.state.cakes_in_hand(0)))[:4]), 0)
    assert m.to_act == (1,) and m.state.phase is Phase.SABOTAGE
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    assert not events_of(m, ev.ControlBonus)
    assert m.state.task.why == "turn"

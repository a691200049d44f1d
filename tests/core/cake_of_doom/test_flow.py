"""Grab and steal cards, blind offers, refills, the hand limit, rounds, the end and its
ties, cheats, and the text forms of every move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cakeparty.core import IllegalActionError, new_match
from cakeparty.core.actions import RandomResult, Shuffled, from_data, parse, to_data
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    PASS,
    Abduct,
    Bribe,
    ChooseMix,
    Discard,
    Draw,
    ForceField,
    Grab,
    NoBribe,
    NoForceField,
    NoSabotage,
    Peek,
    PickCard,
    Remove,
    Rob,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import TURN_PLAYS, card
from cakeparty.core.games.cake_of_doom.flow import winners
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.text import board_lines, describe, final_lines

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

ABDUCTIONS = ["abduction"] * 3


def test_every_move_reads_back_from_its_text_and_wire_forms() -> None:
    moves = [
        ChooseMix(5),
        Grab(101, "cake"),
        Abduct(95, 2),
        Bribe("western-europe", (3, 17, 40)),
        Bribe("doom", (1,)),
        PASS,
        Sabotage(97, "laser-fork"),
        NoSabotage(),
        ForceField(120),
        NoForceField(),
        Remove((3, 17, 17), 0),
        Remove((), 1),
        Draw(1, 2),
        Discard((3, 95)),
        Discard(()),
        PickCard(40),
        Rob(2),
        Peek(1),
    ]
    for move in moves:
        assert parse(str(move)) == move
        assert from_data(to_data(move)) == move
    assert str(Remove((3, 17, 17), 0)) == "remove 3,17,17 0"
    for bad in ("bribe mars 1", "bribe doom -", "sabotage 3 abduction", "remove 3,3,3 0"):
        with pytest.raises(ValueError):
            parse(bad)


def test_a_tractor_beam_takes_the_top_of_either_discard_pile() -> None:
    m = stacked(3, mischief={0: ["tractor-beam"] * 2 + ["abduction"], 1: ABDUCTIONS, 2: ABDUCTIONS})
    discard_pile(m, "cake", ["sponge", "tiramisu"])
    assert Grab(one(m, 0, "tractor-beam"), "mischief") not in m.legal_actions(0)
    beam = one(m, 0, "tractor-beam")
    m.apply(Grab(beam, "cake"), 0)
    assert "tiramisu" in hand_sorts(m, 0)
    assert m.state.mischief_discard == (beam,)
    assert events_of(m, ev.Grabbed)[-1].card.startswith("tiramisu")
    # the card everybody saw is hidden again in a re-mixed hand; still the player's turn
    assert not any(m.state.knowledge.knows(1, s) for s in m.state.hands[0])
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)
    # now the mischief discard holds the Tractor Beam: the second one may take it
    assert Grab(one(m, 0, "tractor-beam"), "mischief") in m.legal_actions(0)


def test_a_card_played_as_what_it_is_not_ends_the_game_naming_the_cheat() -> None:
    m = stacked(3, mischief={0: ["space-teddy"] * 3, 1: ABDUCTIONS, 2: ABDUCTIONS})
    m.apply(Abduct(one(m, 0, "space-teddy"), 1), 0)
    outcome = m.outcome
    assert outcome is not None and outcome.reason == "cheated"
    assert 0 not in outcome.winners
    assert [b.seat for b in m.state.breaches] == [0]
    assert events_of(m, ev.Cheated)[0].seat == 0


def test_the_turn_player_may_discard_any_card_then_play_on() -> None:
    """Rules, a turn, 4: "you may discard any time on your turn" — one card a move from the
    legal list (one per sort), any number at once as far as the peers check it."""
    m = stacked(
        3,
        cakes={0: ["tiramisu", "sponge", "sponge", "sponge", "sponge"]},
        mischief={0: ["laser-fork", "abduction", "abduction"], 1: ABDUCTIONS, 2: ABDUCTIONS},
    )
    offered = [a for a in m.legal_actions(0) if isinstance(a, Discard)]
    sorts = sorted(card(m.dealer.card(a.slots[0])).sort for a in offered)
    assert sorts == ["abduction", "laser-fork", "sponge", "tiramisu"]
    assert all(len(a.slots) == 1 for a in offered)
    fork, tiramisu = one(m, 0, "laser-fork"), one(m, 0, "tiramisu")
    m.apply(Discard((fork,)), 0)
    assert m.state.mischief_discard[-1] == fork and fork not in m.state.hands[0]
    assert m.state.knowledge.cards[fork] is not None
    assert events_of(m, ev.Discarded)[-1].seat == 0
    # still the turn player's step: it discards again, then bribes or passes as before
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)
    spare = slots_of(m, 0, "sponge")[:2]
    m.apply(Discard(tuple(sorted((tiramisu, *spare)))), 0)
    assert m.state.cake_discard[-3:] == tuple(sorted((tiramisu, *spare)))
    assert len(m.state.hands[0]) == 8 - 4
    assert m.state.phase is Phase.PLAY and NoBribe() in m.legal_actions(0)
    for bad, seat in ((Discard(()), 0), (Discard((m.state.hands[1][0],)), 0)):
        with pytest.raises(IllegalActionError):
            m.apply(bad, seat)
    with pytest.raises(IllegalActionError):
        m.apply(Discard((m.state.hands[1][0],)), 1)  # not its turn
    m.apply(NoBribe(), 0)
    assert m.state.phase is Phase.DRAW and not any(
        isinstance(a, Discard) for a in m.legal_actions(0)
    )


def test_two_tractor_beams_taking_each_other_back_stop_after_a_turn_s_share() -> None:
    """Two Tractor Beams can take each other back from the mischief discard for ever: after
    TURN_PLAYS grab, steal and discard moves the turn offers only the bribe and the pass,
    and a peer's further grab is refused naming its seat; the next turn starts afresh."""
    m = stacked(3, mischief={0: ["tractor-beam"] * 2 + ["abduction"], 1: ABDUCTIONS, 2: ABDUCTIONS})
    discard_pile(m, "cake", ["sponge", "tiramisu"])
    m.apply(Grab(one(m, 0, "tractor-beam"), "cake"), 0)
    for made in range(1, TURN_PLAYS):
        assert m.state.task is not None and m.state.task.count == made
        beam = one(m, 0, "tractor-beam")  # the other one lies on the mischief discard
        assert Grab(beam, "mischief") in m.legal_actions(0)
        m.apply(Grab(beam, "mischief"), 0)
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)
    legal = m.legal_actions(0)
    assert NoBribe() in legal
    assert not any(isinstance(a, Grab | Abduct | Discard) for a in legal)
    for move in (Grab(one(m, 0, "tractor-beam"), "mischief"), Discard((m.state.hands[0][0],))):
        with pytest.raises(IllegalActionError, match="no more grab") as refused:
            m.apply(move, 0)
        assert refused.value.seat == 0
    m.apply(NoBribe(), 0)
    while m.to_act == (0,):  # the draw (and a discard down to the limit)
        m.apply(m.legal_actions(0)[0], 0)
    assert m.state.task is not None and m.state.task.phase is Phase.PLAY
    assert m.state.task.seat == 1 and m.state.task.count == 0


def blind_game(**kw):
    return stacked(
        3,
        regions=["western-europe"],
        cakes={0: ["tiramisu", "sponge", "sponge", "sponge", "sponge"]},
        mischief={0: ABDUCTIONS, 1: ["space-teddy"] * 3, 2: ["meteor-shower"] * 3},
        options={"blind": True},
        **kw,
    )


def test_a_blind_offer_stays_face_down_until_every_saboteur_answered() -> None:
    m = blind_game()
    tiramisu = one(m, 0, "tiramisu")
    sponges = [s for s in m.state.hands[0] if s != tiramisu and s < 90][:2]
    offer = tuple(sorted([tiramisu, *sponges]))
    m.apply(Bribe("western-europe", offer), 0)
    for seat in (None, 1, 2):
        view = m.view(seat)
        assert not view.offer.opened and view.offer.value is None
        assert not set(offer) & set(view.known)
    m.apply(Sabotage(one(m, 1, "space-teddy"), "space-teddy"), 1)
    m.apply(NoForceField(), 0)
    assert m.to_act == (2,) and m.state.phase is Phase.SABOTAGE  # no removal yet
    assert not set(offer) & set(m.view(2).known)
    m.apply(Sabotage(one(m, 2, "meteor-shower"), "meteor-shower"), 2)
    m.apply(NoForceField(), 0)
    # now the offer opens (4 with the Tiramisu), and removals follow in the order played
    assert m.view(1).offer.opened and m.view(1).offer.value == 4
    assert m.to_act == (1,) and m.state.phase is Phase.REMOVE
    m.apply(Remove((tiramisu,), 0), 1)  # the Tiramisu turns sideways
    assert m.to_act == (2,)
    m.apply(Remove(tuple(sorted((tiramisu, *sponges))), 0), 2)
    failed = events_of(m, ev.BribeFailed)[-1]
    assert (failed.value, failed.returned) == (0, 0)


def _replay(m):
    """The same game replayed by a fresh local match, every card face up (as the
    end-of-game audit does); returns it."""
    orders = [cards for _, cards in m.dealer.shuffles]
    remixes = [cards for _, cards in m.dealer.remixes]
    randoms = [a.value for s, a in m.history if isinstance(a, RandomResult)]
    replay = new_match(
        "cake-of-doom",
        players=m.state.players,
        options={"advanced": m.state.options.advanced, "blind": m.state.options.blind},
        orders=orders,
        remixes=remixes,
        randoms=randoms,
    )
    for seat, action in m.history:
        if seat is not None:
            replay.apply(action, seat)
    return replay


def test_a_blind_offer_below_the_minimum_is_named_when_it_opens_and_in_a_replay() -> None:
    m = blind_game()
    two_sponges = tuple(
        sorted(s for s in m.state.cakes_in_hand(0) if m.dealer.card(s).startswith("sponge"))[:2]
    )
    assert Bribe("western-europe", two_sponges) not in m.legal_actions(0)
    m.apply(Bribe("western-europe", two_sponges), 0)  # public checks cannot tell
    m.apply(NoSabotage(), 1)
    m.apply(NoSabotage(), 2)
    outcome = m.outcome
    assert outcome is not None and outcome.reason == "cheated" and 0 not in outcome.winners
    (breach,) = m.state.breaches
    assert breach.seat == 0 and breach.params == (("value", 2), ("need", 3))
    replay = _replay(m)
    assert replay.outcome == outcome
    assert [b.seat for b in replay.state.breaches] == [0]


def test_a_false_claim_is_named_by_a_replay() -> None:
    m = stacked(3, mischief={0: ABDUCTIONS, 1: ["laser-fork"] * 3, 2: ABDUCTIONS}, seed=3)
    m.apply(NoBribe(), 0)
    m.apply(m.legal_actions(0)[0], 0)
    m.apply(Abduct(one(m, 1, "laser-fork"), 2), 1)
    assert m.outcome.reason == "cheated"
    replay = _replay(m)
    assert replay.outcome == m.outcome
    assert [b.seat for b in replay.state.breaches] == [1]


def test_a_pile_refills_from_its_discard_keeping_the_top_card() -> None:
    m = stacked(3, mischief={s: ABDUCTIONS for s in range(3)})
    discard_pile(m, "cake", ["sponge"] * 4 + ["tiramisu"])
    top = m.state.cake_discard[-1]
    discarded = m.state.cake_discard
    pile = m.state.cake_pile
    m.state = replace(m.state, cake_pile=pile[:1], cake_discard=pile[1:] + m.state.cake_discard)
    assert m.state.available("cake") == len(pile) + 4
    m.apply(NoBribe(), 0)
    m.apply(Draw(1, 0), 0)  # the last card of the pile: no refill yet
    assert not events_of(m, ev.Refilled)
    m.apply(NoBribe(), 1)
    m.apply(Draw(1, 0), 1)
    refill = events_of(m, ev.Refilled)[-1]
    assert refill.pile == "cake" and refill.count == len(pile) + 3
    assert m.state.cake_discard == (top,)
    shuffled = [a for s, a in m.history if isinstance(a, Shuffled)][-1]
    assert set(shuffled.slots) == (set(pile[1:]) | set(discarded)) - {top}
    drawn = m.state.hands[1][-1]
    assert drawn in shuffled.slots
    assert set(m.state.cake_pile) == set(shuffled.slots) - {drawn}


def passive(view, rng):
    for move in view.legal:
        if isinstance(move, (NoBribe, NoSabotage, NoForceField)):
            return move
    return view.legal[0]


def test_ten_rounds_then_most_regions_wins() -> None:
    m = stacked(3, first=1, mischief={s: ABDUCTIONS for s in range(3)})
    hold(m, m.state.regions[0].name, 2, ["sponge"])
    m.play([passive] * 3, random.Random(0))
    assert m.state.round == 10 and m.state.turn == 30
    assert m.outcome.winners == (2,) and m.outcome.reason == "regions"
    assert m.outcome.scores == (0, 0, 1)
    draws = [e for e in m.state.events if isinstance(e, ev.Drew) and e.seat == 1]
    assert [d.cakes + d.mischief for d in draws] == list(range(1, 11))
    # the log numbers the rounds as the table does: each turn's round is the last begun
    rounds = [e.round for e in m.state.events if isinstance(e, ev.RoundStarted)]
    assert rounds == list(range(1, 11))
    begun = 0
    for event in m.state.events:
        if isinstance(event, ev.RoundStarted):
            begun = event.round
        elif isinstance(event, ev.TurnStarted):
            assert event.round == begun
    lines = final_lines(m.view(None), NAMES)
    assert lines[0].startswith("1. Quinn")


def test_the_end_lists_doom_s_winner_first_and_seats_alike_share_a_place() -> None:
    """DOOM wins at once: its winner heads the end's list even with fewer regions than
    another seat; two seats alike on regions, cake value and cards share their place."""
    m = stacked(4)
    regions = [r.name for r in m.state.regions]
    hold(m, regions[0], 0, ["sponge"], value=3)
    hold(m, regions[1], 0, ["sponge"], value=3)
    hold(m, regions[2], 1, ["sponge"], value=3)
    view = m.view(None)
    won = replace(view, winners=(1,), doom=replace(view.doom, holder=1))
    lines = final_lines(won, NAMES)
    assert lines[0].startswith("1. Paulo: 1 region") and lines[0].endswith("won DOOM")
    assert lines[1].startswith("2. Sally: 2 regions")
    assert {lines[2][:9], lines[3][:9]} == {"3. Quinn:", "3. Rosa: "}  # alike: both third
    # without DOOM, most regions first, and each place its own number
    assert [line[:3] for line in final_lines(replace(view, winners=(0,)), NAMES)] == [
        "1. ",
        "2. ",
        "3. ",
        "3. ",
    ]


def test_ties_go_to_cake_value_then_cards_in_hand_then_shared() -> None:
    m = stacked(3, mischief={s: ABDUCTIONS for s in range(3)})
    regions = [r.name for r in m.state.regions]
    hold(m, regions[0], 0, ["sponge"], value=3)
    hold(m, regions[1], 1, ["sponge"], value=4)
    assert winners(m.state) == ((1,), False)
    hold(m, regions[1], 1, ["sponge"], value=3)
    give(m, 0, ["sponge"])
    assert winners(m.state) == ((0,), False)
    give(m, 1, ["sponge"])
    assert winners(m.state) == ((0, 1), True)


def test_text_describes_every_event_of_a_game() -> None:
    m = stacked(4, options={"advanced": True})
    m.play([random_legal] * 4, random.Random(2))
    for event in m.state.events:
        words = describe(event, NAMES)
        assert words and not words.startswith(type(event).__name__)
    board = board_lines(m.view(0), NAMES)
    assert board[0].startswith("Cake of Doom · round")


def random_legal(view, rng):
    return rng.choice(view.legal)


def test_moves_out_of_turn_or_of_another_step_are_refused() -> None:
    m = stacked(3, mischief={s: ABDUCTIONS for s in range(3)})
    with pytest.raises(IllegalActionError):
        m.apply(NoBribe(), 1)
    with pytest.raises(IllegalActionError):
        m.apply(NoSabotage(), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Abduct(one(m, 0, "abduction"), 0), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Bribe("doom", (m.state.hands[1][0],)), 0)
    m.apply(NoBribe(), 0)
    with pytest.raises(IllegalActionError):
        m.apply(Draw(2, 0), 0)

"""The flow of a game: options and boxes, the deal, the sealed pass, the piece in dispute,
tricks, rounds and their first player, the duel, and the end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cakeparty.core import CakePartyError, Committed, IllegalActionError, get_game, new_match
from cakeparty.core.actions import Forfeited
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import HandOver, PassOn, Play
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.cards import SPECIALS, box, cards
from cakeparty.core.games.cookies_battle.flow import next_first
from cakeparty.core.games.cookies_battle.state import CookiesOptions, Phase
from cakeparty.core.games.cookies_battle.text import describe
from tests.core.cookies_battle.stacking import (
    hand,
    held_pieces,
    pass_cards,
    play,
    play_trick,
    slot,
    stacked,
)

GAME = get_game("cookies-battle")

# -- options and boxes -------------------------------------------------------------------------


def test_two_players_always_play_the_duel() -> None:
    assert CookiesOptions.parse(2, None).variant == "duel"
    assert CookiesOptions.parse(2, {"variant": "duel"}).variant == "duel"
    with pytest.raises(CakePartyError, match="duel"):
        CookiesOptions.parse(2, {"variant": "standard"})


def test_the_duel_is_refused_for_three_or_more() -> None:
    with pytest.raises(CakePartyError, match="duel"):
        CookiesOptions.parse(3, {"variant": "duel"})


def test_variants_and_defaults() -> None:
    assert CookiesOptions.parse(4, None).variant == "standard"
    assert CookiesOptions.parse(5, {"variant": "beginners"}).beginners


@pytest.mark.parametrize(
    ("players", "options", "words"),
    [
        (4, {"colour": "red"}, "unknown Cookies Battle option"),
        (4, {"variant": "expert"}, "unknown variant"),
        (7, None, "2 to 6 players"),
        (1, None, "2 to 6 players"),
    ],
)
def test_bad_options_get_a_clear_error(
    players: int, options: dict[str, str] | None, words: str
) -> None:
    with pytest.raises(CakePartyError, match=words):
        GAME.new_state(players, options)


def test_the_boxes_of_each_variant() -> None:
    assert len(box("standard")) == 54 + 36 + 18
    beginners = cards("beginners")
    assert len(beginners) == 48 and not set(SPECIALS) & set(beginners)
    duel = cards("duel")
    assert len(duel) == 20 and len(box("duel")) == 20 + 36
    assert not any(c.startswith("red") or c == "magician" for c in duel)
    assert {c for c in duel if c.startswith("blue")} == {f"blue-{v}" for v in (1, 6, 8, 10, 12)}


# -- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 12), (4, 12), (5, 9), (6, 8)])
def test_each_player_is_dealt_by_player_count_and_the_rest_stay_out_unseen(
    players: int, size: int
) -> None:
    m = new_match("cookies-battle", players=players, seed=3)
    state = m.state
    assert state.phase is Phase.PASS
    assert [len(h) for h in state.hands] == [size] * players
    assert len(state.out) == len(cards(state.options.variant)) - size * players
    for seat in range(players):
        known = m.view(seat).known
        assert set(state.hands[seat]) <= set(known)
        others = {s for o in range(players) if o != seat for s in state.hands[o]}
        assert not others & set(known)
        assert not set(state.out) & set(known)
        assert not set(state.piece_pile) & set(known)
        assert not set(state.marker_pile) & set(known)


# -- the pass ----------------------------------------------------------------------------------


def test_every_seat_passes_one_card_left_and_one_right_at_once() -> None:
    m = stacked(3, {0: ["blue-1", "blue-2"], 1: ["red-1", "red-2"], 2: ["green-1", "green-2"]})
    assert m.to_act == (0, 1, 2)
    pass_cards(m, {0: ("blue-1", "blue-2"), 1: ("red-1", "red-2"), 2: ("green-1", "green-2")})
    # left is the next seat, right the previous one
    assert {"blue-1", "green-2"} <= set(hand(m, 1))
    assert {"red-1", "blue-2"} <= set(hand(m, 2))
    assert {"green-1", "red-2"} <= set(hand(m, 0))
    assert all(len(h) == 12 for h in m.state.hands)
    passed = slot(m, "blue-1")
    assert passed in m.view(0).known  # the giver keeps knowing it
    assert m.view(1).known[passed] == "blue-1"  # shown to its receiver
    assert passed not in m.view(2).known and passed not in m.view(None).known
    assert any(isinstance(e, ev.Passed) for e in m.state.events)


def test_each_seat_reads_its_own_pass_in_the_story_and_knows_every_card_of_it() -> None:
    m = stacked(3, {0: ["blue-1", "blue-2"], 1: ["red-1", "red-2"], 2: ["green-1", "green-2"]})
    pass_cards(m, {0: ("blue-1", "blue-2"), 1: ("red-1", "red-2"), 2: ("green-1", "green-2")})

    def told(seat: int | None) -> set[tuple[int, int, str | None]]:
        (passed,) = [e for e in m.view(seat).events if isinstance(e, ev.Passed)]
        known = m.view(seat).known
        return {(giver, receiver, known.get(slot)) for giver, receiver, slot in passed.moves}

    # every name is known to the seat reading it: the pass is told once shown to receivers
    assert told(0) == {(0, 1, "blue-1"), (0, 2, "blue-2"), (2, 0, "green-1"), (1, 0, "red-2")}
    assert told(1) == {(1, 2, "red-1"), (1, 0, "red-2"), (0, 1, "blue-1"), (2, 1, "green-2")}
    assert told(None) == set()  # a spectator reads that cards were passed, not which
    (whole,) = [e for e in m.state.events if isinstance(e, ev.Passed)]
    assert len(whole.moves) == 6


def test_a_pass_waits_for_every_seat_and_one_seal_each() -> None:
    m = stacked(3)
    held = m.state.hands[0]
    m.apply(PassOn(held[0], held[1]), 0)
    assert m.to_act == (1, 2) and m.state.phase is Phase.PASS
    with pytest.raises(IllegalActionError):
        m.apply(PassOn(held[2], held[3]), 0)


def test_passing_a_card_one_does_not_hold_names_the_seat() -> None:
    m = stacked(3)
    state = m.state
    choices = [(seat, PassOn(state.hands[seat][0], state.hands[seat][1])) for seat in range(3)]
    stolen = state.hands[2][5]
    choices[1] = (1, PassOn(state.hands[1][0], stolen))
    with pytest.raises(IllegalActionError) as caught:
        GAME.apply(state, Committed(tuple(choices)), None)
    assert caught.value.seat == 1
    assert PassOn(state.hands[1][0], stolen) not in m.legal_actions(1)


def test_the_duel_gives_one_card_each_way_at_once() -> None:
    m = stacked(2, {0: ["blue-1"], 1: ["gold-12"]})
    assert m.legal_actions(0) == [HandOver(s) for s in m.state.hands[0]]
    m.apply(HandOver(slot(m, "blue-1")), 0)
    m.apply(HandOver(slot(m, "gold-12")), 1)
    assert "blue-1" in hand(m, 1) and "gold-12" in hand(m, 0)
    assert [len(h) for h in m.state.hands] == [10, 10]
    assert m.view(0).known[slot(m, "gold-12")] == "gold-12"


# -- tricks ------------------------------------------------------------------------------------


def test_each_trick_starts_with_the_piece_in_dispute_shown_to_all() -> None:
    m = stacked(3, piece_pile=["strawberry-2"], first=1)
    pass_cards(m)
    view = m.view(None)
    assert view.dispute is not None and view.known[view.dispute] == "strawberry-2"
    assert view.to_play == 1 and m.to_act == (1,)
    assert ev.PieceShown(1, "strawberry-2") in view.events


def test_seats_play_clockwise_and_the_winner_takes_the_piece_face_down_and_leads() -> None:
    m = stacked(
        3,
        {0: ["blue-12"], 1: ["blue-10"], 2: ["blue-8"]},
        piece_pile=["strawberry-1", "rotten-1"],
        first=1,
    )
    pass_cards(m)
    play(m, 1, "blue-10")
    assert m.state.turn_suit == "blue"
    play(m, 2, "blue-8")
    play(m, 0, "blue-12")
    state = m.state
    assert held_pieces(m, 0) == ["strawberry-1"]
    assert state.leader == 0 and state.to_play == 0 and state.trick_no == 2
    assert state.won_face_up[0] == ("strawberry-1",)
    assert ev.TrickWon(0, "strawberry-1", ("blue-10", "blue-8", "blue-12"), 1) in state.events
    # the piece it won stays known to all (it was shown), the next one is in dispute
    assert m.view(2).known[state.pieces[0][0]] == "strawberry-1"
    assert m.view(2).known[state.dispute] == "rotten-1"


def test_out_of_turn_and_cards_not_held_are_illegal() -> None:
    m = stacked(3, {1: ["blue-10"], 2: ["blue-8"]}, first=1)
    pass_cards(m)
    with pytest.raises(IllegalActionError):
        m.apply(Play(slot(m, "blue-8")), 2)
    with pytest.raises(IllegalActionError, match="from your hand"):
        m.apply(Play(slot(m, "blue-8")), 1)


def test_legal_cards_follow_suit_from_the_seats_own_hand() -> None:
    m = stacked(3, {0: ["blue-12", "gold-3", "zero-a", "red-4"], 1: ["blue-10"]}, first=1)
    pass_cards(m)
    play(m, 1, "blue-10")
    play(m, 2, m.dealer.card(m.legal_actions(2)[0].slot))  # whatever is legal for seat 2
    legal = {m.dealer.card(a.slot) for a in m.legal_actions(0) if isinstance(a, Play)}
    held = set(hand(m, 0))
    assert "gold-3" not in legal and "red-4" not in legal
    assert legal == {c for c in held if c.startswith("blue") or c in SPECIALS}


# -- rounds ------------------------------------------------------------------------------------


def test_the_next_first_player_holds_the_fewest_pieces() -> None:
    assert next_first([3, 1, 2, 4], previous=0) == 1


def test_a_tie_for_fewest_goes_to_the_closest_clockwise_from_the_last_first() -> None:
    assert next_first([1, 3, 1, 1], previous=1) == 2
    assert next_first([1, 3, 1, 1], previous=3) == 3  # that player itself counts first
    assert next_first([2, 2, 2], previous=2) == 2


def test_rounds_reshuffle_every_card_and_start_with_the_fewest_pieces() -> None:
    m = new_match("cookies-battle", players=4, seed=8)
    rng = random.Random(8)
    while m.state.round == 1:
        seat = m.to_act[0]
        m.apply(random_bot(m.view(seat), rng), seat)
    state = m.state
    counts_after_round_1 = next(e for e in state.events if isinstance(e, ev.RoundEnded)).pieces
    first_of_round_1 = next(e for e in state.events if isinstance(e, ev.RoundStarted)).first
    assert state.first == next_first(counts_after_round_1, first_of_round_1)
    assert state.round == 2 and all(len(h) == 12 for h in state.hands)
    shuffles = [s for s, _ in m.dealer.shuffles]
    assert shuffles.count(tuple(state.card_slots)) == 2
    # the cards played face up last round are face down again
    assert not set(state.out) & set(m.view(None).known)


def test_a_game_has_3_rounds_and_ends_with_every_piece_shown() -> None:
    m = new_match("cookies-battle", players=3, seed=4)
    result = m.play([random_bot] * 3, random.Random(4))
    view = m.view(None)
    assert view.over and view.round == 3
    assert sum(view.piece_counts) == 36
    for seat in range(3):
        assert all(name is not None for name in view.piece_names(seat))
    assert result.scores == tuple(s.total for s in view.results)
    assert isinstance(view.events[-1], ev.GameOver)
    assert isinstance(view.events[-2], ev.PiecesRevealed)


def test_the_duel_plays_30_pieces_with_no_markers_and_the_highest_wins() -> None:
    m = new_match("cookies-battle", players=2, seed=2)
    seen_marker_window = False
    rng = random.Random(2)
    while m.outcome is None:
        seat = m.to_act[0]
        view = m.view(seat)
        seen_marker_window |= view.phase in (Phase.MARKER, Phase.DEFENSE)
        assert all(isinstance(a, (Play, HandOver)) for a in view.legal)
        m.apply(random_bot(view, rng), seat)
    assert not seen_marker_window
    assert sum(m.view(None).piece_counts) == 30
    assert m.state.marker_pile == () and all(not h for h in m.state.markers)
    totals = [s.total for s in m.state.results]
    assert m.outcome.reason == "points"
    assert max(totals) in [totals[w] for w in m.outcome.winners]


def test_beginners_the_highest_score_wins() -> None:
    m = new_match("cookies-battle", players=4, seed=6, options={"variant": "beginners"})
    result = m.play([random_bot] * 4, random.Random(6))
    totals = result.scores
    assert result.reason == "points" and not m.state.tummy_ache
    assert all(totals[w] == max(totals) for w in result.winners)


def test_the_standard_game_the_highest_has_a_tummy_ache() -> None:
    for seed in range(6):
        m = new_match("cookies-battle", players=4, seed=seed)
        result = m.play([random_bot] * 4, random.Random(seed))
        totals = result.scores
        if len(set(totals)) == 1:
            continue
        top = max(totals)
        assert set(m.state.tummy_ache) == {s for s in range(4) if totals[s] == top}
        rest = [t for t in totals if t != top]
        assert all(totals[w] == max(rest) for w in result.winners)


# -- a breach proven elsewhere -----------------------------------------------------------------


def test_a_forfeit_ends_the_game_naming_the_seat_as_the_cheat() -> None:
    m = stacked(3)
    state = GAME.apply(m.state, Forfeited(1, "false-opening"), None)
    result = GAME.outcome(state)
    assert result is not None and result.reason == "cheated"
    assert result.winners == (0, 2) and 1 not in result.winners
    assert GAME.view(state, 0).cheat == 1
    # the peers' code is kept, and read in words in the reader's language (it read
    # "cheated: false-opening")
    (cheat,) = (e for e in state.events if isinstance(e, ev.Cheated))
    assert cheat.reason == "false-opening"
    assert describe(cheat, ["Ann", "Bob", "Cy"]) == (
        "Bob cheated: a sealed choice opened to something else"
    )
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Forfeited(2, "again"), None)


def test_an_empty_marker_pile_gives_nothing() -> None:
    m = stacked(3, {0: ["magician"], 1: ["blue-10"], 2: ["blue-8"]})
    pass_cards(m)
    m.state = replace(m.state, marker_pile=())
    play_trick(m, ["magician", "blue-10", "blue-8"])
    assert m.state.markers == ((), (), ())
    assert not any(isinstance(e, ev.MarkerEarned) for e in m.state.events)


def test_a_seat_sees_its_own_score_as_it_stands_and_not_a_hidden_one() -> None:
    m = new_match("cookies-battle", players=4, seed=12)
    rng = random.Random(12)
    while m.state.round == 1:
        seat = m.to_act[0]
        m.apply(random_bot(m.view(seat), rng), seat)
    for seat in range(4):
        view = m.view(seat)
        own = view.score(seat)
        assert own is not None
        assert own.pieces == view.piece_counts[seat]
        assert own.markers == view.marker_counts[seat]
        for other in range(4):
            hidden = any(s not in view.known for s in view.pieces[other])
            assert (view.score(other) is None) == hidden
    assert len(m.view(0).played) == 0 and m.view(0).out == 54 - 48

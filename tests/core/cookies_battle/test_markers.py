"""Magic markers: earned and seen by the earner only, the windows that ask only holders,
each of the six kinds, Defense, and a lie about a marker's kind.

Every game here is the same stacked start at 3 players. Trick 1 (seat 0 leads): the
Magician (seat 0), blue 3 (seat 1), blue 9 (seat 2): seat 2 takes the first piece, seat 0
earns the top marker and seat 1 the next. Trick 2 (seat 2 leads) is one of:

* ``keep``: blue 8, zero, blue 2 — seat 2 wins again (two pieces, seat 0 none);
* ``split``: blue 8, blue 12, blue 10 — seat 0 wins (one piece each for 0 and 2).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cakeparty.core import IllegalActionError, Match
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import GivePiece, NoMarker, Play, UseMarker
from cakeparty.core.games.cookies_battle.state import Phase
from cakeparty.core.games.cookies_battle.steps import ask, remix_pieces
from cakeparty.core.requests import Remix
from tests.core.cookies_battle.stacking import (
    act,
    hand,
    held_markers,
    held_pieces,
    let_pass,
    pass_cards,
    play,
    play_trick,
    slot,
    stacked,
)

HANDS = {
    0: ["magician", "blue-12", "blue-11", "zero-a", "gold-1"],
    1: ["blue-3", "blue-10", "blue-2", "gold-5", "blue-4"],
    2: ["blue-9", "blue-8", "blue-7", "blue-6", "blue-5"],
}
PIECES = ["strawberry-1", "sprinkle-1", "traditional-1", "rotten-1"]
TRICK_2 = {"keep": ["blue-8", "zero-a", "blue-2"], "split": ["blue-8", "blue-12", "blue-10"]}


def start(
    markers: Sequence[str], trick_2: str | None = "keep", randoms: Sequence[int] = ()
) -> Match:
    m = stacked(3, HANDS, piece_pile=PIECES, marker_pile=markers, randoms=randoms, seed=5)
    pass_cards(m)
    play_trick(m, ["magician", "blue-3", "blue-9"])
    if trick_2 is not None:
        play_trick(m, TRICK_2[trick_2])
    return m


def marker(m: Match, name: str) -> int:
    return slot(m, name)


# -- earning -----------------------------------------------------------------------------------


def test_markers_earned_are_shown_to_their_earners_only() -> None:
    m = start(["theft-1", "defense-2"], trick_2=None)
    assert held_markers(m, 0) == ["theft-1"] and held_markers(m, 1) == ["defense-2"]
    theft = marker(m, "theft-1")
    assert m.view(0).markers == ((theft, "theft"),)
    assert theft not in m.view(1).known and theft not in m.view(2).known
    assert theft not in m.view(None).known
    assert m.view(2).marker_counts == (1, 1, 0)
    assert ev.MarkerEarned(0, "theft") in m.view(0).events
    assert ev.MarkerEarned(0, None) in m.view(1).events
    assert ev.MarkerEarned(1, None) in m.view(0).events
    assert m.view(2).marker_pile == 16


# -- windows -----------------------------------------------------------------------------------


def test_the_window_asks_only_holders_clockwise_from_the_next_seat() -> None:
    m = start(["theft-1", "puppet-1"], trick_2=None)
    play(m, 2, "blue-8")  # seat 2 leads trick 2
    assert m.state.phase is Phase.MARKER and m.to_act == (0,)
    act(m, 0, NoMarker())
    assert m.to_act == (1,)
    act(m, 1, NoMarker())
    # seat 2, the player, holds no marker: skipped; seat 0 plays next
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)


def test_the_window_ends_with_the_player() -> None:
    m = start(["theft-1", "puppet-1"], trick_2=None)
    play_trick(m, ["blue-8"])
    play(m, 0, "zero-a")
    assert m.to_act == (1,)  # the seat after the player first
    act(m, 1, NoMarker())
    assert m.to_act == (0,) and m.state.phase is Phase.MARKER  # the player last
    act(m, 0, NoMarker())
    assert m.state.phase is Phase.PLAY and m.to_act == (1,)


def test_a_defense_may_not_be_used_in_the_marker_window() -> None:
    m = start(["theft-1", "defense-1"], trick_2=None)
    play(m, 2, "blue-8")
    act(m, 0, NoMarker())
    assert m.legal_actions(1) == [NoMarker()]
    with pytest.raises(IllegalActionError, match="Defense"):
        m.apply(UseMarker(marker(m, "defense-1"), "defense"), 1)


def test_on_its_own_turn_a_seat_may_use_a_marker_then_still_plays() -> None:
    m = start(["theft-1", "puppet-1"], trick_2="split")
    assert m.to_act == (0,) and m.state.phase is Phase.PLAY
    legal = m.legal_actions(0)
    assert any(isinstance(a, Play) for a in legal)
    assert UseMarker(marker(m, "theft-1"), "theft", (2,)) in legal
    act(m, 0, UseMarker(marker(m, "theft-1"), "theft", (2,)))
    let_pass(m)  # seat 1 lets the Defense window pass
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)
    assert held_pieces(m, 0) == ["sprinkle-1", "strawberry-1"]
    assert not any(isinstance(a, UseMarker) for a in m.legal_actions(0))


# -- the kinds ---------------------------------------------------------------------------------


def test_theft_takes_a_random_piece_seen_by_taker_and_victim_only() -> None:
    m = start(["theft-1", "puppet-1"], randoms=[1])
    before = list(m.state.pieces[2])
    play(m, 2, "blue-7")
    act(m, 0, UseMarker(marker(m, "theft-1"), "theft", (2,)))
    assert m.state.phase is Phase.DEFENSE and m.to_act == (1,)
    act(m, 1, NoMarker())
    # the victim's two pieces were known to all: re-mixed before the draw
    assert m.dealer.remixes and m.dealer.remixes[-1][0] == tuple(before)
    (taken,) = m.state.pieces[0]
    assert m.state.pieces[2] == tuple(s for s in before if s != taken)
    name = m.dealer.card(taken)
    assert m.view(0).known[taken] == name and m.view(2).known[taken] == name
    assert taken not in m.view(1).known and taken not in m.view(None).known
    assert not set(m.state.pieces[2]) & set(m.view(1).known)
    assert ev.PieceTaken(0, 2, name) in m.view(0).events
    assert ev.PieceTaken(0, 2, None) in m.view(1).events
    assert ev.PieceTaken(0, 2, name) not in m.view(1).events


def test_theft_needs_a_target_with_a_piece_and_another_seat() -> None:
    m = start(["theft-1", "puppet-1"])
    play(m, 2, "blue-7")
    theft = marker(m, "theft-1")
    for bad in (UseMarker(theft, "theft", (1,)), UseMarker(theft, "theft", (0,))):
        with pytest.raises(IllegalActionError):
            m.apply(bad, 0)
    with pytest.raises(IllegalActionError, match="target"):
        m.apply(UseMarker(theft, "right-breeze", (2,)), 0)


def puppet_game(randoms: Sequence[int], *, draw: bool = True) -> Match:
    m = start(["puppet-1", "theft-1"], randoms=randoms)
    play(m, 2, "blue-7")
    act(m, 0, UseMarker(marker(m, "puppet-1"), "puppet", (1,)))
    let_pass(m)
    if draw:
        play(m, 0, "blue-11")
        let_pass(m)
    return m


def test_puppet_draws_the_next_card_at_random_and_it_may_break_suit() -> None:
    dry = puppet_game([], draw=False)
    assert dry.view(2).puppets == (1,)
    # the same game again, the draw stacked to the gold 5 (seat 1 still holds blue)
    index = dry.state.hands[1].index(slot(dry, "gold-5"))
    m = puppet_game([index])
    seat, played = m.state.last_trick[-1]  # seat 1 played last: the trick is over
    assert seat == 1 and m.dealer.card(played) == "gold-5"
    assert not m.state.puppets
    assert any(c.startswith("blue") for c in hand(m, 1))
    assert ev.CardPlayed(1, "gold-5", True) in m.state.events
    assert ev.Puppeted(0, 1) in m.state.events
    assert not m.state.breaches


def test_swap_each_gives_a_piece_seen_by_the_two_only() -> None:
    m = start(["swap-1", "theft-1"], trick_2="split")
    mine, theirs = m.state.pieces[0][0], m.state.pieces[2][0]
    act(m, 0, UseMarker(marker(m, "swap-1"), "swap", (2,), (mine,)))
    act(m, 1, NoMarker())
    assert m.state.phase is Phase.SWAP and m.to_act == (2,)
    assert m.view(2).window is not None and m.view(2).window.awaiting == "swap"
    assert m.legal_actions(2) == [GivePiece(theirs)]
    act(m, 2, GivePiece(theirs))
    assert m.state.pieces[0] == (theirs,) and m.state.pieces[2] == (mine,)
    given, received = m.dealer.card(mine), m.dealer.card(theirs)
    assert ev.Swapped(0, 2, given, received) in m.view(2).events
    assert ev.Swapped(0, 2, None, None) in m.view(1).events
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)


def test_swap_needs_a_piece_of_ones_own() -> None:
    m = start(["swap-1", "theft-1"])  # seat 0 holds no piece
    play(m, 2, "blue-7")
    with pytest.raises(IllegalActionError, match="your own pieces"):
        m.apply(UseMarker(marker(m, "swap-1"), "swap", (2,), (m.state.pieces[2][0],)), 0)
    assert not any(isinstance(a, UseMarker) and a.kind == "swap" for a in m.legal_actions(0))


def test_right_breeze_takes_from_the_holdings_before_the_breeze() -> None:
    m = start(["right-breeze-1", "theft-1"], trick_2="split")
    # seat 0 holds sprinkle-1, seat 1 nothing, seat 2 strawberry-1
    act(m, 0, UseMarker(marker(m, "right-breeze-1"), "right-breeze"))
    act(m, 1, NoMarker())
    # each takes from the seat on its right (the previous seat)
    assert held_pieces(m, 0) == ["strawberry-1"]  # from seat 2
    assert held_pieces(m, 1) == ["sprinkle-1"]  # seat 0's piece from before the breeze
    assert held_pieces(m, 2) == []  # seat 1 had nothing
    assert m.view(1).known[m.state.pieces[1][0]] == "sprinkle-1"


def test_left_breeze_takes_from_the_seat_on_the_left() -> None:
    m = start(["left-breeze-1", "theft-1"], trick_2="split")
    act(m, 0, UseMarker(marker(m, "left-breeze-1"), "left-breeze"))
    act(m, 1, NoMarker())
    assert held_pieces(m, 0) == []
    assert held_pieces(m, 1) == ["strawberry-1"]
    assert held_pieces(m, 2) == ["sprinkle-1"]


def test_a_defense_cancels_the_marker_and_both_leave_the_game() -> None:
    m = start(["theft-1", "defense-1"], trick_2="split")
    before = m.state.pieces
    act(m, 0, UseMarker(marker(m, "theft-1"), "theft", (2,)))
    assert m.state.phase is Phase.DEFENSE and m.to_act == (1,)
    window = m.view(1).window
    assert window is not None and (window.user, window.kind, window.target) == (0, "theft", 2)
    assert m.legal_actions(1) == [NoMarker(), UseMarker(marker(m, "defense-1"), "defense")]
    act(m, 1, UseMarker(marker(m, "defense-1"), "defense"))
    assert m.state.pieces == before
    assert m.state.markers == ((), (), ())
    assert sorted(m.view(2).used_markers) == ["defense", "theft"]
    assert ev.Defended(1, 0, "theft") in m.state.events
    # a Defense is final: no window after it; back to seat 0's turn
    assert m.state.phase is Phase.PLAY and m.to_act == (0,)


def test_only_a_defense_answers_in_the_defense_window() -> None:
    m = start(["theft-1", "puppet-1"], trick_2="split")
    act(m, 0, UseMarker(marker(m, "theft-1"), "theft", (2,)))
    assert m.legal_actions(1) == [NoMarker()]  # it holds no Defense
    with pytest.raises(IllegalActionError, match="only a Defense"):
        m.apply(UseMarker(marker(m, "puppet-1"), "puppet", (2,)), 1)


def test_a_marker_claimed_as_another_kind_ends_the_game_naming_the_cheat() -> None:
    m = start(["theft-1", "puppet-1"], trick_2="split")
    act(m, 0, UseMarker(marker(m, "theft-1"), "puppet", (2,)))  # it is a Theft
    assert m.state.phase is Phase.OVER
    result = m.outcome
    assert result is not None and result.reason == "cheated"
    assert 0 not in result.winners and set(result.winners) == {1, 2}
    (breach,) = m.state.breaches
    assert breach.seat == 0 and breach.action.startswith("marker")
    assert m.view(1).cheat == 0
    assert isinstance(m.state.events[-2], ev.Cheated)


def test_a_false_defense_names_its_seat() -> None:
    m = start(["theft-1", "puppet-1"], trick_2="split")
    act(m, 0, UseMarker(marker(m, "theft-1"), "theft", (2,)))
    act(m, 1, UseMarker(marker(m, "puppet-1"), "defense"))
    result = m.outcome
    assert result is not None and result.reason == "cheated"
    assert m.state.cheat == 1 and m.state.breaches[0].seat == 1


# -- hiding which piece moves --------------------------------------------------------------


def test_a_holder_re_mixes_its_known_pieces_before_it_may_use_a_marker() -> None:
    m = start(["theft-1", "puppet-1"])  # seat 2 holds two pieces everyone saw it win
    state = m.state
    held = state.pieces[2]
    assert len(held) == 2
    with_marker = state.evolve(markers=((), (), (state.markers[0][0],)))
    for phase in (Phase.PLAY, Phase.MARKER):
        asked = ask(with_marker, phase, 2)
        assert asked.queue == (Remix(2, held, (2,)),) and asked.actor == 2
    # no marker, no re-mix before playing; a Swap's target always re-mixes known pieces
    assert ask(state, Phase.PLAY, 2).queue == ()
    assert ask(state, Phase.SWAP, 2).queue == (Remix(2, held, (2,)),)
    assert ask(with_marker, Phase.DEFENSE, 2).queue == ()


def test_no_re_mix_for_one_piece_or_pieces_nobody_else_knows() -> None:
    m = start(["theft-1", "puppet-1"], trick_2="split")  # one piece each for 0 and 2
    state = m.state
    assert remix_pieces(state, 0) == () and remix_pieces(state, 2) == ()
    m = start(["theft-1", "puppet-1"])
    state = m.state
    held = state.pieces[2]
    hidden = state.evolve(knowledge=state.knowledge.remix(held, (None, None), (2,)))
    assert remix_pieces(hidden, 2) == ()
    assert remix_pieces(state, 2) == (Remix(2, held, (2,)),)


def test_a_second_puppet_on_a_seat_draws_its_card_after_the_first_one_s() -> None:
    m = start(["puppet-1", "puppet-2"])
    play(m, 2, "blue-7")
    act(m, 0, UseMarker(marker(m, "puppet-1"), "puppet", (2,)))
    act(m, 1, NoMarker())  # no Defense
    assert m.to_act == (1,) and m.state.phase is Phase.MARKER
    act(m, 1, UseMarker(marker(m, "puppet-2"), "puppet", (2,)))
    assert m.state.puppets == (2, 2)
    puppeted = [e for e in m.state.events if isinstance(e, ev.Puppeted)]
    assert puppeted == [ev.Puppeted(0, 2, 1), ev.Puppeted(1, 2, 2)]

"""Hidden information: what each seat's view shows, and what it never shows."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import Match, new_match
from cakeparty.core.games.cake_duel import Phase
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.events import Blocked, Challenged, Claimed, Taunted
from tests.core.cake_duel.play import accept, claim, pass_turn, win_bout
from tests.core.cake_duel.stacking import stacked

ALICE = ["wizard", "soldier", "scientist", "archer"]
BOB = ["defender", "soldier", "scientist", "archer"]


def _hand_identities(m: Match, seat: int) -> dict[int, str]:
    return {s: m.dealer.card(s) for s in m.state.hands[seat]}


def test_each_seat_sees_its_own_hand_only() -> None:
    m = stacked([ALICE, BOB], specials=["assassin", "angel"])
    assert dict(m.view(0).known) == _hand_identities(m, 0)
    assert dict(m.view(1).known) == _hand_identities(m, 1)
    assert dict(m.view(None).known) == {}
    assert m.view(None).hand == ()
    assert m.view(0).hand_cards == tuple(ALICE)
    # public facts
    view = m.view(1)
    assert view.hands == m.state.hands
    assert (view.deck_count, view.discard_count) == (14, 0)
    assert (view.cakes, view.trophies, view.to_act) == ((3, 4), (0, 0), (0,))
    assert view.legal == () and m.view(None).legal == ()
    assert m.view(0).legal == tuple(m.legal_actions(0))


def test_a_card_played_facedown_stays_hidden_from_the_opponent() -> None:
    m = stacked([ALICE, BOB])
    (slot,) = claim(m, 0, ["scientist"], "wizard")
    assert m.view(0).known[slot] == "scientist"
    assert slot not in m.view(1).known and slot not in m.view(None).known
    accept(m)
    assert slot in m.state.discard
    assert slot not in m.view(1).known
    # drawn cards are shown to their holder only
    (drawn,) = m.state.hands[0][-1:]
    assert drawn in m.view(0).known
    assert drawn not in m.view(1).known and drawn not in m.view(None).known


def test_the_specials_in_the_deck_are_hidden() -> None:
    m = stacked([ALICE, BOB], specials=["assassin", "angel"])
    for seat in (0, 1, None):
        view = m.view(seat)
        assert view.specials_in_deck == 2
        assert view.specials_seen == frozenset()
        assert not any(CARDS[c].special for c in view.known.values())
    # and a reshuffle for the next bout reveals nothing
    win_bout(m, 0)
    assert m.state.bout == 2
    assert m.view(None).specials_seen == frozenset()
    assert dict(m.view(None).known) == {}


def test_a_special_in_hand_is_known_to_its_holder_for_the_rest_of_the_duel() -> None:
    m = stacked([["assassin", *ALICE[1:]], BOB], specials=["assassin", "angel"])
    assert m.view(0).specials_seen == frozenset({"assassin"})
    assert m.view(1).specials_seen == frozenset()
    assert m.view(None).specials_seen == frozenset()
    pass_turn(m)
    pass_turn(m)  # the bout ends with nothing flipped
    assert m.state.bout == 2
    assert "assassin" in m.view(0).specials_seen
    assert "assassin" not in m.view(None).specials_seen


def test_show_specials_reveals_which_specials_but_not_where() -> None:
    m = stacked([ALICE, BOB], specials=["assassin", "angel"], options={"show_specials": True})
    for seat in (0, 1, None):
        assert m.view(seat).specials_seen == frozenset({"assassin", "angel"})
    assert dict(m.view(1).known) == _hand_identities(m, 1)
    assert dict(m.view(None).known) == {}


def test_specials_are_not_shown_without_the_option() -> None:
    m = new_match("cake-duel", 2, seed=11, options={"show_specials": False})
    assert m.view(None).specials_seen == frozenset()
    shown = new_match("cake-duel", 2, seed=11, options={"show_specials": True})
    seen = shown.view(None).specials_seen
    in_deck = {shown.dealer.card(s) for s in shown.state.game_slots()} & {
        n for n, c in CARDS.items() if c.special
    }
    assert len(seen) in (1, 2) and seen == in_deck


# -- no view ever leaks a hidden card -----------------------------------------------------


def _allowed(m: Match, seat: int) -> set[int]:
    """Slots ``seat`` may know in a game without looks or Priests: its hand, the cards it
    played this bout, and taunted cards."""
    own = set(m.state.hands[seat])
    for e in m.view(None).events:
        if isinstance(e, (Claimed, Blocked)) and e.seat == seat:
            own |= set(e.slots)
    return own | _taunted(m)


def _taunted(m: Match) -> set[int]:
    """Cards shown face up this bout: taunted, or flipped by the challenge that ended it."""
    events = m.view(None).events
    flipped = {s for e in events if isinstance(e, Challenged) for s in e.slots}
    return flipped | {e.slot for e in events if isinstance(e, Taunted)}


@pytest.mark.parametrize("seed", range(4))
def test_random_core_duels_never_leak_a_card(seed: int) -> None:
    rng = random.Random(seed)
    m = new_match("cake-duel", 2, seed=seed, options={"full": False})
    for _ in range(400):
        if m.outcome is not None:
            break
        for seat in (0, 1):
            known = set(m.view(seat).known)
            assert known <= _allowed(m, seat)
            assert not known & set(m.state.hands[1 - seat])
            assert not known & set(m.state.deck)
        assert set(m.view(None).known) <= _taunted(m)
        seat = m.to_act[0]
        m.apply(rng.choice(m.legal_actions(seat)), seat)
    assert m.outcome is not None


@pytest.mark.parametrize("seed", range(4))
def test_random_full_duels_keep_the_deck_and_the_hands_from_spectators(seed: int) -> None:
    rng = random.Random(100 + seed)
    m = new_match("cake-duel", 2, seed=seed)
    for _ in range(400):
        if m.outcome is not None:
            break
        spectator = set(m.view(None).known)
        assert spectator <= _taunted(m)
        for seat in (0, 1):
            assert not set(m.view(seat).known) & set(m.state.deck)
        if m.state.phase is Phase.ATTACK:
            # outside a look, a seat knows no card of the opponent's hand it did not own
            for seat in (0, 1):
                foreign = set(m.view(seat).known) & set(m.state.hands[1 - seat])
                assert all(m.state.knowledge.known_by[s] & (1 << seat) for s in foreign)
        seat = m.to_act[0]
        m.apply(rng.choice(m.legal_actions(seat)), seat)
    assert m.outcome is not None

"""Seeded random games at 3–6 players in every variant: every game ends, the 130 cards are
conserved, and no view leaks a hidden card."""

from __future__ import annotations

import random

import pytest

from cakeparty.core.games.cake_of_doom.cards import box, card, is_cake_slot
from cakeparty.core.knowledge import PUBLIC

from .helpers import VARIANTS, all_slots, new, steps

SEEDS = range(3)


def _check_view(match, seat) -> None:
    state = match.state
    seen = match.view(seat).known
    for slot, name in seen.items():
        assert name == match.dealer.card(slot), f"seat {seat} believes slot {slot} is {name}"
        mask = state.knowledge.known_by[slot]
        allowed = mask & PUBLIC if seat is None else mask & (1 << seat)
        assert allowed, f"seat {seat} sees slot {slot} ({name}) it may not know"
    # never a card in a draw pile, never another hand's card unless it was stolen or seen
    for slot in (*state.cake_pile, *state.mischief_pile):
        assert slot not in seen
    if seat is None:
        for hand in state.hands:
            assert not set(hand) & set(seen)
        offer = state.offer
        if offer is not None and not offer.opened:
            assert not set(offer.slots) & set(seen)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_end_conserve_cards_and_hide_what_is_hidden(players, variant) -> None:
    for seed in SEEDS:
        match = new(players, seed, variant)
        for n, m in enumerate(steps(match, rng=random.Random(seed))):
            slots = all_slots(m.state)
            assert slots == list(range(130)), f"cards lost or doubled after move {n}"
            for seat in m.to_act:
                view = m.view(seat)
                assert all(s in view.known for s in view.hand), "a seat knows its own hand"
            if n % 7 == 0:
                for seat in (None, *range(players)):
                    _check_view(m, seat)
            # a face-down blind offer is known to nobody but its briber
            offer = m.state.offer
            if offer is not None and not offer.opened:
                for other in range(players):
                    if other != offer.seat:
                        assert not set(offer.slots) & set(m.view(other).known)
        assert match.outcome is not None
        assert match.outcome.reason in ("regions", "doom")
        # slots keep their deck: cake cards lie in cake slots
        for slot, name in enumerate(match.dealer.truth):
            assert card(name).cake == is_cake_slot(slot)
        assert sorted(match.dealer.truth) == sorted(box())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_many_more_games_end_whole_and_fair(players) -> None:
    endings = set()
    for seed in range(3, 11):
        variant = list(VARIANTS)[seed % len(VARIANTS)]
        match = new(players, seed, variant)
        for _ in steps(match, rng=random.Random(seed)):
            pass
        outcome = match.outcome
        assert outcome is not None and not match.state.breaches
        assert all_slots(match.state) == list(range(130))
        assert match.state.round <= 10
        if outcome.reason == "regions":
            assert match.state.round == 10 and match.state.turn == 10 * players
        endings.add(outcome.reason)
    assert endings <= {"regions", "doom"}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_working_on_a_draft_changes_nothing_but_speed(variant, monkeypatch) -> None:
    """``apply`` changes a private draft where it lies instead of copying the state at
    every step: the same games, move by move, as copying every time (a value read from the
    draft after it changed, as the round a new round's log line named once, differs)."""
    from cakeparty.core.games.cake_of_doom import flow

    def play() -> list[dict[str, object]]:
        match = new(4, 7, variant)
        return [dict(m.state.__dict__) for m in steps(match, rng=random.Random(7))]

    drafted = play()
    monkeypatch.setattr(flow, "draft", lambda state: state)  # every replace copies
    copied = play()
    assert len(drafted) == len(copied) and drafted[-1]["round"] >= 2  # rounds went by
    for n, (a, b) in enumerate(zip(drafted, copied, strict=True)):
        assert a == b, f"the games part after move {n}"

"""Worlds drawn from a seat's view: consistent with it, blind to the rest, and varied."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from cakeparty.core import Match, get_game, new_match
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.game import bot_levels
from cakeparty.core.games.cake_duel import CAKE_DUEL, DuelState, DuelView, Phase
from cakeparty.core.games.cake_duel.cards import SIR_WOLFY
from cakeparty.core.games.cake_duel.state import evolve
from cakeparty.core.knowledge import Knowledge

GAME = get_game("cake-duel")

#: (players, options): every player count and variant
SETTINGS: list[tuple[int, dict[str, bool]]] = [
    (2, {"full": True}),
    (2, {"full": False}),
    (2, {"full": True, "tournament": True}),
    (2, {"full": True, "show_specials": True}),
    (4, {"full": True}),
    (4, {"full": False}),
    (4, {"full": True, "tournament": True}),
]


def positions(players: int, options: dict[str, bool], seed: int) -> Iterator[DuelState]:
    """The states of one seeded duel (normal bots against random ones), one in two."""
    m = new_match("cake-duel", players=players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = [GAME.bots["normal" if s % 2 == 0 else "random"] for s in range(players)]
    step = 0
    while m.outcome is None:
        if step % 2 == 0:
            yield m.state
        step += 1
        seat = m.to_act[0]
        m.apply(bots[seat](m.view(seat), rng), seat)
    yield m.state


def all_positions() -> Iterator[tuple[int, dict[str, bool], DuelState]]:
    for i, (players, options) in enumerate(SETTINGS):
        for state in positions(players, options, seed=100 + i):
            yield players, options, state


def duel_slots(state: DuelState) -> list[int]:
    return [s for s in range(len(state.box)) if s not in state.unused]


def check_world(view: DuelView, seed: int) -> Any:
    world = GAME.determinize(view, random.Random(seed))
    assert world is not None
    state = world.state
    assert GAME.view(state, view.seat) == view
    known = GAME.knowledge(state)
    assert all(c is None or c == world.truth[s] for s, c in enumerate(known.cards))
    assert sorted(world.truth) == sorted(GAME.box(state))
    for holder, cards in view.glimpses.items():
        held = Counter(world.truth[s] for s in view.hands[holder])
        assert not Counter(cards) - held  # the cards seen are still in that hand
    in_duel = {world.truth[s] for s in duel_slots(state)}
    assert view.specials_seen <= in_duel
    return world


def test_a_world_looks_like_the_view_it_came_from_from_every_seat() -> None:
    phases: set[Phase] = set()
    checked = 0
    for players, _, state in all_positions():
        for seat in range(players):
            view = GAME.view(state, seat)
            check_world(view, seed=checked)
            phases.add(view.phase)
            checked += 1
    assert checked > 300
    # the moments covered: mid-claim, mid-block, a Priest's choice, a trade on offer, the
    # end of a turn, and more
    assert {Phase.ATTACK, Phase.RESPOND, Phase.REPLY, Phase.WOLFY, Phase.TRADE} <= phases
    assert Phase.TRADE_ANSWER in phases


def test_a_world_plays_on_to_the_end() -> None:
    rand = GAME.bots["random"]
    played = 0
    for players, _, state in all_positions():
        if played % 7 == 0 and state.phase is not Phase.OVER:
            seat = played % players
            world = GAME.determinize(GAME.view(state, seat), random.Random(played))
            assert world is not None
            m = Match(GAME, world.state, LocalDealer(world.truth, played))
            outcome = m.play([rand] * players, random.Random(played))
            assert outcome.winners
        played += 1
    assert played > 100


def swapped(state: DuelState, seat: int) -> DuelState | None:
    """The same duel with two cards ``seat`` cannot know exchanged, if there are two."""
    known = state.knowledge
    hidden = [
        s for s in duel_slots(state) if known.cards[s] is not None and not known.knows(seat, s)
    ]
    for a in hidden:
        for b in hidden:
            if known.cards[a] != known.cards[b]:
                cards = list(known.cards)
                cards[a], cards[b] = cards[b], cards[a]
                return evolve(state, knowledge=Knowledge(tuple(cards), known.known_by))
    return None


def test_a_world_never_reads_the_true_state() -> None:
    compared = 0
    for players, _, state in all_positions():
        seat = compared % players
        other = swapped(state, seat)
        if other is None:
            continue
        view, same = GAME.view(state, seat), GAME.view(other, seat)
        assert view == same
        assert other != state  # two different duels, one view
        assert GAME.determinize(view, random.Random(7)) == GAME.determinize(same, random.Random(7))
        compared += 1
    assert compared > 100


def test_the_unknown_cards_vary_from_draw_to_draw() -> None:
    varied = 0
    for players, _, state in all_positions():
        seat = varied % players
        view = GAME.view(state, seat)
        if state.phase is Phase.OVER:
            continue
        truths = {GAME.determinize(view, random.Random(s)).truth for s in range(8)}  # type: ignore[union-attr]
        assert len(truths) > 1
        varied += 1
    assert varied > 100


def test_no_played_card_of_an_earlier_turn_is_sir_wolfy_outside_a_tournament() -> None:
    # he is revealed at the end of the turn he was played in: a card played unflipped in an
    # earlier turn of the bout, left on the pile, is some other card
    checked = 0
    for players, options, state in all_positions():
        if options.get("tournament") or state.phase is Phase.OVER:
            continue
        seat = checked % players
        view = GAME.view(state, seat)
        shown = any(
            getattr(e, "slot", None) is not None or SIR_WOLFY in getattr(e, "cards", ())
            for e in view.events
        )
        earlier: list[int] = []
        turn: list[int] = []
        for event in view.events:
            kind = type(event).__name__
            if kind in ("Claimed", "Passed"):
                earlier += turn
                turn = []
            if kind in ("Claimed", "Blocked"):
                turn += list(event.slots)  # type: ignore[attr-defined]
        banned = [s for s in earlier if s in state.discard and s not in view.known]
        if shown or not banned:
            continue
        for s in range(5):
            world = GAME.determinize(view, random.Random(s))
            assert world is not None
            assert all(world.truth[slot] != SIR_WOLFY for slot in banned)
        checked += 1
    assert checked > 8


def test_a_spectator_has_no_world_and_the_duel_offers_a_strong_bot() -> None:
    state = next(positions(2, {"full": True}, seed=1))
    assert GAME.determinize(GAME.view(state, None), random.Random(1)) is None
    assert "strong" in bot_levels(CAKE_DUEL)


@pytest.mark.parametrize("players", [2, 4])
def test_a_world_from_the_first_decision_deals_the_others_any_hand(players: int) -> None:
    m = new_match("cake-duel", players=players, seed=3, options={"full": True})
    seat = m.to_act[0]
    view = m.view(seat)
    hands = {
        tuple(GAME.determinize(view, random.Random(s)).truth[x] for x in view.hands[1 - seat % 2])  # type: ignore[union-attr]
        for s in range(20)
    }
    assert len(hands) > 5

"""Seeded random duels, 2- and 4-player, core and full: invariants in every state."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cakeparty.core import Match, RandomResult, Revealed, Shuffled, get_game, new_match
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.state import DuelState, Phase
from cakeparty.core.games.cake_duel.view import view
from cakeparty.core.knowledge import Knowledge

GAME = get_game("cake-duel")
BOTS = GAME.bots

duels = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),  # seed
    st.sampled_from([2, 4]),  # players
    st.booleans(),  # full game
    st.sampled_from(["random", "normal"]),  # who plays
)


def zones(state: DuelState) -> list[int]:
    slots = [*state.deck, *state.discard, *state.unused]
    for hand in state.hands:
        slots.extend(hand)
    return slots


def check_cards(m: Match) -> None:
    state = m.state
    slots = zones(state)
    # every card is in exactly one place, none lost, none made up
    assert sorted(slots) == list(range(len(state.box)))
    assert Counter(m.dealer.truth) == Counter(state.box)
    # every identity the state holds is the true one
    for slot, card in enumerate(state.knowledge.cards):
        if card is not None:
            assert card == m.dealer.card(slot)


def check_cakes(state: DuelState) -> None:
    if state.phase in (Phase.SPECIALS, Phase.SHUFFLE, Phase.START, Phase.OVER):
        return
    if state.phase is Phase.DEAL and not state.order and state.starter is None:
        return
    total = 9 if state.options.team else 7
    assert sum(state.cakes) == total
    assert min(state.cakes) >= 0


def allowed(m: Match, players: int) -> list[set[int]]:
    """Replay the history: which slots each seat was ever shown since their last shuffle."""
    n = len(m.state.box)
    may = [set(range(n)) for _ in range(players)]  # out of the box, everything is face up
    for _seat, action in m.history:
        if isinstance(action, Shuffled):
            for known in may:
                known.difference_update(action.slots)
        elif isinstance(action, Revealed):
            for seat in range(players) if action.to is None else action.to:
                may[seat].update(action.slots)
        elif isinstance(action, RandomResult):
            continue
    return may


def perturbed(state: DuelState, seat: int, rng: random.Random) -> DuelState:
    """The same state with the cards ``seat`` may not know dealt differently."""
    know = state.knowledge
    hidden = [s for s, c in enumerate(know.cards) if c is not None and not know.knows(seat, s)]
    cards = list(know.cards)
    shuffled = [cards[s] for s in hidden]
    rng.shuffle(shuffled)
    for slot, card in zip(hidden, shuffled, strict=True):
        cards[slot] = card
    return replace(state, knowledge=Knowledge(tuple(cards), know.known_by))


def check_views(m: Match, players: int, rng: random.Random) -> None:
    may = allowed(m, players)
    for seat in range(players):
        seen = view(m.state, seat)
        assert set(seen.known) <= may[seat], "a view shows a card its seat was never shown"
        for slot, card in seen.known.items():
            assert card == m.dealer.card(slot)
        # nothing in the view depends on a card the seat may not know
        assert view(perturbed(m.state, seat, rng), seat) == seen
    spectator = view(m.state, None)
    assert all(m.state.knowledge.known_by[s] & (1 << 30) for s in spectator.known)


def check_trophies(state: DuelState) -> None:
    won = [e for e in state.events if isinstance(e, ev.BoutWon)]
    duel_won = [e for e in state.events if isinstance(e, ev.DuelWon)]
    if not duel_won:
        assert sum(state.trophies) == len(won)
        assert max(state.trophies) < 3
    if state.phase is Phase.OVER:
        assert state.winner is not None
        assert state.trophies[state.winner] == 3
        assert state.trophies[1 - state.winner] < 3
        assert sum(state.trophies) == len(won)


def play_checked(seed: int, players: int, full: bool, bot: str, every: int = 1) -> Match:
    rng = random.Random(seed)
    m = new_match("cake-duel", players=players, seed=seed, options={"full": full})
    steps = 0
    while m.outcome is None:
        steps += 1
        assert steps < 5000, "the duel does not end"
        acting = m.to_act
        assert len(acting) == 1
        seat = acting[0]
        legal = m.legal_actions(seat)
        assert legal
        m.apply(BOTS[bot](m.view(seat), rng), seat)
        check_cards(m)
        check_cakes(m.state)
        check_trophies(m.state)
        if steps % every == 0:
            check_views(m, players, rng)
    check_views(m, players, rng)
    outcome = m.outcome
    assert outcome is not None
    assert set(outcome.winners) == set(m.state.seats_of(m.state.winner))
    return m


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(duels)
def test_random_duels_keep_every_invariant(duel: tuple[int, int, bool, str]) -> None:
    seed, players, full, bot = duel
    play_checked(seed, players, full, bot, every=1 if bot == "random" else 3)


def test_a_long_normal_duel_in_team_mode_keeps_every_invariant() -> None:
    m = play_checked(11, 4, True, "normal", every=2)
    assert m.state.bout >= 3

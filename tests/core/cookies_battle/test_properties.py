"""Seeded random games at 2–6 players and both variants: every game ends; cards, pieces
and markers are conserved; no view holds another seat's hand (beyond the cards it passed),
a card left out, a pile, another seat's marker kind, or a piece moved by a random take or
a Swap (beyond the two seats involved)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cakeparty.core import Action, Committed, Match, new_match
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import HandOver, PassOn
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.cards import DEAL
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase

TABLES = [(2, None), *((p, v) for p in (3, 4, 5, 6) for v in ("standard", "beginners"))]


def check_conserved(state: CookiesState) -> None:
    """Every card, piece and marker lies in exactly one place."""
    cards = [*state.out, *state.played, *(s for _, s in state.trick)]
    for held in state.hands:
        cards.extend(held)
    assert sorted(cards) == list(state.card_slots)
    dispute = [] if state.dispute is None else [state.dispute]
    pieces = [*state.piece_pile, *dispute, *(s for held in state.pieces for s in held)]
    assert sorted(pieces) == list(state.piece_slots)
    markers = [*state.marker_pile, *state.used, *(s for held in state.markers for s in held)]
    assert sorted(markers) == list(state.marker_slots)


class Secrets:
    """What must stay hidden, worked out from the moves and the pieces' movements."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.passed: dict[int, int] = {}  # card slot -> its giver, this round
        self.round = 0
        self.moved: dict[int, set[int]] = {}  # piece slot -> the only seats that may know it
        self.seen_history = 0

    def update(self, m: Match, before: CookiesState) -> None:
        state = m.state
        if state.round != self.round:
            self.round, self.passed = state.round, {}
        for _seat, action in m.history[self.seen_history :]:
            if isinstance(action, Committed):
                for giver, choice in action.choices:
                    if isinstance(choice, PassOn):
                        self.passed[choice.left] = giver
                        self.passed[choice.right] = giver
                    elif isinstance(choice, HandOver):
                        self.passed[choice.slot] = giver
        self.seen_history = len(m.history)
        # a piece that left a holder of two or more at random (or by a Swap) is known to
        # the two seats involved only; a holder's only piece is no secret (no re-mix can
        # hide it): whoever knew it may follow it
        for victim in range(self.players):
            gone = set(before.pieces[victim]) - set(state.pieces[victim])
            for slot in gone:
                taker = next(s for s in range(self.players) if slot in state.pieces[s])
                if len(before.pieces[victim]) >= 2:
                    self.moved[slot] = {taker, victim}
                elif slot in self.moved:
                    self.moved[slot] |= {taker}
        for slot in list(self.moved):
            if not any(slot in held for held in state.pieces) or state.phase is Phase.OVER:
                del self.moved[slot]

    def check(self, m: Match) -> None:
        state = m.state
        hidden = {*state.out, *state.piece_pile, *state.marker_pile}
        for seat in [None, *range(state.players)]:
            view = m.view(seat)
            known = set(view.known)
            assert not known & hidden
            for other in range(state.players):
                if other == seat:
                    continue
                for slot in state.hands[other]:
                    if slot in known:
                        assert self.passed.get(slot) == seat, (seat, other, slot)
                assert not set(state.markers[other]) & known
            if seat is not None:
                # a seat always knows its own hand, pieces and markers
                mine = {*state.hands[seat], *state.pieces[seat], *state.markers[seat]}
                assert mine <= known, (seat, mine - known)
            for slot, allowed in self.moved.items():
                if slot in known:
                    assert seat in allowed, (seat, slot, allowed)
            for event in view.events:
                if isinstance(event, ev.MarkerEarned) and event.seat != seat:
                    assert event.kind is None
                if isinstance(event, ev.PieceTaken) and seat not in (event.taker, event.victim):
                    assert event.piece is None


def play_checked(players: int, variant: str | None, seed: int, *, leaks: bool = True) -> Match:
    options = {} if variant is None else {"variant": variant}
    m = new_match("cookies-battle", players=players, seed=seed, options=options)
    rng = random.Random(seed)
    secrets = Secrets(players)
    bot: Callable[..., Action] = random_bot
    for _ in range(20_000):
        check_conserved(m.state)
        if leaks:
            secrets.check(m)
        if m.outcome is not None:
            return m
        seat = m.to_act[0]
        view = m.view(seat)
        assert view.legal, (view.phase, seat)
        before = m.state
        m.apply(bot(view, rng), seat)
        secrets.update(m, before)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_seeded_games_end_conserve_everything_and_leak_nothing(
    players: int, variant: str | None
) -> None:
    m = play_checked(players, variant, seed=players * 10)
    state = m.state
    assert state.phase is Phase.OVER and not state.breaches
    assert sum(len(p) for p in state.pieces) == 3 * DEAL[players]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_any_seed_ends_and_conserves(table: tuple[int, str | None], seed: int) -> None:
    players, variant = table
    m = play_checked(players, variant, seed, leaks=False)
    result = m.outcome
    assert result is not None and result.winners
    if not result.shared:
        assert len(result.winners) == 1


def test_many_seeded_games_between_random_bots_end() -> None:
    for seed in range(40):
        players = 2 + seed % 5
        variant = None if players == 2 else ("standard", "beginners")[seed % 2]
        options = {} if variant is None else {"variant": variant}
        m = new_match("cookies-battle", players=players, seed=seed, options=options)
        result = m.play([random_bot] * players, random.Random(seed))
        assert result.reason in ("tummy-ache", "points")
        check_conserved(m.state)

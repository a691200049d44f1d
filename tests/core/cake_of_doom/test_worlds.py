"""Worlds drawn from a seat's view: consistent with everything the seat has seen, blind to
everything it has not, and varied where it knows nothing."""

from __future__ import annotations

import dataclasses
import functools
import random

from cakeparty.core import Match, get_game, new_match
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.game import World
from cakeparty.core.games.cake_of_doom.cards import CAKES, DOOM, REGIONS
from cakeparty.core.games.cake_of_doom.rules import units
from cakeparty.core.games.cake_of_doom.state import DoomState, Phase
from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.knowledge import Knowledge
from tests.core.cake_of_doom.helpers import VARIANTS

GAME = get_game("cake-of-doom")
# (variant, players, seed, bots): every player count and variant, random and normal play
GAMES = [
    ("basic", 3, 11, "random"),
    ("advanced", 4, 12, "random"),
    ("blind", 5, 13, "random"),
    ("advanced-blind", 6, 14, "random"),
    ("blind", 3, 15, "normal"),
    ("basic", 4, 16, "normal"),
    ("advanced", 5, 17, "normal"),
    ("advanced-blind", 4, 18, "normal"),
]


@dataclasses.dataclass(frozen=True)
class Moment:
    """A position of a seeded game as one seat sees it, with the true state and cards."""

    game: int
    kind: str
    seat: int
    state: DoomState
    truth: tuple[str, ...]
    view: DoomView


def kind_of(state: DoomState) -> str:
    """A name for the kind of moment, to show every kind is covered."""
    offer = state.offer
    if offer is not None and not offer.opened:
        return "face-down offer"
    if state.task is not None and state.task.hold is not None:
        return "hand held for a pick"
    assert state.task is not None
    return state.task.phase.value


@functools.cache
def moments() -> tuple[Moment, ...]:
    """Moments of every game of :data:`GAMES`: the first of each kind in each game and a
    few more at random, each seen by every seat."""
    out = []
    for index, (variant, players, seed, bots) in enumerate(GAMES):
        match = new_match("cake-of-doom", players=players, seed=seed, options=VARIANTS[variant])
        bot = GAME.bots[bots]
        rng = random.Random(seed)
        seen: set[str] = set()
        while match.outcome is None:
            kind = kind_of(match.state)
            if kind not in seen or rng.random() < 0.03:
                seen.add(kind)
                truth = tuple(match.dealer.truth)
                for seat in range(players):
                    view = match.view(seat)
                    out.append(Moment(index, kind, seat, match.state, truth, view))
            seat = match.to_act[0]
            match.apply(bot(match.view(seat), rng), seat)
    return tuple(out)


def check_world(world: World, view: DoomView) -> None:
    """The contract: the same view, identities as known, a permutation of the box."""
    assert view.seat is not None
    assert GAME.view(world.state, view.seat) == view
    knowledge: Knowledge = GAME.knowledge(world.state)
    for slot, name in enumerate(knowledge.cards):
        assert name is None or name == world.truth[slot]
    assert sorted(world.truth) == sorted(GAME.box(world.state))
    for slot, name in enumerate(world.truth):
        assert (slot < CAKES) == (name in GAME.box(world.state)[:CAKES])


def play_on(world: World, seed: int, moves: int | None) -> None:
    """Random bots play the world on (to the end when ``moves`` is ``None``)."""
    match = Match(GAME, world.state, LocalDealer(world.truth, seed))
    bot = GAME.bots["random"]
    rng = random.Random(seed)
    for _ in range(10_000 if moves is None else moves):
        if match.outcome is not None:
            return
        seat = match.to_act[0]
        match.apply(bot(match.view(seat), rng), seat)
    assert moves is not None, "the world never ended"


def test_a_world_shows_the_seat_exactly_its_view_and_plays_on() -> None:
    for i, moment in enumerate(moments()):
        world = GAME.determinize(moment.view, random.Random(i))
        assert world is not None
        check_world(world, moment.view)
        if i % 5 == 0:
            play_on(world, i, None if i % 100 == 0 else 12)


def test_the_moments_drawn_cover_every_game_and_every_kind() -> None:
    assert {m.game for m in moments()} == set(range(len(GAMES)))
    expected = {"play", "sabotage", "force-field", "remove", "draw", "discard", "pick"}
    assert expected | {"face-down offer", "hand held for a pick"} <= {m.kind for m in moments()}
    assert len(moments()) >= 100


def swap_unseen(state: DoomState, truth: tuple[str, ...], seat: int) -> DoomState | None:
    """``state`` with the identities of two unlike cards of one deck that ``seat`` cannot
    see swapped, or ``None`` when there are no such two."""
    known = GAME.view(state, seat).known
    for lo, hi in ((0, CAKES), (CAKES, len(truth))):
        hidden = [s for s in range(lo, hi) if s not in known]
        for a in hidden:
            for b in hidden:
                if truth[a] != truth[b] and state.knowledge.cards[a] != state.knowledge.cards[b]:
                    cards = list(state.knowledge.cards)
                    cards[a], cards[b] = cards[b], cards[a]
                    knowledge = Knowledge(tuple(cards), state.knowledge.known_by)
                    return dataclasses.replace(state, knowledge=knowledge)
    return None


def test_worlds_never_read_the_true_state() -> None:
    compared = 0
    for i, moment in enumerate(moments()):
        if i % 7:
            continue
        other = swap_unseen(moment.state, moment.truth, moment.seat)
        if other is None:
            continue
        assert other != moment.state
        view, same = GAME.view(moment.state, moment.seat), GAME.view(other, moment.seat)
        assert view == same
        first = GAME.determinize(view, random.Random(i))
        assert first == GAME.determinize(same, random.Random(i))
        assert first != GAME.determinize(view, random.Random(i + 1))
        compared += 1
    assert compared >= 20


def test_worlds_vary_the_cards_the_seat_cannot_know() -> None:
    moment = next(m for m in moments() if m.state.round >= 2)
    view = moment.view
    truths = {GAME.determinize(view, random.Random(i)).truth for i in range(20)}  # type: ignore[union-attr]
    assert len(truths) == 20
    for slot, name in view.known.items():
        assert all(t[slot] == name for t in truths)
    hidden = [s for s in range(len(moment.truth)) if s not in view.known]
    assert all(len({t[s] for t in truths}) > 1 for s in hidden)


def test_a_face_down_offer_is_drawn_worth_its_need() -> None:
    checked = 0
    for moment in moments():
        state, offer = moment.state, moment.state.offer
        if offer is None or offer.opened or moment.seat == offer.seat:
            continue
        target = offer.target
        continent = state.favourite if target == DOOM else REGIONS[target].continent
        for i in range(10):
            world = GAME.determinize(moment.view, random.Random(i))
            assert world is not None
            worth = sum(
                units(world.truth[s], continent, state.aliens[offer.seat]) for s in offer.slots
            )
            assert worth + offer.freya >= offer.need
        checked += 1
    assert checked >= 3


def test_a_view_sets_every_field_and_a_spectator_draws_no_world() -> None:
    match = new_match("cake-of-doom", players=4, seed=3)
    names = {f.name for f in dataclasses.fields(DoomView)}
    for seat in (None, 0, 1):
        assert set(vars(match.view(seat))) == names
    assert GAME.determinize(match.view(None), random.Random(0)) is None
    assert match.state.phase is not Phase.OVER

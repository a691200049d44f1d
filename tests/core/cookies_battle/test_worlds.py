"""Worlds drawn from a seat's view: they agree with the view, read nothing else, vary what
the seat cannot know, keep what the story tells (suits shown void), and play on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields

import pytest

from cakeparty.core import Match, new_match
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.game import World, bot_levels, get_game
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.bots import normal_bot, random_bot
from cakeparty.core.games.cookies_battle.cards import SUIT
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.games.cookies_battle.view import CookiesView
from cakeparty.core.games.cookies_battle.worlds import _Builder

GAME = get_game("cookies-battle")
TABLES = [(2, None), *((p, v) for p in (3, 4, 5, 6) for v in ("standard", "beginners"))]


def positions(
    players: int, variant: str | None, seed: int, every: int, normal: bool = False
) -> Iterator[Match]:
    """A seeded game between random bots (``normal``: the normal bot at seat 0) stopped
    at every ``every``-th move."""
    options = {} if variant is None else {"variant": variant}
    m = new_match("cookies-battle", players=players, seed=seed, options=options)
    rng = random.Random(seed)
    step = 0
    while m.outcome is None:
        seat = m.to_act[0]
        if step % every == 0:
            yield m
        bot = normal_bot if normal and seat == 0 else random_bot
        m.apply(bot(m.view(seat), rng), seat)
        step += 1


def draw(view: CookiesView, seed: int) -> World:
    world = GAME.determinize(view, random.Random(seed))
    assert world is not None
    return world


def check(world: World, view: CookiesView) -> None:
    """The contract of :meth:`Game.determinize` for one world."""
    assert view.seat is not None
    state = world.state
    assert GAME.view(state, view.seat) == view
    assert sorted(world.truth) == sorted(GAME.box(state))
    for slot, name in enumerate(GAME.knowledge(state).cards):
        assert name is None or name == world.truth[slot]


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_worlds_agree_with_every_seats_view(players: int, variant: str | None) -> None:
    phases = set()
    for m in positions(players, variant, seed=players, every=9):
        for seat in range(players):
            view = m.view(seat)
            phases.add(view.phase)
            check(draw(view, seat), view)
    assert {Phase.PASS, Phase.PLAY} <= phases
    if variant is not None:
        assert Phase.MARKER in phases


def test_worlds_are_drawn_in_every_window_of_a_marker() -> None:
    """The Defense window and a Swap's choice are drawn too, for the seat asked and the
    others (the marker being resolved, and the window it was used in, come back)."""
    seen = set()
    for players, variant in ((4, "standard"), (5, "beginners")):
        for seed in range(2):
            for m in positions(players, variant, seed, every=1):
                phase = m.state.phase
                if phase not in (Phase.DEFENSE, Phase.SWAP):
                    continue
                seen.add((phase, m.view(0).window.on_turn))  # type: ignore[union-attr]
                for seat in range(players):
                    view = m.view(seat)
                    check(draw(view, seed), view)
    assert {Phase.DEFENSE, Phase.SWAP} <= {phase for phase, _ in seen}
    assert {True, False} <= {on_turn for _, on_turn in seen}


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_worlds_play_on_to_an_outcome(players: int, variant: str | None) -> None:
    for i, m in enumerate(positions(players, variant, seed=20 + players, every=130)):
        seat = m.to_act[0]
        world = draw(m.view(seat), i)
        played = Match(GAME, world.state, LocalDealer(world.truth, i))
        result = played.play([random_bot] * players, random.Random(i))
        assert result.winners
        assert not played.state.breaches


def test_a_world_is_drawn_from_the_view_alone() -> None:
    """Two true games the seat cannot tell apart (two hidden cards of other hands
    swapped) give the same world for the same seed; so do a world and the game it was
    drawn from."""
    tried = 0
    for players, variant in ((3, "standard"), (4, "beginners"), (6, "standard"), (2, None)):
        for m in positions(players, variant, seed=3, every=23):
            state: CookiesState = m.state
            seat = m.to_act[0]
            hidden = [
                s
                for other, hand in enumerate(state.hands)
                if other != seat
                for s in hand
                if not state.knowledge.knows(seat, s)
            ]
            if len(hidden) < 2 or state.name(hidden[0]) == state.name(hidden[-1]):
                continue
            a, b = hidden[0], hidden[-1]
            cards = list(state.knowledge.cards)
            cards[a], cards[b] = cards[b], cards[a]
            knowledge = type(state.knowledge)(tuple(cards), state.knowledge.known_by)
            other = state.evolve(knowledge=knowledge)
            assert other != state
            view = GAME.view(state, seat)
            assert GAME.view(other, seat) == view
            for seed in range(3):
                world = draw(view, seed)
                assert draw(GAME.view(other, seat), seed) == world
                assert draw(GAME.view(world.state, seat), seed) == world
            tried += 1
    assert tried >= 8


def test_the_unknown_cards_vary_and_the_known_stay() -> None:
    for players, variant in ((2, None), (4, "standard"), (5, "beginners")):
        for m in positions(players, variant, seed=7, every=61):
            seat = m.to_act[0]
            view = m.view(seat)
            worlds = [draw(view, seed) for seed in range(12)]
            for world in worlds:
                for slot, name in view.known.items():
                    assert world.truth[slot] == name
            hidden_hands = [
                s for other, hand in enumerate(m.state.hands) if other != seat for s in hand
            ]
            unknown = [s for s in hidden_hands if s not in view.known]
            if len(unknown) > 1:
                hands = {tuple(w.truth[s] for s in hidden_hands) for w in worlds}
                assert len(hands) > (4 if len(unknown) > 3 else 1)
            pile = m.state.piece_pile
            if len(pile) > 1:
                piles = {tuple(w.truth[s] for s in pile) for w in worlds}
                assert len(piles) > (4 if len(pile) > 3 else 1)


def test_a_seat_that_showed_a_void_holds_none_of_that_suit() -> None:
    found = 0
    for players, variant in ((3, "beginners"), (4, "standard"), (6, "beginners")):
        for m in positions(players, variant, seed=5, every=7):
            seat = m.to_act[0]
            view = m.view(seat)
            voids = _Builder(view).voids()
            for other, void in enumerate(voids):
                if other == seat or not void:
                    continue
                # the true game agrees: the rules forced it
                truth = [m.dealer.card(s) for s in m.state.hands[other]]
                assert not {SUIT[c] for c in truth} & void
                found += 1
                for seed in range(4):
                    world = draw(view, seed)
                    held = [world.truth[s] for s in world.state.hands[other]]
                    assert not {SUIT[c] for c in held} & void
    assert found > 10


def test_pieces_stay_with_the_seats_that_may_hold_them() -> None:
    for players, variant in ((4, "standard"), (6, "standard")):
        for m in positions(players, variant, seed=2, every=13):
            seat = m.to_act[0]
            view = m.view(seat)
            may = _Builder(view).holders()
            for holder, held in enumerate(m.state.pieces):
                for s in held:  # the true game agrees with the story
                    assert holder in may[m.dealer.card(s)]
            world = draw(view, seat)
            for holder, held in enumerate(world.state.pieces):
                for s in held:
                    assert holder in may[world.truth[s]]


def test_a_spectator_has_no_world() -> None:
    m = new_match("cookies-battle", players=3, seed=1)
    assert GAME.determinize(m.view(None), random.Random(0)) is None


def test_the_game_can_be_searched() -> None:
    assert "strong" in bot_levels(GAME)


def test_a_view_holds_every_field_and_public_masks() -> None:
    """Views are built without the dataclass ``__init__``: every field is there; who
    may know each slot is the same for every seat (public facts)."""
    for m in positions(4, "standard", seed=1, every=50):
        views = [m.view(seat) for seat in range(4)]
        for view in views:
            assert set(vars(view)) == {f.name for f in fields(CookiesView)}
        assert len({view.known_by for view in views}) == 1


def _taken_in(view: CookiesView, seat: int) -> int:
    """How many pieces ``seat`` took from others (takes, and Swaps either way)."""
    return sum(
        1
        for e in view.events
        if (type(e) is ev.PieceTaken and e.taker == seat)
        or (type(e) is ev.Swapped and seat in (e.seat, e.target))
    )


def test_pieces_are_drawn_by_playing_the_story_forward() -> None:
    """A seat's pieces in a world are those it won, less what the story's takes moved:
    a seat holds no more pieces it did not win than pieces it took, however many seats
    may hold each piece (a breeze leaves every piece of a seat with two seats, yet moves
    one); the true game agrees. A world falls back on who may hold each piece only where
    no draw of the story fits what the seat saw (placed that way, 49 of these 310 worlds
    held more foreign pieces than takes)."""
    checked = worlds = strays = 0
    for players, seed in ((4, 2), (5, 3), (4, 11)):
        for m in positions(players, "standard", seed=seed, every=11):
            seat = m.to_act[0]
            view = m.view(seat)
            if not any(type(e) is ev.PieceTaken for e in view.events):
                continue
            builder = _Builder(view)
            won = [set(names) for names in view.won_face_up]
            for other, held in enumerate(m.state.pieces):
                foreign = [s for s in held if m.dealer.card(s) not in won[other]]
                assert len(foreign) <= _taken_in(view, other)
            for k in range(5):
                world = draw(view, k)
                worlds += 1
                for other, held in enumerate(world.state.pieces):
                    foreign = [s for s in held if world.truth[s] not in won[other]]
                    if len(foreign) > _taken_in(view, other):
                        strays += 1
                        break
            rng = random.Random(seed)
            for _ in range(10):
                drawn = builder.history(rng)
                if drawn is None:
                    continue
                checked += 1
                for (other, slots), names in zip(builder.held_groups, drawn, strict=True):
                    assert len(names) == len(slots)
                    known = [view.known[s] for s in view.pieces[other] if s in view.known]
                    foreign = [n for n in [*names, *known] if n not in won[other]]
                    assert len(foreign) <= _taken_in(view, other)
    assert checked > 50
    assert worlds == 310
    assert strays <= worlds // 40

"""What the strong bot's search knows of Cake Duel: worlds that believe the opponent as
far as it deserves, and walks judged a few turns on or at the end of the bout."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from cakeparty.core import get_game, new_match
from cakeparty.core.games.cake_duel import DuelState, DuelView, Phase
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel import search as duel_search
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.state import evolve
from cakeparty.core.games.cake_duel.worlds import ATTACK_HONESTY, honesty

GAME = get_game("cake-duel")


def views(seed: int, phase: Phase, players: int = 2) -> Iterator[DuelView]:
    """The views of the seat to act in ``phase`` met in a duel of normal bots."""
    m = new_match("cake-duel", players=players, seed=seed)
    rng = random.Random(seed)
    normal = GAME.bots["normal"]
    while m.outcome is None:
        seat = m.to_act[0]
        view = m.view(seat)
        if view.phase is phase:
            yield view
        m.apply(normal(view, rng), seat)


def honest_share(view: DuelView, draws: int) -> float:
    """How many of ``draws`` worlds from ``view`` hold the attack claimed as claimed."""
    attack = view.attack
    assert attack is not None
    honest = 0
    for s in range(draws):
        world = GAME.determinize(view, random.Random(s))
        assert world is not None
        assert GAME.view(world.state, view.seat) == view
        honest += is_truthful(attack.name, [world.truth[x] for x in attack.slots])
    return honest / draws


def test_an_attack_claimed_against_the_seat_is_mostly_dealt_as_claimed() -> None:
    # A uniform deal makes most claims lies; the opponent mostly tells the truth, and the
    # worlds a seat answers a claim in say so, while still agreeing with its view.
    shares = []
    for seed in (1, 2, 3):
        for view in views(seed, Phase.RESPOND):
            told = honesty(view)
            assert told and told[0].slots == tuple(
                s
                for s in view.attack.slots
                if s not in view.known  # type: ignore[union-attr]
            )
            if told[0].honesty > 0.9:
                shares.append(honest_share(view, 40))
            if len(shares) >= 6:
                break
    assert len(shares) >= 6
    assert sum(shares) / len(shares) > 0.8


def test_the_honesty_of_an_opponent_falls_with_each_bluff_caught() -> None:
    view = next(views(4, Phase.RESPOND))
    assert honesty(view)[0].honesty == ATTACK_HONESTY or any(
        isinstance(e, ev.Challenged) for e in view.log
    )
    assert view.seat is not None
    rival = 1 - view.seat
    caught = ev.Challenged(view.seat, rival, "wizard", (0,), ("soldier",), False)
    liar = replace(view, log=view.log + (caught,) * 4)
    assert honesty(liar)[0].honesty < honesty(view)[0].honesty


def duel(seed: int) -> Iterator[DuelState]:
    """The states of a seeded duel of normal bots."""
    m = new_match("cake-duel", players=2, seed=seed)
    rng = random.Random(seed)
    normal = GAME.bots["normal"]
    while m.outcome is None:
        yield m.state
        seat = m.to_act[0]
        m.apply(normal(m.view(seat), rng), seat)
    yield m.state


def test_a_walk_is_judged_turns_later_or_at_the_end_of_its_bout_and_not_before() -> None:
    judged = ended = 0
    for seed in range(3):
        states = list(duel(seed))
        for i, start in enumerate(states[:-1:7]):
            if start.phase is Phase.OVER or start.queue:
                continue
            for state in states[i * 7 :]:
                value = GAME.cutoff(start, state)
                over = state.bout != start.bout or state.winner is not None
                later = state.turn >= start.turn + duel_search.TURNS
                if value is None:
                    assert not over or state.winner is not None
                    continue
                assert len(value) == 2
                assert all(0.0 <= v <= 1.0 for v in value)
                assert abs(sum(value) - 1.0) < 1e-9
                if over:
                    won = next(e for e in reversed(state.events) if isinstance(e, ev.BoutWon))
                    assert value[won.side] == 1.0
                    ended += 1
                else:
                    assert later and state.phase is Phase.ATTACK and not state.queue
                    judged += 1
                break
    assert judged > 10 and ended > 0


def test_the_judge_favours_the_side_with_more_cakes() -> None:
    m = new_match("cake-duel", players=2, seed=5)
    normal = GAME.bots["normal"]
    rng = random.Random(5)
    while m.state.phase is not Phase.ATTACK or m.state.queue:
        seat = m.to_act[0]
        m.apply(normal(m.view(seat), rng), seat)
    state = m.state
    assert state.attacker is not None
    side = state.attacker % 2
    ahead = evolve(state, cakes=(5, 2) if side == 0 else (2, 5))
    behind = evolve(state, cakes=(2, 5) if side == 0 else (5, 2))
    assert duel_search.judge(ahead) > 0.6 > 0.4 > duel_search.judge(behind)

"""Cake Master engine speed: whole games per second (random bots, normal bots) at every
table size, the normal bot's decisions per second, and — where the game can be searched —
worlds drawn from a seat's view per second.

Run it from two checkouts in the same sitting to compare them (times are CPU seconds of
this process, so a loaded machine skews them less).

python bench/engine_master.py [--games N] [--normal-games N] [--decisions N] [--worlds N]
    [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from cakeparty.core import get_game, new_match

GAME = "cake-master"


def games_per_second(n: int, seed: int, players: int, bot_name: str) -> tuple[float, int]:
    """Play ``n`` whole games, every seat ``bot_name``; (games/s, actions per game)."""
    bot = get_game(GAME).bots[bot_name]
    actions = 0
    start = time.process_time()
    for i in range(n):
        m = new_match(GAME, players=players, seed=seed + i)
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return n / (time.process_time() - start), actions // n


def normal_decisions(n: int, seed: int, players: int) -> list[float]:
    """Seconds of each of ``n`` normal-bot decisions at seat 0 (its view included), every
    other seat random; decisions with one legal choice are not counted."""
    spec = get_game(GAME)
    normal, rand = spec.bots["normal"], spec.bots["random"]
    times: list[float] = []
    played = 0
    while len(times) < n:
        m = new_match(GAME, players=players, seed=seed + played)
        rng = random.Random(seed + played)
        played += 1
        while m.outcome is None and len(times) < n:
            seat = m.to_act[0]
            if seat != 0:
                m.apply(rand(m.view(seat), rng), seat)
                continue
            start = time.process_time()
            view = m.view(seat)
            action = normal(view, rng)
            spent = time.process_time() - start
            if len(view.legal) > 1:
                times.append(spent)
            m.apply(action, seat)
    return times


def worlds_per_second(n: int, seed: int, players: int) -> float | None:
    """Worlds drawn per second from the views met along seeded random games (every seat's
    view at every decision); ``None`` where the game cannot be searched."""
    spec = get_game(GAME)
    rand = spec.bots["random"]
    views = []
    m = new_match(GAME, players=players, seed=seed)
    rng = random.Random(seed)
    while m.outcome is None:
        seat = m.to_act[0]
        views.append(m.view(seat))
        m.apply(rand(views[-1], rng), seat)
    if spec.determinize(views[0], rng) is None:
        return None
    start = time.process_time()
    for i in range(n):
        spec.determinize(views[i % len(views)], rng)
    return n / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--normal-games", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"command: python bench/engine_master.py --games {args.games} --normal-games "
        f"{args.normal_games} --decisions {args.decisions} --worlds {args.worlds} "
        f"--seed {args.seed}"
    )
    print(f"python {sys.version.split()[0]}")
    for bot_name, n in (("random", args.games), ("normal", args.normal_games)):
        for players in (1, 2, 4, 6):
            rate, actions = games_per_second(n, args.seed, players, bot_name)
            print(
                f"{bot_name} bots, {players} player(s): {rate:8.1f} games/s"
                f"  ({actions} actions/game)"
            )
    for players in (1, 2, 4):
        times = sorted(normal_decisions(args.decisions, args.seed, players))
        print(
            f"normal bot, {players} player(s): {len(times) / sum(times):8.0f} decisions/s"
            f"  (median {statistics.median(times) * 1e3:.2f} ms)"
        )
    for players in (1, 2, 4, 6):
        rate = worlds_per_second(args.worlds, args.seed, players)
        shown = "cannot be searched" if rate is None else f"{rate:8.0f} worlds/s"
        print(f"worlds from a view, {players} player(s): {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

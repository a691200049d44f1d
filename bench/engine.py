"""Rules engine speed: full random duels per second, normal-bot decisions per second,
whole Cake Master games per second (random bots, normal bots), and whole Cookies Battle
games per second (random bots) with the normal bot's decisions per second, and the same for
Cake of Doom.

python bench/engine.py [--duels N] [--decisions N] [--masters N] [--cookies N] [--dooms N]
    [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from cakeparty.core import get_game, new_match


def random_duels(n: int, seed: int, players: int) -> tuple[float, int]:
    """Play ``n`` full duels between random bots; return (seconds, actions applied)."""
    bot = get_game("cake-duel").bots["random"]
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        m = new_match("cake-duel", players=players, seed=seed + i, options={"full": True})
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return time.perf_counter() - start, actions


def normal_decisions(n: int, seed: int) -> tuple[float, list[float]]:
    """Time ``n`` decisions of the normal bot (view included) in normal-vs-normal duels."""
    bot = get_game("cake-duel").bots["normal"]
    times: list[float] = []
    game = 0
    while len(times) < n:
        m = new_match("cake-duel", players=2, seed=seed + game)
        rng = random.Random(seed + game)
        game += 1
        while m.outcome is None and len(times) < n:
            seat = m.to_act[0]
            start = time.perf_counter()
            action = bot(m.view(seat), rng)
            times.append(time.perf_counter() - start)
            m.apply(action, seat)
    return sum(times), times


def master_games(n: int, seed: int, players: int, bot_name: str) -> tuple[float, int]:
    """Play ``n`` whole Cake Master games, every seat ``bot_name``; (seconds, actions)."""
    bot = get_game("cake-master").bots[bot_name]
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        m = new_match("cake-master", players=players, seed=seed + i)
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return time.perf_counter() - start, actions


def random_games(game: str, n: int, seed: int, players: int) -> tuple[float, int]:
    """Play ``n`` whole games of ``game`` between random bots; (seconds, actions)."""
    bot = get_game(game).bots["random"]
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        m = new_match(game, players=players, seed=seed + i)
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return time.perf_counter() - start, actions


def bot_decisions(game: str, n: int, seed: int, players: int) -> tuple[float, list[float]]:
    """Time ``n`` decisions of ``game``'s normal bot at seat 0 (view included) with every
    other seat random; decisions with one legal action are not counted."""
    spec = get_game(game)
    normal, rand = spec.bots["normal"], spec.bots["random"]
    times: list[float] = []
    played = 0
    while len(times) < n:
        m = new_match(game, players=players, seed=seed + played)
        rng = random.Random(seed + played)
        played += 1
        while m.outcome is None and len(times) < n:
            seat = m.to_act[0]
            if seat != 0:
                m.apply(rand(m.view(seat), rng), seat)
                continue
            start = time.perf_counter()
            view = m.view(seat)
            action = normal(view, rng)
            spent = time.perf_counter() - start
            if len(view.legal) > 1:
                times.append(spent)
            m.apply(action, seat)
    return sum(times), times


def game_report(
    title: str, game: str, games: int, decisions: int, seed: int, sizes: tuple[tuple[int, ...], ...]
) -> None:
    """Print ``game``'s lines: random games/s at the player counts ``sizes[0]``, and the
    normal bot's decisions/s at ``sizes[1]``."""
    for players in sizes[0]:
        seconds, actions = random_games(game, games, seed, players)
        print(
            f"{title}, random bots, {players} players: {games / seconds:8.1f} games/s"
            f"  ({actions / seconds:,.0f} actions/s, {actions / games:.0f} actions/game)"
        )
    for players in sizes[1]:
        total, times = bot_decisions(game, decisions, seed, players)
        times.sort()
        print(
            f"{title}, normal bot, {players} players: {len(times) / total:8.0f} decisions/s"
            f"  (median {statistics.median(times) * 1e3:.2f} ms,"
            f" p99 {times[int(0.99 * len(times))] * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--masters", type=int, default=100)
    parser.add_argument("--cookies", type=int, default=100)
    parser.add_argument("--dooms", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"command: python bench/engine.py --duels {args.duels} --decisions {args.decisions} "
        f"--masters {args.masters} --cookies {args.cookies} --dooms {args.dooms} --seed {args.seed}"
    )
    print(f"python {sys.version.split()[0]}")
    for players in (2, 4):
        seconds, actions = random_duels(args.duels, args.seed, players)
        print(
            f"random duels, {players} players, full game: {args.duels / seconds:8.0f} duels/s"
            f"  ({actions / seconds:,.0f} actions/s, {actions / args.duels:.0f} actions/duel)"
        )
    total, times = normal_decisions(args.decisions, args.seed)
    times.sort()
    print(
        f"normal bot, 2 players:           {len(times) / total:8.0f} decisions/s"
        f"  (median {statistics.median(times) * 1e3:.2f} ms,"
        f" p99 {times[int(0.99 * len(times))] * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms)"
    )
    for bot_name in ("random", "normal"):
        for players in (1, 2, 4, 6):
            seconds, actions = master_games(args.masters, args.seed, players, bot_name)
            print(
                f"cake master, {bot_name:<6} bots, {players} player(s): "
                f"{args.masters / seconds:8.1f} games/s"
                f"  ({actions / seconds:,.0f} actions/s, {actions / args.masters:.0f} actions/game)"
            )
    game_report(
        "cookies battle",
        "cookies-battle",
        args.cookies,
        args.decisions,
        args.seed,
        ((2, 4, 6), (2, 4)),
    )
    game_report(
        "cake of doom", "cake-of-doom", args.dooms, args.decisions, args.seed, ((3, 6), (3, 6))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

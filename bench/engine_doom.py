"""Cake of Doom engine speed: whole random games per second, normal-bot decisions per
second (view included), and worlds drawn from a view per second (where the game can draw
them).

python bench/engine_doom.py [--games N] [--decisions N] [--worlds N] [--seed S] [--repeat R]

The figures are the best of ``--repeat`` runs, so a busy machine disturbs them less; run
it from two checkouts in one sitting to compare them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import bot_decisions, random_games

from cakeparty.core import get_game, new_match

GAME = "cake-of-doom"


def positions(n: int, seed: int, players: int) -> list[object]:
    """``n`` views of seats about to choose, from seeded random games."""
    bot = get_game(GAME).bots["random"]
    out: list[object] = []
    played = 0
    while len(out) < n:
        m = new_match(GAME, players=players, seed=seed + played)
        rng = random.Random(seed + played)
        played += 1
        while m.outcome is None and len(out) < n:
            seat = m.to_act[0]
            view = m.view(seat)
            if rng.random() < 0.1:
                out.append(view)
            m.apply(bot(view, rng), seat)
    return out


def worlds(n: int, seed: int, players: int) -> float | None:
    """Worlds drawn per second from ``n`` positions, or ``None`` if the game draws none."""
    game = get_game(GAME)
    views = positions(n, seed, players)
    rng = random.Random(seed)
    start = time.perf_counter()
    for view in views:
        if game.determinize(view, rng) is None:
            return None
    return n / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"command: python bench/engine_doom.py --games {args.games} --decisions "
        f"{args.decisions} --worlds {args.worlds} --seed {args.seed} --repeat {args.repeat}"
    )
    print(f"python {sys.version.split()[0]}")
    for players in (3, 6):
        best = min(
            random_games(GAME, args.games, args.seed, players)[0] for _ in range(args.repeat)
        )
        print(f"cake of doom, random bots, {players} players: {args.games / best:8.1f} games/s")
    for players in (3, 6):
        runs = [bot_decisions(GAME, args.decisions, args.seed, players) for _ in range(args.repeat)]
        total, times = min(runs, key=lambda r: r[0])
        print(
            f"cake of doom, normal bot, {players} players: {len(times) / total:8.0f} decisions/s"
            f"  (median {statistics.median(times) * 1e3:.2f} ms)"
        )
    for players in (3, 6):
        rates = [worlds(args.worlds, args.seed, players) for _ in range(args.repeat)]
        if rates[0] is None:
            print(f"cake of doom, worlds, {players} players: not drawn")
            continue
        print(
            f"cake of doom, worlds, {players} players: {max(r or 0.0 for r in rates):8.0f} worlds/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

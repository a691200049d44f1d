"""Cake Duel engine speed alone: full random duels per second (2 and 4 players), the normal
bot's decisions per second, and worlds drawn from a seat's view per second (what a
searching bot needs once per iteration).

The duel figures are measured exactly as in ``bench/engine.py``. Run it with the Python of
another checkout to compare two engines in one sitting, e.g.::

    ../base/.venv/bin/python bench/engine_duel.py --rounds 3
    .venv/bin/python bench/engine_duel.py --rounds 3

python bench/engine_duel.py [--duels N] [--decisions N] [--worlds N] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import normal_decisions, random_duels

import cakeparty.core
from cakeparty.core import get_game, new_match
from cakeparty.core.game import Game


def views(n: int, seed: int) -> list[Any]:
    """``n`` views of the seat to act, taken along seeded normal-vs-random duels."""
    spec = get_game("cake-duel")
    bots = [spec.bots["normal"], spec.bots["random"]]
    out: list[Any] = []
    game = 0
    while len(out) < n:
        players = 2 if game % 2 == 0 else 4
        m = new_match("cake-duel", players=players, seed=seed + game, options={"full": True})
        rng = random.Random(seed + game)
        game += 1
        while m.outcome is None and len(out) < n:
            seat = m.to_act[0]
            view = m.view(seat)
            out.append(view)
            m.apply(bots[seat % 2](view, rng), seat)
    return out


def worlds(sample: list[Any], per_view: int, seed: int) -> tuple[float, int]:
    """Draw ``per_view`` worlds from each view; (seconds, worlds drawn)."""
    spec = get_game("cake-duel")
    rng = random.Random(seed)
    start = time.perf_counter()
    drawn = 0
    for view in sample:
        for _ in range(per_view):
            spec.determinize(view, rng)
            drawn += 1
    return time.perf_counter() - start, drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=500)
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--worlds", type=int, default=500, help="views to draw worlds from")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"command: python bench/engine_duel.py --duels {args.duels} --decisions "
        f"{args.decisions} --worlds {args.worlds} --rounds {args.rounds} --seed {args.seed}"
    )
    print(f"python {sys.version.split()[0]}, engine at {Path(cakeparty.core.__file__).parent}")
    searchable = type(get_game("cake-duel")).determinize is not Game.determinize
    sample = views(args.worlds, args.seed) if searchable else []
    for r in range(args.rounds):
        line = [f"round {r + 1}:"]
        for players in (2, 4):
            seconds, _ = random_duels(args.duels, args.seed, players)
            line.append(f"random {players}p {args.duels / seconds:7.0f} duels/s")
        total, times = normal_decisions(args.decisions, args.seed)
        line.append(
            f"normal {len(times) / total:7.0f} decisions/s"
            f" (median {statistics.median(times) * 1e3:.3f} ms)"
        )
        if sample:
            # a fresh view each time, and many worlds from one view (as a search draws them)
            seconds, drawn = worlds(sample, 1, args.seed)
            line.append(f"worlds {drawn / seconds:6.0f}/s fresh view")
            seconds, drawn = worlds(sample[: max(1, len(sample) // 10)], 50, args.seed)
            line.append(f"{drawn / seconds:6.0f}/s same view")
        print("  ".join(line))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

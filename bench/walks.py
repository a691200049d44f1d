"""How many walks the ``strong`` bot's search finishes per decision, in each game.

A search is only as good as the walks it makes: this bench takes real decisions from
seeded games of normal bots (seat 0, every few moves), searches each with the strong bot's
own settings and a budget of ``--think`` seconds of CPU time, and prints the median,
quartiles and extremes of the walks finished (a paired search walks every weighed move in
each world it draws), and how many moves were weighed.

python bench/walks.py [--think 0.1] [--games 2] [--seed 1] [--only GAME ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine import header  # bench/engine.py, beside this file

from cakeparty.core import get_game, new_match
from cakeparty.core.game import SEARCH_LEVEL, bot_levels
from cakeparty.core.search import Budget, search

TABLES = (("cake-duel", 2), ("cake-master", 2), ("cookies-battle", 4), ("cake-of-doom", 4))
EVERY = 7  # one decision of seat 0 in every this many moves


def walks(name: str, players: int, think: float, games: int, seed: int) -> list[tuple[int, int]]:
    """(walks finished, moves weighed) of the decisions met."""
    game = get_game(name)
    normal = game.bots["normal"]
    found = []
    for index in range(games):
        match = new_match(name, players=players, seed=seed + index)
        rng = random.Random(seed + index)
        step = 0
        while match.outcome is None:
            seat = match.to_act[0]
            view = match.view(seat)
            if seat == 0 and len(view.legal) > 1 and step % EVERY == 0:
                settings = dict(game.search_settings(view))
                budget = Budget(seconds=think, clock=time.thread_time, **settings)
                result = search(game, view, random.Random(step), budget)
                # a paired search walks every weighed move in each world it draws
                each = len(result.visits) if budget.paired else 1
                found.append((result.iterations * each, len(result.visits)))
            step += 1
            match.apply(normal(view, rng), seat)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, metavar="GAME")
    args = parser.parse_args()
    only = f" --only {' '.join(args.only)}" if args.only else ""
    header(
        f"python bench/walks.py --think {args.think:g} --games {args.games}"
        f" --seed {args.seed}{only}"
    )
    for name, players in TABLES:
        if args.only and name not in args.only:
            continue
        if SEARCH_LEVEL not in bot_levels(get_game(name)):
            print(f"{name}: cannot be searched; left out")
            continue
        found = walks(name, players, args.think, args.games, args.seed)
        counts = sorted(n for n, _ in found)
        weighed = sorted(m for _, m in found)
        q1, median, q3 = statistics.quantiles(counts, n=4) if len(counts) > 1 else counts * 3
        print(
            f"{name} ({players} players): {len(found)} decisions; walks per decision"
            f" median {median:g} (quartiles {q1:g}–{q3:g}, min {counts[0]}, max {counts[-1]});"
            f" moves weighed median {statistics.median(weighed):g}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

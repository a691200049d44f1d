"""Fit the strong Cookies Battle bot's judgement of a table on games of normal bots.

The search ends its walks at the end of a trick and judges the table there
(:func:`cakeparty.core.games.cookies_battle.search.evaluate`): every seat's final score is a
normal guess around its score now plus its share of the pieces still to be won, and the
chances of the winning place follow. This script plays ``--games`` 4-player games of
``normal`` bots, records every table at the end of a trick with the game's winners, and
finds the settings of that guess (:data:`~cakeparty.core.games.cookies_battle.search.JUDGE`)
under which the winners were likeliest: the markers' share kept, the weight of the cards
in hand on this round's pieces, and the spreads. It prints the log-likelihood of the
settings in the module and of the fitted ones.

python bench/fit_cookies.py [--games 600] [--seed 7] [--jobs 2] [--cache FILE]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pickle
import random
import time
from collections.abc import Sequence
from pathlib import Path

from cakeparty.core.games.cookies_battle import search
from cakeparty.core.games.cookies_battle.bots import normal_bot
from cakeparty.core.match import new_match
from cakeparty.core.simulate import game_seed

PLAYERS = 4
#: a table at the end of a trick, and the seats that won its game
Record = tuple[search.Standing, tuple[int, ...]]


def play(seed: int) -> list[Record]:
    """The tables at the end of every trick of one game of normal bots, each with the
    game's winners."""
    match = new_match("cookies-battle", players=PLAYERS, seed=seed)
    rng = random.Random(seed)
    tables: list[search.Standing] = []
    won = 0
    while match.outcome is None:
        seat = match.to_act[0]
        match.apply(normal_bot(match.view(seat), rng), seat)
        now = sum(match.state.tricks_won)
        if now != won:
            won = now
            if match.outcome is None:
                tables.append(search.table(match.state))
    outcome = match.outcome
    assert outcome is not None
    return [(t, tuple(outcome.winners)) for t in tables]


#: the records a fitting process judges (set once per process)
_MINE: list[Record] = []


def _keep(records: Sequence[Record]) -> None:
    _MINE[:] = records


def _log_chances(job: tuple[int, int, search.Judge]) -> float:
    start, step, judge = job
    total = 0.0
    for table, winners in _MINE[start::step]:
        chances = search.chances(table, judge)
        total += math.log(max(1e-9, sum(chances[w] for w in winners)))
    return total


class Likelihood:
    """The mean log chance a judgement gives the seats that won, worked out on ``jobs``
    processes."""

    def __init__(self, records: Sequence[Record], jobs: int) -> None:
        self.count = len(records)
        self.jobs = jobs
        self.pool = multiprocessing.Pool(jobs, _keep, (records,))

    def __call__(self, judge: search.Judge) -> float:
        jobs = [(i, self.jobs, judge) for i in range(self.jobs)]
        return float(sum(self.pool.map(_log_chances, jobs))) / self.count


def fit(likelihood: Likelihood) -> search.Judge:
    """Coordinate search over the judgement's settings, from the module's."""
    judge = search.JUDGE
    best = likelihood(judge)
    steps = {"keep": 0.2, "hand": 0.5, "floor": 1.0, "scale": 0.3, "lead": 0.05}
    for _ in range(6):
        improved = False
        for name, step in steps.items():
            for sign in (1, -1):
                while True:
                    value = getattr(judge, name) + sign * step
                    if value < 0 and name != "lead":
                        break
                    trial = judge.but(**{name: round(value, 4)})
                    score = likelihood(trial)
                    if score <= best:
                        break
                    judge, best, improved = trial, score, True
                    print(f"  {judge}: {best:.5f}", flush=True)
        if not improved:
            steps = {k: v / 2 for k, v in steps.items()}
    return judge


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", help="keep the tables played in this file, and read them")
    args = parser.parse_args()
    started = time.perf_counter()
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        records: list[Record] = pickle.loads(cache.read_bytes())
    else:
        with multiprocessing.Pool(args.jobs) as pool:
            games = pool.map(play, seeds, chunksize=16)
        records = [r for game in games for r in game]
        if cache is not None:
            cache.write_bytes(pickle.dumps(records))
    seconds = time.perf_counter() - started
    print(f"{len(records)} tables from {args.games} games in {seconds:.0f} s", flush=True)
    likelihood = Likelihood(records, args.jobs)
    print(f"module's judgement {search.JUDGE}: {likelihood(search.JUDGE):.4f}", flush=True)
    fitted = fit(likelihood)
    print(f"fitted judgement {fitted}: {likelihood(fitted):.4f}")
    print(f"chance alone: {math.log(1 / PLAYERS):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

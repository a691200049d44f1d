"""How strong the ``strong`` bot is: its share of wins against ``normal`` bots, and what the
app's default budget buys over a short one.

The issue's measurements: 2-player Cake Duel and Cake Master (``strong,normal``), 4-player
Cookies Battle and Cake of Doom (``strong,normal,normal,normal``; chance is 25 %), at
``--think`` seconds per strong decision. Then (``--default-games`` games, fewer: each is
ten times slower) the bot at the app's default budget against itself at ``--think``
(``strong@1,strong@0.1``, with normal bots in the other seats of a 4-player game): more
time should win more. With ``--default-rival normal`` the default budget plays the normal
bots instead, in the seats of the runs above, and ``--default-games`` games of those runs
are played again at ``--think`` beside it: the same games, so the two shares compare
directly. Each line names the ``cakeparty simulate`` command that gives the
same figures, and the game's own figures per bot follow. ``--games 0`` plays only the
runs at the default budget. A game that cannot be searched yet is named and left out.

python bench/strength.py [--games 200] [--think 0.1] [--seed 1] [--default-games 20]
    [--default-rival short|normal] [--only GAME ...] [--jobs N]
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import time
from collections.abc import Callable
from typing import Any

from engine import header  # bench/engine.py, beside this file

from cakeparty.core import get_game
from cakeparty.core.game import DEFAULT_THINK, SEARCH_LEVEL, bot_levels
from cakeparty.core.simulate import Report, simulate

TABLES = (
    ("cake-duel", 2, 0.60),
    ("cake-master", 2, 0.60),
    ("cookies-battle", 4, 0.40),
    ("cake-of-doom", 4, 0.40),
)


def part(game: str, bots: list[str], think: float, games: int, seed: int, first: int) -> Report:
    """The games ``first`` … ``first + games - 1`` of the run (one process's share)."""
    return simulate(
        game, games=games, seed=seed, bots=bots, players=len(bots), think=think, first=first
    )


def in_parts(
    run: Callable[..., Report], head: tuple[Any, ...], games: int, seed: int, jobs: int
) -> Report:
    """The games 0 … ``games`` − 1 of a run split in ``jobs`` runs of consecutive games, one
    per process (the same games as one run: a strong bot thinks on its own thread's CPU
    time either way), each ``run(*head, count, seed, first)``; their reports added."""
    cuts = [games * i // jobs for i in range(jobs + 1)]
    parts = [(*head, b - a, seed, a) for a, b in itertools.pairwise(cuts) if b > a]
    if len(parts) == 1:
        return run(*parts[0])
    with multiprocessing.Pool(len(parts)) as pool:
        reports = pool.starmap(run, parts)
    report = reports[0]
    for other in reports[1:]:
        report.add(other)
    return report


def measure(
    game: str,
    bots: list[str],
    think: float,
    games: int,
    seed: int,
    goal: float | None,
    jobs: int = 1,
) -> None:
    """Play the run and print its figures: the first bot's share of the wins against
    ``goal``, or (``goal`` ``None``) whether it won more than the second bot."""
    players = len(bots)
    command = (
        f"cakeparty simulate {game} --players {players} --bots {','.join(bots)}"
        f" --think {think:g} --games {games} --seed {seed} --json"
    )
    started = time.perf_counter()
    report = in_parts(part, (game, bots, think), games, seed, jobs)
    seconds = time.perf_counter() - started
    data = report.as_json()
    first, second = report.labels[0], report.labels[1]
    wins = data["wins"][first]
    played = games - report.errors
    share = wins / played if played else 0.0
    if goal is None:
        rival = data["wins"][second]
        verdict = "stronger than" if wins > rival else "not stronger than"
        outcome = f"{first} wins {wins}, {second} {rival} of {played}: {verdict} {second}"
    else:
        verdict = "meets" if share >= goal else "misses"
        outcome = (
            f"{first} wins {wins}/{played} = {100 * share:.1f} %  ({verdict} the goal of"
            f" {100 * goal:.0f} %)"
        )
    print(f"$ {command}")
    tell(outcome, report, seconds)


def tell(outcome: str, report: Report, seconds: float) -> None:
    """Print a run's ``outcome`` with its shared wins, errors and decision times, then the
    game's own figures per bot and the first failures."""
    data = report.as_json()
    print(
        f"  {outcome}, shared {report.shared}, errors {report.errors};"
        f" decision median {data.get('strong_ms_median', 0)} ms,"
        f" p95 {data.get('strong_ms_p95', 0)} ms; {seconds:.0f} s",
        flush=True,
    )
    for line in report.figure_lines():
        print(line)
    for failure in report.failures[:3]:
        print(f"  ! {failure}")


def default_runs(
    players: int, goal: float | None, think: float, rival: str
) -> list[tuple[list[str], float | None]]:
    """The runs of the default budget, each its bots and its goal: against the normal bots
    (``rival`` "normal"), the short budget then in the same games; else against the short
    budget, the other seats (if any) normal, with no goal."""
    normals = ["normal"] * (players - 1)
    if rival == "normal":
        return [([f"{SEARCH_LEVEL}@{t:g}", *normals], goal) for t in (DEFAULT_THINK, think)]
    budgets = [f"{SEARCH_LEVEL}@{DEFAULT_THINK:g}", f"{SEARCH_LEVEL}@{think:g}"]
    return [([*budgets, *normals[1:]], None)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="0: skip the runs against normal")
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--default-games", type=int, default=20, help="0: skip that run")
    parser.add_argument(
        "--default-rival",
        choices=("short", "normal"),
        default="short",
        help="what the default budget plays: itself at --think, or the normal bots",
    )
    parser.add_argument("--only", nargs="*", default=None, metavar="GAME")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes sharing each run's games (default 1)"
    )
    args = parser.parse_args()
    only = f" --only {' '.join(args.only)}" if args.only else ""
    header(
        f"python bench/strength.py --games {args.games} --think {args.think:g}"
        f" --seed {args.seed} --default-games {args.default_games}"
        f" --default-rival {args.default_rival}{only} --jobs {args.jobs}"
    )
    jobs = max(1, args.jobs)
    tables = []
    for game, players, goal in TABLES:
        if args.only and game not in args.only:
            continue
        if SEARCH_LEVEL not in bot_levels(get_game(game)):
            print(f"{game}: cannot be searched yet (no determinize); left out")
            continue
        tables.append((game, players, goal))
    if args.games > 0:
        for game, players, goal in tables:
            bots = [SEARCH_LEVEL] + ["normal"] * (players - 1)
            measure(game, bots, args.think, args.games, args.seed, goal, jobs)
    if args.default_games > 0:
        for game, players, goal in tables:
            for bots, aim in default_runs(players, goal, args.think, args.default_rival):
                measure(game, bots, args.think, args.default_games, args.seed, aim, jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

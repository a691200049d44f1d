"""Rules engine speed of the four games, on this tree or against a git ref.

For each game: whole games per second between random bots (and, for Cake Master, normal
bots), the normal bot's decisions per second (view included), and worlds drawn per second
from a seat's view (what a search draws once per iteration), once from each of many views
(fresh view) and many times from each of a few (same view).

python bench/engine.py [--only GAME ...] [--duels N] [--decisions N] [--masters N]
    [--normal-masters N] [--master-decisions N] [--cookies N] [--dooms N] [--worlds N]
    [--seed S] [--clock wall|cpu] [--repeat K] [--baseline REF]

``--clock cpu`` counts this process's CPU seconds instead of wall-clock seconds (steadier
on a machine shared with other work); ``--repeat K`` runs the whole bench ``K`` times and
keeps each figure's best run. With ``--baseline REF`` the same bench runs on the engine of
the git ref ``REF`` (checked out in a temporary worktree and imported, in a Python started
without site-packages, ahead of anything installed) and on this tree's, ``K`` times each in
turn, and prints the best figure of each side by side with their ratio. A game that cannot
be searched (no ``determinize``) gives no worlds figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cakeparty.core import get_game, new_match

GAMES = ("cake-duel", "cake-master", "cookies-battle", "cake-of-doom")
TITLES = {
    "cake-duel": "cake duel",
    "cake-master": "cake master",
    "cookies-battle": "cookies battle",
    "cake-of-doom": "cake of doom",
}
OPTIONS: dict[str, dict[str, Any]] = {"cake-duel": {"full": True}}
SAME_VIEW = 50  # worlds drawn from each view of the "same view" figure
COUNTS = (  # how much each figure measures: option, default, what it counts
    ("--duels", 2000, "random duels"),
    ("--decisions", 5000, "normal-bot decisions timed in Cake Duel, Cookies Battle, Cake of Doom"),
    ("--masters", 100, "random Cake Master games"),
    ("--normal-masters", None, "Cake Master games between normal bots (default: --masters)"),
    ("--master-decisions", 300, "normal-bot decisions timed in Cake Master (5-20 ms each)"),
    ("--cookies", 100, "random Cookies Battle games"),
    ("--dooms", 50, "random Cake of Doom games"),
    ("--worlds", 500, f"views to draw worlds from, a tenth {SAME_VIEW} times each (0: none)"),
)

clock: Callable[[], float] = time.perf_counter  # --clock cpu: time.process_time

Figure = tuple[str, float | None, str, str]  # label, rate (None: not measured), unit, note


def header(command: str) -> None:
    """The first lines of a bench's output: the command that gives the figures, and the
    Python (and engine) that ran it."""
    import cakeparty.core

    print(f"command: {command}")
    print(f"python {sys.version.split()[0]}, engine at {Path(cakeparty.core.__file__).parent}")


# -- measures ------------------------------------------------------------------------------


def whole_games(game: str, n: int, seed: int, players: int, bot_name: str) -> tuple[float, int]:
    """Play ``n`` whole games of ``game``, every seat ``bot_name``; (seconds, actions)."""
    bot = get_game(game).bots[bot_name]
    actions = 0
    start = clock()
    for i in range(n):
        m = new_match(game, players=players, seed=seed + i, options=OPTIONS.get(game))
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return clock() - start, actions


def bot_decisions(game: str, n: int, seed: int, players: int, rival: str) -> list[float]:
    """Seconds of ``n`` decisions of ``game``'s normal bot at seat 0 (view included), every
    other seat ``rival``; decisions with one legal action are not counted."""
    spec = get_game(game)
    normal, other = spec.bots["normal"], spec.bots[rival]
    times: list[float] = []
    played = 0
    while len(times) < n:
        m = new_match(game, players=players, seed=seed + played)
        rng = random.Random(seed + played)
        played += 1
        while m.outcome is None and len(times) < n:
            seat = m.to_act[0]
            if seat != 0:
                m.apply(other(m.view(seat), rng), seat)
                continue
            start = clock()
            view = m.view(seat)
            action = normal(view, rng)
            spent = clock() - start
            if len(view.legal) > 1:
                times.append(spent)
            m.apply(action, seat)
    return times


def views(game: str, n: int, seed: int, players: int) -> list[Any]:
    """``n`` views of seats about to act, about one in ten taken along seeded games between
    random bots (so they spread over every phase of a game)."""
    bot = get_game(game).bots["random"]
    out: list[Any] = []
    played = 0
    while len(out) < n:
        m = new_match(game, players=players, seed=seed + played, options=OPTIONS.get(game))
        rng = random.Random(seed + played)
        played += 1
        while m.outcome is None and len(out) < n:
            seat = m.to_act[0]
            view = m.view(seat)
            if rng.random() < 0.1:
                out.append(view)
            m.apply(bot(view, rng), seat)
    return out


def worlds(game: str, sample: list[Any], per_view: int, seed: int) -> tuple[float, int] | None:
    """Draw ``per_view`` worlds from each view of ``sample``; (seconds, worlds drawn), or
    ``None`` where ``game`` cannot be searched."""
    draw = getattr(get_game(game), "determinize", None)
    rng = random.Random(seed)
    if draw is None or draw(sample[0], rng) is None:
        return None
    drawn = 0
    start = clock()
    for view in sample:
        for _ in range(per_view):
            draw(view, rng)
            drawn += 1
    return clock() - start, drawn


# -- figures -------------------------------------------------------------------------------


def games_figure(game: str, n: int, seed: int, players: int, bot_name: str) -> Figure:
    seconds, actions = whole_games(game, n, seed, players, bot_name)
    full = ", full game" if OPTIONS.get(game, {}).get("full") else ""
    return (
        f"{TITLES[game]}, {bot_name} bots, {players} player(s){full}",
        n / seconds,
        "games/s",
        f"{actions / seconds:,.0f} actions/s, {actions / n:.0f} actions/game",
    )


def decisions_figure(game: str, n: int, seed: int, players: int, rival: str) -> Figure:
    times = sorted(bot_decisions(game, n, seed, players, rival))
    return (
        f"{TITLES[game]}, normal bot vs {rival}, {players} player(s)",
        len(times) / sum(times),
        "decisions/s",
        f"median {statistics.median(times) * 1e3:.2f} ms,"
        f" p99 {times[int(0.99 * len(times))] * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms",
    )


def worlds_figures(game: str, n: int, seed: int, players: int) -> list[Figure]:
    """Worlds/s from each of ``n`` views once (fresh view), and ``SAME_VIEW`` times from
    each of a tenth of them (same view, as a search draws them)."""
    sample = views(game, n, seed, players)
    label = f"{TITLES[game]}, worlds, {players} player(s)"
    fresh = worlds(game, sample, 1, seed)
    if fresh is None:
        note = "cannot be searched (no determinize)"
        return [(f"{label}, {kind} view", None, "worlds/s", note) for kind in ("fresh", "same")]
    same = worlds(game, sample[: max(1, n // 10)], SAME_VIEW, seed)
    assert same is not None
    return [
        (f"{label}, fresh view", fresh[1] / fresh[0], "worlds/s", f"1 world from each of {n}"),
        (
            f"{label}, same view",
            same[1] / same[0],
            "worlds/s",
            f"{SAME_VIEW} worlds from each of {max(1, n // 10)}",
        ),
    ]


def game_figures(game: str, args: argparse.Namespace) -> Iterator[Figure]:
    """``game``'s figures, in order."""
    seed = args.seed
    if game == "cake-duel":
        for players in (2, 4):
            yield games_figure(game, args.duels, seed, players, "random")
        yield decisions_figure(game, args.decisions, seed, 2, "normal")
        sizes: tuple[int, ...] = (2, 4)
    elif game == "cake-master":
        for players in (1, 2, 4, 6):
            yield games_figure(game, args.masters, seed, players, "random")
        normal_games = args.masters if args.normal_masters is None else args.normal_masters
        for players in (1, 2, 4, 6):
            yield games_figure(game, normal_games, seed, players, "normal")
        for players in (1, 2, 4):
            yield decisions_figure(game, args.master_decisions, seed, players, "random")
        sizes = (1, 2, 4, 6)
    elif game == "cookies-battle":
        for players in (2, 4, 6):
            yield games_figure(game, args.cookies, seed, players, "random")
        for players in (2, 4):
            yield decisions_figure(game, args.decisions, seed, players, "random")
        sizes = (2, 4, 6)
    else:
        for players in (3, 6):
            yield games_figure(game, args.dooms, seed, players, "random")
        for players in (3, 6):
            yield decisions_figure(game, args.decisions, seed, players, "random")
        sizes = (3, 6)
    for players in sizes if args.worlds > 0 else ():
        yield from worlds_figures(game, args.worlds, seed, players)


def figures(args: argparse.Namespace) -> list[Figure]:
    """Every figure of the bench, in order: the chosen games', in the order of ``GAMES``."""
    return [row for game in GAMES if game in args.only for row in game_figures(game, args)]


def best(runs: list[list[Figure]]) -> list[Figure]:
    """Each figure's best (highest) rate among runs of the same bench."""

    def rate(row: Figure) -> float:
        return -1.0 if row[1] is None else row[1]

    return [max(rows, key=rate) for rows in zip(*runs, strict=True)]


def _rate(rate: float | None, width: int) -> str:
    return f"{'—':>{width}}" if rate is None else f"{rate:>{width}.1f}"


# -- against a git ref ---------------------------------------------------------------------

PACKAGES = ("core", "protocol", "broker", "tui")


def _shim(tree: Path, into: Path) -> Path:
    """A directory whose ``cakeparty`` package is ``tree``'s folders, to put first on the
    path of a Python started without site-packages (the engine needs none)."""
    package = into / "cakeparty"
    package.mkdir(parents=True)
    for name in PACKAGES:
        if (tree / name).is_dir():
            (package / name).symlink_to(tree / name, target_is_directory=True)
    return into


def _run(shim: Path, passed: list[str]) -> list[Figure]:
    env = {**os.environ, "PYTHONPATH": str(shim)}
    done = subprocess.run(
        [sys.executable, "-S", __file__, "--json-lines", *passed],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the bench failed under {shim}:\n{done.stderr}")
    return [tuple(row) for row in json.loads(done.stdout.splitlines()[-1])]  # type: ignore[misc]


def against(ref: str, repeat: int, passed: list[str]) -> None:
    """Run the bench on ``ref`` (a temporary worktree) and on this tree, alternating
    ``repeat`` times, and print the best of each figure side by side."""
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="cakeparty-bench-") as tmp:
        base = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(base), ref],
            check=True,
        )
        try:
            shims = [_shim(base, Path(tmp) / "base"), _shim(here, Path(tmp) / "here")]
            runs: list[list[list[Figure]]] = [[], []]
            for _ in range(repeat):
                for side, shim in enumerate(shims):
                    runs[side].append(_run(shim, passed))
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(base)], check=False
            )
    old_rows, new_rows = best(runs[0]), best(runs[1])
    width = max(len(row[0]) for row in new_rows)
    print(f"{'':<{width}}  {ref:>12}  {'this tree':>12}  ratio")
    for old, new in zip(old_rows, new_rows, strict=True):
        ratio = f"{new[1] / old[1]:5.2f}x" if old[1] and new[1] else f"{'—':>6}"
        print(f"{new[0]:<{width}}  {_rate(old[1], 12)}  {_rate(new[1], 12)}  {ratio}  {new[2]}")


def main() -> int:
    global clock
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=GAMES,
        default=list(GAMES),
        metavar="GAME",
        help=f"these games only, of {', '.join(GAMES)} (default: all)",
    )
    for flag, default, what in COUNTS:
        parser.add_argument(flag, type=int, default=default, metavar="N", help=what)
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="cpu: count this process's CPU time only (steadier on a shared machine)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="K", help="runs of the bench; best of each kept"
    )
    parser.add_argument("--baseline", metavar="REF", help="also run the bench on this git ref")
    parser.add_argument("--json-lines", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clock == "cpu":
        clock = time.process_time
    passed = ["--only", *args.only]
    for flag, _, _ in COUNTS:
        value = getattr(args, flag[2:].replace("-", "_"))
        if value is not None:
            passed.append(f"{flag}={value}")
    passed += [f"--seed={args.seed}", f"--clock={args.clock}"]
    if args.json_lines:
        print(json.dumps(figures(args)))
        return 0
    baseline = f" --baseline {args.baseline}" if args.baseline else ""
    header(f"python bench/engine.py {' '.join(passed)} --repeat {args.repeat}{baseline}")
    if args.baseline:
        against(args.baseline, args.repeat, passed)
        return 0
    rows = best([figures(args) for _ in range(args.repeat)])
    width = max(len(row[0]) for row in rows) + 1
    for label, rate, unit, note in rows:
        print(f"{label + ':':<{width}} {_rate(rate, 10)} {unit}  ({note})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

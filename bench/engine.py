"""Rules engine speed: full random duels per second, normal-bot decisions per second,
whole Cake Master games per second (random bots, normal bots), and whole Cookies Battle
games per second (random bots) with the normal bot's decisions per second, and the same for
Cake of Doom.

python bench/engine.py [--duels N] [--decisions N] [--masters N] [--cookies N] [--dooms N]
    [--seed S] [--baseline REF [--repeat K]]

With ``--baseline REF`` the same bench runs on the engine of the git ref ``REF`` (checked out
in a temporary worktree and imported, in a Python started without site-packages, ahead of
anything installed) and on this tree's, ``K`` times each in turn, and prints the best
figure of each side by side with their ratio.
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
from pathlib import Path

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


Figure = tuple[str, float, str, str]  # label, rate, unit, note


def game_figures(
    title: str, game: str, games: int, decisions: int, seed: int, sizes: tuple[tuple[int, ...], ...]
) -> list[Figure]:
    """``game``'s figures: random games/s at the player counts ``sizes[0]``, and the normal
    bot's decisions/s at ``sizes[1]``."""
    out: list[Figure] = []
    for players in sizes[0]:
        seconds, actions = random_games(game, games, seed, players)
        out.append(
            (
                f"{title}, random bots, {players} players",
                games / seconds,
                "games/s",
                f"{actions / seconds:,.0f} actions/s, {actions / games:.0f} actions/game",
            )
        )
    for players in sizes[1]:
        total, times = bot_decisions(game, decisions, seed, players)
        out.append(_decisions(f"{title}, normal bot, {players} players", total, times))
    return out


def _decisions(label: str, total: float, times: list[float]) -> Figure:
    times.sort()
    return (
        label,
        len(times) / total,
        "decisions/s",
        f"median {statistics.median(times) * 1e3:.2f} ms,"
        f" p99 {times[int(0.99 * len(times))] * 1e3:.2f} ms, worst {times[-1] * 1e3:.2f} ms",
    )


def figures(args: argparse.Namespace) -> list[Figure]:
    """Every figure of the bench, in order."""
    out: list[Figure] = []
    for players in (2, 4):
        seconds, actions = random_duels(args.duels, args.seed, players)
        out.append(
            (
                f"random duels, {players} players, full game",
                args.duels / seconds,
                "duels/s",
                f"{actions / seconds:,.0f} actions/s, {actions / args.duels:.0f} actions/duel",
            )
        )
    total, times = normal_decisions(args.decisions, args.seed)
    out.append(_decisions("normal bot, 2 players", total, times))
    for bot_name in ("random", "normal"):
        for players in (1, 2, 4, 6):
            seconds, actions = master_games(args.masters, args.seed, players, bot_name)
            out.append(
                (
                    f"cake master, {bot_name} bots, {players} player(s)",
                    args.masters / seconds,
                    "games/s",
                    f"{actions / seconds:,.0f} actions/s,"
                    f" {actions / args.masters:.0f} actions/game",
                )
            )
    sizes = ((2, 4, 6), (2, 4))
    out += game_figures(
        "cookies battle", "cookies-battle", args.cookies, args.decisions, args.seed, sizes
    )
    out += game_figures(
        "cake of doom", "cake-of-doom", args.dooms, args.decisions, args.seed, ((3, 6), (3, 6))
    )
    return out


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
            best: list[list[Figure]] = [[], []]
            for _ in range(repeat):
                for side, shim in enumerate(shims):
                    rows = _run(shim, passed)
                    if not best[side]:
                        best[side] = rows
                    else:
                        best[side] = [
                            max(old, new, key=lambda r: r[1])
                            for old, new in zip(best[side], rows, strict=True)
                        ]
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(base)], check=False
            )
    width = max(len(row[0]) for row in best[1])
    print(f"{'':<{width}}  {ref:>12}  {'this tree':>12}  ratio")
    for old, new in zip(best[0], best[1], strict=True):
        ratio = new[1] / old[1]
        print(f"{new[0]:<{width}}  {old[1]:>12.1f}  {new[1]:>12.1f}  {ratio:5.2f}x  {new[2]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=2000)
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--masters", type=int, default=100)
    parser.add_argument("--cookies", type=int, default=100)
    parser.add_argument("--dooms", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="REF", help="also run the bench on this git ref")
    parser.add_argument("--repeat", type=int, default=1, help="with --baseline: runs of each")
    parser.add_argument("--json-lines", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    passed = [
        f"--duels={args.duels}",
        f"--decisions={args.decisions}",
        f"--masters={args.masters}",
        f"--cookies={args.cookies}",
        f"--dooms={args.dooms}",
        f"--seed={args.seed}",
    ]
    if args.json_lines:
        print(json.dumps(figures(args)))
        return 0
    extra = f" --baseline {args.baseline} --repeat {args.repeat}" if args.baseline else ""
    print(f"command: python bench/engine.py {' '.join(passed)}{extra}")
    print(f"python {sys.version.split()[0]}")
    if args.baseline:
        against(args.baseline, args.repeat, passed)
        return 0
    for label, rate, unit, note in figures(args):
        print(f"{label + ':':<42} {rate:8.1f} {unit}  ({note})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

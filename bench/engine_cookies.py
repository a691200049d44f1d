"""Cookies Battle engine speed: whole random games per second, the normal bot's decisions
per second (the figures of ``bench/engine.py`` for this game alone) and worlds drawn per
second from seats' views (:meth:`CookiesBattle.determinize`, what a search draws once per
iteration).

python bench/engine_cookies.py [--games N] [--decisions N] [--worlds N] [--seed S]

Run it with two installs (say the base branch's and this one's) in one sitting to compare.
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
from cakeparty.core.game import Game

GAME = "cookies-battle"


def views(game: Game, players: int, seed: int, n: int) -> list[object]:
    """``n`` views of seats to act, taken along seeded games between random bots."""
    bot = game.bots["random"]
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


def worlds(n: int, seed: int, players: int) -> tuple[float, int] | None:
    """Seconds to draw one world from each of ``n`` views (``None``: not searchable)."""
    game = get_game(GAME)
    if type(game).determinize is Game.determinize:
        return None
    sample = views(game, players, seed, n)
    rng = random.Random(seed)
    start = time.perf_counter()
    for view in sample:
        game.determinize(view, rng)
    return time.perf_counter() - start, len(sample)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"command: python bench/engine_cookies.py --games {args.games} "
        f"--decisions {args.decisions} --worlds {args.worlds} --seed {args.seed}"
    )
    print(f"python {sys.version.split()[0]}")
    for players in (2, 4, 6):
        seconds, actions = random_games(GAME, args.games, args.seed, players)
        print(
            f"cookies battle, random bots, {players} players: {args.games / seconds:8.1f} games/s"
            f"  ({actions / seconds:,.0f} actions/s)"
        )
    for players in (2, 4):
        total, times = bot_decisions(GAME, args.decisions, args.seed, players)
        print(
            f"cookies battle, normal bot, {players} players: {len(times) / total:8.0f} decisions/s"
            f"  (median {statistics.median(times) * 1e3:.2f} ms)"
        )
    for players in (2, 4, 6):
        drawn = worlds(args.worlds, args.seed, players)
        if drawn is None:
            print("cookies battle: no worlds (determinize is not implemented)")
            break
        seconds, count = drawn
        print(f"cookies battle, worlds, {players} players: {count / seconds:8.0f} worlds/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

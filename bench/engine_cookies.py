"""Cookies Battle engine speed: whole random games per second, the normal bot's decisions
per second (the figures of ``bench/engine.py`` for this game alone) and worlds drawn per
second from seats' views (:meth:`CookiesBattle.determinize`, what a search draws once per
iteration).

python bench/engine_cookies.py [--games N] [--decisions N] [--worlds N] [--repeat R] [--seed S]

Run it with two installs (say the base branch's and this one's) in one sitting to compare.
Times are CPU seconds of this process (``time.process_time``), the best of ``--repeat``
runs: on a machine shared with other work they move far less than wall-clock seconds,
which ``bench/engine.py`` gives.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

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


def random_games(n: int, seed: int, players: int) -> tuple[float, int]:
    """CPU seconds to play ``n`` whole games between random bots, and the actions."""
    bot = get_game(GAME).bots["random"]
    actions = 0
    start = time.process_time()
    for i in range(n):
        m = new_match(GAME, players=players, seed=seed + i)
        m.play([bot] * players, random.Random(seed + i))
        actions += len(m.history)
    return time.process_time() - start, actions


def bot_decisions(n: int, seed: int, players: int) -> list[float]:
    """CPU seconds of ``n`` decisions of the normal bot at seat 0 (view included), every
    other seat random; decisions with one legal action are not counted."""
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


def worlds(n: int, seed: int, players: int, again: int) -> tuple[float, float, int] | None:
    """CPU seconds to draw one world from each of ``n`` views, then ``again`` more from
    each (what a search does: many worlds from one view); ``None``: not searchable."""
    game = get_game(GAME)
    if type(game).determinize is Game.determinize:
        return None
    sample = views(game, players, seed, n)
    rng = random.Random(seed)
    start = time.process_time()
    for view in sample:
        game.determinize(view, rng)
    first = time.process_time() - start
    start = time.process_time()
    for view in sample:
        for _ in range(again):
            game.determinize(view, rng)
    return first, (time.process_time() - start) / again, len(sample)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--worlds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"command: python bench/engine_cookies.py --games {args.games} "
        f"--decisions {args.decisions} --worlds {args.worlds} --repeat {args.repeat} "
        f"--seed {args.seed}"
    )
    print(f"python {sys.version.split()[0]}")
    for players in (2, 4, 6):
        seconds, actions = min(
            random_games(args.games, args.seed, players) for _ in range(args.repeat)
        )
        print(
            f"cookies battle, random bots, {players} players: {args.games / seconds:8.1f} games/s"
            f"  ({actions / seconds:,.0f} actions/s)"
        )
    for players in (2, 4):
        times = min(
            (bot_decisions(args.decisions, args.seed, players) for _ in range(args.repeat)),
            key=sum,
        )
        print(
            f"cookies battle, normal bot, {players} players: "
            f"{len(times) / sum(times):8.0f} decisions/s"
            f"  (median {statistics.median(times) * 1e3:.2f} ms)"
        )
    for players in (2, 4, 6):
        runs = [worlds(args.worlds, args.seed, players, 5) for _ in range(args.repeat)]
        drawn = (
            None
            if runs[0] is None
            else (
                min(r[0] for r in runs if r),
                min(r[1] for r in runs if r),
                runs[0][2],
            )
        )
        if drawn is None:
            print("cookies battle: no worlds (determinize is not implemented)")
            break
        first, again, count = drawn
        print(
            f"cookies battle, worlds, {players} players: {count / first:8.0f} worlds/s"
            f" from a new view, {count / again:8.0f} worlds/s from a view seen before"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

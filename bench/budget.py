"""What a longer thinking time buys the strong bot, decision by decision.

Its games are those of ``cakeparty simulate GAME --bots strong,normal[,normal,normal]
--think SHORT --seed S`` (the same seeds and seats). At every ``--every``-th decision of
the strong bot with more than one legal move, the bot also decides at ``--long`` seconds
(the same view; a budget of the thread's CPU time, as in a simulation), and the normal bot
decides too. Where the three moves are not all the same, each distinct move is played to
the end of the game ``--endings`` times on copies of the true game, every seat then played
by the normal bot, with the same draws and choices for every move (common random numbers);
a move's worth is its share of those endings won (a shared win split). Each choice is
scored by the worth of its moves summed over the decisions, and the long budget against
the short one by the mean difference a decision, with its standard error.

Far more sensitive than counting wins: a decision's worth is measured on the game it is
made in, and decisions where the two budgets agree add no noise. (A move is scored as if
the normal bot played on after it, not the strong bot.)

python bench/budget.py GAME [--games 20] [--seed 1] [--first 0] [--short 0.1] [--long 1]
                       [--every 1] [--endings 8] [--jobs 2]
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import random
import time
from typing import Any

from engine import header  # bench/engine.py, beside this file

from cakeparty.core import get_game, new_match
from cakeparty.core.actions import Action
from cakeparty.core.game import SEARCH_LEVEL, bot_levels, make_bot
from cakeparty.core.match import Match
from cakeparty.core.simulate import game_seed as simulated_seed
from cakeparty.core.simulate import seat_owners

#: Each game's table: how many players (the strong bot and normal bots).
PLAYERS = {"cake-duel": 2, "cake-master": 2, "cookies-battle": 4, "cake-of-doom": 4}
CHOICES = ("normal", "short", "long")


def worth(match: Match, seat: int, moves: set[Action], endings: int) -> dict[Action, float]:
    """Each move's share of ``endings`` endings won on copies of ``match``, every seat
    played on by the normal bot; the same draws and choices for every move."""
    normal = match.game.bots["normal"]
    players = match.state.players
    out: dict[Action, float] = {}
    for action in moves:
        won = 0.0
        for ending in range(endings):
            copied = copy.deepcopy(match)
            # the dealer's own draws differ by ending, alike for every move
            copied.dealer.rng = random.Random(ending * 7919 + 1)
            copied.dealer.remix_rng = random.Random(ending * 7919 + 2)
            copied.apply(action, seat)
            result = copied.play([normal] * players, random.Random(ending))
            if seat in result.winners:
                won += 1 / len(result.winners) if result.shared else 1
        out[action] = won / endings
    return out


def play(
    game: str, index: int, seed: int, short: float, long: float, every: int, endings: int
) -> dict[str, Any]:
    """One game, as ``simulate`` plays it, and its decisions scored."""
    spec = get_game(game)
    players = PLAYERS[game]
    quick = make_bot(spec, SEARCH_LEVEL, short, clock=time.thread_time)
    slow = make_bot(spec, SEARCH_LEVEL, long, clock=time.thread_time)
    normal = spec.bots["normal"]
    game_seed = simulated_seed(seed, index)
    me = seat_owners(index, players, players).index(0)  # the seat of simulate's first bot
    match = new_match(game, players=players, seed=game_seed)
    rng = random.Random(game_seed)
    sums = dict.fromkeys(CHOICES, 0.0)
    diffs: list[float] = []
    decisions = differ = scored = 0
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        if seat != me:
            match.apply(normal(view, rng), seat)
            continue
        action = quick(view, rng)
        if len(view.legal) > 1:
            decisions += 1
            if decisions % every == 0:
                scored += 1
                step = random.Random(game_seed * 31 + decisions)
                picks = {
                    "normal": normal(view, random.Random(step.getrandbits(32))),
                    "short": action,
                    "long": slow(view, random.Random(step.getrandbits(32))),
                }
                differ += picks["long"] != picks["short"]
                if len(set(picks.values())) > 1:
                    worths = worth(match, seat, set(picks.values()), endings)
                    for name, pick in picks.items():
                        sums[name] += worths[pick]
                    if picks["long"] != picks["short"]:
                        diffs.append(worths[picks["long"]] - worths[picks["short"]])
        match.apply(action, seat)
    return {
        "won": me in match.outcome.winners,
        "decisions": decisions,
        "scored": scored,
        "differ": differ,
        "sums": sums,
        "diffs": diffs,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--short", type=float, default=0.1)
    parser.add_argument("--long", type=float, default=1.0)
    parser.add_argument("--every", type=int, default=1, help="score every N-th decision")
    parser.add_argument("--endings", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if min(args.games, args.every, args.endings, args.jobs) < 1:
        parser.error("--games, --every, --endings and --jobs must be at least 1")
    if args.short <= 0 or args.long <= 0:
        parser.error("--short and --long must be more than 0 s")
    if SEARCH_LEVEL not in bot_levels(get_game(args.game)):
        parser.error(f"{args.game} has no strong bot")
    header(
        f"python bench/budget.py {args.game} --games {args.games} --seed {args.seed}"
        f" --first {args.first} --short {args.short:g} --long {args.long:g}"
        f" --every {args.every} --endings {args.endings} --jobs {args.jobs}"
    )
    start = time.perf_counter()
    jobs = [
        (args.game, i, args.seed, args.short, args.long, args.every, args.endings)
        for i in range(args.first, args.first + args.games)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.starmap(play, jobs, chunksize=1)
    won = sum(g["won"] for g in games)
    decisions = sum(g["decisions"] for g in games)
    scored = sum(g["scored"] for g in games)
    differ = sum(g["differ"] for g in games)
    diffs = [d for g in games for d in g["diffs"]]
    print(
        f"{args.games} games, the strong bot at {args.short:g} s won {won};"
        f" {decisions} decisions, {scored} scored; the {args.long:g} s move differs in"
        f" {differ}; {time.perf_counter() - start:.0f} s"
    )
    print(f"{'choice':<8} {'worth':>8} {'a decision':>11}")
    for name in CHOICES:
        total = sum(g["sums"][name] for g in games)
        print(f"{name:<8} {total:8.2f} {total / max(1, scored):11.4f}")
    if len(diffs) > 1:
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
        print(
            f"long - short where they differ: {mean:+.4f} a decision"
            f" (standard error {sd / math.sqrt(len(diffs)):.4f}, {len(diffs)} decisions)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

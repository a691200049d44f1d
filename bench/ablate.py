"""What the parts of the ``strong`` bot are worth: the issue's measurement (the strong bot
against ``normal`` bots, ``cakeparty simulate GAME --bots strong,normal… --think T``) played
again, the same games and seats, with one part of the bot changed.

- ``--what table``: the search is handed the true table in place of the worlds it draws
  from its view: every world of a decision is the game as it stands (every hand, every
  face-down card and the order of every pile; what later shuffles deal is still drawn).
  What better guesses of the hidden cards could buy the search at most.
- ``--what prior``: no search at all: the seat plays the search's prior bot, the move the
  search keeps unless another beats it (:meth:`~cakeparty.core.game.Game.prior_bot`, the
  normal bot unless the game names another). What the search adds to it.

The run as it is (``bench/strength.py``, or the ``cakeparty simulate`` command printed)
gives the figure to compare with; runs of the same command differ a little, as the walks
a decision gets follow the CPU time.

python bench/ablate.py GAME --what table|prior [--games 200] [--think 0.1] [--seed 1]
    [--jobs N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from typing import Any

from engine import header  # bench/engine.py, beside this file
from strength import in_parts, tell  # bench/strength.py, beside this file

from cakeparty.core import get_game
from cakeparty.core.game import SEARCH_LEVEL, World, bot_levels
from cakeparty.core.match import Match, new_match
from cakeparty.core.simulate import Report, simulate

#: the level name of the prior bot in a ``--what prior`` run
PRIOR = "prior"
#: players at the issue's table of each game
PLAYERS = {"cake-duel": 2, "cake-master": 2, "cookies-battle": 4, "cake-of-doom": 4}


class TrueTable:
    """Installed on a game's spec: the match being played (made by :meth:`match`), and a
    ``determinize`` that hands every searching seat that match's own state."""

    def __init__(self, game: str) -> None:
        self.drawn = get_game(game).determinize  # the game's own, bound
        self.current: Match | None = None
        self.asked: tuple[Any, bool] | None = None

    def match(self, game: str, players: int, seed: int, options: Mapping[str, Any]) -> Match:
        self.current = new_match(game, players=players, seed=seed, options=options)
        return self.current

    def determinize(self, view: Any, rng: random.Random) -> World | None:
        # where the game would draw no world (nobody decides), none; asked once a view
        if self.asked is None or self.asked[0] is not view:
            self.asked = (view, self.drawn(view, random.Random(0)) is not None)
        if not self.asked[1] or self.current is None:
            return None
        return World(self.current.state, tuple(self.current.dealer.truth))


def part(
    game: str, what: str, bots: list[str], think: float, games: int, seed: int, first: int
) -> Report:
    """The games ``first`` … ``first + games - 1`` of the run with ``what`` changed."""
    spec = get_game(game)
    factory = None
    if what == "table":
        table = TrueTable(game)
        spec.determinize = table.determinize  # type: ignore[method-assign]
        factory = table.match
    else:
        prior = spec.prior_bot() or spec.bots["normal"]
        spec.bots = {**spec.bots, PRIOR: prior}
    return simulate(
        game,
        games=games,
        seed=seed,
        bots=bots,
        players=len(bots),
        think=think,
        first=first,
        factory=factory,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(PLAYERS))
    parser.add_argument("--what", choices=("table", "prior"), required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    args = parser.parse_args()
    header(
        f"python bench/ablate.py {args.game} --what {args.what} --games {args.games}"
        f" --think {args.think:g} --seed {args.seed} --jobs {args.jobs}"
    )
    if SEARCH_LEVEL not in bot_levels(get_game(args.game)):
        print(f"{args.game}: cannot be searched yet (no determinize)")
        return 1
    players = PLAYERS[args.game]
    first_bot = SEARCH_LEVEL if args.what == "table" else PRIOR
    bots = [first_bot] + ["normal"] * (players - 1)
    as_is = [SEARCH_LEVEL] + ["normal"] * (players - 1)
    started = time.perf_counter()
    jobs = max(1, min(args.jobs, args.games))
    report = in_parts(part, (args.game, args.what, bots, args.think), args.games, args.seed, jobs)
    seconds = time.perf_counter() - started
    data = report.as_json()
    label = report.labels[0]
    played = args.games - report.errors
    wins = data["wins"][label]
    print(
        f"the bot as it is: cakeparty simulate {args.game} --players {players}"
        f" --bots {','.join(as_is)} --think {args.think:g} --games {args.games}"
        f" --seed {args.seed} --json"
    )
    changed = "handed the true table" if args.what == "table" else "its prior bot, no search"
    tell(f"{changed}: wins {wins}/{played} = {100 * wins / max(1, played):.1f} %", report, seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

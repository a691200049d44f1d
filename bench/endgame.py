"""What the Cookies Battle strong bot's last decisions are worth, move by move.

Its games are those of ``cakeparty simulate cookies-battle --players 4 --bots
strong,normal,normal,normal --think T --seed S`` (the same seeds and seats). At each of the
strong bot's decisions of the last round holding at most ``--hand`` cards, every move (one
of each set of alike moves) is played to the end of the game ``--endings`` times on copies
of the true game, every seat by the normal bot; a move's worth is its share of those
endings won. Each way of choosing is then scored by the worth of the moves it picks,
summed over the decisions (a win is 1):

- ``bot``: the move the strong bot made;
- ``random``: the mean worth of the moves;
- ``best``: the best move's worth (knowing the true game and its endings: a ceiling);
- ``walks``: each move played to the end by the normal bots in ``--worlds`` worlds drawn
  from the bot's view, the same worlds and draws for every move (the others played as
  they play), the most wins chosen (a tie keeps the bot's move);
- ``true``: the same walks in the true game, every hidden card known;
- ``true, X drawn``: the true game but for X (the hands, the pieces, the markers), taken
  from a world drawn from the bot's view.

A choice scored far above ``bot`` with a part drawn says the bot can do without knowing
that part; one near ``bot`` says that part is what the bot lacks.

python bench/endgame.py [--games 20] [--seed 1] [--first 0] [--think 0.1] [--hand 2]
                        [--worlds 8] [--endings 4] [--jobs 2]
"""

from __future__ import annotations

import argparse
import copy
import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from engine import header  # bench/engine.py, beside this file

from cakeparty.core import get_game, new_match
from cakeparty.core.actions import Action
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.game import SEARCH_LEVEL, Bot, World, make_bot
from cakeparty.core.games.cookies_battle.cards import ROUNDS
from cakeparty.core.games.cookies_battle.search import alike
from cakeparty.core.games.cookies_battle.state import Phase
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.match import Match
from cakeparty.core.simulate import game_seed as simulated_seed
from cakeparty.core.simulate import seat_owners

GAME = "cookies-battle"
PLAYERS = 4
PARTS = ("hands", "pieces", "markers")
ROWS = ("bot", "random", "best", "walks", "true", *(f"true, {p} drawn" for p in PARTS))


def finish(match: Match, bot: Bot, rng: random.Random) -> tuple[int, ...]:
    """Play ``match`` to its end with ``bot`` at every seat: the winners."""
    return match.play([bot] * PLAYERS, rng).winners


def true_world(match: Match, drawn: World | None, part: str | None) -> World:
    """The true game, but for ``part`` of it taken from ``drawn``."""
    state = match.state
    truth = list(match.dealer.truth)
    if drawn is not None and part is not None:
        slots = {
            "hands": state.card_slots,
            "pieces": state.piece_slots,
            "markers": state.marker_slots,
        }[part]
        for slot in slots:
            truth[slot] = drawn.truth[slot]
        masks = state.knowledge.known_by
        names = tuple(name if mask else None for name, mask in zip(truth, masks, strict=True))
        state = state.evolve(knowledge=Knowledge(names, masks))
    return World(state, tuple(truth))


class Table:
    """The decisions of one game, scored."""

    def __init__(self, worlds: int, endings: int) -> None:
        self.spec = get_game(GAME)
        self.normal = self.spec.bots["normal"]
        self.worlds, self.endings = worlds, endings
        self.sums: Counter[str] = Counter()
        self.decisions = 0

    def moves(self, view: Any) -> dict[Any, Action]:
        out: dict[Any, Action] = {}
        for action in view.legal:
            out.setdefault(alike(view, action), action)
        return out

    def worth(self, match: Match, seat: int, moves: dict[Any, Action]) -> dict[Any, float]:
        """Each move's share of ``endings`` endings won on copies of the true game."""
        out = {}
        for key, action in moves.items():
            won = 0
            for ending in range(self.endings):
                copied = copy.deepcopy(match)
                copied.apply(action, seat)
                won += seat in finish(copied, self.normal, random.Random(ending))
            out[key] = won / self.endings
        return out

    def walked(
        self,
        view: Any,
        moves: dict[Any, Action],
        world: Callable[[random.Random], World | None],
        mine: Any,
        seed: int,
    ) -> Any:
        """The move winning the most walks in ``worlds`` worlds (a tie keeps ``mine``)."""
        rng = random.Random(seed)
        wins: Counter[Any] = Counter({key: 0 for key in moves})
        for _ in range(self.worlds):
            drawn = world(rng)
            if drawn is None:
                break
            dealt, rolled = rng.getrandbits(32), rng.getrandbits(32)
            for key, action in moves.items():
                match = Match(self.spec, drawn.state, LocalDealer(drawn.truth, dealt))
                match.apply(action, view.seat)
                wins[key] += view.seat in finish(match, self.normal, random.Random(rolled))
        top = max(wins.values())
        return mine if wins[mine] == top else next(k for k in moves if wins[k] == top)

    def decide(self, match: Match, view: Any, made: Action, seed: int) -> None:
        moves = self.moves(view)
        if len(moves) < 2:
            return
        worth = self.worth(match, view.seat, moves)
        mine = alike(view, made)
        spec = self.spec

        def drawn(rng: random.Random) -> World | None:
            return spec.determinize(view, rng)

        choices: dict[str, Any] = {
            "walks": self.walked(view, moves, drawn, mine, seed),
            "true": self.walked(view, moves, lambda rng: true_world(match, None, None), mine, seed),
        }
        for part in PARTS:

            def mixed(rng: random.Random, part: str = part) -> World | None:
                return true_world(match, spec.determinize(view, rng), part)

            choices[f"true, {part} drawn"] = self.walked(view, moves, mixed, mine, seed)
        self.decisions += 1
        self.sums["bot"] += worth[mine]
        self.sums["random"] += sum(worth.values()) / len(worth)
        self.sums["best"] += max(worth.values())
        for row, key in choices.items():
            self.sums[row] += worth[key]


def play(index: int, seed: int, think: float, hand: int, worlds: int, endings: int) -> tuple:
    """One game, as ``simulate`` plays it: (the strong bot won, decisions, sums)."""
    table = Table(worlds, endings)
    spec = table.spec
    strong = make_bot(spec, SEARCH_LEVEL, think, clock=time.thread_time)
    game_seed = simulated_seed(seed, index)
    me = seat_owners(index, PLAYERS, PLAYERS).index(0)  # the seat of simulate's first bot
    match = new_match(GAME, players=PLAYERS, seed=game_seed)
    rng = random.Random(game_seed)
    step = 0
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        action = (strong if seat == me else table.normal)(view, rng)
        if (
            seat == me
            and view.round >= ROUNDS
            and len(view.hand) <= hand
            and view.phase in (Phase.PLAY, Phase.MARKER, Phase.DEFENSE)
        ):
            table.decide(match, view, action, game_seed + step)
        step += 1
        match.apply(action, seat)
    return me in match.outcome.winners, table.decisions, dict(table.sums)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--hand", type=int, default=2, help="cards held at most")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--endings", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1 or args.worlds < 1 or args.endings < 1 or args.jobs < 1:
        parser.error("--games, --worlds, --endings and --jobs must be at least 1")
    header(
        f"python bench/endgame.py --games {args.games} --seed {args.seed} --first {args.first}"
        f" --think {args.think} --hand {args.hand} --worlds {args.worlds}"
        f" --endings {args.endings} --jobs {args.jobs}"
    )
    start = time.perf_counter()
    jobs = [
        (i, args.seed, args.think, args.hand, args.worlds, args.endings)
        for i in range(args.first, args.first + args.games)
    ]
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.starmap(play, jobs, chunksize=1)
    won = sum(g[0] for g in games)
    decisions = sum(g[1] for g in games)
    sums: Counter[str] = Counter()
    for _, _, part in games:
        sums.update(part)
    print(
        f"{args.games} games, the strong bot won {won}; {decisions} decisions of the last"
        f" round holding at most {args.hand} cards; {time.perf_counter() - start:.0f} s"
    )
    print(f"{'choice':<22} {'worth':>8} {'a decision':>11}")
    for row in ROWS:
        print(f"{row:<22} {sums[row]:8.1f} {sums[row] / max(1, decisions):11.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

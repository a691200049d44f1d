"""Fit the strong Cookies Battle bot's judgement of a table on games of normal bots.

The search ends its walks at the end of a trick and asks each seat's chance of the winning
place there (:func:`cakeparty.core.games.cookies_battle.value.chances`): a small network
scores each seat's row of numbers (:func:`~cakeparty.core.games.cookies_battle.value.features`)
and the chances are the softmax of the scores. This script plays ``--games`` 4-player games
of ``normal`` bots, records every table at the end of a trick with the game's winners,
fits the network on four games in five by likelihood (Adam, full softmax, a shared win
split) and prints the mean log-likelihood of the winners on the fifth game — chance, the
normal guess the bot makes at other tables (``search.chances``), the weights in the
module and the fitted ones — by how many pieces were still to be won.
``--write`` writes the fitted weights to ``core/games/cookies_battle/weights.py``.

Needs NumPy (``pip install numpy``), for the fit only: the bot reads plain numbers.

python bench/fit_cookies.py [--games 4000] [--seed 7] [--jobs 2] [--hidden 16]
    [--epochs 30] [--cache FILE] [--write]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pickle
import random
import time
from pathlib import Path
from typing import Any

from cakeparty.core.games.cookies_battle import search, value
from cakeparty.core.games.cookies_battle.bots import normal_bot
from cakeparty.core.match import new_match

PLAYERS = 4
#: every table of one game (each seat's row, the pieces still to be won, and the chances of
#: the normal guess the bot makes at other tables) and its winners
Game = tuple[list[tuple[list[list[float]], int, list[float]]], tuple[int, ...]]
#: the pieces still to be won that part the report's stages
STAGES = ((0, 4), (4, 12), (12, 24), (24, 37))
WEIGHTS = Path(value.__file__).with_name("weights.py")


def play(seed: int) -> Game:
    """The rows of every table at the end of a trick of one game of normal bots."""
    match = new_match("cookies-battle", players=PLAYERS, seed=seed)
    rng = random.Random(seed)
    tables = []
    won = 0
    while match.outcome is None:
        seat = match.to_act[0]
        match.apply(normal_bot(match.view(seat), rng), seat)
        now = sum(match.state.tricks_won)
        if now != won:
            won = now
            if match.outcome is None:
                state = match.state
                guess = search.chances(search.table(state))
                tables.append((value.features(state), len(state.piece_pile), guess))
    outcome = match.outcome
    assert outcome is not None
    return tables, tuple(outcome.winners)


def arrays(games: list[Game]) -> tuple[Any, Any, Any, Any]:
    """Rows, winners (1 for each seat that won), pieces left and the normal guess's
    chances, one entry a table."""
    import numpy as np

    rows, won, left, guesses = [], [], [], []
    for tables, winners in games:
        for table, pile, guess in tables:
            rows.append(table)
            won.append([1.0 if s in winners else 0.0 for s in range(PLAYERS)])
            left.append(pile)
            guesses.append(guess)
    return np.array(rows), np.array(won), np.array(left), np.array(guesses)


def log_chances(net: dict[str, Any], x: Any, won: Any) -> Any:
    """The log of the chance the network gives the winners of each table."""
    import numpy as np

    s = np.tanh(x @ net["W1"] + net["b1"]) @ net["W2"] + net["b2"]
    s = s - s.max(axis=1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=1, keepdims=True)
    return np.log(np.maximum((p * won).sum(axis=1), 1e-12))


def fit(x: Any, won: Any, hidden: int, epochs: int, seed: int) -> dict[str, Any]:
    """The network's weights, by Adam on the mean log chance of the winners."""
    import numpy as np

    rng = np.random.default_rng(seed)
    features = x.shape[2]
    net: dict[str, Any] = {
        "W1": rng.normal(0, 0.3, (features, hidden)),
        "b1": np.zeros(hidden),
        "W2": rng.normal(0, 0.3, hidden),
        "b2": np.zeros(()),
    }
    first = {k: np.zeros_like(v) for k, v in net.items()}
    second = {k: np.zeros_like(v) for k, v in net.items()}
    step, rate, batch = 0, 0.01, 512
    for _ in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            pick = order[start : start + batch]
            xb, wb = x[pick], won[pick]
            a = np.tanh(xb @ net["W1"] + net["b1"])
            s = a @ net["W2"] + net["b2"]
            s = s - s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            q = p * wb
            q /= q.sum(axis=1, keepdims=True)
            ds = (p - q) / len(pick)  # the gradient of minus the log chance of the winners
            dz = ds[:, :, None] * net["W2"][None, None, :] * (1 - a * a)
            grads = {
                "W1": np.einsum("bnf,bnh->fh", xb, dz),
                "b1": dz.sum(axis=(0, 1)),
                "W2": np.einsum("bn,bnh->h", ds, a),
                "b2": ds.sum(),
            }
            step += 1
            for k, g in grads.items():
                first[k] = 0.9 * first[k] + 0.1 * g
                second[k] = 0.999 * second[k] + 0.001 * g * g
                m = first[k] / (1 - 0.9**step)
                v = second[k] / (1 - 0.999**step)
                net[k] = net[k] - rate * m / (np.sqrt(v) + 1e-8)
    return net


def module_net() -> dict[str, Any] | None:
    """The weights in the module, as arrays (``None`` if they read other rows)."""
    import numpy as np

    hidden = value.weights.HIDDEN
    if not hidden or len(hidden[0][1]) != value.weights.FEATURES:
        return None
    return {
        "W1": np.array([column for _, column, _ in hidden]).T,
        "b1": np.array([bias for bias, _, _ in hidden]),
        "W2": np.array([weight for _, _, weight in hidden]),
        "b2": np.array(value.weights.OUT_BIAS),
    }


def write(net: dict[str, Any], command: str, games: int) -> None:
    """The fitted weights as a Python module, every number written out."""
    hidden = [
        (float(b), tuple(float(w) for w in net["W1"][:, h]), float(net["W2"][h]))
        for h, b in enumerate(net["b1"])
    ]
    lines = [
        '"""The weights of the strong Cookies Battle bot\'s judgement of a table (see',
        f":mod:`.value`), fitted on {games} games of normal bots by",
        f"``{command}``.",
        "",
        "Written by that command: do not edit by hand.",
        '"""',
        "",
        "#: the numbers in a seat's row",
        f"FEATURES = {net['W1'].shape[0]}",
        "#: each hidden unit: its bias, its weight on every number of a row, its weight in",
        "#: the seat's score",
        "# fmt: off",
        "HIDDEN: tuple[tuple[float, tuple[float, ...], float], ...] = (",
    ]
    for bias, column, weight in hidden:
        lines.append("    (")
        lines.append(f"        {bias:.6g},")
        lines.append("        (")
        for at in range(0, len(column), 6):
            lines.append("            " + " ".join(f"{w:.6g}," for w in column[at : at + 6]))
        lines.append("        ),")
        lines.append(f"        {weight:.6g},")
        lines.append("    ),")
    lines += [")", "# fmt: on", f"OUT_BIAS = {float(net['b2']):.6g}", ""]
    WEIGHTS.write_text("\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--cache", help="keep the tables played in this file, and read them")
    parser.add_argument("--write", action="store_true", help="write the fitted weights")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        parser.error("the fit needs NumPy: pip install numpy")
    started = time.perf_counter()
    cache = Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        games: list[Game] = pickle.loads(cache.read_bytes())
    else:
        seeds = [args.seed * 1_000_003 + i for i in range(args.games)]
        with multiprocessing.Pool(args.jobs) as pool:
            games = pool.map(play, seeds, chunksize=16)
        if cache is not None:
            cache.write_bytes(pickle.dumps(games))
    train = [g for i, g in enumerate(games) if i % 5]
    test = [g for i, g in enumerate(games) if not i % 5]
    x, won, _, _ = arrays(train)
    tx, twon, tleft, tguess = arrays(test)
    print(
        f"{len(x)} tables to fit, {len(tx)} to test, from {len(games)} games"
        f" in {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    net = fit(x, won, args.hidden, args.epochs, args.seed)
    judged = {
        "chance": np.full(len(tx), math.log(1 / PLAYERS)),
        "normal guess": np.log(np.maximum((tguess * twon).sum(axis=1), 1e-12)),
    }
    old = module_net()
    if old is not None:
        judged["module"] = log_chances(old, tx, twon)
    judged["fitted"] = log_chances(net, tx, twon)
    print("mean log-likelihood of the winners, by pieces still to be won after the trick:")
    for low, high in STAGES:
        pick = (tleft >= low) & (tleft < high)
        figures = ", ".join(f"{name} {v[pick].mean():.4f}" for name, v in judged.items())
        print(f"  {low:2}-{high - 1:2} ({pick.sum()} tables): {figures}")
    figures = ", ".join(f"{name} {v.mean():.4f}" for name, v in judged.items())
    print(f"  all: {figures}; {time.perf_counter() - started:.0f} s")
    if args.write:
        command = (
            f"python bench/fit_cookies.py --games {args.games} --seed {args.seed}"
            f" --hidden {args.hidden} --epochs {args.epochs} --write"
        )
        write(net, command, len(games))
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

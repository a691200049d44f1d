"""Set-up cost of the mental deck, per peer and in total, before and after the shuffle
argument replaced the cut-and-choose shuffle proof.

Simulates every peer of a room in one process and charges each operation to the peer that
would do it: a game key with its Schnorr proof, checking every other key, one mix with its
shuffle proof, checking every other seat's mix, and the initial deal (each card's shares
with DLEQ proofs from every seat but its recipient, each share checked by every other
seat, the recipient decrypting). Times are CPU seconds (``time.process_time``, every
thread of the process) and, in the ``wait`` column, the busiest peer's wall-clock seconds:
a proof is checked on all the machine's cores at once, so a player waits less than the CPU
time it costs. The aims are for that wait.

Each room is run twice: *after*, with the shuffle argument the package uses
(:mod:`cakeparty.protocol.shuffle`, sound at 2^-128); *before*, with the λ = 32
cut-and-choose it replaced (kept in ``bench/cut_and_choose.py`` for this comparison only).
The aims: the busiest peer under 0.1 s at 2 × 22 and under 1 s at 6 × 130.

The ratio relates the measured time to the scalar multiplications done: ``ratio`` counts
every multiplication at the price of one variable-base multiplication; ``ratio*`` prices
fixed-base ones at their own (lower) cost, so what it shows above 1 is everything else —
point additions and checks, hashing, Python.

Then whole games (``--games``, by default Cake Master with 4 players, Cookies Battle with 4
and the Cookies Battle duel): every peer of a room through the mental dealer
(:class:`~cakeparty.protocol.mental.MentalMatch`, no broker), ``normal`` bots at every seat
(``random`` for a game that has no ``normal`` bot), from the keys to the audit. Each peer is charged
the CPU and wall-clock time of handling every envelope it receives (its own included:
checking proofs, applying moves, writing its shares, mixes and openings) and of its moves;
the bots' thinking is counted apart. ``wait`` is the wall-clock of that work, what a
player would wait for the cryptography over a whole game if the network were instant.

Run from the repository root::

    .venv/bin/python bench/mental.py [--seed 1] [--after-only] [--games cake-master:4,…]
    .venv/bin/python bench/mental.py --whole-only   # only the whole games
    .venv/bin/python bench/mental.py --whole-only --games cookies-battle:4,cookies-battle:2

``--doom`` plays only Cake of Doom's whole games, four players in the open game and in the
blind variant, and says what the mental deck did in each (mixes, hand re-mixes, reveals,
fair draws)::

    .venv/bin/python bench/mental.py --doom [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import cut_and_choose
import nacl.bindings

from cakeparty.core import Bot, get_game
from cakeparty.protocol import shuffle as cakeparty_shuffle
from cakeparty.protocol.elgamal import (
    CardTable,
    Ciphertext,
    Deck,
    GameKey,
    decrypt,
    initial_deck,
    joint_key,
)
from cakeparty.protocol.group import (
    COUNTER,
    OpCount,
    Point,
    RandomBytes,
    mul_base,
    random_scalars,
    seeded_random_bytes,
    u64,
)
from cakeparty.protocol.mental import DECISIONS, MentalMatch
from cakeparty.protocol.proofs import make_share, prove_key, verify_key, verify_share
from cakeparty.protocol.shuffle import shuffle, verify_shuffle
from cakeparty.protocol.steps import MIX, RAND_OPEN, REMIX, SHARES

CONFIGS = ((2, 22, 4), (4, 42, 4), (6, 130, 8))  # players, cards, cards dealt to each
PHASES = ("keys", "mix", "verify mixes", "deal")
ROOM = "bench-room"

Mix = Callable[[int, Point, Deck, RandomBytes], tuple[Deck, object]]
Check = Callable[[int, Point, Deck, Sequence[Ciphertext], object], None]


def argument() -> tuple[Mix, Check]:
    """The shuffle argument (after)."""
    context = u64(1)

    def mix(seat: int, joint: Point, deck: Deck, rb: RandomBytes) -> tuple[Deck, object]:
        return shuffle(ROOM, seat, joint, deck, context=context, random_bytes=rb)

    def check(seat: int, joint: Point, inp: Deck, out: Sequence[Ciphertext], proof: object) -> None:
        assert isinstance(proof, cakeparty_shuffle.ShuffleProof)
        verify_shuffle(ROOM, seat, joint, inp, out, proof, context=context)

    return mix, check


def cut_and_choose_32() -> tuple[Mix, Check]:
    """The λ = 32 cut-and-choose (before)."""

    def mix(seat: int, joint: Point, deck: Deck, rb: RandomBytes) -> tuple[Deck, object]:
        return cut_and_choose.shuffle(ROOM, seat, joint, deck, lam=32, random_bytes=rb)

    def check(seat: int, joint: Point, inp: Deck, out: Sequence[Ciphertext], proof: object) -> None:
        assert isinstance(proof, cut_and_choose.ShuffleProof)
        cut_and_choose.verify_shuffle(ROOM, seat, joint, inp, out, proof, lam=32)

    return mix, check


@dataclass
class Peer:
    """One simulated seat and the work charged to it."""

    seat: int
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    ops: OpCount = field(default_factory=lambda: OpCount(0, 0, 0))
    wall: float = 0.0

    @property
    def total(self) -> float:
        return sum(self.cpu.values())


@contextmanager
def charged(peer: Peer, phase: str) -> Iterator[None]:
    """Charge the CPU time and group operations of the block to ``peer``."""
    ops = COUNTER.snapshot()
    start, wall = time.process_time(), time.perf_counter()
    yield
    peer.cpu[phase] += time.process_time() - start
    peer.wall += time.perf_counter() - wall
    delta = COUNTER.snapshot() - ops
    peer.ops = OpCount(
        peer.ops.base + delta.base, peer.ops.var + delta.var, peer.ops.checks + delta.checks
    )


def set_up(
    players: int, cards: int, dealt: int, proofs: tuple[Mix, Check], rb: RandomBytes
) -> list[Peer]:
    """Run one room's set-up; return its peers with their bills."""
    peers = [Peer(s) for s in range(players)]
    keys: list[GameKey] = []
    for peer in peers:
        with charged(peer, "keys"):
            key = GameKey.generate(rb)
            proof = prove_key(ROOM, peer.seat, key, rb)
        keys.append(key)
        for other in peers:
            if other is not peer:
                with charged(other, "keys"):
                    verify_key(ROOM, peer.seat, key.public, proof)
    publics = [k.public for k in keys]
    table = CardTable.for_game("bench", [f"card-{i}" for i in range(cards)])
    joint = joint_key(publics)
    for peer in peers:
        with charged(peer, "keys"):
            joint_key(publics)
            deck = initial_deck([table.point(f"card-{i}") for i in range(cards)], joint)

    for peer in peers:
        with charged(peer, "mix"):
            out, proof_mix = proofs[0](peer.seat, joint, deck, rb)
        for other in peers:
            if other is not peer:
                with charged(other, "verify mixes"):
                    proofs[1](peer.seat, joint, deck, out, proof_mix)
        deck = out

    seen: set[str] = set()
    for slot in range(players * dealt):
        ct, to = deck[slot], slot % players
        shares: list[Point] = []
        for giver in peers:
            if giver.seat == to:
                continue
            with charged(giver, "deal"):
                share = make_share(ROOM, giver.seat, keys[giver.seat], ct.c1, rb)
            for checker in peers:
                if checker is not giver:
                    with charged(checker, "deal"):
                        verify_share(ROOM, giver.seat, publics[giver.seat], ct.c1, share)
            shares.append(share.point)
        with charged(peers[to], "deal"):
            card = table.card_of(decrypt(ct, [keys[to].share(ct.c1), *shares]))
        if card in seen:
            raise AssertionError(f"{card} dealt twice")
        seen.add(card)
    return peers


def time_one_mult(rb: RandomBytes, rounds: int = 2000) -> tuple[float, float]:
    """CPU seconds of one variable-base and one fixed-base scalar multiplication."""
    scalars = random_scalars(rounds, rb)
    points = [mul_base(s) for s in scalars]
    var_mul = nacl.bindings.crypto_scalarmult_ed25519_noclamp
    base_mul = nacl.bindings.crypto_scalarmult_ed25519_base_noclamp
    start = time.process_time()
    for s, p in zip(scalars, reversed(points), strict=True):
        var_mul(s, p)
    t_var = (time.process_time() - start) / rounds
    start = time.process_time()
    for s in scalars:
        base_mul(s)
    t_base = (time.process_time() - start) / rounds
    return t_var, t_base


def measure(
    players: int, cards: int, dealt: int, proofs: tuple[Mix, Check], rb: RandomBytes
) -> tuple[list[Peer], Peer]:
    peers = set_up(players, cards, dealt, proofs, rb)
    return peers, max(peers, key=lambda p: p.total)


# -- whole games through the mental dealer ------------------------------------------------

#: The whole games measured by default: (game, players). Cookies Battle with two players is
#: its duel (no markers); with four, every card is followed by a marker window.
WHOLE_GAMES = (("cake-master", 4), ("cookies-battle", 4), ("cookies-battle", 2))


@dataclass
class Bill:
    """What one peer of a whole game spent: CPU and wall-clock seconds of its protocol
    work (receiving every envelope, making its moves), and its bot's thinking apart."""

    seat: int
    cpu: float = 0.0
    wall: float = 0.0
    thinking: float = 0.0
    received: int = 0


class BilledMatch(MentalMatch):
    """A mental match that charges each envelope's handling to the peer handling it."""

    bills: list[Bill]

    def pump(self) -> None:
        if not hasattr(self, "bills"):
            self.bills = [Bill(s) for s in range(len(self.peers))]
        while self.wire:
            batch, self.wire[:] = list(self.wire), []
            self.messages += len(batch)
            self.bytes += sum(len(b) for b in batch)
            for seat, peer in enumerate(self.peers):
                order = list(batch)
                if self.disorder:
                    self.rng.shuffle(order)
                bill = self.bills[seat]
                for data in order:
                    cpu, wall = time.process_time(), time.perf_counter()
                    peer.receive(data)
                    bill.cpu += time.process_time() - cpu
                    bill.wall += time.perf_counter() - wall
                    bill.received += 1


def bot_of(game: str) -> Bot:
    """The bot a whole game is played with: ``normal``, else ``random``."""
    bots = get_game(game).bots
    return bots["normal"] if "normal" in bots else bots["random"]


def whole_game(game: str, players: int, seed: int) -> tuple[BilledMatch, float]:
    """Play one game of ``game`` with ``normal`` bots (``random`` where the game has no
    ``normal``) through the mental dealer; the match (with its bills) and the wall-clock
    seconds of the whole game."""
    started = time.perf_counter()
    room = BilledMatch(game, players, seed)
    bot = bot_of(game)
    rng = random.Random(seed)
    while not all(p.finished for p in room.peers):
        waiting = {s for p in room.peers for s in p.waiting_for}
        movers = [p for p in room.peers if p.seat in waiting and p.step.kind in DECISIONS]
        if not movers:
            raise AssertionError(f"the room is stuck waiting for {sorted(waiting)}")
        peer = movers[0]
        bill = room.bills[peer.seat]
        cpu = time.process_time()
        action = bot(peer.view(), rng)
        bill.thinking += time.process_time() - cpu
        cpu, wall = time.process_time(), time.perf_counter()
        peer.act(action)
        bill.cpu += time.process_time() - cpu
        bill.wall += time.perf_counter() - wall
        room.pump()
    return room, time.perf_counter() - started


def whole_games(games: Sequence[tuple[str, int]], seed: int) -> None:
    print("\nwhole games through the mental dealer (normal bots, no broker), keys to audit;")
    print("a game with no normal bot yet is played by random bots, and says so:")
    head = (
        f"{'game':<34}{'steps':>6}{'msgs':>6}{'kB':>7}{'cpu s/peer':>11}{'busiest':>8}"
        f"{'wait s':>7}{'bots s':>7}{'total s':>8}  audit"
    )
    print(head)
    print("-" * len(head))
    details = []
    for game, players in games:
        room, seconds = whole_game(game, players, seed)
        bills = room.bills
        worst = max(bills, key=lambda b: b.cpu)
        mean = sum(b.cpu for b in bills) / len(bills)
        # a step nobody had to send to (a reveal every seat could already read) is empty
        steps = sum(1 for p in room.peers[0].log if p and p[0].kind in DECISIONS)
        verdicts = {str(p.verdict) for p in room.peers}
        audit = verdicts.pop() if len(verdicts) == 1 else "disagree"
        name = f"{game} × {players}"
        if "normal" not in get_game(game).bots:
            name += " (random bots)"
        print(
            f"{name:<34}{steps:>6}{room.messages:>6}{room.bytes / 1000:>7.0f}{mean:>11.2f}"
            f"{worst.cpu:>8.2f}{worst.wall:>7.2f}{sum(b.thinking for b in bills):>7.2f}"
            f"{seconds:>8.2f}  {audit}"
        )
        per_seat = ", ".join(f"seat {b.seat} {b.cpu:.2f} cpu / {b.wall:.2f} wait" for b in bills)
        details.append(f"{name}: {per_seat} s (seed {seed})")
    print("\ncpu s/peer is the mean over the seats, busiest the largest; wait is the busiest")
    print("peer's wall-clock for its protocol work; steps counts the log steps at which seats")
    print("decide (one sealed choice of every seat is one step); bots s is their thinking.")
    for line in details:
        print("  " + line)


# -- Cake of Doom: the open game and the blind variant ----------------------------------

DOOM = "cake-of-doom"
#: Cake of Doom's whole games (``--doom``): (variant, players, options).
DOOM_GAMES: tuple[tuple[str, int, dict[str, bool]], ...] = (
    ("open", 4, {}),
    ("blind", 4, {"blind": True}),
)


def doom_game(players: int, options: dict[str, bool], seed: int) -> tuple[BilledMatch, float]:
    """One whole game of Cake of Doom with ``options`` through the mental dealer, played
    as :func:`whole_game` plays one; the match (with its bills) and its wall-clock seconds."""
    started = time.perf_counter()
    room = BilledMatch(DOOM, players, seed, options)
    bot = bot_of(DOOM)
    rng = random.Random(seed)
    while not all(p.finished for p in room.peers):
        waiting = {s for p in room.peers for s in p.waiting_for}
        movers = [p for p in room.peers if p.seat in waiting and p.step.kind in DECISIONS]
        if not movers:
            raise AssertionError(f"the room is stuck waiting for {sorted(waiting)}")
        peer = movers[0]
        bill = room.bills[peer.seat]
        cpu = time.process_time()
        action = bot(peer.view(), rng)
        bill.thinking += time.process_time() - cpu
        cpu, wall = time.process_time(), time.perf_counter()
        peer.act(action)
        bill.cpu += time.process_time() - cpu
        bill.wall += time.perf_counter() - wall
        room.pump()
    return room, time.perf_counter() - started


def doom_games(seed: int) -> None:
    """Cake of Doom with four players, open and blind: the same columns as the whole
    games above, then what the mental deck did in each game and how the game ended."""
    level = "normal" if "normal" in get_game(DOOM).bots else "random"
    print(f"\nCake of Doom, whole games through the mental dealer ({level} bots, no broker):")
    head = (
        f"{'game':<24}{'steps':>6}{'msgs':>6}{'kB':>7}{'cpu s/peer':>11}{'busiest':>8}"
        f"{'wait s':>7}{'bots s':>7}{'total s':>8}  audit"
    )
    print(head)
    print("-" * len(head))
    details = []
    for variant, players, options in DOOM_GAMES:
        room, seconds = doom_game(players, options, seed)
        bills = room.bills
        worst = max(bills, key=lambda b: b.cpu)
        mean = sum(b.cpu for b in bills) / len(bills)
        log = [step for step in room.peers[0].log if step]  # a step nobody sent to is empty
        kinds = Counter(step[0].kind for step in log)
        steps = sum(kinds[k] for k in DECISIONS)
        verdicts = {str(p.verdict) for p in room.peers}
        audit = verdicts.pop() if len(verdicts) == 1 else "disagree"
        name = f"{DOOM} × {players}, {variant}"
        print(
            f"{name:<24}{steps:>6}{room.messages:>6}{room.bytes / 1000:>7.0f}{mean:>11.2f}"
            f"{worst.cpu:>8.2f}{worst.wall:>7.2f}{sum(b.thinking for b in bills):>7.2f}"
            f"{seconds:>8.2f}  {audit}"
        )
        state = room.peers[0].state
        outcome = room.outcome
        ended = "?" if outcome is None else outcome.reason
        details.append(
            f"{name}: {kinds[MIX]} mixes (both decks, then each refill, every seat), "
            f"{kinds[REMIX]} hand re-mixes, {kinds[SHARES]} reveals with shares, "
            f"{kinds[RAND_OPEN]} fair draws; ended by {ended} in round {state.round} "
            f"(seed {seed})"
        )
        per_seat = ", ".join(f"seat {b.seat} {b.cpu:.2f} cpu / {b.wall:.2f} wait" for b in bills)
        details.append(f"{name}: {per_seat} s")
    print("\nThe columns are those of the whole games above. A mix is one seat's shuffle of a")
    print("deck with its proof; a re-mix, a holder's shuffle of its own hand after another seat")
    print("learnt a card of it; a fair draw, one joint random number (setup, each steal).")
    for line in details:
        print("  " + line)


def parse_games(text: str) -> tuple[tuple[str, int], ...]:
    """``cake-master:4,cake-duel:2`` → ((game, players), …)."""
    out = []
    for item in text.split(","):
        game, _, players = item.strip().partition(":")
        out.append((game, int(players or 4)))
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    """Print the figures; the exit status is 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated peers")
    parser.add_argument(
        "--after-only", action="store_true", help="skip the (slow) cut-and-choose figures"
    )
    parser.add_argument(
        "--games",
        type=parse_games,
        default=WHOLE_GAMES,
        help="whole games to play, game:players,… "
        "(default cake-master:4,cookies-battle:4,cookies-battle:2)",
    )
    parser.add_argument(
        "--whole-only", action="store_true", help="only the whole games, not the set-up"
    )
    parser.add_argument(
        "--doom", action="store_true", help="only Cake of Doom's whole games, open and blind"
    )
    args = parser.parse_args(argv)
    if args.doom:
        print(f"reproduce: .venv/bin/python bench/mental.py --seed {args.seed} --doom")
        doom_games(args.seed)
        return 0
    if args.whole_only:
        print(f"reproduce: .venv/bin/python bench/mental.py --seed {args.seed} --whole-only")
        whole_games(args.games, args.seed)
        return 0
    rb = seeded_random_bytes(b"bench/mental/" + str(args.seed).encode())
    t_var, t_base = time_one_mult(rb)

    flags = " --after-only" if args.after_only else ""
    print(f"reproduce: .venv/bin/python bench/mental.py --seed {args.seed}{flags}")
    print(
        f"one scalar multiplication: {t_var * 1e6:.1f} µs (variable base), "
        f"{t_base * 1e6:.1f} µs (fixed base)"
    )
    print("after: shuffle argument (2^-128); before: cut-and-choose, λ = 32 (2^-32, grindable)\n")
    head = (
        f"{'room':<16}{'aim s':>6}{'wait s':>7}{'after s/peer':>13}{'before s/peer':>14}"
        f"{'speed-up':>9}{'mults/peer':>11}{'before':>8}{'after total':>12}{'ratio*':>7}"
    )
    print(head)
    print("-" * len(head))
    details = []
    aims = {(2, 22): 0.1, (6, 130): 1.0}
    for players, cards, dealt in CONFIGS:
        peers, worst = measure(players, cards, dealt, argument(), rb)
        total = sum(p.total for p in peers)
        base = sum(p.ops.base for p in peers)
        var = sum(p.ops.var for p in peers)
        ratio_star = total / (var * t_var + base * t_base)
        before: Peer | None = None
        if not args.after_only:
            _, before = measure(players, cards, dealt, cut_and_choose_32(), rb)
        name = f"{players} × {cards}, deal {dealt}"
        aim = aims.get((players, cards))
        print(
            f"{name:<16}{'' if aim is None else f'{aim:g}':>6}{worst.wall:>7.3f}"
            f"{worst.total:>13.3f}"
            f"{'-' if before is None else f'{before.total:.3f}':>14}"
            f"{'-' if before is None else f'{before.total / worst.total:.1f}×':>9}"
            f"{worst.ops.mults:>11}{'-' if before is None else before.ops.mults:>8}"
            f"{total:>12.3f}{ratio_star:>7.2f}"
        )
        for label, peer in (("after", worst), ("before", before)):
            if peer is None:
                continue
            phases = ", ".join(f"{ph} {peer.cpu[ph]:.3f}" for ph in PHASES)
            details.append(
                f"{name}, {label}: busiest peer (seat {peer.seat}) {phases} s; "
                f"{peer.ops.base} fixed-base + {peer.ops.var} variable-base mults, "
                f"{peer.ops.checks} point checks"
            )
    print("\ns/peer (CPU) and mults/peer are the busiest peer's (prove its own mix, check the")
    print("others', its part of the deal); wait is its wall-clock time for the same work, the")
    print("checks spread over the cores; ratio* prices each multiplication at its kind's cost.")
    for line in details:
        print("  " + line)
    whole_games(args.games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

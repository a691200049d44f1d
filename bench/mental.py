"""Set-up cost of the mental deck, per peer and in total.

Simulates every peer of a room in one process and charges each operation to the peer that
would do it: a game key with its Schnorr proof, checking every other key, one mix with its
shuffle proof, checking every other seat's mix, and the initial deal (each card's shares
with DLEQ proofs from every seat but its recipient, each share checked by every other
seat, the recipient decrypting). Times are CPU seconds (``time.process_time``).

The ratio relates the measured time to the scalar multiplications done: ``ratio`` counts
every multiplication at the price of one variable-base multiplication; ``ratio*`` prices
fixed-base ones at their own (lower) cost, so what it shows above 1 is everything else —
point additions and checks, hashing, Python.

Run from the repository root::

    .venv/bin/python bench/mental.py [--lambda 32] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import nacl.bindings

from cakeparty.protocol.elgamal import CardTable, GameKey, decrypt, initial_deck, joint_key
from cakeparty.protocol.group import (
    COUNTER,
    OpCount,
    Point,
    RandomBytes,
    mul_base,
    random_scalars,
    seeded_random_bytes,
)
from cakeparty.protocol.proofs import (
    DEFAULT_LAMBDA,
    make_share,
    prove_key,
    shuffle,
    verify_key,
    verify_share,
    verify_shuffle,
)

CONFIGS = ((2, 22, 4), (4, 42, 4), (6, 130, 8))  # players, cards, cards dealt to each
PHASES = ("keys", "mix", "verify mixes", "deal")
ROOM = "bench-room"


@dataclass
class Peer:
    """One simulated seat and the work charged to it."""

    seat: int
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    ops: OpCount = field(default_factory=lambda: OpCount(0, 0, 0))

    @property
    def total(self) -> float:
        return sum(self.cpu.values())


@contextmanager
def charged(peer: Peer, phase: str) -> Iterator[None]:
    """Charge the CPU time and group operations of the block to ``peer``."""
    ops = COUNTER.snapshot()
    start = time.process_time()
    yield
    peer.cpu[phase] += time.process_time() - start
    delta = COUNTER.snapshot() - ops
    peer.ops = OpCount(
        peer.ops.base + delta.base, peer.ops.var + delta.var, peer.ops.checks + delta.checks
    )


def set_up(players: int, cards: int, dealt: int, lam: int, rb: RandomBytes) -> list[Peer]:
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
            out, proof_mix = shuffle(ROOM, peer.seat, joint, deck, lam=lam, random_bytes=rb)
        for other in peers:
            if other is not peer:
                with charged(other, "verify mixes"):
                    verify_shuffle(ROOM, peer.seat, joint, deck, out, proof_mix, lam=lam)
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


def main(argv: list[str] | None = None) -> int:
    """Print the figures; the exit status is 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lambda", dest="lam", type=int, default=DEFAULT_LAMBDA)
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated peers")
    args = parser.parse_args(argv)
    rb = seeded_random_bytes(b"bench/mental/" + str(args.seed).encode())
    t_var, t_base = time_one_mult(rb)

    print(f"reproduce: .venv/bin/python bench/mental.py --lambda {args.lam} --seed {args.seed}")
    print(
        f"one scalar multiplication: {t_var * 1e6:.1f} µs (variable base), "
        f"{t_base * 1e6:.1f} µs (fixed base)"
    )
    print(f"shuffle proofs with λ = {args.lam} shadow mixes\n")
    head = (
        f"{'room':<15}{'CPU s/peer':>11}{'CPU s total':>12}{'mults/peer':>12}"
        f"{'mults total':>13}{'checks total':>14}{'ratio':>7}{'ratio*':>8}"
    )
    print(head)
    print("-" * len(head))
    details = []
    for players, cards, dealt in CONFIGS:
        peers = set_up(players, cards, dealt, args.lam, rb)
        total = sum(p.total for p in peers)
        base = sum(p.ops.base for p in peers)
        var = sum(p.ops.var for p in peers)
        checks = sum(p.ops.checks for p in peers)
        worst = max(peers, key=lambda p: p.total)
        ratio = total / ((base + var) * t_var)
        ratio_star = total / (var * t_var + base * t_base)
        name = f"{players} × {cards}, deal {dealt}"
        print(
            f"{name:<15}{worst.total:>11.3f}{total:>12.3f}{worst.ops.mults:>12}"
            f"{base + var:>13}{checks:>14}{ratio:>7.2f}{ratio_star:>8.2f}"
        )
        phases = ", ".join(f"{ph} {worst.cpu[ph]:.3f}" for ph in PHASES)
        details.append(
            f"{name}: busiest peer (seat {worst.seat}) {phases} s; "
            f"its mults {worst.ops.base} fixed-base + {worst.ops.var} variable-base"
        )
    print("\nCPU s/peer and mults/peer are the busiest peer's; per phase:")
    for line in details:
        print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

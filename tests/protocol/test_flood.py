"""A flood from a stranger and from a seated player leaves a session's memory bounded: it
keeps only small records, within fixed counts and bytes, and answers ``sync`` sparingly.
(The same flood for ten minutes through a real broker: ``bench/soak.py``.)"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from cakeparty.protocol.errors import MAX_INCIDENTS, Incident
from cakeparty.protocol.peer import MAX_AHEAD_BYTES, MAX_AHEAD_STEPS
from cakeparty.protocol.session import MAX_ANSWER_BYTES, NUDGE


def soak() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "soak.py"
    spec = importlib.util.spec_from_file_location("bench_soak", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_soak"] = module
    spec.loader.exec_module(module)
    return module


def test_a_flood_from_a_stranger_and_a_seated_player_keeps_memory_bounded(
    tmp_path: Path,
) -> None:
    bench = soak()
    victim, attacker = bench.warm_up(12, tmp_path)
    victim.outbox.clear()
    honest = victim.peers[0]
    history = list(honest.history)
    log = [e for step in honest.log for e in step]
    seated = attacker.peers[0].identity
    rng = random.Random(3)
    sent = received = 0
    for n in range(40):  # every round is a whole flood; the clock moves a second a round
        now = 1.0 + n
        for data in bench.flood(rng, victim.table, seated, log, honest.seq):
            received += len(data)
            victim.receive(data, now)
        sent += sum(len(d) for d in victim.outbox)
        victim.outbox.clear()
    kept = victim.footprint()
    # nothing of what was refused is kept but a few small records (an envelope off the
    # log is counted, not named: an honest seat sends one when another signed a step twice)
    assert kept["incidents"] <= 2 * MAX_INCIDENTS
    records = list(victim.incidents) + [i for p in victim.peers for i in p.incidents]
    assert all(type(i) is Incident and len(i.reason) <= 160 for i in records)
    assert kept["ignored"] > 40 * 30  # garbage, strangers, forgeries: counted only
    # the look-ahead holds a few steps and a few MiB, not 40 rounds of far-future bodies
    assert kept["held_envelopes"] <= MAX_AHEAD_STEPS
    assert kept["held_bytes"] <= MAX_AHEAD_BYTES
    assert kept["votes"] <= 2 and kept["answered"] <= 1
    # sync answers: at most one per NUDGE for the one seated asker, each bounded
    answers = 40 // int(NUDGE) + 1
    assert sent <= answers * (MAX_ANSWER_BYTES + 64 * 1024)
    assert sent < received / 20
    # and the game is untouched
    assert honest.history == history and not victim.finished

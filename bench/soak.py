"""A peer under a flood: its memory must stay flat whatever a stranger or a seated player sends.

    python bench/soak.py [--minutes 10] [--moves 30]

A victim peer (an honest seat's session, with a log of a few dozen steps) listens on a
room of a real embedded broker (``cakeparty broker``, its own process). Another process
floods the room's log topic, as fast as the broker takes it, with

* from a stranger: garbage bytes, envelopes signed by a key with no seat, envelopes that
  claim a seated sender under a signature that does not verify;
* from the other seated player: envelopes for far-future steps and for the next few steps
  (large bodies: the byte budget), ``sync`` requests for every step, replays of the log
  (as is and altered), abandonment votes, and junk bodies for the open step.

The victim's process reports its memory (RSS and tracemalloc) at the start, its peak and at
the end, with the counts and bytes of what its session keeps (:meth:`GameSession.footprint`),
and what it received and sent (sync answers are rate-limited and bounded: compare the bytes).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cakeparty.core import get_game
from cakeparty.protocol import steps as st
from cakeparty.protocol import topics
from cakeparty.protocol.codec import Envelope, seal
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import ABANDON, NO_PREV, SYNC
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.protocol.transport import BrokerAddress, Transport

ROOM = "SOAK01"
MIB = 2**20
NORMAL = get_game("cake-duel").bots["normal"]


def identities() -> list[Identity]:
    return [Identity.generate(f"P{i}", seeded_random_bytes(f"soak{i}".encode())) for i in (0, 1)]


def table(ids: list[Identity]) -> Table:
    players = [(i.player_id, i.name) for i in ids]
    return Table.of(ROOM, "cake-duel", players, timeout=10**6)


def warm_up(moves: int, work: Path) -> list[GameSession]:
    """Two honest sessions play ``moves`` moves in process: the victim gets a real log."""
    ids = identities()
    t = table(ids)
    sessions = [GameSession(t, [i], journal_dir=work / f"p{n}") for n, i in enumerate(ids)]
    rng = random.Random(1)
    for _ in range(moves + 1):
        while any(s.outbox for s in sessions):
            batch = [d for s in sessions for d in s.outbox]
            for s in sessions:
                s.outbox.clear()
            for s in sessions:
                for data in batch:
                    s.receive(data, 0.0)
        due = [(s, p, v) for s in sessions for p, v in s.due()]
        if not due or len(sessions[0].peers[0].log) >= 10_000:
            break
        session, peer, view = due[0]
        session.act(peer.seat, NORMAL(view, rng))
    return sessions


# -- the flood ----------------------------------------------------------------------------


def flood(
    rng: random.Random, t: Table, seated: Identity, log: list[Envelope], seq: int
) -> Iterator[bytes]:
    """One round of every kind of hostile message (the test uses it too)."""
    stranger = Identity.generate("Eve", seeded_random_bytes(rng.randbytes(8)))
    kinds = [*st.KINDS, SYNC, ABANDON]

    def signed(key: Identity, **fields: Any) -> Envelope:
        fields.setdefault("room", t.room)
        fields.setdefault("prev", rng.randbytes(32))
        return seal(key.signing_key, **fields)

    def wire(key: Identity, seq: int, kind: str, body: Any, **fields: Any) -> bytes:
        return signed(key, seq=seq, kind=kind, body=body, **fields).to_bytes()

    # a stranger
    for _ in range(20):
        yield rng.randbytes(rng.randrange(0, 300))
    for _ in range(5):
        body = {"a": ["pass"], "junk": rng.randbytes(1000)}
        yield signed(
            stranger, seq=rng.randrange(10**6), kind=rng.choice(kinds), body=body
        ).to_bytes()
    for _ in range(5):
        env = signed(stranger, seq=seq, kind=st.ACTION, body={"a": ["pass"]})
        claimed = Envelope(env.v, env.room, env.seq, env.prev, t.players[rng.randrange(2)],
                           env.kind, env.body, env.sig)  # fmt: skip
        yield claimed.to_bytes()
    # the seated player
    for _ in range(5):
        far = seq + rng.randrange(65, 10**9)
        yield signed(
            seated, seq=far, kind=rng.choice(st.KINDS), body={"x": rng.randbytes(65536)}
        ).to_bytes()
    for _ in range(5):
        near = seq + rng.randrange(1, 65)
        yield signed(
            seated, seq=near, kind=rng.choice(st.KINDS), body={"x": rng.randbytes(262144)}
        ).to_bytes()
    for _ in range(10):
        yield signed(
            seated, seq=rng.randrange(seq + 1), prev=NO_PREV, kind=SYNC, body={}
        ).to_bytes()
    for _ in range(10):
        if log:
            old = bytearray(rng.choice(log).to_bytes())
            yield bytes(old)
            old[rng.randrange(len(old))] ^= 0x40
            yield bytes(old)
    for _ in range(5):
        body = {"seat": rng.randrange(2), "step": rng.randbytes(32)}
        yield signed(
            seated, seq=rng.randrange(seq + 2), prev=NO_PREV, kind=ABANDON, body=body
        ).to_bytes()
    for _ in range(5):
        body = {
            "a": [rng.choice(["pass", "claim", "x"]), rng.randrange(100)],
            "n": rng.randbytes(500),
        }
        yield signed(seated, seq=seq, kind=rng.choice(st.KINDS), body=body).to_bytes()


async def attack(url: str, minutes: float, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sessions = warm_up(moves, Path(tmp))
    honest = sessions[0].peers[0]
    log = [e for step in honest.log for e in step]
    seq = honest.seq
    t = sessions[0].table
    seated = identities()[1]
    rng = random.Random(7)
    sent = sent_bytes = 0
    end = time.monotonic() + minutes * 60
    address = BrokerAddress.parse(url)
    async with Transport(address, client_id=f"soak-attacker-{os.getpid()}") as out:
        while time.monotonic() < end:
            for data in flood(rng, t, seated, log, seq):
                await out.publish(topics.log(ROOM), data)
                sent += 1
                sent_bytes += len(data)
            await asyncio.sleep(0)
    print(json.dumps({"attacker_sent": sent, "attacker_bytes": sent_bytes}), flush=True)


# -- the victim ---------------------------------------------------------------------------


def rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def victim(url: str, minutes: float, moves: int) -> dict[str, Any]:
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp:
        session = warm_up(moves, Path(tmp))[0]
        session.outbox.clear()
        gc.collect()
        start = (rss(), tracemalloc.get_traced_memory()[0])
        peak_rss = start[0]
        received = received_bytes = sent = sent_bytes = 0
        address = BrokerAddress.parse(url)
        me = Path(__file__).resolve()
        async with Transport(address, client_id=f"soak-victim-{os.getpid()}") as t:
            await t.subscribe(topics.log(ROOM))
            await asyncio.sleep(0.5)
            attacker = await asyncio.create_subprocess_exec(
                sys.executable, str(me), "--role", "attacker", "--url", url,
                "--minutes", str(minutes), "--moves", str(moves),
                stdout=subprocess.PIPE,
            )  # fmt: skip
            last = time.monotonic()
            samples = []

            async def read() -> None:
                nonlocal received, received_bytes, sent, sent_bytes
                async for message in t.messages():
                    if message.topic != str(topics.log(ROOM)):
                        continue
                    received += 1
                    received_bytes += len(message.payload)
                    session.receive(message.payload, time.monotonic())
                    while session.outbox:
                        data = session.outbox.pop(0)
                        sent += 1
                        sent_bytes += len(data)
                        await t.publish(topics.log(ROOM), data)

            reader = asyncio.create_task(read())
            waiting = asyncio.create_task(attacker.wait())
            while not waiting.done():
                await asyncio.sleep(1.0)
                session.tick(time.monotonic())
                peak_rss = max(peak_rss, rss())
                if time.monotonic() - last >= 30:
                    last = time.monotonic()
                    samples.append((round(rss() / 2**20, 1), received, t.received()))
                    print(f"  rss {samples[-1][0]} MiB, {received} received", file=sys.stderr)
            assert attacker.stdout is not None
            attacked = json.loads((await attacker.stdout.read()).decode() or "{}")
            while t.received():  # what the broker still delivers
                await asyncio.sleep(0.2)
            reader.cancel()
            dropped = t.dropped
            unread = t.queued_bytes  # held by the transport still (at most its 32 MiB)
        gc.collect()
        end = (rss(), tracemalloc.get_traced_memory()[0])
        traced_peak = tracemalloc.get_traced_memory()[1]
    return {
        "minutes": minutes,
        "rss_mib": {"start": start[0] / 2**20, "peak": peak_rss / 2**20, "end": end[0] / 2**20},
        "traced_mib": {
            "start": start[1] / 2**20,
            "peak": traced_peak / 2**20,
            "end": end[1] / 2**20,
        },
        "received": received,
        "received_mib": received_bytes / 2**20,
        "sent": sent,
        "sent_mib": sent_bytes / 2**20,
        "footprint": session.footprint(),
        "samples_rss_received_queued": samples,
        "transport_dropped": dropped,
        "transport_unread_mib": unread / MIB,
        **attacked,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--moves", type=int, default=30, help="moves played before the flood")
    parser.add_argument("--role", choices=["victim", "attacker"], default="victim")
    parser.add_argument("--url", help="a broker to use (default: start an embedded one)")
    args = parser.parse_args()
    if args.role == "attacker":
        asyncio.run(attack(args.url, args.minutes, args.moves))
        return
    if args.url:
        result = asyncio.run(victim(args.url, args.minutes, args.moves))
    else:
        from tests.brokers import embedded_broker_process

        with embedded_broker_process() as url:
            result = asyncio.run(victim(url, args.minutes, args.moves))
    r, m = result["rss_mib"], result["traced_mib"]
    print(
        f"flood of {result['minutes']} min: {result['received']} messages "
        f"({result['received_mib']:.1f} MiB) in, "
        f"{result['sent']} ({result['sent_mib']:.2f} MiB) out"
    )
    print(f"RSS MiB        start {r['start']:.1f}  peak {r['peak']:.1f}  end {r['end']:.1f}")
    print(f"tracemalloc MiB start {m['start']:.1f}  peak {m['peak']:.1f}  end {m['end']:.1f}")
    print("kept:", result["footprint"], "dropped unread:", result["transport_dropped"])
    print(json.dumps(result))


if __name__ == "__main__":
    main()

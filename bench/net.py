"""Network play through Mosquitto on loopback: move round-trip latency, traffic per duel.

    python bench/net.py [--duels N] [--lambda L]

Every seat is a bot with its own MQTT connection, keys and peer, as in a real room (here
in one process, so one clock times them all). A move's round trip is the time from the
moment its seat publishes it until every seat has checked and applied it. Traffic is all
that crossed the room's log topic (envelopes, resync requests and answers), per duel.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cakeparty.protocol import steps as st
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import new_room_code
from cakeparty.protocol.network import HostSetup, RoomRunner
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.transport import BrokerAddress
from tests.brokers import Mosquitto, mosquitto_binary

SENT: dict[tuple[str, int], float] = {}
APPLIED: dict[tuple[str, int], list[float]] = {}

_send = Peer._send
_complete = Peer._complete


def _timed_send(self: Peer, kind: str, body: Any) -> None:
    if kind == st.ACTION:
        SENT[(self.table.room, self.seq)] = time.perf_counter()
    _send(self, kind, body)


def _timed_complete(self: Peer) -> None:
    if self.step.kind == st.ACTION:
        APPLIED.setdefault((self.table.room, self.seq), []).append(time.perf_counter())
    _complete(self)


Peer._send = _timed_send  # type: ignore[method-assign]
Peer._complete = _timed_complete  # type: ignore[method-assign]


async def duel(url: str, players: int, work: Path) -> tuple[int, int, list[float]]:
    broker = BrokerAddress.parse(url)
    room = new_room_code()
    host = RoomRunner(
        broker=broker,
        identity=Identity.generate("Referee"),
        room=room,
        host=HostSetup("cake-duel", players, {"full": True}),
        seated=False,
        journal_dir=work / room / "host",
    )
    bots = [
        RoomRunner(
            broker=broker,
            identity=Identity.generate(f"Bot {i}"),
            room=room,
            bot="normal",
            journal_dir=work / room / f"bot{i}",
            seed=i,
        )
        for i in range(players)
    ]
    hosting = asyncio.create_task(host.run())
    await asyncio.gather(*(b.run() for b in bots))
    host.stop()
    await hosting
    trips = [
        max(times) - SENT[key]
        for key, times in APPLIED.items()
        if key[0] == room and key in SENT and len(times) == players
    ]
    return host.log_messages, host.log_bytes, trips


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=3)
    args = parser.parse_args()
    if mosquitto_binary() is None:
        print("Mosquitto is not installed (apt-get install mosquitto)")
        return 1
    print(f"command: python bench/net.py --duels {args.duels}")
    work = Path(tempfile.mkdtemp(prefix="cakeparty-bench-"))
    with Mosquitto() as mosquitto:
        for players in (2, 4):
            messages, volume, trips = [], [], []
            started = time.perf_counter()
            for _ in range(args.duels):
                m, b, t = asyncio.run(duel(mosquitto.url, players, work))
                messages.append(m)
                volume.append(b)
                trips.extend(t)
            seconds = (time.perf_counter() - started) / args.duels
            trips.sort()
            p99 = trips[min(len(trips) - 1, int(0.99 * len(trips)))]
            print(
                f"{players} peers: move round trip median {statistics.median(trips) * 1e3:.1f} ms,"
                f" p99 {p99 * 1e3:.1f} ms ({len(trips)} moves);"
                f" per duel {statistics.mean(messages):.0f} messages,"
                f" {statistics.mean(volume) / 1024:.0f} KiB, {seconds:.1f} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A host's app without its screen, as a process of its own: ``NetRoom`` hosting a duel
(its own seat played by a bot), exactly as ``cakeparty host`` runs it under the lobby.

    python hostproc.py --port P          host a new room; broker on port P
    python hostproc.py --resume ROOM     come back to ROOM, as ``cakeparty host --resume``

It prints one JSON line when the room is open ({"room", "code", "port"}) and one when
the game is over (the same result as ``cakeparty bot --json``). Keys and journals live
where ``CAKEPARTY_CONFIG_DIR`` and ``CAKEPARTY_DATA_DIR`` say.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

from cakeparty.protocol import hosting
from cakeparty.protocol.identity import load_or_create
from cakeparty.tui.netcli import _result
from cakeparty.tui.netroom import HostPlan, NetRoom


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--resume", default=None)
    parser.add_argument("--timeout", type=int, default=120)
    args = parser.parse_args()
    identity = load_or_create("Hostbot")
    if args.resume is not None:
        record = hosting.resumable(identity.player_id, args.resume)
        assert record is not None, f"nothing to resume for {args.resume}"
        plan = HostPlan.resuming(record)
    else:
        plan = HostPlan(players=2, timeout=args.timeout, port=args.port, lan=False)
    room = NetRoom(identity, plan, seat_bot="normal")
    started = time.monotonic()

    def event(e: object) -> None:
        kind = getattr(e, "kind", "")
        if kind in ("started", "finished", "incident", "error", "connection"):
            print(f"[{kind}] {getattr(e, 'text', '')}", file=sys.stderr, flush=True)

    def notice(text: str, severity: str) -> None:
        print(f"[{severity}] {text}", file=sys.stderr, flush=True)

    task = asyncio.create_task(room.run(event, notice))
    while not room.connected:  # the broker listens, and the room is announced
        if task.done():
            task.result()
            return 1
        await asyncio.sleep(0.05)
    print(json.dumps({"room": room.room, "code": room.code, "port": room.port}), flush=True)

    def settled() -> bool:  # the game is over and audited (the room itself stays, lingering)
        runner = room.runner
        return runner.finished_at is not None and _result(runner, started)["audit"] not in (
            "not audited",
            "no game",
        )

    while not settled():
        if task.done():
            task.result()
            return 1
        await asyncio.sleep(0.1)
    room.leave()
    await asyncio.wait_for(task, 30)
    print(json.dumps(_result(room.runner, started)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

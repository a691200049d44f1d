"""LAN discovery: a host announced with zeroconf is found by a browser."""

from __future__ import annotations

import asyncio
import contextlib

from cakeparty.broker.discovery import SERVICE, Advertiser, browse, local_address
from cakeparty.broker.embedded import free_port
from cakeparty.protocol.lobby import new_room_code

# Each run announces rooms of its own: another run on the same LAN (two checkouts tested
# at once) announces on the same network, and its rooms must not count here.


async def test_an_announced_room_is_found_on_the_lan() -> None:
    code, port = new_room_code(), free_port()
    url = f"mqtt://{local_address()}:{port}"
    async with Advertiser(name="Ann's table", port=port, broker=url, room=code, game="cake-duel"):
        found = [f for f in await browse(2.0) if f.room == code]
    assert len(found) == 1
    (room,) = found
    assert room.broker == url and room.game == "cake-duel" and room.version == "1"
    assert room.name.startswith("Anns table")
    assert SERVICE == "_cakeparty._tcp.local."


async def test_a_room_gone_from_the_lan_is_not_found() -> None:
    code = new_room_code()
    async with Advertiser(name="Bob", port=free_port(), broker="mqtt://x:1", room=code):
        pass
    assert [f for f in await browse(1.0) if f.room == code] == []


async def test_what_a_stranger_announces_on_the_lan_is_checked_before_it_is_listed() -> None:
    """A room hint that is no room code, a game that is no game's name, a broker that is
    no address (escape sequences for the terminal, a forged line) lists no room."""
    from cakeparty.tui.netroom import find_rooms

    port = free_port()  # nothing listens: the brokers named are asked, and answer nothing
    good = new_room_code()
    here = f"mqtt://127.0.0.1:{port}"
    forged = [
        ("evil room", "cake-duel", here),
        (new_room_code(), "cake-duel\x1b[2J", here),
        (new_room_code(), "cake-duel\nAnn's room", here),
        (new_room_code(), "cake-duel", "mqtt://%1b%5b2J@127.0.0.1:1"),
    ]
    async with contextlib.AsyncExitStack() as stack:
        for room, game, broker in [*forged, (good, "cake-duel", here)]:
            await stack.enter_async_context(
                Advertiser(name="Eve", port=port, broker=broker, room=room, game=game)
            )
        looked = await find_rooms((), seconds=2.0, notice=lambda text, severity: None)
    mine = {r.room for r in looked.rooms} & {good, *(room for room, _g, _b in forged)}
    assert mine == {good}  # the one honest announcement, and only it


async def test_names_announced_with_nothing_behind_them_do_not_hold_the_look_up() -> None:
    """A stranger on the LAN announces forty service names alone (no address, no port, no
    details to ask for): each was asked for its details in turn, 1.5 s apiece, a minute
    for these forty, the join list empty all that while. They are asked all together now,
    and a room announced whole beside them is found."""
    from zeroconf import DNSOutgoing, DNSPointer, const
    from zeroconf.asyncio import AsyncZeroconf

    code, port = new_room_code(), free_port()
    stranger = AsyncZeroconf()
    run = new_room_code().lower()  # another run's names are its own

    async def announce() -> None:
        for _ in range(10):  # again and again, as the look listens
            out = DNSOutgoing(const._FLAGS_QR_RESPONSE | const._FLAGS_AA)
            for i in range(40):
                name = f"eve-{run}-{i:02d}.{SERVICE}"
                out.add_answer_at_time(
                    DNSPointer(SERVICE, const._TYPE_PTR, const._CLASS_IN, 120, name), 0
                )
            stranger.zeroconf.send(out)
            await asyncio.sleep(0.25)

    try:
        url = f"mqtt://{local_address()}:{port}"
        async with Advertiser(name="Ann", port=port, broker=url, room=code, game="cake-duel"):
            flooding = asyncio.create_task(announce())
            # before: 2 s of listening and 40 × 1.5 s of asking; now about 3.5 s
            found = await asyncio.wait_for(browse(2.0), 30)
            await flooding
    finally:
        await stranger.async_close()
    assert [f.room for f in found if f.room == code] == [code]
    assert not [f for f in found if run in f.name]


#: A program whose event loop ends while a room is announced on the LAN, as the app's does
#: on SIGTERM: ``asyncio.run`` cancels the task that announces it on the way out (and, the
#: second time, cancels one still announcing).
ENDS_WHILE_ANNOUNCED = """
import asyncio, sys
from cakeparty.broker.discovery import Advertiser

async def main(wait: bool) -> None:
    announced = asyncio.Event()

    async def announce() -> None:
        async with Advertiser(name="Ann", port=1, broker="mqtt://127.0.0.1:1", room=sys.argv[1]):
            announced.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(announce())
    if wait:
        await announced.wait()
    else:
        await asyncio.sleep(0.2)  # still making sure the name is free on the LAN
        task.cancel()
        await asyncio.wait({task})

asyncio.run(main(True))
asyncio.run(main(False))
print("done")
"""


def test_an_event_loop_ending_while_a_room_is_announced_leaves_nothing_pending() -> None:
    """The goodbye on the LAN is said before the event loop ends: it was left to a task of
    zeroconf's that nobody waited for, and ``kill`` of an app hosting a room printed
    "Task was destroyed but it is pending! … Zeroconf._async_broadcast_service()"."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", ENDS_WHILE_ANNOUNCED, new_room_code()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout == "done\n", done.stderr
    assert done.stderr == ""

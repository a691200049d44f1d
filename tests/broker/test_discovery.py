"""LAN discovery: a host announced with zeroconf is found by a browser."""

from __future__ import annotations

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

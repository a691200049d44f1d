"""LAN discovery: a host announced with zeroconf is found by a browser."""

from __future__ import annotations

from cakeparty.broker.discovery import SERVICE, Advertiser, browse, local_address


async def test_an_announced_room_is_found_on_the_lan() -> None:
    url = f"mqtt://{local_address()}:18830"
    async with Advertiser(
        name="Ann's table", port=18830, broker=url, room="K7QM2X", game="cake-duel"
    ):
        found = [f for f in await browse(2.0) if f.room == "K7QM2X"]
    assert len(found) == 1
    (room,) = found
    assert room.broker == url and room.game == "cake-duel" and room.version == "1"
    assert room.name.startswith("Anns table")
    assert SERVICE == "_cakeparty._tcp.local."


async def test_a_room_gone_from_the_lan_is_not_found() -> None:
    async with Advertiser(name="Bob", port=18831, broker="mqtt://x:1", room="GONE42"):
        pass
    assert [f for f in await browse(1.0) if f.room == "GONE42"] == []

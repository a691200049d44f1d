"""The join list puts a game under way that keeps this player's seat first, and says so."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from cakeparty.protocol.identity import load_or_create
from cakeparty.protocol.lobby import CLOSED, OPEN, PLAYING, Advert, Seat
from cakeparty.tui.netroom import JoinPlan, JoinSearch, RoomFound
from cakeparty.tui.screens.rooms import JoinScreen, room_line

from .pilot import SIZE, make_app

BROKER = "mqtt://127.0.0.1:1"


def _room(room: str, state: str, *players: bytes) -> RoomFound:
    taken = tuple(Seat(p, f"P{i}") for i, p in enumerate(players))
    advert = Advert(
        room=room, game="cake-duel", host=b"h" * 32, host_name="Ann", seats=2,
        taken=taken, state=state,
    )  # fmt: skip
    return RoomFound(room, BROKER, "cake-duel", advert)


def test_a_room_under_way_with_my_seat_says_so_and_others_do_not() -> None:
    me, other = b"m" * 32, b"o" * 32
    mine = room_line(_room("AAAAAA", PLAYING, other, me), me).plain
    assert "your seat: enter to go back" in mine
    theirs = room_line(_room("BBBBBB", PLAYING, other, b"x" * 32), me).plain
    assert "playing" in theirs and "your seat" not in theirs
    # an open room is joined as any other; a closed one has nothing to go back to
    assert "your seat" not in room_line(_room("CCCCCC", OPEN, me), me).plain
    assert "your seat" not in room_line(_room("DDDDDD", CLOSED, other, me), me).plain
    assert "your seat" not in room_line(_room("AAAAAA", PLAYING, other, me), None).plain


async def test_the_room_holding_my_seat_comes_first_and_enter_goes_back_to_it(
    config_dir: Path,
) -> None:
    me = load_or_create("Bob").player_id
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        # the rooms are made up here: no look by itself replaces them
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        chosen: list[JoinPlan | None] = []
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        assert screen.me == me
        others = _room("BBBBBB", OPEN, b"o" * 32)
        mine = _room("AAAAAA", PLAYING, b"o" * 32, me)
        screen.show_rooms([others, mine])
        await pilot.pause()
        assert [r.room for r in screen.rooms] == ["AAAAAA", "BBBBBB"]
        screen.query_one("#join-rooms").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert chosen and chosen[0] is not None and chosen[0].room == mine.code


async def test_a_code_typed_while_rooms_are_listed_is_typed_even_from_the_list() -> None:
    """Rooms that turn up while a player types a code do not take the keyboard, and a
    code typed in the list goes to the field: no letter of it is read as a key (``w``
    watches in the list, and room codes hold a W as often as any letter)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = JoinScreen(JoinSearch(lan=False, every=None))
        chosen: list[object] = []
        app.push_screen(screen, chosen.append)
        await pilot.pause()
        field = screen.query_one("#join-input", Input)
        await pilot.press("k", "7")
        screen.show_rooms([_room("AAAAAA", OPEN), _room("BBBBBB", OPEN)])
        await pilot.pause()
        assert app.focused is field
        await pilot.press("w", "q")
        assert field.value == "k7wq" and chosen == []
        # ↓ goes to the list; a letter typed there goes back to the field
        field.value = ""
        await pilot.press("down")
        assert app.focused is screen.query_one("#join-rooms")
        await pilot.press("x", "w")
        assert app.focused is field and field.value == "xw" and chosen == []
        # enter in an empty field joins the room under the list's cursor
        field.value = ""
        await pilot.press("down", "down", "tab")
        await pilot.pause()
        field.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert chosen == [JoinPlan(_room("BBBBBB", OPEN).code, BROKER)]

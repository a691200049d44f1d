"""The lobby's options panel at 80×24, in every language: the game's name and its number
of players each read whole, on one line together where they fit, never wrapped in the
middle of either; and the join command beside it whole on one line."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from cakeparty.broker.embedded import free_port
from cakeparty.core.i18n import ngettext
from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.registration import game_title, registered

from .languages import speaking
from .pilot import SIZE, until
from .test_table_says import region_text, screen_text

GAMES = [table.name for table in registered()]


@pytest.mark.parametrize("language", ["en", "es", "pl"])
@pytest.mark.parametrize("game", GAMES)
async def test_the_game_and_its_players_read_whole_in_the_options(game: str, language: str) -> None:
    counts = [c.count for c in next(t for t in registered() if t.name == game).counts]
    players = max(counts)
    port = free_port()  # nothing listens there: the panel shows the host's own plan
    plan = HostPlan(game=game, players=players, broker=f"mqtt://127.0.0.1:{port}", lan=False)
    with speaking(language):
        title = game_title(game)
        count = ngettext("{n} player", "{n} players", players).format(n=players)
        settings = Settings(name="Ann", bot_delay=0.0, language=language)
        app = CakePartyApp(settings, plan, persist=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: lobby.problem is not None, "the problem", 20)
            await pilot.pause()
            rows = region_text(app, lobby.query_one("#lobby-options")).splitlines()
            rows = [row.rstrip() for row in rows]
            if rows[0] != f"{title} · {count}":  # too long together: a line each
                assert rows[0] == title and rows[1] == count, rows


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_the_join_command_reads_whole_on_one_line(language: str) -> None:
    """The command the others type to join (a user copies it) reads whole on one line at
    80×24, beside its label or under it; in the tallest lobby (six seats, every option
    on) the options panel still shows all its lines, and the screen does not scroll."""
    plan = HostPlan(
        game="cake-of-doom",
        players=6,
        options={"advanced": True, "blind": True},
        port=free_port(),
        lan=False,
    )
    with speaking(language):
        settings = Settings(name="Ann", bot_delay=0.0, language=language)
        app = CakePartyApp(settings, plan, persist=False)
        async with app.run_test(size=SIZE) as pilot:
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            await until(pilot, lambda: lobby.room is not None and lobby.room.connected, "the room")
            await pilot.pause()
            room = lobby.room
            assert room is not None
            command = room.join_command()
            rows = screen_text(app).splitlines()
            assert any(command in row for row in rows), "\n".join(rows)
            options = lobby.query_one("#lobby-options", Static)
            words = str(options.content).split()
            assert " ".join(region_text(app, options).split()) == " ".join(words)
            assert room.code in screen_text(app).splitlines()[0]  # the title still on top

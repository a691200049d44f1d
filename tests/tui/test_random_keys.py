"""Keys at random, as a cat on the keyboard or a slow link delivers them: in every game,
in the menu, and in a room hosted here (its lobby, then its networked game), hundreds of
keys (some one by one, some several in one read) never crash the app, never leave it
without a screen, never end it (q aside, which asks first and is left out). Seeded: a
failure names its seed and replays.

Found this way: two enters in one read closed a choice and the game beneath it
(``tests/tui/test_screens.py``), a Cake Master card placed twice crashed at its undo
(``tests/tui/test_cake_master.py``)."""

from __future__ import annotations

import random

import pytest
from textual import events
from textual.pilot import Pilot

from cakeparty.broker.embedded import free_port
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.table.local import GameSetup

from .pilot import SIZE, make_app, until

KEYS = (
    *"abcdefghijklmnoprstuvwxyz0123456789-+?",
    "enter",
    "enter",
    "escape",
    "left",
    "right",
    "up",
    "down",
    "space",
    "tab",
    "shift+tab",
    "backspace",
)
PRESSES = 180


def key_event(key: str) -> events.Key:
    return events.Key(key, key if len(key) == 1 else (" " if key == "space" else None))


async def press_at_random(pilot: Pilot[None], rng: random.Random, seed: int) -> None:
    """:data:`PRESSES` keys at random, a few at a time; the app is still running, a screen
    over its base, after each few."""
    app = pilot.app
    for _ in range(PRESSES // 3):
        keys = [rng.choice(KEYS) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.5:
            await pilot.press(*keys)  # one by one
        else:
            for key in keys:  # in one read: all queued before the first is handled
                app.post_message(key_event(key))
            await pilot.pause()
        assert app.is_running and len(app.screen_stack) > 1, (seed, keys, app.screen_stack)


@pytest.mark.parametrize(
    ("setup", "seed"),
    [
        (None, 1),
        (GameSetup(players=4, bots="random", seed=3), 2),
        (GameSetup(game="cake-master", players=3, bots="random", seed=4), 3),
        (GameSetup(game="cake-master", players=1, seed=5), 4),
        (GameSetup(game="cookies-battle", players=4, bots="random", seed=6), 5),
        (GameSetup(game="cake-of-doom", players=3, bots="random", seed=7), 6),
        (GameSetup(game="cake-of-doom", players=4, hotseat=True, seed=8), 7),
    ],
    ids=["menu", "duel", "master", "master-solo", "cookies", "doom", "doom-hotseat"],
)
async def test_random_keys_never_crash_the_app(setup: GameSetup | None, seed: int) -> None:
    rng = random.Random(seed)
    app = make_app(setup)
    # the toasts the keys bring up are drawn, as a player sees them (a test hides them
    # unless asked)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await press_at_random(pilot, rng, seed)
    assert app.return_code is None


@pytest.mark.parametrize(
    ("game", "seed"), [("cookies-battle", 11), ("cake-master", 12), ("cake-of-doom", 13)]
)
async def test_random_keys_never_crash_a_hosted_room(game: str, seed: int) -> None:
    """A room hosted here on its own broker: keys at random in the lobby, then two bots
    and ready, and keys at random through the networked game (its chat line, its
    windows and dialogs, the bots playing meanwhile)."""
    rng = random.Random(seed)
    plan = HostPlan(game=game, players=3, timeout=60, port=free_port(), lan=False)
    app = make_app(plan)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and lobby.room is not None
        room = lobby.room
        await until(pilot, lambda: room.connected and room.advert is not None, "the room", 15)
        lobby_keys = [k for k in KEYS if k not in ("a", "r", "d")]  # the seats stay as set
        for _ in range(10):
            await pilot.press(*(rng.choice(lobby_keys) for _ in range(rng.randint(1, 5))))
            assert app.is_running and app.screen_stack[1] is lobby, (seed, app.screen_stack)
        while not isinstance(app.screen, LobbyScreen):
            await pilot.press("escape")  # the chat line, the help, a dialog: closed
        await pilot.press("a")
        await until(pilot, lambda: len(room.runner.advert.taken) == 2, "the first bot", 15)
        await pilot.press("a")
        await until(pilot, lambda: len(room.runner.advert.taken) == 3, "the second bot", 15)
        await pilot.press("r")
        await until(pilot, lambda: not isinstance(app.screen, LobbyScreen), "the game", 20)
        await press_at_random(pilot, rng, seed)
        table = app.screen_stack[2]  # over the lobby: the game, still there, moved on
        assert table.net.peer.seq > 5, (seed, table.net.peer.seq)
    assert app.return_code is None

"""Keys at random, as a cat on the keyboard or a slow link delivers them: in every game
and in the menu, hundreds of keys (some one by one, some several in one read) never crash
the app, never leave it without a screen, never end it (q aside, which asks first and is
left out). Seeded: a failure names its seed and replays.

Found this way: two enters in one read closed a choice and the game beneath it
(``tests/tui/test_screens.py``), a Cake Master card placed twice crashed at its undo
(``tests/tui/test_cake_master.py``)."""

from __future__ import annotations

import random

import pytest
from textual import events

from cakeparty.tui.table.local import GameSetup

from .pilot import SIZE, make_app

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
        for _ in range(PRESSES // 3):
            keys = [rng.choice(KEYS) for _ in range(rng.randint(1, 5))]
            if rng.random() < 0.5:
                await pilot.press(*keys)  # one by one
            else:
                for key in keys:  # in one read: all queued before the first is handled
                    app.post_message(key_event(key))
                await pilot.pause()
            assert app.is_running and len(app.screen_stack) > 1, (seed, keys, app.screen_stack)
    assert app.return_code is None

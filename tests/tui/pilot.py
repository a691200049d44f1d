"""Driving the app with Pilot: test settings, waiting for the game, recording messages."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from cakeparty.tui.app import CakePartyApp
from cakeparty.tui.games.cake_duel.screen import AUTO_CHOOSE, DuelScreen
from cakeparty.tui.settings import Settings
from cakeparty.tui.table.local import GameSetup

SIZE = (80, 24)


def rows(app: App[Any], screen: Screen[Any] | None = None) -> list[str]:
    """Every row of the screen as the terminal shows it (or of ``screen``, as it draws
    itself, where a dialog may be in front of it)."""
    drawn = app.screen if screen is None else screen
    return [strip.text for strip in drawn._compositor.render_strips()]


def shown(app: App[Any], widget: Widget, screen: Screen[Any] | None = None) -> str:
    """What of ``widget`` the terminal shows: its rows inside the screen, joined (or
    inside ``screen``, as it draws itself, where a dialog may be in front of it)."""
    region = widget.region
    drawn = rows(app, screen)
    lines = drawn[region.y : region.y + region.height]
    return " ".join(" ".join(row[region.x : region.x + region.width].split()) for row in lines)


class OneScreen(App[None]):
    """An app showing one screen (a game's, made by the test)."""

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.game_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.game_screen)


class Recorder:
    """Keeps every message of the given kinds that the app's widgets and screens post."""

    def __init__(self, *kinds: type[Message]) -> None:
        self.kinds = kinds
        self.messages: list[Message] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, self.kinds) and not any(message is m for m in self.messages):
            self.messages.append(message)

    def of(self, kind: type[Any]) -> list[Any]:
        return [m for m in self.messages if isinstance(m, kind)]


def make_app(setup: GameSetup | None = None, **settings: Any) -> CakePartyApp:
    """The app with test settings (a name, no bot delay), not saving to disk."""
    chosen = Settings(**{"name": "Ann", "bot_delay": 0.0, **settings})
    return CakePartyApp(chosen, setup, persist=False)


#: how many times longer than on an idle machine a test waits before it calls a wait a
#: hang: the limits below find hangs, they time nothing, and a busy machine (two suites on
#: two cores, each with two processes a core) runs the app four times slower or more
PATIENCE = 4


async def settle_on(
    pilot: Pilot[Any],
    kind: type[Screen[Any]],
    timeout: float,
    lists_itself: Callable[[Any], bool] | None = None,
) -> Screen[Any]:
    """Wait until a person must act, and the screen shows it: the game's screen (a
    ``kind``) is over, or awaits the person's keys with no bot at work (not while
    ``lists_itself`` says the step's list opens by itself and is still to open), or
    another screen (a dialog) is in front; and so at the end of two pauses in a row (a
    pause ends by laying the screen out, and the footer's keys follow a change a message
    later). A screen is in front as soon as it is pushed, and composed after: read at
    once, the text is the screen beneath (or the keys of the step before). ``timeout``
    (times :data:`PATIENCE`) finds a hang."""

    def ready(screen: Any) -> bool:
        if screen.ended:
            return True
        if screen.awaiting is None or screen.bot_busy:
            return False
        return lists_itself is None or not lists_itself(screen)

    app = pilot.app
    deadline = time.monotonic() + timeout * PATIENCE
    last: Screen[Any] | None = None  # the screen ready at the end of the last pause
    while time.monotonic() < deadline:
        await pilot.pause()
        if not app.is_running:  # a test looping on settle() must not spin on a dead app
            raise AssertionError(f"the app stopped: {getattr(app, '_exception', None)!r}")
        screen = app.screen
        now = screen if not isinstance(screen, kind) or ready(screen) else None
        if now is not None and now is last and screen.is_mounted:
            return screen
        last = now
    raise AssertionError(f"the app did not settle; screen {app.screen!r}")


async def settle(pilot: Pilot[Any], timeout: float = 10.0) -> Screen[Any]:
    """Wait until a person must act: a dialog is up, or the duel awaits keys or is over."""
    return await settle_on(
        pilot,
        DuelScreen,
        timeout,
        lambda screen: screen.view().phase in AUTO_CHOOSE and not screen.prompted,
    )


async def until(
    pilot: Pilot[Any], test: Callable[[], object], what: str, timeout: float = 15
) -> None:
    """Let the app run until ``test()`` holds and the screen in front is mounted; fail
    naming ``what`` after ``timeout`` s (times :data:`PATIENCE`). (A screen is in front as
    soon as it is pushed, and composed after: a test that left at once would tear it down
    in its ``on_mount``.)"""
    deadline = time.monotonic() + timeout * PATIENCE
    while not (test() and pilot.app.screen.is_mounted):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"waited {timeout * PATIENCE}s for {what}; screen {pilot.app.screen!r}"
            )
        await pilot.pause(0.02)

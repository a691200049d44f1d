"""Acting on a key only after what was typed before it.

The app sees a priority key (enter on a form) the moment it arrives, while the characters
typed just before it still wait in the queue of the field that has the keyboard: a fast
typist, a paste, or a terminal multiplexer sending "Ann⏎" in one write would lose them.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen


def after_typing(screen: Screen[object], callback: Callable[[], object]) -> None:
    """Run ``callback`` on the screen once the widget with the keyboard has handled every
    key that came before (a turn queued behind them, then one on the screen's own queue, as
    a dismiss must not run inside a widget it removes)."""

    def run() -> None:
        callback()  # never awaited: a dismiss must not be awaited from the screen's own queue

    focused = screen.focused
    if focused is None:
        screen.call_later(run)
    else:
        focused.call_later(screen.call_later, run)

"""Screens that close once.

Textual's ``dismiss`` pops whatever screen is on top. A screen that closes on a message
(a list's choice, a submitted line, a key it reads itself) may have a second one waiting
when it closes: two enters in one read, keys that arrive together over a slow SSH link.
The second ``dismiss`` would then pop the screen beneath — the game itself, leaving a
blank terminal. Every screen of the app that closes with ``dismiss`` mixes in
:class:`ClosesOnce` (before Textual's screen class), so a screen already closed stays
closed and takes nothing else with it.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete


class ClosesOnce:
    """A screen whose ``dismiss`` does nothing once it has left the screen stack."""

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self not in self.app.screen_stack:  # type: ignore[attr-defined]
            return AwaitComplete.nothing()
        return super().dismiss(result)  # type: ignore[misc,no-any-return]

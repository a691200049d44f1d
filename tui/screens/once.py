"""Screens that close once.

Textual's ``dismiss`` pops whatever screen is on top. A screen that closes on a message
(a list's choice, a submitted line, a key it reads itself) may have a second one waiting
when it closes: two enters in one read, keys that arrive together over a slow SSH link.
The second ``dismiss`` would then pop the screen beneath — the game itself, leaving a
blank terminal. Every screen of the app that closes with ``dismiss`` mixes in
:class:`ClosesOnce` (before Textual's screen class), so a screen already closed stays
closed and takes nothing else with it. Such a screen may even close before it is drawn
(a list the game opens, picked by a key already waiting): its widgets are gone when its
``on_mount`` comes, which asks :attr:`ClosesOnce.off_stack` before it looks for them.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete


class ClosesOnce:
    """A screen whose ``dismiss`` does nothing once it has left the screen stack."""

    @property
    def off_stack(self) -> bool:
        """Whether the screen has left the screen stack (closed, or never opened)."""
        return self not in self.app.screen_stack  # type: ignore[attr-defined]

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self.off_stack:
            return AwaitComplete.nothing()
        return super().dismiss(result)  # type: ignore[misc,no-any-return]

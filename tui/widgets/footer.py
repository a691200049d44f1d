"""The footer of every screen: Textual's, built again only when the keys it shows change.

Textual's footer rebuilds a widget for every key whenever its screen says the bindings may
have changed, and a game screen says so after every move, though its keys mostly stay the
same: a networked two-player game played to its end took about a quarter more time with
those rebuilds. This footer remembers the keys it drew (each key's action, its words in
the active language, whether it shows and is enabled, its tooltip) and skips a rebuild
that would draw them again.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from cakeparty.core.i18n import _

Keys = tuple[tuple[str, str, str, bool, bool, str], ...]


def shown_keys(screen: Screen[Any]) -> Keys:
    """What a footer on ``screen`` would draw now, as a value to compare."""
    return tuple(
        (
            key,
            binding.action,
            _(binding.description) if binding.description else "",
            binding.show,
            enabled,
            tooltip,
        )
        for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items()
    )


class KeyFooter(Footer):
    """The keys of the screen, compact, without the command palette's key."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=False, compact=True)
        self._drawn: Keys | None = None

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._drawn = shown_keys(self.screen)
        yield from super().compose()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if (
            self._drawn is not None
            and self.is_attached
            and screen is self.screen
            and shown_keys(screen) == self._drawn
        ):
            return  # the keys drawn are the keys now
        super().bindings_changed(screen)

"""The game's log: plain sentences, newest at the bottom, scrolled with PgUp/PgDn."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog


class LogView(RichLog, can_focus=False):
    """A log of plain-words lines that keeps their text for tests and for copying."""

    DEFAULT_CSS = """
    LogView {
        background: $surface;
        scrollbar-size-vertical: 1;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            wrap=True,
            markup=False,
            highlight=False,
            auto_scroll=True,
            min_width=16,
            id=id,
            classes=classes,
        )
        self.plain: list[str] = []

    def add(self, text: str, style: str = "") -> None:
        """Append one line (wrapped to the width) in ``style``."""
        self.plain.append(text)
        self.write(Text(text, style=style))

    def page(self, step: int) -> None:
        """Scroll by a page up (``step`` < 0) or down."""
        if step < 0:
            self.scroll_page_up(animate=False)
        else:
            self.scroll_page_down(animate=False)

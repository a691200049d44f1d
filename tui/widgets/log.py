"""The game's log: plain sentences, newest at the bottom, scrolled with PgUp/PgDn."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog


class LogView(RichLog, can_focus=False):
    """A log of plain-words lines that keeps their text for tests and for copying: the
    latest :attr:`MAX_LINES`, so a long session or a chatty room grows no memory."""

    MAX_LINES = 5000

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
            max_lines=self.MAX_LINES,
            markup=False,
            highlight=False,
            auto_scroll=True,
            min_width=16,
            id=id,
            classes=classes,
        )
        self.plain: list[str] = []
        self._styles: list[str] = []
        self._wrapped_at = 0  # the width the lines were last wrapped to

    def add(self, text: str, style: str = "") -> None:
        """Append one line (wrapped to the width) in ``style``."""
        self.plain.append(text)
        self._styles.append(style)
        if len(self.plain) > self.MAX_LINES:
            del self.plain[: -self.MAX_LINES], self._styles[: -self.MAX_LINES]
        self.write(Text(text, style=style))

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at the new width, so none stays cut or half empty."""
        width, before = event.size.width, self._wrapped_at
        self._wrapped_at = width
        if not before or width == before or not self.plain:
            return  # the first size: RichLog itself writes what waited for it
        self.clear()
        for text, style in zip(self.plain, self._styles, strict=True):
            self.write(Text(text, style=style))
        self.scroll_end(animate=False)

    def page(self, step: int) -> None:
        """Scroll by a page up (``step`` < 0) or down."""
        if step < 0:
            self.scroll_page_up(animate=False)
        else:
            self.scroll_page_down(animate=False)

"""The rows a terminal has beyond a screen's design height, under a panel that needs none.

A game's screen is laid out for 80×24. A panel whose content is all shown at 24 rows
(a game's table, Earth's regions) has nothing to put in a taller terminal's extra rows;
the log beside it has. Put a ``SpareRows`` in the panel's column: the screen makes it as
tall as the rows beyond its design height, so the panel keeps its 24-row height and
those rows go to the log, whatever else the screen shows (a chat line, a clock).

Given a ``reference`` (what the game's cards or markers do, each entry a short text),
the rows are not left blank where they are enough for a few lines: they show the game's
reference in a box, as many whole entries as fit, the rest in the help (``?``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.widget import Widget

#: The fewest spare rows that show a reference: its border and three lines.
REFERENCE_LEAST = 5


class SpareRows(Widget):
    """Blank, or a game's reference, as tall as the terminal's rows beyond the screen's
    design height (set by the screen on each resize: :meth:`fit`)."""

    DEFAULT_CSS = """
    SpareRows {
        height: 0;
    }
    SpareRows.-reference {
        border: round $primary 40%;
        border-title-color: $foreground 70%;
        padding: 0 1;
    }
    """

    def __init__(
        self, reference: Callable[[], Sequence[Text]] | None = None, title: str = ""
    ) -> None:
        super().__init__()
        self.reference = reference
        self.heading = title

    def render(self) -> Text:
        if not self.has_class("-reference") or self.reference is None:
            return Text()
        width, height = self.content_size
        return whole_entries(self.reference(), width, height, self.app.console)

    def fit(self, height: int, design: int) -> None:
        """The terminal is ``height`` rows; the screen is laid out for ``design`` rows."""
        spare = max(0, height - design)
        self.styles.height = spare
        shown = self.reference is not None and spare >= REFERENCE_LEAST
        self.set_class(shown, "-reference")
        self.border_title = Content(self.heading if shown else "")
        self.refresh()


def whole_entries(entries: Sequence[Text], width: int, height: int, console: Console) -> Text:
    """As many of ``entries`` as fit in ``height`` lines of ``width`` columns, each whole
    (a line too long goes on two columns in)."""
    lines: list[Text] = []
    for entry in entries:
        wrapped = [
            (Text("  ") + line) if n else line
            for n, line in enumerate(entry.wrap(console, max(1, width - 2)))
        ]
        if len(lines) + len(wrapped) > height:
            break
        lines += wrapped
    return Text("\n").join(lines)

"""Blank rows that stand for the rows a terminal has beyond a screen's design height.

A game's screen is laid out for 80×24. A panel whose content is all shown at 24 rows
(a game's table, Earth's regions) has nothing to put in a taller terminal's extra rows;
the log beside it has. Put a ``SpareRows`` in the panel's column: the screen makes it as
tall as the rows beyond its design height, so the panel keeps its 24-row height and
those rows go to the log, whatever else the screen shows (a chat line, a clock).
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class SpareRows(Widget):
    """Blank, as tall as the terminal's rows beyond the screen's design height (set by
    the screen on each resize: :meth:`fit`)."""

    DEFAULT_CSS = """
    SpareRows {
        height: 0;
    }
    """

    def render(self) -> Text:
        return Text()

    def fit(self, height: int, design: int) -> None:
        """The terminal is ``height`` rows; the screen is laid out for ``design`` rows."""
        self.styles.height = max(0, height - design)

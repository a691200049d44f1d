"""Text drawn for the room it has: the newest lines of a story never fall off the bottom."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

#: Draws the text for a (columns, rows) box.
Drawer = Callable[[int, int], Text]


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, with … when cut (a wide character, 🎂 or
    漢, takes two)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return set_cell_size(text, width - 1).rstrip(" ") + "…"


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` columns: cut as :func:`cut` cuts it, or padded."""
    return set_cell_size(cut(text, width), width)


def cut_rows(rows: Iterable[Text], width: int) -> Text:
    """``rows`` one under another, each cut to ``width`` columns with an ellipsis (a
    board's rows never wrap: a wrapped row would push the last ones out of the panel)."""
    cut = []
    for row in rows:
        row = row.copy()
        row.truncate(width, overflow="ellipsis")
        cut.append(row)
    return Text("\n").join(cut)


class FittedText(Widget):
    """Shows what a drawer makes for the widget's current size, drawn again on resize.

    The parent hands over a drawer with :meth:`show`; the widget calls it at render time,
    so a change of layout (a taller panel above, a smaller terminal) never leaves the
    text drawn for a size it no longer has.
    """

    DEFAULT_CSS = """
    FittedText {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._drawer: Drawer = lambda _width, _rows: Text()

    def show(self, drawer: Drawer) -> None:
        """Draw with ``drawer`` from now on."""
        self._drawer = drawer
        self.refresh()

    @property
    def plain(self) -> str:
        """The text as drawn for the current size."""
        size = self.content_size
        return self._drawer(size.width, size.height).plain

    def render(self) -> Text:
        size = self.content_size
        return self._drawer(size.width, size.height)

    def on_resize(self) -> None:
        self.refresh()

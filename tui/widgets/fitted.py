"""Text drawn for the room it has: the newest lines of a story never fall off the bottom."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rich.cells import cell_len, chop_cells, set_cell_size
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

#: Draws the text for a (columns, rows) box.
Drawer = Callable[[int, int], Text]


def cut(text: str, width: int, mark: str = "…") -> str:
    """``text`` in at most ``width`` columns, with ``mark`` when cut (a wide character, 🎂
    or 漢, takes two)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return set_cell_size(text, max(0, width - len(mark))).rstrip(" ") + mark[:width]


def cut_apart(names: Sequence[str], width: int, mark: str = "…") -> list[str]:
    """Each of ``names`` in at most ``width`` columns, as :func:`cut` cuts it; but where
    two different names would be cut alike ("Jugador 2" and "Jugador 3" both "Jugador…"),
    those names keep as much of their ends as tells them apart ("Jugado…2", "Jugado…3")."""
    shown = [cut(name, width, mark) for name in names]
    room = width - len(mark) - 1  # for an end, after a start of one column at least
    for group in {s for s in shown if shown.count(s) > 1}:
        seats = [i for i, s in enumerate(shown) if s == group]
        if len({names[i] for i in seats}) < 2 or room < 1:
            continue  # the same name twice, or no room for an end
        for keep in range(1, room + 1):
            tried = [_ends(names[i], width, keep, mark) for i in seats]
            if len(set(tried)) == len({names[i] for i in seats}):
                # a last word that fits whole, leaving three columns of the start, is
                # shown whole ("Ale…HDIH": the key's group that tells two Alexandras apart)
                words = [
                    _ends(names[i], width, max(keep, _last_word(names[i], room - 2)), mark)
                    for i in seats
                ]
                if len(set(words)) == len(set(tried)):
                    tried = words
                for i, s in zip(seats, tried, strict=True):
                    shown[i] = s
                break
    return shown


def _last_word(name: str, most: int) -> int:
    """How many characters ``name``'s last word has, if it takes at most ``most`` columns
    (else 0)."""
    word = name.rsplit(" ", 1)[-1]
    return len(word) if word != name and cell_len(word) <= most else 0


def _ends(name: str, width: int, keep: int, mark: str) -> str:
    """``name`` in at most ``width`` columns: its start, ``mark``, and its last ``keep``
    characters (as many as fit, not starting with a blank)."""
    if cell_len(name) <= width:
        return name
    tail = name[-keep:].lstrip(" ")
    while tail and cell_len(tail) > width - len(mark) - 1:
        tail = tail[1:]
    head = set_cell_size(name, width - len(mark) - cell_len(tail)).rstrip(" ")
    return head + mark + tail


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` columns: cut as :func:`cut` cuts it, or padded."""
    return set_cell_size(cut(text, width), width)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words (a word longer
    than a line, between its characters); one empty line for no words."""
    width = max(1, width)
    lines: list[str] = []
    line = ""
    for word in text.split():
        if cell_len(word) > width:  # a word no line holds: its pieces
            pieces = chop_cells(word, width)
            lines += [line, *pieces[:-1]] if line else pieces[:-1]
            line = pieces[-1]
            continue
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= width:
            line = joined
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return lines


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
    text drawn for a size it no longer has. With ``height: auto`` the widget is as tall
    as the text drawn for its width (the drawer is asked with 0 rows: no limit).
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
        height = self.styles.height
        self.refresh(layout=height is not None and height.is_auto)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._drawer(width, 0).split())

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

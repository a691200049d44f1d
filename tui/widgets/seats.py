"""The people at the table, one row each: name, then what everyone can count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from cakeparty.tui.widgets.fitted import cut


@dataclass(frozen=True)
class SeatRow:
    """One seat: its name, a tag (you, bot …), public facts, and private notes if any."""

    name: str
    tag: str = ""
    facts: tuple[str, ...] = ()
    note: str = ""  # e.g. the cards of this hand the viewer knows
    brief: str = ""  # the note in fewer words, where it does not fit on its line
    active: bool = False  # this seat decides now
    own: bool = False  # the viewer's seat


class SeatList(Static):
    """Rows of seats; the seat to act is marked with ▶.

    The facts line up in columns named on the bottom border (``columns``), so each row
    carries numbers only.
    """

    DEFAULT_CSS = """
    SeatList {
        height: auto;
        padding: 0 2 0 1;
        border-subtitle-align: right;
        border-subtitle-color: $foreground 70%;
    }
    """

    def __init__(self, columns: Sequence[str] = (), *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.rows: tuple[SeatRow, ...] = ()
        self.columns = tuple(columns)
        self.border_subtitle = Content(" ".join(self.columns))

    def show(self, rows: Sequence[SeatRow]) -> None:
        self.rows = tuple(rows)
        parts: list[RenderableType] = []
        for row in self.rows:
            table = Table.grid(padding=(0, 1), expand=True)
            table.add_column(width=1, no_wrap=True)
            table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
            for label in self.columns or ("",) * len(row.facts):
                table.add_column(width=max(len(label), 1), no_wrap=True, justify="right")
            marker = Text("▶", style="bold") if row.active else Text(" ")
            name = NameTag(row.name, row.tag, "bold" if row.own or row.active else "")
            table.add_row(marker, name, *(Text(fact) for fact in row.facts))
            parts.append(table)
            if row.note:
                # four seats leave the table little room: each note keeps to one line
                crowded = len(self.rows) > 2
                if crowded:
                    note: RenderableType = Brief(row.note, row.brief or row.note)
                else:
                    note = Text(row.note, style="italic")
                parts.append(Padding(note, (0, 0, 0, 2)))
        self.update(Group(*parts))


class NameTag:
    """A seat's name and its tag in the columns a table gives them: where both do not fit,
    the name is cut and the tag ("(partner)", "(offline)") stays whole, unless it leaves
    the name fewer than :data:`NAME_FEWEST` columns."""

    def __init__(self, name: str, tag: str = "", style: str = "") -> None:
        self.name, self.tag, self.style = name, tag, style

    def text(self, width: int) -> Text:
        """The name and tag in at most ``width`` columns."""
        tag = f" {self.tag}" if self.tag else ""
        name = self.name
        if cell_len(name + tag) > width and width - cell_len(tag) >= NAME_FEWEST:
            name = cut(name, width - cell_len(tag))
        text = Text(name, style=self.style)
        text.append(tag, style="dim")
        text.truncate(width, overflow="ellipsis")
        return text

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, cell_len(self.name) + (cell_len(self.tag) + 1 if self.tag else 0))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.text(options.max_width)


#: The fewest columns a name is cut to before its tag gives way instead.
NAME_FEWEST = 4


class Brief:
    """A note on one line: in full where it fits, else in fewer words (``brief``), cut
    with an ellipsis where even that does not fit."""

    def __init__(self, full: str, brief: str) -> None:
        self.full, self.brief = full, brief

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, cell_len(self.full))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        words = self.full if cell_len(self.full) <= width else self.brief
        yield Text(cut(words, width), style="italic")

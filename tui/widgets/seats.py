"""The people at the table, one row each: name, then what everyone can count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.content import Content
from textual.widgets import Static


@dataclass(frozen=True)
class SeatRow:
    """One seat: its name, a tag (you, bot …), public facts, and private notes if any."""

    name: str
    tag: str = ""
    facts: tuple[str, ...] = ()
    note: str = ""  # e.g. the cards of this hand the viewer knows
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
            name = Text(row.name, style="bold" if row.own or row.active else "")
            if row.tag:
                name.append(f" {row.tag}", style="dim")
            table.add_row(marker, name, *(Text(fact) for fact in row.facts))
            parts.append(table)
            if row.note:
                # four seats leave the table little room: each note keeps to one line
                crowded = len(self.rows) > 2
                note = Text(row.note, style="italic", no_wrap=crowded, overflow="ellipsis")
                parts.append(Padding(note, (0, 0, 0, 2)))
        self.update(Group(*parts))

"""A room code drawn large: each character on its own tile, easy to read aloud."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

#: Codes longer than this are written plainly, letter-spaced.
MOST_TILES = 8


def tiles(code: str) -> Text:
    """``code`` as three lines of tiles, or one spaced line if it is long."""
    text = Text(no_wrap=True)
    if len(code) > MOST_TILES:
        text.append(" ".join(code), style="bold")
        return text
    text.append("╭───╮" * len(code) + "\n")
    for char in code:
        text.append("│ ")
        text.append(char, style="bold")
        text.append(" │")
    text.append("\n" + "╰───╯" * len(code))
    return text


class RoomCode(Static):
    """The room code, big and clear."""

    DEFAULT_CSS = """
    RoomCode {
        height: auto;
        width: auto;
        color: $accent;
    }
    """

    def __init__(self, code: str = "", *, id: str | None = None) -> None:
        super().__init__(tiles(code), id=id, markup=False)
        self.code = code

    def show(self, code: str) -> None:
        self.code = code
        self.update(tiles(code))

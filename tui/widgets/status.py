"""One line saying whose turn it is and what they decide."""

from __future__ import annotations

from collections.abc import Callable

from rich.cells import cell_len
from textual.app import RenderResult
from textual.content import Content
from textual.widgets import Static

#: Makes a line too wide for the status bar fit its columns: (text, columns) -> text.
Fitter = Callable[[str, int], str]


class StatusBar(Static):
    """A status line with a tone: "you" (your decision), "wait" (someone else's) or "end".

    A line wider than the bar is cut at its end, unless the screen gives a ``fit`` that
    shortens it in its own way (a game whose keys must stay in view)."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        padding: 0 1;
        background: $panel;
        color: $foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        &.-you {
            background: $accent 30%;
            text-style: bold;
        }
        &.-end {
            background: $success 30%;
            text-style: bold;
        }
        &.-hurry {
            background: $warning 50%;
            text-style: bold;
        }
    }
    """

    TONES = ("you", "wait", "end")

    def __init__(self, text: str = "", *, id: str | None = None, fit: Fitter | None = None) -> None:
        super().__init__(text, id=id, markup=False)
        self.text = text
        self.fit = fit

    def show(self, text: str, tone: str = "wait") -> None:
        self.text = text
        self.update(text)
        for name in self.TONES:
            self.set_class(name == tone, f"-{name}")

    def render(self) -> RenderResult:
        """The line, shortened by ``fit`` where it is wider than the bar is now."""
        width = self.content_size.width
        if self.fit is not None and width > 0 and cell_len(self.text) > width:
            return Content(self.fit(self.text, width))
        return super().render()

"""One line saying whose turn it is and what they decide."""

from __future__ import annotations

from textual.widgets import Static


class StatusBar(Static):
    """A status line with a tone: "you" (your decision), "wait" (someone else's) or "end"."""

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

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id, markup=False)
        self.text = text

    def show(self, text: str, tone: str = "wait") -> None:
        self.text = text
        self.update(text)
        for name in self.TONES:
            self.set_class(name == tone, f"-{name}")

"""A keyboard-friendly option: ←/→ (or h/l, space) cycle through its values."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from cakeparty.core.i18n import _
from cakeparty.tui.messages import OptionCycled


class Cycler(Widget, can_focus=True):
    """A labelled value chosen among a few, changed in place with the arrow keys.

    The lines of one container share a label column, so their values line up. A value
    too long for the line (a longer language) goes on below, under its start."""

    DEFAULT_CSS = """
    Cycler {
        height: auto;
        width: 100%;
        padding: 0 1;
        &:focus {
            background: $accent 30%;
            text-style: bold;
        }
    }
    """

    LABEL_WIDTH = 18

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cycle(-1)", _("Previous"), show=False, id="cycler.previous"),
        Binding("right,l,space", "cycle(1)", _("Next"), show=False, id="cycler.next"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(
        self,
        name: str,
        label: str,
        choices: Sequence[tuple[str, Any]],
        value: Any = None,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.label = label
        self.choices = list(choices)
        values = [v for _t, v in self.choices]
        self.set_reactive(Cycler.index, values.index(value) if value in values else 0)

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    def action_cycle(self, step: int) -> None:
        self.index = (self.index + step) % len(self.choices)
        self.post_message(OptionCycled(self.name or "", self.value))

    def _value_lines(self, width: int) -> list[str]:
        """The value, wrapped to what the line leaves it at ``width`` columns."""
        value = self.choices[self.index][0]
        room = width - cell_len(self._head()) - 4  # "◀ " and " ▶"
        if width <= 0 or room < 10 or cell_len(value) <= room:
            return [value]
        return textwrap.wrap(value, room) or [value]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._value_lines(width))

    def _head(self) -> str:
        """The label in its column, and a space at least before the value."""
        return self.label + " " * (self._column() - cell_len(self.label))

    def _column(self) -> int:
        """The label column's width: :attr:`LABEL_WIDTH`, or as wide as the longest label
        of the lines beside this one (in its container) and a space, so that the values
        of a form line up whatever the language's labels."""
        lines = [self]
        if self.parent is not None:
            lines += [c for c in self.parent.children if isinstance(c, Cycler)]
        return max(self.LABEL_WIDTH, *(cell_len(line.label) + 1 for line in lines))

    def render(self) -> Text:
        head = self._head()
        text = Text(head, no_wrap=True)
        text.append("◀ ", style="dim")
        for n, line in enumerate(self._value_lines(self.content_size.width)):
            if n:
                text.append("\n" + " " * (cell_len(head) + 2))
            text.append(line, style="bold")
        text.append(" ▶", style="dim")
        return text

    def watch_index(self) -> None:
        self.refresh(layout=True)  # another value may take another number of lines

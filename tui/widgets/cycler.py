"""A keyboard-friendly option: ←/→ (or h/l, space) cycle through its values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widget import Widget

from cakeparty.core.i18n import _
from cakeparty.tui.messages import OptionCycled


class Cycler(Widget, can_focus=True):
    """A labelled value chosen among a few, changed in place with the arrow keys."""

    DEFAULT_CSS = """
    Cycler {
        height: 1;
        width: 100%;
        padding: 0 1;
        &:focus {
            background: $accent 30%;
            text-style: bold;
        }
    }
    """

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

    def render(self) -> Text:
        text = Text(f"{self.label:<18}", no_wrap=True)
        text.append("◀ ", style="dim")
        text.append(self.choices[self.index][0], style="bold")
        text.append(" ▶", style="dim")
        return text

"""Cards on screen: one face-up card, and a row of facedown ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from cakeparty.core.i18n import _


@dataclass(frozen=True)
class Face:
    """What a card shows: a title, a short kind line, a longer detail; ``key`` is its id."""

    key: int
    title: str
    kind: str = ""
    detail: str = ""
    badge: str = ""  # a word on the bottom border, such as "new"


class CardView(Widget):
    """One card: its number in the border, its title and kind inside.

    The cursor thickens the border; a selected card gets a double border and a tick, so
    both read without colour.
    """

    DEFAULT_CSS = """
    CardView {
        width: 1fr;
        min-width: 9;
        max-width: 18;
        height: 4;
        padding: 0 0 0 1;
        border: round $foreground 40%;
        border-title-align: left;
        border-subtitle-align: right;
        border-title-color: $foreground 60%;
        &.-cursor {
            border: heavy $accent;
            border-title-color: $accent;
        }
        &.-selected {
            border: double $success;
            background: $success 12%;
            border-subtitle-color: $success;
        }
        &.-selected.-cursor {
            border: double $accent;
        }
        .card--kind {
            color: $foreground 60%;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"card--kind"}

    face: reactive[Face | None] = reactive(None, layout=False)
    number: reactive[int | None] = reactive(None)
    selected: reactive[bool] = reactive(False)
    cursor: reactive[bool] = reactive(False)

    def __init__(
        self,
        face: Face | None = None,
        number: int | None = None,
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(CardView.face, face)
        self.set_reactive(CardView.number, number)
        self._frame()

    def _frame(self) -> None:
        self.border_title = Content("" if self.number is None else str(self.number))
        badge = self.face.badge if self.face is not None else ""
        self.border_subtitle = Content("✓" if self.selected else badge)
        self.set_class(self.selected, "-selected")
        self.set_class(self.cursor, "-cursor")

    def watch_face(self) -> None:
        self._frame()

    def watch_number(self) -> None:
        self._frame()

    def watch_selected(self) -> None:
        self._frame()

    def watch_cursor(self) -> None:
        self._frame()

    def render(self) -> Text:
        face = self.face
        if face is None:
            return Text("▒▒▒▒", style="dim")
        text = Text(face.title, style="bold", no_wrap=True, overflow="ellipsis")
        if face.kind:
            text.append("\n")
            text.append(face.kind, style=self.get_component_rich_style("card--kind"))
        return text


class FacedownPile(Widget):
    """``count`` facedown cards in a row, drawn as small blocks, after a label."""

    DEFAULT_CSS = """
    FacedownPile {
        width: auto;
        height: 1;
        color: $secondary;
    }
    """

    count: reactive[int] = reactive(0)
    label: reactive[str] = reactive("")

    def __init__(
        self, count: int = 0, label: str = "", *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.set_reactive(FacedownPile.count, count)
        self.set_reactive(FacedownPile.label, label)

    @staticmethod
    def blocks(count: int, most: int = 8) -> str:
        """The pile as text: "▒▒ ▒▒", cut short with a count beyond ``most``."""
        if count <= 0:
            return _("none")
        shown = " ".join("▒▒" for _n in range(min(count, most)))
        return shown if count <= most else f"{shown} +{count - most}"

    def render(self) -> Text:
        text = Text()
        if self.label:
            text.append(self.label + " ", style="bold")
        text.append(self.blocks(self.count))
        return text

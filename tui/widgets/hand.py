"""A hand of cards: move with ←/→ or h/l, select with space or a card's number."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from cakeparty.core.i18n import _
from cakeparty.tui.messages import CursorMoved, SelectionChanged
from cakeparty.tui.widgets.cards import CardView, Face


class CardDetail(Widget):
    """Two lines about the card under the cursor, wrapped (repainted alone, no layout
    pass): the longest card's type and effect fit at 80 columns."""

    text: reactive[Text] = reactive(Text, layout=False)

    def render(self) -> Text:
        return self.text


class HandView(Widget, can_focus=True):
    """The cards one person holds, a cursor and a selection.

    The parent sets the cards with :meth:`show`; the hand posts :class:`CursorMoved` and
    :class:`SelectionChanged`. The card under the cursor is described on the lines below.
    """

    DEFAULT_CSS = """
    HandView {
        height: auto;
        padding: 0 1;
        #hand-cards {
            height: 4;
            width: 100%;
        }
        #hand-detail {
            height: 2;
            color: $foreground 80%;
        }
        #hand-empty {
            height: 4;
            content-align: center middle;
            color: $foreground 60%;
            display: none;
        }
        &.-empty #hand-cards {
            display: none;
        }
        &.-empty #hand-empty {
            display: block;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1)", _("Left"), show=False, id="hand.left"),
        Binding("right,l", "move(1)", _("Right"), show=False, id="hand.right"),
        Binding("space", "select_current", _("Select"), show=False, id="hand.select"),
        *(
            Binding(str(n), f"select_number({n})", show=False, id=f"hand.select{n}")
            for n in range(1, 10)
        ),
    ]

    cursor: reactive[int] = reactive(0, init=False)

    def __init__(
        self, empty_text: str = "", *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._faces: list[Face] = []
        self._selected: list[int] = []  # keys, in the order chosen
        self._empty_text = empty_text or _("No cards")

    def compose(self) -> ComposeResult:
        yield Horizontal(id="hand-cards")
        yield Static(self._empty_text, id="hand-empty", markup=False)
        yield CardDetail(id="hand-detail")

    def on_mount(self) -> None:
        self.set_class(not self._faces, "-empty")

    # -- attributes down -------------------------------------------------------------------

    @property
    def faces(self) -> tuple[Face, ...]:
        return tuple(self._faces)

    @property
    def selected(self) -> tuple[int, ...]:
        """The keys of the selected cards, in hand order."""
        order = [f.key for f in self._faces]
        return tuple(k for k in order if k in self._selected)

    @property
    def current(self) -> Face | None:
        """The card under the cursor."""
        return self._faces[self.cursor] if self._faces else None

    def show(self, faces: Sequence[Face], empty_text: str | None = None) -> None:
        """Hold ``faces``; a selected card that is gone is dropped from the selection."""
        keys_before = [f.key for f in self._faces]
        current = self.current.key if self.current else None
        self._faces = list(faces)
        keys = [f.key for f in self._faces]
        self._selected = [k for k in self._selected if k in keys]
        if empty_text is not None:
            self._empty_text = empty_text
            self.query_one("#hand-empty", Static).update(empty_text)
        row = self.query_one("#hand-cards", Horizontal)
        cards = list(row.query(CardView))
        if len(cards) < len(faces):
            extra = [CardView() for _n in range(len(faces) - len(cards))]
            row.mount_all(extra)
            cards.extend(extra)
        for card in cards[len(faces) :]:
            card.remove()
        for index, (card, face) in enumerate(zip(cards, faces, strict=False)):
            card.face = face
            card.number = index + 1
            card.refresh()
        if current in keys and keys != keys_before:
            self.set_reactive(HandView.cursor, keys.index(current))
        self.set_reactive(HandView.cursor, min(self.cursor, max(0, len(keys) - 1)))
        self.set_class(not self._faces, "-empty")
        self._paint()

    def clear_selection(self) -> None:
        if self._selected:
            self._selected = []
            self._paint()

    # -- keys ------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self._faces:
            self.cursor = (self.cursor + step) % len(self._faces)

    def action_select_current(self) -> None:
        face = self.current
        if face is not None:
            self._toggle(face.key)

    def action_select_number(self, number: int) -> None:
        if 1 <= number <= len(self._faces):
            self.cursor = number - 1
            self._toggle(self._faces[number - 1].key)

    def _toggle(self, key: int) -> None:
        if key in self._selected:
            self._selected.remove(key)
        else:
            self._selected.append(key)
        self._paint()
        self.post_message(SelectionChanged(self.selected))

    def watch_cursor(self, index: int) -> None:
        self._paint()
        self.post_message(CursorMoved(index))

    def _paint(self) -> None:
        for index, card in enumerate(self.query(CardView)):
            card.cursor = index == self.cursor and self.has_focus
            card.selected = card.face is not None and card.face.key in self._selected
        detail = Text(overflow="ellipsis")
        face = self.current
        if face is not None:
            detail.append(face.title, style="bold")
            if face.detail:
                detail.append(" — " + face.detail)
        self.query_one(CardDetail).text = detail

    def on_focus(self) -> None:
        # runs before the widget's own handler marks it focused: paint after that
        self.call_later(self._paint)

    def on_blur(self) -> None:
        self.call_later(self._paint)

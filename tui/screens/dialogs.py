"""Small modal dialogs: pick one of a list, confirm, pass the keyboard, read a notice.

Each is a :class:`ModalScreen` returning its answer through ``dismiss``; esc backs out.
Each has a footer of its own, drawn over the footer of the screen beneath: that one's
keys do nothing while the dialog is up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from cakeparty.core.i18n import _
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.widgets.fitted import wrap
from cakeparty.tui.widgets.footer import KeyFooter

T = TypeVar("T")

#: the width of a dialog's box (``.dialog-box`` in dialogs.tcss), narrower terminals aside
BOX_WIDTH = 72


class PickList(OptionList):
    """An option list whose enter is named in the footer (the list's own is not)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", _("Choose"), key_display="⏎", id="picker.choose"),
    ]


@dataclass(frozen=True)
class Choice(Generic[T]):
    """One entry of a :class:`ChoiceScreen`: what it says, what it returns, a detail line."""

    label: str
    value: T
    detail: str = ""


class ChoiceScreen(ClosesOnce, ModalScreen[T | None], Generic[T]):
    """Choose one entry with ↑/↓ and enter, or its number; esc returns ``None``."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Back"), id="choice.cancel"),
        Binding("enter", "pick", _("Choose"), id="choice.pick", show=True),
        *(
            Binding(str(n), f"pick_number({n})", show=False, id=f"choice.pick{n}")
            for n in range(1, 10)
        ),
        # the keys of the screen beneath that stay live over a list, in the list's footer
        # as that screen names them: its help, and its q ("Quit" or "Leave")
        Binding(
            "question_mark,f1", "beneath('help')", _("Help"), key_display="?", id="choice.help"
        ),
        Binding("q", "beneath('quit_game')", _("Quit"), id="choice.quit"),
        Binding("q", "beneath('quit_game', 'Leave')", _("Leave"), id="choice.leave"),
    ]

    def __init__(
        self, title: str, choices: Sequence[Choice[T]], prompt: str = "", *, start: int = 0
    ) -> None:
        """``start``: the entry highlighted when the list opens."""
        super().__init__(classes="dialog")
        self.title_text = title
        self.prompt = prompt
        self.choices = list(choices)
        self.start = start if 0 <= start < len(self.choices) else 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog-box") as box:
            box.border_title = Content(self.title_text)
            if self.prompt:
                yield Static(self.prompt, id="dialog-prompt", markup=False)
            options = []
            # the list's width inside the box (its border and padding, the option's own)
            room = min(BOX_WIDTH, self.app.size.width) - 6
            for number, choice in enumerate(self.choices, 1):
                label = Text(f"{number}. " if number < 10 else "   ", style="dim")
                label.append(choice.label, style="bold")
                if choice.detail:
                    # beside the label where it fits, else on lines of its own under it
                    # (not a word cut off onto the next line at the list's edge), each
                    # line under the label's start
                    if label.cell_len + 2 + cell_len(choice.detail) <= room:
                        label.append("  " + choice.detail, style="dim")
                    else:
                        lines = wrap(choice.detail, room - 3)
                        label.append("".join("\n   " + line for line in lines), style="dim")
                options.append(Option(label))
            yield PickList(*options, id="choices", markup=False)
            yield Static(_("↑/↓ and enter, or a number · esc back"), id="dialog-keys", markup=False)
        # over the footer of the screen beneath, whose other keys do nothing here
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.off_stack:  # closed before it was drawn: its widgets are gone
            return
        options = self.query_one(OptionList)
        options.highlighted = self.start
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index].value)

    def action_pick(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None:
            self.dismiss(self.choices[index].value)

    def action_pick_number(self, number: int) -> None:
        if 1 <= number <= len(self.choices):
            self.dismiss(self.choices[number - 1].value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @property
    def beneath(self) -> Screen[Any] | None:
        """The screen the list was opened over."""
        stack = self.app.screen_stack
        return stack[-2] if len(stack) > 1 and stack[-1] is self else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of the screen beneath only where it has them, and its ``q`` under the
        words it gives it ("Quit" at a local table, "Leave" at a networked one)."""
        if action != "beneath" or not parameters:
            return True
        beneath = self.beneath
        if beneath is None or not hasattr(beneath, f"action_{parameters[0]}"):
            return False
        if parameters[0] == "quit_game":
            said = beneath.active_bindings.get("q")
            leave = said is not None and _(said.binding.description) == _("Leave")
            return leave == (parameters[1:] == ("Leave",))
        return True

    def action_beneath(self, action: str, _words: str = "") -> None:
        """A key of the screen beneath (a game's ``q`` and ``?``): its help opens over the
        list; for a quit the list goes first (it is asked for again with enter, should the
        player stay)."""
        beneath = self.beneath
        method = getattr(beneath, f"action_{action}", None)
        if method is None:
            return
        if action != "help":
            self.dismiss(None)
        method()


class ConfirmScreen(ClosesOnce, ModalScreen[bool]):
    """A yes/no question before something is lost (a game quit, left, or replaced): y for
    yes; n, esc or enter for no (an enter meant for the screen beneath keeps the game)."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", _("Yes"), id="confirm.yes"),
        Binding("n,escape,enter", "answer(False)", _("No"), id="confirm.no"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__(classes="dialog")
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog-box"):
            yield Static(self.question, id="dialog-question", markup=False)
            if self.detail:
                yield Static(self.detail, id="dialog-detail", markup=False)
            yield Static(_("y yes · n or enter no"), id="dialog-keys", markup=False)
        yield KeyFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def scroll_keys() -> str:
    """The keys that scroll a dialog's lines, as its keys' line says them."""
    return _("↑/↓ PgUp/PgDn scroll")


class ScrollingLines:
    """A dialog whose lines scroll (in its :data:`SCROLL_ID` container) when the terminal
    is too short for them: ``scrolls`` says whether they do, and its keys' line is drawn
    again (:meth:`show_keys`) when that changes, to name the scrolling keys."""

    SCROLL_ID: ClassVar[str] = ""
    scrolls = False

    def show_keys(self) -> None:
        raise NotImplementedError

    def see_scrolling(self) -> None:
        if self.off_stack or not self.is_attached:  # type: ignore[attr-defined]
            return
        box = self.query_one(f"#{self.SCROLL_ID}", VerticalScroll)  # type: ignore[attr-defined]
        scrolls = box.max_scroll_y > 0
        if scrolls != self.scrolls:
            self.scrolls = scrolls
            self.show_keys()

    def on_resize(self) -> None:
        self.call_after_refresh(self.see_scrolling)  # type: ignore[attr-defined]


class NoticeScreen(ClosesOnce, ScrollingLines, ModalScreen[None]):
    """A titled notice of a few lines; enter, space or esc continues.

    Lines that do not fit the terminal scroll (↑/↓, PgUp/PgDn, Home/End), and the keys'
    line, always in view, says so. ``live``, if given, is asked once a second for a few
    words that go on the keys' line while the notice is read (a networked game's clock
    running meanwhile), or ``None``."""

    CSS_PATH = "dialogs.tcss"
    SCROLL_ID = "notice-lines"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", _("Continue"), id="notice.close"),
    ]

    def __init__(
        self,
        title: str,
        lines: Sequence[str | Text],
        *,
        classes: str = "",
        live: Callable[[], str | None] | None = None,
    ) -> None:
        super().__init__(classes=f"dialog {classes}".strip())
        self.title_text = title
        self.lines = list(lines)
        self.live = live

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog-box") as box:
            box.border_title = Content(self.title_text)
            # the keys first, docked under the lines: in view however many lines there are
            yield Static(self.keys_text(), id="dialog-keys", markup=False)
            with VerticalScroll(id="notice-lines", classes="dialog-scroll"):
                for line in self.lines:
                    yield Static(line, classes="notice-line", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.live is not None:
            self.set_interval(1.0, self.show_keys)
        self.call_after_refresh(self.see_scrolling)

    def keys_text(self) -> Text:
        """The keys' line, with what ``live`` says now after them."""
        text = Text(_("enter to continue"))
        if self.scrolls:
            text.append(" · ")
            text.append(scroll_keys())
        said = self.live() if self.live is not None else None
        if said:
            text.append(" · ")
            text.append(said, style="bold")
        return text

    def show_keys(self) -> None:
        self.query_one("#dialog-keys", Static).update(self.keys_text())

    def action_close(self) -> None:
        self.dismiss(None)


class PassScreen(ClosesOnce, ModalScreen[str | None]):
    """Hot-seat: hide everything until the next person has the keyboard.

    Returns ``None`` when the next person is ready, "quit" when someone wants to stop.
    """

    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "ready", _("Ready"), id="pass.ready"),
        Binding("q", "quit_game", _("Quit"), id="pass.quit"),
    ]

    def __init__(self, name: str, why: str = "") -> None:
        super().__init__(classes="pass")
        self.name_text = name
        self.why = why

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog-box"):
            yield Static(
                _("Pass the keyboard to {name}").format(name=self.name_text),
                id="pass-title",
                markup=False,
            )
            if self.why:
                yield Static(self.why, id="dialog-detail", markup=False)
            yield Static(
                _("{name}: press enter when nobody else can see the screen · q quit").format(
                    name=self.name_text
                ),
                id="dialog-keys",
                markup=False,
            )
        yield KeyFooter()

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_quit_game(self) -> None:
        self.dismiss("quit")

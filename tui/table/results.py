"""After a game: who won, and the whole game replayed with every facedown card shown.

Both screens are the same for every game: the game's screen hands them its headline, its
lines and its replay, and may name its own words for the title and the "new game" key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from cakeparty.core.i18n import N_, _
from cakeparty.tui.screens.dialogs import ScrollingLines, scroll_keys
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.widgets.footer import KeyFooter
from cakeparty.tui.widgets.log import LogView

#: The look every dialog shares (centred, dimmed behind), beside the menu's screens.
DIALOGS_CSS = Path(__file__).parent.parent / "screens" / "dialogs.tcss"
RESULTS_CSS = Path(__file__).parent / "results.tcss"

#: How each kind of replay line is drawn.
LINE_STYLES = {
    "bout": "bold reverse",
    "turn": "bold underline",  # a turn's heading within a round (or a bout)
    "event": "",
    "truth": "italic",
    "lie": "bold italic",
    "end": "bold",
}


class EndScreen(ClosesOnce, ScrollingLines, ModalScreen[str]):
    """The winner and the score; returns "replay", "new", "board" or "quit"."""

    # the dialogs' own look too: a game may end before any other dialog was shown; paths
    # from here, for a game's own end screen too (a relative one is the subclass's)
    CSS_PATH: ClassVar[list[str | PurePath]] = [DIALOGS_CSS, RESULTS_CSS]
    SCROLL_ID = "end-scroll"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('replay')", _("Replay face up"), id="end.replay"),
        Binding("d", "choose('new')", _("New game"), id="end.new"),
        Binding("p", "choose('again')", _("Play again"), id="end.again"),
        Binding(
            "enter,escape", "choose('board')", _("See the table"), key_display="⏎", id="end.board"
        ),
        Binding("q", "choose('quit')", _("Quit"), id="end.quit"),
    ]

    CHOICES = ("replay", "new", "again", "board", "quit")
    #: How each choice is offered on the keys line.
    KEYS: ClassVar[dict[str, str]] = {
        "replay": N_("r replay face up"),
        "new": N_("d new game"),
        "again": N_("p play again (a new room, the same people)"),
        "board": N_("enter see the table"),
        "quit": N_("q quit"),
    }

    def __init__(
        self,
        headline: str,
        lines: Sequence[str],
        won: bool | None = None,
        *,
        choices: Sequence[str] = ("replay", "new", "board", "quit"),
        title: str | None = None,
        keys: Mapping[str, str] | None = None,
    ) -> None:
        """``choices``: the ones offered (a networked game has no "new", but "again");
        ``title`` and ``keys``: the game's own words for the box and for some choices."""
        classes = "dialog" + ("" if won is None else (" -won" if won else " -lost"))
        super().__init__(classes=classes)
        self.headline = headline
        self.lines = list(lines)
        self.choices = tuple(choices)
        self.title_text = title or _("The game is over")
        self.key_words = {**self.KEYS, **(keys or {})}
        self.offers: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="end-box", classes="dialog-box") as box:
            box.border_title = Content(self.title_text)
            # the keys first, docked under the lines: in view however many lines there are
            yield Static(self.keys_text(), id="end-keys", markup=False)
            yield Static(self.headline, id="end-headline", markup=False)
            # the lines as one block, centred, each from the block's left edge: a ranking
            # reads down its places, and a line that wraps goes on under its own start;
            # they scroll when the terminal is too short for them
            with (
                VerticalScroll(id="end-scroll", classes="dialog-scroll"),
                Vertical(id="end-lines"),
            ):
                for line in self.lines:
                    yield Static(line, classes="end-line", markup=False)
                for line in self.offers:
                    yield Static(line, classes="end-line end-offer", markup=False)
        yield KeyFooter()

    def keys_text(self) -> str:
        """The keys' line: the choices offered, and the scrolling keys when the lines
        do not all show."""
        keys = [_(self.key_words[c]) for c in self.CHOICES if c in self.choices]
        if self.scrolls:
            keys.append(scroll_keys())
        return " · ".join(keys)

    def on_mount(self) -> None:
        self.call_after_refresh(self.see_scrolling)

    def show_keys(self) -> None:
        self.query_one("#end-keys", Static).update(self.keys_text())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters:
            return parameters[0] in self.choices
        return True

    def offer(self, line: str) -> None:
        """A choice that came later (the host's new game): say so, and take its key."""
        if "again" not in self.choices:
            self.choices = (*self.choices, "again")
        if not self.is_mounted:  # not shown yet: it will be with the offer
            self.offers.append(line)
            return
        keys = self.query_one("#end-keys", Static)
        self.query_one("#end-lines").mount(Static(line, classes="end-line end-offer", markup=False))
        keys.update(self.keys_text())
        self.refresh_bindings()
        self.call_after_refresh(self.see_scrolling)

    def action_choose(self, choice: str) -> None:
        if choice in self.choices:
            self.dismiss(choice)


class LeavingEndScreen(EndScreen):
    """The end of a networked game: ``q`` leaves the table, as it does in the game, and
    says so ("q leave"), where a local game's end says "q quit"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "choose('quit')", _("Leave"), id="end.quit"),
    ]
    KEYS: ClassVar[dict[str, str]] = {**EndScreen.KEYS, "quit": N_("q leave")}


class ReplayScreen(ClosesOnce, Screen[None]):
    """The game from the first deal to its end, every card face up."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "close", _("Back"), id="replay.close"),
        Binding("pageup", "page(-1)", _("Page up"), show=False, id="replay.page_up"),
        Binding("pagedown,space", "page(1)", _("Page down"), show=False, id="replay.page_down"),
        Binding("up,k", "line(-1)", show=False, id="replay.up"),
        Binding("down,j", "line(1)", show=False, id="replay.down"),
        # the game's first line ("Start" is the menu's: start a game)
        Binding("home,g", "home", _("First"), id="replay.home"),
        Binding("end,G", "end", _("End"), id="replay.end"),
    ]

    def __init__(self, title: str, lines: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        yield Static(self.title_text, id="replay-title", markup=False)
        yield LogView(id="replay-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        log = self.query_one(LogView)
        log.auto_scroll = False
        for kind, text in self.lines:
            log.add(text, LINE_STYLES.get(kind, ""))
        log.scroll_home(animate=False)

    @property
    def plain(self) -> list[str]:
        return self.query_one(LogView).plain

    def action_page(self, step: int) -> None:
        self.query_one(LogView).page(step)

    def action_line(self, step: int) -> None:
        log = self.query_one(LogView)
        if step < 0:
            log.scroll_up(animate=False)
        else:
            log.scroll_down(animate=False)

    def action_home(self) -> None:
        self.query_one(LogView).scroll_home(animate=False)

    def action_end(self) -> None:
        self.query_one(LogView).scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

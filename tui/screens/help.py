"""Rules, card reference and keys of the game in play, on ``?`` or F1.

Help opens at once (aim: under 100 ms, measured in ``bench/tui.py``): each tab is one
scrolling Static holding a rich renderable that is built once per process and kept —
the rules are one rich Markdown renderable, parsed the first time the Rules tab is shown
(Textual's Markdown widget builds a widget per block and took about a second to open) —
and the tab bar and the key line are plain Statics, drawn in the help's first frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cakeparty.core.i18n import N_, _, current_language
from cakeparty.tui.rules import rules_text
from cakeparty.tui.screens.once import ClosesOnce


@cache
def rules_document(game: str, language: str) -> Markdown:
    """The rules of ``game`` in ``language`` (English where not translated), parsed once."""
    return Markdown(rules_text(game, language))


def keys_table(keys: Sequence[tuple[str, str]]) -> Table:
    table = Table(box=None, padding=(0, 2), show_header=False)
    table.add_column(no_wrap=True, style="bold")
    table.add_column()
    for key, what in keys:
        table.add_row(key, _(what))
    return table


class HelpScreen(ClosesOnce, ModalScreen[None]):
    """Tabs: the cards, the full rules, the keys. ←/→ switch tabs, ↑/↓ scroll."""

    # help.tcss as the screen's default styles: added when help first opens, they style
    # only the help's own widgets (a CSS_PATH would restyle every screen below it)
    DEFAULT_CSS = (Path(__file__).parent / "help.tcss").read_text(encoding="utf-8")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", _("Close"), id="help.close"),
        Binding("left,h", "tab(-1)", _("Previous tab"), priority=True, id="help.previous"),
        Binding("right,l", "tab(1)", _("Next tab"), priority=True, id="help.next"),
    ]
    TABS = ("cards", "rules", "keys")
    TITLES: ClassVar[dict[str, str]] = {
        "cards": N_("Cards"),
        "rules": N_("Rules"),
        "keys": N_("Keys"),
    }

    def __init__(
        self,
        game: str,
        keys: Sequence[tuple[str, str]] | None = None,
        cards: RenderableType | None = None,
        options: Any = None,
    ):
        """``keys`` and ``cards``: the game's keys and card reference; when not given,
        those its registration names (none when it names none), for the table's core
        ``options`` (None: the standard game's)."""
        super().__init__()
        from cakeparty.tui.table.registration import find

        table = find(game)
        if table is not None and table.help is not None and (keys is None or cards is None):
            own_keys, own_cards = table.help(options)
            keys = own_keys if keys is None else keys
            cards = own_cards if cards is None else cards
        self.game = game
        self.keys = () if keys is None else keys
        self.cards = cards
        self._tab = "cards"
        self._rules_drawn = False

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(self._tab_bar(), id="help-tab-bar", markup=False)
            # every pane is there from the start, hidden but the first; a hidden pane is
            # neither laid out nor drawn, and the rules are parsed when first shown
            for name in self.TABS:
                with VerticalScroll(id=name, classes="help-scroll") as pane:
                    pane.display = name == self._tab
                    if name == "cards":
                        yield Static(
                            self.cards if self.cards is not None else _("No card reference."),
                            markup=False,
                        )
                    elif name == "rules":
                        yield Static("", classes="help-rules", markup=False)
                    else:
                        yield Static(keys_table(self.keys), markup=False)
        yield Static(
            _("←/→ or h/l: tabs   ↑/↓ PgUp/PgDn: scroll   esc: close"), id="help-keys", markup=False
        )

    def on_mount(self) -> None:
        self._show(self._tab)

    @property
    def tab(self) -> str:
        """The tab shown: ``cards``, ``rules`` or ``keys``."""
        return self._tab

    def action_tab(self, step: int) -> None:
        self._show(self.TABS[(self.TABS.index(self._tab) + step) % len(self.TABS)])

    def _show(self, name: str) -> None:
        if name == "rules" and not self._rules_drawn:  # parsed the first time shown
            self.query_one(".help-rules", Static).update(
                rules_document(self.game, current_language())
            )
            self._rules_drawn = True
        for pane in self.query(".help-scroll").results(VerticalScroll):
            pane.display = pane.id == name
        self._tab = name
        self.query_one("#help-tab-bar", Static).update(self._tab_bar())
        self.query_one(f"#{name}", VerticalScroll).focus()

    def _tab_bar(self) -> Text:
        """The tabs' names in a row, the one shown marked."""
        bar = Text()
        for name in self.TABS:
            title = _(self.TITLES[name])
            if name == self._tab:
                bar.append(f"▸ {title} ", style="bold reverse")
            else:
                bar.append(f"  {title} ")
            bar.append(" ")
        return bar

    def action_close(self) -> None:
        self.dismiss(None)

"""The main menu, and the form that sets up a local game."""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from cakeparty.core.i18n import N_, _
from cakeparty.tui.messages import OptionCycled
from cakeparty.tui.settings import BOT_LEVELS
from cakeparty.tui.widgets.cycler import Cycler

if TYPE_CHECKING:  # the rules engine loads when a game is set up, not with the menu
    from cakeparty.tui.local import GameSetup

BANNER = r"""
  ___      _          ___          _
 / __|__ _| |_____   | _ \__ _ _ _| |_ _  _
| (__/ _` | / / -_)  |  _/ _` | '_|  _| || |
 \___\__,_|_\_\___|  |_| \__,_|_|  \__|\_, |
                                       |__/
"""


class MenuScreen(Screen[None]):
    """Play against bots or hot-seat, host or join a networked game, read the rules,
    change settings, quit."""

    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "choose('bots')", _("vs bots"), id="menu.bots"),
        Binding("s", "choose('hotseat')", _("Hot-seat"), id="menu.hotseat"),
        Binding("h", "choose('host')", _("Host"), id="menu.host"),
        Binding("j", "choose('join')", _("Join"), id="menu.join"),
        Binding("r", "choose('rules')", _("Rules"), id="menu.rules"),
        Binding("o", "choose('settings')", _(N_("Settings")), id="menu.settings"),
        Binding("question_mark,f1", "choose('rules')", _("Help"), show=False, id="menu.help"),
        Binding("q,escape", "choose('quit')", _(N_("Quit")), id="menu.quit"),
    ]

    ITEMS = (
        ("bots", "b", N_("Play Cake Duel against bots")),
        ("hotseat", "s", N_("Play Cake Duel hot-seat (people at one keyboard)")),
        ("host", "h", N_("Host a game (friends join over the network)")),
        ("join", "j", N_("Join a game")),
        ("rules", "r", N_("Rules and cards")),
        ("settings", "o", N_("Settings")),
        ("quit", "q", N_("Quit")),
    )

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(BANNER.strip("\n"), id="menu-banner", markup=False)
            yield Static(_("cake-themed card games in the terminal"), id="menu-tagline")
            options = []
            for item, key, label in self.ITEMS:
                text = Text(f"{key}  ", style="bold")
                text.append(_(label))
                options.append(Option(text, id=item))
            yield OptionList(*options, id="menu-options")
            yield Static("", id="menu-greeting")
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.on_screen_resume()

    def on_screen_resume(self) -> None:
        settings = getattr(self.app, "settings", None)
        name = getattr(settings, "name", "")
        if name:
            self.query_one("#menu-greeting", Static).update(
                _("Hello, {name}. ↑/↓ and enter, or the key of an entry.").format(name=name)
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, item: str) -> None:
        open_item = getattr(self.app, "open_menu_item", None)
        if open_item is not None:
            open_item(item)


class SetupScreen(ModalScreen["GameSetup | None"]):
    """The choices of a local game; enter starts it, esc backs out."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "menu.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", _("Start"), id="setup.start", priority=True),
        Binding("escape", "cancel", _("Back"), id="setup.cancel"),
        Binding("up,k", "app.focus_previous", show=False, id="setup.up"),
        Binding("down,j", "app.focus_next", show=False, id="setup.down"),
    ]

    def __init__(self, hotseat: bool, bots: str = "normal") -> None:
        super().__init__(classes="dialog")
        self.hotseat = hotseat
        self.bots = bots

    def compose(self) -> ComposeResult:
        with Vertical(id="setup-box", classes="dialog-box") as box:
            box.border_title = _("Hot-seat duel") if self.hotseat else _("Duel against bots")
            yield Cycler(
                "players",
                _("Players"),
                [(_("2 — a duel"), 2), (_("4 — two teams"), 4)],
                2,
            )
            if not self.hotseat:
                yield Cycler(
                    "bots", _("Bots"), [(_(level), level) for level in BOT_LEVELS], self.bots
                )
            yield Cycler(
                "full",
                _("Deck"),
                [(_("full game (hidden specials)"), True), (_("core cards only"), False)],
                True,
            )
            yield Cycler(
                "tournament",
                _("Match"),
                [(_("one duel (3 bouts win)"), False), (_("tournament (best of 5)"), True)],
                False,
            )
            yield Cycler(
                "show_specials",
                _("Specials"),
                [(_("hidden, as printed"), False), (_("shown (for learning)"), True)],
                False,
            )
            if self.hotseat:
                for seat in range(4):
                    with Horizontal(classes="setup-name", id=f"setup-name-{seat}") as row:
                        row.display = seat < 2
                        label = _("Player {n}").format(n=seat + 1)
                        yield Static(f"{label:<18}", classes="setup-name-label")
                        yield Input(
                            self._default_name(seat),
                            placeholder=label,
                            max_length=24,
                            compact=True,
                            id=f"name-{seat}",
                        )
            yield Static(_("↑/↓ line · ←/→ change · enter start · esc back"), id="setup-keys")
        yield Footer(show_command_palette=False, compact=True)

    def on_mount(self) -> None:
        self.query(Cycler).first().focus()

    def _default_name(self, seat: int) -> str:
        """The settings' name for the first person, "Player 2", … for the others."""
        settings = getattr(self.app, "settings", None)
        name = str(getattr(settings, "name", "") or "")
        if seat == 0 and name:
            return name
        return _("Player {n}").format(n=seat + 1)

    def on_option_cycled(self, event: OptionCycled) -> None:
        """Two or four people: as many name lines."""
        if event.name == "players" and self.hotseat:
            for seat in range(4):
                self.query_one(f"#setup-name-{seat}").display = seat < event.value

    def _value(self, name: str, default: object) -> object:
        for cycler in self.query(Cycler):
            if cycler.name == name:
                return cycler.value
        return default

    @property
    def setup(self) -> GameSetup:
        players = self._value("players", 2)
        bots = self._value("bots", self.bots)
        full = self._value("full", True)
        tournament = self._value("tournament", False)
        show_specials = self._value("show_specials", False)
        assert isinstance(players, int) and isinstance(bots, str) and isinstance(full, bool)
        assert isinstance(tournament, bool) and isinstance(show_specials, bool)
        names: tuple[str, ...] = ()
        if self.hotseat:
            names = tuple(
                self.query_one(f"#name-{seat}", Input).value.strip() for seat in range(players)
            )
        from cakeparty.tui.local import GameSetup

        return GameSetup(
            players=players,
            bots=bots,
            full=full,
            tournament=tournament,
            show_specials=show_specials,
            hotseat=self.hotseat,
            names=names,
        )

    def action_start(self) -> None:
        self.dismiss(self.setup)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The Cake Party app: a menu, settings, local games and networked rooms, all by keyboard.

The app holds the settings and opens screens; each screen does its own work.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import Monochrome
from textual.theme import Theme

from cakeparty.core.i18n import _
from cakeparty.tui import settings as saved
from cakeparty.tui.local import GameSetup
from cakeparty.tui.messages import SettingsSaved
from cakeparty.tui.netroom import HostPlan, JoinPlan, JoinSearch
from cakeparty.tui.screens.duel import DuelScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.menu import MenuScreen, SetupScreen
from cakeparty.tui.screens.rooms import HostSetupScreen, JoinScreen
from cakeparty.tui.screens.settings import SettingsScreen
from cakeparty.tui.settings import Settings

#: Strawberry, sponge and custard on a dark plate.
THEME = Theme(
    name="cakeparty",
    primary="#E8779A",
    secondary="#C8A27C",
    accent="#F2C14E",
    warning="#F2C14E",
    error="#E06C75",
    success="#8CC084",
    background="#1D1A1C",
    surface="#282326",
    panel="#3A3035",
    foreground="#F3E9E4",
    dark=True,
)


class CakePartyApp(App[None]):
    """Cake Party: the main menu, or straight into a local game when given one."""

    TITLE = "Cake Party"
    # every screen's styles are read at start, so no screen pauses to parse them later
    CSS_PATH: ClassVar[list[str | PurePath]] = [
        "app.tcss",
        "screens/dialogs.tcss",
        "screens/duel.tcss",
        "screens/help.tcss",
        "screens/lobby.tcss",
        "screens/menu.tcss",
        "screens/results.tcss",
        "screens/rooms.tcss",
        "screens/settings.tcss",
    ]
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", _("Quit now"), show=False, id="app.quit")
    ]

    def __init__(
        self,
        settings: Settings | None = None,
        start: GameSetup | HostPlan | JoinPlan | JoinSearch | None = None,
        *,
        persist: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings or saved.load()
        self.start = start
        self.persist = persist  # write settings to disk when they change
        self.register_theme(THEME)
        self.theme = "cakeparty"
        self._monochrome: Monochrome | None = None
        self.no_color_env = self.no_color
        self._set_colours(self.settings.colours)

    @property
    def colours(self) -> bool:
        """Are colours shown? Not under ``NO_COLOR``, nor when the settings turn them off."""
        return not self.no_color_env and self._monochrome is None

    def _set_colours(self, on: bool) -> None:
        """Colours off draws in shades of grey, as ``NO_COLOR`` does."""
        if self.no_color_env:
            return
        if not on and self._monochrome is None:
            self._monochrome = Monochrome()
            self._filters.append(self._monochrome)
        elif on and self._monochrome is not None:
            self._filters.remove(self._monochrome)
            self._monochrome = None
        self.refresh(repaint=True)

    def on_mount(self) -> None:
        if isinstance(self.start, GameSetup):
            self.push_screen(self._duel(self.start, leave="exit"))
        elif self.start is not None:
            self.open_room(self.start, leave="exit")
        else:
            self.push_screen(MenuScreen())

    def _duel(self, setup: GameSetup, leave: str) -> DuelScreen:
        return DuelScreen(
            setup, player=self.settings.name, bot_delay=self.settings.bot_delay, leave=leave
        )

    def open_menu_item(self, item: str) -> None:
        """What a main-menu entry opens."""
        if item in ("bots", "hotseat"):

            def chosen(setup: GameSetup | None) -> None:
                if setup is not None:
                    self.push_screen(self._duel(setup, leave="pop"))

            self.push_screen(SetupScreen(item == "hotseat", self.settings.bot_level), chosen)
        elif item == "host":

            def hosting(plan: HostPlan | None) -> None:
                if plan is not None:
                    self.open_room(plan)

            self.push_screen(HostSetupScreen(), hosting)
        elif item == "join":
            self.open_room(JoinSearch())
        elif item == "rules":
            self.push_screen(HelpScreen("cake-duel"))
        elif item == "settings":
            self.push_screen(SettingsScreen(self.settings, self.no_color_env), self.use_settings)
        elif item == "quit":
            self.exit()

    def open_room(self, plan: HostPlan | JoinPlan | JoinSearch, leave: str = "pop") -> None:
        """Host or join a networked room; a search lists the rooms to pick from first."""
        if isinstance(plan, JoinSearch):

            def picked(found: JoinPlan | None) -> None:
                if found is not None:
                    self.open_room(found, leave)
                elif leave == "exit":
                    self.exit()

            self.push_screen(JoinScreen(plan), picked)
            return
        settings = self.settings
        self.push_screen(
            LobbyScreen(
                plan,
                player=settings.name,
                bot_level=settings.bot_level,
                bot_delay=settings.bot_delay,
                leave=leave,
            )
        )

    def use_settings(self, new: Settings | None) -> None:
        if new is None or new == self.settings:
            return
        self.settings = new
        self._set_colours(new.colours)
        if self.persist:
            try:
                path = saved.save(new)
            except OSError as exc:
                self.notify(
                    _("Could not save the settings: {error}").format(error=exc), severity="error"
                )
            else:
                self.notify(_("Settings saved to {path}").format(path=path), timeout=3)
        self.screen.post_message(SettingsSaved(new))

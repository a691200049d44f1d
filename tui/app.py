"""The Cake Party app: a menu, settings, local games and networked rooms, all by keyboard.

The app holds the settings and opens screens; each screen does its own work. Screens
are imported when first opened, so the menu shows without loading the rules engine, the
network or the help (start-up is measured in ``bench/tui.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable
from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import Monochrome, NoColor
from textual.theme import Theme

from cakeparty.core import i18n
from cakeparty.core.i18n import _
from cakeparty.tui import language
from cakeparty.tui import settings as saved
from cakeparty.tui.settings import Settings

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from cakeparty.protocol.hosting import HostRecord
    from cakeparty.tui.comeback import Unfinished
    from cakeparty.tui.netroom import HostPlan, JoinPlan, JoinSearch, WatchPlan
    from cakeparty.tui.table.kept import Offer
    from cakeparty.tui.table.local import GameSetup, LocalTable

language.install()  # footers speak the language in effect when they draw

#: seconds without a key after which a decision coming up rings the bell (:meth:`call_player`)
BELL_IDLE = 5.0

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
    # each screen brings its own styles when first opened, so the menu needs only these
    CSS_PATH: ClassVar[list[str | PurePath]] = ["app.tcss"]
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", _("Quit now"), show=False, id="app.quit")
    ]

    def __init__(
        self,
        settings: Settings | None = None,
        start: GameSetup | HostPlan | JoinPlan | JoinSearch | WatchPlan | None = None,
        *,
        persist: bool = True,
        ask_name: bool | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or saved.load()
        # the first run (no name saved yet, or one lost) asks for the name others will see
        self.ask_name = persist and not saved.named() if ask_name is None else ask_name
        self.start = start
        self.persist = persist  # write settings to disk when they change
        self.register_theme(THEME)
        self.theme = "cakeparty"
        self._monochrome: Monochrome | None = None
        self.no_color_env = self.no_color
        if self.no_color_env:
            # NO_COLOR means no colour codes at all (Textual draws greys on some terminals)
            self._filters[:] = [
                NoColor() if isinstance(f, Monochrome) else f for f in self._filters
            ]
        self._set_colours(self.settings.colours)
        #: the toasts on the screen now, each until it goes (monotonic time), by the screen
        #: that said it: a key pressed again and again stacks no copies of the same notice
        self._showing: dict[tuple[str, str, str, int], float] = {}
        self.last_key = time.monotonic()  # when the player last pressed a key (or pasted)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.Paste):
            self.last_key = time.monotonic()
        await super().on_event(event)

    def call_player(self) -> None:
        """A networked game waits on this player now (their move, or a question put to
        them): the terminal's bell, if the settings ring it and no key was pressed for
        :data:`BELL_IDLE` seconds. A player at the keys sees the game move; one who looked
        away while the others took their time hears it."""
        if self.settings.bell and time.monotonic() - self.last_key >= BELL_IDLE:
            self.bell()

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

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """A toast, its words shown as written, never read as markup: toasts carry players'
        names and what peers send ("[/]" in a name would stop the app, and a "[@click=…]"
        would run an action), so a screen's ``notify`` asking for markup gets none either.
        A notice still on the screen is not shown twice by the same screen."""
        now = time.monotonic()
        seconds = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self._showing = {k: end for k, end in self._showing.items() if end > now}
        stack = self.screen_stack
        key = (message, title, severity, id(stack[-1]) if stack else 0)
        if key in self._showing:
            return
        self._showing[key] = now + seconds
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """ctrl+c, which quits many programs: say how this one is left, in the player's
        language (Textual's own words are English markup)."""
        self.notify(
            _("q leaves (a game asks first); ctrl+q quits at once."),
            title=_("Do you want to quit?"),
        )

    def on_mount(self) -> None:
        if not self.is_headless:
            # ``kill``, a shutdown, or another window taking a room over: leave as ctrl+q
            # does, the terminal given back as it was (by default the process just ends,
            # the terminal left in the app's screen with the mouse reported)
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self.exit)
        if self.ask_name:
            from cakeparty.tui.screens.settings import NameScreen

            def named(name: str | None) -> None:
                self.use_settings(self.settings.with_(name=name or self.settings.name), force=True)
                self._open_start()

            self.push_screen(NameScreen(self.settings.name), named)
            return
        self._open_start()

    def on_unmount(self) -> None:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)

    def _open_menu(self) -> None:
        from cakeparty.tui.screens.menu import MenuScreen

        self.push_screen(MenuScreen())

    def _open_start(self) -> None:
        if self.start is None:
            self._open_menu()
            return
        from cakeparty.tui.table.local import GameSetup

        if isinstance(self.start, GameSetup):
            setup = self.start
            # a kept game to lose: asked first; no opens the menu, which offers it
            self._replacing_kept(
                setup.game,
                lambda: self.push_screen(self._game(setup, leave="exit")),
                self._open_menu,
            )
        else:
            self.open_room(self.start, leave="exit")

    def _game(self, setup: GameSetup | LocalTable, leave: str) -> Screen[None]:
        """The screen of a local game (a new one, or one set up already), from the game's
        registration; the game is kept on disk as it goes when this app keeps its
        settings there."""
        factory = setup.table.local_screen
        assert factory is not None, "a registered game has a screen"
        screen: Screen[None] = factory(
            setup,
            player=self.settings.name,
            bot_delay=self.settings.bot_delay,
            leave=leave,
            keep=self.persist,
        )
        return screen

    def continue_game(self, offer: Offer) -> None:
        """Continue the local game kept on disk (the menu's ``offer``): its moves made
        again from its seed, then its screen where it was; one that does not play again
        is said and forgotten."""
        from cakeparty.tui.table import kept
        from cakeparty.tui.table.registration import game_title

        if kept.lock(offer.game).held():
            self.notify(
                _("Your game of {game} is open in another window: continue it there.").format(
                    game=game_title(offer.game)
                ),
                severity="warning",
            )
            return
        try:
            game = kept.load(offer.game)
            if game is None:
                raise ValueError(_("the saved game is unreadable"))
            table = kept.restore(game)
        except (ValueError, LookupError, TypeError) as exc:
            kept.forget(offer.game)
            self.notify(
                _("Your game of {game} could not be continued: {problem}").format(
                    game=game_title(offer.game), problem=exc
                ),
                severity="error",
            )
            look_again = getattr(self.screen, "look_back", None)  # the menu: its entry goes
            if look_again is not None:
                look_again()
            return
        self.push_screen(self._game(table, leave="pop"))

    def _replacing_kept(
        self, game: str, start: Callable[[], None], otherwise: Callable[[], None] | None = None
    ) -> None:
        """``start`` a new local game of ``game``, once the player agrees to lose the one
        of that game kept, if there is one to lose (each game keeps one: the new one takes
        its place); else ``otherwise``."""
        from cakeparty.tui.screens.dialogs import ConfirmScreen
        from cakeparty.tui.table import kept
        from cakeparty.tui.table.registration import game_title

        offer = kept.kept_of(game) if self.persist else None
        if offer is None or kept.lock(game).held():
            # none to lose; or another window plays it, and the new game is not kept
            start()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                start()
            elif otherwise is not None:
                otherwise()

        detail = _("Your game of {game} in progress will be lost.")
        self.push_screen(
            ConfirmScreen(_("Start a new game?"), detail.format(game=game_title(offer.game))),
            answered,
        )

    def open_menu_item(self, item: str) -> None:
        """What a main-menu entry opens (a game picker first, for a game to play, when
        there is more than one game)."""
        if item in ("bots", "hotseat", "host", "rules"):
            from cakeparty.tui.screens.menu import pick_game

            networked = {"host": True, "rules": None}.get(item, False)
            pick_game(self, lambda game: self._open_game_item(item, game), networked=networked)
        elif item == "join":
            from cakeparty.tui.netroom import JoinSearch

            self.open_room(JoinSearch())
        elif item == "settings":
            from cakeparty.tui.screens.settings import SettingsScreen

            self.push_screen(SettingsScreen(self.settings, self.no_color_env), self.use_settings)
        elif item == "quit":
            self.exit()

    def _open_game_item(self, item: str, game: str) -> None:
        """What a main-menu entry opens for ``game``."""
        if item in ("bots", "hotseat"):
            from cakeparty.tui.screens.menu import SetupScreen

            def chosen(setup: GameSetup | None) -> None:
                if setup is not None:
                    self._replacing_kept(
                        setup.game, lambda: self.push_screen(self._game(setup, leave="pop"))
                    )

            self.push_screen(
                SetupScreen(item == "hotseat", self.settings.bot_level, game=game), chosen
            )
        elif item == "host":
            from cakeparty.tui.screens.rooms import HostSetupScreen

            def hosting(plan: HostPlan | None) -> None:
                if plan is not None:
                    self.open_room(plan)

            self.push_screen(HostSetupScreen(game=game), hosting)
        elif item == "rules":
            from cakeparty.tui.screens.help import HelpScreen

            self.push_screen(HelpScreen(game))

    def open_room(
        self, plan: HostPlan | JoinPlan | JoinSearch | WatchPlan, leave: str = "pop"
    ) -> None:
        """Host, join or watch a networked room; a search lists the rooms to pick from
        first."""
        from cakeparty.tui.netroom import JoinPlan, JoinSearch, WatchPlan
        from cakeparty.tui.screens.lobby import LobbyScreen

        if isinstance(plan, WatchPlan):
            from cakeparty.tui.table.watch import WatchScreen

            name = self.settings.name
            self.push_screen(WatchScreen(plan.room, plan.broker, name=name, leave=leave))
            return

        if isinstance(plan, JoinSearch):
            from cakeparty.tui.screens.rooms import JoinScreen

            def picked(found: JoinPlan | WatchPlan | None) -> None:
                if found is not None:
                    self.open_room(found, leave)
                elif leave == "exit":
                    self.exit()

            self.push_screen(JoinScreen(plan), picked)
            return
        if isinstance(plan, JoinPlan):
            hosted = self._hosted(plan.room)
            if hosted is not None:  # this player hosts that room: back to it as its host
                from cakeparty.tui.netroom import HostPlan

                self.open_room(HostPlan.resuming(hosted), leave)
                return
            from cakeparty.tui.recent import remember_broker, remember_room

            # the join list looks there again, and the menu offers to go back to the game
            # while it is unfinished: back to this seat without typing it
            remember_broker(plan.broker)
            remember_room(plan.room)
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

    @staticmethod
    def _hosted(code: str) -> HostRecord | None:
        """The room ``code`` names, if this player hosted it here and can come back to
        it (joining it, the host comes back as its host, as ``cakeparty join`` does)."""
        from cakeparty.protocol.identity import load as load_identity
        from cakeparty.tui.comeback import hosted_room

        try:
            identity = load_identity()
            return hosted_room(identity.player_id, code) if identity is not None else None
        except (OSError, ValueError):  # an unreadable identity or record: join as asked
            return None

    def go_back(self, game: Unfinished) -> None:
        """Go back to a networked game left unfinished: the room this player hosts, as
        ``cakeparty host --resume`` does; else the join list, which joins the room as
        soon as it finds it."""
        from cakeparty.tui.netroom import HostPlan, JoinSearch

        if game.hosted is not None:
            self.open_room(HostPlan.resuming(game.hosted))
        else:
            self.open_room(JoinSearch(game.code, back=True))

    def change_language(self, setting: str) -> str:
        """Show the app in the language ``setting`` names ("": the environment's) from
        now on: the menu redraws in it at once, the next screens open in it. Return the
        language in effect."""
        from cakeparty.tui.screens.menu import MenuScreen

        language = i18n.use_language(i18n.choose_language(setting))
        for screen in self.screen_stack:
            if isinstance(screen, MenuScreen):
                screen.call_later(self._redraw, screen)
        return language

    @staticmethod
    async def _redraw(screen: Screen[object]) -> None:
        await screen.recompose()
        if screen.focused is None:
            screen.focus_next()

    def use_settings(self, new: Settings | None, *, force: bool = False) -> None:
        """Take ``new`` settings and save them (``force``: even when unchanged, so the
        first run's choice is kept)."""
        if new is None or (new == self.settings and not force):
            return
        old, self.settings = self.settings, new
        self._set_colours(new.colours)
        if new.language != old.language:
            self.change_language(new.language)
        if self.persist:
            try:
                path = saved.save(new)
            except OSError as exc:
                self.notify(
                    _("Could not save the settings: {error}").format(error=exc), severity="error"
                )
            else:
                self.notify(_("Settings saved to {path}").format(path=saved.shown(path)), timeout=3)
        from cakeparty.tui.messages import SettingsSaved

        self.screen.post_message(SettingsSaved(new))

"""The main menu, the game picker, and the form that sets up a local game."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.messages import OptionCycled
from cakeparty.tui.screens.dialogs import PickList
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.settings import DEFAULT_THINK, offered_level
from cakeparty.tui.widgets.cycler import Cycler
from cakeparty.tui.widgets.footer import KeyFooter
from cakeparty.tui.widgets.line import LineInput
from cakeparty.tui.widgets.typing import after_typing

if TYPE_CHECKING:  # the rules engine loads when a game is set up, not with the menu
    from cakeparty.tui.comeback import Unfinished
    from cakeparty.tui.table.kept import Offer
    from cakeparty.tui.table.local import GameSetup

log = logging.getLogger(__name__)

#: The bots' levels in words (the settings screen shows the same words with ``_(level)``).

BANNER = r"""
  ___      _          ___          _
 / __|__ _| |_____   | _ \__ _ _ _| |_ _  _
| (__/ _` | / / -_)  |  _/ _` | '_|  _| || |
 \___\__,_|_\_\___|  |_| \__,_|_|  \__|\_, |
                                       |__/
"""


class MenuScreen(ClosesOnce, Screen[None]):
    """Play against bots or hot-seat, host or join a networked game, read the rules,
    change settings, quit; and, first, go back to a networked game left unfinished
    (:mod:`cakeparty.tui.comeback`), when there is one."""

    CSS_PATH = "menu.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "choose('back')", _("Go back"), id="menu.back"),
        Binding("c", "choose('continue')", _("Resume"), id="menu.continue"),
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
        ("bots", "b", N_("Play a game against bots")),
        ("hotseat", "s", N_("Play a game hot-seat (people at one keyboard)")),
        ("host", "h", N_("Host a game (friends join over the network)")),
        ("join", "j", N_("Join a game")),
        ("rules", "r", N_("Rules and cards")),
        ("settings", "o", N_("Settings")),
        ("quit", "q", N_("Quit")),
    )

    #: The entries that name the game when there is only one.
    ONE_GAME: ClassVar[dict[str, str]] = {
        "bots": N_("Play {game} against bots"),
        "hotseat": N_("Play {game} hot-seat (people at one keyboard)"),
    }

    @property
    def only_game(self) -> str | None:
        """The title of the one game there is to play, if there is only one."""
        from cakeparty.tui.table.registration import registered

        games = registered()
        return games[0].title if len(games) == 1 else None

    #: a networked game to go back to, once looked for (:mod:`cakeparty.tui.comeback`)
    back: Unfinished | None = None
    #: the local games kept on disk to continue, the latest first, once looked for
    #: (:mod:`.table.kept`: each game keeps its latest)
    kept: tuple[Offer, ...] = ()
    #: whether the look for it has answered since the menu was shown
    looked = False
    #: the looks begun (the latest one's answer is shown)
    _looks = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(BANNER.strip("\n"), id="menu-banner", markup=False)
            yield Static(
                _("cake-themed card games in the terminal"), id="menu-tagline", markup=False
            )
            yield OptionList(*self.options(), id="menu-options", markup=False)
            yield Static("", id="menu-greeting", markup=False)
        yield KeyFooter()

    def options(self) -> list[Option]:
        """The entries: the game to go back to first, when there is one."""
        options = []
        back = self.back
        if back is not None:
            from cakeparty.tui.table.registration import game_title

            text = Text("g  ", style="bold")
            text.append(
                _("Go back to {game} in room {room}").format(
                    game=game_title(back.game), room=back.room
                )
            )
            options.append(Option(text, id="back"))
        kept = self.kept
        if kept:
            text = Text("c  ", style="bold")
            if len(kept) == 1:
                text.append(resume_line(kept[0]))
            else:
                line = ngettext("Resume a game ({n} kept)", "Resume a game ({n} kept)", len(kept))
                text.append(line.format(n=len(kept)))
            options.append(Option(text, id="continue"))
        game = self.only_game
        for item, key, label in self.ITEMS:
            text = Text(f"{key}  ", style="bold")
            if game is None:
                text.append(_(label))
            else:
                text.append(_(self.ONE_GAME.get(item, label)).format(game=game))
            options.append(Option(text, id=item))
        return options

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.on_screen_resume()

    def on_screen_resume(self) -> None:
        self.query_one("#menu-options").styles.visibility = "visible"
        self.greet()
        self.looked = False
        self.look_back()

    def on_screen_suspend(self) -> None:
        # a dialog opened from the menu (which game, a game's setup) shows over the banner
        # alone: the list's edges would show around it, as if they were the dialog's
        self.query_one("#menu-options").styles.visibility = "hidden"

    def greet(self) -> None:
        settings = getattr(self.app, "settings", None)
        name = getattr(settings, "name", "")
        if not name:
            return
        if self.back is not None:
            text = _("Hello, {name}. g goes back to your game in room {room}.").format(
                name=name, room=self.back.room
            )
        elif len(self.kept) == 1:
            text = _("Hello, {name}. c resumes your game where it was.").format(name=name)
        elif self.kept:
            text = _("Hello, {name}. c resumes one of your games where it was.").format(name=name)
        else:
            text = _("Hello, {name}. ↑/↓ and enter, or the key of an entry.").format(name=name)
        self.query_one("#menu-greeting", Static).update(text)

    def look_back(self) -> None:
        """Look for a networked game to go back to and a local game to continue (on the
        disk only), then show them. An earlier look's answer still on its way is older
        than the disk now (a look cannot be stopped once it reads): it is not shown."""
        self._looks += 1
        self._look(self._looks)

    @work(thread=True, exclusive=True, group="comeback")
    def _look(self, look: int) -> None:
        found: Unfinished | None = None
        local: tuple[Offer, ...] = ()
        try:
            from cakeparty.tui.table.kept import peek

            local = peek()
        except Exception:  # a kept game that cannot be read is no game to continue
            log.debug("no game to continue", exc_info=True)
        try:
            from cakeparty.protocol.identity import load as load_identity
            from cakeparty.tui.comeback import unfinished

            identity = load_identity()
            if identity is not None:
                found = unfinished(identity.player_id)
        except Exception:  # an unreadable identity or journal is no game to go back to
            log.debug("no game to go back to", exc_info=True)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self.show_back, found, local, look)

    def show_back(
        self, found: Unfinished | None, local: tuple[Offer, ...] = (), look: int | None = None
    ) -> None:
        """Offer ``found`` first in the menu, then ``local`` (``None`` and empty: nothing
        to go back to, nothing to continue), as look number ``look`` found them (an answer
        of a look before the latest is dropped)."""
        if look is not None and look != self._looks:
            return
        self.looked = True
        if (found, local) == (self.back, self.kept) or not self.is_attached:
            return
        options = self.query_one("#menu-options", OptionList)
        index = options.highlighted
        was = options.get_option_at_index(index).id if index is not None else None
        self.back, self.kept = found, local
        options.clear_options()
        options.add_options(self.options())
        ids = [option.id for option in options.options]
        # a game to go back to is where the cursor goes, unless the player moved it
        if was == self.ITEMS[0][0] and (found is not None or local):
            was = "back" if found is not None else "continue"
        options.highlighted = ids.index(was) if was in ids else 0
        self.greet()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == ("back",):
            return self.back is not None
        if action == "choose" and parameters == ("continue",):
            return bool(self.kept)
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        # a second enter of one read chose again after the first opened its screen
        if event.option.id and self.app.screen is self:
            self.action_choose(event.option.id)

    def action_choose(self, item: str) -> None:
        if item == "back":
            go_back = getattr(self.app, "go_back", None)
            if self.back is not None and go_back is not None:
                go_back(self.back)
            return
        if item == "continue":
            continue_game = getattr(self.app, "continue_game", None)
            if not self.kept or continue_game is None:
                return
            if len(self.kept) == 1:
                continue_game(self.kept[0])
                return
            from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen

            def chosen(offer: Offer | None) -> None:
                if offer is not None:
                    continue_game(offer)

            now = time.time()
            choices = [
                Choice(resume_line(offer), offer, kept_detail(offer, now)) for offer in self.kept
            ]
            self.app.push_screen(ChoiceScreen(_("Which game?"), choices), chosen)
            return
        open_item = getattr(self.app, "open_menu_item", None)
        if open_item is not None:
            open_item(item)


def resume_line(offer: Offer) -> str:
    """The words that resume a kept game: "Resume <its title> against bots"."""
    from cakeparty.tui.table.registration import game_title

    line = _("Resume {game} (hot-seat)") if offer.hotseat else _("Resume {game} against bots")
    return line.format(game=game_title(offer.game))


def kept_detail(offer: Offer, now: float) -> str:
    """How far a kept game went and when it was left: "40 moves · 3 hours ago"."""
    parts = []
    if offer.moves:
        parts.append(ngettext("{n} move", "{n} moves", offer.moves).format(n=offer.moves))
    if offer.saved:
        parts.append(ago(now - offer.saved))
    return " · ".join(parts)


def ago(seconds: float) -> str:
    """``seconds`` in the past, in the largest whole unit: "just now", "5 minutes ago"."""
    minutes = int(seconds // 60)
    if minutes < 1:  # a clock set back says "just now" too
        return _("just now")
    if minutes < 60:
        return ngettext("{n} minute ago", "{n} minutes ago", minutes).format(n=minutes)
    hours = minutes // 60
    if hours < 24:
        return ngettext("{n} hour ago", "{n} hours ago", hours).format(n=hours)
    days = hours // 24
    return ngettext("{n} day ago", "{n} days ago", days).format(n=days)


def pick_game(app: Any, then: Callable[[str], None], *, networked: bool | None = None) -> None:
    """Ask which game (when more than one is registered), then go on with it. The picker
    says what kind of game each is and how many may play it: at one computer, or in a
    room when ``networked`` (None: either)."""
    from cakeparty.tui.table.registration import registered

    games = registered()
    if len(games) == 1:
        then(games[0].name)
        return

    def picked(game: str | None) -> None:
        if game is not None:
            then(game)

    details = [
        " · ".join(
            part
            for part in (_(g.kind) if g.kind else "", g.players_words(networked=networked))
            if part
        )
        for g in games
    ]
    app.push_screen(GamePickerScreen([(g.name, g.title) for g in games], details), picked)


class GamePickerScreen(ClosesOnce, ModalScreen["str | None"]):
    """Which game: ↑/↓ and enter, or its number; esc backs out."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "menu.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Back"), id="picker.cancel"),
    ]

    def __init__(self, games: Sequence[tuple[str, str]], details: Sequence[str] = ()) -> None:
        super().__init__(classes="dialog")
        self.games = list(games)
        #: a line after each title: its kind and how many may play ("bluffing · 2 or 4
        #: players"); none where blank
        self.details = list(details) + [""] * (len(self.games) - len(details))

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box", classes="dialog-box") as box:
            box.border_title = Content(_("Which game?"))
            options = []
            widest = max((cell_len(title) for _name, title in self.games), default=0)
            for number, ((name, title), detail) in enumerate(
                zip(self.games, self.details, strict=True), 1
            ):
                text = Text(f"{number}  ", style="bold")
                text.append(title)
                if detail:
                    text.append(" " * (widest - cell_len(title) + 3))
                    text.append(detail, style="dim")
                options.append(Option(text, id=name))
            yield PickList(*options, id="picker-options", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.off_stack:  # closed before it was drawn: its widgets are gone
            return
        self.query_one(OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.games):
                event.stop()
                self.dismiss(self.games[index][0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SetupScreen(ClosesOnce, ModalScreen["GameSetup | None"]):
    """The choices of a local game; enter starts it, esc backs out."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "menu.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", _("Start"), id="setup.start", priority=True),
        Binding("escape", "cancel", _("Back"), id="setup.cancel"),
        Binding("up,k", "app.focus_previous", show=False, id="setup.up"),
        Binding("down,j", "app.focus_next", show=False, id="setup.down"),
    ]

    def __init__(self, hotseat: bool, bots: str = "normal", *, game: str = "") -> None:
        from cakeparty.tui.table.registration import lookup, registered

        super().__init__(classes="dialog")
        self.hotseat = hotseat
        self.bots = bots
        self.table = lookup(game) if game else registered()[0]

    @property
    def levels(self) -> tuple[str, ...]:
        """The bot levels this game offers, weakest first."""
        from cakeparty.core.game import bot_levels, get_game

        return bot_levels(get_game(self.table.name))

    @property
    def think(self) -> float:
        """Seconds a strong bot thinks per decision: the settings'."""
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "bot_think", DEFAULT_THINK))

    @property
    def most(self) -> int:
        """The most people a hot-seat game of this game may have."""
        return max(self.table.players())

    def compose(self) -> ComposeResult:
        from cakeparty.tui.table.form import game_cyclers

        title = self.table.title
        players = self.table.usual()
        with Vertical(id="setup-box", classes="dialog-box") as box:
            box.border_title = Content(
                _("{game}: hot-seat").format(game=title)
                if self.hotseat
                else _("{game} against bots").format(game=title)
            )
            cyclers = game_cyclers(self.table, players, {})
            yield next(cyclers)  # the players
            if not self.hotseat:
                levels = self.levels
                yield Cycler(
                    "bots",
                    _("Bots"),
                    [(_(level), level) for level in levels],
                    offered_level(levels, self.bots),
                )
            yield from cyclers  # the game's options
            if self.hotseat:
                for seat in range(self.most):
                    with Horizontal(classes="setup-name", id=f"setup-name-{seat}") as row:
                        row.display = seat < players
                        label = _("Player {n}").format(n=seat + 1)
                        yield Static(f"{label:<18}", classes="setup-name-label", markup=False)
                        yield LineInput(
                            self._default_name(seat),
                            placeholder=label,
                            max_length=24,
                            compact=True,
                            id=f"name-{seat}",
                        )
            yield Static(
                _("↑/↓ line · ←/→ change · enter start · esc back"), id="setup-keys", markup=False
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        from cakeparty.tui.table.form import chosen_players, fit_options

        fit_options(self.table, self, chosen_players(self, self.table.usual()))
        self.query(Cycler).first().focus()

    def _default_name(self, seat: int) -> str:
        """The settings' name for the first person, "Player 2", … for the others."""
        settings = getattr(self.app, "settings", None)
        name = str(getattr(settings, "name", "") or "")
        if seat == 0 and name:
            return name
        return _("Player {n}").format(n=seat + 1)

    def on_option_cycled(self, event: OptionCycled) -> None:
        """As many name lines as people; the lines of the options for that many."""
        from cakeparty.tui.table.form import fit_options

        if event.name != "players":
            return
        fit_options(self.table, self, event.value)
        if self.hotseat:
            for seat in range(self.most):
                self.query_one(f"#setup-name-{seat}").display = seat < event.value

    @property
    def setup(self) -> GameSetup:
        from cakeparty.tui.table.form import chosen_options, chosen_players
        from cakeparty.tui.table.local import GameSetup

        players = chosen_players(self, self.table.usual())
        default = offered_level(self.levels, self.bots)
        bots = next((c.value for c in self.query(Cycler) if c.name == "bots"), default)
        assert isinstance(bots, str)
        names: tuple[str, ...] = ()
        if self.hotseat:
            names = tuple(
                self.query_one(f"#name-{seat}", Input).value.strip() for seat in range(players)
            )
        return GameSetup(
            game=self.table.name,
            players=players,
            bots=bots,
            think=self.think,
            options=chosen_options(self.table, self),
            hotseat=self.hotseat,
            names=names,
        )

    def action_start(self) -> None:
        after_typing(self, lambda: self.dismiss(self.setup))

    def action_cancel(self) -> None:
        self.dismiss(None)

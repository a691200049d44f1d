"""The Cookies Battle screen in a networked room.

The Cookies Battle screen with the shared networked play before it
(:class:`~cakeparty.tui.table.netplay.NetPlay`, driven by a
:class:`~cakeparty.tui.table.net.NetTable`): the room's events, the status line, the
chat, the clock, the notices, the verdict and a new game with the same people are the
shared layer's; what is Cookies Battle's own is here — its keys, the round ends shown as
a pause, how the game ends in words, and its replay's lines.

A marker window asks here as at one computer and passes by itself after a few seconds,
even when there is nothing to use (answering at once would tell the others that this
seat holds no Defense); the w key makes windows never ask.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Static

from cakeparty.core.games.cookies_battle.actions import NoMarker
from cakeparty.core.i18n import N_, _
from cakeparty.tui.games.cookies_battle.help import KEYS
from cakeparty.tui.games.cookies_battle.lines import DEFENSE, WINDOW, step_of
from cakeparty.tui.games.cookies_battle.screen import END_TITLE, CookiesScreen
from cakeparty.tui.games.cookies_battle.story import replay_lines
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.netplay import NET_KEYS, NetPlay, again_bindings

#: The keys of a networked game: a local game's, but chat, and no new game at the end.
#: (m is a marker here: the chat line is c.)
NET_COOKIES_KEYS: tuple[tuple[str, str], ...] = (
    *(k for k in KEYS if k[0] not in ("r / d / e", "q")),
    ("c", N_("type a chat line; enter sends it, esc puts it away")),
    *(k for k in NET_KEYS if k[0] != "m"),
)


class NetCookiesScreen(NetPlay, CookiesScreen):
    """A Cookies Battle game with players elsewhere: one seat at this keyboard, the room
    behind."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_game", _("Leave"), id="net.leave"),
        Binding("c", "chat", _("Chat"), id="net.chat"),
        *again_bindings(CookiesScreen.BINDINGS),
    ]
    CHAT_ID = "cb-chat"
    #: the keys are the screen's own: nothing takes the keyboard (the chat line waits)
    AUTO_FOCUS = ""
    NET_END_TITLE = END_TITLE

    # -- Cookies Battle's own part -----------------------------------------------------------

    def _show_chat(self) -> None:
        """The chat line, with its key (c here: m uses a marker)."""
        chat = self.query_one(f"#{self.CHAT_ID}", Static)
        if self.last_chat:
            chat.update(_("Chat ▸ {line}").format(line=self.last_chat))
        else:
            chat.update(_("Chat ▸ c to say something to the table"))

    def await_player(self, seat: int) -> None:
        """This seat's decision: a new one when the game has moved on; the same one, its
        marks kept, when the room only heard from someone else."""
        view = self.net.view(seat)
        step = step_of(view)
        if step in (WINDOW, DEFENSE) and not self.window_asks(step):
            self.perform(seat, NoMarker())  # windows set not to ask this one
            return
        if self.same_decision(seat):
            self.keep_window_timed()  # back from a dialog: the window still passes
            return
        super().await_player(seat)

    def forget_news(self) -> None:
        """The rounds that ended before the screen began were shown then (a resumed seat),
        and the log tells them; the final count of a game already over stays, for the end
        dialog follows it."""
        self._notices = self._notices[-1:] if self.net.over else []

    def net_winner(self, view: Any) -> str:
        outcome = self.net.outcome
        names = [self.net.names[s] for s in outcome.winners] if outcome else ["?"]
        return _("{names} won").format(names=", ".join(names))

    def net_ending(self) -> tuple[str, list[str], bool | None]:
        net = self.net
        headline, lines, _won = self.ending(net.view(None), net.names)
        outcome = net.outcome
        won = net.seat in outcome.winners if outcome is not None else None
        return headline, lines, won

    def net_replay_lines(self, entries: list[Any]) -> list[tuple[str, str]]:
        return replay_lines(entries, self.net.names)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_game":
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        options = self.view().options
        self.app.push_screen(HelpScreen(self.net.game.name, NET_COOKIES_KEYS, options=options))

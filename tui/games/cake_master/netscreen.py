"""The Cake Master screen in a networked room.

The Cake Master screen with the shared networked play before it
(:class:`~cakeparty.tui.table.netplay.NetPlay`, driven by a
:class:`~cakeparty.tui.table.net.NetTable`): the room's events, the status line ("Waiting
for Bob, Cy to choose" once this seat's sealed choice is in), the chat, the clock, the
notices, the verdict and a new game with the same people are the shared layer's; what is
Cake Master's own is here — its keys, the round breakdowns shown as a pause, how the game
ends in words, and its replay's lines.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.text import describe, final_lines
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.i18n import _
from cakeparty.tui.games.cake_master.help import KEYS, cards_reference
from cakeparty.tui.games.cake_master.screen import END_TITLE, MasterScreen
from cakeparty.tui.games.cake_master.story import replay_lines
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.netplay import NET_KEYS, NetPlay, again_bindings

#: The keys of a networked game: a local game's, but chat, and no new game at the end.
NET_MASTER_KEYS: tuple[tuple[str, str], ...] = (
    *(k for k in KEYS if k[0] not in ("r / d / e", "q")),
    *NET_KEYS,
)


class NetMasterScreen(NetPlay, MasterScreen):
    """A Cake Master game with players elsewhere: one seat at this keyboard, the room
    behind."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # a shorter word than a local game's: with chat, the footer still fits 80 columns
        Binding("o", "others", _("Cakes"), id="cm.others"),
        Binding("q", "quit_game", _("Leave"), id="net.leave"),
        Binding("m", "chat", _("Chat"), id="net.chat"),
        *again_bindings(MasterScreen.BINDINGS),
    ]
    CHAT_ID = "cm-chat"
    #: the keys are the screen's own: nothing takes the keyboard (the chat line waits for m)
    AUTO_FOCUS = ""
    NET_END_TITLE = END_TITLE

    # -- Cake Master's own part ------------------------------------------------------------

    def await_player(self, seat: int) -> None:
        """This seat's choice: a new one when the game has moved on; the same one, its
        marks kept, when the room only heard from someone else (another's sealed choice)."""
        if not self.same_decision(seat):
            super().await_player(seat)

    def _finish(self) -> None:
        """The last round's breakdown, then the end. The verdict may reach the screen
        before the event of the last moves does: the last round's scoring is then told
        here, and its breakdown shown before the end's dialog (which comes as it closes),
        not after it."""
        if not self.ended:
            entries = self.net.catch_up()
            if entries:
                self._tell(entries)
            if self.news_first():
                return
        super()._finish()

    def _game_over(self) -> ev.GameOver | None:
        view = self.net.view(None)
        return next((e for e in reversed(view.events) if isinstance(e, ev.GameOver)), None)

    def net_winner(self, view: MasterView) -> str:
        outcome = self.net.outcome
        names = [self.net.names[s] for s in outcome.winners] if outcome else ["?"]
        return _("{names} won").format(names=", ".join(names))

    def net_ending(self) -> tuple[str, list[str], bool | None]:
        net = self.net
        view = net.view(None)
        over = self._game_over()
        outcome = net.outcome
        winners = over.winners if over is not None else (outcome.winners if outcome else ())
        headline = describe(over, net.names) if over is not None else _("The game is over")
        return headline, final_lines(view, net.names), net.seat in winners

    def net_replay_lines(self, entries: list[Any]) -> list[tuple[str, str]]:
        return replay_lines(entries, self.net.names)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_game":
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.net.game.name, NET_MASTER_KEYS, cards_reference()))

"""The Cake of Doom screen in a networked room.

The Cake of Doom screen with the shared networked play before it
(:class:`~cakeparty.tui.table.netplay.NetPlay`, driven by a
:class:`~cakeparty.tui.table.net.NetTable`): the room's events, the status line, the chat,
the clock, the notices, the verdict and a new game with the same people are the shared
layer's; what is Cake of Doom's own is here — its keys, how the game ends in words, and
its replay's lines.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.i18n import _
from cakeparty.tui.games.cake_of_doom.help import KEYS, reference
from cakeparty.tui.games.cake_of_doom.screen import END_TITLE, DoomScreen
from cakeparty.tui.games.cake_of_doom.story import replay_lines
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.netplay import NET_KEYS, NetPlay, again_bindings

#: The keys of a networked game: a local game's, but chat, and no new game at the end.
NET_DOOM_KEYS: tuple[tuple[str, str], ...] = (
    *(k for k in KEYS if k[0] not in ("r / d / e", "q")),
    *NET_KEYS,
)


class NetDoomScreen(NetPlay, DoomScreen):
    """A Cake of Doom game with players elsewhere: one seat at this keyboard, the room
    behind."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_game", _("Leave"), id="net.leave"),
        Binding("m", "chat", _("Chat"), id="net.chat"),
        *again_bindings(DoomScreen.BINDINGS),
    ]
    CHAT_ID = "doom-chat"
    #: the keys are the screen's own: nothing takes the keyboard (the chat line waits for m)
    AUTO_FOCUS = ""
    NET_END_TITLE = END_TITLE

    def await_player(self, seat: int) -> None:
        """This seat's decision: a new one when the game has moved on; the same one, its
        offer or discard kept, when the room only heard something else."""
        if self.same_decision(seat):
            return
        self.prompted = False
        super().await_player(seat)

    def net_winner(self, view: DoomView) -> str:
        outcome = self.net.outcome
        names = [self.net.names[s] for s in outcome.winners] if outcome else ["?"]
        return _("{names} won").format(names=", ".join(names))

    def net_ending(self) -> tuple[str, list[str], bool | None]:
        headline, lines, winners = self.ending()
        return headline, lines, self.net.seat in winners

    def net_replay_lines(self, entries: list[Any]) -> list[tuple[str, str]]:
        return replay_lines(entries, self.net.names, blind=self.net.view(None).options.blind)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_game":
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.net.game.name, NET_DOOM_KEYS, reference()))

"""The Cake Duel screen in a networked room.

The duel screen with the shared networked play before it
(:class:`~cakeparty.tui.table.netplay.NetPlay`, driven by a
:class:`~cakeparty.tui.table.net.NetTable`): the room's events, the status line, the chat,
the clock, the notices, the verdict and a new game with the same people are the shared
layer's; what is the duel's own is here — its keys, how a duel ends in words, the pauses
for a look and a bout's end, and its replay's lines.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType

from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.text import side_says
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.i18n import _
from cakeparty.tui.games.cake_duel.chronicle import duel_specials, replay_lines
from cakeparty.tui.games.cake_duel.help import DUEL_KEYS
from cakeparty.tui.games.cake_duel.parts import audited_specials, last_duel
from cakeparty.tui.games.cake_duel.screen import (
    END_KEYS,
    END_TITLE,
    TOURNAMENT_END_KEYS,
    TOURNAMENT_END_TITLE,
    DuelScreen,
)
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.table.netplay import NET_KEYS, NetPlay, again_bindings
from cakeparty.tui.widgets import HandView, LogView

#: The keys of a networked duel: a local duel's, but chat, and no new duel at the end.
NET_DUEL_KEYS: tuple[tuple[str, str], ...] = (
    *(k for k in DUEL_KEYS if k[0] not in ("r / d / e", "q")),
    *NET_KEYS,
)


class NetDuelScreen(NetPlay, DuelScreen):
    """A Cake Duel with players elsewhere: one seat at this keyboard, the room behind."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_game", _("Leave"), id="net.leave"),
        Binding("m", "chat", _("Chat"), id="net.chat"),
        *again_bindings(DuelScreen.BINDINGS),
    ]
    CHAT_ID = "duel-chat"
    NET_END_TITLE = END_TITLE
    NET_END_KEYS = END_KEYS
    _last_specials: tuple[str, ...] | None = None  # the last duel's, once the audit told them

    # -- the duel's own part -----------------------------------------------------------------

    def panels_mounted(self) -> bool:
        return bool(self.query(LogView)) and bool(self.query(HandView))

    def focus_play(self) -> None:
        self.hand.focus()

    def news_first(self) -> bool:
        """What a look showed, as soon as it is known; how a bout ended (the duel's own
        pauses, before the shared layer's)."""
        return DuelScreen.news_first(self)

    def forget_news(self) -> None:
        """A bout's end told as the screen began was shown before (a resumed seat), and
        so was a tournament's duel that did not end it; the game's end keeps its last bout
        for the end dialog. A look stays: its cards are told only in its dialog."""
        won = [e.event for e in self._bout_end if isinstance(e.event, ev.DuelWon)]
        if not won or not self._game_won(won[-1]):
            self._bout_end = []

    def net_winner(self, view: DuelView) -> str:
        winner = view.winner
        if winner is None:
            return _("{side} wins").format(side="?")
        return side_says(_("{side} wins"), winner, self.net.names)

    def net_ending(self) -> tuple[str, list[str], bool | None]:
        duel = self.net
        view = duel.view(None)
        assert view.winner is not None
        last = last_duel(view)
        # after the audit every card is known: the last duel's specials, and of a
        # tournament's duels before, what their own ends could not tell
        specials = {
            number: cards
            for number, cards in audited_specials(duel, view).items()
            if number == last or self._duel_specials(number) is None
        }
        headline, lines = self.ending(specials)
        return headline, lines, view.winner == duel.seat % 2

    def last_specials(self, view: DuelView) -> tuple[str, ...]:
        """The hidden specials of the duel played last, once the audit at the game's end
        has made every card known (its end names them then); none before."""
        if view.winner is None:
            return ()
        if self._last_specials is None:
            known = audited_specials(self.net, view)
            if not known:
                return ()  # not audited yet
            self._last_specials = known.get(last_duel(view), ())
        return self._last_specials

    def _duel_specials(self, number: int) -> tuple[str, ...] | None:
        """No hidden card is known before the audit at the game's end, so a tournament's
        duel ends with its specials unknown, unless every seat was shown them as they were
        drawn (the learning option)."""
        if not self.view().options.full:
            return ()
        shown = duel_specials(self.net.story)
        return shown[number - 1] if len(shown) >= number and shown[number - 1] else None

    def _finish(self) -> None:
        super()._finish()
        self._bout_end = []

    def net_replay_lines(self, entries: list[Any]) -> list[tuple[str, str]]:
        return replay_lines(entries, self.net.names)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_game":
            return False
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.net.game.name, NET_DUEL_KEYS))


class NetTournamentScreen(NetDuelScreen):
    """A tournament of duels with players elsewhere: its end says so."""

    NET_END_TITLE = TOURNAMENT_END_TITLE
    NET_END_KEYS = TOURNAMENT_END_KEYS

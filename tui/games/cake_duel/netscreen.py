"""The Cake Duel screen in a networked room.

The duel screen, driven by a :class:`~cakeparty.tui.table.net.NetTable`: the room's
events arrive from the lobby below (:meth:`NetDuelScreen.room_event`); the status line says
what the room waits for (a shuffle, shares, someone's move, the audit); a chat line sits
above the hand; a peer's bad message and a player going offline become notices; and the
end shows the audit's verdict, with the replay face up when the audit found it fair.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from cakeparty.core import Action as CoreAction
from cakeparty.core import CakePartyError
from cakeparty.core.games.cake_duel.text import card_list, side_name
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.i18n import N_, _
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.lobby import ONLINE
from cakeparty.tui.games.cake_duel.chronicle import hidden_specials, replay_lines
from cakeparty.tui.games.cake_duel.screen import END_KEYS, END_TITLE, DuelScreen
from cakeparty.tui.messages import ChatClosed, ChatSent, GameEnded
from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen, ConfirmScreen
from cakeparty.tui.screens.help import DUEL_KEYS, HelpScreen
from cakeparty.tui.screens.lobby_parts import room_error_text
from cakeparty.tui.table.again import host_again
from cakeparty.tui.table.net import WARN_AT, NetTable
from cakeparty.tui.table.results import EndScreen, ReplayScreen
from cakeparty.tui.widgets import ChatInput, HandView, LogView

#: The answers to "Bob's time is up".
WAIT, END = "wait", "end"


#: Seconds of waiting before the status line counts them.
SHOW_WAIT_AFTER = 10

#: The keys of a networked duel: a local duel's, but chat, and no new duel at the end.
NET_DUEL_KEYS: tuple[tuple[str, str], ...] = (
    *(k for k in DUEL_KEYS if k[0] not in ("r / n", "q")),
    ("m", N_("type a chat line; enter sends it, esc puts it away")),
    ("r", N_("after the duel, when the audit is fair: replay face up")),
    ("p", N_("at the end: play again (host), or join the host's new game")),
    ("q", N_("leave the game (asks first while it goes on)")),
)


class NetDuelScreen(DuelScreen):
    """A Cake Duel with players elsewhere: one seat at this keyboard, the room behind."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit_game", _("Leave"), id="net.leave"),
        Binding("m", "chat", _("Chat"), id="net.chat"),
    ]

    def __init__(self, duel: NetTable, room: Any) -> None:
        """``room``: the :class:`~cakeparty.tui.netroom.NetRoom` the lobby runs."""
        super().__init__(duel, bot_delay=0.0, leave="pop")
        self.net = duel
        self.room = room
        self.last_chat = ""
        self.failed: str | None = None  # the room stopped, and why
        self.connected = True
        self._drawn: tuple[Any, ...] = ()
        self._offline: set[int] = set()
        self.notices: list[str] = []  # incidents and absences told so far
        self._told: set[tuple[int, str]] = set()  # clock warnings given, per step
        self.asking: int | None = None  # the seat whose overdue step is being asked about
        self._early: list[Any] = []  # events that came before the screen began
        self.begun = False
        self.next_code: str | None = None  # the new room the host offers, once it does

    # -- layout ----------------------------------------------------------------------------

    def compose_bar(self) -> ComposeResult:
        yield Static(id="duel-chat", markup=False)
        yield ChatInput(id="duel-chat-input")

    def start(self) -> None:
        # pushed as soon as the room starts the game, the screen may be mounted before
        # the panels nested in it are: begin once they are all there
        if not self.query(LogView) or not self.query(HandView):
            self.call_after_refresh(self.start)
            return
        self.query_one(ChatInput).display = False
        self._show_chat()
        super().start()
        self.begun = True
        self._report_incidents()
        early, self._early = self._early, []
        for event in early:
            self.room_event(event)

    def _show_chat(self) -> None:
        chat = self.query_one("#duel-chat", Static)
        if self.last_chat:
            chat.update(_("Chat ▸ {line}").format(line=self.last_chat))
        else:
            chat.update(_("Chat ▸ m to say something to the table"))

    # -- the room's events (from the lobby) --------------------------------------------------

    def room_event(self, event: Any) -> None:
        if not self.begun:
            self._early.append(event)  # told once the screen is up
            return
        kind = event.kind
        if kind in ("moved", "started", "finished"):
            self.follow()
        elif kind == "chat":
            self.last_chat = event.text
            self.log_view.add(_("» {line}").format(line=event.text), "italic")
            self._show_chat()
        elif kind == "presence":
            self._presence(event.data)
        elif kind == "incident":
            error = event.data
            if isinstance(error, ProtocolError):
                self._notice(self.net.describe_incident(error))
            else:
                self._notice(_("A message was ignored: {error}").format(error=event.text))
        elif kind == "error":
            self.notify(room_error_text(event.text), severity="error")

    def follow(self) -> None:
        """The room moved on: tell the new events and draw, once per change."""
        duel = self.net
        entries = duel.catch_up()
        self._report_incidents()
        if entries:
            self._tell(entries)
        peer = duel.peer
        drawn = (peer.seq, peer.waiting_for, duel.over, duel.audited)
        if not entries and drawn == self._drawn:
            return
        self._drawn = drawn
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def tick(self, connected: bool) -> None:
        """Once a second: the connection, and how long the room has been waiting."""
        self.connected = connected
        if not self.begun:
            return
        self.status.show(*self.status_text(self.view()))
        self.watch_clock()

    # -- the clock -------------------------------------------------------------------------

    def watch_clock(self) -> None:
        """Warn this player before its time is up, tell it when it is, and ask it what to
        do about a seat that keeps the room waiting past the timeout."""
        duel = self.net
        self.status.set_class(False, "-hurry")
        if duel.over:
            return
        seq = duel.peer.seq
        if duel.to_act == duel.seat:
            left = duel.clock()
            self.status.set_class(left <= WARN_AT[0], "-hurry")
            for mark in WARN_AT:
                if 0 < left <= mark and (seq, f"warn{mark}") not in self._told:
                    self._told.add((seq, f"warn{mark}"))
                    text = _("{s} s left for your move.").format(s=int(left))
                    self.notify(text, severity="warning", timeout=5)
            if duel.late() and (seq, "late") not in self._told:
                self._told.add((seq, "late"))
                self._notice(_("Your time is up; the others are deciding whether to wait."))
            voters = duel.voters_against(duel.seat)
            if voters and (seq, "voted") not in self._told:
                self._told.add((seq, "voted"))
                names = [duel.names[s] for s in voters]
                self._notice(
                    _("{names} voted to end the game as abandoned by you.").format(
                        names=", ".join(names)
                    )
                )
        overdue = duel.overdue()
        if overdue and self.asking is None and self.app.screen is self:
            self.ask_about(overdue[0])

    def ask_about(self, seat: int) -> None:
        """The dialog "Bob's time is up: wait longer, or end the game"."""
        duel = self.net
        name = duel.names[seat]
        self.asking = seat
        prompt = duel.absence_text(seat) + "."
        voters = duel.voters_against(seat)
        if voters:
            names = ", ".join(duel.names[s] for s in voters)
            prompt += " " + _("{names} voted to end the game.").format(names=names)
        choices = [
            Choice(
                _("Wait longer"),
                WAIT,
                _("another {s} s before you are asked again").format(s=duel.table.timeout),
            ),
            Choice(
                _("End the game as abandoned by {name}").format(name=name),
                END,
                _("it ends once every other player agrees"),
            ),
        ]
        title = _("{name}'s time is up").format(name=name)
        self.notices.append(title)
        self.app.push_screen(ChoiceScreen(title, choices, prompt), self._answered)

    def _answered(self, answer: str | None) -> None:
        seat, self.asking = self.asking, None
        duel = self.net
        if seat is None or duel.over:
            return
        if answer == END:
            if duel.vote_out(seat):
                self.log_view.add(
                    _("You voted to end the game as abandoned by {name}.").format(
                        name=duel.names[seat]
                    ),
                    "bold",
                )
        else:
            duel.wait_longer()
        self.status.show(*self.status_text(self.view()))

    def room_failed(self, error: str) -> None:
        self.failed = error
        if not self.begun:
            return
        self.status.show(*self.status_text(self.view()))

    def _report_incidents(self) -> None:
        for text in self.net.new_incidents():
            self._notice(text)

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self.log_view.add(text, "bold")
        self.notify(text, severity="warning", timeout=8)

    def _presence(self, presence: Any) -> None:
        duel = self.net
        seat = duel.table.seat_of(presence.player)
        if seat is None or seat == duel.seat or (duel.over and duel.audited):
            return  # after the audit, players leaving is no news
        name = duel.names[seat]
        if presence.state != ONLINE and seat not in self._offline:
            self._offline.add(seat)
            text = _("{name} went offline; the room waits for them to come back.").format(name=name)
            self.notices.append(text)
            self.log_view.add(text, "bold")
            self.notify(text, severity="warning", timeout=8)
        elif presence.state == ONLINE and seat in self._offline:
            self._offline.discard(seat)
            text = _("{name} is back online.").format(name=name)
            self.notices.append(text)
            self.log_view.add(text, "italic")
            self.notify(text, timeout=4)
        self.refresh_view()

    # -- the game moving on ----------------------------------------------------------------

    def advance(self) -> None:
        """Wait for the room, or for this player's decision; at the end, the verdict."""
        if self.app.screen is not self:
            return  # a dialog is open; the game goes on behind it, and resumes here
        self.awaiting = None
        duel = self.net
        if self._looks and self._show_look():  # what a look showed, as soon as it is known
            return
        if self._bout_end and self._show_bout_end():
            return
        if duel.over:
            self.refresh_view()
            if duel.audited:
                self._finish()
            return
        seat = duel.to_act
        if seat is None:
            self.refresh_view()
            return
        forced = duel.forced(seat)
        if forced is not None:
            self.perform(seat, forced)
            return
        self.await_player(seat)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.advance)

    def perform(self, seat: int, action: CoreAction, by_bot: bool = False) -> None:
        try:
            super().perform(seat, action, by_bot)
        except (CakePartyError, ValueError) as exc:
            self.notify(_("That move was not sent: {error}").format(error=exc), severity="error")
            self.refresh_view()
            self.call_after_refresh(self.advance)

    def status_text(self, view: DuelView) -> tuple[str, str]:
        duel = self.net
        if self.failed is not None:
            return self.failed + " " + _("q to leave."), "end"
        if not self.connected and not (duel.over and duel.audited):
            return _("Lost the connection to the broker; trying again…"), "wait"
        if duel.over:
            waiting = duel.waiting_text()
            if duel.session.abandoned is not None:
                return (waiting or "") + " " + _("q to leave"), "end"
            if not duel.audited:
                return waiting or _("Auditing the game…"), "wait"
            if duel.outcome is None:  # stopped over a card that is no card
                return duel.verdict_short() + " · " + _("q leave"), "end"
            winner = view.winner
            side = side_name(winner, duel.names) if winner is not None else "?"
            keys = _("r replay face up · q leave") if duel.fair else _("q leave")
            return _("{side} wins · {audit} · {keys}").format(
                side=side, audit=duel.verdict_short(), keys=keys
            ), "end"
        waiting = duel.waiting_text()
        if waiting is not None and self.awaiting is None:
            others = duel.waiting_on()
            if others:
                left = duel.clock()
                if left > 0:
                    waiting = _("{s} s left · {waiting}").format(s=int(left), waiting=waiting)
                else:  # gone, or only slow: the others decide (see watch_clock)
                    absent = "; ".join(duel.absence_text(s) for s in others)
                    waiting = _("{absent} · {waiting}").format(absent=absent, waiting=waiting)
            return waiting, "wait"
        text, tone = super().status_text(view)
        if duel.to_act == duel.seat and not duel.over:
            left = duel.clock()
            if left > 0:
                text = _("Your clock: {s} s · {text}").format(s=int(left), text=text)
            else:
                text = _("Your time is up: the others may end the game · {text}").format(text=text)
        return text, tone

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        duel = self.net
        names = duel.names
        lines: list[str] = []
        won: bool | None = None
        outcome = duel.outcome
        if outcome is not None:
            self.post_message(GameEnded(outcome))
            view = duel.view(None)
            assert view.winner is not None
            headline = _("{side} wins the duel!").format(side=side_name(view.winner, names))
            lines = self._bout_story(self._bout_end)  # how the last bout was won
            replayed = duel.verdict.replay if duel.verdict is not None else None
            if replayed is not None:  # after a fair audit every card is known
                specials = hidden_specials(replayed.state, replayed.dealer)
                if specials:
                    lines.append(
                        _("The hidden specials were {cards}").format(cards=card_list(specials))
                    )
            won = view.winner == duel.seat % 2
        else:
            ended = duel.session.abandoned
            if ended is None:
                headline = _("The game was stopped: a card is no card")
            else:
                headline = _("The game was abandoned by {name}").format(name=duel.names[ended.seat])
            lines.append(duel.waiting_text() or "")
        self._bout_end = []
        lines.append(duel.verdict_text())
        choices = ("replay", "board", "quit") if duel.fair else ("board", "quit")
        if self.room.hosting:
            choices = (*choices, "again")
        else:
            self._await_offer()
        self.app.push_screen(
            EndScreen(headline, lines, won, choices=choices, title=_(END_TITLE), keys=END_KEYS),
            self._after_end,
        )

    # -- play again: a new room and table, the same options, offered to the same people --

    def _after_end(self, choice: str | None) -> None:
        if choice == "again":
            if self.room.hosting:
                self._host_again()
            elif self.next_code is not None:
                from cakeparty.tui.netroom import JoinPlan

                open_room = getattr(self.app, "open_room", None)
                if open_room is not None:
                    open_room(JoinPlan(room=self.next_code, broker=str(self.room.address)))
            return
        super()._after_end(choice)

    @work(group="again", exclusive=True, exit_on_error=False)
    async def _host_again(self) -> None:
        try:
            await host_again(self.app, self.room)
        except Exception as exc:  # the new room stands; only the offer did not go out
            self.notify(
                _("Could not tell the others about the new room: {error}").format(error=exc),
                severity="warning",
            )

    @work(group="offer", exclusive=True, exit_on_error=False)
    async def _await_offer(self) -> None:
        """Guest: wait for the host's offer of a new game, and show it at the end."""
        from cakeparty.protocol.network import wait_next_room

        old = self.room
        advert = old.advert
        if advert is None:
            return
        self.next_code = await wait_next_room(old.address, old.room, advert.host)
        seat = self.net.table.seat_of(advert.host)
        host = self.net.names[seat] if seat is not None else advert.host_name
        line = _("{name} offers a new game: p to join").format(name=host)
        screen = self.app.screen
        if isinstance(screen, EndScreen):
            screen.offer(line)
        else:
            self.app.push_screen(
                EndScreen(
                    line, [], None, choices=("again", "board"), title=_(END_TITLE), keys=END_KEYS
                ),
                self._after_end,
            )

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "new_duel":
            return False
        if action == "replay":
            return self.net.over and self.net.fair
        return super().check_action(action, parameters)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.net.game.name, NET_DUEL_KEYS))

    def action_replay(self) -> None:
        duel = self.net
        if not duel.over or not duel.fair:
            return
        lines = replay_lines(duel.replay(), duel.names)
        title = _("Replay, every card face up — audited fair, room {room}").format(
            room=duel.table.room
        )
        self.app.push_screen(ReplayScreen(title, lines))

    def action_chat(self) -> None:
        if not self.room.playing:
            self.notify(_("The room has closed: nobody would read it."), severity="warning")
            return
        self.query_one("#duel-chat", Static).display = False
        chat = self.query_one(ChatInput)
        chat.display = True
        chat.focus()

    def on_chat_sent(self, message: ChatSent) -> None:
        message.stop()
        self.room.runner.say(message.text)
        self._close_chat()

    def on_chat_closed(self, message: ChatClosed) -> None:
        message.stop()
        self._close_chat()

    def _close_chat(self) -> None:
        self.query_one(ChatInput).display = False
        self.query_one("#duel-chat", Static).display = True
        self.call_after_refresh(self.hand.focus)

    def action_quit_game(self) -> None:
        duel = self.net
        if (duel.over and duel.audited) or self.failed is not None:
            self._leave()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._leave()

        if self.room.embedded:
            detail = _("Leaving stops the broker run here: the game ends for everyone.")
        else:
            detail = _(
                "The others will wait for you; after {s} s they are asked whether to end "
                "the game as abandoned by you."
            ).format(s=duel.table.timeout)
        self.app.push_screen(ConfirmScreen(_("Leave this game?"), detail), answered)

    def _leave(self) -> None:
        self.dismiss(None)

"""What a game's screen does in a networked room, whatever the game.

:class:`NetPlay` goes before a game's own screen (a
:class:`~cakeparty.tui.table.screen.TableScreen`) in a networked screen's bases, and drives
it with a :class:`~cakeparty.tui.table.net.NetTable`: the room's events arrive from the
lobby below (:meth:`NetPlay.room_event`); the status line says what the room waits for (a
shuffle, shares, someone's move or sealed choice, the audit) and counts the clock; a chat
line sits above the game's own panels; a peer's bad message and a player going offline
become notices; a seat past its time is asked about; the end shows the audit's verdict,
the replay face up when the audit found it fair, and a new game with the same people.

What is the game's own comes through a few small methods the game's networked screen
fills in: how the game ended in words (:meth:`NetPlay.net_ending`), who won in the status
line (:meth:`NetPlay.net_winner`), the replay's lines, and where the keyboard rests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.notifications import Notification, Notify
from textual.widgets import Static

from cakeparty.core import Action as CoreAction
from cakeparty.core import CakePartyError
from cakeparty.core.i18n import N_, _
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.lobby import ONLINE
from cakeparty.tui.messages import ChatClosed, ChatSent, GameEnded
from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby_parts import room_closed_text, room_error_text
from cakeparty.tui.table.again import join_again, play_again
from cakeparty.tui.table.net import WARN_AT, NetTable, seat_name
from cakeparty.tui.table.results import EndScreen, LeavingEndScreen, ReplayScreen
from cakeparty.tui.widgets import ChatInput, LogView, StatusBar

#: The answers to "Bob's time is up".
WAIT, END = "wait", "end"

#: The keys every networked game adds to its own (its help lists them after the game's).
NET_KEYS: tuple[tuple[str, str], ...] = (
    ("m", N_("type a chat line; enter sends it, esc puts it away")),
    ("r", N_("after the game, when the audit is fair: replay face up")),
    ("p", N_("at the end: play again (host), or join the host's new game")),
    ("e", N_("after the game: the results again")),
    ("q", N_("leave the game (asks first while it goes on)")),
)


def again_bindings(game: Sequence[BindingType]) -> list[BindingType]:
    """The key that plays again from the table once a networked game is over, p, behind
    the game's own bindings of p (a pass, in some games): a screen's binding of a key
    replaces its base class's for that key, so the game's are repeated first."""
    own = [b for b in game if isinstance(b, Binding) and "p" in b.key.split(",")]
    return [*own, Binding("p", "play_again", _("Play again"), id="net.again")]


class NetPlay:
    """A game's screen with players elsewhere: one seat at this keyboard, the room behind.

    Mixed in before the game's screen class; ``self`` is that screen: a
    :class:`~cakeparty.tui.table.screen.TableScreen` with ``log_view`` and ``status``
    (a :class:`~cakeparty.tui.widgets.StatusBar`), :meth:`refresh_view`,
    :meth:`status_text`, :meth:`await_player`, :meth:`perform`, ``_tell(entries)`` and
    ``_after_end(choice)``; its ``on_mount`` calls :meth:`start` (which tells the story so
    far and moves on), and its ``compose`` yields :meth:`compose_bar` where the chat line
    goes (a local game yields nothing there)."""

    #: The id of the chat line (the game's styles place it); the input is ``<id>-input``.
    CHAT_ID: ClassVar[str] = "net-chat"
    #: The end screen's title and extra keys (a game's own words).
    NET_END_TITLE: ClassVar[str] = N_("The game is over")
    NET_END_KEYS: ClassVar[Mapping[str, str] | None] = None
    #: Seconds a clock warning shows (unless its move is made sooner).
    CLOCK_TOAST_SECONDS: ClassVar[float] = 5.0

    # the parts of the game's screen this drives (declared for the type checker)
    app: Any
    STUMBLED_TEXT: str  # the screen's
    awaiting: int | None
    ended: bool
    log_view: LogView
    status: Any

    def __init__(self, net: NetTable, room: Any) -> None:
        """``room``: the :class:`~cakeparty.tui.netroom.NetRoom` the lobby runs."""
        super().__init__(net, bot_delay=0.0, leave="pop")
        self.net = net
        self.room = room
        self.last_chat = ""
        #: a chat line the player was typing in the lobby as the game began: the table's
        #: chat line opens with it
        self.draft: str | None = None
        self.failed: str | None = None  # the room stopped, and why
        self.connected = True
        self._drawn: tuple[Any, ...] = ()
        self._offline: set[int] = set()
        self.notices: list[str] = []  # incidents and absences told so far
        self._told: set[tuple[int, str]] = set()  # clock warnings given, per step
        self._clock_toasts: list[tuple[int, Notification]] = []  # shown, with their step
        self.asking: int | None = None  # the seat whose overdue step is being asked about
        self._question: ChoiceScreen[Any] | None = None  # the dialog asking it
        self._early: list[Any] = []  # events that came before the screen began
        self.begun = False
        self.next_code: str | None = None  # the new room the host offers, once it does
        self.offer_line: str | None = None  # what the end's dialog says of that offer
        self.going_again = False  # this screen makes way for the next room
        self._deciding: tuple[int, int] | None = None  # the seat and game state keys are up for
        self._called: int | None = None  # the game state this player was last called to

    # -- what the game says (its networked screen fills these in) ----------------------------

    def net_ending(self) -> tuple[str, list[str], bool | None]:
        """A finished game in the game's words: the headline, the lines below it, and
        whether this player won (``None``: neither)."""
        outcome = self.net.outcome
        assert outcome is not None
        names = [self.net.names[s] for s in outcome.winners]
        return _("{names} won").format(names=", ".join(names)), [], self.net.seat in outcome.winners

    def net_winner(self, view: Any) -> str:
        """Who won, for the status line at the end ("Ann wins")."""
        outcome = self.net.outcome
        names = [self.net.names[s] for s in outcome.winners] if outcome else ["?"]
        return _("{names} won").format(names=", ".join(names))

    def net_replay_lines(self, entries: list[Any]) -> list[tuple[str, str]]:
        """The replay's entries as (style, text) lines."""
        return []

    def focus_play(self) -> None:
        """Put the keyboard on the game (as it begins, and after the chat line): the
        screen's own keys, no widget (a game whose cards are a widget says so)."""
        self.set_focus(None)

    def panels_ready(self) -> bool:
        """Every panel the screen draws on is mounted, and the app is not closing."""
        return not self.closing() and self.panels_mounted()

    def panels_mounted(self) -> bool:
        """Every panel the screen draws on is mounted (a game's screen names its own)."""
        return bool(self.query(LogView)) and bool(self.query(ChatInput))

    def present(self, dialog: Any, callback: Callable[[Any], None] | None = None) -> None:
        """A notice the game opens (a round's breakdown) says, while it is read, how long
        this player has for the move that waits under it: the room's clock does not stop
        for a reader."""
        if isinstance(dialog, NoticeScreen) and dialog.live is None:
            dialog.live = self.notice_clock
        super().present(dialog, callback)

    def notice_clock(self) -> str | None:
        """This player's clock in a few words, while the move is its own (else ``None``)."""
        net = self.net
        if net.over or net.to_act != net.seat:
            return None
        left = net.own_clock()
        if left <= 0:
            return _("your time is up")
        return _("your move: {s} s left").format(s=int(left))

    def news_first(self) -> bool:
        """The first pause the game made (a round's breakdown) before it moves on; ``True``
        while it shows one (the screen moves on when it is back on top)."""
        if not self._notices:
            return False
        title, lines = self._notices.pop(0)
        self.refresh_view()
        self.present(NoticeScreen(title, lines, classes="round-end"))
        return True

    def forget_news(self) -> None:
        """Drop the pauses the story told as the screen began would make (a round's end):
        that story happened before this screen — a seat resumed in the middle of a game
        saw it then, and finds it in the log now. What the end dialog still needs (how
        the game was won), or what was told nowhere else, stays. Here every queued round
        breakdown goes; a game whose last pause the end still needs keeps it."""
        self._notices.clear()

    # -- layout ----------------------------------------------------------------------------

    def compose_bar(self) -> ComposeResult:
        yield Static(id=self.CHAT_ID, markup=False)
        yield ChatInput(id=f"{self.CHAT_ID}-input")

    def start(self) -> None:
        # pushed as soon as the room starts the game, the screen may be mounted before
        # the panels nested in it are: begin once they are all there
        if not self.panels_ready():
            self.call_after_refresh(self.start)
            return
        self.query_one(ChatInput).display = False
        self._show_chat()
        super().start()
        self.forget_news()
        self.begun = True
        self._report_incidents()
        early, self._early = self._early, []
        for event in early:
            self.room_event(event)
        self.focus_play()
        draft, self.draft = self.draft, None
        if draft is not None and self.room.playing:
            self.action_chat()
            chat = self.query_one(ChatInput)
            chat.value = draft
            chat.cursor_position = len(draft)

    def _show_chat(self) -> None:
        chat = self.query_one(f"#{self.CHAT_ID}", Static)
        if self.last_chat:
            chat.update(_("Chat ▸ {line}").format(line=self.last_chat))
        else:
            chat.update(_("Chat ▸ m to say something to the table"))

    # -- the room's events (from the lobby) --------------------------------------------------

    def room_event(self, event: Any) -> None:
        if not self.begun:
            self._early.append(event)  # told once the screen is up
            return
        if not self.panels_ready():
            return  # the screen is being closed (say, for the next game): nothing to tell
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
                self._notice(_("A message was ignored: {error}").format(error=_(event.text)))
        elif kind == "stumbled":  # a bot run here
            seat, problem = event.data
            self._notice(_(self.STUMBLED_TEXT).format(name=self.net.names[seat], problem=problem))
        elif kind == "disk":
            if event.text:
                self._notice(
                    _(
                        "This game's record cannot be written here: {reason}. The game "
                        "waits until there is room on the disk."
                    ).format(reason=event.text)
                )
            else:
                self._notice(_("This game's record is written again: the game goes on."))
        elif kind == "error":
            self.notify(room_error_text(event.text), severity="error")
        elif kind == "closed" and not self.net.over:
            text = room_closed_text(event.data)
            self._notice(text)
            self.room_failed(text)

    def follow(self) -> None:
        """The room moved on: tell the new events and draw, once per change."""
        net = self.net
        entries = net.catch_up()
        self._report_incidents()
        if entries:
            self._tell(entries)
        peer = net.peer
        self.withdraw_clock_toasts()
        drawn = (peer.seq, peer.waiting_for, net.over, net.audited)
        if not entries and drawn == self._drawn:
            return
        self._drawn = drawn
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def tick(self, connected: bool) -> None:
        """Once a second: the connection, and how long the room has been waiting."""
        self.connected = connected
        if not self.begun or not self.query(StatusBar):  # not up yet, or being closed
            return
        self.status.show(*self.status_text(self.view()))
        self.watch_clock()

    # -- the clock -------------------------------------------------------------------------

    def watch_clock(self) -> None:
        """Warn this player before its time is up, tell it when it is, and ask it what to
        do about a seat that keeps the room waiting past the timeout."""
        net = self.net
        self.status.set_class(False, "-hurry")
        overdue = net.overdue()
        if self.asking is not None and (net.over or self.asking not in overdue):
            self._withdraw_question()  # the seat moved (or came back and did): no question
        if net.over:
            return
        seq = net.peer.seq
        if net.to_act == net.seat:
            left = net.own_clock()
            self.status.set_class(left <= WARN_AT[0], "-hurry")
            for mark in WARN_AT:
                if 0 < left <= mark and (seq, f"warn{mark}") not in self._told:
                    self._told.add((seq, f"warn{mark}"))
                    text = _("{s} s left for your move.").format(s=int(left))
                    self._clock_toast(seq, text)
                    if mark == WARN_AT[-1]:
                        self._call(None)  # the last warning: a player who looked away, again
            if net.late() and (seq, "late") not in self._told:
                self._told.add((seq, "late"))
                self._notice(_("Your time is up; the others are deciding whether to wait."))
            voters = net.voters_against(net.seat)
            if voters and (seq, "voted") not in self._told:
                self._told.add((seq, "voted"))
                names = [net.names[s] for s in voters]
                self._notice(
                    _("{names} voted to end the game as abandoned by you.").format(
                        names=", ".join(names)
                    )
                )
        if overdue and self.asking is None and self.app.screen is self and not self.typing():
            self.ask_about(overdue[0])

    def _clock_toast(self, seq: int, text: str) -> None:
        """A clock warning about step ``seq``: it goes as soon as that step is over."""
        toast = Notification(
            text, severity="warning", timeout=self.CLOCK_TOAST_SECONDS, markup=False
        )
        self._clock_toasts.append((seq, toast))
        self.app.post_message(Notify(toast))

    def withdraw_clock_toasts(self) -> None:
        """Take down the clock warnings about a step the room has left (or about any, once
        the game is over): none lingers under a dialog that opens after the move."""
        net = self.net
        keep = None if net.over or net.to_act != net.seat else net.peer.seq
        stale = [toast for seq, toast in self._clock_toasts if seq != keep]
        self._clock_toasts = [(seq, t) for seq, t in self._clock_toasts if seq == keep]
        for toast in stale:
            # Textual's own way to take one toast down (a click on it does the same)
            self.app._unnotify(toast)

    def ask_about(self, seat: int) -> None:
        """The dialog "Bob's time is up: wait longer, or end the game"."""
        net = self.net
        name = net.names[seat]
        self.asking = seat
        prompt = net.absence_text(seat) + "."
        voters = net.voters_against(seat)
        if voters:
            names = ", ".join(net.names[s] for s in voters)
            prompt += " " + _("{names} voted to end the game.").format(names=names)
        choices = [
            Choice(
                _("Wait longer"),
                WAIT,
                _("another {s} s before you are asked again").format(s=net.table.timeout),
            ),
            Choice(
                _("End the game as abandoned by {name}").format(name=name),
                END,
                _("it ends once every other player still here agrees"),
            ),
        ]
        title = _("{name}'s time is up").format(name=name)
        self.notices.append(title)
        self._question = ChoiceScreen(title, choices, prompt)
        self.app.push_screen(self._question, self._answered)
        self._call(None)

    def _withdraw_question(self) -> None:
        """Close the "time is up" question once the room has moved on without an answer."""
        question = self._question
        if question is None or self.app.screen is not question:
            return  # another dialog is on top of it: next tick
        seat, self.asking, self._question = self.asking, None, None
        question.dismiss(None)
        if seat is not None and not self.net.over:
            self.notify(
                _("{name} moved: the game goes on.").format(name=self.net.names[seat]), timeout=4
            )

    def _answered(self, answer: str | None) -> None:
        seat, self.asking, self._question = self.asking, None, None
        net = self.net
        if seat is None or net.over:
            return
        if answer == END:
            if net.vote_out(seat):
                self.log_view.add(
                    _("You voted to end the game as abandoned by {name}.").format(
                        name=net.names[seat]
                    ),
                    "bold",
                )
        else:
            net.wait_longer()
        self.status.show(*self.status_text(self.view()))

    def room_failed(self, error: str) -> None:
        self.failed = error
        if not self.begun:
            return
        self.status.show(*self.status_text(self.view()))
        self.call_after_refresh(self.advance)

    def _report_incidents(self) -> None:
        for text in self.net.new_incidents():
            self._notice(text)

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self.log_view.add(text, "bold")
        self.notify(text, severity="warning", timeout=8)

    def _presence(self, presence: Any) -> None:
        net = self.net
        seat = net.table.seat_of(presence.player)
        if seat is None or seat == net.seat or (net.over and net.audited) or self.failed:
            return  # after the audit, or once the room stopped, players leaving is no news
        name = net.names[seat]
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
        if self.app.screen is not self or self._held:
            return  # a dialog is open or waits; the game goes on behind it, and resumes here
        self.awaiting = None
        net = self.net
        if self.failed is not None and not net.over:  # the room stopped (or was closed)
            self.refresh_view()
            self.refresh_bindings()
            return
        if self.news_first():
            return
        if net.over:
            self.refresh_view()
            if net.audited:
                self._finish()
            return
        seat = net.to_act
        if seat is None:
            self.refresh_view()
            return
        forced = net.forced(seat)
        if forced is not None:
            self.perform(seat, forced)
            return
        if seat == net.seat:
            self._call(net.view(seat).state_id)
        self.await_player(seat)

    def _call(self, state: int | None) -> None:
        """Call the player to a decision of theirs, once each (``state``: the game state
        it is about), or to a question or a clock's warning (``None``)."""
        if state is not None and state == self._called:
            return
        self._called = state
        call = getattr(self.app, "call_player", None)  # the app's bell, as its settings say
        if call is not None:
            call()

    def same_decision(self, seat: int) -> bool:
        """Whether ``seat``'s keys are up for this decision already (the room only heard
        from someone else, or a dialog closed): then its marks stay and the screen is
        redrawn. A new decision is remembered, for the game's screen to ask afresh."""
        step = (seat, self.net.view(seat).state_id)
        if step == self._deciding:
            self.awaiting = seat
            self.refresh_view()
            return True
        self._deciding = step
        return False

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.advance)

    def perform(self, seat: int, action: CoreAction, by_bot: bool = False) -> None:
        try:
            super().perform(seat, action, by_bot)
        except (CakePartyError, ValueError, OSError) as exc:
            error = exc
            if isinstance(exc, OSError):  # the journal's disk (full): the move is kept first
                error = _("this game's record cannot be written here: {reason} ({path})").format(
                    reason=exc.strerror, path=exc.filename
                )
            self.notify(_("That move was not sent: {error}").format(error=error), severity="error")
            self.refresh_view()
            self.call_after_refresh(self.advance)

    def status_text(self, view: Any) -> tuple[str, str]:
        net = self.net
        if self.failed is not None:
            return self.failed + " " + _("q to leave."), "end"
        if not self.connected and not (net.over and net.audited):
            return _("Lost the connection to the broker; trying again…"), "wait"
        if net.over:
            waiting = net.waiting_text()
            if net.session.abandoned is not None:
                return (waiting or "") + " " + _("q to leave"), "end"
            if not net.audited:
                return waiting or _("Auditing the game…"), "wait"
            if net.outcome is None:  # stopped over a card that is no card
                return net.verdict_short() + " · " + _("q leave"), "end"
            # the keys the table has now, as the footer lists them
            keys = " · ".join(
                words
                for live, words in (
                    (net.fair, _("r replay")),
                    (self.check_action("play_again", ()), _("p play again")),
                    (self.check_action("results", ()), _("e results")),
                    (True, _("q leave")),
                )
                if live
            )
            return _("{result} · {audit} · {keys}").format(
                result=self.net_winner(view), audit=net.verdict_short(), keys=keys
            ), "end"
        waiting = net.waiting_text()
        if waiting is not None and self.awaiting is None:
            others = net.waiting_on()
            if others:
                left = net.clock()
                if left > 0:
                    waiting = _("{s} s left · {waiting}").format(s=int(left), waiting=waiting)
                else:  # gone, or only slow: the others decide (see watch_clock)
                    absent = "; ".join(net.absence_text(s) for s in others)
                    waiting = _("{absent} · {waiting}").format(absent=absent, waiting=waiting)
            return waiting, "wait"
        if self.awaiting is None and net.to_act == net.seat and not net.over:
            # the room waits on this player, whose keys come once the screen has caught
            # up (a moment, more as a seat comes back): not "Ann decides" to Ann herself
            return _("Your move · one moment…"), "wait"
        text, tone = super().status_text(view)
        if net.to_act == net.seat and not net.over:
            left = net.own_clock()
            if left > 0:
                text = _("Your clock: {s} s · {text}").format(s=int(left), text=text)
            else:
                text = _("Your time is up: the others may end the game · {text}").format(text=text)
        return text, tone

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.refresh_view()  # p plays again from the table now: the status and footer say so
        self.refresh_bindings()
        self.withdraw_clock_toasts()
        net = self.net
        entries = net.catch_up()  # the last events, when the verdict came before them
        if entries:
            self._tell(entries)
        won: bool | None = None
        outcome = net.outcome
        if outcome is not None:
            self.post_message(GameEnded(outcome))
            headline, lines, won = self.net_ending()
        else:
            ended = net.session.abandoned
            verdict = net.verdict
            if ended is None and net.peer.proof is not None and verdict is not None:
                # a seat signed two versions of one step: the verdict names it
                who = seat_name(verdict.seat, net.names) if verdict.seat is not None else "?"
                headline = _("The game was stopped: {name} broke the room's rules").format(name=who)
            elif ended is None:
                headline = _("The game was stopped: a card is no card")
            else:
                headline = _("The game was abandoned by {name}").format(name=net.names[ended.seat])
            lines = [net.waiting_text() or ""]
        lines.append(net.verdict_text())
        choices: tuple[str, ...] = ("replay", "board", "quit") if net.fair else ("board", "quit")
        if self.room.hosting:
            choices = (*choices, "again")
        else:
            self._await_offer()

        def box() -> EndScreen:
            end = LeavingEndScreen(
                headline,
                lines,
                won,
                choices=choices,
                title=_(self.NET_END_TITLE),
                keys=self.NET_END_KEYS,
            )
            if self.offer_line is not None:  # brought back after the host's offer came
                end.offer(self.offer_line)
            return end

        self.show_end(box)
        self.refresh_view()  # e brings the end's box back: the status says so too

    # -- play again: a new room and table, the same options, offered to the same people --

    def _after_end(self, choice: str | None) -> None:
        if choice == "again":
            if self.going_again:  # a second p while the first makes way
                return
            # run by the app: this screen and its room's lobby make way for the new room
            if self.room.hosting:
                again = play_again(self.app, self, self.room)
            elif self.next_code is not None:
                from cakeparty.tui.netroom import JoinPlan

                plan = JoinPlan(room=self.next_code, broker=self.room.address.url)
                again = join_again(self.app, self, plan)
            else:
                return
            self.going_again = True
            self.app.run_worker(again, group="again", exclusive=True, exit_on_error=False)
            return
        super()._after_end(choice)

    @work(group="offer", exclusive=True, exit_on_error=False)
    async def _await_offer(self) -> None:
        """Guest: wait for the host's offer of a new game, and show it at the end."""
        old = self.room
        advert = old.advert
        if advert is None:
            return
        self.next_code = await old.runner.next_room()
        self.refresh_view()  # p joins it from the table too: the status and footer say so
        self.refresh_bindings()
        seat = self.net.table.seat_of(advert.host)
        host = self.net.names[seat] if seat is not None else advert.host_name
        line = self.offer_line = _("{name} offers a new game: p to join").format(name=host)
        shown = [self.app.screen, *(dialog for dialog, _then in self._held)]
        ending = next((s for s in shown if isinstance(s, EndScreen)), None)
        if ending is not None:
            ending.offer(line)
        elif self._end_box is not None:
            # the end's dialog, put away, comes back with the offer: the same result and
            # keys (replay, see the table, quit) as before, and p to join
            self.present(self._end_box(), self._after_end)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return self.net.over and self.net.fair
        if action == "play_again":
            hosting = self.room.hosting
            return self.ended and not self.going_again and (hosting or self.next_code is not None)
        return super().check_action(action, parameters)

    def action_play_again(self) -> None:
        """From the table after the end (the end's dialog put away): what its p does."""
        if self.check_action("play_again", ()):
            self._after_end("again")

    def action_replay(self) -> None:
        net = self.net
        if not net.over or not net.fair:
            return
        lines = self.net_replay_lines(net.replay())
        title = _("Replay, every card face up — audited fair, room {room}").format(
            room=net.table.room
        )
        self.app.push_screen(ReplayScreen(title, lines))

    def action_chat(self) -> None:
        if not self.room.playing:
            self.notify(_("The room has closed: nobody would read it."), severity="warning")
            return
        self.query_one(f"#{self.CHAT_ID}", Static).display = False
        chat = self.query_one(ChatInput)
        chat.display = True
        chat.focus()

    def on_chat_sent(self, message: ChatSent) -> None:
        message.stop()
        if not self.room.runner.say(message.text):
            self.query_one(ChatInput).held_back(message.text)
            return
        self._close_chat()

    def on_chat_closed(self, message: ChatClosed) -> None:
        message.stop()
        self._close_chat()

    def typing(self) -> bool:
        return any(chat.display for chat in self.query(ChatInput))

    def _close_chat(self) -> None:
        self.query_one(ChatInput).display = False
        self.query_one(f"#{self.CHAT_ID}", Static).display = True
        self.call_after_refresh(self._back_to_play)

    def _back_to_play(self) -> None:
        self.focus_play()
        self.show_held()  # the game moves on as each is closed

    def action_quit_game(self) -> None:
        net = self.net
        if (net.over and net.audited) or self.failed is not None:
            self._leave()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._leave()

        if self.room.hosting:
            detail = (
                _("Leaving closes the room: the game ends here for everyone, unfinished.")
                if not self.room.embedded
                else _(
                    "Leaving closes the room and stops the broker run here: the game ends "
                    "here for everyone, unfinished."
                )
            )
        else:
            detail = _(
                "The others will wait for you; after {s} s they are asked whether to end "
                "the game as abandoned by you."
            ).format(s=net.table.timeout)
        self.app.push_screen(ConfirmScreen(_("Leave this game?"), detail), answered)

    def _leave(self) -> None:
        self.dismiss(None)

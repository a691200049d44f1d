"""What every game's screen does, whatever the game: it drives a
:class:`~cakeparty.tui.table.session.TableSession`, lets bots decide after a short visible
delay (a bot that fails plays at random that once, with a notice; one that thinks for
more than a moment says so on the status line), offers only the legal actions, opens
lists of choices, and asks before a game in progress is left.

A game's screen subclasses :class:`TableScreen` and draws its own view; it says how a
move is made (:meth:`TableScreen.perform`), how a seat is asked
(:meth:`TableScreen.await_player`), how the game ends (:meth:`TableScreen._finish`) and
what leaving loses (:attr:`QUIT_QUESTION`). The game moving on
(:meth:`TableScreen.advance`) is the same for every game; a game adds to it through its
hooks: the pauses it makes (a round's breakdown queued, or its own :meth:`news_first`),
the bots' moves it makes at once (:meth:`bot_at_once`), and the moves it makes for a
person (:meth:`automatic`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from cakeparty.core import Action
from cakeparty.core.i18n import N_, _
from cakeparty.protocol.journal import FileLock, InUse
from cakeparty.tui.messages import KeyboardPassed
from cakeparty.tui.screens.dialogs import (
    Choice,
    ChoiceScreen,
    ConfirmScreen,
    NoticeScreen,
    PassScreen,
)
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.table import kept
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.session import TableSession
from cakeparty.tui.widgets import LogView, SpareRows, StatusBar


def table_bindings(prefix: str, new_game: str | None = None) -> list[BindingType]:
    """The keys every game's table ends its footer with: a new game (``new_game``: its
    label, "New game" unless the game names it), the help, the log's pages and quitting;
    ``prefix`` begins their ids, as the game's own keys' ids do."""
    return [
        Binding("d", "new_game", new_game or _("New game"), id=f"{prefix}.new"),
        Binding("e", "results", _("Results"), id=f"{prefix}.results"),
        Binding("question_mark,f1", "help", _("Help"), key_display="?", id=f"{prefix}.help"),
        Binding("pageup", "log(-1)", _("Log up"), show=False, id=f"{prefix}.log_up"),
        Binding("pagedown", "log(1)", _("Log down"), show=False, id=f"{prefix}.log_down"),
        Binding("q", "quit_game", _("Quit"), id=f"{prefix}.quit"),
    ]


#: a game's own marks of a choice being made (:meth:`TableScreen.marks_shown`)
Marks = TypeVar("Marks")


class TableScreen(ClosesOnce, Screen[None]):
    """A game's table on the screen, played by people at this keyboard and bots."""

    #: What quitting a game in progress asks, and what it loses.
    QUIT_QUESTION = N_("Quit this game?")
    QUIT_DETAIL = N_("The game in progress will be lost.")

    #: The smallest terminal the screen is made for, and the id of the notice (a
    #: ``Static`` the game composes) that says when the terminal is smaller.
    MIN_SIZE = (80, 24)
    TOO_SMALL_ID = "too-small"
    TOO_SMALL_TEXT = N_("Terminal too small ({width}×{height}): this game needs {w}×{h}.")

    #: After this many seconds of a bot's deciding, the status line says it is thinking.
    THINKING_AFTER = 0.3
    THINKING_TEXT = N_("{name} is thinking…")
    #: What a bot that failed does (a local one, or one a host runs in a networked game).
    STUMBLED_TEXT = N_("{name} (bot) stumbled ({problem}) and plays at random this once.")

    def __init__(
        self,
        setup: GameSetup | TableSession,
        *,
        player: str = "Player",
        bot_delay: float = 0.6,
        leave: str = "pop",
        keep: bool = False,
    ) -> None:
        """``setup``: the game to start (``player`` names this keyboard's seat), or a
        game already set up; ``bot_delay``: the seconds a bot waits before its move;
        ``leave``: "pop" to go back to the menu at the end, "exit" to quit the app;
        ``keep``: a local game is kept on disk as it goes (:mod:`.kept`), to be continued
        from the menu should the app end before the game does."""
        super().__init__()
        session = LocalTable(setup, player) if isinstance(setup, GameSetup) else setup
        self.keeping: str | None = None  # the game kept on disk as it goes (its name)
        self._kept_lock: FileLock | None = None
        #: another window keeps this game's kept game: this one is played, not kept
        self.kept_elsewhere = False
        if keep and isinstance(session, LocalTable):
            self._keep(session)
        self.session: TableSession = session
        self.delay_setting = bot_delay  # as chosen (a game may share it out: bot_delay)
        self.bot_delay = bot_delay
        self.leave = leave  # "pop": back to the menu; "exit": quit the app
        self.awaiting: int | None = None  # the seat whose keys are live now
        self.bot_busy = False
        self.thinking: int | None = None  # the bot's seat while the status line says so
        self.ended = False
        #: several people at this keyboard: no hand shows until its owner has it
        self.sharing = session.hotseat and len(session.humans) > 1
        #: the seat whose hand this keyboard shows (None: none, the keyboard is passing)
        self.viewer: int | None = None if self.sharing else session.humans[0]
        #: pauses the game makes, still to show: a title and its lines (a round's end)
        self._notices: list[tuple[str, list[str]]] = []
        #: dialogs the game opened while the player typed a line of its own, to show
        self._held: list[tuple[Screen[Any], Callable[[Any], None] | None]] = []
        #: builds the end's dialog again (:meth:`show_end`): None before the end
        self._end_box: Callable[[], Screen[str]] | None = None
        #: a person's last sealed choice, drawn while the others still make theirs: the
        #: step it was made at (:meth:`sealed_step`) and what draws it (:meth:`seal`)
        self._sealed_choice: tuple[Hashable, Any] | None = None

    def _keep(self, session: LocalTable) -> None:
        """Keep ``session``'s game on disk as it goes, unless another window of this
        player holds its game's kept game (then it is played without being kept)."""
        game = session.setup.game
        lock = kept.lock(game)
        try:
            lock.acquire()
        except InUse:
            self.kept_elsewhere = True
            return
        except OSError:
            pass  # a data dir that takes no file: keeping it will be said to fail
        else:
            self._kept_lock = lock
        self.keeping = game
        if session.keeper is None:
            session.keeper = kept.keep
            kept.keep(session)  # kept from the start, in place of its game's last one

    def on_unmount(self) -> None:
        self._let_kept_go()

    def _let_kept_go(self) -> None:
        """This window keeps its game's kept game no longer (it left, or makes way for a
        new game of its own)."""
        lock, self._kept_lock = self._kept_lock, None
        if lock is not None:
            lock.release()

    # -- the frame every game's screen shares ----------------------------------------------

    def compose_bar(self) -> ComposeResult:
        """Widgets below the status line (a networked game's chat line): none locally."""
        yield from ()

    def on_mount(self) -> None:
        # Textual calls this for the base class as well as for a subclass that defines
        # its own: a game's screen starts here, and defines none
        if not self.closing():
            self.start()

    def closing(self) -> bool:
        """Whether the app is closing, or closed (its widgets may be gone already):
        nothing to draw."""
        try:
            return not (self.app.is_running and self.is_attached)
        except RuntimeError:  # heard after the app ended: no app to ask (NoActiveAppError)
            return True

    def start(self) -> None:
        """Tell the story so far, draw the table, and let the game move on."""
        if self.kept_elsewhere:
            from cakeparty.tui.table.registration import game_title

            self.notify(
                _(
                    "Another window of yours is playing {game}: this game is not kept to "
                    "be continued later."
                ).format(game=game_title(self.session.game.name)),
                severity="warning",
                timeout=10,
            )
        self.recall()
        self._tell(self.session.story)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        """Below the smallest size the screen is made for, a notice says so; otherwise
        the table is drawn again at the new size. The rows beyond it go where the game's
        screen keeps none of its fixed panels (:class:`SpareRows`)."""
        width, height = event.size
        least_w, least_h = self.MIN_SIZE
        for spare in self.query(SpareRows):
            spare.fit(height, least_h)
        small = width < least_w or height < least_h
        if small:
            self.query_one(f"#{self.TOO_SMALL_ID}", Static).update(
                _(self.TOO_SMALL_TEXT).format(width=width, height=height, w=least_w, h=least_h)
            )
        self.set_class(small, "-too-small")
        self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        self.refresh_view()
        if self.thinking is not None:
            self.show_thinking(self.thinking)

    def show_thinking(self, seat: int) -> None:
        """Say on the status line that the bot in ``seat`` is still deciding."""
        self.thinking = seat
        name = self.session.names[seat]
        self.status.show(_(self.THINKING_TEXT).format(name=name), "wait")

    @property
    def log_view(self) -> LogView:
        return self.query_one(LogView)

    @property
    def status(self) -> StatusBar:
        return self.query_one(StatusBar)

    # -- a keyboard shared by several people -------------------------------------------------

    def pass_reason(self, seat: int) -> str:
        """What ``seat`` is handed the keyboard for (the decision it has to make)."""
        return ""

    def hide_hands(self) -> None:
        """Show no hand while the keyboard goes from one person to the next."""
        self.viewer = None

    def _pass_keyboard(self, seat: int) -> None:
        """Hide every hand and ask for the keyboard to be handed to ``seat``'s player."""
        self.hide_hands()
        self.refresh_view()
        name = self.session.names[seat]
        why = self.pass_reason(seat)

        def taken(result: str | None) -> None:
            if result == "quit":
                self._ask_quit(lambda: self._pass_keyboard(seat))
                return
            self.viewer = seat
            self.post_message(KeyboardPassed(seat))
            self.refresh_view()
            self.call_after_refresh(self.advance)

        self.app.push_screen(PassScreen(name, why), taken)

    # -- the game moving on ----------------------------------------------------------------

    def advance(self) -> None:
        """Move on until a person must decide: a pause the game makes first (a round's
        breakdown, a look), then the end, the bots, the moves the app makes for a person,
        the keyboard handed on, and the keys of the seat that decides."""
        if not self.is_current or self.bot_busy or self._held:
            return  # a dialog is open or waits, or a bot is on it; all resume here
        self.awaiting = None
        if self.news_first():
            return
        session = self.session
        if session.over:
            self.refresh_view()
            self._finish()
            return
        seat = session.to_act
        if seat is None:
            self.refresh_view()
            return
        if session.is_bot(seat):
            if not self.bot_at_once(seat):
                self.refresh_view()
                self.bot_busy = True
                self.run_bot(seat)
            return
        made = self.automatic(seat)
        if made is not None:
            self.perform(seat, made)
            return
        if seat != self.viewer:
            self._pass_keyboard(seat)
            return
        self.await_player(seat)

    # -- dialogs the game opens by itself ---------------------------------------------------

    def typing(self) -> bool:
        """The player is typing a line of its own (a networked table's chat)."""
        return False

    def present(self, dialog: Screen[Any], callback: Callable[[Any], None] | None = None) -> None:
        """Open a dialog the game opens by itself, not at a key of this player's. One that
        comes while the player types a chat line waits until the line is sent or put
        away: no key meant for the line answers it (a space closing a round's breakdown
        unread, a q leaving the room), and the game waits with it."""
        if self.typing():
            self._held.append((dialog, callback))
        else:
            self.app.push_screen(dialog, callback)

    def show_held(self) -> None:
        """Open the dialogs that waited for the player's chat line, in their order."""
        held, self._held = self._held, []
        for dialog, callback in held:
            self.app.push_screen(dialog, callback)

    def news_first(self) -> bool:
        """Show the first pause the game made (a round's breakdown) before it moves on;
        ``True`` while it shows one (the game moves on once it is closed)."""
        if not self._notices:
            return False
        title, lines = self._notices.pop(0)
        if self.sharing:
            self.viewer = None  # everyone reads it: the new hands stay hidden
        self.refresh_view()
        self.present(NoticeScreen(title, lines, classes="round-end"), self._resume)
        return True

    def bot_at_once(self, seat: int) -> bool:
        """Make the bot's move in ``seat`` now, with no delay shown, where the game wants
        it so (a move nobody sees being made); ``True`` if made."""
        return False

    def automatic(self, seat: int) -> Action | None:
        """A move the app makes for the person in ``seat`` (the game's bookkeeping)."""
        return self.session.forced(seat)

    def await_player(self, seat: int) -> None:
        """``seat``'s keys are live: the game's own."""
        raise NotImplementedError

    def sealed_step(self, view: Any) -> Hashable:
        """What tells the step of ``view``'s seat from its next one, for a sealed choice
        to be drawn until it is revealed: the game's own (a game whose choices are all
        public draws none)."""
        return None

    def seal(self, seat: int, marks: Any) -> None:
        """``seat`` made a sealed choice, drawn by ``marks`` (the game's own marks) until
        it is revealed: in a networked room the others may take their time."""
        self._sealed_choice = (self.sealed_step(self.session.view(seat)), marks)

    def marks_shown(self, view: Any, making: Marks) -> Marks:
        """The marks to draw on the viewer's hand: the viewer's sealed choice while it is
        not yet revealed (no keys live, the same step), else ``making``, those being
        made."""
        sealed = self._sealed_choice
        if self.awaiting is not None or sealed is None or sealed[0] is None:
            return making
        shown = sealed[1]
        if sealed[0] == self.sealed_step(view) and isinstance(shown, type(making)):
            return shown
        return making

    def _finish(self) -> None:
        """The game is over: the game's own end (its dialog answers :meth:`_after_end`)."""
        raise NotImplementedError

    def show_end(self, box: Callable[[], Screen[str]]) -> None:
        """Open the end's dialog that ``box`` builds (its choice goes to
        :meth:`_after_end`), and keep ``box``: a player who put the dialog away to see the
        table brings it back with ``e`` (:meth:`action_results`)."""
        self._end_box = box
        self.present(box(), self._after_end)
        self.refresh_bindings()

    def action_results(self) -> None:
        """The end's dialog again: the winner, the scores and what else it said."""
        if self._end_box is not None:
            self.app.push_screen(self._end_box(), self._after_end)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys every game shares: ``e`` once the game has ended; a game's own keys
        are its screen's to check, which asks here of the rest."""
        if action == "results":
            return self._end_box is not None
        return True

    def _after_end(self, choice: str | None) -> None:
        """What the end dialog chose: the replay, a new game, or leaving."""
        if choice == "replay":
            self.action_replay()
        elif choice == "new":
            self.action_new_game()
        elif choice == "quit":
            self._leave()

    def _tell(self, entries: list[Any]) -> None:
        """Add what happened to the log (and the table's other records): the game's own."""
        raise NotImplementedError

    def note_move(self, seat: int, action: Action, table: TableSession) -> None:
        """What the screen keeps of a person's move about to be made on ``table`` (the
        hand then, to mark the cards that come after it): the game's own; none here."""

    def note_decision(self, seat: int, action: Action) -> None:
        """:meth:`note_move` for a person's move about to be made, unless the app makes it
        for them (a step with one answer, :meth:`automatic`): their last move is their
        last decision."""
        if action != self.session.forced(seat):
            self.note_move(seat, action, self.session)

    def recall(self) -> None:
        """A game continued from disk (a local one, or a networked seat resumed from its
        journal): what the screen keeps of each person's moves (:meth:`note_move`), read
        again from the moves made (a new game has made none)."""
        if type(self).note_move is TableScreen.note_move:
            return  # this game's screen keeps nothing of them
        for seat, action, table in self.session.past_moves():
            self.note_move(seat, action, table)

    def perform(self, seat: int, action: Action, by_bot: bool = False) -> None:
        """``seat`` makes ``action``: the game's own."""
        raise NotImplementedError

    def _resume(self, _result: object = None) -> None:
        self.call_after_refresh(self.advance)

    @work(exclusive=True, group="bot")
    async def run_bot(self, seat: int) -> None:
        """A bot decides after the delay, off the event loop, then plays; when deciding
        takes more than a moment, the status line says the bot is thinking."""
        assert isinstance(self.session, LocalTable)
        try:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            moves = len(self.session.match.history)
            choice = asyncio.ensure_future(asyncio.to_thread(self._bot_choice, seat))
            done, _pending = await asyncio.wait({choice}, timeout=self.THINKING_AFTER)
            if not done and not self.closing():
                self.show_thinking(seat)
            action, problem = await choice
        finally:
            self.bot_busy = False
            self.thinking = None
        if self.closing():
            return  # the app closed while the bot thought: nothing to play or draw
        if problem is not None:
            self._stumbled(seat, problem)
        if len(self.session.match.history) == moves and self.session.to_act == seat:
            self.perform(seat, action, by_bot=True)
        else:  # the game moved on meanwhile: the status line says what is true now
            self.refresh_view()

    def bot_move_now(self, seat: int) -> Action:
        """The bot's move in ``seat``, chosen on the screen's own loop (a move made at once:
        :meth:`bot_at_once`); a bot that fails plays at random, and a notice says so."""
        action, problem = self._bot_choice(seat)
        if problem is not None:
            self._stumbled(seat, problem)
        return action

    def _bot_choice(self, seat: int) -> tuple[Action, str | None]:
        """The bot's choice and ``None``; should the bot fail (raise, or choose a move that
        is not legal), a legal move at random and what went wrong. Touches no widget: it
        runs in a worker thread as well as on the screen's loop."""
        session = self.session
        assert isinstance(session, LocalTable)
        legal = session.legal(seat)
        try:
            action = session.bot_choice(seat)
        except Exception as exc:  # a broken bot must not end the game for the people
            problem = f"{type(exc).__name__}: {exc}"
        else:
            if action in legal:
                return action, None
            problem = _("{action} is not legal now").format(action=action)
        return session.bot_rng.choice(legal), problem

    def _stumbled(self, seat: int, problem: str) -> None:
        """Say that the bot in ``seat`` failed and plays at random this once."""
        self.notify(
            _(self.STUMBLED_TEXT).format(name=self.session.names[seat], problem=problem),
            severity="warning",
        )

    # -- choosing --------------------------------------------------------------------------

    def _legal(self) -> tuple[Action, ...]:
        if self.awaiting is None:
            return ()
        return self.session.legal(self.awaiting)

    def _act(self, action: Action) -> None:
        seat = self.awaiting
        if seat is not None and action in self._legal():
            self.perform(seat, action)

    def refresh_view(self) -> None:
        """Draw everything from the viewer's view: the game's own."""
        raise NotImplementedError

    def _choose(
        self,
        title: str,
        choices: list[Choice[Any]],
        then: Callable[[Any], None],
        prompt: str = "",
        start: int = 0,
    ) -> None:
        def chosen(value: Any) -> None:
            if value is not None:
                then(value)
            elif self.awaiting is not None:
                self.refresh_view()

        self.app.push_screen(ChoiceScreen(title, choices, prompt, start=start), chosen)

    # -- leaving ---------------------------------------------------------------------------

    def action_quit_game(self) -> None:
        if self.session.over:
            self._leave()
            return
        self._ask_quit()

    def _ask_quit(self, otherwise: Callable[[], None] | None = None) -> None:
        """Ask before a game in progress is lost; ``otherwise`` runs when the answer is no."""

        def answered(yes: bool | None) -> None:
            if yes:
                if self.keeping is not None:  # quit on purpose: not offered again
                    kept.forget(self.keeping)
                self._leave()
            elif otherwise is not None:
                otherwise()

        self.app.push_screen(
            ConfirmScreen(_(self.QUIT_QUESTION), _(self.QUIT_DETAIL)),
            answered,
        )

    def _leave(self) -> None:
        self.workers.cancel_group(self, "bot")
        if self.leave == "exit":
            self.app.exit()
        else:
            self.dismiss(None)

    # -- keys every game has ---------------------------------------------------------------

    def action_log(self, step: int) -> None:
        from cakeparty.tui.widgets import LogView

        self.query_one(LogView).page(step)

    def action_help(self) -> None:
        from cakeparty.tui.screens.help import HelpScreen

        options = self.session.view(self.viewer).options
        self.app.push_screen(HelpScreen(self.session.game.name, options=options))

    def replay_text(self, replay: Any, names: Sequence[str]) -> list[Any]:
        """The lines of the face-up replay: the game's own."""
        raise NotImplementedError

    def action_replay(self) -> None:
        """After a local game: the whole game again, every facedown card face up."""
        session = self.session
        if not session.over or not isinstance(session, LocalTable):
            return
        from cakeparty.tui.table.results import ReplayScreen

        lines = self.replay_text(session.replay(), session.names)
        title = _("Replay, every card face up — seed {seed}").format(seed=session.setup.seed)
        self.app.push_screen(ReplayScreen(title, lines))

    def fresh_screen(self, setup: GameSetup) -> TableScreen:
        """This game's screen for a new game of ``setup``, with the same people, the same
        bot delay and the same way out."""
        player = self.session.names[0]
        return type(self)(
            setup,
            player=player,
            bot_delay=self.delay_setting,
            leave=self.leave,
            keep=self.keeping is not None,
        )

    def action_new_game(self) -> None:
        """After a local game: a new one with the same people, bots and options."""
        session = self.session
        if not session.over or not isinstance(session, LocalTable):
            return
        self._let_kept_go()  # the new game is kept in this one's place
        self.app.switch_screen(self.fresh_screen(replace(session.setup, seed=None)))

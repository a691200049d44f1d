"""Watching a room with no seat: the table, the players, the log live, then the replay.

The screen runs a :class:`~cakeparty.protocol.spectator.SpectatorRunner` in a worker and
shows what it holds through a :class:`~cakeparty.tui.table.watching.WatchTable`: the
table drawn by the game from the public view, who plays, whose move the room waits for
(in the game's own words), every public event in the log as it happens, and after the
audit its verdict; when the audit is fair, ``r`` opens
the whole game replayed face up. The spectator holds no seat and no key of the room, so
nothing hidden can show here; it sends nothing to the room's log.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from cakeparty.core.i18n import N_, _
from cakeparty.protocol.identity import Identity, fingerprint, load_or_create
from cakeparty.protocol.lobby import CLOSED
from cakeparty.protocol.spectator import SpectatorRunner, WatchEvent
from cakeparty.protocol.transport import BrokerAddress, TransportError
from cakeparty.tui.netroom import shown, trouble
from cakeparty.tui.screens.lobby_parts import game_title, room_closed_text
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.table.results import ReplayScreen
from cakeparty.tui.table.watching import WatchTable
from cakeparty.tui.widgets import LogView, StatusBar
from cakeparty.tui.widgets.footer import KeyFooter

#: The keys of the watch screen, for the help and the README.
WATCH_KEYS: tuple[tuple[str, str], ...] = (
    ("r", N_("after the audit, when it is fair: the game replayed face up")),
    ("PgUp / PgDn", N_("scroll the log")),
    ("? / F1", N_("the rules and cards of the game, and these keys")),
    ("q / esc", N_("stop watching")),
)


#: How much of a player's fingerprint the players' panel shows, the first that leaves
#: every row whole: all of it, its first two groups (40 bits: enough to tell two players
#: of one name apart), or none.
FINGERPRINT_FORMS = (19, 9, 0)


def _seat_row(name: str, tags: Sequence[str], player: bytes, shown: int = 19) -> Text:
    """One row: "Ana · bot · to move  ABCD-EFGH", the fingerprint last and dim, its first
    ``shown`` characters (none: no fingerprint)."""
    row = Text(no_wrap=True, overflow="ellipsis", end="")
    row.append(name, style="bold")
    for tag in tags:
        row.append(" · " + tag)
    if shown:
        row.append("  " + fingerprint(player)[:shown], style="dim")
    return row


def sentence(text: str) -> str:
    """``text`` (an event of the room, in the user's language) as a sentence."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "…")) else ".")


class WatchScreen(ClosesOnce, Screen[None]):
    """A room in progress seen from no seat: public information only."""

    CSS_PATH = "watch.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "replay", _("Replay face up"), id="watch.replay"),
        Binding("pageup", "log(-1)", _("Log up"), show=False, id="watch.log_up"),
        Binding("pagedown", "log(1)", _("Log down"), show=False, id="watch.log_down"),
        Binding("question_mark,f1", "help", _("Help"), key_display="?", id="watch.help"),
        Binding("q,escape", "leave", _("Stop watching"), id="watch.leave"),
    ]

    def __init__(
        self,
        room: str,
        broker: str,
        *,
        name: str = "Spectator",
        leave: str = "pop",
        runner: Any = None,
    ) -> None:
        """``room``: the room code; ``broker``: where it lives; ``leave``: "pop" goes back
        to the screen below, "exit" quits the app; ``runner``: the spectator to show (by
        default one made here with this player's key: it signs only the word that it
        watches, which a broker's ACL lets each player write for itself alone)."""
        super().__init__()
        self.room = room
        self.broker = broker
        self.leave = leave
        self.runner = runner
        self.name_shown = name
        self.watch: WatchTable | None = None
        self.failed: str | None = None
        self.told_verdict = False
        self.connected = True  # as the spectator last said (it says when it is lost)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="watch-title", markup=False)
        board = Static(id="watch-board", markup=False)
        board.border_title = Content(_("Table"))
        board.display = False  # until the game's table is known
        yield board
        with Horizontal(id="watch-bottom"):
            log = LogView(id="watch-log")
            log.border_title = Content(_("Log"))
            yield log
            seats = Static(id="watch-seats", markup=False)
            seats.border_title = Content(_("Players"))
            yield seats
        yield StatusBar(id="watch-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        if self.runner is None:
            try:
                self.runner = SpectatorRunner(
                    broker=BrokerAddress.parse(self.broker),
                    identity=self._identity(),
                    room=self.room,
                )
            except ValueError as exc:
                self.failed = _("Cannot watch {room}: {error}").format(room=self.room, error=exc)
                self.notify(self.failed, severity="error")
        self.log_view.add(
            _("Watching: public information only. Nothing you do here reaches the room."),
            "dim",
        )
        if self.runner is not None:
            self.follow_room()
        self.set_interval(1.0, self.redraw)
        self.redraw()

    def _identity(self) -> Identity:
        """This player's key; a fresh one if it cannot be read (watching needs none)."""
        try:
            return load_or_create(self.name_shown)
        except (OSError, ValueError):
            return Identity.generate(self.name_shown)

    @property
    def log_view(self) -> LogView:
        return self.query_one("#watch-log", LogView)

    # -- the room, in a worker -------------------------------------------------------------

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def follow_room(self) -> None:
        """Run the spectator and show every event it reports; a failure is a notice."""
        import asyncio

        runner = self.runner
        running = asyncio.create_task(runner.run())
        try:
            while not running.done() or not runner.events.empty():
                getter = asyncio.ensure_future(runner.events.get())
                done, _pending = await asyncio.wait(
                    {getter, running}, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    self.room_event(getter.result())
                else:
                    getter.cancel()
            running.result()
        except TransportError as exc:
            self.failed = trouble(exc)
            self.notify(self.failed, severity="error", timeout=10)
        except Exception as exc:  # the network must never take the app down
            self.failed = _("Stopped watching: {error}").format(error=exc)
            self.notify(self.failed, severity="error", timeout=10)
        finally:
            runner.stop()
            if not running.done():
                running.cancel()
        self.redraw()

    def room_event(self, event: WatchEvent) -> None:
        """What the spectator heard: the table, a step, the audit, the connection."""
        kind = event.kind
        if kind == "started" and self.watch is None:
            self.watch = WatchTable(self.runner)
            self._tell(self.watch.lines(self.watch.story))
        elif kind in ("moved", "finished") and self.watch is not None:
            self._tell(self.watch.lines(self.watch.catch_up()))
            for text in self.watch.new_incidents():
                self.log_view.add(text, "bold")
        elif kind == "absent":
            self.notify(
                _("No room {room} on {broker} yet: still looking.").format(
                    room=self.room, broker=shown(self.broker)
                ),
                severity="warning",
                timeout=8,
            )
        elif kind == "connection":
            self.connected = bool(event.data)
            text = sentence(event.said(_))
            self.log_view.add(text, "dim" if self.connected else "bold")
            if not self.connected:
                self.notify(text, severity="warning")
        elif kind == "error":
            self.notify(sentence(event.said(_)), severity="warning")
        elif kind == "refused":  # the host's table: there is nothing to watch
            self.failed = sentence(event.said(_))
            self.log_view.add(self.failed, "bold")
            self.notify(self.failed, severity="error", timeout=10)
        elif kind == "closed" and not (self.watch is not None and self.watch.over):
            self.failed = room_closed_text(event.data)
            self.log_view.add(self.failed, "bold")
            self.notify(self.failed, severity="warning", timeout=8)
        watch = self.watch
        if watch is not None and watch.audited and not self.told_verdict:
            self.told_verdict = True
            self.log_view.add(watch.verdict_text(), "bold")
            self.refresh_bindings()
        self.redraw()
        self.draw_board()

    def _tell(self, lines: list[tuple[str, str]]) -> None:
        for style, text in lines:
            self.log_view.add(text, style)

    # -- drawing ---------------------------------------------------------------------------

    def redraw(self) -> None:
        runner = self.runner
        advert = getattr(runner, "advert", None)
        code = getattr(runner, "code", self.room)
        game = game_title(advert.game) if advert is not None else _("a room")
        self.query_one("#watch-title", Static).update(
            _("Cake Party · watching {game} · room {room}").format(game=game, room=code)
        )
        self.query_one("#watch-seats", Static).update(self.seats_text())
        self.query_one(StatusBar).show(*self.status_text())

    def on_resize(self, event: events.Resize) -> None:
        # the board takes what the title, the status, the keys and five rows of the log
        # and the players leave; it is drawn to its width
        board = self.query_one("#watch-board", Static)
        board.styles.max_height = max(4, event.size.height - 8)
        self.call_after_refresh(self.draw_board)
        self.call_after_refresh(self.redraw)  # the players' rows, for the panel's new room

    def draw_board(self) -> None:
        """The game's table from the public view, as wide as the panel: what lies on it
        and each seat's public facts (hidden in a game that draws none). Drawn as the
        room moves and as the screen is resized, not on the clock's tick."""
        board = self.query_one("#watch-board", Static)
        watch = self.watch
        draw = watch.registered.watch_board if watch is not None else None
        board.display = draw is not None
        if watch is None or draw is None:
            return
        width = max(20, board.content_size.width or self.size.width - 4)
        board.update(draw(watch, watch.view(None), width))

    def seats_text(self) -> Text:
        """A row per player, never wrapped: the name and what the room knows of the seat
        (bot, offline, won, to move), then the fingerprint: whole, or its start, or none,
        the longest that leaves every row whole in the panel (a cut name or tag only where
        even none does not)."""
        watch = self.watch
        advert = getattr(self.runner, "advert", None)
        seats: list[tuple[str, list[str], bytes]] = []
        if watch is None:
            if advert is None:
                return Text(_("Looking for the room…"))
            seats = [
                (s.name, [_("bot")] if s.bot or s.own_bot else [], s.player) for s in advert.taken
            ]
            if not seats:
                return Text(_("Nobody has taken a seat yet."))
        else:
            waiting = set(watch.waiting_on())
            outcome = watch.outcome
            for seat, name in enumerate(watch.names):
                tags = []
                if watch.shown_as_bot(seat):
                    tags.append(_("bot"))
                if watch.away(seat):
                    tags.append(_("offline"))
                if outcome is not None and seat in outcome.winners:
                    tags.append(_("won"))
                elif seat in waiting and not watch.over and self.failed is None:
                    tags.append(_("to move"))  # the room waits on their move
                seats.append((name, tags, watch.table.players[seat]))
        room = self._seats_room()
        for form in FINGERPRINT_FORMS:
            rows = [_seat_row(name, tags, player, form) for name, tags, player in seats]
            if room is None or all(row.cell_len <= room for row in rows):
                break
        return Text("\n").join(rows)

    def _seats_room(self) -> int | None:
        """The columns a row of the players' panel has at most (``None``: not laid out)."""
        panel = self.query_one("#watch-seats", Static)
        if not self.size.width:
            return None
        most = panel.styles.max_width
        width = int(most.resolve(self.size, self.size)) if most is not None else self.size.width
        return width - panel.styles.gutter.width

    def status_text(self) -> tuple[str, str]:
        if self.failed is not None:
            return self.failed + " " + _("q to leave."), "end"
        watch = self.watch
        if not self.connected and not (watch is not None and watch.over and watch.audited):
            return _("Lost the connection to the broker; trying again…"), "wait"
        if watch is None:
            advert = getattr(self.runner, "advert", None)
            if advert is None:
                return _("Looking for room {room}…").format(room=self.room), "wait"
            if advert.state == CLOSED:
                return _("The host closed this room. q to leave."), "end"
            return _("The game has not started: waiting for the table."), "wait"
        if watch.over:
            if not watch.audited:
                return watch.waiting_text() or _("Auditing the game…"), "wait"
            keys = _("r replay face up · q leave") if watch.fair else _("q leave")
            return _("{audit} · {keys}").format(audit=watch.verdict_short(), keys=keys), "end"
        return watch.waiting_text() or _("Working…"), "wait"

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            watch = self.watch
            return watch is not None and watch.over and watch.fair
        return True

    def action_replay(self) -> None:
        watch = self.watch
        if watch is None or not watch.over or not watch.fair:
            return
        title = _("Replay, every card face up — audited fair, room {room}").format(
            room=watch.table.room
        )
        self.app.push_screen(ReplayScreen(title, watch.replay_lines()))

    def action_help(self) -> None:
        """The game's rules and cards, with the watch screen's keys."""
        advert = getattr(self.runner, "advert", None)
        if advert is None:
            return
        from cakeparty.tui.screens.help import HelpScreen

        options = self.watch.view(None).options if self.watch is not None else None
        self.app.push_screen(HelpScreen(advert.game, WATCH_KEYS, options=options))

    def action_log(self, step: int) -> None:
        self.log_view.page(step)

    def action_leave(self) -> None:
        if self.runner is not None:
            self.runner.stop()
        self.workers.cancel_group(self, "watch")
        if self.leave == "exit":
            self.app.exit()
        else:
            self.dismiss(None)

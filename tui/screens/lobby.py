"""The lobby of a networked room: the code to share, the seats, ready marks, bots, chat.

The lobby owns the room: a worker runs it (the embedded broker when hosting, the LAN
advert, the connection) for as long as the player stays, and every event of the room comes
here first. When the game starts the game's screen opens on top, and the lobby hands it the
room's events; leaving the game leaves the room.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from cakeparty.core import get_game
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.identity import Identity, fingerprint, load_or_create
from cakeparty.protocol.journal import RoomInUse
from cakeparty.protocol.lobby import CLOSED, OPEN
from cakeparty.protocol.network import RoomEvent
from cakeparty.protocol.transport import TransportError
from cakeparty.tui.messages import (
    ChatClosed,
    ChatSent,
    RoomClosed,
    RoomEventArrived,
    RoomNotice,
)
from cakeparty.tui.netroom import HostPlan, JoinPlan, NetRoom, in_use, stop_other, trouble
from cakeparty.tui.screens.dialogs import ConfirmScreen
from cakeparty.tui.screens.help import HelpScreen
from cakeparty.tui.screens.lobby_parts import (
    game_title,
    incident_text,
    lobby_status,
    options_lines,
    room_error_text,
    seat_line,
    seat_online,
)
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.settings import DEFAULT_THINK, offered_level
from cakeparty.tui.table.registration import find, registered
from cakeparty.tui.widgets import ChatInput, LogView, RoomCode, StatusBar
from cakeparty.tui.widgets.footer import KeyFooter

#: Seconds to wait for the room to close cleanly before leaving anyway.
LEAVE_TIMEOUT = 5.0
#: The options panel's columns inside its edges and padding (lobby.tcss: 30 wide), for
#: the first time it is drawn, before it is laid out.
OPTIONS_WIDTH = 26
#: seconds another window of this player has to close when this one takes the room over
TAKE_OVER_WAIT = 15.0

#: The keys of the lobby, for the help's Keys tab and the README.
LOBBY_KEYS: tuple[tuple[str, str], ...] = (
    ("r", N_("ready, or not ready any more")),
    ("↑ ↓", N_("move along the seats")),
    ("a", N_("host: add a bot (it runs in the host's app)")),
    ("l", N_("host: change the level of the bot under the cursor")),
    ("d / Del", N_("host: free the seat under the cursor")),
    ("m", N_("type a chat line; enter sends it, esc puts it away")),
    ("y", N_("copy the command that joins this room")),
    ("t", N_("in this room in another window already: play here, that window closes")),
    ("? / F1", N_("this help")),
    ("q / esc", N_("leave the room (the host is asked first)")),
)


def take_over_hint() -> str:
    """What a window refused a room this player is in elsewhere can do."""
    return _("t plays here instead (that window closes); q leaves.")


class LobbyScreen(ClosesOnce, Screen[None]):
    """Seats, ready marks, bots and chat before a networked game; the room behind it."""

    CSS_PATH = "lobby.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "ready", _("Ready"), id="lobby.ready"),
        Binding("a", "add_bot", _("Add bot"), id="lobby.add_bot"),
        Binding("l", "bot_level", _("Bot level"), id="lobby.bot_level"),
        Binding("d,delete", "remove_seat", _("Remove seat"), id="lobby.remove_seat"),
        Binding("m", "chat", _("Chat"), id="lobby.chat"),
        Binding("y", "copy", _("Copy"), id="lobby.copy"),
        Binding("t", "take_over", _("Play here"), id="lobby.take_over"),
        Binding("question_mark,f1", "help", _("Help"), id="lobby.help"),
        Binding("q,escape", "leave", _("Leave"), id="lobby.leave"),
    ]

    def __init__(
        self,
        plan: HostPlan | JoinPlan,
        *,
        player: str = "Player",
        bot_level: str = "normal",
        bot_delay: float = 0.6,
        identity: Identity | None = None,
        leave: str = "pop",
    ) -> None:
        """``leave``: "pop" goes back to the screen below; "exit" quits the app."""
        super().__init__()
        self.plan = plan
        self.player = player
        self.bot_level = bot_level
        self.bot_delay = bot_delay
        self.identity = identity
        self.leave = leave
        self.room: NetRoom | None = None
        self.worker: Worker[None] | None = None
        self.problem: str | None = None  # why the room cannot go on
        self.in_use: RoomInUse | None = None  # another window of this player has the room
        self.elsewhere = False  # the room is this player's in another window: not read here
        self.game_screen: Any = None  # the game's networked screen, once it started
        self.leaving = False
        self.gone = False
        self.was_connected = False
        self.ever_connected = False
        self.chat_lines: list[str] = []
        self.watching = 0  # spectators watching the room (as the room counts them)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title", markup=False)
        with Horizontal(id="lobby-top"):
            with Vertical(id="lobby-room") as room:
                room.border_title = Content(_("Room"))
                yield RoomCode(id="lobby-code")
                yield Static(id="lobby-broker", markup=False)
            options = Static(id="lobby-options", markup=False)
            options.border_title = Content(_("Options"))
            yield options
        # how the others join, across the whole width: the command a player copies on one
        # line, whole (the room panel beside the options has too few columns for it)
        yield Static(id="lobby-join", markup=False)
        seats = OptionList(id="lobby-seats", markup=False)
        seats.border_title = Content(_("Seats"))
        yield seats
        with Vertical(id="lobby-chat") as chat:
            chat.border_title = Content(_("Chat"))
            yield LogView(id="lobby-chat-log")
            yield ChatInput(id="lobby-chat-input")
        yield StatusBar(id="lobby-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(ChatInput).display = False
        self.query_one("#lobby-chat-log", LogView).add(
            _("m to say something to the room; enter sends."), "dim"
        )
        self.query_one("#lobby-seats", OptionList).focus()
        try:
            identity = self.identity or load_or_create(self.player)
            self.room = NetRoom(
                identity,
                self.plan,
                bot_delay=self.bot_delay,
                bot_think=self.bot_think,
            )
        except (ProtocolError, OSError, ValueError) as exc:
            self.problem = _("Cannot open the room: {error}").format(error=exc)
            self.notify(self.problem, severity="error")
        else:
            self.worker = self.run_room()
            self.set_interval(1.0, self.check_connection)
        self.refresh_lobby()

    @property
    def hosting(self) -> bool:
        return isinstance(self.plan, HostPlan)

    @property
    def me(self) -> bytes:
        return self.room.identity.player_id if self.room is not None else b""

    # -- the room, in a worker -------------------------------------------------------------

    @work(exclusive=True, group="room")
    async def run_room(self, wait: float = 0.0) -> None:
        """Run the room until the player leaves; every failure ends as a notice. ``wait``:
        seconds another window of this player has to let the room go."""
        room = self.room
        assert room is not None
        error: str | None = None

        def arrived(event: RoomEvent) -> None:
            self.post_message(RoomEventArrived(event))

        def notice(text: str, severity: str) -> None:
            self.post_message(RoomNotice(text, severity))

        try:
            await room.run(arrived, notice, wait=wait)
        except RoomInUse as exc:
            error = in_use(exc)
            self.elsewhere = True
            if exc.pid is not None and exc.pid != os.getpid():
                self.in_use = exc  # that window can be asked to close
            self.notify(error, severity="error", timeout=10)
        except TransportError as exc:
            error = trouble(exc)
            self.notify(error, severity="error", timeout=10)
        except OSError as exc:
            error = _("Cannot start the broker on port {port}: {error}.").format(
                port=room.port, error=exc
            )
            self.notify(error, severity="error", timeout=10)
        except Exception as exc:  # a network problem must never take the app down
            error = _("The room stopped: {error}.").format(error=exc)
            self.notify(error, severity="error", timeout=10)
        self.post_message(RoomClosed(error))

    def on_room_event_arrived(self, message: RoomEventArrived) -> None:
        event = message.event
        kind = event.kind
        if kind == "connection":
            self.ever_connected = self.was_connected = True
        elif kind == "started":
            self.start_game()
        elif kind == "chat":
            self.add_chat(event.text)
        elif kind == "incident" and self.game_screen is None:
            advert = self.room.advert if self.room is not None else None
            self.notify(incident_text(event.data, event.text, advert), severity="warning")
        elif kind == "refused":
            advert = self.room.advert if self.room is not None else None
            host = advert.host_name if advert is not None else _("the host")
            self.problem = _("Refused the table of {host} ({fingerprint}): {reason}.").format(
                host=host,
                fingerprint=fingerprint(advert.host) if advert is not None else "?",
                reason=_(getattr(event.data, "reason", event.text)),
            )
            self.notify(self.problem, severity="error", timeout=15)
        elif kind == "watchers":
            self.watching = event.data if isinstance(event.data, int) else 0
        elif kind == "absent":
            assert self.room is not None
            self.notify(self.absent_text(), severity="error", timeout=10)
        elif kind == "error":
            self.problem = room_error_text(event.text)
            self.notify(self.problem, severity="error")
        elif kind == "closed" and isinstance(self.plan, JoinPlan):
            from cakeparty.tui.recent import forget_room

            forget_room(self.plan.room)  # the menu offers no way back to a closed room
        if self.game_screen is not None:
            self.game_screen.room_event(event)
        elif kind != "moved":
            self.refresh_lobby()

    def on_room_notice(self, message: RoomNotice) -> None:
        severity: Any = message.severity
        self.notify(message.text, severity=severity, timeout=8)

    def on_room_closed(self, message: RoomClosed) -> None:
        if message.error is not None and not self.leaving:
            self.problem = message.error
            if self.game_screen is not None:
                self.game_screen.room_failed(message.error)
        if self.leaving:
            self._gone()
        else:
            self.refresh_lobby()

    def check_connection(self) -> None:
        """Say so when the connection to the broker drops, and when it is back."""
        room = self.room
        if room is None or not room.playing or self.leaving or self.closed:
            return  # (a room its host closed has no broker to miss, nor clocks to keep)
        connected = room.connected
        self.ever_connected = self.ever_connected or connected
        if connected and not self.was_connected:
            if room.runner.transport is not None and room.runner.transport.connections > 1:
                self.notify(_("Connected to the broker again."), timeout=4)
            self.was_connected = True
            self.refresh_lobby()
        elif not connected and self.was_connected and room.runner.transport is not None:
            self.was_connected = False
            self.notify(_("Lost the connection to the broker; trying again…"), severity="warning")
            self.refresh_lobby()
        if self.game_screen is not None:
            self.game_screen.tick(connected)

    # -- drawing ---------------------------------------------------------------------------

    def on_resize(self) -> None:
        self.refresh_lobby()  # the join command beside its label, or under it

    def refresh_lobby(self) -> None:
        room = self.room
        advert = room.advert if room is not None else None
        code = room.code if room is not None else getattr(self.plan, "room", "")
        # a guest knows the game from the host's advert only: none is named before it
        game = advert.game if advert is not None else getattr(self.plan, "game", "")
        role = _("you host") if self.hosting else _("guest")
        if advert is not None and not self.hosting:
            role = _("hosted by {name}").format(name=advert.host_name)
        if code and game:
            title = _("Cake Party · {game} · room {room} · {role}").format(
                game=game_title(game), room=code, role=role
            )
        elif code:
            title = _("Cake Party · room {room} · {role}").format(room=code, role=role)
        else:  # the room did not open (its problem says why): no code to name
            title = _("Cake Party · {game} · {role}").format(
                game=game_title(game or self._game()), role=role
            )
        self.query_one("#lobby-title", Static).update(title)
        self.query_one(RoomCode).show(code)
        broker = self.query_one("#lobby-broker", Static)
        broker.update(self._broker_text())
        # laid out again once the screen has settled: the room panel, kept as tall as the
        # options by its least height, left this text at the lines it had before now and
        # then (a problem told here, longer than the broker's line it replaces, was cut)
        self.call_after_refresh(broker.refresh, layout=True)
        join = self.query_one("#lobby-join", Static)
        joining = self._join_text(self.app.size.width - 2)  # the width less its padding
        join.update(joining)
        join.display = bool(joining)
        plan = self.plan if isinstance(self.plan, HostPlan) else None
        reached = self.problem is None
        options = self.query_one("#lobby-options", Static)
        width = options.content_size.width or OPTIONS_WIDTH
        shown = options_lines(advert, plan, reached=reached, elsewhere=self.elsewhere, width=width)
        options.update(shown)
        self._show_seats()
        # the options panel is as tall as the room panel: the room panel as tall as the
        # options need (with its border), where its own lines are fewer, and the screen
        # has the rows
        lines = len(shown.wrap(self.app.console, width)) + 2
        spare = self._rows_to_spare(joining.count("\n") + 1 if joining else 0)
        self.query_one("#lobby-room").styles.min_height = min(lines, spare)
        self.query_one(StatusBar).show(*self._status())
        self.refresh_bindings()

    def _broker_text(self) -> str:
        if self.problem is not None:  # why the room cannot go on, in full (the status
            # line may cut it)
            return self.problem + ("\n" + take_over_hint() if self.in_use else "")
        room = self.room
        if room is None:
            return ""
        broker = _("Broker {url}").format(url=room.shared)
        if room.embedded:
            broker += " · " + _("runs here")
        text = broker
        if self.watching:
            text += "\n" + self.watching_text()
        return text

    def _rows_to_spare(self, joining: int) -> int:
        """The rows the room and options panels may take: the screen's, less the title's,
        the join command's (``joining`` lines), the seats' (one a seat, with their border,
        at most 8), the chat's fewest (3), the status line's and the footer's."""
        seats = min(self.query_one("#lobby-seats", OptionList).option_count + 2, 8)
        return max(self.app.size.height - 1 - joining - seats - 3 - 1 - 1, 0)

    def _join_text(self, width: int) -> str:
        """How the others join: the command whole on one line, after its label where
        both fit in ``width`` columns, else under it (none where the room cannot go on)."""
        if self.problem is not None or self.room is None:
            return ""
        label, command = _("Others join with:"), self.room.join_command()
        if cell_len(f"{label} {command}") <= width:
            return f"{label} {command}"
        return f"{label}\n{command}"

    def watching_text(self) -> str:
        """How many spectators watch the room."""
        return ngettext("{n} watching", "{n} watching", self.watching).format(n=self.watching)

    def _show_seats(self) -> None:
        seats = self.query_one("#lobby-seats", OptionList)
        room = self.room
        advert = room.advert if room is not None else None
        highlighted = seats.highlighted
        seats.clear_options()
        if advert is None or room is None:
            seats.border_subtitle = ""
            return
        online = room.runner.online
        options = []
        for index in range(advert.seats):
            seat = advert.taken[index] if index < len(advert.taken) else None
            line = seat_line(
                index,
                seat,
                me=self.me,
                host=advert.host,
                online=seat is None or seat_online(seat, online),
                bot_level=room.bot_levels.get(seat.player) if seat is not None else None,
                host_name=advert.host_name,
            )
            options.append(Option(line, id=f"seat-{index}"))
        seats.add_options(options)
        if options:
            seats.highlighted = min(highlighted or 0, len(options) - 1)
        seats.border_title = Content(
            _("Seats — {taken} of {seats} taken").format(
                taken=len(advert.taken), seats=advert.seats
            )
        )
        bots = any(s.bot for s in advert.taken)
        seats.border_subtitle = Content(
            _("bots run in {host}'s app, with keys of their own").format(host=advert.host_name)
            if bots
            else ""
        )

    def absent_text(self) -> str:
        room = self.room
        assert room is not None
        text = _("No room {room} on this broker ({broker}): check the code and the address.")
        return text.format(room=room.code, broker=room.address)

    @property
    def closed(self) -> bool:
        """Whether this room's host closed it (its broker may be gone with it)."""
        room = self.room
        if room is None:
            return False
        advert = room.advert
        return room.runner.closed_by_host or (advert is not None and advert.state == CLOSED)

    def _status(self) -> tuple[str, str]:
        if self.leaving:
            return _("Leaving the room…"), "wait"
        if self.problem is not None and self.in_use is not None:
            return self.problem + " " + take_over_hint(), "end"
        if self.problem is not None:
            return self.problem + " " + _("q to leave."), "end"
        room = self.room
        assert room is not None
        if not room.connected and not self.closed:
            if not self.ever_connected:
                return _("Connecting to {broker}…").format(broker=room.address), "wait"
            if room.playing:
                return _("Lost the connection to the broker; trying again…"), "wait"
        if room.advert is None and room.runner.absent:
            return self.absent_text() + " " + _("Still listening; q to leave."), "wait"
        return lobby_status(
            advert=room.advert,
            me=self.me,
            hosting=self.hosting,
            connected=room.connected,
            ready=room.runner.ready,
            room=room.room,
            broker=str(room.address),
            online=room.runner.online,
        )

    def add_chat(self, line: str) -> None:
        self.chat_lines.append(line)
        self.query_one("#lobby-chat-log", LogView).add(line)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        room = self.room
        advert = room.advert if room is not None else None
        is_open = advert is not None and advert.state == OPEN and self.problem is None
        if action == "add_bot":
            return self.hosting and is_open and advert is not None and advert.free > 0
        if action == "bot_level":
            return self.hosting and is_open and room is not None and bool(room.bot_levels)
        if action == "remove_seat":
            return (
                self.hosting
                and is_open
                and advert is not None
                and any(s.player != self.me for s in advert.taken)
            )
        if action == "copy":
            return room is not None
        if action == "take_over":
            return self.in_use is not None and not self.leaving
        if action in ("ready", "chat"):
            seated = advert is not None and any(s.player == self.me for s in advert.taken)
            return is_open and seated
        return True

    def action_take_over(self) -> None:
        """Play here: the other window of this player in the room is asked to close (as
        ``kill`` would; its game waits in the journal both share), and the room opens
        here once that window let it go."""
        taken = self.in_use
        if taken is None or taken.pid is None or self.room is None:
            return
        if not stop_other(taken.pid):
            self.notify(
                _("Could not close the other window (process {pid}): close it there.").format(
                    pid=taken.pid
                ),
                severity="error",
            )
            return
        self.in_use = None
        self.problem = None
        self.elsewhere = False
        self.notify(_("Closing the other window…"), timeout=4)
        self.worker = self.run_room(wait=TAKE_OVER_WAIT)
        self.refresh_lobby()

    def action_ready(self) -> None:
        if self.room is None:
            return
        runner = self.room.runner
        runner.set_ready(not runner.ready)
        self.refresh_lobby()

    @property
    def bot_think(self) -> float:
        """Seconds a strong bot run here thinks per decision: the settings'."""
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "bot_think", DEFAULT_THINK))

    def level_here(self, room: NetRoom) -> str:
        """The bot level to seat: the chosen one if the room's game offers it, else the
        nearest it does."""
        from cakeparty.core.game import bot_levels, get_game

        setup = room.runner.setup
        assert setup is not None
        return offered_level(bot_levels(get_game(setup.game)), self.bot_level)

    def action_add_bot(self) -> None:
        room = self.room
        if room is None or not self.hosting:
            return
        if room.add_bot(self.level_here(room)) is None:
            self.notify(_("The room is full."), severity="warning")
        self.refresh_lobby()

    def action_bot_level(self) -> None:
        """Host: the bot under the cursor plays at the next level the game offers."""
        from cakeparty.core.game import bot_levels, get_game

        room = self.room
        advert = room.advert if room is not None else None
        if room is None or advert is None or not self.hosting or room.runner.setup is None:
            return
        index = self.query_one("#lobby-seats", OptionList).highlighted
        seat = advert.taken[index] if index is not None and index < len(advert.taken) else None
        if seat is None or seat.player not in room.bot_levels:
            self.notify(_("Move to a bot's seat first (↑/↓)."), severity="warning")
            return
        levels = bot_levels(get_game(room.runner.setup.game))
        now = room.bot_levels[seat.player]
        later = levels[(levels.index(now) + 1) % len(levels)] if now in levels else levels[0]
        room.set_bot_level(seat.player, later)
        self.refresh_lobby()

    def action_remove_seat(self) -> None:
        room = self.room
        advert = room.advert if room is not None else None
        if room is None or advert is None or not self.hosting:
            return
        index = self.query_one("#lobby-seats", OptionList).highlighted
        if index is None or index >= len(advert.taken):
            self.notify(_("Move to a taken seat first (↑/↓)."), severity="warning")
            return
        seat = advert.taken[index]
        if seat.player == self.me:
            self.notify(_("That is your own seat: q leaves the room."), severity="warning")
            return
        room.remove_seat(seat.player)
        if not seat.bot:
            self.notify(
                _("{name}'s seat is free again; they come back if they are still here.").format(
                    name=seat.name
                ),
                timeout=5,
            )
        self.refresh_lobby()

    def action_chat(self) -> None:
        chat = self.query_one(ChatInput)
        chat.display = True
        chat.focus()

    def on_chat_sent(self, message: ChatSent) -> None:
        message.stop()
        if self.room is not None and not self.room.runner.say(message.text):
            self.query_one(ChatInput).held_back(message.text)
            return
        self._close_chat()

    def on_chat_closed(self, message: ChatClosed) -> None:
        message.stop()
        self._close_chat()

    def _close_chat(self) -> None:
        self.query_one(ChatInput).display = False
        self.call_after_refresh(self.query_one("#lobby-seats", OptionList).focus)

    def action_copy(self) -> None:
        if self.room is not None:
            self.app.copy_to_clipboard(self.room.join_command())
            self.notify(_("Copied: {text}").format(text=self.room.join_command()), timeout=4)

    def _game(self) -> str:
        """The game of this room: the host's advert says it; a host knows it already."""
        room = self.room
        advert = room.advert if room is not None else None
        if advert is not None:
            return advert.game
        return getattr(self.plan, "game", "") or registered()[0].name

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self._game(), LOBBY_KEYS, options=self._rules()))

    def _rules(self) -> Any:
        """The core options of the table the host's advert offers, for the help's cards
        (None: no advert yet, or options this app cannot read: the standard game's)."""
        room = self.room
        advert = room.advert if room is not None else None
        table = find(advert.game) if advert is not None else None
        if advert is None or table is None:
            return None
        try:
            state = get_game(advert.game).new_state(
                advert.seats, table.rule_options(advert.options)
            )
        except (ValueError, TypeError, KeyError):  # an engine's errors are ValueErrors
            return None
        return getattr(state, "options", None)

    def action_leave(self) -> None:
        room = self.room
        advert = room.advert if room is not None else None
        others = advert is not None and any(s.player != self.me and not s.bot for s in advert.taken)
        if self.hosting and others and self.problem is None:

            def answered(yes: bool | None) -> None:
                if yes:
                    self.leave_room()

            self.app.push_screen(
                ConfirmScreen(
                    _("Close this room?"),
                    _("The others are told the room is closed, and the broker run here stops.")
                    if room is not None and room.embedded
                    else _("The others are told the room is closed."),
                ),
                answered,
            )
            return
        self.leave_room()

    # -- the game --------------------------------------------------------------------------

    def start_game(self) -> None:
        room = self.room
        if room is None or self.game_screen is not None:
            return
        runner = room.runner
        if runner.session is None or runner.my_seat is None:
            return
        advert = runner.advert
        bots = {s.player: s.bot for s in advert.taken} if advert is not None else {}
        host = advert.host if advert is not None else None
        table = find(runner.session.table.game)
        if table is None or table.net_screen is None:  # a game with no screen here
            self.problem = _("This app cannot show {game} yet.").format(
                game=runner.session.table.game
            )
            self.notify(self.problem, severity="error")
            self.refresh_lobby()
            return
        self.game_screen = table.net_screen(runner, bots, host, room)
        chat = self.query_one(ChatInput)
        if chat.display:  # a line half typed goes on at the table: no key of it plays there
            self.game_screen.draft = chat.value
            chat.value = ""
            chat.display = False
        self.call_after_refresh(self.app.push_screen, self.game_screen, self._game_left)

    def _game_left(self, _result: object = None) -> None:
        self.game_screen = None
        self.leave_room()

    # -- leaving ---------------------------------------------------------------------------

    def leave_room(self) -> None:
        """Leave: the room closes cleanly (saying "offline", clearing the advert), then
        the screen goes."""
        if self.leaving:
            return
        self.leaving = True
        room = self.room
        if room is None or self.worker is None or self.worker.is_finished:
            self._gone()
            return
        room.leave()
        self.refresh_lobby()
        self.set_timer(LEAVE_TIMEOUT, self._gone)

    def _gone(self) -> None:
        if self.gone:
            return
        self.gone = True
        if self.worker is not None and not self.worker.is_finished:
            self.worker.cancel()
        if self.leave == "exit":
            self.app.exit()
        elif self.is_attached and self.app.screen is self:
            self.dismiss(None)

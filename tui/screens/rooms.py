"""Before a networked game: the host's choices, and finding a room to join.

:class:`HostSetupScreen` is a small form (players, the game's options, move timeout, broker) that
returns a :class:`~cakeparty.tui.netroom.HostPlan`. :class:`JoinScreen` lists the rooms on
the LAN and on the brokers given, and returns the :class:`~cakeparty.tui.netroom.JoinPlan`
picked with the keyboard, or typed: a room code, or a broker address to look at.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from cakeparty.core.i18n import _, ngettext
from cakeparty.protocol.identity import load as load_identity
from cakeparty.protocol.journal import RoomLock, finished, journal_path
from cakeparty.protocol.lobby import OPEN, PLAYING, normal_code, parse_code
from cakeparty.protocol.transport import BrokerAddress, masked
from cakeparty.tui.messages import OptionCycled
from cakeparty.tui.netroom import (
    TIMEOUTS,
    HostPlan,
    JoinPlan,
    JoinSearch,
    Looked,
    RoomFound,
    WatchPlan,
    find_rooms,
    join_command,
    looks_like_broker,
    shown,
)
from cakeparty.tui.recent import forget_room, joined_brokers
from cakeparty.tui.screens.lobby_parts import game_title
from cakeparty.tui.screens.once import ClosesOnce
from cakeparty.tui.table.form import chosen_options, chosen_players, fit_options, game_cyclers
from cakeparty.tui.table.registration import lookup
from cakeparty.tui.widgets import Cycler
from cakeparty.tui.widgets.fitted import cut
from cakeparty.tui.widgets.footer import KeyFooter
from cakeparty.tui.widgets.typing import after_typing


class HostSetupScreen(ClosesOnce, ModalScreen[HostPlan | None]):
    """The room's options, chosen before it opens; enter opens it, esc backs out."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["dialogs.tcss", "rooms.tcss"]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", _("Open the room"), id="host.start", priority=True),
        Binding("escape", "cancel", _("Back"), id="host.cancel"),
        Binding("up", "app.focus_previous", show=False, id="host.up"),
        Binding("down", "app.focus_next", show=False, id="host.down"),
    ]

    def __init__(self, plan: HostPlan | None = None, *, game: str = "") -> None:
        super().__init__(classes="dialog")
        self.plan = plan or HostPlan(game=game)
        self.table = lookup(self.plan.game)

    def compose(self) -> ComposeResult:
        plan = self.plan
        with Vertical(id="host-box", classes="dialog-box") as box:
            box.border_title = Content(_("Host a game of {game}").format(game=self.table.title))
            yield from game_cyclers(self.table, plan.players, dict(plan.options), networked=True)
            yield Cycler(
                "timeout",
                _("Move timeout"),
                [(_("{s} s").format(s=s), s) for s in TIMEOUTS],
                plan.timeout,
            )
            yield Cycler(
                "on_timeout",
                _("Time up"),
                [(_("ask the others"), "ask"), (_("end an offline player's game"), "end")],
                plan.on_timeout,
            )
            with Horizontal(id="host-broker-row"):
                yield Static(_("Broker"), id="host-broker-label", markup=False)
                yield BrokerField(
                    plan.broker or "",
                    placeholder=_("empty: run one in this app"),
                    id="host-broker",
                )
            yield Static(
                _(
                    "Bots you add run in this app with keys of their own. "
                    "Every shuffle carries a proof that no room setting can weaken."
                ),
                id="host-note",
                markup=False,
            )
            yield Static(
                _("↑/↓ line · ←/→ change · enter open the room · esc back"),
                id="host-keys",
                markup=False,
            )
        yield KeyFooter()

    def on_mount(self) -> None:
        fit_options(self.table, self, self.plan.players)
        self.query(Cycler).first().focus()

    def on_option_cycled(self, event: OptionCycled) -> None:
        """The lines of the options for as many players as chosen."""
        if event.name == "players":
            fit_options(self.table, self, event.value)

    def _value(self, name: str) -> object:
        for cycler in self.query(Cycler):
            if cycler.name == name:
                return cycler.value
        raise KeyError(name)

    @property
    def chosen(self) -> HostPlan:
        timeout, on_timeout = self._value("timeout"), self._value("on_timeout")
        assert isinstance(timeout, int) and isinstance(on_timeout, str)
        broker = self.query_one("#host-broker", Input).value.strip() or None
        return HostPlan(
            game=self.plan.game,
            players=chosen_players(self, self.plan.players),
            options=chosen_options(self.table, self),
            timeout=timeout,
            on_timeout=on_timeout,
            broker=broker,
            port=self.plan.port,
            lan=self.plan.lan,
        )

    def action_start(self) -> None:
        after_typing(self, self._start)

    def _start(self) -> None:
        plan = self.chosen
        if plan.broker is not None:
            try:
                BrokerAddress.parse(plan.broker)
            except ValueError as exc:
                self.notify(str(exc), severity="error")
                return
        self.dismiss(plan)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RoomList(OptionList):
    """The rooms found. Enter joins the room under the cursor (watches it, in a search
    made to watch), ``w`` watches it; any other character typed here goes to the code
    field, so a code typed while the list has the keyboard is never lost (nor read as
    keys)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # the list's own enter, named in the footer for what it does here
        Binding("enter", "pick('join')", _("Join"), key_display="⏎", id="join.join"),
        Binding("enter", "pick('watch')", _("Watch"), key_display="⏎", id="join.pick_watch"),
        Binding("w", "screen.watch", _("Watch"), id="join.watch"),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters:
            watching = bool(getattr(self.screen, "search", None) and self.screen.search.watch)
            return parameters[0] == ("watch" if watching else "join")
        return super().check_action(action, parameters)

    def action_pick(self, _kind: str) -> None:
        self.action_select()

    def on_key(self, event: events.Key) -> None:
        if not event.is_printable or event.character is None or event.key == "w":
            return
        event.stop()
        event.prevent_default()
        field = self.screen.query_one("#join-input", Input)
        field.focus()
        field.cursor_position = len(field.value)
        field.insert_text_at_cursor(event.character)


class BrokerField(Input):
    """A field a broker address may be typed in: the password of a login in it shows as
    dots, as it is typed (the field's value keeps it)."""

    @property
    def _value(self) -> Text:
        hidden = masked(self.value, typing=True)
        if hidden == self.value:
            return super()._value
        return Text(hidden, no_wrap=True, overflow="ignore", end="")


class CodeInput(BrokerField):
    """The code field: ↑/↓ go to the list of rooms (said in the footer; the field itself
    has nothing to scroll)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "screen.rooms", _("Rooms"), key_display="↑↓", id="join.rooms"),
        Binding("down", "screen.rooms", _("Rooms"), show=False, id="join.rooms_down"),
    ]


class JoinScreen(ClosesOnce, Screen[JoinPlan | WatchPlan | None]):
    """Rooms on the LAN and on the brokers given; pick one, or type a code or a broker.

    The code field keeps the keyboard, so typing always types; ↑/↓ go to the list, where
    enter joins the room under the cursor and ``w`` watches it instead, without a seat (and
    a search made to watch, ``cakeparty watch``, watches whatever is picked). Enter in an
    empty field joins no room the player did not pick: it goes to the list (or back to a
    game that keeps this player's seat, which its line offers). The status names the keys
    of where the keyboard is.

    The list looks again by itself every few seconds (:attr:`JoinSearch.every`): a room
    opened meanwhile turns up, one that closed goes, and the cursor stays on the room it
    was on. Those looks are quiet: a broker out of reach, or a code typed and not found,
    is said once, on the look the player asked for; a room typed and found later is
    joined as soon as it is."""

    CSS_PATH = "rooms.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r,f5", "search", _("Look again"), id="join.search"),
        Binding("ctrl+f", "forget", _("Forget game"), id="join.forget"),
        Binding("escape", "cancel", _("Back"), id="join.cancel"),
    ]

    def __init__(self, search: JoinSearch | None = None) -> None:
        super().__init__()
        self.search = search or JoinSearch()
        self.brokers: list[str] = list(self.search.brokers)
        self.rooms: list[RoomFound] = []
        self.searching = False
        self.wanted = self.search.room  # join this room as soon as it is found
        self.me: bytes | None = None  # this player's id: a room holding its seat comes first
        self._next: Timer | None = None  # the next look by itself
        self._asked = False  # the look under way was asked for by the player
        self.recent: tuple[str, ...] = ()  # the brokers of the rooms joined last, asked quietly
        self.unreached: dict[str, str] = {}  # the brokers the last look could not ask: why
        self.crowded: tuple[str, ...] = ()  # the brokers that listed more rooms than it kept
        self._found_said = False  # the status says how many rooms were found, and the keys

    def compose(self) -> ComposeResult:
        yield Static(_("Cake Party · join a game"), id="join-title", markup=False)
        rooms = RoomList(id="join-rooms", markup=False)
        rooms.border_title = Content(_("Rooms found"))
        yield rooms
        with Horizontal(id="join-entry"):
            yield Static(_("Room code or broker"), id="join-label", markup=False)
            yield CodeInput(
                self.search.room or "",
                placeholder=_("e.g. K7QX2M-4ETJQ-2RSTU, or 192.168.1.20:1883"),
                id="join-input",
                select_on_focus=False,  # a key typed in the list goes on after what is there
            )
        yield Static(id="join-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.me = _my_player_id()
        self.recent = joined_brokers()
        self.query_one("#join-input", Input).focus()
        self.action_search()

    # -- looking -----------------------------------------------------------------------------

    def action_search(self) -> None:
        """Look now, as the player asked: say so, and what went wrong."""
        self._stop_next()
        self.searching = self._asked = True
        self._say(self._looking())
        self.look()

    def _look_again(self) -> None:
        """The look by itself, every :attr:`JoinSearch.every` seconds: quiet."""
        self._next = None
        if not self.searching:
            self.searching, self._asked = True, False
            self.look(asked=False)

    def _stop_next(self) -> None:
        if self._next is not None:
            self._next.stop()
            self._next = None

    def _looking(self) -> str:
        places = self._places()
        if not places:
            return _("Type a broker address (host:port) to look for rooms there.")
        return _("Looking {places}…").format(places=_(" and ").join(places))

    def _recent_only(self) -> list[str]:
        """The brokers joined last that are not among those given or typed (to say where
        the list looks)."""
        given = {shown(text) for text in self.brokers}
        recent = (shown(b) for b in self.recent)
        return [b for b in recent if b not in given]

    @work(exclusive=True, group="search")
    async def look(self, asked: bool = True) -> None:
        """Ask the LAN and every broker known for their rooms (``asked``: by the player,
        who is told what went wrong; else quietly), then look again a while later."""

        troubles: list[str] = []  # what went wrong, told again if no room is found

        def notice(text: str, severity: str) -> None:
            troubles.append(text)
            if asked:
                self.notify(text, severity="warning" if severity != "error" else "error")

        try:
            # find_rooms asks a broker both given and joined last once, out loud
            looked = await find_rooms(
                self.brokers,
                lan=self.search.lan,
                notice=notice,
                quiet=self.recent,
                wanted=self.wanted,
            )
        except Exception as exc:  # never a crash: say it and let the player type an address
            notice(_("Could not look for rooms: {error}").format(error=exc), "error")
            looked = Looked()
        self.searching = False
        if self.is_attached and self.query("#join-rooms"):  # not left meanwhile
            self.show_rooms(
                looked.rooms,
                asked=asked,
                troubles=troubles,
                unreached=looked.unreached,
                crowded=looked.crowded,
            )
            every = self.search.every
            if every is not None:
                self._stop_next()
                self._next = self.set_timer(every, self._look_again)

    def show_rooms(
        self,
        rooms: list[RoomFound],
        *,
        asked: bool = True,
        troubles: Sequence[str] = (),
        unreached: Mapping[str, str] | None = None,
        crowded: Sequence[str] = (),
    ) -> None:
        """List ``rooms``, the cursor kept on the room it was on; join the room typed if it
        is among them (``asked``: else say that it is not). ``troubles``: what went wrong
        while looking, the latest said again where no room was found; ``unreached``: the
        brokers (as shown) that could not be asked, and why; ``crowded``: those (as shown)
        that advertise more rooms than the list holds."""
        reached_before = self.unreached
        self.unreached = dict(unreached or {})
        self.crowded = tuple(crowded)
        # a game under way that keeps a seat for this player first: that is where it goes back
        rooms = sorted(rooms, key=lambda r: not seated(r, self.me))
        options = self.query_one("#join-rooms", OptionList)
        index = options.highlighted
        was = self.rooms[index] if index is not None and 0 <= index < len(self.rooms) else None
        lines = [room_line(r, self.me, self._line_width()) for r in rooms]
        if asked or lines != [o.prompt for o in options.options]:
            options.clear_options()
            options.add_options([Option(line, id=f"room-{i}") for i, line in enumerate(lines)])
            if rooms:
                keys = [(r.code, r.broker) for r in rooms]
                options.highlighted = (
                    keys.index((was.code, was.broker))
                    if was is not None and (was.code, was.broker) in keys
                    else 0
                )
        self.rooms = rooms
        wanted = self.wanted
        if wanted is not None:
            if self._join_found(wanted, quiet=not asked):
                return
            if asked:
                self._not_found(wanted)
            elif self.unreached != reached_before:  # a broker gone, or back: said, quietly
                self._not_found(wanted, loud=False)
            return
        if rooms:
            self._say_found()
        elif troubles:  # the notice goes; why the list is empty stays
            self._say(_("No rooms found. {trouble}").format(trouble=troubles[-1]))
        else:
            self._say(_("No rooms found. Type a room code, or a broker address (host:port)."))

    def _say(self, text: str) -> None:
        self._found_said = False
        self.query_one("#join-status", Static).update(text)

    def _say_found(self) -> None:
        """How many rooms were found, and the keys that pick one from where the keyboard
        is: ↓ from the code field (where any letter is typed), enter and ``w`` in the list."""
        n = len(self.rooms)
        if self.focused is self.query_one("#join-rooms"):
            if self.search.watch:
                text = ngettext(
                    "{n} room found: enter to watch; or type a code.",
                    "{n} rooms found: enter to watch; or type a code.",
                    n,
                )
            else:
                text = ngettext(
                    "{n} room found: enter to join, w to watch; or type a code.",
                    "{n} rooms found: enter to join, w to watch; or type a code.",
                    n,
                )
        else:
            text = ngettext(
                "{n} room found: ↓ to pick it; or type a code.",
                "{n} rooms found: ↓ to pick one; or type a code.",
                n,
            )
        said = text.format(n=n)
        if self.crowded:  # a room left out is found by its code all the same
            places = _(" and ").join(_("on {broker}").format(broker=b) for b in self.crowded)
            crowded = _(
                "More rooms are advertised {places} than a list holds: type a room's code "
                "to find it."
            )
            said = crowded.format(places=places) + " " + said
        self._say(said)
        self._found_said = True

    def on_descendant_focus(self, _event: events.DescendantFocus) -> None:
        if self._found_said and self.rooms:  # the keys it names are those of the focus
            self._say_found()

    def _line_width(self) -> int | None:
        """The columns a room's line has in the list (``None`` before it is laid out)."""
        return self.query_one("#join-rooms", OptionList).scrollable_content_region.width or None

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._fit_rooms)

    def _fit_rooms(self) -> None:
        """Each room's line drawn again for the list's width (the terminal's changed)."""
        if not self.is_attached or not self.query("#join-rooms"):  # left meanwhile
            return
        options = self.query_one("#join-rooms", OptionList)
        if options.option_count != len(self.rooms):
            return
        width = self._line_width()
        for index, room in enumerate(self.rooms):
            line = room_line(room, self.me, width)
            if line != options.get_option_at_index(index).prompt:
                options.replace_option_prompt_at_index(index, line)

    # -- choosing ----------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        room = self.rooms[event.option_index]
        self._go(room.code, room.broker)  # the host seen here, and no other

    def _go(self, code: str, broker: str, *, watch: bool = False) -> None:
        if watch or self.search.watch:
            self.dismiss(WatchPlan(code, broker))
        else:
            self.dismiss(JoinPlan(code, broker))

    def action_rooms(self) -> None:
        """From the code field to the list (its cursor stays where it was)."""
        options = self.query_one("#join-rooms", OptionList)
        if self.rooms:
            options.focus()
        else:
            self.notify(_("No rooms in the list yet."), severity="warning")

    def action_watch(self) -> None:
        """Watch the room highlighted in the list, without a seat."""
        options = self.query_one("#join-rooms", OptionList)
        index = options.highlighted
        if index is None or not 0 <= index < len(self.rooms):
            self.notify(_("Pick a room in the list to watch it."), severity="warning")
            return
        room = self.rooms[index]
        self._go(room.code, room.broker, watch=True)

    def _join_found(self, code: str, *, quiet: bool = False) -> bool:
        """Join the room ``code`` names if it was found, pinned to its host; ``False`` if
        it was not found, or if a bare id is claimed by several hosts (then say so, unless
        ``quiet``)."""
        room, tag = parse_code(code)
        matches = [r for r in self.rooms if r.answers(room, tag)]
        hosts = {r.advert.host for r in matches if r.advert is not None}
        if tag is None and len(hosts) > 1:
            if quiet:
                return False
            self.notify(
                _(
                    "Several hosts claim room {room}: pick the one your host named from the "
                    "list, or type the full code."
                ).format(room=room),
                severity="warning",
                timeout=8,
            )
            return True
        if not matches:
            return False
        found = matches[0]
        self._go(code if tag is not None else found.code, found.broker)
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text:
            self._enter_empty()
            return
        command = join_command(text)
        if command is not None:
            self._join_command(event.input, *command)
            return
        if looks_like_broker(text):
            try:
                address = BrokerAddress.parse(text)
            except ValueError as exc:
                self.notify(str(exc), severity="error")
                return
            if address.url not in self.brokers:
                self.brokers.append(address.url)
            event.input.value = ""
            self.action_search()
            return
        try:
            code = normal_code(text)
        except ValueError:
            self.notify(
                _("{text!r} is neither a room code nor a broker address.").format(text=text),
                severity="error",
            )
            return
        self._look_for(code)

    def _enter_empty(self) -> None:
        """Enter with nothing typed picks no room: the list takes the keyboard, where the
        room under its cursor is joined with enter. Only a game that keeps this player's
        seat, first in the list, is gone back to at once (its line says enter does)."""
        options = self.query_one("#join-rooms", OptionList)
        index = options.highlighted
        if index is not None and 0 <= index < len(self.rooms):
            room = self.rooms[index]
            if seated(room, self.me) and not self.search.watch:
                self._go(room.code, room.broker)
                return
        self.action_rooms()

    def _look_for(self, code: str) -> None:
        """Join room ``code`` if it was found, else as soon as a look finds it (or say that
        it is not there). A look made for it reads its advert on its own, so no number of
        other rooms on a broker crowds it out: the look going on, or the last one if it
        had to leave rooms out, is made again for it."""
        if self._join_found(code):
            return
        self.wanted = code
        if self.searching or self.crowded:
            self.action_search()
            self._say(_("Looking for room {room}…").format(room=code))
            return
        self._not_found(code)

    def _join_command(self, field: Input, code_text: str, broker: str | None) -> None:
        """A join command pasted whole: its broker is looked on, and its room joined as
        soon as it is found there."""
        try:
            code = normal_code(code_text)
            address = BrokerAddress.parse(broker) if broker is not None else None
        except ValueError as exc:
            self.notify(str(exc), severity="error")
            return
        field.value = code
        if address is not None and address.url not in self.brokers:
            self.brokers.append(address.url)
            self.action_search()  # a look there now, which the room is then waited for
        self._look_for(code)

    def _not_found(self, code: str, *, loud: bool = True) -> None:
        """Say that no room answers to ``code`` where this screen looked (its advert is
        retained, so a room that exists there was heard), and what to try next; a broker
        that could not be asked is said first, and blames no room. ``loud``: in a notice
        too, not only under the list."""
        text, severity = self._not_reached(code) if self.unreached else self._absent(code)
        self._say(text)
        if loud:
            self.notify(text, severity=severity, timeout=8)

    def _absent(self, code: str) -> tuple[str, SeverityLevel]:
        """What :meth:`_not_found` says when every broker was asked: no room ``code``."""
        places = self._places()
        if places and self.search.back:
            # a game left unfinished: its host may be away for now, or have closed it
            text = _(
                "No room {room} {places} for now: its host may be away, or closed it. "
                "This list joins it once it is back; ctrl+f forgets this game."
            ).format(room=code, places=_(" or ").join(places))
            return text, "warning"
        if places:
            text = _("No room {room} {places}: check the code, or type its broker (host:port).")
            return text.format(room=code, places=_(" or ").join(places)), "error"
        text = _("Type the broker of room {room} (host:port) to look for it there.")
        return text.format(room=code), "warning"

    def _not_reached(self, code: str) -> tuple[str, SeverityLevel]:
        """What :meth:`_not_found` says when some broker where room ``code`` may be could
        not be asked (:attr:`unreached`): that, not the room, is the news."""
        why = " ".join(self.unreached.values())
        places = self._places(reached=True)
        where = _(" or ").join(places)
        if self.search.back:  # a game left unfinished: the list joins it once it is found
            if places:
                text = _(
                    "{why} Nor is room {room} {places} for now. This list joins it once it "
                    "is found; ctrl+f forgets this game."
                )
            else:
                text = _(
                    "{why} This list joins room {room} once it is found; ctrl+f forgets this game."
                )
            return text.format(why=why, room=code, places=where), "warning"
        if places:
            text = _(
                "{why} No room {room} {places} either: check the code, or type its broker "
                "(host:port)."
            )
        else:
            text = _(
                "{why} Check its address, or type another broker (host:port) to look for "
                "room {room} there."
            )
        return text.format(why=why, room=code, places=where), "error"

    def _places(self, *, reached: bool = False) -> list[str]:
        """Where this screen looks: the LAN, the brokers given or typed, and those of the
        rooms joined last (``reached``: only those the last look could ask)."""
        places = [_("on the LAN")] if self.search.lan else []
        brokers = [shown(b) for b in self.brokers] + self._recent_only()
        if reached:
            brokers = [b for b in brokers if b not in self.unreached]
        places.extend(_("on {broker}").format(broker=b) for b in brokers)
        return places

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "forget":
            return self.search.back  # only a game the menu offered to go back to
        return True

    def action_forget(self) -> None:
        """Forget the game this list was opened to go back to (its host closed the room
        while this player was away, say): the menu stops offering it. Its journal stays,
        so ``cakeparty join`` with its code still goes back to it."""
        code = self.search.room
        if not self.search.back or code is None:
            return
        forget_room(code)
        self.notify(
            _("Room {room} forgotten: the menu no longer offers to go back to it.").format(
                room=parse_code(code)[0]
            )
        )
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _my_player_id() -> bytes | None:
    try:
        identity = load_identity()
    except Exception:  # an unreadable identity file is the settings' business, not this list's
        return None
    return identity.player_id if identity is not None else None


def seated(room: RoomFound, me: bytes | None) -> bool:
    """Whether ``room`` is a game under way with a seat of ``me``'s."""
    advert = room.advert
    if me is None or advert is None or advert.state != PLAYING:
        return False
    return any(seat.player == me for seat in advert.taken) and not played_out(room, me)


def open_elsewhere(room: RoomFound, me: bytes | None) -> bool:
    """Whether another window of ``me``'s (a process of this data dir) is in ``room``."""
    return me is not None and RoomLock(parse_code(room.code)[0], me).held()


def played_out(room: RoomFound, me: bytes | None) -> bool:
    """Whether ``me`` played ``room``'s game to its end here: its advert may still say
    "playing" (a host gone without closing it), but this player's journal holds the end."""
    advert = room.advert
    if me is None or advert is None or advert.table is None:
        return False
    path = journal_path(advert.table, me)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return False  # no journal here: not played here
    return _finished(str(path), stamp)


@functools.lru_cache(maxsize=64)
def _finished(path: str, stamp: int) -> bool:
    """:func:`finished`, read once per version of the file (``stamp``: its mtime)."""
    return finished(Path(path))


def room_line(room: RoomFound, me: bytes | None = None, width: int | None = None) -> Text:
    """One found room: code, game, host, free seats, state, where; a game under way that
    holds a seat of ``me``'s says so. ``width``: the list's columns, where the line is
    drawn whole or cut at its end (it never wraps): what is cut is where the room is (the
    broker) first, then as much of the host's name, and then of the game's title, as the
    rest needs, so the room's code and its seats always show."""
    advert = room.advert
    host = advert.host_name if advert is not None else ""
    title = game_title(room.game) if room.game else _("a room")
    line = _room_line(room, me, host, title)
    if width is None or line.cell_len <= width:
        return line
    head = _room_line(room, me, host, title, where=False)
    if head.cell_len + len(" · ") + BROKER_LEAST + len("…") <= width:
        return line  # the broker, cut where the line ends
    # no room for the broker: " …" says there is more than is shown
    over = head.cell_len + len(" …") - width
    if over > 0 and advert is not None:
        host, over = _shorter(host, over, NAME_LEAST)
    if over > 0:
        title, over = _shorter(title, over, TITLE_LEAST)
    head = _room_line(room, me, host, title, where=False)
    head.append(" …", style="dim")
    return head


#: The fewest columns a host's name and a game's title are cut to ("…" included), and
#: the fewest of the broker's shown before "…" (else none is).
NAME_LEAST = 4
TITLE_LEAST = 8
BROKER_LEAST = 4


def _shorter(text: str, over: int, least: int) -> tuple[str, int]:
    """``text`` cut by ``over`` columns, to no fewer than ``least``; how many columns are
    still over."""
    if cell_len(text) <= least:
        return text, over
    shorter = cut(text, max(least, cell_len(text) - over))
    return shorter, over - (cell_len(text) - cell_len(shorter))


def _room_line(
    room: RoomFound, me: bytes | None, host: str, title: str, *, where: bool = True
) -> Text:
    """:func:`room_line` with the host's name ``host`` and the game's ``title`` (cut or
    not), and where the room is (``where``) or not."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{room.code:<8} ", style="bold")  # the code the host shares
    text.append(title)
    advert = room.advert
    if advert is not None:
        text.append(" · ")
        text.append(_("{name}'s").format(name=host))
        text.append(" · ")
        if advert.state == OPEN:
            free = ngettext("{n} of {seats} seat free", "{n} of {seats} seats free", advert.seats)
            text.append(free.format(n=advert.free, seats=advert.seats))
        elif seated(room, me):  # (it reads the journal: once)
            if open_elsewhere(room, me):
                text.append(_("your seat: open in another window"), style="bold")
            else:
                text.append(_("your seat: enter to go back"), style="bold")
        elif played_out(room, me):
            text.append(_("your game is over"), style="dim")
        else:
            text.append(_("playing") if advert.state == "playing" else _("closed"), style="dim")
    if room.host_away:  # its app gone without closing the room: it may come back
        text.append(" · ")
        text.append(_("host away"), style="dim")
    if not where:
        return text
    text.append(" · ")
    text.append(shown(room.broker).removeprefix("mqtt://"), style="dim")
    if room.lan:
        text.append(" · " + _("LAN"), style="dim")
    return text

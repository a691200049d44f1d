"""Taking part in a networked room from the app: the broker, the LAN advert, the runner.

A :class:`NetRoom` is one room this app hosts or joins. Hosting without a broker of its
own, it starts the embedded broker as a process of its own (on port 1883, or on a free
port if that one is taken), which outlives a crash of the app, and announces the room on
the LAN. What it hosts is recorded beside the journals
(:mod:`cakeparty.protocol.hosting`), so a host whose app died comes back to its game with
``cakeparty host --resume``: the same broker (started again on the same port if it is
gone), the game from the journals, the advert announced again. :meth:`NetRoom.run` does
all of it and hands every :class:`~cakeparty.protocol.network.RoomEvent` to the caller;
the screens run it in a worker. :func:`find_rooms` is what ``cakeparty join`` lists:
rooms seen on the LAN and on any broker given. No UI library here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cakeparty.broker import runner as brokers
from cakeparty.broker.discovery import Advertiser, Found, browse, local_address
from cakeparty.broker.embedded import DEFAULT_PORT, free_port, port_is_free
from cakeparty.core.game import DEFAULT_THINK
from cakeparty.core.i18n import _
from cakeparty.protocol import hosting
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import RoomInUse, data_dir
from cakeparty.protocol.lobby import (
    OPEN,
    Advert,
    host_tag,
    new_room_code,
    normal_code,
    room_code,
)
from cakeparty.protocol.network import HostSetup, Listed, RoomEvent, RoomRunner, list_rooms
from cakeparty.protocol.table import GAME
from cakeparty.protocol.topics import valid_room
from cakeparty.protocol.transport import BrokerAddress, TransportError, stop_task
from cakeparty.tui.table import registration

log = logging.getLogger(__name__)

#: Seconds the room stays after its game ended while its screen is open (until the player
#: leaves): a player coming back learns the ending from it.
LINGER = 3600.0
#: the most brokers heard of on the LAN that one look asks for their rooms (anyone on the
#: LAN may announce a broker anywhere: the app is nobody's tool to knock on many)
MOST_LAN_BROKERS = 8

#: The choices of the host's setup form: seconds per move.
TIMEOUTS = (30, 60, 120, 300, 600)
#: seconds between two looks at whether the broker run here for a hosted room still runs
BROKER_CHECK = 2.0


@dataclass(frozen=True)
class HostPlan:
    """What a host chose before opening a room.

    ``game`` blank is the first registered game, ``players`` 0 its smallest count for a
    room; ``options`` (a mapping or pairs) is completed with the game's defaults.
    """

    game: str = ""
    players: int = 0
    options: Any = ()  # the game's options: ((key, value), …) in the game's order
    timeout: int = 120  # seconds a seat may keep the room waiting
    on_timeout: str = "ask"  # then: ask the others, or end (an offline seat's game)
    broker: str | None = None  # an external broker's URL; None: run the embedded one
    port: int | None = None  # the embedded broker's port; None: 1883, or a free one
    lan: bool = True  # announce the room on the LAN
    resume: str | None = None  # the id of a room hosted here before, to come back to

    def __post_init__(self) -> None:
        table = registration.any_game(self.game or registration.registered()[0].name)
        object.__setattr__(self, "game", table.name)
        if not self.players:
            object.__setattr__(self, "players", table.usual(networked=True))
        object.__setattr__(self, "options", table.complete(self.options, self.players))

    @classmethod
    def resuming(cls, record: hosting.HostRecord) -> HostPlan:
        """The plan that brings a host back to the room ``record`` remembers."""
        table = registration.any_game(record.game)
        # an option the game no longer has is left out; one not recorded takes its default
        kept = {key: value for key, value in record.options.items() if table.option(key)}
        return cls(
            game=record.game,
            players=record.players,
            options=kept,
            timeout=record.timeout,
            on_timeout=record.on_timeout,
            broker=None if record.port is not None else record.broker,
            port=record.port,
            lan=record.lan,
            resume=record.room,
        )

    @property
    def rule_options(self) -> dict[str, Any]:
        """The game's options as its rules read them."""
        return registration.any_game(self.game).rule_options(self.options)

    def option(self, key: str) -> Any:
        return dict(self.options).get(key)


@dataclass(frozen=True)
class JoinPlan:
    """A room to join: its code and the broker it lives on."""

    room: str
    broker: str


@dataclass(frozen=True)
class WatchPlan:
    """A room to watch without a seat: its code and the broker it lives on."""

    room: str
    broker: str


@dataclass(frozen=True)
class JoinSearch:
    """Where ``cakeparty join`` looks: the LAN and the brokers given; a room to pick.
    ``watch``: the room found is watched, not joined (``cakeparty watch``). ``every``:
    seconds between two looks while the list is shown (``None``: only when asked).
    ``back``: ``room`` is a game this player left unfinished (the menu's offer to go back),
    which the list may forget."""

    room: str | None = None
    brokers: tuple[str, ...] = ()
    lan: bool = True
    watch: bool = False
    every: float | None = 5.0
    back: bool = False


@dataclass(frozen=True)
class RoomFound:
    """A room seen on the LAN or on a broker."""

    room: str
    broker: str
    game: str = ""
    advert: Advert | None = None  # what its host says (seats, options), when heard
    lan: bool = False  # announced on the LAN
    host_away: bool = False  # its host's last word on the broker: offline

    @property
    def state(self) -> str:
        return self.advert.state if self.advert is not None else OPEN

    @property
    def code(self) -> str:
        """The full code (room id and its host's tag) when its host was heard, so that
        joining it believes that host only; else the bare room id."""
        if self.advert is None:
            return self.room
        return room_code(self.room, self.advert.host)

    def answers(self, room: str, tag: str | None) -> bool:
        """Whether this is the room a code names (a bare id names any host)."""
        if room != self.room:
            return False
        return tag is None or self.advert is None or host_tag(room, self.advert.host) == tag


def trouble(exc: TransportError) -> str:
    """``exc`` told the user as a sentence in their language."""
    text = exc.said(_)
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def in_use(exc: RoomInUse) -> str:
    """Why this window cannot take part in a room this player is in elsewhere."""
    if exc.pid is None:
        return _(
            "You are in this room in another Cake Party window already. Close that window "
            "to play here: one seat, one window."
        )
    return _(
        "You are in this room in another Cake Party window already (process {pid}): one "
        "seat, one window."
    ).format(pid=exc.pid)


def stop_other(pid: int) -> bool:
    """Ask the process ``pid`` (another window of this player, :class:`RoomInUse`) to
    close, as ``kill`` would: the app leaves as on ctrl+q, a game on waiting in its
    journal. Where ``/proc`` tells, only a process of Cake Party is asked; False if it
    cannot be asked (this process, another program, another user's)."""
    if pid == os.getpid() or pid <= 0:
        return False
    proc = Path("/proc")
    if proc.is_dir():
        try:
            command = (proc / str(pid) / "cmdline").read_bytes()
        except FileNotFoundError:
            return True  # gone already: its lock is free
        except OSError:
            return False
        if b"cakeparty" not in command:
            return False
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return True


def shown(broker: str) -> str:
    """A broker's address as shown: never its password."""
    try:
        return str(BrokerAddress.parse(broker))
    except ValueError:
        return broker.rsplit("@", 1)[-1]


def choose_port(port: int | None) -> tuple[int, str]:
    """The embedded broker's port and, if the default one was taken, a notice saying so."""
    if port is not None:
        return port, ""
    if port_is_free(DEFAULT_PORT):
        return DEFAULT_PORT, ""
    chosen = free_port("0.0.0.0")
    return chosen, _("Port {default} is taken: the broker listens on port {port}.").format(
        default=DEFAULT_PORT, port=chosen
    )


def looks_like_broker(text: str) -> bool:
    """A broker address (``host:port``, ``mqtt://…``, a dotted name) rather than a room."""
    return any(c in text for c in ":./")


def join_command(text: str) -> tuple[str, str | None] | None:
    """The room code and broker of a join command pasted whole (``cakeparty join CODE
    --broker ADDRESS``, what ``y`` copies in a lobby, or the same after ``ssh … -t``);
    ``None`` for anything else."""
    words = text.split()
    if "join" not in words:
        return None
    rest = words[words.index("join") + 1 :]
    code: str | None = None
    broker: str | None = None
    at = 0
    while at < len(rest):
        word = rest[at]
        if word == "--broker" and at + 1 < len(rest):
            broker = rest[at + 1]
            at += 1
        elif word.startswith("--broker="):
            broker = word.partition("=")[2]
        elif code is None and not word.startswith("-"):
            code = word
        at += 1
    return None if code is None else (code, broker)


Notice = Callable[[str, str], None]  # (text, severity)


@dataclass
class NetRoom:
    """One room this app takes part in, as host or guest."""

    identity: Identity
    plan: HostPlan | JoinPlan
    bot_delay: float = 0.0
    bot_think: float = DEFAULT_THINK  # seconds a strong bot run here thinks per decision
    journal_dir: Path | None = None
    room: str = ""
    port: int | None = None  # the embedded broker's port, when it runs here
    port_note: str = ""  # why the port is not the usual one
    share: str = ""  # the broker address others use to join
    runner: RoomRunner = field(init=False)
    bot_levels: dict[bytes, str] = field(default_factory=dict)  # bots run here
    seat_bot: str | None = None  # a bot plays the host's own seat (headless hosting)
    record: hosting.HostRecord | None = None  # what this host remembers of its room
    broker_pid: int | None = None  # the process of the broker run here, once started

    def __post_init__(self) -> None:
        plan = self.plan
        if isinstance(plan, HostPlan):
            table = None
            if plan.resume is not None:
                record = hosting.resumable(self.identity.player_id, plan.resume, self.journal_dir)
                if record is None:
                    raise ValueError(_("no room {room} to come back to").format(room=plan.resume))
                self.record = record
                self.room = record.room
                table = hosting.started_table(record, self.journal_dir)
                self.bot_levels = {bytes.fromhex(k): v for k, v in record.bots.items()}
            self.room = self.room or new_room_code()
            if plan.broker:
                address = BrokerAddress.parse(plan.broker)
                self.share = str(address.public)  # others log in as themselves
            elif self.record is not None and self.record.port is not None:
                self.port = self.record.port  # where the others try to reconnect
                address = BrokerAddress("127.0.0.1", self.port)
                self.share = self.record.share or f"mqtt://{local_address()}:{self.port}"
            else:
                self.port, self.port_note = choose_port(plan.port)
                me = self.identity.player_id
                if self.port_note and hosting.resumable(me, None, self.journal_dir):
                    self.port_note += " " + _(
                        "A room you hosted may still be on: cakeparty host --resume."
                    )
                address = BrokerAddress("127.0.0.1", self.port)
                self.share = f"mqtt://{local_address()}:{self.port}"
            setup = HostSetup(
                plan.game,
                plan.players,
                plan.rule_options,
                timeout=plan.timeout,
                on_timeout=plan.on_timeout,
            )
            self.runner = RoomRunner(
                broker=address,
                identity=self.identity,
                room=self.room,
                host=setup,
                bot=self.seat_bot,
                bot_delay=self.bot_delay,
                bot_think=self.bot_think,
                journal_dir=self.journal_dir,
                broker_label=self.share,
                resume=table,
                bot_levels=self.bot_levels,
                linger=LINGER,
            )
            if self.record is None:
                self.record = hosting.HostRecord(
                    room=self.room,
                    host=self.identity.player_id.hex(),
                    game=plan.game,
                    players=plan.players,
                    timeout=plan.timeout,
                    on_timeout=plan.on_timeout,
                    options=dict(plan.options),
                    broker=address.url,  # a private file: the login too, to come back
                    share=self.share,
                    port=self.port,
                    lan=plan.lan,
                )
        else:
            address = BrokerAddress.parse(plan.broker)
            self.share = str(address.public)
            self.runner = RoomRunner(
                broker=address,
                identity=self.identity,
                room=plan.room,
                journal_dir=self.journal_dir,
                linger=LINGER,
            )
            self.room = self.runner.room
        self.address = address
        self._left = asyncio.Event()
        self.running = False  # the broker (if here) is up, and the room not left
        self.playing = False  # the runner takes part in the room (until the game ends)

    # -- reading -----------------------------------------------------------------------

    @property
    def hosting(self) -> bool:
        return isinstance(self.plan, HostPlan)

    @property
    def embedded(self) -> bool:
        return self.port is not None

    @property
    def connected(self) -> bool:
        transport = self.runner.transport
        return transport is not None and transport.connected and not transport.closing

    @property
    def advert(self) -> Advert | None:
        return self.runner.advert

    @property
    def code(self) -> str:
        """The room code to share: the room id and its host's tag."""
        return self.runner.code

    @property
    def shared(self) -> str:
        """The broker address to give others: the host's own words for it, once heard
        (a guest may reach it under another name, such as 127.0.0.1)."""
        advert = self.runner.advert
        if not self.hosting and advert is not None and advert.broker:
            with contextlib.suppress(ValueError):
                return str(BrokerAddress.parse(advert.broker))
        return self.share

    def join_command(self) -> str:
        """What the others type to join this room."""
        address = BrokerAddress.parse(self.shared)
        where = f"{address.host}:{address.port}" if not address.tls else self.shared
        return f"cakeparty join {self.code} --broker {where}"

    # -- the host's seats --------------------------------------------------------------

    def add_bot(self, level: str) -> bytes | None:
        player = self.runner.add_bot(level)
        if player is not None:
            self.bot_levels[player] = level
        return player

    def set_bot_level(self, player: bytes, level: str) -> None:
        self.runner.set_bot_level(player, level)
        self.bot_levels[player] = level

    def remove_seat(self, player: bytes) -> None:
        self.runner.remove_seat(player)
        self.bot_levels.pop(player, None)

    # -- running -----------------------------------------------------------------------

    async def run(
        self, on_event: Callable[[RoomEvent], None], notice: Notice, *, wait: float = 0.0
    ) -> None:
        """Start the broker (if it runs here), announce the room, take part in it, and
        keep the broker up until :meth:`leave`. Raises :class:`TransportError` if the
        broker cannot be reached, :class:`OSError` if the embedded one cannot start,
        :class:`RoomInUse` if this player is in the room in another window (after
        ``wait`` seconds for it to let go)."""
        self.running = True
        try:
            # before anything of the room is started or written: not while another
            # window of this player is in it
            await self._claim(wait)
            async with contextlib.AsyncExitStack() as stack:
                if self.port is not None:
                    await asyncio.to_thread(self._start_broker)
                    if self.port_note:
                        notice(self.port_note, "warning")
                if self.record is not None:
                    self._remember()
                    stack.push_async_callback(self._closed)
                if self.port is not None:
                    # stopped before the broker is (the callbacks run last first)
                    tend = asyncio.create_task(self._tend_broker(notice), name="broker-tend")
                    stack.push_async_callback(_cancel, tend)
                if isinstance(self.plan, HostPlan) and self.plan.lan:
                    lan = asyncio.create_task(self._announce(notice), name="lan-advert")
                    stack.push_async_callback(_cancel, lan)
                pump = asyncio.create_task(self._pump(on_event), name="room-events")
                stack.push_async_callback(_cancel, pump)
                if not self._left.is_set():
                    self.playing = True
                    try:
                        await self.runner.run()
                    finally:
                        self.playing = False
                await self._left.wait()
                await asyncio.sleep(0)  # let the last events through
        finally:
            self.runner.unclaim()
            self.running = False

    async def _claim(self, wait: float) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                self.runner.claim()
                return
            except RoomInUse:
                if time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.1)

    def leave(self) -> None:
        """Leave the room: the runner stops, and the broker with it if it runs here; a
        host's room closes, and the others are told so, even in the middle of a game."""
        self._left.set()
        self.runner.close()

    async def _pump(self, on_event: Callable[[RoomEvent], None]) -> None:
        while True:
            event = await self.runner.events.get()
            if event.kind == "started" and self.record is not None:
                self._remember(table=event.data.digest().hex())
            on_event(event)

    # -- the host's broker and record --------------------------------------------------

    def _start_broker(self) -> None:
        """Make sure the broker of this room listens on :attr:`port`: the one started
        before (a host coming back), or a new process of its own."""
        assert self.port is not None
        record = self.record
        pid = record.pid if record is not None else self.broker_pid
        if pid is not None and brokers.is_ours(pid, self.port) and brokers.listening(self.port):
            self.broker_pid = pid
            return  # it outlived the app: the others never lost it
        if not port_is_free(self.port):
            raise OSError(_("port {port} is already in use").format(port=self.port))
        log_file = data_dir(self.journal_dir) / "brokers" / f"{self.port}.log"
        pid = brokers.spawn(self.port, log_file=log_file, detached=not brokers.bound_to_session())
        self.broker_pid = pid
        if record is not None:
            self.record = record.with_(pid=pid)

    async def _tend_broker(self, notice: Notice) -> None:
        """Host: while the room lives, start the broker run here again should it stop (a
        kill, a crash, the machine short of memory) on the same port: the players and the
        host reconnect by themselves, and the host publishes again what the broker kept.
        Said once each time; a port someone else took meanwhile is said once, and tried
        again."""
        assert self.port is not None
        said_taken = False
        while not self._left.is_set():
            await asyncio.sleep(BROKER_CHECK)
            pid = self.broker_pid
            if self._left.is_set() or (pid is not None and brokers.is_ours(pid, self.port)):
                continue
            try:
                await asyncio.to_thread(self._start_broker)
            except OSError as exc:  # the port taken, or the broker would not start
                log.warning("the room's broker could not start again", exc_info=True)
                if not said_taken:
                    said_taken = True
                    notice(
                        _(
                            "The broker on this computer stopped and cannot start again "
                            "({error}); trying again."
                        ).format(error=exc),
                        "error",
                    )
                continue
            said_taken = False
            self._remember()  # the new broker's process, for coming back after a crash
            notice(
                _(
                    "The broker on this computer stopped; it was started again on port "
                    "{port}, and the players reconnect by themselves."
                ).format(port=self.port),
                "warning",
            )

    def _remember(self, **changes: Any) -> None:
        """Write what a host needs to come back to this room."""
        if self.record is None:
            return
        bots = {p.hex(): level for p, level in self.bot_levels.items()}
        self.record = self.record.with_(bots=bots, seated=self.runner.seated, **changes)
        try:
            hosting.save(self.record, self.journal_dir)
        except OSError:  # the room works without it; only coming back after a crash does not
            log.warning("could not save the hosted room's record", exc_info=True)

    async def _closed(self) -> None:
        """The room ends here only when the host leaves it (:meth:`leave`): then its
        broker stops and its record goes. Anything else that ends this app — a crash, a
        kill, a closed terminal — leaves both, and the host can come back."""
        if not self._left.is_set():
            return
        record = self.record
        if record is not None:
            hosting.remove(record.room, self.journal_dir)
            pid = record.pid
            if pid is not None and self.port is not None and brokers.is_ours(pid, self.port):
                brokers.stop(pid)

    async def _announce(self, notice: Notice) -> None:
        assert isinstance(self.plan, HostPlan)
        address = BrokerAddress.parse(self.share)
        try:
            async with Advertiser(
                name=self.identity.name,
                port=address.port,
                broker=self.share,
                room=self.room,
                game=self.plan.game,
            ):
                await asyncio.Event().wait()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the room works without it: say so and go on
            log.info("LAN advert failed", exc_info=True)
            notice(
                _("The room is not announced on the LAN ({error}); share the address.").format(
                    error=exc
                ),
                "warning",
            )


async def _cancel(task: asyncio.Task[Any]) -> None:
    await stop_task(task)


# -- finding rooms -----------------------------------------------------------------------


@dataclass(frozen=True)
class Looked:
    """What :func:`find_rooms` found: ``rooms``; ``unreached``: the brokers that could not
    be asked (as shown), each with why, in the user's words (those asked quietly too);
    ``crowded``: the brokers (as shown) that advertise more rooms than one list holds."""

    rooms: list[RoomFound] = field(default_factory=list)
    unreached: dict[str, str] = field(default_factory=dict)
    crowded: tuple[str, ...] = ()


async def find_rooms(
    brokers: Iterable[str],
    *,
    lan: bool = True,
    seconds: float = 1.5,
    notice: Notice,
    quiet: Iterable[str] = (),
    wanted: str | None = None,
) -> Looked:
    """The rooms on ``brokers`` and on the LAN. The brokers given are asked for their
    adverts while the LAN is browsed; the brokers found there are asked next. ``quiet``:
    brokers asked too, whose failures are no news (those of the rooms joined last), though
    they are in :attr:`Looked.unreached`. ``wanted``: the code of a room looked for, read on
    its own on every broker, so that no number of other rooms there leaves it out."""
    addresses: dict[str, BrokerAddress] = {}
    for text in brokers:
        try:
            address = BrokerAddress.parse(text)
        except ValueError as exc:
            notice(str(exc), "error")
            continue
        addresses.setdefault(str(address), address)
    hushed: set[str] = set()
    for text in quiet:
        with contextlib.suppress(ValueError):
            address = BrokerAddress.parse(text)
            if str(address) not in addresses:
                addresses[str(address)] = address
                hushed.add(str(address))

    codes: tuple[str, ...] = ()
    with contextlib.suppress(ValueError):
        codes = (normal_code(wanted),) if wanted is not None else ()
    unreached: dict[str, str] = {}
    crowded: list[str] = []

    async def ask(address: BrokerAddress) -> list[Listed]:
        try:
            listing = await list_rooms(address, seconds, wanted=codes)
        except Exception as exc:
            if isinstance(exc, TransportError):
                said = trouble(exc)
            else:
                said = _("{broker}: {error}").format(broker=address, error=exc)
            unreached[str(address)] = said
            if str(address) not in hushed:
                notice(said, "warning")
            return []
        if listing.cut:
            crowded.append(str(address))
        return list(listing.rooms)

    async def look() -> list[Found]:
        if not lan:
            return []
        try:
            return await browse(seconds)
        except Exception as exc:  # no LAN discovery here: the brokers given still count
            notice(_("Could not look on the LAN: {error}").format(error=exc), "warning")
            return []

    looking = asyncio.create_task(look())
    try:
        answers = await asyncio.gather(*(ask(a) for a in addresses.values()))
        found = await looking
    finally:
        looking.cancel()  # a look given up (another one asked for) browses no longer
    adverts = dict(zip(addresses, answers, strict=True))
    on_lan: dict[tuple[str, str], str] = {}  # (room, broker) → game
    more: dict[str, BrokerAddress] = {}
    for f in found:  # what anyone on the LAN may say: checked before it is shown
        with contextlib.suppress(ValueError):
            address = BrokerAddress.parse(f.broker)
            if f.room and valid_room(f.room) and GAME.match(f.game):
                on_lan[f.room, str(address)] = f.game
            if str(address) not in addresses and len(more) < MOST_LAN_BROKERS:
                more.setdefault(str(address), address)
    if more:
        answers = await asyncio.gather(*(ask(a) for a in more.values()))
        adverts.update(zip(more, answers, strict=True))
    rooms: dict[tuple[str, bytes | str], RoomFound] = {}
    known = {**addresses, **more}  # as shown: as joined (a login too)
    for shown, heard in adverts.items():
        url = known[shown].url
        for listed in heard:
            advert = listed.advert
            key = (advert.room, advert.host)  # one room, seen through several addresses
            lan_seen = any(room == advert.room for room, _url in on_lan)
            found = RoomFound(
                advert.room, url, advert.game, advert, lan=lan_seen, host_away=listed.host_away
            )
            rooms.setdefault(key, found)
    for (room, url), game in on_lan.items():
        if not any(r.room == room for r in rooms.values()):
            rooms[room, url] = RoomFound(room, url, game, None, lan=True)
    order = {OPEN: 0}
    listed = sorted(
        rooms.values(), key=lambda r: (r.host_away, order.get(r.state, 1), r.room, r.broker)
    )
    return Looked(listed, unreached, tuple(crowded))

"""A networked room, end to end: the broker connection, the lobby, the game, the bots.

:class:`RoomRunner` is one process's part in a room — hosting it or joining it, taking a
seat (played by a person or by a bot) or not, and running the bots the host put in. It
owns the transport and the session; what happens is reported on :attr:`events` for a
user interface or a command line to show. It never crashes on what another peer sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import heapq
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cakeparty.core import Action, Bot, get_game
from cakeparty.core.game import DEFAULT_THINK, SEARCH_LEVEL, bot_levels, make_bot
from cakeparty.core.i18n import N_
from cakeparty.protocol import journal as jn
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.events import Event
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity, fingerprint, load_or_create
from cakeparty.protocol.journal import data_dir
from cakeparty.protocol.names import distinct_names
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.spectator import Backlog, Watchers, read_catch_up, read_watch
from cakeparty.protocol.table import ASK, OptionValue, Table
from cakeparty.protocol.topics import presence_id
from cakeparty.protocol.transport import (
    BrokerAddress,
    Message,
    Transport,
    TransportError,
    stop_task,
)

log = logging.getLogger(__name__)

TICK = 0.25
GRACE = 3.0  # seconds to stay after the game, answering peers that are behind
MAX_STRANGERS = 64  # presences remembered of players with no seat (anyone may post one)
MAX_NOTED = 16  # impostors' adverts noted, one notice each
MAX_CHAT = 200  # chat lines kept
CONNECT_WAIT = 30.0  # seconds an offer of the next room waits for the room's connection
MAX_ROOMS = 500  # adverts kept while listing a broker's rooms
MAX_CLAIMS = 8  # hosts kept of a room looked for by its bare id (anyone may claim it)
MAX_PRESENCES = 4 * MAX_ROOMS  # presences kept meanwhile of rooms not (yet) listed
MAX_PRESENCE_BYTES = 4096  # a presence is a few hundred bytes: a bigger one is not kept
#: the "error" event when this player's own journal of a game in progress does not read
JOURNAL_UNREADABLE = N_("this player's record of the game does not read")
#: … or cannot be begun on a disk that would not take it (nothing of it is left)
JOURNAL_UNWRITABLE = N_("this player's record of the game cannot be written")
#: the "error" event when the game started and this player has no seat in it
NOT_SEATED = N_("the game started without this player")
#: Seconds without the room's advert before a guest is told there is no such room on the
#: broker: the advert is retained, so a room that exists is heard at once on subscribing.
NO_ROOM_AFTER = 4.0
#: Seconds between two adverts a host publishes again because something else took the
#: place of its own on the broker (anyone may clear it, or post there): a stranger doing
#: so without end makes it publish one a second, no more.
RESTORE_EVERY = 1.0
#: Seconds a host waits for the broker to pass its own newest advert back before it
#: takes what it heard meanwhile on its advert topic for what the broker keeps there.
ECHO_WAIT = 2.0


@dataclass
class _Kept:
    """What a host keeps retained on the broker (its advert, its offer of a next room) may
    be wiped or replaced by anyone: since when something else may be what the broker keeps
    in its place (``doubted``), when the host last published it again for that, and how
    many times it has."""

    doubted: float | None = None
    restored: float = -RESTORE_EVERY
    times: int = 0

    def doubt(self, now: float) -> None:
        if self.doubted is None:
            self.doubted = now

    def due(self, now: float, *, echo_awaited: bool) -> bool:
        """Whether to publish it again now (counted as done): something else may have taken
        its place, the host's own newest (``echo_awaited``: not passed back by the broker
        yet) had :data:`ECHO_WAIT` seconds to come back, and :data:`RESTORE_EVERY` seconds
        went by since the last time, so a stranger clearing it without end makes the host
        publish it once a second, no more."""
        doubted = self.doubted
        if doubted is None:
            return False
        if echo_awaited and now - doubted < ECHO_WAIT:
            return False
        if now - self.restored < RESTORE_EVERY:
            return False
        self.restored = now
        self.doubted = None  # until something else is heard there again
        self.times += 1
        return True


@dataclass(frozen=True)
class RoomEvent(Event):
    """Something the room's owner should know about."""

    # its kinds: advert, started, moved, chat, incident, connection, finished, error,
    # refused, absent (no advert of this room on the broker, yet), watchers (how many
    # spectators watch: data is the count), closed (the host closed the room while its
    # game was on: data is its signed advert saying so), stumbled (a bot run here failed
    # and played at random that once: data is its seat and what went wrong), wrong-game
    # (the room plays another game than the one this guest came for: data is its advert)


@dataclass
class HostSetup:
    """What a host decides for its room."""

    game: str
    players: int
    options: dict[str, OptionValue] = field(default_factory=dict)
    bots: list[str] = field(default_factory=list)  # levels of the bots the host runs
    timeout: int = 120
    on_timeout: str = ASK  # what a seat past the timeout brings about: ask, or end


def client_id() -> str:
    """A fresh, unguessable MQTT client id: a broker drops the older of two connections
    with one id, so a guessable id would let anyone push a player off the broker."""
    return f"cp-{secrets.token_hex(12)}"


class RoomRunner:
    """One process's part in a networked room."""

    def __init__(
        self,
        *,
        broker: BrokerAddress,
        identity: Identity,
        room: str,
        host: HostSetup | None = None,
        seated: bool = True,
        bot: str | None = None,
        bot_delay: float = 0.0,
        bot_think: float = DEFAULT_THINK,
        journal_dir: Path | None = None,
        seed: int | None = None,
        broker_label: str = "",
        resume: Table | None = None,
        bot_levels: dict[bytes, str] | None = None,
        linger: float = GRACE,
        game: str | None = None,
    ) -> None:
        """``room``: the room code (the room id and its host's tag), or a bare room id
        (then the first host heard is believed); ``host``: host the room with this setup;
        ``seated``: take a seat; ``bot``: the level of the bot playing this seat (``None``:
        a person, through :meth:`act`); ``bot_think``: seconds a strong bot run here
        thinks per decision; ``resume`` (with ``host``): the table of this
        room's game, which this host started before and comes back to from its journal,
        with its bots at ``bot_levels``; ``linger``: seconds to stay after the game ended,
        answering peers that come back (they learn the ending from the votes); ``game``
        (a guest): the game this player came to play — it says nothing of itself in the
        room, so takes no seat, until the room's advert shows that game, and it leaves a
        room of another game at once (:attr:`wrong_game`)."""
        self.broker = broker
        self.identity = identity
        self.room, self.host_tag = lb.parse_code(room)
        if host is not None:
            self.host_tag = lb.host_tag(self.room, identity.player_id)
        self.setup = host
        self.seated = seated
        self.game = game if host is None else None
        #: the advert of a room that plays another game than :attr:`game`: left unjoined
        self.wrong_game: lb.Advert | None = None
        # this player's presence is said in the room (not before its game is checked)
        self._announced = self.game is None
        self._presence_topic: topics.Topic | None = None
        self.bot_level = bot
        self.bot_delay = bot_delay
        self.bot_think = bot_think
        self._own_bot: Bot | None = None  # the bot of this seat, made when first needed
        self._searching: set[bytes] = set()  # the bots run here that search (think long)
        self._deciding: set[int] = set()  # the seats whose searching bot thinks now
        self.linger = linger
        self.journal_dir = journal_dir
        # one process a player: taken by :meth:`claim` (or :meth:`run`) while taking part
        self._lock = jn.RoomLock(self.room, identity.player_id, journal_dir)
        self._claimed = False
        self.rng = random.Random(seed)
        self.events: asyncio.Queue[RoomEvent] = asyncio.Queue()
        self.advert: lb.Advert | None = None
        self.host_lobby: lb.HostLobby | None = None
        self.session: GameSession | None = None
        self.ready = bot is not None or not seated
        self.mark = lb.new_mark() if self.ready else b""  # this seat's part of the table
        self.agreed: lb.Terms | None = None  # the room's settings this player said ready to
        self.refused: lb.TableRefused | None = None
        #: this player's own journal of the game would not read (or be begun): no game here
        self.journal_failed: str | None = None
        self.noted: set[bytes] = set()  # impostors whose adverts were seen
        self.online: dict[bytes, bool] = {}
        self._stamps = lb.PresenceStamps()  # the latest presence heard of each player
        #: this app's connections to the broker, numbered by the clock (in milliseconds)
        #: so that a later run's come after an earlier one's: :func:`lobby.presence_stamp`
        self._connection = 0
        #: the clock that numbers them, and this player's chat lines and catch-up requests:
        #: never behind an earlier run's numbers, whatever the system's clock did since
        self._clock = jn.KeptClock(journal_dir)
        self._said = 0  # the presences said online so far, each after the one before
        self.bots: dict[bytes, tuple[Identity, Bot]] = {}
        self.transport: Transport | None = None
        self.finished_at: float | None = None
        self.chat: list[tuple[str, str]] = []
        self.next_code: str | None = None  # the host's offer of a new room, once heard
        self._next_topic: str | None = None
        self._next_heard = asyncio.Event()
        # host: its offer of this room to the players of a finished one (topic, message),
        # kept on the broker while this room lives (see _heard_own_offer): since when
        # something else may be what the broker keeps in its place, and when it was last
        # published again for that
        self._offer: tuple[topics.Topic, bytes] | None = None
        self._offer_relayed = asyncio.Event()
        self._offer_unechoed = 0  # offers published that the broker has not passed back
        self._offer_kept = _Kept()
        self._stop = asyncio.Event()
        self._closing = False  # the host leaves for good: the room closes, game or not
        self.closed_by_host = False  # a guest heard its host close the room mid-game
        self._bot_due: dict[int, float] = {}
        self._chat_out: list[str] = []
        self._chat_number = 0
        self._chat_gate = lb.ChatGate()
        self._pace = lb.ChatGate(lb.SAY_BURST, lb.SAY_EVERY)  # this player's own lines
        self._presence_changed = False
        self._advert_changed = False
        self._wake = asyncio.Event()
        self._last_moved: tuple[int, tuple[int, ...]] | None = None
        self._incidents_seen = 0
        self._stalled: str | None = None  # the disk's refusal last said
        self._was_connected = True
        self._listening_since: float | None = None  # when the room's topics were subscribed
        self.absent = False  # said that no room answers to this code on the broker
        # host: its advert as last published, those the broker has not passed back yet,
        # since when something else may be what the broker keeps in its place, and when
        # it was last published again for that (see _heard_own_advert)
        self._advert_data = b""
        self._advert_sent: deque[bytes] = deque(maxlen=32)
        self._advert_kept = _Kept()
        self._connections = 1  # the broker connections made so far (see _restore_advert)
        self.log_messages = 0
        self.log_bytes = 0
        self.ignored = 0  # undecodable or unsigned messages off the log topic
        self.stale_presences = 0  # presences older than their player's latest (replays)
        self.watchers = Watchers()  # spectators: counted, bounded, never in the log
        self.backlog = Backlog()  # the answers to spectators' catch-up requests
        self._watching = 0  # the watcher count last reported
        if host is not None:
            self.host_lobby = lb.HostLobby(
                lb.Advert(
                    room=self.room,
                    game=host.game,
                    host=identity.player_id,
                    host_name=identity.name,
                    seats=host.players,
                    options=tuple(sorted(host.options.items())),
                    timeout=host.timeout,
                    on_timeout=host.on_timeout,
                    broker=broker_label or str(broker),
                    # above any serial an earlier run of this room may have published
                    serial=time.time_ns() // 1000,
                )
            )
            if seated:
                self.host_lobby.seat(
                    lb.Seat(identity.player_id, identity.name, bot is not None, self.ready),
                    mark=self.mark,
                )
            for level in host.bots:
                self.add_bot(level)
            if resume is not None:
                self._resume_table(resume, bot_levels or {})
            self.advert = self.host_lobby.advert

    def _resume_table(self, table: Table, levels: dict[bytes, str]) -> None:
        """Host: the game of ``table`` is on; its advert says so again (with a serial above
        the last one: it is taken from the clock), and the bots run here play on."""
        assert self.host_lobby is not None and self.setup is not None
        if table.room != self.room:
            raise ValueError(f"the table is for room {table.room}, not {self.room}")
        game = get_game(table.game)
        offered = bot_levels(game)
        for i in range(table.seats):
            folder = data_dir(self.journal_dir) / "bots" / f"{self.room}-{i}"
            if not folder.is_dir():
                continue
            ident = self._bot_identity(i)
            if ident.player_id in table.players:
                level = levels.get(ident.player_id, "normal")
                level = level if level in offered else "normal"
                self.bots[ident.player_id] = (ident, make_bot(game, level, self.bot_think))
                if level == SEARCH_LEVEL:
                    self._searching.add(ident.player_id)
        seats = tuple(
            lb.Seat(player, name, player in self.bots, True)
            for player, name in zip(table.players, table.names, strict=True)
        )
        self.host_lobby.advert = replace(
            self.host_lobby.advert,
            taken=seats,
            state=lb.PLAYING,
            table=table,
            on_timeout=table.on_timeout,
        )

    def _bot_identity(self, i: int) -> Identity:
        # a bot's key is kept beside the journals so the host can resume its game too
        folder = data_dir(self.journal_dir) / "bots" / f"{self.room}-{i}"
        name = f"Bot {i + 1}"
        return load_or_create(name, directory=folder)

    # -- what the UI calls ----------------------------------------------------------------

    def add_bot(self, level: str) -> bytes | None:
        """Host: seat a bot of ``level``, run by this process; its player id, or ``None``
        if the room is full."""
        assert self.host_lobby is not None and self.setup is not None
        bot = make_bot(get_game(self.setup.game), level, self.bot_think)
        used = {s.player for s in self.host_lobby.advert.taken}
        for i in range(self.setup.players):
            ident = self._bot_identity(i)
            if ident.player_id in used:
                continue
            seat = lb.Seat(ident.player_id, ident.name, True, True)
            if not self.host_lobby.seat(seat, mark=lb.new_mark()):
                return None
            self.bots[ident.player_id] = (ident, bot)
            if level == SEARCH_LEVEL:
                self._searching.add(ident.player_id)
            self._advert_changed = True
            self._wake.set()
            return ident.player_id
        return None

    def keep_order(self, order: Sequence[bytes]) -> None:
        """Host: the players of ``order`` sit in that order, first seat first, before
        anyone else (a new room for the same table keeps its seats, its teams)."""
        assert self.host_lobby is not None
        self.host_lobby.keep_order(order)
        self._advert_changed = True
        self._wake.set()

    def set_bot_level(self, player: bytes, level: str) -> None:
        """Host: the bot run here in ``player``'s seat plays at ``level`` from now on."""
        assert self.setup is not None
        ident, _bot = self.bots[player]
        self.bots[player] = (ident, make_bot(get_game(self.setup.game), level, self.bot_think))
        if level == SEARCH_LEVEL:
            self._searching.add(player)
        else:
            self._searching.discard(player)

    def remove_seat(self, player: bytes) -> None:
        """Host: free a seat (a bot taken away, a player sent out) while the lobby is open."""
        assert self.host_lobby is not None
        if player == self.identity.player_id:
            return
        self.host_lobby.remove(player)
        self.bots.pop(player, None)
        self._searching.discard(player)
        self._advert_changed = True
        self._wake.set()

    def set_ready(self, ready: bool = True) -> None:
        """Mark this seat ready (with fresh bytes for the table) to play what the lobby
        shows now, or not ready."""
        if self.session is not None or self.refused is not None:
            return
        self.ready = ready
        self.mark = lb.new_mark() if ready else b""
        self.agreed = self.advert.terms if ready and self.advert is not None else None
        self._presence_changed = True
        self._wake.set()

    def act(self, action: Action) -> None:
        """This player's move; raises if it is not legal now."""
        if self.session is None or not self.seated:
            raise ValueError("no game in progress")
        seat = self.my_seat
        assert seat is not None
        self.session.act(seat, action)
        self._wake.set()  # publish it now, not at the next tick

    def vote_out(self, seat: int) -> bool:
        """This player votes to end the game as abandoned by ``seat``, which keeps the room
        waiting past the timeout; ``False`` if it may not (yet)."""
        if self.session is None or not self.session.vote(seat, time.monotonic()):
            return False
        self._wake.set()  # publish it now
        return True

    def wait_longer(self) -> None:
        """This player waits another full timeout before it is asked again."""
        if self.session is not None:
            self.session.wait_longer(time.monotonic())

    async def next_room(self) -> str:
        """Guest: the new room code the host offers after this room's game, once it does.
        Heard on this runner's own connection while it lasts (a broker that takes a
        player's login as its client id, as the sample policy does, lets each player one
        connection at a time), else on one of its own."""
        advert = self.advert
        transport = self.transport
        if advert is None:
            raise TransportError(N_("the connection closed before the host offered a new room"))
        if transport is None or transport.closing:
            return await wait_next_room(self.broker, self.room, advert.host)
        if self._next_topic is None:
            topic = topics.next_room(self.room, presence_id(advert.host))
            self._next_topic = str(topic)
            await transport.subscribe(topic)
        await self._next_heard.wait()
        assert self.next_code is not None
        return self.next_code

    async def offer_next_room(self, old_room: str, code: str, *, confirm: float = 10.0) -> None:
        """Host: offer the players of finished ``old_room`` this room (``code``), on this
        runner's own connection (see :meth:`next_room`; :func:`offer_next_room` says what
        the offer is). :class:`TransportError` if the connection is not up within
        :data:`CONNECT_WAIT` seconds, or the broker has not passed the offer back within
        ``confirm`` seconds."""
        topic, data = next_room_offer(self.identity, old_room, code)
        relayed = self._offer_relayed = asyncio.Event()
        self._offer = (topic, data)
        self._offer_unechoed = 0
        self._offer_kept.doubted = None

        async def connection() -> Transport:
            while self.transport is None:  # the room's connection is being opened
                await asyncio.sleep(0.05)
            await self.transport.wait_connected()
            return self.transport

        try:
            transport = await asyncio.wait_for(connection(), CONNECT_WAIT)
            await transport.subscribe(topic)
            await self._send_offer(transport)
            await asyncio.wait_for(relayed.wait(), confirm)
        except TimeoutError:
            self._offer = None  # not offered: nothing to keep up
            raise TransportError(NOT_PASSED) from None
        except BaseException:
            self._offer = None
            raise

    async def _send_offer(self, transport: Transport) -> None:
        assert self._offer is not None
        topic, data = self._offer
        self._offer_unechoed += 1  # before it can come back
        await transport.publish(topic, data, retain=True)

    def _heard_own_offer(self, payload: bytes) -> None:
        """Host: ``payload`` was heard on the topic of its offer of this room. Anyone on a
        broker without an ACL may publish there: an empty message clearing the offer, or
        anything else in its place, leaves the players of the finished room waiting for
        an offer they never see. The broker passes the topic's messages on in the order
        it took them, so the last heard is what it keeps: anything but the offer, and the
        host publishes it again (:meth:`_restore_offer`)."""
        assert self._offer is not None
        if payload == self._offer[1]:
            self._offer_unechoed = max(0, self._offer_unechoed - 1)
            self._offer_kept.doubted = None
            self._offer_relayed.set()
            return
        self._offer_kept.doubt(time.monotonic())
        self._wake.set()

    @property
    def offers_restored(self) -> int:
        """Host: how many times its offer was published again, something else having taken
        its place on the broker."""
        return self._offer_kept.times

    @property
    def adverts_restored(self) -> int:
        """Host: how many times its advert was published again, likewise."""
        return self._advert_kept.times

    async def _restore_offer(self, transport: Transport, now: float) -> None:
        """Host: publish its offer again if something else took its place (see
        :meth:`_heard_own_offer`) or the broker may have lost it (connected again), once
        its own offer on the way had the time to come back (:meth:`_Kept.due`)."""
        if self._offer is None:
            return
        if not self._offer_kept.due(now, echo_awaited=self._offer_unechoed > 0):
            return
        log.info("room %s: its offer was cleared or replaced: published again", self.room)
        await self._send_offer(transport)

    def say(self, text: str, now: float | None = None) -> bool:
        """A chat line (signed; not part of the game log). False, and nothing sent, when
        the lines come faster than the others would show them (:data:`lb.SAY_BURST`)."""
        if not self._pace.paced(b"", time.monotonic() if now is None else now):
            return False
        self._chat_out.append(text)
        self._wake.set()
        return True

    def stop(self) -> None:
        """Stop taking part here (a host's lobby closes; its game on stays as it is, for
        the host to come back to)."""
        self._stop.set()
        self._wake.set()

    def close(self) -> None:
        """Stop, and, hosting, close the room for good on the way out: the others are told
        so by a signed advert, even in the middle of a game (a guest's :meth:`close` is
        :meth:`stop`)."""
        self._closing = True
        self.stop()

    @property
    def my_seat(self) -> int | None:
        table = self.table
        return None if table is None else table.seat_of(self.identity.player_id)

    @property
    def table(self) -> Table | None:
        if self.session is not None:
            return self.session.table  # whatever the lobby says later
        return None if self.advert is None else self.advert.table

    @property
    def host(self) -> bytes | None:
        """The host's key, once this room's advert was heard (or when hosting)."""
        if self.host_lobby is not None:
            return self.identity.player_id
        return None if self.advert is None else self.advert.host

    @property
    def code(self) -> str:
        """The room code to share: the room id and the host's tag."""
        host = self.host
        return self.room if host is None else lb.room_code(self.room, host)

    def view(self) -> Any:
        seat = self.my_seat
        if self.session is None or seat is None:
            return None
        peer = self.session.peer(seat)
        return None if peer is None else peer.view()

    # -- running ----------------------------------------------------------------------------

    def claim(self) -> None:
        """Take this player's part in the room for this process until :meth:`run` ends
        (a seat, or hosting); raises :class:`~.journal.RoomInUse` while another process
        of the same data dir has it. :meth:`run` claims it if no one did before (a host's
        app claims it first, before its broker and its record)."""
        if self.seated or self.setup is not None:
            try:
                self._lock.acquire()
            except OSError:  # a data dir that takes no file: its journal will say so
                log.warning("no lock on room %s in %s", self.room, self._lock.path, exc_info=True)
            self._claimed = True

    async def run(self) -> None:
        """Connect, take part, and return once the game is over (or :meth:`stop`)."""
        if not self._claimed:
            self.claim()
        try:
            await self._run()
        finally:
            self.unclaim()

    def unclaim(self) -> None:
        """Let this player's part in the room go (:meth:`claim`)."""
        self._lock.release()
        self._claimed = False

    async def _run(self) -> None:
        me = presence_id(self.identity.player_id)
        presence_topic = topics.presence(self.room, me)
        self._presence_topic = presence_topic
        transport = Transport(
            self.broker,
            client_id=client_id(),
            will=(presence_topic, self._will),
            online=(presence_topic, self._presence) if self._announced else None,
            offline=self._offline,
        )
        async with transport:
            self.transport = transport
            await self._say("connection", N_("connected to {broker}"), broker=str(self.broker))
            for topic in (
                topics.lobby_room(self.room),
                topics.presence_all(self.room),
                topics.log(self.room),
                topics.chat(self.room),
                topics.watchers_all(self.room),
                topics.catch_up(self.room),
            ):
                await transport.subscribe(topic)
            if self.host_lobby is not None:
                await self._publish_advert()
                await self._maybe_start()  # a resumed host's game goes on at once
            self._listening_since = time.monotonic()
            reader = asyncio.create_task(self._read(transport), name=f"room:{self.room}")
            try:
                while not self._stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), TICK)
                    self._wake.clear()
                    await self._tick(transport)
                    if self._done():
                        break
            finally:
                await stop_task(reader)
                lobby = self.host_lobby
                if lobby is not None and (lobby.advert.state != lb.PLAYING or self._closing):
                    # tell those in the room it is closed (a newer advert than any they
                    # saw), then take the advert down; a host merely stopping mid-game
                    # (its app closing, to come back) leaves the room as it is
                    lobby.close()
                    closed = lobby.publish()
                    data = lb.sign(
                        self.identity.signing_key, self.room, lb.ADVERT, closed.to_data()
                    )
                    mine = topics.lobby(self.room, me)
                    await transport.publish(mine, data)
                    await transport.clear_retained(mine)

    def _done(self) -> bool:
        if self.finished_at is None:
            return False
        return time.monotonic() - self.finished_at > self.linger

    async def _put(self, kind: str, text: str = "", data: Any = None) -> None:
        await self.events.put(RoomEvent(kind, text, data))

    async def _say(self, kind: str, words: str, data: Any = None, **params: Any) -> None:
        """Report ``kind`` in ``words`` (a message id, marked ``N_``) with ``params``."""
        await self.events.put(RoomEvent.of(kind, words, data, **params))

    def _will(self) -> bytes:
        """The last will of a new connection to the broker (it is about to be made): the
        connection's number, then that this player is offline."""
        self._connection = lb.clock_count(self._connection, per_second=1000, clock=self._clock)
        return self._offline()

    def _offline(self) -> bytes:
        presence = lb.Presence(self.identity.player_id, self.identity.name, lb.OFFLINE)
        return self._signed(presence)

    def _presence(self) -> bytes:
        return self._signed(
            lb.Presence(
                self.identity.player_id,
                self.identity.name,
                lb.ONLINE,
                self.ready,
                self.mark,
                # a bot that plays from this process says so (a host's bots are its own)
                (self.bot_level or "") if self.setup is None else "",
            )
        )

    def _signed(self, presence: lb.Presence) -> bytes:
        """``presence``, stamped for this connection (see :class:`lobby.PresenceStamps`)."""
        stamp = lb.presence_stamp(self._connection, presence.state, self._said)
        presence = replace(presence, stamp=stamp)
        return lb.sign(self.identity.signing_key, self.room, lb.PRESENCE, presence.to_data())

    async def _publish_advert(self) -> None:
        assert self.host_lobby is not None
        self.advert = self.host_lobby.publish()
        data = lb.sign(self.identity.signing_key, self.room, lb.ADVERT, self.advert.to_data())
        await self._send_advert(data)
        await self._put("advert", data=self.advert)

    async def _send_advert(self, data: bytes) -> None:
        assert self.transport is not None
        self._advert_data = data
        self._advert_sent.append(data)  # before it can come back
        await self.transport.publish(self._advert_topic, data, retain=True)

    @property
    def _advert_topic(self) -> topics.Topic:
        return topics.lobby(self.room, presence_id(self.identity.player_id))

    def _heard_own_advert(self, payload: bytes) -> None:
        """Host: ``payload`` was heard on its own advert topic. The broker passes a topic's
        messages on in the order it took them, so what comes after the host's newest advert
        is what it keeps there now: anything but that advert (an empty message clearing
        it, an impostor's, an old one of the host's sent again) hides the room from those
        who look, and the host publishes its advert again (:meth:`_restore_advert`)."""
        if payload in self._advert_sent:  # the broker passing the host's own back
            while self._advert_sent.popleft() != payload:
                pass  # older ones whose echo was lost
            if payload == self._advert_data:
                self._advert_kept.doubted = None
            return
        if payload == self._advert_data and not self._advert_sent:
            self._advert_kept.doubted = None  # what the broker keeps, heard on reconnecting
            return
        self._advert_kept.doubt(time.monotonic())
        self._wake.set()

    async def _restore_advert(self, now: float) -> None:
        """Host: publish its advert again if something else took its place (see
        :meth:`_heard_own_advert`) or the broker may have lost it (connected again), once
        its own newer adverts had the time to come back (:meth:`_Kept.due`)."""
        if not self._advert_data:
            return
        if not self._advert_kept.due(now, echo_awaited=bool(self._advert_sent)):
            return
        log.info("room %s: its advert was cleared or replaced: published again", self.room)
        await self._send_advert(self._advert_data)

    async def _read(self, transport: Transport) -> None:
        async for message in transport.messages():
            try:
                await self._handle(message)
            except ProtocolError:
                # bytes anyone may have written (a lobby, presence or chat topic): they
                # prove nothing about anyone, so they are counted, never kept or shown
                self.ignored += 1
            except Exception as exc:  # never let one message take the room down
                log.exception("room %s: message on %s", self.room, message.topic)
                await self._say("incident", N_("ignored a message: {error}"), error=repr(exc)[:180])

    async def _handle(self, message: Message) -> None:
        topic = message.topic
        if topic == str(topics.log(self.room)):
            self.log_messages += 1
            self.log_bytes += len(message.payload)
            if self.session is not None:
                self.session.receive(message.payload, time.monotonic())
                await self._after_session()
            return
        if self.host_lobby is not None and topic == str(self._advert_topic):
            self._heard_own_advert(message.payload)
            return
        if self._offer is not None and topic == str(self._offer[0]):
            self._heard_own_offer(message.payload)
            return
        if not message.payload:
            return  # a cleared retained message: the room is not gone for that
        if topic.startswith(str(topics.lobby_room(self.room))[:-1]):
            await self._on_advert(topic, message.payload)
        elif topic.startswith(str(topics.presence_all(self.room))[:-1]):
            envelope = lb.read(message.payload, self.room, lb.PRESENCE)
            presence = lb.Presence.from_envelope(envelope)
            if presence_id(presence.player) != topic.rsplit("/", 1)[-1]:
                return  # a presence must sit on its own player's topic
            if not self._remember_online(presence):
                self.stale_presences += 1  # older than the player's latest: a replay
                return
            hosting = self.host_lobby is not None and presence.player != self.identity.player_id
            if hosting and self.host_lobby is not None and self.host_lobby.presence(presence):
                await self._publish_advert()
            await self._put("presence", data=presence)
        elif topic.startswith(str(topics.watchers_all(self.room))[:-1]):
            # a spectator's word about itself: counted (bounded), never part of the game
            watcher, _name, watching = read_watch(message.payload, self.room)
            if presence_id(watcher) != topic.rsplit("/", 1)[-1]:
                return
            self.watchers.heard(watcher, watching, time.monotonic())
            await self._count_watchers()
        elif topic == str(topics.catch_up(self.room)):
            # answered on the backlog topic, which no seat reads: the log is untouched
            self.backlog.ask(read_catch_up(message.payload, self.room))
        elif topic == self._next_topic:
            assert self.advert is not None
            self.next_code = check_next_room(message.payload, self.room, self.advert.host)
            self._next_heard.set()
        elif topic == str(topics.chat(self.room)):
            envelope = lb.read(message.payload, self.room, lb.CHAT)
            number, line = lb.read_chat(envelope)
            taken = self.advert.taken if self.advert else ()
            players = [s.player for s in taken]
            # two Anns: told apart as the seats are
            shown = distinct_names([s.name for s in taken], players)
            names = dict(zip(players, shown, strict=True))
            name = names.get(envelope.sender)
            if name is None:
                return  # only the room's players talk here
            own = envelope.sender == self.identity.player_id
            if not self._chat_gate.admit(envelope.sender, number, time.monotonic(), own=own):
                return  # sent again by someone, or one line too many
            self.chat.append((name, line))
            del self.chat[:-MAX_CHAT]
            await self._put("chat", f"{name}: {line}", (name, line))

    async def _count_watchers(self) -> None:
        count = self.watchers.count(time.monotonic())
        if count != self._watching:
            self._watching = count
            await self._put("watchers", data=count)

    async def _answer_watchers(self, transport: Transport) -> None:
        session = self.session
        if session is None:
            return
        votes = session.standing_votes()
        for data in self.backlog.due(session.peers[0], time.monotonic(), votes):
            await transport.publish(topics.backlog(self.room), data)

    async def _on_advert(self, topic: str, payload: bytes) -> None:
        """An advert of this room: believed only from its host, on its host's topic, newer
        than the last one, and before the game starts (once it is on, only the news that
        its host closed the room); anything else changes nothing."""
        if self.host_lobby is not None or self.refused is not None or self.closed_by_host:
            return  # a host trusts itself; a refused table, or a closed room, is the end
        heard = lb.hear_advert(topic, payload, self.room, self.host_tag, self.advert)
        stranger, advert = heard.stranger, heard.advert
        if stranger is not None and stranger not in self.noted and len(self.noted) < MAX_NOTED:
            self.noted.add(stranger)
            await self._say(
                "incident",
                N_(
                    "ignored an advert for room {room} signed by another key ({key}) than "
                    "its host's"
                ),
                room=self.room,
                key=fingerprint(stranger),
            )
        if advert is None:
            return
        if self.game is not None and advert.game != self.game:
            # not the game this player came for: it leaves before it has said it is here
            self.wrong_game = advert
            self.finished_at = time.monotonic()
            await self._say(
                "wrong-game",
                N_("room {room} plays {game}, not {wanted}"),
                advert,
                room=self.code,
                game=advert.game,
                wanted=self.game,
            )
            self.stop()
            return
        if not self._announced and self.transport is not None:
            self._announced = True  # the right game: now this player takes its seat
            await self.transport.set_online(self._presence, topic=self._presence_topic)
        if self.session is not None:
            # a game on has its table already: only its host closing the room is news
            if heard.closing:
                self.closed_by_host = True
                self.finished_at = time.monotonic()  # nothing more to play: go, after linger
                await self._say(
                    "closed", N_("{host} closed the room"), advert, host=advert.host_name
                )
            return
        self.advert = advert
        self.absent = False
        if self.agreed is None and self.ready and self.seated:
            self.agreed = advert.terms  # a bot (or a seatless watcher) agrees to what it sees
        elif self.agreed is not None and advert.table is None and advert.terms != self.agreed:
            # the host changed the room's settings: what was agreed no longer holds
            self.set_ready(False)
            await self._say(
                "incident", N_("the host changed the room's settings: not ready any more")
            )
        await self._put("advert", data=self.advert)
        await self._maybe_start()

    def _remember_online(self, presence: lb.Presence) -> bool:
        """Note what ``presence`` says; ``False`` if it is older than what its player said
        since (replayed: see :class:`lobby.PresenceStamps`), and believed in nothing."""
        # anyone may post a presence: a stranger's are kept only while there is room
        seated = self.advert is not None and any(
            s.player == presence.player for s in self.advert.taken
        )
        if seated or presence.player in self.online or len(self.online) < MAX_STRANGERS:
            if not self._stamps.fresh(presence):
                return False
            self.online[presence.player] = presence.state == lb.ONLINE
        if len(self.online) >= MAX_STRANGERS:
            players = {s.player for s in self.advert.taken} if self.advert else set()
            for player in [p for p in self.online if p not in players][: MAX_STRANGERS // 2]:
                del self.online[player]
                self._stamps.forget(player)
        return True

    async def _refuse(self, error: lb.TableRefused) -> None:
        self.refused = error
        self.finished_at = time.monotonic()
        await self._put("refused", str(error), error)

    def _check_table(self, table: Table, mine: list[Identity]) -> None:
        """Raise :class:`~cakeparty.protocol.lobby.TableRefused` if this player may not
        start ``table``: not the one its lobby showed and it agreed to, or played before."""
        advert = self.advert
        assert advert is not None
        me = self.identity.player_id
        resuming = jn.journal_path(table, me, self.journal_dir).exists()
        # a journal of this table means this player checked and started it before
        if self.host_lobby is None and self.seated and not resuming:
            if not self.ready or self.agreed is None:
                raise lb.TableRefused(
                    N_("the table came before this player said ready"), peer=advert.host
                )
            lb.check_table(advert, self.agreed, self.identity.player_id, self.mark)
        digest = table.digest()
        for ident in mine:
            fresh = not jn.journal_path(table, ident.player_id, self.journal_dir).exists()
            if fresh and jn.played(digest, ident.player_id, self.journal_dir):
                raise lb.TableRefused(N_("this table was played before"), peer=advert.host)

    async def _maybe_start(self) -> None:
        table = self.table
        if (
            table is None
            or self.session is not None
            or self.refused is not None
            or self.journal_failed is not None
        ):
            return
        mine = (
            [self.identity]
            if self.seated and table.seat_of(self.identity.player_id) is not None
            else []
        )
        mine += [
            ident for ident, _ in self.bots.values() if table.seat_of(ident.player_id) is not None
        ]
        if not mine:
            if self.seated:
                await self._say("error", NOT_SEATED)
                self.finished_at = time.monotonic()
            return
        try:
            self._check_table(table, mine)
        except lb.TableRefused as exc:
            await self._refuse(exc)
            return
        # nobody here to ask when a seat is overdue: a bot process, or a host of bots only
        headless = self.bot_level is not None or not self.seated
        try:
            self.session = GameSession(
                table,
                mine,
                journal_dir=self.journal_dir,
                now=time.monotonic(),
                headless=headless,
                clock=self._clock,
            )
        except (OSError, ProtocolError) as exc:
            # this player's own record of the game (its seat's secrets are in it): a disk
            # that would not take its first records, or a journal that no longer reads.
            # Nobody else's doing, and no message from the room mends it: said once
            log.warning("room %s: the journal of this game: %s", self.room, exc)
            self.journal_failed = str(exc)
            self.finished_at = time.monotonic()
            problem = JOURNAL_UNWRITABLE if isinstance(exc, OSError) else JOURNAL_UNREADABLE
            await self._say("error", problem, exc)
            return
        for ident in mine:
            try:
                jn.mark_played(table.digest(), ident.player_id, self.journal_dir)
            except OSError as exc:  # the journal, kept now, guards the table meanwhile
                log.warning("room %s: the played list cannot be written: %s", self.room, exc)
        await self._put("started", data=table)
        await self._after_session()

    async def _after_session(self) -> None:
        session = self.session
        assert session is not None and self.transport is not None
        await self._play_bots(session, time.monotonic())
        while session.outbox:
            batch, session.outbox[:] = list(session.outbox), []
            for data in batch:
                await self.transport.publish(topics.log(self.room), data)
        moved = (session.seq, session.waiting_for)
        if moved != self._last_moved:
            self._last_moved = moved
            await self._put("moved")
        stalled = session.stalled
        said = None if stalled is None else f"{stalled.strerror} ({stalled.filename})"
        if said != self._stalled:
            self._stalled = said
            await self._put("disk", said or "", stalled)
        incidents = [*session.incidents, *(i for p in session.peers for i in p.incidents)]
        for incident in incidents[self._incidents_seen :]:
            await self._put("incident", str(incident), incident)
        self._incidents_seen = len(incidents)
        if session.finished and self.finished_at is None:
            self.finished_at = time.monotonic()
            await self._put("finished", data=session)

    async def _tick(self, transport: Transport) -> None:
        now = time.monotonic()
        since = self._listening_since
        if (
            self.advert is None
            and not self.absent
            and since is not None
            and now - since > NO_ROOM_AFTER
        ):
            self.absent = True  # said once; the room may still come (its host resuming)
            await self._say(
                "absent", N_("no room {room} on {broker}"), room=self.code, broker=str(self.broker)
            )
        if transport.connected != self._was_connected:
            self._was_connected = transport.connected
            if transport.connected:
                await self._say(
                    "connection", N_("reconnected to {broker}"), True, broker=str(self.broker)
                )
                if self.session is not None:
                    self.session.sync(now)  # ask for what passed while away
            else:
                await self._say("connection", N_("connection lost, reconnecting…"), False)
        if self._presence_changed and self._announced:
            self._presence_changed = False
            self._said += 1  # (ready, or not): news, after all said before it
            await transport.set_online(self._presence)
            if self.host_lobby is not None and self.seated:
                me = lb.Seat(self.identity.player_id, self.identity.name, False, self.ready)
                self.host_lobby.seat(me, mark=self.mark)
                await self._publish_advert()
        if self._advert_changed and self.host_lobby is not None:
            self._advert_changed = False
            await self._publish_advert()
        if self.host_lobby is not None:
            if transport.connections > self._connections:
                # connected again: a broker started anew may have lost what it kept
                self._advert_kept.doubt(now)
                if self._offer is not None:
                    self._offer_kept.doubt(now)
            self._connections = transport.connections
            await self._restore_advert(now)
            await self._restore_offer(transport, now)
        await self._count_watchers()  # those not heard for a while are gone
        await self._answer_watchers(transport)
        while self._chat_out:
            line = self._chat_out.pop(0)
            # numbered by the clock, so they grow across a restart too (see ChatGate)
            self._chat_number = lb.clock_count(self._chat_number, clock=self._clock)
            body = lb.chat_body(self._chat_number, line)
            data = lb.sign(self.identity.signing_key, self.room, lb.CHAT, body)
            await transport.publish(topics.chat(self.room), data)
        lobby = self.host_lobby
        if (
            lobby is not None
            and self.session is None
            and lobby.advert.state == lb.OPEN
            and lobby.ready
        ):
            lobby.start()
            await self._publish_advert()
            await self._maybe_start()
        session = self.session
        if session is None:
            return
        table = session.table
        session.tick(now, self._offline_seats(table))
        await self._after_session()

    def _offline_seats(self, table: Table) -> frozenset[int]:
        """The seats whose player said it is offline (its last will); a bot that says
        nothing of itself is run by its host, and gone when the host is."""
        host = self.host
        host_gone = host is not None and self.online.get(host) is False
        bots = {s.player for s in self.advert.taken if s.bot} if self.advert else set()
        return frozenset(
            seat
            for seat, player in enumerate(table.players)
            if self.online.get(player) is False
            or (host_gone and player in bots and player not in self.online)
        )

    async def _play_bots(self, session: GameSession, now: float) -> None:
        """Let the bots run here make the moves the room waits for. A bot that searches
        thinks in a thread, so the event loop (an app's screen with it) goes on meanwhile;
        its move is made only if the game is still where it was when it began."""
        moved_on = False  # a searching bot thought: the views below may be stale
        for peer, view in session.due():
            player = peer.identity.player_id
            if player == self.identity.player_id:
                if self.bot_level is None:
                    continue  # a person plays this seat
                if self._own_bot is None:
                    game = get_game(session.table.game)
                    self._own_bot = make_bot(game, self.bot_level, self.bot_think)
                bot, searching = self._own_bot, self.bot_level == SEARCH_LEVEL
            elif player in self.bots:
                bot, searching = self.bots[player][1], player in self._searching
            else:
                continue
            if peer.seat in self._deciding:
                continue
            due = self._bot_due.setdefault(peer.seat, now + self.bot_delay)
            if now < due:
                continue
            del self._bot_due[peer.seat]
            if moved_on and not self._still_due(session, peer, view):
                continue
            try:
                if searching:
                    self._deciding.add(peer.seat)
                    try:
                        action = await asyncio.to_thread(bot, view, self.rng)
                    finally:
                        self._deciding.discard(peer.seat)
                    moved_on = True
                    if not self._still_due(session, peer, view):
                        continue  # the room moved on while it thought: it is asked again
                else:
                    action = bot(view, self.rng)
                peer.act(action)  # the peer checks it: what it refuses is not made
                continue
            except Exception as exc:  # a bot bug, or a move its seat refuses: it must not
                # stop the room, nor stall it
                log.exception("bot at seat %s", peer.seat)
                problem = f"{type(exc).__name__}: {exc}"
            legal = peer.game.legal_actions(peer.state, peer.seat)
            if not legal:
                continue  # nothing it may do now: the room asks again
            # the bot plays at random this once, as a local game's does
            self.events.put_nowait(
                RoomEvent.of(
                    "stumbled",
                    N_("the bot in seat {seat} plays at random this once: {problem}"),
                    (peer.seat, problem),
                    seat=peer.seat + 1,
                    problem=problem,
                )
            )
            try:
                peer.act(self.rng.choice(legal))
            except Exception as exc:  # a bug of this app's own: said, the room goes on
                log.exception("bot at seat %s", peer.seat)
                self.events.put_nowait(
                    RoomEvent.of("incident", N_("bot error: {error}"), error=str(exc)[:180])
                )

    def _still_due(self, session: GameSession, peer: Any, view: Any) -> bool:
        """Is ``peer``'s move still awaited from the very ``view`` its bot was shown?"""
        return self.session is session and any(p is peer and v == view for p, v in session.due())


@dataclass(frozen=True)
class Listed:
    """A room advertised on a broker, and whether its host's own last word there is that
    it went offline (its app gone without closing the room: its advert stays)."""

    advert: lb.Advert
    host_away: bool = False


@dataclass(frozen=True)
class Listing:
    """What :func:`list_rooms` heard on a broker: ``rooms``, and ``cut``: whether more
    rooms were advertised there than :data:`MAX_ROOMS` (those left out were not listed; a
    room looked for by its code is listed all the same). It iterates as its rooms."""

    rooms: tuple[Listed, ...] = ()
    cut: bool = False

    def __iter__(self) -> Iterator[Listed]:
        return iter(self.rooms)

    def __len__(self) -> int:
        return len(self.rooms)


#: A secret of this process by which the adverts of a crowded broker are kept: past
#: MAX_ROOMS, the rooms listed are those whose topics rank first. A broker sends retained
#: adverts in an order that follows their topics, which anyone may pick, so keeping the
#: first ones heard would let a stranger's adverts come first and crowd every other room
#: out; nobody can tell which topics rank first here, so a flood leaves each room its
#: share of the list, and the same rooms are listed on every look.
_RANK_KEY = secrets.token_bytes(16)


def _rank(topic: str) -> int:
    digest = hashlib.blake2b(topic.encode(), key=_RANK_KEY, digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _host_of(topic: str) -> tuple[str, str]:
    """The room and the host's player id of the advert topic ``topic`` (one checked)."""
    parts = topic.split("/")
    return parts[-2], parts[-1]


def _advert_on(topic: str, room: str, payload: bytes) -> lb.Advert | None:
    """The advert ``payload`` on ``topic``, if it is a signed advert of ``room`` sitting on
    its own host's topic."""
    try:
        advert = lb.Advert.from_envelope(lb.read(payload, room, lb.ADVERT))
    except ProtocolError:
        return None
    return advert if topics.lobby_host(topic) == presence_id(advert.host) else None


async def list_rooms(
    broker: BrokerAddress, seconds: float = 1.5, *, wanted: Sequence[str] = ()
) -> Listing:
    """The rooms advertised on ``broker`` (their retained adverts), open ones first, those
    whose host is away after the others: :data:`MAX_ROOMS` at most, and the rooms
    ``wanted`` (codes, or bare room ids) besides, read on their own topics first, so that
    no number of other adverts crowds them out (of a bare id, :data:`MAX_CLAIMS` hosts).
    Presences are read alongside (after the adverts: a broker sends what it keeps in the
    order of the subscriptions), :data:`MAX_PRESENCE_BYTES` at most each, and count only
    signed by the host itself on its own topic. Anyone may post presences, as many as they
    like: the presence of a listed room's host is always kept; of the others, heard before
    their room's advert, :data:`MAX_PRESENCES` at most, those that rank first as their
    rooms' adverts would."""
    looked_for = dict(lb.parse_code(code) for code in wanted)  # room id → host tag
    kept: dict[str, lb.Advert] = {}  # topic → advert: the rooms listed, MAX_ROOMS at most
    worst: list[tuple[int, str]] = []  # (-rank, topic) of those kept: the last to go first
    claims: dict[str, lb.Advert] = {}  # topic → advert of a room wanted
    cut = False
    # (room, player id) → the payload: the presences of the listed rooms' hosts, and of
    # others ranked as the adverts are (MAX_PRESENCES at most; the last to go first)
    presences: dict[tuple[str, str], bytes] = {}
    others: dict[tuple[str, str], bytes] = {}
    worst_others: list[tuple[int, tuple[str, str]]] = []

    def newer(have: lb.Advert | None, topic: str, room: str, payload: bytes) -> lb.Advert | None:
        advert = _advert_on(topic, room, payload)
        if advert is None or (have is not None and have.serial >= advert.serial):
            return None
        return advert

    def claim(topic: str, room: str, payload: bytes) -> bool:
        """Keep an advert of a room wanted; ``False`` if it is none the code names (or one
        host too many of a bare id): it is then a room like any other."""
        advert = _advert_on(topic, room, payload)
        if advert is None:
            return True  # nothing, on a topic of a room wanted
        tag = looked_for[room]
        if tag is not None and lb.host_tag(room, advert.host) != tag:
            return False
        have = claims.get(topic)
        hosts = sum(1 for a in claims.values() if a.room == room)
        if have is None and tag is None and hosts >= MAX_CLAIMS:
            return False
        if have is None or have.serial < advert.serial:
            claims[topic] = advert
        return True

    def listing(topic: str, room: str, payload: bytes) -> None:
        nonlocal cut
        if topic in kept:
            advert = newer(kept[topic], topic, room, payload)
            if advert is not None:
                kept[topic] = advert
            return
        rank = _rank(topic)
        if len(kept) >= MAX_ROOMS and rank >= -worst[0][0]:
            cut = True  # not checked: it would not be kept
            return
        advert = newer(None, topic, room, payload)
        if advert is None:
            return
        if len(kept) >= MAX_ROOMS:
            cut = True
            gone = heapq.heappop(worst)[1]
            del kept[gone]
            if gone not in claims:
                presences.pop(_host_of(gone), None)
        kept[topic] = advert
        heapq.heappush(worst, (-rank, topic))

    def presence(whose: tuple[str, str], payload: bytes) -> None:
        if len(payload) > MAX_PRESENCE_BYTES:
            return
        advert_topic = str(topics.lobby(*whose))  # where its room's advert is, if any
        if advert_topic in kept or advert_topic in claims:
            presences[whose] = payload  # a listed room's host: no flood crowds it out
            return
        if whose in others:
            others[whose] = payload
            return
        rank = _rank(advert_topic)
        if len(others) >= MAX_PRESENCES:
            if rank >= -worst_others[0][0]:
                return
            del others[heapq.heappop(worst_others)[1]]
        others[whose] = payload
        heapq.heappush(worst_others, (-rank, whose))

    async with Transport(broker, client_id=client_id()) as t:
        for room in looked_for:  # first: their adverts come before any flood of others
            await t.subscribe(topics.lobby_room(room))
        await t.subscribe(topics.lobby_all())
        await t.subscribe(topics.presence_every())

        async def collect() -> None:
            async for message in t.messages():
                if not message.payload:
                    continue
                whose = topics.presence_of(message.topic)
                if whose is not None:
                    presence(whose, message.payload)
                    continue
                room = topics.room_of(message.topic)
                if room is None or topics.lobby_host(message.topic) is None:
                    continue
                if room in looked_for and claim(message.topic, room, message.payload):
                    continue
                if message.topic not in claims:
                    listing(message.topic, room, message.payload)

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(collect(), seconds)

    def away(advert: lb.Advert) -> bool:
        whose = (advert.room, presence_id(advert.host))
        payload = presences.get(whose, others.get(whose))
        if payload is None:
            return False
        try:
            presence = lb.Presence.from_envelope(lb.read(payload, advert.room, lb.PRESENCE))
        except ProtocolError:
            return False  # a stranger's bytes on the host's topic say nothing of the host
        return presence.player == advert.host and presence.state == lb.OFFLINE

    listed = [Listed(advert, away(advert)) for advert in (*claims.values(), *kept.values())]
    order = {lb.OPEN: 0, lb.PLAYING: 1, lb.CLOSED: 2}
    listed.sort(key=lambda r: (r.host_away, order.get(r.advert.state, 3), r.advert.room))
    return Listing(tuple(listed), cut)


def bot_identity(name: str, seed: bytes) -> Identity:
    """A throwaway identity (tests and self-play)."""
    return Identity.generate(name, seeded_random_bytes(seed))


# -- play again ------------------------------------------------------------------------------

NEXT_ROOM = "next-room"  # a lobby message: the host's new room, for the same people
#: an offer of the next room the broker did not pass back to its host
NOT_PASSED = N_("the broker did not pass the offer of the new room on")


def check_next_room(envelope_data: bytes, room: str, host: bytes) -> str:
    """The new room code in a "next room" message of ``room``, if it is one its host
    signed and the code names that same host; :class:`ProtocolError` otherwise. A stranger
    cannot send the players elsewhere: the signature and the code's host tag must both be
    the host's."""
    envelope = lb.read(envelope_data, room, NEXT_ROOM)
    if envelope.sender != host:
        raise ProtocolError(
            N_("a next room offered by someone other than the host"), peer=envelope.sender
        )
    code = envelope.body
    if not isinstance(code, str) or len(code) > 64:
        raise ProtocolError(N_("a next room that is no room code"), peer=host)
    try:
        new_room, tag = lb.parse_code(code)
    except ValueError:
        raise ProtocolError(N_("a next room that is no room code"), peer=host) from None
    if tag is None or tag != lb.host_tag(new_room, host) or new_room == room:
        raise ProtocolError(N_("a next room hosted by someone else"), peer=host)
    return lb.room_code(new_room, host)


async def offer_next_room(
    broker: BrokerAddress, identity: Identity, room: str, code: str, *, confirm: float = 10.0
) -> None:
    """Host: offer the players of finished ``room`` the new room ``code`` — a signed
    message kept (retained) on the old room's topic, so a player who looks later sees it
    too. It returns once the broker has relayed the offer back to the host itself (an
    acknowledged publish is not proof that a broker passes it on); :class:`TransportError`
    if that takes more than ``confirm`` seconds."""
    topic, data = next_room_offer(identity, room, code)
    async with Transport(broker, client_id=client_id()) as transport:
        await transport.subscribe(topic)
        await transport.publish(topic, data, retain=True)

        async def relayed() -> None:
            async for message in transport.messages():
                if message.topic == topic.value and message.payload == data:
                    return

        try:
            await asyncio.wait_for(relayed(), confirm)
        except TimeoutError:
            raise TransportError(NOT_PASSED) from None


def next_room_offer(identity: Identity, room: str, code: str) -> tuple[topics.Topic, bytes]:
    """The host ``identity``'s offer of the new room ``code`` to the players of ``room``:
    where it is kept (retained), and the signed message."""
    data = lb.sign(identity.signing_key, room, NEXT_ROOM, code)
    return topics.next_room(room, presence_id(identity.player_id)), data


async def wait_next_room(broker: BrokerAddress, room: str, host: bytes) -> str:
    """Guest: the new room code ``host`` offers after ``room``, once it does (anything
    else on that topic is ignored)."""
    async with Transport(broker, client_id=client_id()) as transport:
        await transport.subscribe(topics.next_room(room, presence_id(host)))
        async for message in transport.messages():
            with contextlib.suppress(ProtocolError, ValueError):
                return check_next_room(message.payload, room, host)
    raise TransportError(N_("the connection closed before the host offered a new room"))

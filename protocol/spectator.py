"""Spectators: following a room with no seat, and the seats' side of being watched.

A spectator is a peer with no seat (:class:`Spectator`): it checks every envelope of the
room log as a seat does (signature, seat, hash chain, proofs, legality) and applies the
public steps to its own state, which holds only what everyone may know — it has no game
key, so no share it sees opens a card dealt to a seat. After the game every seat
publishes its game secret; the spectator then runs the same audit and holds the game
replayed face up.

A spectator never writes on the room log. It says it is watching on its own retained
``watchers`` topic (its last will says it is gone), and, when it is behind (joined late,
or missed messages), it asks on the ``catchup`` topic for the log from the step it is
at. The seats answer on ``backlog``, a topic only spectators read: each answer is
envelopes already in the log, each signed by its author, so the spectator checks them
against the chain like any other; nothing a spectator sends can enter the log or change
the game, since the seats never feed those topics to their peers.

Anyone may pretend to be a spectator. What a flood of them can cost a seat is bounded:
the watcher count keeps at most :data:`MAX_WATCHERS` keys, each forgotten when it has
not been heard for :data:`WATCHER_TTL` seconds; and the seats' answers to catch-up
requests go out at most once per :data:`ANSWER_EVERY` seconds in all, however many ask,
each at most :data:`MAX_BACKLOG_BYTES` long.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import game_names
from cakeparty.core.errors import CakePartyError
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import PUBLIC
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import steps as st
from cakeparty.protocol import topics
from cakeparty.protocol.codec import Envelope, decode, expect_int, expect_name, expect_str
from cakeparty.protocol.errors import MalformedMessage, ProtocolError
from cakeparty.protocol.events import Event
from cakeparty.protocol.identity import Identity, fingerprint
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.session import Abandonment
from cakeparty.protocol.table import Table
from cakeparty.protocol.topics import presence_id
from cakeparty.protocol.transport import BrokerAddress, Message, Transport, stop_task
from cakeparty.protocol.votes import Vote, agreed, take_vote

log = logging.getLogger(__name__)

WATCH = "watch"  # a spectator's retained word about itself: watching, or gone
CATCH_UP = "catch-up"  # a spectator asks for the log from a step on
WATCHING, GONE = "watching", "gone"

MAX_WATCHERS = 256  # keys counted at most (the count then says "at least")
WATCHER_TTL = 45.0  # seconds a watcher counts without being heard again (heartbeat: 10 s)
ANSWER_EVERY = 2.0  # seconds between two catch-up answers of one session, for everyone
MAX_BACKLOG_BYTES = 1024 * 1024  # one catch-up answer (at least one envelope)
NUDGE = 2.0  # seconds without progress before a spectator asks again
TICK = 0.25
GRACE = 1.0  # seconds to stay after the audit, for the last words


def watch_message(identity: Identity, room: str, state: str = WATCHING) -> bytes:
    """A spectator's signed word about itself in ``room``."""
    return lb.sign(identity.signing_key, room, WATCH, {"name": identity.name, "state": state})


def read_watch(data: bytes, room: str) -> tuple[bytes, str, bool]:
    """The sender, name and whether it is watching, of a ``watch`` message of ``room``;
    :class:`~cakeparty.protocol.errors.ProtocolError` for anything else."""
    envelope = lb.read(data, room, WATCH)
    body = envelope.body
    if not isinstance(body, dict) or set(body) != {"name", "state"}:
        raise MalformedMessage(N_("not a watch message"), peer=envelope.sender)
    state = expect_str(body["state"], "state")
    if state not in (WATCHING, GONE):
        raise MalformedMessage(N_("a watcher is watching or gone"), peer=envelope.sender)
    return envelope.sender, expect_name(body["name"]), state == WATCHING


def catch_up_message(identity: Identity, room: str, seq: int) -> bytes:
    """A spectator's request for the log of ``room`` from step ``seq`` on."""
    return lb.sign(identity.signing_key, room, CATCH_UP, {"from": seq})


def read_catch_up(data: bytes, room: str) -> int:
    """The step a catch-up request of ``room`` asks from."""
    envelope: Envelope = lb.read(data, room, CATCH_UP)
    body = envelope.body
    if not isinstance(body, dict) or set(body) != {"from"}:
        raise MalformedMessage(N_("not a catch-up request"), peer=envelope.sender)
    return expect_int(body["from"], "from", 0, 2**31)


class Watchers:
    """How many are watching a room, as a seat counts them: distinct keys, bounded."""

    def __init__(self, *, cap: int = MAX_WATCHERS, ttl: float = WATCHER_TTL) -> None:
        self.cap = cap
        self.ttl = ttl
        self._seen: dict[bytes, float] = {}  # watcher -> when last heard watching

    def heard(self, watcher: bytes, watching: bool, now: float) -> None:
        """A watcher's word about itself (checked by :func:`read_watch`)."""
        if not watching:
            self._seen.pop(watcher, None)
            return
        if watcher in self._seen or len(self._seen) < self.cap:
            self._seen[watcher] = now

    def expire(self, now: float) -> None:
        """Forget the watchers not heard from for :attr:`ttl` seconds."""
        for watcher in [w for w, at in self._seen.items() if now - at > self.ttl]:
            del self._seen[watcher]

    def count(self, now: float) -> int:
        self.expire(now)
        return len(self._seen)

    @property
    def capped(self) -> bool:
        """The count is only a lower bound: more keys came than are kept."""
        return len(self._seen) >= self.cap


class Backlog:
    """A session's answers to spectators' catch-up requests: at most one per
    :data:`ANSWER_EVERY` seconds, whoever asks, from the lowest step asked since."""

    def __init__(self, *, every: float = ANSWER_EVERY, limit: int = MAX_BACKLOG_BYTES) -> None:
        self.every = every
        self.limit = limit
        self._asked: int | None = None
        self._answered_at = -1e9

    def ask(self, seq: int) -> None:
        self._asked = seq if self._asked is None else min(self._asked, seq)

    def due(self, peer: Peer, now: float, votes: Sequence[bytes] = ()) -> list[bytes]:
        """The envelopes to send now (none if nobody asked, or it is too soon), and the
        seats' standing ``votes`` to end the game, if any."""
        asked = self._asked
        if asked is None or now - self._answered_at < self.every:
            return []
        self._asked = None
        if asked > peer.seq:
            return []  # ahead of us: nothing to tell
        self._answered_at = now
        out: list[bytes] = []
        size = 0
        for data in peer.envelopes_since(asked):
            if size and size + len(data) > self.limit:
                break  # the spectator, further on, asks again for the rest
            size += len(data)
            out.append(data)
        return out + list(votes)


def hidden_cards(peer: Peer, state: Any | None = None) -> list[int]:
    """The slots whose identity ``state`` (default: the peer's) holds although not every
    one may know it: a spectator's state must have none."""
    knowledge = peer.game.knowledge(peer.state if state is None else state)
    return [
        slot
        for slot, (card, mask) in enumerate(zip(knowledge.cards, knowledge.known_by, strict=True))
        if card is not None and not mask & PUBLIC
    ]


class Spectator:
    """A room followed without a seat: the log checked and applied, public steps only.

    Like :class:`~cakeparty.protocol.session.GameSession` it has no clock or network of
    its own: the caller hands it every message of the log and backlog topics and the time
    now, and sends what :meth:`request` returns on the catch-up topic."""

    def __init__(self, table: Table, identity: Identity, *, now: float = 0.0) -> None:
        self.table = table
        self.identity = identity
        self.peer = Peer(table, identity, watching=True)
        self.votes: dict[int, Vote] = {}  # each seat's standing vote to end the game
        self.abandoned: Abandonment | None = None
        #: seat → the table digest its first envelope follows, when not this table's
        self.elsewhere: dict[int, bytes] = {}
        #: every seat began the game from one other table than this one (the host's
        #: advert showed the spectator another table than its players play)
        self.misled = False
        self.messages = 0
        self.bytes = 0
        self._seq = 0
        self._moved_at = now
        self._asked_at: float | None = None

    @property
    def seq(self) -> int:
        return self.peer.seq

    @property
    def finished(self) -> bool:
        return self.peer.finished or self.abandoned is not None or self.misled

    @property
    def behind(self) -> bool:
        """It holds envelopes for later steps: it missed some."""
        return bool(self.peer.future)

    def receive(self, data: bytes, now: float) -> None:
        """A message from the log or backlog topic. Never raises."""
        self.messages += 1
        self.bytes += len(data)
        try:
            envelope = decode(data)
        except ProtocolError:
            self.peer.ignored += 1
            return
        seat = self.table.seat_of(envelope.sender)
        if envelope.kind == lb.ABANDON:
            if seat is not None and envelope.room == self.table.room:
                vote = take_vote(self.votes.get(seat), envelope, seat, self.table.seats, data)
                if vote is not None:
                    self.votes[seat] = vote
        elif envelope.seq == 0 and seat is not None and not self._first(envelope, seat):
            self.peer.ignored += 1  # a first step from another table: no evidence here
            return
        else:
            self.peer.accept(envelope)
        self._settle()
        if self.peer.seq != self._seq:
            self._seq = self.peer.seq
            self._moved_at = now

    def _first(self, envelope: Envelope, seat: int) -> bool:
        """Whether a seat's envelope of the game's first step follows this table (else
        it is noted, and no evidence against the seat: the spectator may be the one shown
        the wrong table). Once every seat has begun from one other table, the table this
        spectator was shown is not the one played: the host's signed advert misled it
        (a stranger cannot: it takes every seat's signature on one other table of this
        very room, and the seats' own peers refuse a table played before)."""
        table = self.table
        if envelope.kind not in st.KINDS or envelope.room != table.room or self.peer.seq:
            return True
        if envelope.prev == table.digest():
            return True
        self.elsewhere.setdefault(seat, envelope.prev)
        others = set(self.elsewhere.values())
        self.misled = len(self.elsewhere) == table.seats and len(others) == 1
        return False

    def _settle(self) -> None:
        """The game is abandoned while every seat but the absent one (and those signed
        gone) voted so about the very step this log is at; should the log move past it
        after all, it was not (the seats' sessions settle it for good)."""
        peer = self.peer
        self.abandoned = None
        if peer.finished:
            return
        for ending in agreed(self.votes, self.table.seats):
            if (ending.seq, ending.prev) == (peer.seq, peer.prev):
                self.abandoned = Abandonment(ending.seat, ending.seq, ending.voters, ending.away)
                return

    def request(self, now: float) -> bytes | None:
        """A catch-up request to send now, or ``None``: asked at once, then whenever the
        room has not moved for :data:`NUDGE` seconds (a quiet room is asked too, rarely:
        a step may have passed while the spectator was away)."""
        if self.finished:
            return None
        asked = self._asked_at
        quiet = now - self._moved_at
        if asked is not None:
            if now - asked < NUDGE or quiet < NUDGE:
                return None
            if not self.behind and now - asked < 5 * NUDGE:
                return None
        self._asked_at = now
        return catch_up_message(self.identity, self.table.room, self.peer.seq)


@dataclass(frozen=True)
class WatchEvent(Event):
    """Something a spectator's screen should know."""

    # its kinds: advert, started, moved, finished, connection, absent, presence, error,
    # closed (the host closed the room while its game was on: data is its advert),
    # refused (the room's table cannot be played here: data is the error naming the host,
    # if it is the host's doing)


#: The events that only tell a screen to draw again what the runner holds (its advert,
#: its spectator's log, who is online): one of a kind waiting unread stands for those that
#: come after it, so its data may be older than what the runner holds by the time it is read.
REDRAW_EVENTS = frozenset({"advert", "moved", "presence"})


class WatchEvents(asyncio.Queue[WatchEvent]):
    """A spectator's events, as its screen reads them: an event of :data:`REDRAW_EVENTS`
    is queued only if none of its kind waits unread. Anyone may send a room's messages
    again, and a host may publish new adverts, as fast as the broker passes them on;
    without this a screen that reads more slowly than the broker delivers would hold an
    event for each, without bound."""

    def _init(self, maxsize: int) -> None:
        super()._init(maxsize)
        self._waiting: dict[str, int] = {}

    def _put(self, item: WatchEvent) -> None:
        kind = item.kind
        if kind in REDRAW_EVENTS and self._waiting.get(kind):
            return
        self._waiting[kind] = self._waiting.get(kind, 0) + 1
        super()._put(item)

    def _get(self) -> WatchEvent:
        item: WatchEvent = super()._get()
        self._waiting[item.kind] -= 1
        return item


class SpectatorRunner:
    """One process watching a room: the advert for its table, the log, the catch-up."""

    def __init__(
        self,
        *,
        broker: BrokerAddress,
        identity: Identity,
        room: str,
        linger: float = GRACE,
        absent_after: float = 4.0,
    ) -> None:
        """``room``: the room code (the room id and its host's tag; a bare id believes
        the first host heard)."""
        from cakeparty.protocol.network import client_id

        self.broker = broker
        self.identity = identity
        self.room, self.host_tag = lb.parse_code(room)
        self.linger = linger
        self.absent_after = absent_after
        self.client_id = client_id()
        self.events: asyncio.Queue[WatchEvent] = WatchEvents()
        self.advert: lb.Advert | None = None
        self.spectator: Spectator | None = None
        self.online: dict[bytes, bool] = {}
        self._stamps = lb.PresenceStamps()  # the latest presence heard of each seated player
        self.transport: Transport | None = None
        self.finished_at: float | None = None
        self.published: list[tuple[str, bytes]] = []  # (topic, payload) this runner sent
        self.ignored = 0
        self.absent = False
        self.closed_by_host = False  # its host closed the room while its game was on
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._moved: tuple[int, tuple[int, ...]] | None = None
        self._since: float | None = None
        self._was_connected = True

    # -- reading ----------------------------------------------------------------------

    @property
    def table(self) -> Table | None:
        return None if self.advert is None else self.advert.table

    @property
    def peer(self) -> Peer | None:
        return None if self.spectator is None else self.spectator.peer

    @property
    def code(self) -> str:
        host = None if self.advert is None else self.advert.host
        return self.room if host is None else lb.room_code(self.room, host)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    # -- running ----------------------------------------------------------------------

    async def _publish(self, topic: topics.Topic, data: bytes, *, retain: bool = False) -> None:
        assert self.transport is not None
        self.published.append((str(topic), data))
        await self.transport.publish(topic, data, retain=retain)

    async def run(self) -> None:
        """Connect, follow the room, and return once the audit is done (or :meth:`stop`)."""
        me = topics.watchers(self.room, presence_id(self.identity.player_id))
        gone = watch_message(self.identity, self.room, GONE)
        transport = Transport(
            self.broker,
            client_id=self.client_id,
            will=(me, gone),
            online=(me, watch_message(self.identity, self.room)),
            offline=gone,
        )
        async with transport:
            self.transport = transport
            self.published.append((str(me), watch_message(self.identity, self.room)))
            await self._say(
                "connection", N_("connected to {broker}"), True, broker=str(self.broker)
            )
            for topic in (
                topics.lobby_room(self.room),
                topics.presence_all(self.room),
                topics.log(self.room),
                topics.backlog(self.room),
            ):
                await transport.subscribe(topic)
            self._since = time.monotonic()
            reader = asyncio.create_task(self._read(transport), name=f"watch:{self.room}")
            try:
                while not self._stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), TICK)
                    self._wake.clear()
                    await self._tick(transport)
                    if self.finished_at is not None and (
                        time.monotonic() - self.finished_at > self.linger
                    ):
                        break
            finally:
                await stop_task(reader)

    async def _put(self, kind: str, text: str = "", data: Any = None) -> None:
        await self.events.put(WatchEvent(kind, text, data))

    async def _say(self, kind: str, words: str, data: Any = None, **params: Any) -> None:
        """Report ``kind`` in ``words`` (a message id, marked ``N_``) with ``params``."""
        await self.events.put(WatchEvent.of(kind, words, data, **params))

    async def _read(self, transport: Transport) -> None:
        async for message in transport.messages():
            try:
                await self._handle(message)
            except ProtocolError:
                self.ignored += 1  # anyone may write on these topics: proves nothing
            except Exception as exc:  # never let one message stop the watching
                log.exception("watching %s: message on %s", self.room, message.topic)
                await self._say("error", N_("ignored a message: {error}"), error=repr(exc)[:180])

    async def _handle(self, message: Message) -> None:
        topic = message.topic
        if topic in (str(topics.log(self.room)), str(topics.backlog(self.room))):
            spectator = self.spectator
            if spectator is not None:
                spectator.receive(message.payload, time.monotonic())
                await self._after()
            return
        if not message.payload:
            return
        if topic.startswith(str(topics.lobby_room(self.room))[:-1]):
            await self._on_advert(topic, message.payload)
        elif topic.startswith(str(topics.presence_all(self.room))[:-1]):
            presence = lb.Presence.from_envelope(lb.read(message.payload, self.room, lb.PRESENCE))
            if presence_id(presence.player) != topic.rsplit("/", 1)[-1]:
                return
            taken = self.advert.taken if self.advert else ()
            online = presence.state == lb.ONLINE
            seated = any(s.player == presence.player for s in taken)
            if not seated or not self._stamps.fresh(presence):
                return  # a stranger's, or older than the player's latest (a replay)
            if self.online.get(presence.player) != online:  # (again: no news)
                self.online[presence.player] = online
                await self._put("presence", data=presence)

    async def _on_advert(self, topic: str, payload: bytes) -> None:
        """The room's advert, believed as a guest believes it: from its host's key, on its
        host's topic, newer than the last; once a table is known it is kept, and only the
        news that the host closed the room is heard."""
        if self.closed_by_host:
            return
        heard = lb.hear_advert(topic, payload, self.room, self.host_tag, self.advert)
        advert = heard.advert
        if advert is None:
            return
        if self.spectator is not None:
            if heard.closing:
                self.closed_by_host = True
                await self._say(
                    "closed", N_("{host} closed the room"), advert, host=advert.host_name
                )
            return
        self.advert = advert
        self.absent = False
        await self._put("advert", data=advert)
        table = advert.table
        if table is None:
            return
        if table.game not in game_names():
            # a game of another version of the app (or of none): nothing to follow here
            self.finished_at = time.monotonic()
            await self._say(
                "refused",
                N_("room {room} plays {game}, a game this app does not have"),
                room=self.code,
                game=table.game,
            )
            return
        try:
            self.spectator = Spectator(table, self.identity, now=time.monotonic())
        except (CakePartyError, ValueError) as exc:
            # the host's own table, signed: there is no game to follow, ever
            self.finished_at = time.monotonic()
            await self._say(
                "refused",
                N_("{host} ({key}) set a table that cannot be played: {reason}"),
                lb.TableRefused(str(exc)[:180], peer=advert.host),
                host=advert.host_name,
                key=fingerprint(advert.host),
                reason=str(exc)[:180],
            )
            return
        await self._put("started", data=table)
        await self._ask()

    async def _ask(self) -> None:
        spectator = self.spectator
        if spectator is None or self.transport is None:
            return
        request = spectator.request(time.monotonic())
        if request is not None:
            await self._publish(topics.catch_up(self.room), request)

    async def _after(self) -> None:
        spectator = self.spectator
        assert spectator is not None
        peer = spectator.peer
        moved = (peer.seq, peer.waiting_for)
        if moved != self._moved:
            self._moved = moved
            await self._put("moved")
        if spectator.misled and self.finished_at is None:
            self.finished_at = time.monotonic()
            advert = self.advert
            assert advert is not None
            await self._say(
                "refused",
                N_("{host} ({key}) showed spectators another table than its players play"),
                lb.TableRefused(N_("the advert's table is not the one played"), peer=advert.host),
                host=advert.host_name,
                key=fingerprint(advert.host),
            )
        elif spectator.finished and self.finished_at is None:
            self.finished_at = time.monotonic()
            await self._put("finished", data=peer.verdict)

    async def _tick(self, transport: Transport) -> None:
        now = time.monotonic()
        since = self._since
        if self.advert is None and not self.absent and since and now - since > self.absent_after:
            self.absent = True
            await self._say(
                "absent", N_("no room {room} on {broker}"), room=self.code, broker=str(self.broker)
            )
        if transport.connected != self._was_connected:
            self._was_connected = transport.connected
            if transport.connected:
                await self._say(
                    "connection", N_("reconnected to {broker}"), True, broker=str(self.broker)
                )
            else:
                await self._say("connection", N_("connection lost, reconnecting…"), False)
        await self._ask()

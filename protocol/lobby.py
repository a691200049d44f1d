"""The lobby: a room's advert, the players' presence, and agreeing on the table.

Every lobby message is a signed envelope (``seq`` 0, ``prev`` zero), so nobody can post
an advert for another player's room or make a player look ready. The host publishes the
room's advert, retained on ``lobby/<room>/<host>``: game, options, seats, state, and a
serial that grows with every advert, so a replayed old advert is told from a new one. A
player joins by publishing its presence, retained on ``rooms/<room>/presence/<player>``
with an "offline" last will; the host seats it. A player's ready mark carries 32 fresh
random bytes. When every seat is filled and ready, the host fixes the table (game,
options, seats, timeout, a fresh nonce, every seat's ready bytes) in the advert, and
every seated peer starts the game from it — after checking it is the table its lobby
showed and it agreed to (:func:`check_table`).

The room code people share is the room id and a tag of the host's key
(:func:`room_code`): a joiner believes only adverts signed by that key.

Everything here is pure: it turns messages into state and state into messages.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import nacl.signing

from cakeparty.core.i18n import N_
from cakeparty.protocol.codec import (
    Envelope,
    decode,
    expect_bytes,
    expect_int,
    expect_list,
    expect_name,
    expect_str,
    expect_text,
    seal,
    shown_line,
)
from cakeparty.protocol.errors import MalformedMessage, ProtocolError
from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.table import (
    ASK,
    GAME,
    ON_TIMEOUT,
    SEED_SIZE,
    OptionValue,
    Table,
    option_pair,
)
from cakeparty.protocol.topics import check_room, lobby_host, presence_id

ADVERT = "advert"
PRESENCE = "presence"
CHAT = "chat"
SYNC = "sync"
ABANDON = "abandon"
VERSION = "1"

OPEN, PLAYING, CLOSED = "open", "playing", "closed"
ONLINE, OFFLINE = "online", "offline"
#: a bot level as a player names its own (``cakeparty bot --level``): a short lower-case word
LEVEL = re.compile(r"[a-z]{1,16}\Z")
#: the longest broker address an advert names
BROKER_MAX = 256
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
NO_PREV = bytes(32)


#: the length of the room ids this app makes
ROOM_LENGTH = 6


def new_room_code(length: int = ROOM_LENGTH) -> str:
    """A short room id that is easy to read aloud (no 0/O, no 1/I)."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))


CODE_DOMAIN = b"cakeparty/v1/room-code\x00"
# The tag is 10 base32 characters, 50 bits of SHA-256 over the room id and the host's key.
# An impostor needs a key of its own whose tag for this room matches: about 2^50 ≈ 10^15
# key generations on average, days of GPU time, and it can only start once the room
# exists (the tag covers the room id, so nothing can be computed in advance, and a tag is
# worth nothing for any other room), while a lobby lives minutes. Shorter tags (a 4-char
# fingerprint prefix is 20 bits) fall to a laptop in a second.
TAG_LENGTH = 10
_TAG_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")


def host_tag(room: str, host: bytes) -> str:
    """The part of ``room``'s code that names its host's key."""
    digest = hashlib.sha256(CODE_DOMAIN + room.encode() + b"\x00" + host).digest()
    return base64.b32encode(digest).decode()[:TAG_LENGTH]


def room_code(room: str, host: bytes) -> str:
    """The code to share: ``K7QM2X-4ETJQ-2RSTU`` (the room id, then the host's tag)."""
    return _written(room, host_tag(room, host))


def _written(room: str, tag: str) -> str:
    """A room id and its host's tag as a code is shared: ``K7QM2X-4ETJQ-2RSTU``."""
    return f"{room}-{tag[:5]}-{tag[5:]}"


#: What a code read aloud or off a screen may hold for the tag's letters: 0 for O, 1 for I
#: (the tag has neither digit; the room id has none of the four)
_MISREAD = str.maketrans("01", "OI")


def parse_code(text: str) -> tuple[str, str | None]:
    """The room id and host tag of a code (``None``: a bare room id, no host named);
    :class:`ValueError` if it is neither. A whole code typed as it was read is taken too:
    in lower case, with spaces (the lobby shows it spaced out) or without its dashes, with
    0 or 1 in the tag for O or I."""
    words = text.split()
    compact = "".join(words).upper()
    room, dash, rest = compact.partition("-")
    if not dash and len(room) == ROOM_LENGTH + TAG_LENGTH:  # the dashes left out
        room, dash, rest = room[:ROOM_LENGTH], "-", room[ROOM_LENGTH:]
    check_room(room)
    if not dash:
        if len(words) > 1:  # "not a code" is no room NOTACODE: spaces only in a whole code
            raise ValueError(f"not a room code: {text!r}")
        return room, None
    tag = rest.replace("-", "").translate(_MISREAD)
    if len(tag) != TAG_LENGTH or not set(tag) <= _TAG_ALPHABET:
        raise ValueError(f"not a room code: {text!r}")
    return room, tag


def normal_code(text: str) -> str:
    """A code as :func:`parse_code` takes it, written as the app writes it
    (``K7QM2X-4ETJQ-2RSTU``, or a bare room id); :class:`ValueError` if it is none."""
    room, tag = parse_code(text)
    return room if tag is None else _written(room, tag)


def sign(key: nacl.signing.SigningKey, room: str, kind: str, body: Any) -> bytes:
    """A signed lobby message."""
    return seal(key, room=room, seq=0, prev=NO_PREV, kind=kind, body=body).to_bytes()


def read(data: bytes, room: str, kind: str) -> Envelope:
    """A lobby message of ``kind`` for ``room``, its signature checked."""
    envelope = decode(data)
    if envelope.room != room or envelope.kind != kind or envelope.seq != 0:
        raise MalformedMessage(f"not a {kind} of room {room}", peer=envelope.sender)
    return envelope


@dataclass(frozen=True)
class Seat:
    """A seat in the lobby: who sits there, whether a person or a bot, and if ready.

    ``bot``: a bot the host runs; ``own_bot``: the level of a bot that plays from a
    process of its own (``cakeparty bot``), as it says in its presence, empty for a person
    (such a seat is otherwise a player like any other: its own keys, its own moves)."""

    player: bytes
    name: str
    bot: bool = False
    ready: bool = False
    online: bool = True
    own_bot: str = ""

    def to_data(self) -> list[Any]:
        data = [self.player, self.name, self.bot, self.ready, self.online]
        return [*data, self.own_bot] if self.own_bot else data

    @classmethod
    def from_data(cls, obj: Any) -> Seat:
        items = expect_list(obj, "seat")
        if len(items) not in (5, 6):
            raise MalformedMessage(N_("a seat is 5 or 6 items"))
        player, name, bot, ready, online = items[:5]
        if not all(isinstance(x, bool) for x in (bot, ready, online)):
            raise MalformedMessage(N_("a seat's flags are true or false"))
        own_bot = expect_str(items[5], "bot level", LEVEL) if len(items) == 6 else ""
        return cls(
            expect_bytes(player, "player", 32),
            expect_name(name),
            bot,
            ready,
            online,
            own_bot,
        )

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.player)


@dataclass(frozen=True)
class Advert:
    """What the host says about its room."""

    room: str
    game: str
    host: bytes
    host_name: str
    seats: int  # how many players the game takes
    options: tuple[tuple[str, OptionValue], ...] = ()
    timeout: int = 120
    on_timeout: str = ASK
    taken: tuple[Seat, ...] = ()
    state: str = OPEN
    table: Table | None = None
    broker: str = ""
    serial: int = 0  # grows with every advert of the room; an older one is stale

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "name": self.host_name,
            "seats": self.seats,
            "options": [[k, v] for k, v in self.options],
            "timeout": self.timeout,
            "taken": [s.to_data() for s in self.taken],
            "state": self.state,
            "table": None if self.table is None else self.table.to_data(),
            "broker": self.broker,
            "version": VERSION,
            "serial": self.serial,
            "on_timeout": self.on_timeout,
        }

    @classmethod
    def from_envelope(cls, envelope: Envelope) -> Advert:
        body = envelope.body
        keys = {"game", "name", "seats", "options", "timeout", "taken", "state", "table"}
        keys |= {"serial"}
        if not isinstance(body, dict) or not keys <= set(body):
            raise MalformedMessage(N_("not an advert"), peer=envelope.sender)
        try:
            options = tuple(option_pair(p) for p in expect_list(body["options"], "options"))
            state = expect_str(body["state"], "state")
            if state not in (OPEN, PLAYING, CLOSED):
                raise MalformedMessage(f"unknown room state {state}")
            on_timeout = expect_str(body.get("on_timeout", ASK), "on_timeout")
            if on_timeout not in ON_TIMEOUT:
                raise MalformedMessage(f"unknown rule on timeout {on_timeout}")
            table = None if body["table"] is None else Table.from_data(body["table"])
            advert = cls(
                room=envelope.room,
                game=expect_str(body["game"], "game", GAME),
                host=envelope.sender,
                host_name=expect_name(body["name"]),
                seats=expect_int(body["seats"], "seats", 1, 8),
                options=options,
                timeout=expect_int(body["timeout"], "timeout", 1, 86400),
                taken=tuple(Seat.from_data(s) for s in expect_list(body["taken"], "taken")),
                state=state,
                table=table,
                broker=expect_text(body.get("broker", ""), "broker", BROKER_MAX),
                serial=expect_int(body["serial"], "serial", 0, 2**63 - 1),
                on_timeout=on_timeout,
            )
        except ProtocolError as exc:
            raise exc.blame(envelope.sender) from None
        if table is not None and table.room != envelope.room:
            raise MalformedMessage(N_("the table is for another room"), peer=envelope.sender)
        return advert

    @property
    def free(self) -> int:
        return self.seats - len(self.taken)

    @property
    def terms(self) -> Terms:
        """What a player agrees to when it marks itself ready here."""
        return Terms(self.game, self.options, self.timeout, self.seats, self.on_timeout)


@dataclass(frozen=True)
class Heard:
    """What a guest or a spectator makes of an advert it heard (:func:`hear_advert`):
    ``advert``, believed and newer than the last one; ``stranger``, the key that signed an
    advert for the room that is not its host's. Both ``None``: old news, or an advert off
    its signer's topic."""

    advert: Advert | None = None
    stranger: bytes | None = None

    @property
    def closing(self) -> bool:
        """Whether the advert believed says the host closed the room."""
        return self.advert is not None and self.advert.state == CLOSED


def hear_advert(topic: str, data: bytes, room: str, tag: str | None, last: Advert | None) -> Heard:
    """An advert of ``room`` heard on ``topic``, as anyone but its host believes it: signed
    by the player whose advert topic it is, by the key the room code tags (``tag``) and by
    the host of the last advert believed (``last``), and newer than ``last`` (a replayed or
    retained old advert changes nothing). Raises :class:`ProtocolError` for a message that
    is no signed advert of ``room``."""
    envelope = read(data, room, ADVERT)
    if lobby_host(topic) != presence_id(envelope.sender):
        return Heard()  # an advert must sit on its own host's topic
    if (last is not None and envelope.sender != last.host) or (
        tag is not None and host_tag(room, envelope.sender) != tag
    ):
        return Heard(stranger=envelope.sender)
    advert = Advert.from_envelope(envelope)
    if last is not None and advert.serial <= last.serial:
        return Heard()  # a replay, or an old advert retained somewhere
    return Heard(advert=advert)


@dataclass(frozen=True)
class Terms:
    """The settings of a room a player sees in its lobby and agrees to."""

    game: str
    options: tuple[tuple[str, OptionValue], ...]
    timeout: int
    seats: int
    on_timeout: str = ASK  # what a seat past the timeout brings about

    @classmethod
    def of_table(cls, table: Table) -> Terms:
        return cls(table.game, table.options, table.timeout, table.seats, table.on_timeout)


class TableRefused(ProtocolError):
    """The host's table is not the one this player's lobby showed and it agreed to."""


def check_table(advert: Advert, agreed: Terms, player: bytes, mark: bytes) -> Table:
    """The table of ``advert``, if ``player`` may start it: the game, options, timeout
    and seats it agreed to (``agreed``, when it marked itself ready), the players the
    advert shows, its own seat, and its latest ready mark ``mark`` among the seeds (so
    the table is fresh, and made after it said ready). :class:`TableRefused` names the
    host otherwise."""
    table = advert.table
    host = advert.host
    if table is None:
        raise TableRefused(N_("the advert has no table"), peer=host)
    got = Terms.of_table(table)
    for name in ("game", "options", "timeout", "seats", "on_timeout"):
        if getattr(got, name) != getattr(agreed, name):
            raise TableRefused(
                f"the table's {name} ({getattr(got, name)}) is not the lobby's "
                f"({getattr(agreed, name)})",
                peer=host,
            )
    if table.players != tuple(s.player for s in advert.taken) or table.names != tuple(
        s.name for s in advert.taken
    ):
        raise TableRefused(N_("the table's players are not the lobby's seats"), peer=host)
    seat = table.seat_of(player)
    if seat is None:
        raise TableRefused(N_("the table has no seat for this player"), peer=host)
    if len(table.seeds) != table.seats or table.seeds[seat] != mark:
        raise TableRefused(N_("the table does not carry this player's ready mark"), peer=host)
    return table


def clock_count(
    previous: int, per_second: int = 1_000_000, clock: Callable[[], int] | None = None
) -> int:
    """A number from the ``clock`` (in nanoseconds; counted ``per_second`` a second) above
    ``previous`` (default: the system's clock): it grows from one message of a player to
    the next, in one run of the app and, as the clock does, from one run to the next (a
    :class:`journal.KeptClock` does even where the system's clock was set back), so that
    a message sent again by anyone (a replay) is told by its older number."""
    now = time.time_ns() if clock is None else clock()
    return max(previous + 1, now * per_second // 1_000_000_000)


#: presences a player may say online on one connection (ready, not ready, …), told apart
SAID_PER_CONNECTION = 1 << 20


def presence_stamp(connection: int, state: str, said: int = 0) -> int:
    """The stamp of a presence its player says on its ``connection``-th connection to the
    broker (a number that grows from one connection to the next, across restarts too),
    the ``said``-th it says online there: each comes after the one before; its last will
    (offline) after all it said online on that connection; anything said on a later
    connection after all of them. See :class:`PresenceStamps`."""
    base = connection * SAID_PER_CONNECTION * 2
    if state == OFFLINE:
        return base + 2 * SAID_PER_CONNECTION - 1
    return base + 2 * min(said, SAID_PER_CONNECTION - 1)


@dataclass(frozen=True)
class Presence:
    """What a player says about itself in a room."""

    player: bytes
    name: str
    state: str = ONLINE
    ready: bool = False
    mark: bytes = b""  # 32 fresh random bytes while ready: this seat's part of the table
    bot: str = ""  # the level of the bot that plays here, in this process; "": a person
    stamp: int = 0  # :func:`presence_stamp` (0: not said, by an app that stamps none)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "state": self.state,
            "ready": self.ready,
            "mark": self.mark,
        }
        if self.bot:
            data["bot"] = self.bot
        if self.stamp:
            data["n"] = self.stamp
        return data

    @classmethod
    def from_envelope(cls, envelope: Envelope) -> Presence:
        body = envelope.body
        keys = {"name", "state", "ready", "mark"}
        if not isinstance(body, dict) or set(body) - {"bot", "n"} != keys:
            raise MalformedMessage(N_("not a presence"), peer=envelope.sender)
        stamp = expect_int(body.get("n", 0), "stamp", 0, 2**63 - 1)
        bot = body.get("bot", "")
        if "bot" in body and (type(bot) is not str or not LEVEL.match(bot)):
            raise MalformedMessage(N_("a bot's level is a short word"), peer=envelope.sender)
        state = expect_str(body["state"], "state")
        if state not in (ONLINE, OFFLINE) or not isinstance(body["ready"], bool):
            raise MalformedMessage(N_("bad presence"), peer=envelope.sender)
        mark = expect_bytes(body["mark"], "mark")
        if len(mark) != (SEED_SIZE if body["ready"] else 0):
            raise MalformedMessage(N_("a ready mark is 32 bytes"), peer=envelope.sender)
        name = expect_name(body["name"])
        return cls(envelope.sender, name, state, body["ready"], mark, bot, stamp)


class PresenceStamps:
    """The latest stamp heard of each player's presence, so that an older one is known for
    what it is. A presence is signed, but anyone may publish it again, at any time (a
    replay): a player's last will from a connection it has since left, replayed, would
    say it is offline while it plays on, and the room would wait on it, or vote it out.
    Such a presence is older than what the player said since, and is not believed.

    A player not heard yet believes the first it hears: a replay heard before anything
    newer shows the player offline until its next word (its heartbeat, within seconds).
    Bounded by the caller, which forgets players with :meth:`forget`."""

    def __init__(self) -> None:
        self._latest: dict[bytes, int] = {}

    def fresh(self, presence: Presence) -> bool:
        """Whether ``presence`` is no older than the latest heard from its player (it is
        then the latest)."""
        if presence.stamp < self._latest.get(presence.player, 0):
            return False
        self._latest[presence.player] = presence.stamp
        return True

    def forget(self, player: bytes) -> None:
        self._latest.pop(player, None)


def new_mark() -> bytes:
    """Fresh random bytes for a ready mark."""
    return secrets.token_bytes(SEED_SIZE)


# -- chat -------------------------------------------------------------------------------------

#: the longest chat line, in characters
CHAT_MAX = 200
#: chat lines a player may send at once, and then one every CHAT_EVERY seconds
CHAT_BURST, CHAT_EVERY = 8, 1.0
#: a player's own app sends at most SAY_BURST lines at once, then one every SAY_EVERY
#: seconds: below what the others show, so lines that reach them up to two seconds closer
#: together than they were sent (a slow moment of the network) are still all shown
SAY_BURST, SAY_EVERY = CHAT_BURST - 2, CHAT_EVERY * 1.25


def chat_body(number: int, line: str) -> list[Any]:
    """A chat message's body: its sender's growing number, and the line, made one line of
    printable text (what others will show)."""
    return [number, shown_line(line, CHAT_MAX)]


def read_chat(envelope: Envelope) -> tuple[int, str]:
    """The number and line of a chat message; :class:`MalformedMessage` for anything else."""
    number, line = expect_list(envelope.body, "chat", 2)
    return expect_int(number, "chat number", 0, 2**63 - 1), shown_line(
        expect_str(line, "chat line"), CHAT_MAX
    )


class ChatGate:
    """Which of a room's chat lines are shown. Anyone on the broker can send a player's
    signed line again: from each sender only a line numbered above its last one is shown
    (a replayed or reordered one is not). And a player flooding the chat is shown
    :data:`CHAT_BURST` lines at once, then one every :data:`CHAT_EVERY` seconds."""

    def __init__(self, burst: int = CHAT_BURST, every: float = CHAT_EVERY) -> None:
        self.burst = burst
        self.every = every
        self._last: dict[bytes, int] = {}
        self._allowance: dict[bytes, tuple[float, float]] = {}  # sender: (lines, when)
        self.dropped = 0

    def admit(self, sender: bytes, number: int, now: float, *, own: bool = False) -> bool:
        """Whether ``sender``'s line ``number``, heard at ``now``, is shown (``own``: this
        player's own, never held back by the rate)."""
        if number <= self._last.get(sender, -1) or not self.paced(sender, now, own=own):
            self.dropped += 1
            return False
        self._last[sender] = number
        return True

    def paced(self, sender: bytes, now: float, *, own: bool = False) -> bool:
        """Whether one more line of ``sender``'s at ``now`` is within the rate (counted
        if so; ``own``: always within it)."""
        lines, then = self._allowance.get(sender, (float(self.burst), now))
        lines = min(float(self.burst), lines + (now - then) / self.every)
        if lines < 1 and not own:
            self._allowance[sender] = (lines, now)
            return False
        self._allowance[sender] = (max(lines - 1, 0.0), now)
        return True


@dataclass
class HostLobby:
    """The host's side: seats players as their presence arrives, then fixes the table."""

    advert: Advert
    nonce: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    removed: set[bytes] = field(default_factory=set)  # sent out: not seated again
    marks: dict[bytes, bytes] = field(default_factory=dict)  # a seat's latest ready mark
    #: the seating wished for, first seat first (the players of the game before, when the
    #: host plays again): whoever is in it sits in its order, before anyone who is not
    order: tuple[bytes, ...] = ()

    def publish(self) -> Advert:
        """The advert to publish now: its serial one more than the last one's."""
        self.advert = replace(self.advert, serial=self.advert.serial + 1)
        return self.advert

    def mark(self, player: bytes, mark: bytes) -> None:
        """``player``'s ready mark (empty: not ready)."""
        if mark:
            self.marks[player] = mark
        else:
            self.marks.pop(player, None)

    def seat(self, seat: Seat, mark: bytes | None = None) -> bool:
        """Take ``seat`` (a player or a bot) if there is room; True if seated. ``mark``:
        its ready mark, when the host makes it (its own seat, its bots)."""
        if mark is not None and self.advert.state == OPEN:
            self.mark(seat.player, mark if seat.ready else b"")
        self.removed.discard(seat.player)
        taken = list(self.advert.taken)
        for i, s in enumerate(taken):
            if s.player == seat.player:
                taken[i] = replace(seat, bot=s.bot)
                self.advert = replace(self.advert, taken=tuple(taken))
                return True
        if self.advert.state != OPEN or len(taken) >= self.advert.seats:
            return False
        self.advert = replace(self.advert, taken=self._seated((*taken, seat)))
        return True

    def keep_order(self, order: Sequence[bytes]) -> None:
        """Seat the players of ``order`` in that order from now on (see :attr:`order`)."""
        self.order = tuple(order)
        self.advert = replace(self.advert, taken=self._seated(self.advert.taken))

    def _seated(self, taken: Sequence[Seat]) -> tuple[Seat, ...]:
        rank = {player: i for i, player in enumerate(self.order)}
        # a stable sort: those not in the order keep the order they came in
        return tuple(sorted(taken, key=lambda s: rank.get(s.player, len(rank))))

    def presence(self, presence: Presence) -> bool:
        """A player's presence; True if the advert changed."""
        before = self.advert
        known = [s for s in before.taken if s.player == presence.player]
        if presence.state == OFFLINE:
            if not known:
                return False
            if before.state == OPEN:  # a player who leaves the lobby frees its seat
                kept = tuple(s for s in before.taken if s.player != presence.player)
                self.advert = replace(before, taken=kept)
                self.marks.pop(presence.player, None)
            else:
                self._mark(presence.player, online=False)
            return self.advert != before
        if presence.player in self.removed and not known:
            return False
        if self.advert.state == OPEN and (known or self.advert.free > 0):
            self.mark(presence.player, presence.mark if presence.ready else b"")
        seat = Seat(presence.player, presence.name, False, presence.ready, True, presence.bot)
        if known:
            seat = replace(seat, bot=known[0].bot)
        self.seat(seat)
        return self.advert != before

    def _mark(self, player: bytes, **changes: Any) -> None:
        taken = tuple(replace(s, **changes) if s.player == player else s for s in self.advert.taken)
        self.advert = replace(self.advert, taken=taken)

    def remove(self, player: bytes) -> None:
        """Free a seat (the host takes a bot away, or a player out, who stays out)."""
        self.removed.add(player)
        self.marks.pop(player, None)
        self.advert = replace(
            self.advert, taken=tuple(s for s in self.advert.taken if s.player != player)
        )

    @property
    def ready(self) -> bool:
        """Every seat filled, everyone ready."""
        a = self.advert
        return a.free == 0 and all(s.ready and s.online and s.player in self.marks for s in a.taken)

    def start(self) -> Table:
        """Fix the table; the advert now says the game is on."""
        a = self.advert
        table = Table.of(
            a.room,
            a.game,
            [(s.player, s.name) for s in a.taken],
            dict(a.options),
            timeout=a.timeout,
            on_timeout=a.on_timeout,
            nonce=self.nonce,
            seeds=tuple(self.marks[s.player] for s in a.taken),
        )
        self.advert = replace(a, state=PLAYING, table=table)
        return table

    def close(self) -> None:
        self.advert = replace(self.advert, state=CLOSED)

"""The lobby: a room's advert, the players' presence, and agreeing on the table.

Every lobby message is a signed envelope (``seq`` 0, ``prev`` zero), so nobody can post
an advert for another player's room or make a player look ready. The host publishes the
room's advert, retained on ``lobby/<room>``: game, options, seats, state. A player joins
by publishing its presence, retained on ``rooms/<room>/presence/<player>`` with an
"offline" last will; the host seats it. When every seat is filled and ready, the host
fixes the table (game, options, seats, timeout, a fresh nonce) in the advert, and every
seated peer starts the game from it.

Everything here is pure: it turns messages into state and state into messages.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from typing import Any

import nacl.signing

from cakeparty.protocol.codec import (
    Envelope,
    decode,
    expect_bytes,
    expect_int,
    expect_list,
    expect_str,
    seal,
)
from cakeparty.protocol.errors import MalformedMessage, ProtocolError
from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.table import Table

ADVERT = "advert"
PRESENCE = "presence"
CHAT = "chat"
SYNC = "sync"
ABANDON = "abandon"
VERSION = "1"

OPEN, PLAYING, CLOSED = "open", "playing", "closed"
ONLINE, OFFLINE = "online", "offline"
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
NO_PREV = bytes(32)


def new_room_code(length: int = 6) -> str:
    """A short room code that is easy to read aloud (no 0/O, no 1/I)."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))


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
    """A seat in the lobby: who sits there, whether a person or a bot, and if ready."""

    player: bytes
    name: str
    bot: bool = False
    ready: bool = False
    online: bool = True

    def to_data(self) -> list[Any]:
        return [self.player, self.name, self.bot, self.ready, self.online]

    @classmethod
    def from_data(cls, obj: Any) -> Seat:
        player, name, bot, ready, online = expect_list(obj, "seat", 5)
        if not all(isinstance(x, bool) for x in (bot, ready, online)):
            raise MalformedMessage("a seat's flags are true or false")
        return cls(expect_bytes(player, "player", 32), expect_str(name, "name"), bot, ready, online)

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
    options: tuple[tuple[str, bool], ...] = ()
    timeout: int = 120
    taken: tuple[Seat, ...] = ()
    state: str = OPEN
    table: Table | None = None
    broker: str = ""

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
        }

    @classmethod
    def from_envelope(cls, envelope: Envelope) -> Advert:
        body = envelope.body
        keys = {"game", "name", "seats", "options", "timeout", "taken", "state", "table"}
        if not isinstance(body, dict) or not keys <= set(body):
            raise MalformedMessage("not an advert", peer=envelope.sender)
        try:
            options = tuple(
                (expect_str(k, "option"), bool(v))
                for k, v in (
                    expect_list(p, "option", 2) for p in expect_list(body["options"], "options")
                )
            )
            state = expect_str(body["state"], "state")
            if state not in (OPEN, PLAYING, CLOSED):
                raise MalformedMessage(f"unknown room state {state}")
            table = None if body["table"] is None else Table.from_data(body["table"])
            advert = cls(
                room=envelope.room,
                game=expect_str(body["game"], "game"),
                host=envelope.sender,
                host_name=expect_str(body["name"], "name"),
                seats=expect_int(body["seats"], "seats", 1, 8),
                options=options,
                timeout=expect_int(body["timeout"], "timeout", 1, 86400),
                taken=tuple(Seat.from_data(s) for s in expect_list(body["taken"], "taken")),
                state=state,
                table=table,
                broker=expect_str(body.get("broker", ""), "broker"),
            )
        except ProtocolError as exc:
            raise exc.blame(envelope.sender) from None
        if table is not None and table.room != envelope.room:
            raise MalformedMessage("the table is for another room", peer=envelope.sender)
        return advert

    @property
    def free(self) -> int:
        return self.seats - len(self.taken)


@dataclass(frozen=True)
class Presence:
    """What a player says about itself in a room."""

    player: bytes
    name: str
    state: str = ONLINE
    ready: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"name": self.name, "state": self.state, "ready": self.ready}

    @classmethod
    def from_envelope(cls, envelope: Envelope) -> Presence:
        body = envelope.body
        if not isinstance(body, dict) or set(body) != {"name", "state", "ready"}:
            raise MalformedMessage("not a presence", peer=envelope.sender)
        state = expect_str(body["state"], "state")
        if state not in (ONLINE, OFFLINE) or not isinstance(body["ready"], bool):
            raise MalformedMessage("bad presence", peer=envelope.sender)
        return cls(envelope.sender, expect_str(body["name"], "name"), state, body["ready"])


@dataclass
class HostLobby:
    """The host's side: seats players as their presence arrives, then fixes the table."""

    advert: Advert
    nonce: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    removed: set[bytes] = field(default_factory=set)  # sent out: not seated again

    def seat(self, seat: Seat) -> bool:
        """Take ``seat`` (a player or a bot) if there is room; True if seated."""
        self.removed.discard(seat.player)
        taken = list(self.advert.taken)
        for i, s in enumerate(taken):
            if s.player == seat.player:
                taken[i] = replace(seat, bot=s.bot)
                self.advert = replace(self.advert, taken=tuple(taken))
                return True
        if self.advert.state != OPEN or len(taken) >= self.advert.seats:
            return False
        self.advert = replace(self.advert, taken=(*taken, seat))
        return True

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
            else:
                self._mark(presence.player, online=False)
            return self.advert != before
        if presence.player in self.removed and not known:
            return False
        seat = Seat(presence.player, presence.name, False, presence.ready, True)
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
        self.advert = replace(
            self.advert, taken=tuple(s for s in self.advert.taken if s.player != player)
        )

    @property
    def ready(self) -> bool:
        """Every seat filled, everyone ready."""
        a = self.advert
        return a.free == 0 and all(s.ready and s.online for s in a.taken)

    def start(self) -> Table:
        """Fix the table; the advert now says the game is on."""
        a = self.advert
        table = Table.of(
            a.room,
            a.game,
            [(s.player, s.name) for s in a.taken],
            dict(a.options),
            timeout=a.timeout,
            nonce=self.nonce,
        )
        self.advert = replace(a, state=PLAYING, table=table)
        return table

    def close(self) -> None:
        self.advert = replace(self.advert, state=CLOSED)

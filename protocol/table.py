"""The table: what every seat of a room agreed to play before the first envelope.

Its digest is the ``prev`` of the room log's first step, so every signature in the room is
bound to the game, the options, the seating and the room's nonce: an envelope cannot be
carried into another room, nor into a replay of this one.

Every seat adds 32 fresh random bytes of its own (its ready mark, :attr:`Table.seeds`), and
the digest covers them all: as long as one seat is honest no two games share a digest, so
a host cannot replay an old table (and with it an old game's keys) on anyone.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cakeparty.core.i18n import N_
from cakeparty.protocol.codec import (
    expect_bytes,
    expect_int,
    expect_list,
    expect_name,
    expect_str,
    pack,
)
from cakeparty.protocol.errors import MalformedMessage

TABLE_DOMAIN = b"cakeparty/v1/table\x00"
#: a game's registered name
GAME = re.compile(r"[a-z][a-z0-9-]{0,31}\Z")
_OPTION = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
_OPTION_NAME = re.compile(r"[a-z][a-z0-9-]{0,31}\Z")
_ROOM = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
SEED_SIZE = 32
ASK = "ask"  # a seat past the timeout: the others are asked whether to wait or end the game
END = "end"  # ... and an offline one ends it, once the others' peers have voted
ON_TIMEOUT = (ASK, END)

#: A rule option's value: on or off, or one of a game's named choices (a variant).
OptionValue = bool | str


def option_value(obj: Any) -> OptionValue:
    """A room option's value from untrusted data: ``True``/``False``, or a short
    lower-case name (``beginners``); :class:`MalformedMessage` otherwise."""
    if isinstance(obj, bool):
        return obj
    if isinstance(obj, str) and _OPTION_NAME.match(obj):
        return obj
    raise MalformedMessage(N_("an option is true, false or a short lower-case name"))


def option_pair(obj: Any) -> tuple[str, OptionValue]:
    """One ``[key, value]`` room option from untrusted data."""
    key, value = expect_list(obj, "option", 2)
    return expect_str(key, "option", _OPTION), option_value(value)


@dataclass(frozen=True)
class Table:
    """A room's game, options and seats (player ids in seat order)."""

    room: str
    game: str
    players: tuple[bytes, ...]
    names: tuple[str, ...]
    options: tuple[tuple[str, OptionValue], ...] = ()
    timeout: int = 120  # seconds a seat may keep the others waiting
    nonce: bytes = bytes(16)  # fresh for every game, chosen by the host
    seeds: tuple[bytes, ...] = ()  # each seat's 32 fresh bytes (its ready mark), or none
    on_timeout: str = ASK  # what a seat past the timeout brings about (ON_TIMEOUT)

    def __post_init__(self) -> None:
        if not _ROOM.match(self.room) or not GAME.match(self.game):
            raise ValueError("bad room or game name")
        if len(self.players) != len(self.names) or not 1 <= len(self.players) <= 8:
            raise ValueError("one name per player, 1 to 8 players")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player may take one seat only")
        if any(len(p) != 32 for p in self.players):
            raise ValueError("a player id is a 32-byte public key")
        if self.seeds and (
            len(self.seeds) != len(self.players) or any(len(x) != SEED_SIZE for x in self.seeds)
        ):
            raise ValueError(f"one {SEED_SIZE}-byte seed per seat, or none")
        if self.on_timeout not in ON_TIMEOUT:
            raise ValueError(f"on timeout: one of {', '.join(ON_TIMEOUT)}")

    @classmethod
    def of(
        cls,
        room: str,
        game: str,
        players: list[tuple[bytes, str]],
        options: Mapping[str, OptionValue] | None = None,
        **extra: Any,
    ) -> Table:
        return cls(
            room,
            game,
            tuple(p for p, _ in players),
            tuple(n for _, n in players),
            tuple(sorted((options or {}).items())),
            **extra,
        )

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def option_map(self) -> dict[str, OptionValue]:
        return dict(self.options)

    def seat_of(self, player: bytes) -> int | None:
        """The seat of ``player``, or ``None`` for a stranger."""
        try:
            return self.players.index(player)
        except ValueError:
            return None

    def to_data(self) -> dict[str, Any]:
        data = {
            "room": self.room,
            "game": self.game,
            "players": list(self.players),
            "names": list(self.names),
            "options": [[k, v] for k, v in self.options],
            "timeout": self.timeout,
            "nonce": self.nonce,
            "seeds": list(self.seeds),
        }
        if self.on_timeout != ASK:  # the default leaves a table (and its digest) as it was
            data["on_timeout"] = self.on_timeout
        return data

    @classmethod
    def from_data(cls, obj: Any) -> Table:
        """A table from untrusted data; :class:`MalformedMessage` if it is not one."""
        if not isinstance(obj, dict) or set(obj) - {"on_timeout"} != set(cls.FIELDS):
            raise MalformedMessage(N_("not a table"))
        try:
            options = [option_pair(pair) for pair in expect_list(obj["options"], "options")]
            return cls(
                room=expect_str(obj["room"], "room", _ROOM),
                game=expect_str(obj["game"], "game", GAME),
                players=tuple(
                    expect_bytes(p, "player", 32) for p in expect_list(obj["players"], "players")
                ),
                names=tuple(expect_name(n) for n in expect_list(obj["names"], "names")),
                options=tuple(options),
                timeout=expect_int(obj["timeout"], "timeout", 1, 86400),
                nonce=expect_bytes(obj["nonce"], "nonce", 16),
                seeds=tuple(
                    expect_bytes(x, "seed", SEED_SIZE) for x in expect_list(obj["seeds"], "seeds")
                ),
                on_timeout=expect_str(obj.get("on_timeout", ASK), "on_timeout"),
            )
        except ValueError as exc:
            if isinstance(exc, MalformedMessage):
                raise
            raise MalformedMessage(str(exc)) from exc

    FIELDS = ("room", "game", "players", "names", "options", "timeout", "nonce", "seeds")

    def digest(self) -> bytes:
        """What the first step of the log follows (its ``prev``)."""
        return hashlib.sha256(TABLE_DOMAIN + pack(self.to_data())).digest()

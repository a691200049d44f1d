"""MQTT topics: every topic the app uses comes from the functions here.

::

    cakeparty/v1/lobby/<room>/<host>             retained room advert, by its host alone
    cakeparty/v1/rooms/<room>/log                the room log (envelopes)
    cakeparty/v1/rooms/<room>/presence/<player>  retained "online"; last will "offline"
    cakeparty/v1/rooms/<room>/chat               signed chat lines
    cakeparty/v1/rooms/<room>/watchers/<player>  retained "watching"; last will "gone"
    cakeparty/v1/rooms/<room>/catchup            a spectator asks for the log from step n
    cakeparty/v1/rooms/<room>/backlog            the seats' answers: envelopes of the log

A spectator publishes on its own ``watchers`` topic and on ``catchup`` only: never on the
room log. The seats read both, and answer on ``backlog``, which only spectators read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "cakeparty/v1"
_ROOM = re.compile(r"[A-Z0-9]{4,16}\Z")
_PLAYER = re.compile(r"[a-z0-9]{8,64}\Z")


@dataclass(frozen=True)
class Topic:
    """A concrete topic to publish on, or a filter to subscribe to; checked when made."""

    value: str

    def __post_init__(self) -> None:
        if not self.value or len(self.value) > 256 or not self.value.isascii():
            raise ValueError(f"not a topic: {self.value!r}")
        levels = self.value.split("/")
        if any(level == "" for level in levels):
            raise ValueError(f"empty level in topic {self.value!r}")
        for i, level in enumerate(levels):
            if "#" in level and (level != "#" or i != len(levels) - 1):
                raise ValueError(f"'#' must be a whole last level: {self.value!r}")
            if "+" in level and level != "+":
                raise ValueError(f"'+' must be a whole level: {self.value!r}")

    @property
    def is_filter(self) -> bool:
        return "+" in self.value or "#" in self.value

    def __str__(self) -> str:
        return self.value


def valid_room(room: str) -> bool:
    """Whether ``room`` is a room code: 4–16 upper-case letters and digits."""
    return isinstance(room, str) and _ROOM.match(room) is not None


def check_room(room: str) -> str:
    """A room code: 4–16 upper-case letters and digits."""
    if not valid_room(room):
        raise ValueError(f"not a room code: {room!r}")
    return room


def presence_id(player: bytes) -> str:
    """A player's id in topics: the first 32 hex digits of its key."""
    return player.hex()[:32]


def check_player(player: str) -> str:
    """A player id in topics: the lower-case hex (or base32) of its key, 8–64 chars."""
    if not isinstance(player, str) or not _PLAYER.match(player):
        raise ValueError(f"not a player id: {player!r}")
    return player


def lobby(room: str, host: str) -> Topic:
    """The advert of ``room`` by the player ``host`` (its id as in presence topics): under
    the sample ACL only that player may write here, so nobody can overwrite or clear it."""
    return Topic(f"{PREFIX}/lobby/{check_room(room)}/{check_player(host)}")


def lobby_room(room: str) -> Topic:
    """Every advert of ``room`` (its host's, and any impostor's to be ignored)."""
    return Topic(f"{PREFIX}/lobby/{check_room(room)}/+")


def lobby_all() -> Topic:
    return Topic(f"{PREFIX}/lobby/+/+")


def lobby_host(topic: str) -> str | None:
    """The player whose advert topic ``topic`` is, or ``None``."""
    parts = topic.split("/")
    if len(parts) == 5 and f"{parts[0]}/{parts[1]}" == PREFIX and parts[2] == "lobby":
        return parts[4] if _PLAYER.match(parts[4]) else None
    return None


def next_room(room: str, host: str) -> Topic:
    """The offer of a new room by ``host`` (its id as in presence topics) to the players
    of finished ``room`` (retained): under the sample ACL only that player may write
    here, so nobody can overwrite or clear the offer."""
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/next/{check_player(host)}")


def log(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/log")


def presence(room: str, player: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/presence/{check_player(player)}")


def presence_all(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/presence/+")


def presence_every() -> Topic:
    """Every player's presence in every room (the join list reads the hosts' there)."""
    return Topic(f"{PREFIX}/rooms/+/presence/+")


def presence_of(topic: str) -> tuple[str, str] | None:
    """The room and the player whose presence topic ``topic`` is, or ``None``."""
    parts = topic.split("/")
    if (
        len(parts) != 6
        or f"{parts[0]}/{parts[1]}" != PREFIX
        or parts[2:5:2] != ["rooms", "presence"]
    ):
        return None
    return (parts[3], parts[5]) if _ROOM.match(parts[3]) and _PLAYER.match(parts[5]) else None


def chat(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/chat")


def watchers(room: str, player: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/watchers/{check_player(player)}")


def watchers_all(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/watchers/+")


def catch_up(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/catchup")


def backlog(room: str) -> Topic:
    return Topic(f"{PREFIX}/rooms/{check_room(room)}/backlog")


def room_of(topic: str) -> str | None:
    """The room code a concrete topic belongs to, or ``None``."""
    parts = topic.split("/")
    if len(parts) >= 4 and f"{parts[0]}/{parts[1]}" == PREFIX and parts[2] in ("rooms", "lobby"):
        return parts[3] if _ROOM.match(parts[3]) else None
    return None

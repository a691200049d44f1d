"""Every message the app's widgets and screens post: small dataclasses, flowing up.

Parents set attributes on their children; children tell their parents what happened
with one of these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:  # annotations only: the menu's messages load no rules engine
    from cakeparty.core import Action, Outcome


@dataclass
class CursorMoved(Message):
    """The hand's cursor moved to the card at ``index``."""

    index: int


@dataclass
class SelectionChanged(Message):
    """The cards selected in the hand changed; ``keys`` are their ids (slots)."""

    keys: tuple[int, ...]


@dataclass
class OptionCycled(Message):
    """A cycling option (in a form) now shows ``value``."""

    name: str
    value: Any


@dataclass
class ActionChosen(Message):
    """``seat`` (a person at the keyboard, or a bot) made ``action``."""

    seat: int
    action: Action
    by_bot: bool


@dataclass
class StoryTold(Message):
    """New lines of the game's log: the plain words of each new event."""

    lines: tuple[str, ...]


@dataclass
class GameEnded(Message):
    """The game is over."""

    outcome: Outcome


@dataclass
class KeyboardPassed(Message):
    """Hot-seat: the keyboard went to ``seat``, whose hand is now shown."""

    seat: int


@dataclass
class SettingsSaved(Message):
    """The player saved new settings."""

    settings: Any


@dataclass
class RoomEventArrived(Message):
    """Something happened in the networked room: a ``RoomEvent`` from its runner."""

    event: Any


@dataclass
class RoomNotice(Message):
    """A word about the room's machinery (broker, LAN advert) for the player to see."""

    text: str
    severity: str = "information"


@dataclass
class RoomClosed(Message):
    """The room's connection ended; ``error`` says why when it failed."""

    error: str | None = None


@dataclass
class ChatSent(Message):
    """The player typed a chat line and pressed enter."""

    text: str


@dataclass
class ChatClosed(Message):
    """The chat line was closed (esc, or enter on an empty line)."""

"""The brokers and the codes of the rooms this player joined last, the newest first.

The join screen looks there too, quietly (a broker gone since is no news): a player whose
app closed in the middle of a game opens it again, presses ``j``, and finds the room that
keeps its seat at the top of the list, without typing the broker again. The list lives
beside the journals (``joined.json`` in the data dir) and never holds more than
:data:`MOST` brokers; an unreadable file is an empty list. A broker's login is kept with
it (the file is the player's alone, mode 0600, like the key): a broker with logins is
looked at again only with one.

The codes of the rooms joined last are kept the same way (``joined-rooms.json``, at most
:data:`MOST_ROOMS`): the menu offers to go back to a game joined there that its journal
shows unfinished (:mod:`cakeparty.tui.comeback`), and never to one this player hosted
or one whose host closed it (:func:`forget_room`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from cakeparty.protocol.journal import data_dir, write_private
from cakeparty.protocol.lobby import parse_code
from cakeparty.protocol.transport import BrokerAddress

FILE = "joined.json"
ROOMS_FILE = "joined-rooms.json"
#: brokers remembered at most
MOST = 4
#: room codes remembered at most
MOST_ROOMS = 8


def _path(directory: str | os.PathLike[str] | None, name: str = FILE) -> Path:
    return data_dir(directory) / name


def _read(directory: str | os.PathLike[str] | None, name: str) -> list[str]:
    """The strings of a list file (an unreadable file, or one that is no list, is empty)."""
    try:
        data = json.loads(_path(directory, name).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # nested past any parser's depth too
        return []
    if not isinstance(data, list):
        return []
    return [item for item in data if isinstance(item, str)]


def _write(
    items: list[str],
    directory: str | os.PathLike[str] | None,
    name: str,
) -> None:
    """Write a list file (one that cannot be written is left alone; mode 0600)."""
    path = _path(directory, name)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_private(path, json.dumps(items) + "\n")


def joined_brokers(directory: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The brokers remembered, the newest first (only well-formed addresses), each with
    its login if it was joined with one (:attr:`BrokerAddress.url`: never to be shown)."""
    return tuple(_joined(directory).values())[:MOST]


def _joined(directory: str | os.PathLike[str] | None) -> dict[str, str]:
    """The brokers remembered, the newest first: each as shown, and as joined."""
    out: dict[str, str] = {}
    for item in _read(directory, FILE):
        try:
            address = BrokerAddress.parse(item)
        except ValueError:
            continue
        out.setdefault(str(address), address.url)
    return out


def remember_broker(broker: str, directory: str | os.PathLike[str] | None = None) -> None:
    """Put ``broker`` first in the list, with its login (a malformed address, or a file
    that cannot be written, is left alone: remembering is a convenience, never an
    error)."""
    try:
        address = BrokerAddress.parse(broker)
    except ValueError:
        return
    kept = [url for seen, url in _joined(directory).items() if seen != str(address)]
    _write([address.url, *kept][:MOST], directory, FILE)


def joined_rooms(directory: str | os.PathLike[str] | None = None) -> tuple[str, ...]:
    """The codes of the rooms joined last, the newest first (only well-formed codes, one
    per room id)."""
    out: dict[str, str] = {}
    for item in _read(directory, ROOMS_FILE):
        try:
            room, _tag = parse_code(item)
        except ValueError:
            continue
        out.setdefault(room, item.strip().upper())
    return tuple(list(out.values())[:MOST_ROOMS])


def remember_room(code: str, directory: str | os.PathLike[str] | None = None) -> None:
    """Put the room ``code`` names first among the rooms joined (its full code, when
    given, replaces a bare id; a malformed code is left alone)."""
    try:
        room, _tag = parse_code(code)
    except ValueError:
        return
    kept = [c for c in joined_rooms(directory) if parse_code(c)[0] != room]
    _write([code.strip().upper(), *kept][:MOST_ROOMS], directory, ROOMS_FILE)


def forget_room(code: str, directory: str | os.PathLike[str] | None = None) -> None:
    """Drop the room ``code`` names from the rooms joined (its host closed it)."""
    try:
        room, _tag = parse_code(code)
    except ValueError:
        return
    joined = joined_rooms(directory)
    kept = [c for c in joined if parse_code(c)[0] != room]
    if len(kept) != len(joined):
        _write(kept, directory, ROOMS_FILE)

"""A local game kept on disk as it goes, so that it outlives the app that played it.

A game against bots or hot-seat is written after every move: its setup (the dealer's seed
included) and the moves made, nothing else. The dealer is seeded, so the same moves from
the same seed deal the same cards: :func:`restore` plays them again on a new table and the
game is where it was, whatever ended the app (a crash, a closed terminal, a dropped SSH
connection). The menu offers it (``c``) until it ends, or is quit on purpose, or a new
game of the same game takes its place: each game keeps its latest (one game's kept game
does not stand in the way of another game), each in a file of its own.

The file is this player's own (in the data dir, beside the journals of networked games),
yet it is read as carefully as anything else: a file that is not a kept game, or whose
moves do not play, is no game to continue, never a crash. No UI library here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cakeparty.core.errors import CakePartyError
from cakeparty.core.i18n import _
from cakeparty.tui.settings import finite

if TYPE_CHECKING:  # the menu peeks at the file without loading the rules engine
    from cakeparty.core.actions import Action
    from cakeparty.protocol.journal import FileLock
    from cakeparty.tui.table.local import GameSetup, LocalTable

log = logging.getLogger(__name__)

#: the file of each game's kept game (``local-game-<game>.json``); the one file of
#: versions that kept a single game takes the name of its game when it is first looked for
FILE_NAME = "local-game-{game}.json"
OLD_FILE_NAME = "local-game.json"
VERSION = 1
#: at most this many bytes are read (a game's moves are a few dozen kilobytes)
MAX_BYTES = 4 * 1024 * 1024


def path(game: str) -> Path:
    """Where ``game``'s local game is kept: in the data dir (a player's own over SSH)."""
    from cakeparty.protocol.journal import data_dir

    return data_dir() / FILE_NAME.format(game=game)


def lock(game: str) -> FileLock:
    """The lock of ``game``'s kept game, held by the window that plays it: a second window
    of the same player (a browser tab, an SSH session) neither continues it nor writes
    another game over it while the first plays on."""
    from cakeparty.protocol.journal import FileLock, data_dir

    return FileLock(data_dir() / f"local-game-{game}.lock")


@dataclass(frozen=True)
class Offer:
    """What the menu says of the game kept: which game, whether hot-seat, when it was last
    saved (seconds since the epoch; 0: not said) and how many moves were made in it."""

    game: str
    hotseat: bool
    saved: float = 0.0
    moves: int = 0


def peek() -> tuple[Offer, ...]:
    """The games kept, as the menu offers them, the latest saved first, read without the
    rules engine (the moves are read when one is continued, by :func:`load`): a file that
    is not a game of its name here is no game kept."""
    from cakeparty.tui.table.registration import table_names

    _adopt_old_file()
    found = [offer for game in table_names() if (offer := _offered(game)) is not None]
    return tuple(sorted(found, key=lambda offer: -offer.saved))


def kept_of(game: str) -> Offer | None:
    """``game``'s kept game, if one is kept (only its own file is read)."""
    _adopt_old_file()
    return _offered(game)


def _offered(game: str) -> Offer | None:
    """``game``'s kept file as the menu offers it; ``None``: no file, or not a game of
    that name here (what the menu only tells, the time and the moves, may be missing)."""
    data = _json(path(game))
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    hotseat, saved, moves = data.get("hotseat"), data.get("saved"), data.get("moves")
    if data.get("game") != game or type(hotseat) is not bool:
        return None
    made = len(moves) if isinstance(moves, list) else 0
    return Offer(game, hotseat, finite(saved) or 0.0, made)


def _adopt_old_file() -> None:
    """The one kept game of earlier versions, moved to the file of its game (unless that
    game has one of its own already); a file that is no kept game is left where it is."""
    from cakeparty.protocol.journal import data_dir
    from cakeparty.tui.table.registration import table_names

    old = data_dir() / OLD_FILE_NAME
    if not old.exists():
        return
    data = _json(old)
    game = data.get("game") if isinstance(data, dict) else None
    if game not in table_names():
        return
    with contextlib.suppress(OSError):
        if path(game).exists():
            old.unlink()
        else:
            old.rename(path(game))


def _json(where: Path) -> Any:
    """A kept file's JSON, or ``None``: no file, or not JSON."""
    try:
        with where.open("rb") as fp:
            raw = fp.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ValueError("too large")
        return json.loads(raw)
    except (OSError, ValueError, RecursionError) as exc:
        if not isinstance(exc, FileNotFoundError):
            log.warning("the kept local game is unreadable: %s", exc)
        return None


@dataclass(frozen=True)
class Kept:
    """A local game as kept: how it was set up, who sits at this keyboard, the moves
    made (each seat's, in order) and when it was last written."""

    setup: GameSetup
    player: str
    moves: tuple[tuple[int, Action], ...]
    saved: float

    @property
    def game(self) -> str:
        return self.setup.game


def keep(table: LocalTable) -> None:
    """Write ``table``'s game (a table's keeper, called after each move) in place of the
    one of its game kept before; a game that is over is forgotten. A disk that refuses is
    said in the log, and the game goes on."""
    from cakeparty.core.actions import to_data

    if table.over:
        forget(table.setup.game)
        return
    setup = table.setup
    data = {
        "version": VERSION,
        "game": setup.game,
        "players": setup.players,
        "bots": setup.bots,
        "think": setup.think,
        "options": [list(pair) for pair in setup.options],
        "seed": setup.seed,
        "hotseat": setup.hotseat,
        "names": list(setup.names),
        "player": table.player,
        "moves": [[seat, to_data(action)] for seat, action in table.moves],
        "saved": time.time(),
    }
    from cakeparty.protocol.journal import write_private

    target = path(setup.game)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # the seed deals every hand: the file is for this user's eyes only
        write_private(target, json.dumps(data, separators=(",", ":")))
    except OSError:
        log.warning("the local game could not be kept", exc_info=True)


def forget(game: str) -> None:
    """No local game of ``game`` is kept any more (it ended, or was quit on purpose)."""
    with contextlib.suppress(OSError):
        path(game).unlink(missing_ok=True)


def load(game: str) -> Kept | None:
    """``game``'s local game kept, or ``None``: none, or a file that is not one."""
    data = _json(path(game))
    if data is None:
        return None
    try:
        kept = _read(data)
        if kept.game != game:
            raise ValueError("a kept game of another game")
        return kept
    except (ValueError, TypeError, KeyError, OverflowError, CakePartyError) as exc:
        log.warning("the kept local game is unreadable: %s", exc)
        return None


def _read(data: Any) -> Kept:
    from cakeparty.tui.table.local import GameSetup

    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ValueError("not a kept game of this version")
    game, bots = _typed(data, "game", str), _typed(data, "bots", str)
    player = _typed(data, "player", str)
    players, seed = _typed(data, "players", int), _typed(data, "seed", int)
    think = data["think"]
    if type(think) not in (int, float) or not 0 < think <= 60:
        raise ValueError("think")
    options = tuple(_pair(item) for item in _typed(data, "options", list))
    names = tuple(_text(name) for name in _typed(data, "names", list))
    setup = GameSetup(
        game=game,
        players=players,
        bots=bots,
        think=float(think),
        options=options,
        seed=seed,
        hotseat=_typed(data, "hotseat", bool),
        names=names,
    )
    from cakeparty.core import get_game

    get_game(setup.game)  # the game's rules, which name its actions, before its moves
    moves = tuple(_move(item) for item in _typed(data, "moves", list))
    saved = data["saved"]
    if type(saved) not in (int, float):
        raise ValueError("saved")
    return Kept(setup, player, moves, float(saved))


def _typed(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data[key]
    if type(value) is not kind:
        raise ValueError(f"{key}: not a {kind.__name__}")
    return value


def _text(value: Any) -> str:
    if type(value) is not str:
        raise ValueError("not text")
    return value


def _pair(item: Any) -> tuple[str, Any]:
    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not str:
        raise ValueError("an option is a key and its value")
    if type(item[1]) not in (str, int, bool):
        raise ValueError("an option's value is text, a number or a flag")
    return item[0], item[1]


def _move(item: Any) -> tuple[int, Action]:
    from cakeparty.core.actions import from_data

    if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
        raise ValueError("a move is a seat and its action")
    return item[0], from_data(item[1])


def restore(kept: Kept) -> LocalTable:
    """A table where ``kept``'s game was: the same setup, its moves made again. Raises
    :class:`ValueError` or :class:`~cakeparty.core.errors.CakePartyError` when the moves
    do not play (the file does not match the game)."""
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(kept.setup, kept.player)
    replay(table, kept.moves)
    return table


def replay(table: LocalTable, moves: Sequence[tuple[int, Action]]) -> None:
    """Make ``moves`` on ``table``; a :class:`ValueError` names the first that does not
    fit the game there (a file changed by hand, or written by another version)."""
    for number, (seat, action) in enumerate(moves, 1):
        try:
            if not 0 <= seat < table.players:
                raise ValueError(f"no seat {seat}")
            table.act(seat, action)
        except ValueError as exc:  # an illegal move too (a CakePartyError)
            raise ValueError(_("move {n} does not fit the game").format(n=number)) from exc

"""The SSH server: keys only, one app per session, at most so many at once.

Passwords are never offered, and no one logs in without a key. A client key is admitted
when it is in ``--authorized-keys`` (re-read when the file changes), or, without that
option, any key is: the key is then only a name, the player's home on this server.
Keyboard-interactive is offered once per connection for one thing only: to tell a
client none of whose keys got in why, and what to do (:func:`no_entry`); it admits no
one.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from cakeparty.core.i18n import _, ngettext
from cakeparty.tui.serving import ByAddress, address_key
from cakeparty.tui.sshserve import (
    KEEPALIVE,
    KEEPALIVE_CHECKS,
    LOGIN_TIMEOUT,
    MAX_LOGINS,
    MAX_LOGINS_FROM,
)
from cakeparty.tui.sshserve.homes import PLAYERS_DIR, PlayerHome, server_dir
from cakeparty.tui.sshserve.session import GameSession, Launch


@dataclass
class ServeOptions:
    """What ``cakeparty serve-ssh`` was asked for."""

    host: str = ""
    port: int = 2222
    host_key: asyncssh.SSHKey | None = None
    authorized_keys: Path | None = None
    max_sessions: int = 50
    max_per_key: int = 3  # sessions of one key at once, and channels of one connection
    max_logins: int = MAX_LOGINS  # connections not logged in yet, at once
    max_logins_from: int = MAX_LOGINS_FROM  # … of them from one address
    idle_timeout: float = 1800  # seconds without a key press; 0: never
    keepalive: float = KEEPALIVE  # seconds between checks of a quiet connection; 0: never
    players: Path | None = None  # where players' homes go (default: in the data dir)
    language: str | None = None  # for players whose settings and locale choose none


@dataclass
class Player:
    """Who is on the other end of a connection, once their key is known."""

    user: str
    home: PlayerHome


class Authorized:
    """The ``--authorized-keys`` file, re-read when it changes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._keys = asyncssh.read_authorized_keys(str(path))  # a bad file stops the start
        self._stamp = self._stat()

    def _stat(self) -> tuple[int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)

    def admits(self, key: asyncssh.SSHKey, host: str, addr: str) -> bool:
        stamp = self._stat()
        if stamp != self._stamp:
            try:
                self._keys = asyncssh.read_authorized_keys(str(self.path))
            except (OSError, ValueError) as exc:
                log(
                    _("cannot read {path}: {reason}; keeping the keys read before").format(
                        path=self.path, reason=exc
                    )
                )
            self._stamp = stamp
        return self._keys.validate(key, host, addr) is not None


@dataclass
class Sessions:
    """The sessions running now, and how many may: in all, and of one key."""

    limit: int
    per_key: int = 3
    running: dict[int, GameSession] = field(default_factory=dict)
    admitted: dict[int, str] = field(default_factory=dict)  # id(session): its key's id
    on_change: Callable[[], None] | None = None

    def admit(self, session: GameSession) -> str | None:
        """Count ``session`` in; or what to tell its player if it may not start."""
        if len(self.admitted) >= self.limit:
            return ngettext(
                "The server is full ({n} player); please try again later.",
                "The server is full ({n} players); please try again later.",
                self.limit,
            ).format(n=self.limit)
        key_id = session.player.home.key_id
        if sum(1 for other in self.admitted.values() if other == key_id) >= self.per_key:
            return ngettext(
                "Your key already has {n} session open here, the most one key may have at "
                "once; close it and try again.",
                "Your key already has {n} sessions open here, the most one key may have at "
                "once; close one and try again.",
                self.per_key,
            ).format(n=self.per_key)
        self.admitted[id(session)] = key_id
        return None

    def started(self, session: GameSession, launch: Launch) -> None:
        if session.pid is not None:
            self.running[session.pid] = session
        log(
            _("session {pid}: {user} ({fingerprint}) runs: cakeparty {argv}").format(
                pid=session.pid,
                user=session.player.user,
                fingerprint=session.player.home.fingerprint,
                argv=" ".join(launch.argv) or _("(the menu)"),
            )
        )

    def failed(self, session: GameSession, reason: Exception) -> None:
        """``session`` could not start its app: its place is free again."""
        self.admitted.pop(id(session), None)
        log(
            _("{user} ({fingerprint}): cannot start the app: {reason}").format(
                user=session.player.user,
                fingerprint=session.player.home.fingerprint,
                reason=str(reason) or type(reason).__name__,
            )
        )

    def leave(self, session: GameSession, how: str = "") -> None:
        self.admitted.pop(id(session), None)
        if session.pid is not None and self.running.pop(session.pid, None) is not None:
            log(_("session {pid}: ended: {how}").format(pid=session.pid, how=how))

    def hang_up_all(self) -> None:
        for session in list(self.running.values()):
            session.stop()


class Logins:
    """The connections that have not logged in yet: each holds memory and a file
    descriptor for up to :data:`LOGIN_TIMEOUT` seconds, so only :attr:`limit` may wait at
    once, and only :attr:`per_address` of them from one address (:func:`address_key`).
    When all the places are taken, a newcomer from an address holding fewer of them than
    the address holding the most takes the place of that address's oldest (closed), so
    many addresses together cannot keep a newcomer from elsewhere out either."""

    def __init__(self, limit: int, per_address: int = MAX_LOGINS_FROM) -> None:
        self.limit = limit
        self.per_address = per_address
        # only those waiting; a connection is closed by its ``evict()``
        self.waiting = ByAddress()
        self.said_full = False  # the log says so once, until fewer are logging in
        self.said_evicting = False  # likewise
        self.said_crowded: set[str] = set()  # addresses at their limit, said

    def enter(self, connection: Any, address: str = "") -> bool:
        """Whether ``connection``, from ``address`` (an :func:`address_key`), may log in.
        It may close another connection (calling its ``evict()``) to make room."""
        mine = self.waiting.count(address)
        if mine >= self.per_address:
            if address not in self.said_crowded:
                log(
                    ngettext(
                        "{address} has {n} connection logging in: closing its new ones "
                        "until it is done",
                        "{address} has {n} connections logging in: closing its new ones "
                        "until one of them is done",
                        self.per_address,
                    ).format(address=address or "?", n=self.per_address)
                )
                self.said_crowded.add(address)
            return False
        if len(self.waiting) >= self.limit:
            crowded, theirs, oldest = self.waiting.busiest()
            if mine >= theirs:
                if not self.said_full:
                    log(
                        ngettext(
                            "{n} connection is logging in at once: closing new ones from "
                            "the addresses with the most of them, until fewer are logging in",
                            "{n} connections are logging in at once: closing new ones from "
                            "the addresses with the most of them, until fewer are logging in",
                            self.limit,
                        ).format(n=self.limit)
                    )
                    self.said_full = True
                return False
            if not self.said_evicting:
                log(
                    ngettext(
                        "{n} connection is logging in at once: a newcomer from an address "
                        "with fewer of them closes the oldest of the address with the most "
                        "(the oldest of {address}), until fewer are logging in",
                        "{n} connections are logging in at once: a newcomer from an address "
                        "with fewer of them closes the oldest of the address with the most "
                        "(the oldest of {address}), until fewer are logging in",
                        self.limit,
                    ).format(n=self.limit, address=crowded or "?")
                )
                self.said_evicting = True
            self.done(oldest)
            oldest.evict()
        else:
            self.said_full = self.said_evicting = False
        self.waiting.add(connection, address)
        return True

    def done(self, connection: Any) -> None:
        """``connection`` logged in, or closed: it holds its place no more."""
        address = self.waiting.remove(connection)
        if address is not None:
            self.said_crowded.discard(address)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def no_entry(key_refused: bool, listed_only: bool) -> str:
    """What a client that did not get in is told: ``key_refused`` when it offered a key
    that is not among the ``--authorized-keys`` (``listed_only``), else it offered none."""
    send = [
        _("This server admits only the keys its owner listed: send them your public key,"),
        _("the file ending in .pub (such as ~/.ssh/id_ed25519.pub)."),
    ]
    if key_refused:
        return "\n".join(
            [_("Cake Party: none of the keys this ssh offered is admitted here."), *send]
        )
    lines = [
        _("Cake Party admits players by their SSH key, never by password,"),
        _("and this ssh offered none. Make one with: ssh-keygen -t ed25519"),
    ]
    lines += send if listed_only else [_("then connect again.")]
    return "\n".join(lines)


class _Server(asyncssh.SSHServer):
    """One connection: its authentication, then its sessions."""

    def __init__(
        self,
        options: ServeOptions,
        sessions: Sessions,
        authorized: Authorized | None,
        logins: Logins,
    ) -> None:
        self._options = options
        self._sessions = sessions
        self._logins = logins
        self._authorized = authorized
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer = ("", "")
        self._address = ""  # whom it counts against among those logging in
        self._key: asyncssh.SSHKey | None = None
        self._channels = 0  # sessions open on this connection
        self._key_refused = False  # a key offered and not among the authorized ones
        self._told = False  # why it did not get in, said once (:func:`no_entry`)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("", 0)
        self._peer = (str(peer[0]), str(peer[0]))
        self._address = address_key(peer)
        if not self._logins.enter(self, self._address):
            conn.abort()  # before a word is sent: the socket closes at once

    def evict(self) -> None:
        """Closed, not logged in yet, to make room for a newcomer (:class:`Logins`)."""
        if self._conn is not None:
            self._conn.abort()

    def auth_completed(self) -> None:
        self._logins.done(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._logins.done(self)

    def begin_auth(self, username: str) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        # only to say why the keys did not get in, once: OpenSSH prints the instruction
        return not self._told

    def get_kbdint_challenge(
        self, username: str, lang: str, submethods: str
    ) -> tuple[str, str, str, list[tuple[str, bool]]]:
        self._told = True
        return ("", no_entry(self._key_refused, self._authorized is not None), "", [])

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return False  # never a way in

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._authorized is not None and not self._authorized.admits(key, *self._peer):
            self._key_refused = True
            return False
        # the last key accepted here is the one whose signature completes the login:
        # asyncssh checks the signature right after this call, before anything else
        self._key = key
        return True

    def session_requested(self) -> GameSession | bool:
        if self._conn is None or self._key is None:
            return False
        base = self._options.players or server_dir() / PLAYERS_DIR
        user = str(self._conn.get_extra_info("username") or "")
        most = self._options.max_per_key
        if self._channels >= most:
            # a connection is one key: it never needs more sessions than its key may run
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                ngettext(
                    "at most {n} session on one connection",
                    "at most {n} sessions on one connection",
                    most,
                ).format(n=most),
            )
        self._channels += 1
        player = Player(user, PlayerHome.of(self._key, base))
        return GameSession(
            player,
            self._sessions,
            self._options.idle_timeout,
            self._options.language,
            on_close=self._channel_closed,
        )

    def _channel_closed(self) -> None:
        self._channels -= 1


async def serve(options: ServeOptions, ready: Callable[[], None] | None = None) -> None:
    """Serve until SIGINT or SIGTERM; then hang up every session and reap it."""
    assert options.host_key is not None
    authorized = Authorized(options.authorized_keys) if options.authorized_keys else None
    sessions = Sessions(options.max_sessions, options.max_per_key)
    logins = Logins(options.max_logins, options.max_logins_from)
    listener = await asyncssh.create_server(
        lambda: _Server(options, sessions, authorized, logins),
        options.host,
        options.port,
        server_host_keys=[options.host_key],
        encoding=None,
        password_auth=False,
        kbdint_auth=True,  # it admits no one (_Server.validate_kbdint_response)
        gss_host=None,
        allow_scp=False,
        agent_forwarding=False,
        x11_forwarding=False,
        login_timeout=LOGIN_TIMEOUT,
        keepalive_interval=options.keepalive,
        keepalive_count_max=KEEPALIVE_CHECKS,
        server_version="CakeParty",
    )
    if ready is not None:
        ready()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        listener.close()
        sessions.hang_up_all()
        deadline = loop.time() + 10
        while sessions.running and loop.time() < deadline:
            await asyncio.sleep(0.1)
        with contextlib.suppress(Exception):
            await listener.wait_closed()

"""``cakeparty serve-web``: the app in a browser, served with textual-serve.

Each browser tab that opens the page gets its own ``cakeparty`` process (the menu), run
as this computer's user with this computer's settings, key and journals. Whoever reaches
the page therefore plays *as this computer*: the server listens on the loopback address
unless told otherwise, and says so loudly when it is told otherwise.

A page on any other site could open a websocket to ``localhost`` in the visitor's browser
(websockets ignore the same-origin policy) or reach it through a rebound DNS name, and
then type into the app. So the websocket only opens for a page this server served: the
browser's ``Origin`` must name the host the request was sent to, and while the server
listens on loopback that host must be a loopback name.

What a stranger may send is bounded: a request to the websocket's address that is no
websocket is refused in one line, a message that is not one of the page's is ignored, a
terminal size is at most :data:`MOST_CELLS` a side, at most ``--max-sessions`` tabs run
at once (one more is told the server is full), a tab without a key press for
``--idle-timeout`` seconds is closed, and an app that does not quit when its tab closes
is killed. A connection has :data:`HEADER_WAIT` seconds to send its request, one address
may have :data:`MOST_WAITING_FROM` connections at once that have not, and everyone
together a share of the files the server may open (:class:`Doorway`), so connections
opened and left unfinished (slowloris) cannot take the server's sockets. Nor can
connections whose requests were answered, kept alive for the next: one address has
:data:`MOST_OPEN_FROM` open at once (its tabs' websockets aside), one more closed at once,
and everyone together half the files the server may open (one more from an address
holding fewer takes the place of the oldest of the address holding the most). One
address has ``--max-per-address`` tabs at once (one more is told). The server's log says
each of these in a line, never with a traceback (but for a connection closed having sent
nothing: browsers open such connections ahead of their next requests).

Running ``python -m cakeparty.tui.webserve`` opens the app itself: it is the command that
each connection runs, in the environment that started the server (with the server's
``--lang``, when it was given one).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import logging
import resource
import shlex
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cakeparty.core.i18n import LANGUAGES, _, ngettext
from cakeparty.tui import arguments as arg
from cakeparty.tui.serving import MOST_CELLS, ByAddress, address_key, idle_notice

if TYPE_CHECKING:
    from aiohttp import web

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_SESSIONS = 10
DEFAULT_IDLE = 1800
#: the largest message a page may send (a key press, a paste, a resize)
MOST_MESSAGE = 64 * 1024
#: how long an app is given to quit once its tab has closed, before it is killed
QUIT_GRACE = 5.0
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: seconds a connection has to send its request, from when it opens
HEADER_WAIT = 10.0
#: seconds a connection is kept open, idle, after a request for the next one
KEEPALIVE = 15.0
#: connections from one address (an IPv6 /64) that have not sent their request yet, at
#: once: a browser opens six or so at a time, each sending its request at once
MOST_WAITING_FROM = 8
#: such connections from everyone at once: this many at most, and a quarter of the files
#: the server may open (sockets are files)
MOST_WAITING = 256
#: connections from one address open at once, but for its tabs' websockets: waiting for
#: their request, answering it or kept alive for the next (a browser keeps six or so)
MOST_OPEN_FROM = 32
#: connections from everyone open at once, but for the tabs' websockets: this many at most,
#: and half of the files the server may open
MOST_OPEN = 1024
#: tabs from one address at once (``--max-per-address``), so that one cannot take them all:
#: friends behind one home router playing a six-player game, a tab each, still fit
DEFAULT_PER_ADDRESS = 8
PAGE = Path(__file__).with_name("web")


def add_command(sub: Any) -> None:
    """Register ``serve-web`` on the ``cakeparty`` parser."""
    web_ = sub.add_parser(
        "serve-web", help=_("serve the app to web browsers (each tab gets its own app)")
    )
    web_.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("address to listen on (default 127.0.0.1: this computer only)"),
    )
    web_.add_argument(
        "--port",
        type=_port,
        default=DEFAULT_PORT,
        help=_("TCP port (default {port})").format(port=DEFAULT_PORT),
    )
    web_.add_argument(
        "--public-url",
        type=_public_url,
        default=None,
        metavar="URL",
        help=_(
            "the address browsers use, when it differs from the one they typed "
            "(behind a reverse proxy: https://cake.example.org)"
        ),
    )
    web_.add_argument(
        "--max-sessions",
        type=arg.positive,
        default=DEFAULT_SESSIONS,
        metavar="N",
        help=_("at most N tabs at once, each its own app (default {n})").format(n=DEFAULT_SESSIONS),
    )
    web_.add_argument(
        "--max-per-address",
        type=arg.positive,
        default=DEFAULT_PER_ADDRESS,
        metavar="N",
        help=_(
            "at most N tabs at once from one address, an IPv6 /64 (default {n}; behind a "
            "reverse proxy or a tunnel every tab comes from its address)"
        ).format(n=DEFAULT_PER_ADDRESS),
    )
    web_.add_argument(
        "--idle-timeout",
        type=arg.seconds,
        default=DEFAULT_IDLE,
        metavar="S",
        help=_("close a tab after S seconds without a key press; 0: never (default {n})").format(
            n=DEFAULT_IDLE
        ),
    )
    arg.add_language(
        web_,
        help=_(
            "the language of this server's messages and of the app in every tab: {languages} "
            "(default: from the settings, else LC_ALL, LC_MESSAGES or LANG)"
        ).format(languages=", ".join(LANGUAGES)),
    )
    web_.set_defaults(run=_cmd_serve_web, parser=web_)


def _port(text: str) -> int:
    value = arg.port(text)
    if value == 0:
        raise argparse.ArgumentTypeError(_("serve-web needs a port number, not 0"))
    return value


def _public_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not an http:// or https:// address").format(text=text)
        )
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer only."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def app_command(language: str | None = None) -> str:
    """The shell command each browser connection runs: the app, from this installation
    (in ``language`` when the server was given one)."""
    words = [sys.executable, "-m", "cakeparty.tui.webserve"]
    if language:
        words += ["--lang", language]
    return "exec " + shlex.join(words)  # the shell becomes the app: a kill reaches it


def listen_url(host: str, port: int) -> str:
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{name}:{port}"


def exposure_warning(host: str) -> str:
    return _(
        "Warning: listening on {host}, not only on this computer. Anyone who can reach "
        "this address opens Cake Party as you: your name, your player key and your "
        "unfinished games. Use the default 127.0.0.1 unless everyone on this network "
        "may play as you."
    ).format(host=host)


def origin_refusal(
    *, origin: str | None, host: str, listening: str, public_url: str | None
) -> str | None:
    """Why a request with these ``Origin`` and ``Host`` headers may not open the app, or
    ``None`` when it may. ``listening`` is the address the server is bound to."""
    if public_url is not None:
        allowed = {urlsplit(public_url).netloc.lower()}
    else:
        allowed = {host.lower()}
        try:
            hostname = urlsplit(f"//{host}").hostname or ""
        except ValueError:  # a malformed Host header (an unclosed "[")
            hostname = ""
        if is_loopback(listening) and not is_loopback(hostname):
            return _("this server only answers to localhost, not to {host}").format(host=host)
    if origin is None:
        return None  # not a browser: nothing another site could have sent
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        netloc = ""
    if netloc not in allowed:
        return _("a page from {origin} may not open this app").format(origin=origin)
    return None


def terminal_side(value: Any, default: int) -> int:
    """A terminal side a page asked for, as a number of cells from 1 to :data:`MOST_CELLS`
    (``default`` for anything that is no number)."""
    try:
        cells = int(value)
    except (TypeError, ValueError, OverflowError):
        return default
    return max(1, min(cells, MOST_CELLS))


def page_message(data: str) -> tuple[str, Any] | None:
    """What a page's websocket message asks: ``("stdin", text)``, ``("resize", (width,
    height))`` within bounds, ``("ping", token)``, ``("blur", None)`` or ``("focus",
    None)``; ``None`` for anything else (the message is ignored)."""
    try:
        envelope = json.loads(data)
    except (ValueError, RecursionError):  # no JSON, or nested past Python's depth
        return None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        return None
    kind = envelope[0]
    body = envelope[1] if len(envelope) > 1 else None
    if kind == "stdin" and isinstance(body, str):
        return kind, body
    if kind == "resize" and isinstance(body, dict):
        return kind, (terminal_side(body.get("width"), 80), terminal_side(body.get("height"), 24))
    if kind == "ping" and isinstance(body, str | int | float):
        return kind, body
    if kind in ("blur", "focus"):
        return kind, None
    return None


def say(text: str) -> None:
    """A line of the server's log."""
    print(text, file=sys.stderr, flush=True)


class OneLine(logging.Formatter):
    """A log record in one line: an error's traceback is left out (a stranger could
    otherwise fill the log, and the server's time, with pages of it)."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            text = f"{text}: {type(error).__name__}: {error}"
        return f"{record.name}: {text}"[:500]


class Repeats(logging.Filter):
    """Drops a record that repeats one of the last second (a flood of refused
    connections says so once a second, not once each)."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[tuple[str, str], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg)[:200])
        now = time.monotonic()
        if now - self.last.get(key, -1.0e9) < 1.0:
            return False
        if len(self.last) > 256:
            self.last.clear()
        self.last[key] = now
        return True


log = logging.getLogger("cakeparty.serve-web")


def most_waiting() -> int:
    """How many connections may be waiting for their request at once: :data:`MOST_WAITING`,
    and at most a quarter of the files this process may open."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_WAITING
    return max(1, min(MOST_WAITING, soft // 4))


def most_open_at_once() -> int:
    """How many connections may be open at once, but for the tabs' websockets:
    :data:`MOST_OPEN`, and at most half of the files this process may open."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_OPEN
    return max(1, min(MOST_OPEN, soft // 2))


class Doorway:
    """The connections that have not sent their request yet, counted by address
    (:func:`address_key`): :attr:`most_from` from one address at once (one more is
    refused), :attr:`most` from everyone (one more takes the place of the oldest of the
    address that holds the most, so a newcomer from elsewhere always gets in). And all
    the connections open but the tabs' websockets: :attr:`most_open_from` from one
    address at once (one more is refused), :attr:`most_open` from everyone (one more from
    an address holding fewer than the address holding the most takes the place of its
    oldest; one more from an address holding as many is refused)."""

    def __init__(
        self,
        most_from: int = MOST_WAITING_FROM,
        most: int | None = None,
        most_open_from: int = MOST_OPEN_FROM,
        most_open: int | None = None,
    ) -> None:
        self.most_from = most_from
        self.most = most_waiting() if most is None else most
        self.waiting = ByAddress()
        self.most_open_from = most_open_from
        self.most_open = most_open_at_once() if most_open is None else most_open
        self.open = ByAddress()  # every connection but the tabs' websockets

    def arrive(self, connection: Any, peer: Any) -> tuple[str | None, Any | None]:
        """Whether ``connection`` (from ``peer``) may be open: ``None``, or why not
        (``"address"``: its address has :attr:`most_open_from`; ``"full"``: everyone has
        :attr:`most_open` and its address as many as any); and the connection it takes the
        place of, if any (to be closed). It counts until :meth:`gone`."""
        key = address_key(peer)
        mine = self.open.count(key)
        if mine >= self.most_open_from:
            return "address", None
        evicted = None
        if len(self.open) >= self.most_open:
            _crowded, theirs, evicted = self.open.busiest()
            if mine >= theirs:
                return "full", None
            self.gone(evicted)
            self.leave(evicted)
        self.open.add(connection, key)
        return None, evicted

    def gone(self, connection: Any) -> None:
        """``connection`` closed, or became a tab's websocket (tabs have bounds of their
        own): it counts no more among its address's open connections."""
        self.open.remove(connection)

    def enter(self, connection: Any, peer: Any) -> tuple[bool, Any | None]:
        """Whether ``connection`` (from ``peer``) may wait for its request, and the
        connection it takes the place of, if any (to be closed)."""
        key = address_key(peer)
        if self.waiting.count(key) >= self.most_from:
            return False, None
        evicted = None
        if len(self.waiting) >= self.most:
            _crowded, _theirs, evicted = self.waiting.busiest()
            self.leave(evicted)
        self.waiting.add(connection, key)
        return True, evicted

    def leave(self, connection: Any) -> None:
        """``connection`` sent its request, or closed: it waits no more."""
        self.waiting.remove(connection)

    def is_waiting(self, connection: Any) -> bool:
        return connection in self.waiting


class Doorman(asyncio.Protocol):
    """A connection to the server, let through to aiohttp's own (``make()``) only if the
    :class:`Doorway` lets it wait for its request; closed if the request has not come
    within :data:`HEADER_WAIT` seconds."""

    def __init__(self, make: Callable[[], Any], door: Doorway) -> None:
        self.make = make
        self.door = door
        self.inner: Any = None
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        #: whether it has sent a byte: a browser opens connections ahead of its next
        #: requests (preconnects) and closes them unused, so a silent one closed for
        #: sending nothing is no news for the log
        self.heard = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        refused, evicted = self.door.arrive(transport, peer)
        if refused == "address":
            most = self.door.most_open_from
            said = ngettext(
                "a connection refused: {address} has {n} open",
                "a connection refused: {address} has {n} open",
                most,
            )
            log.warning(said.format(address=address_key(peer), n=most))
        elif refused is not None:
            most = self.door.most_open
            said = ngettext(
                "a connection refused: {n} is open, and {address} has as many as any",
                "a connection refused: {n} are open, and {address} has as many as any",
                most,
            )
            log.warning(said.format(address=address_key(peer), n=most))
        if refused is not None:
            transport.abort()
            return
        if evicted is not None:
            most = self.door.most_open
            said = ngettext(
                "a connection closed to make room: {n} was open",
                "a connection closed to make room: {n} were open",
                most,
            )
            log.warning(said.format(n=most))
            evicted.abort()
        admitted, evicted = self.door.enter(transport, peer)
        if not admitted:
            most = self.door.most_from
            said = ngettext(
                "a connection refused: {address} has {n} waiting to send its request",
                "a connection refused: {address} has {n} waiting to send their request",
                most,
            )
            log.warning(said.format(address=address_key(peer), n=most))
            transport.abort()
            return
        if evicted is not None:
            most = self.door.most
            said = ngettext(
                "a connection closed to make room: {n} was waiting to send its request",
                "a connection closed to make room: {n} were waiting to send their request",
                most,
            )
            log.warning(said.format(n=most))
            evicted.abort()
        self.timer = asyncio.get_running_loop().call_later(HEADER_WAIT, self._too_slow)
        self.inner = self.make()
        self.inner.connection_made(transport)

    def _too_slow(self) -> None:
        if self.transport is not None and self.door.is_waiting(self.transport):
            if self.heard:
                wait = round(HEADER_WAIT)
                said = ngettext(
                    "a connection closed: no request within {n} second",
                    "a connection closed: no request within {n} seconds",
                    wait,
                )
                log.warning(said.format(n=wait))
            self.door.leave(self.transport)
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        self.heard = True
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.transport is not None:
            self.door.leave(self.transport)
            self.door.gone(self.transport)
        if self.inner is not None:
            self.inner.connection_lost(exc)


def build_server(
    host: str,
    port: int,
    public_url: str | None,
    language: str | None = None,
    *,
    max_sessions: int = DEFAULT_SESSIONS,
    idle_timeout: float = DEFAULT_IDLE,
    max_per_address: int = DEFAULT_PER_ADDRESS,
) -> Any:
    """A textual-serve server that runs the app for each browser connection."""
    import aiohttp_jinja2
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    class CakePartyServer(Server):
        """textual-serve with our page, our origin check, URLs that follow the address
        the browser used (so it works behind ``0.0.0.0`` or an SSH tunnel), and the
        bounds of the module's docstring."""

        def __init__(self) -> None:
            super().__init__(
                app_command(language),
                host=host,
                port=port,
                title="Cake Party",
                public_url=public_url or listen_url(host, port),
                templates_path=PAGE,
            )
            self.fixed_url = public_url
            self.tabs = 0  # apps running now, one a tab
            self.tabs_from: dict[str, int] = {}  # … by address (only those with some)
            self.door = Doorway()

        def serve(self, debug: bool = False) -> None:
            """Serve until SIGINT or SIGTERM, every connection through :attr:`door`
            (textual-serve's own lets any number wait for their request for 75 s).
            :class:`OSError` if the address cannot be listened on."""
            self.debug = debug
            self.initialize_logging()
            asyncio.run(self._serve())

        async def _serve(self) -> None:
            loop = asyncio.get_running_loop()
            stop = asyncio.Event()
            for signum in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(signum, stop.set)
            app = await self._make_app()
            door = self.door

            @web.middleware
            async def past_the_door(request: web.Request, handler: Any) -> web.StreamResponse:
                door.leave(request.transport)  # its request came: it waits no more
                response: web.StreamResponse = await handler(request)
                return response

            app.middlewares.append(past_the_door)
            runner = web.AppRunner(app, handle_signals=False, keepalive_timeout=KEEPALIVE)
            await runner.setup()
            try:
                made = runner.server
                assert made is not None
                server = await loop.create_server(lambda: Doorman(made, door), host, port)
                try:
                    await stop.wait()
                finally:
                    server.close()
            finally:
                await runner.cleanup()

        def initialize_logging(self) -> None:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(OneLine())
            handler.addFilter(Repeats())
            logging.basicConfig(level=logging.WARNING, handlers=[handler], force=True)

        async def on_startup(self, app: web.Application) -> None:
            print(
                _("Serving Cake Party on {url} (Ctrl+C stops it)").format(url=self.public_url),
                flush=True,
            )

        def _refuse(self, request: web.Request) -> None:
            reason = origin_refusal(
                origin=request.headers.get("Origin"),
                host=request.host,
                listening=host,
                public_url=self.fixed_url,
            )
            if reason is not None:
                raise web.HTTPForbidden(text=reason)

        def _base(self, request: web.Request) -> str:
            return self.fixed_url or f"{request.scheme}://{request.host}"

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            self._refuse(request)
            base = self._base(request)
            socket = ("wss" if base.startswith("https") else "ws") + base[base.index(":") :]
            context = {
                "font_size": _font_size(request.query.get("fontsize", "16")),
                "static_url": f"{base}/static/",
                "websocket_url": f"{socket}/ws",
                "texts": {
                    "title": "Cake Party",
                    "start": _("Start"),
                    "ended": _("Session ended."),
                    "restart": _("Restart"),
                },
            }
            response: web.StreamResponse = aiohttp_jinja2.render_template(
                "index.html", request, context
            )
            return response

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            self._refuse(request)
            websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MOST_MESSAGE)
            if not websocket.can_prepare(request).ok:
                raise web.HTTPBadRequest(
                    text=_("This is the app's websocket: open {url} in a browser.").format(
                        url=self._base(request) + "/"
                    )
                )
            await websocket.prepare(request)
            if self.tabs >= max_sessions:
                say(
                    ngettext(
                        "a tab refused: {n} tab is open",
                        "a tab refused: {n} tabs are open",
                        self.tabs,
                    ).format(n=self.tabs)
                )
                notice = ngettext(
                    "The server is full ({n} tab at once): try again later.",
                    "The server is full ({n} tabs at once): try again later.",
                    max_sessions,
                ).format(n=max_sessions)
                await websocket.send_bytes(("\r\n" + notice + "\r\n").encode("utf-8"))
                await websocket.close()
                return websocket
            address = address_key(
                request.transport and request.transport.get_extra_info("peername")
            )
            if self.tabs_from.get(address, 0) >= max_per_address:
                say(
                    ngettext(
                        "a tab refused: {address} has {n} tab open",
                        "a tab refused: {address} has {n} tabs open",
                        max_per_address,
                    ).format(address=address or "?", n=max_per_address)
                )
                notice = ngettext(
                    "Too many tabs from your address ({n} at once): close one and try again.",
                    "Too many tabs from your address ({n} at once): close one and try again.",
                    max_per_address,
                ).format(n=max_per_address)
                await websocket.send_bytes(("\r\n" + notice + "\r\n").encode("utf-8"))
                await websocket.close()
                return websocket
            self.door.gone(request.transport)  # a tab: counted as one from here on
            self.tabs += 1
            self.tabs_from[address] = self.tabs_from.get(address, 0) + 1
            app = AppService(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            pressed = [time.monotonic()]  # the last key press
            idle: asyncio.Task[None] | None = None
            try:
                query = request.query
                await app.start(
                    terminal_side(query.get("width"), 80), terminal_side(query.get("height"), 24)
                )
                if idle_timeout:
                    idle = asyncio.create_task(self._close_when_idle(websocket, pressed))
                await self._relay(websocket, app, pressed)
            except asyncio.CancelledError:
                pass
            finally:
                if idle is not None:
                    idle.cancel()
                await self._stop(app)
                self.tabs -= 1
                left = self.tabs_from.pop(address) - 1
                if left:
                    self.tabs_from[address] = left
                with contextlib.suppress(Exception):
                    await websocket.close()
            return websocket

        async def _relay(
            self, websocket: web.WebSocketResponse, app: AppService, pressed: list[float]
        ) -> None:
            """The page's messages to its app, until the page goes."""
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                asked = page_message(message.data)
                if asked is None:
                    continue
                kind, body = asked
                if kind == "stdin":
                    pressed[0] = time.monotonic()
                    await app.send_bytes(body.encode("utf-8"))
                elif kind == "resize":
                    await app.set_terminal_size(*body)
                elif kind == "ping":
                    await websocket.send_json(["pong", body])
                elif kind == "blur":
                    await app.blur()
                else:
                    await app.focus()

        async def _close_when_idle(
            self, websocket: web.WebSocketResponse, pressed: list[float]
        ) -> None:
            while not websocket.closed:
                left = pressed[0] + idle_timeout - time.monotonic()
                if left > 0:
                    await asyncio.sleep(left)
                    continue
                say(_("a tab closed for want of a key press"))
                with contextlib.suppress(Exception):
                    await websocket.send_bytes(idle_notice(idle_timeout).encode("utf-8"))
                    await websocket.close()
                return

        async def _stop(self, app: AppService) -> None:
            """Ask the app to quit; kill it if it has not ended within :data:`QUIT_GRACE`."""
            loop = asyncio.get_running_loop()
            deadline = loop.time() + QUIT_GRACE
            with contextlib.suppress(Exception):  # it did not answer in time, or its pipes are gone
                await asyncio.wait_for(app.stop(), QUIT_GRACE)
            process = app._process  # textual-serve keeps it to itself
            if process is None:
                return
            try:
                await asyncio.wait_for(process.wait(), max(0.1, deadline - loop.time()))
            except TimeoutError:
                say(_("an app that did not quit when its tab closed was killed"))
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()

    return CakePartyServer()


def _font_size(text: str) -> int:
    try:
        return max(6, min(int(text), 48))
    except ValueError:
        return 16


def _cmd_serve_web(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not is_loopback(args.host):
        print(exposure_warning(args.host), file=sys.stderr, flush=True)
    server = build_server(
        args.host,
        args.port,
        args.public_url,
        args.lang,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout,
        max_per_address=args.max_per_address,
    )
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the address is not this computer's
        parser.error(
            _("cannot listen on {url}: {reason}").format(
                url=listen_url(args.host, args.port), reason=exc.strerror or exc
            )
        )
    return 0


if __name__ == "__main__":
    from cakeparty.tui.cli import main

    raise SystemExit(main(sys.argv[1:]))

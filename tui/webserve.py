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

Running ``python -m cakeparty.tui.webserve`` opens the app itself: it is the command that
each connection runs, in the environment that started the server (with the server's
``--lang``, when it was given one).
"""

from __future__ import annotations

import argparse
import ipaddress
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cakeparty.core.i18n import LANGUAGES, _
from cakeparty.tui import arguments as arg

if TYPE_CHECKING:
    from aiohttp import web

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
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
    return shlex.join(words)


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


def build_server(host: str, port: int, public_url: str | None, language: str | None = None) -> Any:
    """A textual-serve server that runs the app for each browser connection."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server

    class CakePartyServer(Server):
        """textual-serve with our page, our origin check and URLs that follow the
        address the browser used (so it works behind ``0.0.0.0`` or an SSH tunnel)."""

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

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            self._refuse(request)
            base = self.fixed_url or f"{request.scheme}://{request.host}"
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
            response: web.WebSocketResponse = await super().handle_websocket(request)
            return response

    return CakePartyServer()


def _font_size(text: str) -> int:
    try:
        return max(6, min(int(text), 48))
    except ValueError:
        return 16


def _cmd_serve_web(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if not is_loopback(args.host):
        print(exposure_warning(args.host), file=sys.stderr, flush=True)
    server = build_server(args.host, args.port, args.public_url, args.lang)
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

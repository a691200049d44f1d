"""The MQTT transport: one async client that owns the connection and survives drops.

    async with Transport(BrokerAddress.parse("mqtt://localhost:1883"), client_id="p1") as t:
        await t.subscribe(topics.log(room))
        await t.publish(topics.log(room), envelope_bytes)
        async for message in t.messages():
            ...

Payloads are bytes in both directions; encoding happens elsewhere, in one place. The
connection is MQTT 3.1.1 (any broker: the embedded one, Mosquitto, EMQX …), QoS 1, with a
persistent session, a last will, and heartbeats so that a dead connection is noticed even
when the app has nothing to say. A lost connection is re-established with backoff by
leaving and re-entering the client; subscriptions are renewed and whatever was published
while away is sent then. QoS 1 may deliver a message twice: the room log drops duplicates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import aiomqtt

from cakeparty.core.i18n import N_, _
from cakeparty.protocol.topics import Topic

#: what a transport says of its owner (its last will, its presence): bytes, or what makes
#: them afresh each time they are said (a presence stamped for each connection)
Said = bytes | Callable[[], bytes]


def _said(payload: Said) -> bytes:
    return payload() if callable(payload) else payload


log = logging.getLogger(__name__)


class _LateAcknowledgement(logging.Filter):
    """The MQTT library reports a subscription or unsubscription acknowledged after it gave
    up waiting (a broker slower than its timeout) as an error with a traceback. Nothing is
    wrong: the broker did subscribe, and every subscription is renewed on reconnection
    anyway. It is noted at debug level, not printed on a bot's or host's stderr."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith("Unexpected message ID"):
            log.debug("late acknowledgement from the broker: %s", record.getMessage())
            return False
        return True


#: the MQTT client's own logger (the library's and paho's messages)
mqtt_log = log.getChild("mqtt")
mqtt_log.addFilter(_LateAcknowledgement())

DEFAULT_PORT = 1883
DEFAULT_TLS_PORT = 8883


class TransportError(Exception):
    """The broker cannot be reached, refused us, or did not pass something on.

    ``text`` says so for the user, marked for translation; its ``{broker}`` is ``broker``
    and its ``{why}`` is ``why`` (marked too) or, when no plainer words are known, what the
    connection said (``detail``). :meth:`said` puts it in the user's language; ``str()``
    is the whole of it in English, the connection's own words included, for logs.
    """

    def __init__(self, text: str, *, broker: str = "", why: str = "", detail: str = "") -> None:
        self.text = text
        self.broker = broker
        self.why = why
        self.detail = detail
        english = text.format(broker=broker, why=why or detail)
        super().__init__(f"{english} ({detail})" if why and detail else english)

    def said(self, translate: Callable[[str], str]) -> str:
        """The message in the language of ``translate`` (the UI's ``_``)."""
        why = translate(self.why) if self.why else self.detail
        return translate(self.text).format(broker=self.broker, why=why)


def password_span(text: str, *, typing: bool = False) -> tuple[int, int] | None:
    """Where a broker address holds a password (``user:password@host``): from after the
    user's colon to the last ``@``. ``typing``: the address is still being typed, so a
    colon with no ``@`` after it yet is taken to start a password once what follows it
    cannot be a port (anything but digits); a field that masks it never shows one."""
    start = text.find("://")
    start = 0 if start < 0 else start + 3
    at = text.rfind("@", start)
    if at >= 0:
        colon = text.find(":", start, at)
        return (colon + 1, at) if colon >= 0 else None
    if not typing or text.startswith("[", start):
        return None  # no login; an IPv6 host's colons hold no password
    colon = text.find(":", start)
    rest = text[colon + 1 :]
    if colon < 0 or not rest or rest.rstrip("/").isdigit():
        return None
    return colon + 1, len(text)


def masked(text: str, *, typing: bool = False, mask: str = "•") -> str:
    """``text`` with the password of a broker address in it (:func:`password_span`)
    replaced by ``mask``, one for each character."""
    span = password_span(text, typing=typing)
    if span is None:
        return text
    start, end = span
    return text[:start] + mask * (end - start) + text[end:]


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is: ``mqtt://[user[:password]@]host[:port]`` or ``mqtts://…``."""

    host: str
    port: int = DEFAULT_PORT
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, text: str) -> BrokerAddress:
        """Read a broker URL; a bare ``host`` or ``host:port`` means ``mqtt://``."""
        text = given = text.strip()

        def refused(words: str) -> ValueError:
            # the address as the player gave it, never with its password
            return ValueError(_(words).format(address=repr(masked(given))))

        if not text.isprintable():  # a line break or an escape sequence is no address
            raise refused(N_("not a broker address: {address}"))
        if "://" not in text:
            text = "mqtt://" + text
        try:
            url = urlsplit(text)
        except ValueError:
            raise refused(N_("not a broker address: {address}")) from None
        try:
            port = url.port
        except ValueError:
            raise refused(
                N_("not a broker address: {address} (its port must be a number up to 65535)")
            ) from None
        if url.scheme not in ("mqtt", "mqtts"):
            raise ValueError(
                _("a broker address starts with mqtt:// or mqtts://, not {scheme}://").format(
                    scheme=url.scheme
                )
            )
        if not url.hostname:
            raise refused(N_("no host in broker address {address}"))
        if url.path not in ("", "/") or url.query or url.fragment:
            raise refused(N_("a broker address has no path: {address}"))
        tls = url.scheme == "mqtts"
        username = unquote(url.username) if url.username else None
        if username is not None and not username.isprintable():  # shown with the address
            raise refused(N_("not a broker address: {address}"))
        return cls(
            host=url.hostname,
            port=port or (DEFAULT_TLS_PORT if tls else DEFAULT_PORT),
            tls=tls,
            username=username,
            password=unquote(url.password) if url.password else None,
        )

    def __str__(self) -> str:
        """The address as shown: without its password."""
        return self._text(with_password=False)

    @property
    def public(self) -> BrokerAddress:
        """The address for others: without this player's login (each has its own)."""
        return replace(self, username=None, password=None)

    @property
    def url(self) -> str:
        """The address to connect to again, its password included (not for showing)."""
        return self._text(with_password=True)

    def _text(self, *, with_password: bool) -> str:
        user = ""
        if self.username:
            user = quote(self.username, safe="")
            if with_password and self.password:
                user += ":" + quote(self.password, safe="")
            user += "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{host}:{self.port}"


@dataclass(frozen=True)
class Message:
    """One message received."""

    topic: str
    payload: bytes
    retained: bool


@dataclass(frozen=True)
class _Outgoing:
    topic: str
    payload: bytes
    retain: bool


async def stop_task(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait until it has ended.

    On Python 3.11 a cancellation that arrives as an inner ``wait_for`` finishes can be
    lost (CPython gh-86296) — aiomqtt waits for every acknowledgement that way — and the
    task then runs on. So cancel again until it is done.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.5)
    if not task.cancelled():
        task.exception()  # retrieved: an error on the way out is not worth a warning


def _cancel_requested() -> bool:
    """Whether the running task was asked to stop (even if the request was lost on the
    way, as :func:`stop_task` explains)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


def _let_go(client: aiomqtt.Client) -> None:
    """Close the socket of a connection attempt that is over, while its loop runs. One that
    failed after the broker took the connection (no answer in time, or the answer a
    refusal) keeps its socket open, read by the loop, until the client is collected; and
    closing it then calls back into a loop that may be closed by then (Python reports an
    exception it cannot raise)."""
    with contextlib.suppress(OSError, RuntimeError, AttributeError):
        client._client._sock_close()


#: what a connection attempt says when the broker hung up before answering it
HUNG_UP = "the broker hung up before answering"

#: What a failed connection said, in plainer words: (marks, words, definite), the first
#: match wins. ``definite``: a first attempt that hears it will not do better by retrying
#: (nobody listens there, the name does not resolve — a negative errno is a resolver
#: error —, no route, the login refused, the certificate not trusted, no TLS on that port).
_PLAINER = (
    (("mismatch",), N_("its certificate is made out to another name"), True),
    (
        ("certificate verify failed",),
        N_(
            "its certificate is not one this computer trusts (SSL_CERT_FILE names a file "
            "of certificates to trust)"
        ),
        True,
    ),
    (("wrong version number",), N_("it does not speak TLS on that port (try mqtt://)"), True),
    (
        ("not authori", "bad user name or password"),
        N_("it did not accept the login (the user name and password in the address)"),
        True,
    ),
    (("refused",), N_("nothing answers on that port"), True),
    (
        (HUNG_UP, "reset by peer"),
        N_("it hung up at once (does that port want mqtts://?)"),
        True,
    ),
    (("[errno -",), N_("that name cannot be looked up"), True),
    (("unreachable",), N_("the network cannot reach it"), True),
    (("timed out", "no answer"), N_("no answer"), False),
)


def _known(reason: str) -> tuple[str, bool] | None:
    """The plainer words for ``reason`` and whether it is definite, if known."""
    reason = reason.lower()
    for marks, words, definite in _PLAINER:
        if any(mark in reason for mark in marks):
            return words, definite
    return None


def plainer(reason: str, *, tls: bool = False) -> str:
    """What a failed connection said (``reason``) in plainer words, marked for
    translation; empty if none are known. ``tls``: the connection asked for TLS."""
    if tls and "reset by peer" in reason.lower():  # a broker that does not speak TLS there
        return N_("it hung up at once (is that port one for mqtts://?)")
    if tls and HUNG_UP in reason.lower():  # after TLS went through: not a plain port
        return N_("it hung up before answering")
    known = _known(reason)
    return known[0] if known is not None else ""


def definite_failure(reason: str) -> bool:
    """Whether a failed connection attempt says the broker is not there (or will not have
    us), rather than slow or briefly gone."""
    known = _known(reason)
    return known is not None and known[1]


def _as_bytes(payload: object) -> bytes:
    """Payloads are bytes; anything else a broker hands us is read as empty."""
    if isinstance(payload, (bytes, bytearray)):
        return bytes(payload)
    return b""


class Transport:
    """An MQTT connection that reconnects by itself. Use as an async context manager."""

    def __init__(
        self,
        address: BrokerAddress,
        *,
        client_id: str,
        will: tuple[Topic, Said] | None = None,
        online: tuple[Topic, Said] | None = None,
        offline: Said | None = None,
        heartbeat: float = 10.0,
        keepalive: int = 20,
        backoff: tuple[float, float] = (0.2, 5.0),
        connect_timeout: float = 10.0,
        max_pending: int = 10_000,
        max_queued_bytes: int = 32 * 1024 * 1024,
        fail_fast: bool = True,
    ) -> None:
        """``will`` is published by the broker if we vanish; ``online`` (retained) on
        every connection and as a heartbeat; ``offline`` on ``online``'s topic at a clean
        exit. Each may be a function that makes it afresh, asked each time it is said
        (the will once a connection, before it is made). ``fail_fast``: a first attempt
        that is refused (nobody listens, no such host) fails at once instead of retrying
        until ``connect_timeout``; once connected, a lost connection is always retried."""
        self.address = address
        self.client_id = client_id
        self._will = will
        self._online = online
        self._offline = offline
        self._heartbeat = heartbeat
        self._keepalive = keepalive
        self._backoff = backoff
        self._connect_timeout = connect_timeout
        self._fail_fast = fail_fast
        self._filters: list[str] = []
        self._pending: deque[_Outgoing] = deque(maxlen=max_pending)
        self._queue: asyncio.Queue[Message] = asyncio.Queue()
        # what arrived but is not read yet, bounded: a flood faster than the reader
        # checks it must not grow memory; what is dropped a peer asks for again (sync)
        self._max_queued = max_queued_bytes
        self._queued_bytes = 0
        self.dropped = 0
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._sending = asyncio.Lock()
        self._closing = False
        self._runner: asyncio.Task[None] | None = None
        self._beats: asyncio.Task[None] | None = None
        self._first = asyncio.get_running_loop().create_future()
        self.connections = 0  # successful connections so far; >1 means we reconnected
        self.last_error: str | None = None

    # -- lifetime -------------------------------------------------------------------------

    async def __aenter__(self) -> Transport:
        self._runner = asyncio.create_task(self._run(), name=f"mqtt:{self.client_id}")
        try:
            await asyncio.wait_for(asyncio.shield(self._first), self._connect_timeout)
        except (TimeoutError, TransportError) as exc:
            await self.close()
            reason = self.last_error or "no answer"
            raise TransportError(
                N_("cannot reach the broker at {broker}: {why}"),
                broker=str(self.address),
                why=plainer(reason, tls=self.address.tls),
                detail=reason,
            ) from exc
        except BaseException:
            # cancelled while connecting (its owner stopped): no connection loop may live
            # on without anyone to close it
            await self.close()
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Say goodbye (``offline``), disconnect, and stop reconnecting."""
        if self._closing:
            return
        self._closing = True
        # no heartbeat may repeat ``online`` after the goodbye has been said
        if self._beats is not None:
            await stop_task(self._beats)
        client = self._client
        if client is not None and self._online is not None and self._offline is not None:
            with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
                await asyncio.wait_for(
                    client.publish(str(self._online[0]), _said(self._offline), qos=1, retain=True),
                    5.0,
                )
        if self._runner is not None:
            await stop_task(self._runner)
        self._connected.clear()

    async def set_online(self, payload: Said, *, topic: Topic | None = None) -> None:
        """Change what ``online`` says (and say it now): presence that changed. ``topic``:
        where to say it, for a transport made without ``online``, which from now on says
        it on every connection and as its heartbeat, as if made with it."""
        if topic is None:
            if self._online is None:
                raise ValueError("this transport has no online topic")
            topic = self._online[0]
        self._online = (topic, payload)
        await self.publish(topic, _said(payload), retain=True)

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Wait until the connection is up (again)."""
        await asyncio.wait_for(self._connected.wait(), timeout)

    # -- traffic --------------------------------------------------------------------------

    async def subscribe(self, topic: Topic) -> None:
        """Receive messages on ``topic`` (a filter may use ``+`` and ``#``), now and after
        every reconnection."""
        if topic.value in self._filters:
            return
        self._filters.append(topic.value)
        client = self._client
        if client is not None and self.connected:
            with contextlib.suppress(aiomqtt.MqttError):
                await client.subscribe(topic.value, qos=1)

    async def publish(self, topic: Topic, payload: bytes, *, retain: bool = False) -> None:
        """Send ``payload`` (QoS 1). While disconnected it waits in order, and is sent on
        reconnection."""
        if topic.is_filter:
            raise ValueError(f"cannot publish to a filter: {topic}")
        self._pending.append(_Outgoing(topic.value, bytes(payload), retain))
        client = self._client
        if client is not None and self.connected:
            try:
                await self._flush(client)
            except aiomqtt.MqttError as exc:
                self.last_error = str(exc)  # kept in order; sent once reconnected

    async def clear_retained(self, topic: Topic) -> None:
        """Remove the retained message on ``topic`` (an empty retained payload)."""
        await self.publish(topic, b"", retain=True)

    async def messages(self) -> AsyncIterator[Message]:
        """Every message received, across reconnections, until the transport closes."""
        while not self._closing:
            message = await self._queue.get()
            self._queued_bytes -= len(message.payload)
            yield message

    def received(self) -> int:
        """Messages waiting to be read."""
        return self._queue.qsize()

    @property
    def queued_bytes(self) -> int:
        """Bytes of the messages waiting to be read."""
        return self._queued_bytes

    # -- the connection loop ---------------------------------------------------------------

    def _client_for(self) -> aiomqtt.Client:
        address = self.address
        will = None
        if self._will is not None:
            will = aiomqtt.Will(str(self._will[0]), _said(self._will[1]), qos=1, retain=True)
        tls = ssl.create_default_context() if address.tls else None
        client = aiomqtt.Client(
            address.host,
            address.port,
            username=address.username,
            password=address.password,
            identifier=self.client_id,
            clean_session=False,
            keepalive=self._keepalive,
            will=will,
            tls_context=tls,
            protocol=aiomqtt.ProtocolVersion.V311,
            timeout=5.0,
            logger=mqtt_log,
        )
        # Moves are small messages answered at once; with Nagle's algorithm a write waits
        # for the peer's delayed ACK (~40 ms) whenever an earlier one is unacknowledged.
        paho = client._client
        opened = paho.on_socket_open

        def on_open(mqttc: Any, userdata: Any, sock: Any) -> None:
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if opened is not None:
                opened(mqttc, userdata, sock)

        paho.on_socket_open = on_open
        # A broker that hangs up before it answers the connection (a TLS port spoken to
        # without TLS does) leaves aiomqtt waiting for the answer until its timeout: the
        # attempt fails at once instead, and says so.
        disconnected = paho.on_disconnect

        def on_disconnect(*args: Any) -> None:
            def fail() -> None:
                waiting = client._connected
                if not waiting.done():
                    waiting.set_exception(aiomqtt.MqttError(HUNG_UP))

            with contextlib.suppress(RuntimeError):  # its loop closed: nothing waits
                client._loop.call_soon_threadsafe(fail)
            if disconnected is not None:
                disconnected(*args)

        paho.on_disconnect = on_disconnect
        return client

    async def _run(self) -> None:
        delay = self._backoff[0]
        while not self._closing:
            attempt = self._client_for()
            try:
                async with attempt as client:
                    self._client = client
                    await self._on_connect(client)
                    delay = self._backoff[0]
                    beats = asyncio.create_task(self._beat(client), name=f"beat:{self.client_id}")
                    self._beats = beats
                    try:
                        async for m in client.messages:
                            message = Message(str(m.topic), _as_bytes(m.payload), m.retain)
                            if self._queued_bytes + len(message.payload) > self._max_queued:
                                self.dropped += 1
                                continue
                            self._queued_bytes += len(message.payload)
                            self._queue.put_nowait(message)
                    finally:
                        beats.cancel()
            except aiomqtt.MqttError as exc:
                self.last_error = str(exc) or type(exc).__name__
                log.info("mqtt %s: connection lost: %s", self.client_id, self.last_error)
                first = not self._first.done() and self.connections == 0
                if first and self._fail_fast and definite_failure(self.last_error):
                    self._first.set_exception(TransportError("{why}", detail=self.last_error))
                    return
            finally:
                self._client = None
                self._connected.clear()
                _let_go(attempt)
            if self.closing or _cancel_requested():
                return  # (a cancellation aiomqtt's wait_for lost still ends the loop)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self._backoff[1])

    async def _on_connect(self, client: aiomqtt.Client) -> None:
        for topic in self._filters:
            await client.subscribe(topic, qos=1)
        if self._online is not None:
            await client.publish(str(self._online[0]), _said(self._online[1]), qos=1, retain=True)
        await self._flush(client)
        self.connections += 1
        self._connected.set()
        if not self._first.done():
            self._first.set_result(None)

    async def _flush(self, client: aiomqtt.Client) -> None:
        """Send what waits, oldest first; what fails stays for the next connection."""
        async with self._sending:
            while self._pending:
                item = self._pending[0]
                await client.publish(item.topic, item.payload, qos=1, retain=item.retain)
                self._pending.popleft()

    async def _beat(self, client: aiomqtt.Client) -> None:
        # an idle client may not notice a dead connection until it publishes
        while True:
            await asyncio.sleep(self._heartbeat)
            online = self._online  # none yet: a presence said later (see set_online)
            if online is None:
                continue
            with contextlib.suppress(aiomqtt.MqttError):
                await client.publish(str(online[0]), _said(online[1]), qos=1, retain=True)

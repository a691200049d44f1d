"""The embedded MQTT broker (amqtt), for playing with no server set up.

It relays; it is never trusted with anything: every envelope is signed and checked by
every peer, and cards are encrypted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from types import TracebackType
from typing import Any

DEFAULT_PORT = 1883

# The largest packet a client may send. The largest legitimate one is a mix of the biggest
# deck with its proof: 130 cards among 6 seats is 150 KB with today's proof at λ 32 (a few
# times that at λ 128); an envelope is refused by every peer above 2 MiB
# (``cakeparty.protocol.codec.MAX_ENVELOPE_BYTES``), so nothing larger is worth relaying.
# The margin covers the topic and MQTT's headers.
MAX_PACKET_BYTES = 2 * 1024 * 1024 + 64 * 1024


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def port_is_free(port: int, host: str = "0.0.0.0") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


def _bounded_broker(max_packet: int) -> Any:
    """amqtt's broker, closing the connection of a client that sends a larger packet
    (amqtt has no setting for it: every packet's body is read with one ``read(n)``)."""
    from amqtt.adapters import StreamReaderAdapter, StreamWriterAdapter
    from amqtt.broker import Broker

    class BoundedReader(StreamReaderAdapter):  # type: ignore[misc]
        async def read(self, n: int = -1) -> bytes:
            if n < 0 or n > max_packet:
                raise asyncio.IncompleteReadError(b"", n if n > 0 else None)
            data: bytes = await super().read(n)
            return data

    class BoundedBroker(Broker):  # type: ignore[misc]
        async def stream_connected(
            self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, listener_name: str
        ) -> None:
            await self._client_connected(
                listener_name, BoundedReader(reader), StreamWriterAdapter(writer)
            )

    return BoundedBroker


class EmbeddedBroker:
    """An in-process MQTT 3.1.1 broker. ``async with EmbeddedBroker(port=0) as b: b.url``."""

    def __init__(
        self, *, host: str = "0.0.0.0", port: int = DEFAULT_PORT, max_packet: int = MAX_PACKET_BYTES
    ) -> None:
        self.host = host
        self.port = port or free_port()
        self.max_packet = max_packet
        self._broker: Any = None

    @property
    def url(self) -> str:
        """The URL for clients on this machine."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"mqtt://{host}:{self.port}"

    async def start(self) -> None:
        # amqtt logs every connection at INFO; keep the terminal for the game
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.ERROR)
        Broker = _bounded_broker(self.max_packet)  # imported there: only the host needs it

        if not port_is_free(self.port, self.host):
            raise OSError(f"port {self.port} is already in use")
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
            },
        }
        self._broker = Broker(config)
        await self._broker.start()

    async def stop(self) -> None:
        if self._broker is not None:
            broker, self._broker = self._broker, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(broker.shutdown(), 10)

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


async def serve(host: str, port: int, ready: asyncio.Event | None = None) -> None:
    """Run a broker until cancelled (``cakeparty broker``)."""
    async with EmbeddedBroker(host=host, port=port):
        if ready is not None:
            ready.set()
        await asyncio.Event().wait()

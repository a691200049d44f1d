"""A free port for a broker about to start: none that an outgoing connection may be lent
between its choice and the broker's bind."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from cakeparty.broker.embedded import FREE_PORTS, free_port

LENT = Path("/proc/sys/net/ipv4/ip_local_port_range")  # Linux: the ports outgoing connections get


def test_a_free_port_is_outside_the_ports_lent_to_connections_and_free() -> None:
    ports = [free_port() for _ in range(20)]
    assert all(port in FREE_PORTS for port in ports)
    if LENT.exists():
        low, high = map(int, LENT.read_text().split())
        assert not any(low <= port <= high for port in ports), (low, high, ports)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", ports[-1]))  # free: a listener takes it
        listener.listen()


def test_a_port_someone_listens_on_is_not_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        # the range holds only the taken port and one other: the other is chosen
        monkeypatch.setattr("cakeparty.broker.embedded.FREE_PORTS", [busy, busy + 1])
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", busy + 1))
            except OSError:
                pytest.skip(f"port {busy + 1} is in use here")
        assert {free_port() for _ in range(10)} == {busy + 1}

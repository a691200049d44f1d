"""A broker behind TLS (``mqtts://``), on a real Mosquitto with a certificate authority of
the test's own: trusted through ``SSL_CERT_FILE``, a whole game is played over it by
separate processes; untrusted, or made out to another name, or addressed on a port that
speaks no TLS, the connection fails with a reason the user can act on."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cakeparty.broker.embedded import free_port
from cakeparty.protocol import topics
from cakeparty.protocol.transport import (
    HUNG_UP,
    BrokerAddress,
    Transport,
    TransportError,
    definite_failure,
    plainer,
)

from ..brokers import NO_MOSQUITTO, configured_mosquitto, mosquitto_binary
from ..network.netgame import BIN


@dataclass(frozen=True)
class TlsBroker:
    tls_port: int  # TLS, a certificate for "localhost" only
    plain_port: int  # no TLS
    authority: Path  # the certificate authority's certificate (PEM)


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A certificate authority, and a server certificate it signed for ``localhost``."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("Cake Party test authority"))
        .issuer_name(_name("Cake Party test authority"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(_name("localhost"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = folder / "ca.pem", folder / "server.pem", folder / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(server.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    for path in paths:  # started as root, Mosquitto drops to its own user
        path.chmod(0o644)
    return paths


@pytest.fixture(scope="module")
def tls_broker() -> Iterator[TlsBroker]:
    if mosquitto_binary() is None:
        pytest.skip(NO_MOSQUITTO)
    folder = Path(tempfile.mkdtemp(prefix="cakeparty-tls-"))
    folder.chmod(0o755)
    authority, certificate, key = _certificates(folder)
    tls_port, plain_port = free_port(), free_port()
    conf = (
        f"listener {tls_port} 127.0.0.1\ncertfile {certificate}\nkeyfile {key}\n"
        f"allow_anonymous true\nlistener {plain_port} 127.0.0.1\nallow_anonymous true\n"
    )
    with configured_mosquitto(folder, conf, tls_port, plain_port):
        yield TlsBroker(tls_port, plain_port, authority)


async def _refused(url: str) -> TransportError:
    with pytest.raises(TransportError) as caught:
        async with Transport(BrokerAddress.parse(url), client_id="t", connect_timeout=5):
            pass
    return caught.value


async def test_a_broker_whose_certificate_is_not_trusted_is_refused_and_told(
    tls_broker: TlsBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    exc = await _refused(f"mqtts://localhost:{tls_broker.tls_port}")
    assert "certificate verify failed" in exc.detail
    assert exc.why.startswith("its certificate is not one this computer trusts")
    assert "SSL_CERT_FILE" in exc.said(str)  # what to do about it
    assert definite_failure(exc.detail)  # no retrying until the timeout: it will not change


async def test_a_certificate_made_out_to_another_name_is_refused_and_told(
    tls_broker: TlsBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_broker.authority))
    exc = await _refused(f"mqtts://127.0.0.1:{tls_broker.tls_port}")  # made out to localhost
    assert "mismatch" in exc.detail
    assert exc.why == "its certificate is made out to another name"
    where = f"mqtts://127.0.0.1:{tls_broker.tls_port}"
    assert exc.said(str).startswith(f"cannot reach the broker at {where}: ")


async def test_mqtts_on_a_port_without_tls_is_told(tls_broker: TlsBroker) -> None:
    exc = await _refused(f"mqtts://127.0.0.1:{tls_broker.plain_port}")
    assert "mqtts://" in exc.why, exc  # Mosquitto hangs up: is that port one for TLS?


async def test_mqtt_on_a_tls_port_is_told_at_once(tls_broker: TlsBroker) -> None:
    exc = await _refused(f"mqtt://127.0.0.1:{tls_broker.tls_port}")
    # Mosquitto hangs up on the first bytes that are no TLS: the attempt ends there, not
    # at its timeout with "no answer"
    assert exc.detail == HUNG_UP and "mqtts://" in exc.why, exc
    assert definite_failure(exc.detail)


def test_a_hang_up_after_tls_went_through_is_not_put_down_to_tls() -> None:
    """mqtt:// hung up on before any answer: maybe a TLS port. mqtts:// whose TLS went
    through (a failed handshake says so in its own words) and then hung up on: not that."""
    assert "mqtts://" in plainer(HUNG_UP, tls=False)
    assert plainer(HUNG_UP, tls=True) == "it hung up before answering"
    assert "mqtts://" in plainer("[Errno 104] Connection reset by peer", tls=True)


async def test_a_trusted_broker_relays_over_tls(
    tls_broker: TlsBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_broker.authority))
    address = BrokerAddress.parse(f"mqtts://localhost:{tls_broker.tls_port}")
    assert address.tls
    ann, bob = Transport(address, client_id="ann"), Transport(address, client_id="bob")
    async with ann, bob:
        await bob.subscribe(topics.log("ROOM1"))
        await ann.publish(topics.log("ROOM1"), b"over tls")
        async for message in bob.messages():
            assert message.payload == b"over tls"
            break


def test_bot_processes_play_a_game_to_a_fair_end_over_tls(
    tls_broker: TlsBroker, tmp_path: Path
) -> None:
    env = {**os.environ, "SSL_CERT_FILE": str(tls_broker.authority), "TMPDIR": str(tmp_path)}
    out = subprocess.run(
        [
            BIN,
            "selfplay",
            "cake-duel",
            "--broker",
            f"mqtts://localhost:{tls_broker.tls_port}",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["audit"] == "fair" and report["winner"]

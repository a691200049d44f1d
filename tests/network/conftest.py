"""Real brokers for the network tests: the embedded one (as a ``cakeparty broker``
process) and Mosquitto (skipped, with the reason, where it is not installed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..brokers import NO_MOSQUITTO, Mosquitto, embedded_broker_process, mosquitto_binary


@pytest.fixture
def mosquitto() -> Iterator[Mosquitto]:
    if mosquitto_binary() is None:
        pytest.skip(NO_MOSQUITTO)
    with Mosquitto() as broker:
        yield broker


@pytest.fixture
def embedded() -> Iterator[str]:
    with embedded_broker_process() as url:
        yield url


@pytest.fixture(params=["embedded", "mosquitto"])
def broker_url(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "embedded":
        with embedded_broker_process() as url:
            yield url
    else:
        if mosquitto_binary() is None:
            pytest.skip(NO_MOSQUITTO)
        with Mosquitto() as broker:
            yield broker.url

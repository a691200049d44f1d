"""What a broker must do whoever else is connected: relay every message of a client that
connects while others subscribe, and give a client the retained messages of its own
subscriptions only. Both brokers: the embedded one (amqtt, mended where it fails) and
Mosquitto."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator

import pytest

from cakeparty.broker.embedded import EmbeddedBroker, Subscriptions
from cakeparty.protocol import topics
from cakeparty.protocol.transport import BrokerAddress, Transport

from ..brokers import NO_MOSQUITTO, Mosquitto, mosquitto_binary
from .test_transport import next_message


@pytest.fixture(params=["embedded", "mosquitto"])
async def address(request: pytest.FixtureRequest) -> AsyncIterator[BrokerAddress]:
    if request.param == "embedded":
        async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
            yield BrokerAddress.parse(broker.url)
    else:
        if mosquitto_binary() is None:
            pytest.skip(NO_MOSQUITTO)
        with Mosquitto() as mosquitto:
            yield BrokerAddress.parse(mosquitto.url)


HOST = "a" * 32


def room(n: int) -> str:
    return f"ROOM{n:04d}"


async def test_a_client_is_sent_only_the_retained_messages_of_its_own_subscriptions(
    address: BrokerAddress,
) -> None:
    async with Transport(address, client_id="keeper") as keeper:
        await keeper.subscribe(topics.next_room(room(1), HOST))
        await keeper.publish(topics.next_room(room(1), HOST), b"kept for room 1", retain=True)
        await next_message(keeper, lambda m: m.payload == b"kept for room 1")
        async with Transport(address, client_id="newcomer") as newcomer:
            await newcomer.subscribe(topics.next_room(room(2), HOST))
            await newcomer.publish(topics.next_room(room(2), HOST), b"mine")
            seen: list[str] = []

            def mine(message: object) -> bool:
                seen.append(message.topic)  # type: ignore[attr-defined]
                return message.payload == b"mine"  # type: ignore[attr-defined]

            await next_message(newcomer, mine)
            assert seen == [str(topics.next_room(room(2), HOST))]


async def test_a_client_connecting_while_others_subscribe_has_everything_relayed(
    address: BrokerAddress,
) -> None:
    """Each newcomer connects while a busy client keeps subscribing to new filters with
    retained messages on them, then publishes once: the listener gets every message."""
    newcomers = 40
    async with Transport(address, client_id="listener") as listener:
        await listener.subscribe(topics.chat(room(0)))
        async with Transport(address, client_id="busy") as busy:
            for n in range(1, 21):
                await busy.publish(topics.next_room(room(n), HOST), b"retained", retain=True)
                await busy.subscribe(topics.next_room(room(n), HOST))

            async def churn() -> None:
                for n in itertools.count(21):
                    await busy.subscribe(topics.log(room(n)))
                    # a subscription is answered before the next: never a busy loop
                    await asyncio.sleep(0 if busy.connected else 0.05)

            async def arrive() -> None:
                for n in range(newcomers):
                    async with Transport(address, client_id=f"newcomer-{n}") as newcomer:
                        await newcomer.publish(topics.chat(room(0)), b"%d" % n)
                        await newcomer.wait_connected()

            churning = asyncio.create_task(churn())
            try:
                await asyncio.wait_for(arrive(), 60)
            finally:
                churning.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await churning
        got: set[bytes] = set()

        def count(message: object) -> bool:
            got.add(message.payload)  # type: ignore[attr-defined]
            return len(got) == newcomers

        await next_message(listener, count, timeout=30)
        assert got == {b"%d" % n for n in range(newcomers)}


def test_the_subscription_table_may_change_while_it_is_walked() -> None:
    table = Subscriptions({"a": [], "b": []})
    for key in table:
        table[key + "+"] = []
    for key, _sessions in table.items():
        if not key.endswith("+"):
            del table[key]
    assert dict(table) == {"a+": [], "b+": []}

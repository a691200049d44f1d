"""What a broker must do whoever else is connected: relay every message of a client that
connects while others subscribe, and give a client the retained messages of its own
subscriptions only. Both brokers: the embedded one (amqtt, mended where it fails) and
Mosquitto."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from cakeparty.broker.embedded import Subscriptions
from cakeparty.protocol import lobby as lb
from cakeparty.protocol import topics
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.network import offer_next_room, wait_next_room
from cakeparty.protocol.transport import BrokerAddress, Message, Transport

from ..brokers import NO_MOSQUITTO, Mosquitto, embedded_broker_process, mosquitto_binary
from .test_transport import next_message


@pytest.fixture(params=["embedded", "mosquitto"])
async def address(request: pytest.FixtureRequest) -> AsyncIterator[BrokerAddress]:
    if request.param == "embedded":
        # as the app runs it: a broker process of its own (in the test's own event loop,
        # the broker's scheduling hides the race)
        with embedded_broker_process() as url:
            yield BrokerAddress.parse(url)
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

            def mine(message: Message) -> bool:
                seen.append(message.topic)
                return message.payload == b"mine"

            await next_message(newcomer, mine)
            assert seen == [str(topics.next_room(room(2), HOST))]


async def test_offers_made_while_guests_subscribe_all_arrive(address: BrokerAddress) -> None:
    """The play-again offer, many times over: each guest subscribes while its host
    connects and offers (the embedded broker used to drop one such offer in about fifty:
    the host's connection was acknowledged and never relayed)."""
    host = Identity.generate("Hank", lambda n: bytes(n))
    rng = random.Random(7)

    async def offers() -> None:
        for n in range(150):
            old = room(n)
            new = lb.room_code(lb.new_room_code(), host.player_id)
            waiting = asyncio.create_task(wait_next_room(address, old, host.player_id))
            for _ in range(rng.randrange(4)):
                await asyncio.sleep(0)
            await offer_next_room(address, host, old, new)
            assert await asyncio.wait_for(waiting, 10) == new, n

    # a few seconds when every offer arrives; a broker that drops them fails, never hangs
    await asyncio.wait_for(offers(), 120)


def test_the_subscription_table_may_change_while_it_is_walked() -> None:
    table = Subscriptions({"a": [], "b": []})
    for key in table:
        table[key + "+"] = []
    for key, _sessions in table.items():
        if not key.endswith("+"):
            del table[key]
    assert dict(table) == {"a+": [], "b+": []}

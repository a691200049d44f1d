"""A networked game stopped because a seat signed two versions of one step ends with a
dialog that says so and names that seat, not with the words of a card that is no card
(the only other way a game stopped without an outcome). Networked seats pass their
envelopes by hand; Bob's key signs two commitments for the first sealed pass."""

from __future__ import annotations

import random
import time

from cakeparty.protocol.codec import seal
from cakeparty.protocol.network import RoomEvent
from cakeparty.tui.games.cake_master.netscreen import NetMasterScreen
from cakeparty.tui.table.results import EndScreen

from .netseats import deliver, guest_room, seats_at
from .pilot import SIZE, OneScreen, until


async def test_two_versions_of_one_step_end_the_game_with_the_signer_named() -> None:
    now = time.monotonic()
    seats = seats_at("cake-master", 3, timeout=120, now=now)
    deliver(seats, now)
    ann, bob = seats[0], seats[1]
    peer = ann.session.peers[0]
    step = peer.step
    assert 1 in step.seats  # Bob seals a choice at this step
    rng = random.Random(2)
    key = bob.runner.identity.signing_key
    for _version in range(2):  # two commitments, each signed by Bob for the same step
        envelope = seal(
            key,
            room=ann.table.room,
            seq=peer.seq,
            prev=peer.prev,
            kind=step.kind,
            body={"c": rng.randbytes(32)},
        )
        ann.session.receive(envelope.to_bytes(), now)
    assert ann.over and not ann.fair
    screen = NetMasterScreen(ann, guest_room())
    app = OneScreen(screen)
    async with app.run_test(size=SIZE) as pilot:
        screen.room_event(RoomEvent("moved"))
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end's dialog")
        end = app.screen
        assert isinstance(end, EndScreen)
        assert end.headline == "The game was stopped: Bob broke the room's rules"
        assert "Audit: Bob cheated" in end.lines[-1]
        assert "two different envelopes for one step" in end.lines[-1]

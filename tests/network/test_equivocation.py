"""A seated player signs two different envelopes for one step, one seen by some peers and
the other by the rest, through a real broker: the attacker waits for a seat's connection
to drop (its last will says so to everyone), sends one version while it is away and the
other once it is back. The honest peers must name the attacker alone, end the game alike,
keep bounded memory and never hang; started again from their journals, they end it alike
at once. A spectator sees the same end, watching all along or come after it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from cakeparty.core import Action, to_data
from cakeparty.protocol import journal, topics
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.journal import journal_path
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.spectator import SpectatorRunner
from cakeparty.protocol.transport import BrokerAddress, Transport

from .liveroom import LiveRoom, stop

ATTACKER, AWAY, THERE = 2, 1, 0


def other_version(seat, first: Action, rng: random.Random) -> bytes:  # type: ignore[no-untyped-def]
    """A second envelope the attacker signs for the step it answers with ``first``."""
    peer = seat.peer
    if peer.step.kind == st.CHOICE_COMMIT:
        return a_version(seat, {"c": rng.randbytes(32)})  # a commitment to anything at all
    legal = peer.game.legal_actions(peer.state, peer.seat)
    return a_version(seat, {"a": to_data(next(a for a in legal if a != first))})


def a_version(seat, body: object) -> bytes:  # type: ignore[no-untyped-def]
    """An envelope the attacker's ``seat`` signs for the step its peer is at."""
    peer = seat.peer
    return seal(
        seat.identity.signing_key,
        room=peer.table.room,
        seq=peer.seq,
        prev=peer.prev,
        kind=peer.step.kind,
        body=body,
    ).to_bytes()


def choices(seat) -> int:  # type: ignore[no-untyped-def]
    """How many moves the seat could make now (0 when none is due)."""
    due = seat.session.due()
    if not due:
        return 0
    peer, _view = due[0]
    return len(peer.game.legal_actions(peer.state, peer.seat))


def spectator(room: LiveRoom, code: str, name: str) -> tuple[SpectatorRunner, asyncio.Task[None]]:
    """A spectator of the room ``code`` (``cakeparty watch``), running."""
    identity = Identity.generate(name, random_bytes=random.Random(name).randbytes)
    runner = SpectatorRunner(broker=BrokerAddress.parse(room.url), identity=identity, room=code)
    return runner, room.spawn(runner.run())


def named_alone(seat) -> None:  # type: ignore[no-untyped-def]
    """``seat``'s peer ended the game naming the attacker, and nobody else, for its two
    versions of one step."""
    named = {i.peer for i in seat.peer.incidents} - {None}
    assert named == {ATTACKER}, (seat.seat, [str(i) for i in seat.peer.incidents])
    verdict = seat.peer.verdict
    assert verdict is not None and verdict.seat == ATTACKER, verdict
    assert "two different envelopes" in verdict.reason


async def seen_end(room: LiveRoom, runner: SpectatorRunner, task: asyncio.Task[None]) -> Any:
    """The verdict the spectator's screen is told when the game ends (its watch then
    stops by itself)."""
    try:
        await room.until(task.done, f"spectator {runner.identity.name} sees the game end")
    finally:
        await stop(task)
    ends = []
    while not runner.events.empty():
        event = runner.events.get_nowait()
        if event.kind == "finished":
            ends.append(event.data)
    assert len(ends) == 1, ends
    return ends[0]


@pytest.mark.parametrize("game", ["cake-master", "cookies-battle", "cake-of-doom"], ids=lambda g: g)
async def test_two_versions_of_one_step_end_the_game_naming_their_signer_alone(
    embedded: str, tmp_path: Path, game: str
) -> None:
    async with LiveRoom(embedded, game, 3, tmp_path, seed=5) as room:
        attacker, away, there = room.seats[ATTACKER], room.seats[AWAY], room.seats[THERE]
        attacker.playing = False  # its moves are made below, by hand
        code = await room.advertise()
        watcher, watching = spectator(room, code, "W1")  # watching all along
        # the first step the attacker decides with a choice of moves, while the others
        # wait on it too (a simultaneous choice, or its own turn)
        while True:
            await room.until(lambda: attacker.session.due() != [], "the attacker's turn")
            if choices(attacker) > 1 and away.peer.seq == attacker.peer.seq:
                break
            peer, view = attacker.session.due()[0]
            peer.act(attacker.bot(view, attacker.rng))
            await room.until(lambda: attacker.session.due() == [], "the attacker's move taken")
        seq = attacker.peer.seq
        await away.disconnect()  # its laptop's Wi-Fi drops
        peer, view = attacker.session.due()[0]
        first = attacker.bot(view, attacker.rng)
        second = other_version(attacker, first, random.Random(1))
        peer.act(first)  # the first version, sent now
        await attacker.flush()
        await room.until(
            lambda: there.peer.seq > seq or ATTACKER in there.peer.got,
            "the seat still there took the first version",
        )
        await away.connect()  # back: the second version reaches it first
        assert attacker.transport is not None
        await attacker.transport.publish(topics.log(room.table.room), second)
        honest = (there, away)
        await room.until(
            lambda: (
                all(s.session.finished for s in honest)
                or any(i.peer not in (ATTACKER, None) for s in honest for i in s.peer.incidents)
            ),
            "the honest peers end the game",
        )
        for seat in honest:
            named_alone(seat)
            footprint = seat.session.footprint()
            assert footprint["held_envelopes"] == 0 and footprint["incidents"] < 10, footprint
        for seat in honest:
            # its app started again from its journal, with nobody else online, ends the
            # game the same way at once, and offers no game to go back to
            path = journal_path(room.table, seat.identity.player_id, seat.folder)
            assert journal.finished(path)
            again = GameSession(room.table, [seat.identity], journal_dir=seat.folder)
            assert again.finished and again.peers[0].proof is not None
            assert again.peers[0].verdict == seat.peer.verdict
        late = spectator(room, code, "W2")  # come once the game is over
        for verdict in (await seen_end(room, watcher, watching), await seen_end(room, *late)):
            assert verdict is not None and verdict.seat == ATTACKER, verdict
            assert verdict.reason == there.peer.verdict.reason


@pytest.mark.parametrize("game", ["cake-master", "cake-of-doom"], ids=lambda g: g)
async def test_an_honest_app_started_again_mid_step_sends_the_very_same_envelope(
    embedded: str, tmp_path: Path, game: str
) -> None:
    """An honest seat's app stops after its envelope for a step went out, before the step
    completed (so before its journal kept it), and starts again from its journal: it
    sends that envelope again, byte for byte (its secrets and sealed choices are in its
    journal, its signatures are deterministic), so nobody takes it for a second version
    and the game ends fair."""
    async with LiveRoom(embedded, game, 3, tmp_path, seed=7) as room:
        there, again, off = room.seats
        restarts = 0
        while restarts < 3 and not there.session.finished:
            # the room stops at the first step the seat kept offline owes
            await off.disconnect()
            await room.until(
                lambda: (
                    there.session.finished
                    or (
                        there.peer.waiting_for == (off.seat,)
                        and again.peer.waiting_for == (off.seat,)
                        and again.peer.seq == there.peer.seq
                    )
                ),
                "the room waits for the seat offline alone",
            )
            seq = there.peer.seq
            if again.seat in there.peer.got:  # its envelope for the open step is out
                sent = there.peer.got[again.seat][0].to_bytes()
                assert again.session.peers[0].journal is not None
                await again.restart()
                assert again.session.peers[0].own_pending() == [sent]
                restarts += 1
            await off.connect()
            await room.until(
                lambda seq=seq: there.session.finished or there.peer.seq > seq, "the room goes on"
            )
        assert restarts == 3
        await room.until(lambda: all(s.session.finished for s in room.seats), "the game's end")
        for seat in room.seats:
            assert seat.peer.proof is None and seat.peer.verdict.fair, str(seat.peer.verdict)
            assert [str(i) for i in seat.session.incidents] == []
            assert [str(i) for i in seat.peer.incidents] == []


async def test_two_versions_each_seen_by_one_half_of_the_room_alone_are_found(
    embedded: str, tmp_path: Path
) -> None:
    """The attacker's two sealed commitments for one step reach one honest seat each and
    never the other (each is sent while the other seat is offline), so each completes the
    step with its own version and goes on: each then gets the other's envelopes for the
    next step, off its log. It asks the room for the step before them, whose answer holds
    the other version, and both end the game naming the attacker."""
    async with LiveRoom(embedded, "cake-master", 3, tmp_path, seed=5) as room:
        attacker, away, there = room.seats[ATTACKER], room.seats[AWAY], room.seats[THERE]
        attacker.playing = False  # its moves are made below, by hand
        while True:  # the first sealed choice every seat makes
            await room.until(lambda: attacker.session.due() != [], "the attacker's turn")
            peer, view = attacker.session.due()[0]
            if peer.step.kind == st.CHOICE_COMMIT and len(peer.step.seats) == 3:
                break
            peer.act(attacker.bot(view, attacker.rng))
            await room.until(lambda: attacker.session.due() == [], "the attacker's move taken")
        seq = attacker.peer.seq
        await room.until(
            lambda: all(
                s.peer.seq == seq and set(s.peer.got) == {AWAY, THERE} for s in (away, there)
            ),
            "the honest seats hold each other's commitments",
        )
        await attacker.disconnect()  # it says nothing more but what follows
        rng = random.Random(3)
        first, second = (a_version(attacker, {"c": rng.randbytes(32)}) for _ in range(2))
        log = topics.log(room.table.room)
        cheat = Transport(BrokerAddress.parse(room.url), client_id=f"cheat-{room.table.room}")
        async with cheat:
            await away.disconnect()
            await cheat.publish(log, first)
            await room.until(lambda: there.peer.seq > seq, "one seat took the first version")
            await there.disconnect()
            await away.connect()
            await cheat.publish(log, second)
            await room.until(lambda: away.peer.seq > seq, "the other took the second")
            await there.connect()
        honest = (there, away)
        await room.until(
            lambda: all(s.peer.proof is not None for s in honest), "the honest seats find the pair"
        )
        for seat in honest:
            named_alone(seat)

"""A spectator follows a room's log with no seat: public information only, the audit after.

Seeded games between in-memory peers (:class:`MentalMatch`), with a spectator hearing
every envelope: it checks and applies them as the seats do, never holds a card that is not
public in any state, ends with the seats' outcome, and after the audit holds the same
face-up replay. It sends nothing. The seats' side: the watcher count and the answers to
catch-up requests are bounded whatever strangers send.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cakeparty.core import get_game
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.lobby import sign
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.spectator import (
    GONE,
    NUDGE,
    Backlog,
    Spectator,
    Watchers,
    catch_up_message,
    hidden_cards,
    read_catch_up,
    read_watch,
    watch_message,
)


def identity(name: str) -> Identity:
    return Identity.generate(name, seeded_random_bytes(name.encode()))


class Watched(MentalMatch):
    """A match whose every envelope a spectator hears too (it checks its state after
    each one)."""

    spectator: Spectator | None = None
    leaks: list[tuple[int, list[int]]]
    states = 0

    def pump(self) -> None:
        while self.wire:
            batch, self.wire[:] = list(self.wire), []
            for peer in self.peers:
                order = list(batch)
                self.rng.shuffle(order)
                for data in order:
                    peer.receive(data)
            if self.spectator is not None:
                self.hear(batch)

    def hear(self, batch: list[bytes]) -> None:
        assert self.spectator is not None
        for data in batch:
            self.spectator.receive(data, 0.0)
            self.states += 1
            if not self.spectator.finished:
                found = hidden_cards(self.spectator.peer)
                if found:
                    self.leaks.append((self.spectator.seq, found))


def watched(game: str, players: int, seed: int) -> tuple[Watched, Spectator]:
    match = Watched(game, players, seed)
    match.leaks = []
    spectator = Spectator(match.table, identity("Watcher"))
    # the keys step went out as the match was made: caught up from a seat, as a late
    # spectator is
    match.spectator = spectator
    match.hear(match.peers[0].envelopes_since(0))
    return match, spectator


def every_state(peer: Any) -> list[Any]:
    """Each state a peer held, rebuilt from its history (its state follows from it and
    nothing else)."""
    game = peer.game
    state = game.new_state(peer.table.seats, peer.table.option_map)
    states = [state]
    for seat, action in peer.history:
        state = game.apply(state, action, seat)
        states.append(state)
    return states


@pytest.mark.parametrize(("game", "players", "seed"), [("cake-duel", 2, 3), ("cake-master", 2, 5)])
def test_a_spectator_sees_only_public_cards_then_the_face_up_replay(
    game: str, players: int, seed: int
) -> None:
    match, spectator = watched(game, players, seed)
    bots = [get_game(game).bots["random"]] * players
    outcome = match.play(bots, random.Random(seed))
    peer = spectator.peer

    assert match.states > 20
    assert match.leaks == []
    states = every_state(peer)
    assert all(hidden_cards(peer, s) == [] for s in states)
    assert len(states) == len(peer.history) + 1 > 10
    # a seat's states held cards the spectator's never did: the check can fail
    assert any(hidden_cards(match.peers[0], s) for s in every_state(match.peers[0]))

    assert spectator.finished
    assert peer.outcome == outcome
    assert [e.digest() for step in peer.log for e in step] == [
        e.digest() for step in match.peers[0].log for e in step
    ]
    verdict = peer.verdict
    assert verdict is not None and verdict.fair
    seat_verdict = match.peers[0].verdict
    assert verdict.replay is not None and seat_verdict.replay is not None
    assert verdict.replay.history == seat_verdict.replay.history
    assert verdict.orders == seat_verdict.orders


def test_a_spectator_issues_nothing() -> None:
    match, spectator = watched("cake-duel", 2, 7)
    senders: set[bytes] = set()
    outcome = match.play([get_game("cake-duel").bots["random"]] * 2, random.Random(7))
    for step in spectator.peer.log:
        senders |= {e.sender for e in step}
    assert outcome is not None
    assert senders == set(match.table.players)
    assert spectator.identity.player_id not in senders
    assert spectator.peer.on_envelope is None
    assert spectator.peer.own_pending() == []
    with pytest.raises(ValueError, match="spectator"):
        _ = spectator.peer.seat
    with pytest.raises(ValueError, match="spectator"):
        spectator.peer.deck.key  # noqa: B018


def test_a_late_spectator_catches_up_from_a_seats_backlog() -> None:
    match = Watched("cake-duel", 2, 11)
    match.leaks = []
    bot = get_game("cake-duel").bots["random"]
    rng = random.Random(11)
    for _ in range(6):  # a few moves before anyone watches
        movers = [p for p in match.peers if p.seat in p.waiting_for and p.step.kind == "action"]
        movers[0].act(bot(movers[0].view(), rng))
        match.pump()
    seat = match.peers[0]
    assert seat.seq > 10
    spectator = Spectator(match.table, identity("Late"))
    request = spectator.request(0.0)
    assert request is not None
    backlog = Backlog()
    backlog.ask(read_catch_up(request, match.table.room))
    for data in backlog.due(seat, 0.0):
        spectator.receive(data, 0.0)
    assert spectator.seq == seat.seq
    assert hidden_cards(spectator.peer) == []
    match.spectator = spectator
    match.play([bot, bot], rng)
    assert spectator.finished and spectator.peer.verdict.fair
    assert match.leaks == []


def test_a_spectator_asks_again_only_when_the_room_is_quiet() -> None:
    match = Watched("cake-duel", 2, 13)
    spectator = Spectator(match.table, identity("Asker"))
    assert spectator.request(0.0) is not None
    assert spectator.request(0.5) is None  # just asked
    # not behind, the room quiet: asked again, rarely
    assert spectator.request(NUDGE + 0.1) is None
    assert spectator.request(5 * NUDGE + 0.1) is not None
    for data in match.peers[0].envelopes_since(0):
        spectator.receive(data, 20.0)
    assert spectator.request(20.5) is None  # it just moved


def test_the_backlog_answers_once_per_period_whoever_asks_and_bounded() -> None:
    match, _spectator = watched("cake-duel", 2, 17)
    seat = match.peers[0]
    backlog = Backlog(every=2.0, limit=10)
    assert backlog.due(seat, 0.0) == []  # nobody asked
    for n in range(100):  # a flood of requests
        backlog.ask(n % 3)
    first = backlog.due(seat, 0.0)
    assert len(first) == 1  # at least one envelope, never more than the limit
    backlog.ask(0)
    assert backlog.due(seat, 1.0, [b"vote"]) == []  # too soon
    again = backlog.due(seat, 2.5, [b"vote"])  # the standing votes go with the answer
    assert len(again) == 2 and again[-1] == b"vote"
    backlog.ask(seat.seq + 5)
    assert backlog.due(seat, 10.0) == []  # ahead of this seat: nothing to say


def test_watchers_are_counted_by_key_capped_and_forgotten() -> None:
    watchers = Watchers(cap=3, ttl=10.0)
    keys = [bytes([i]) * 32 for i in range(5)]
    watchers.heard(keys[0], True, 0.0)
    watchers.heard(keys[0], True, 1.0)  # the same key twice counts once
    assert watchers.count(1.0) == 1
    for key in keys[1:]:
        watchers.heard(key, True, 2.0)
    assert watchers.count(2.0) == 3 and watchers.capped  # a flood stops at the cap
    watchers.heard(keys[1], False, 3.0)  # gone
    assert watchers.count(3.0) == 2
    assert watchers.count(11.5) == 1  # key 0 not heard since 1.0: forgotten
    assert watchers.count(20.0) == 0


def test_watch_and_catch_up_messages_are_checked() -> None:
    me = identity("Viewer")
    sender, name, watching = read_watch(watch_message(me, "ROOM1"), "ROOM1")
    assert (sender, name, watching) == (me.player_id, "Viewer", True)
    assert read_watch(watch_message(me, "ROOM1", GONE), "ROOM1")[2] is False
    assert read_catch_up(catch_up_message(me, "ROOM1", 42), "ROOM1") == 42
    with pytest.raises(ProtocolError):
        read_watch(watch_message(me, "ROOM1"), "ROOM2")  # another room's
    with pytest.raises(ProtocolError):
        read_watch(sign(me.signing_key, "ROOM1", "watch", {"name": "x", "state": "x"}), "ROOM1")
    with pytest.raises(ProtocolError):
        read_catch_up(sign(me.signing_key, "ROOM1", "catch-up", {"from": -1}), "ROOM1")
    with pytest.raises(ProtocolError):
        read_catch_up(watch_message(me, "ROOM1"), "ROOM1")
    forged = {"name": "Viewer\x1b[2J", "state": "watching"}  # nothing for the terminal
    with pytest.raises(ProtocolError):
        read_watch(sign(me.signing_key, "ROOM1", "watch", forged), "ROOM1")
    data = bytearray(watch_message(me, "ROOM1"))
    data[-1] ^= 1  # a forged signature
    with pytest.raises(ProtocolError):
        read_watch(bytes(data), "ROOM1")


def test_the_players_log_is_the_same_with_and_without_a_spectator() -> None:
    bot = get_game("cake-master").bots["random"]
    plain = MentalMatch("cake-master", 2, 19)
    plain.play([bot, bot], random.Random(19))
    match, spectator = watched("cake-master", 2, 19)
    match.play([bot, bot], random.Random(19))
    chain = [[e.digest() for e in step] for step in plain.peers[0].log]
    assert len(chain) > 20
    assert [[e.digest() for e in step] for step in match.peers[0].log] == chain
    assert [[e.digest() for e in step] for step in spectator.peer.log] == chain


def test_a_spectator_shows_a_game_ended_as_abandoned_only_while_the_votes_hold() -> None:
    from cakeparty.protocol.codec import seal
    from cakeparty.protocol.lobby import ABANDON, NO_PREV

    match, spectator = watched("cake-duel", 2, 23)
    bot = get_game("cake-duel").bots["random"]
    rng = random.Random(23)
    peer = spectator.peer
    waiting = [p for p in match.peers if p.seat in p.waiting_for and p.step.kind == "action"]
    absent = waiting[0].seat
    voter = match.peers[1 - absent]

    def vote(signer: Identity, seq: int, prev: bytes) -> bytes:
        body = {"seat": absent, "step": prev}
        envelope = seal(
            signer.signing_key, room=match.table.room, seq=seq, prev=NO_PREV, kind=ABANDON,
            body=body,
        )  # fmt: skip
        return envelope.to_bytes()

    spectator.receive(vote(identity("Stranger"), peer.seq, peer.prev), 0.0)
    spectator.receive(vote(voter.identity, peer.seq - 1, peer.prev), 0.0)  # another step
    assert spectator.abandoned is None and not spectator.finished
    spectator.receive(vote(voter.identity, peer.seq, peer.prev), 0.0)
    ended = spectator.abandoned
    assert ended is not None and ended.seat == absent and ended.voters == {voter.seat}
    assert spectator.finished
    # the absent seat moves after all, and the log goes on past the vote: not abandoned
    mover = match.peers[absent]
    mover.act(bot(mover.view(), rng))
    match.pump()
    assert peer.seq > ended.seq
    assert spectator.abandoned is None and not spectator.finished

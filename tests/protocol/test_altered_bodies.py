"""A seated player who alters what it signs, at any step of any game: each of its real
envelopes, with one part of its body changed (a byte flipped, a number moved, a field
dropped or added, a value of another type), is delivered to a copy of another seat's peer
together with the rest of that round of messages. The copy goes on or names the sender —
never a bystander, never nobody, never a crash."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cakeparty.core import get_game
from cakeparty.protocol.codec import decode, seal
from cakeparty.protocol.mental import DECISIONS, MentalMatch
from cakeparty.protocol.peer import Peer


def leaves(body: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every part of ``body``, containers too (the root is ``()``)."""
    found = [path]
    if isinstance(body, dict):
        for key, value in body.items():
            found += leaves(value, (*path, key))
    elif isinstance(body, list):
        for index, value in enumerate(body):
            found += leaves(value, (*path, index))
    return found


def changed(value: Any, rng: random.Random) -> Any:
    """``value`` altered the way a cheat or a bug would: close to what it was, or of
    another type altogether."""
    if isinstance(value, bytes) and value and rng.random() < 0.6:
        where = rng.randrange(len(value))
        return value[:where] + bytes([value[where] ^ (1 << rng.randrange(8))]) + value[where + 1 :]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int) and rng.random() < 0.6:
        return rng.choice([value + 1, value - 1, -value - 1, value + 2**32, 2**63, 0])
    if isinstance(value, str) and value and rng.random() < 0.5:
        return rng.choice([value[:-1], value + "x", value.upper(), "pass", "a" * 200])
    if isinstance(value, list) and rng.random() < 0.6:
        if value and rng.random() < 0.5:
            return value[:-1] if rng.random() < 0.5 else [*value, value[-1]]
        return [*value, rng.choice([0, b"", None, "x"])]
    if isinstance(value, dict) and rng.random() < 0.6:
        if value and rng.random() < 0.5:
            gone = rng.choice(list(value))
            return {k: v for k, v in value.items() if k != gone}
        return {**value, "zz": 1}
    return rng.choice([None, 0, -1, 2**64 - 1, b"", b"\x00" * 32, "", [], {}, True, 1.5])


def altered(body: Any, rng: random.Random) -> Any:
    """``body`` with one of its parts changed."""
    path = rng.choice(leaves(body))
    if not path:
        return changed(body, rng)
    body = copy.deepcopy(body)
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = changed(parent[path[-1]], rng)
    return body


def probe(room: Any, witness: int, cheat: Peer, rng: random.Random) -> int:
    """Deliver what was published, first trying each of the cheat's envelopes altered on
    a copy of the witness's peer. Returns how many altered envelopes were tried."""
    tried = 0
    while room.wire:
        batch, room.wire[:] = list(room.wire), []
        for data in batch:
            envelope = decode(data)
            if envelope.sender != cheat.identity.player_id or rng.random() >= room.share:
                continue
            for _ in range(room.alterations):
                body = altered(envelope.body, rng)
                if body == envelope.body:
                    continue
                try:
                    forged = seal(
                        cheat.identity.signing_key,
                        room=envelope.room,
                        seq=envelope.seq,
                        prev=envelope.prev,
                        kind=envelope.kind,
                        body=body,
                    ).to_bytes()
                except (TypeError, ValueError):
                    continue  # no envelope can carry it (a float): nothing to send
                fork = copy.deepcopy(room.peers[witness])
                fork.on_envelope = None
                before = len(fork.incidents)
                for other in batch:
                    fork.receive(forged if other is data else other)  # never raises
                tried += 1
                named = {incident.peer for incident in fork.incidents[before:]}
                if fork.verdict is not None and not fork.verdict.fair:
                    named.add(fork.verdict.seat)
                assert named <= {cheat.seat}, (envelope.kind, envelope.seq, body, named)
        for peer in room.peers:
            for data in batch:
                peer.receive(data)
    return tried


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("cake-duel", 2, {}),
        ("cake-master", 2, {}),
        ("cake-of-doom", 3, {"advanced": True}),
        ("cookies-battle", 3, {}),
    ],
)
def test_an_altered_envelope_names_its_signer_at_every_step(
    game: str, players: int, options: dict[str, Any]
) -> None:
    seed = 5
    rng = random.Random(seed)

    class Probed(MentalMatch):
        tried = 0
        # each of the cheat's envelopes altered twice (Cookies Battle's three rounds are
        # long: one in two of them, once)
        alterations = 2 if game != "cookies-battle" else 1
        share = 1.0 if game != "cookies-battle" else 0.5

        def pump(self) -> None:  # from the first keys and mixes on
            self.tried += probe(self, 0, self.peers[1], rng)

    room = Probed(game, players, seed, options)
    bot = get_game(game).bots["normal"]
    for _ in range(3000):
        if all(peer.finished for peer in room.peers):
            break
        movers = [p for p in room.peers if p.seat in p.waiting_for and p.step.kind in DECISIONS]
        assert movers, [(p.seq, p.step.kind, p.waiting_for) for p in room.peers]
        movers[0].act(bot(movers[0].view(), rng))
        room.pump()
    assert all(peer.finished for peer in room.peers)
    assert all(verdict.fair for verdict in room.verdicts)
    assert room.tried >= 40

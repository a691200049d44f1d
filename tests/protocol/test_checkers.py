"""The checkers never crash and never wedge: whatever a seated cheat signs, a peer goes on
or stops with a named culprit, and the audit opens every intermediate mix to name the mixer
whose output was not a permutation of its input — even when its proof passed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cakeparty.core import get_game
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import seal
from cakeparty.protocol.group import BASE, add
from cakeparty.protocol.mental import DECISIONS, MentalMatch
from cakeparty.protocol.peer import Peer

NORMAL = get_game("cake-duel").bots["normal"]


def finish(room: MentalMatch, seed: int, limit: int = 5000) -> None:
    """Let bots play until every peer has finished (the game may stop early)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if all(p.finished for p in room.peers):
            return
        movers = [p for p in room.peers if p.seat in p.waiting_for and p.step.kind in DECISIONS]
        assert movers, f"wedged at {[(p.seq, p.step.kind, p.waiting_for) for p in room.peers]}"
        movers[0].act(NORMAL(movers[0].view(), rng))
        room.pump()
    raise AssertionError("no end")


@pytest.fixture
def forgeable_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mix proofs that any forgery passes: the audit must not rely on them."""
    monkeypatch.setattr("cakeparty.protocol.deck.verify_shuffle", lambda *a, **k: None)


class SubstitutingMix(Peer):
    """Makes the first card of its mix a Wizard."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            assert self.deck.joint is not None
            wizard = add(self.deck.table.point("wizard"), self.deck.joint)
            body["deck"] = BASE + wizard + body["deck"][64:]
        return body


class NoCardMix(Peer):
    """Puts a point that is no card in every place of its mix."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            assert self.deck.joint is not None
            nothing = BASE + add(BASE, self.deck.joint)  # decrypts to B: no card
            body["deck"] = nothing * (len(body["deck"]) // 64)
        return body


def test_a_substituted_card_is_named_by_the_audit_even_when_its_proof_passed(
    forgeable_proofs: None,
) -> None:
    room = MentalMatch("cake-duel", 2, 3, peer_types={1: SubstitutingMix})
    finish(room, 3)
    for verdict in room.verdicts:
        assert not verdict.fair
        assert (verdict.seat, verdict.move) == (1, "mix"), str(verdict)
        assert "card substituted" in verdict.reason


def test_a_point_that_is_no_card_stops_the_game_and_the_audit_names_its_mixer(
    forgeable_proofs: None,
) -> None:
    room = MentalMatch("cake-duel", 2, 4, peer_types={1: NoCardMix})
    finish(room, 4)  # nobody is left waiting on a step that cannot complete
    assert any(i.kind == "UnknownCard" for p in room.peers for i in p.incidents)
    assert all(p.broken is not None for p in room.peers)
    for verdict in room.verdicts:
        assert (verdict.fair, verdict.seat, verdict.move) == (False, 1, "mix"), str(verdict)
        assert "no card" in verdict.reason


def test_a_seat_that_stops_the_game_over_a_sound_card_is_named() -> None:
    room = MentalMatch("cake-duel", 2, 5)
    rng = random.Random(5)
    for _ in range(6):
        movers = [p for p in room.peers if p.seat in p.waiting_for and p.step.kind in DECISIONS]
        movers[0].act(NORMAL(movers[0].view(), rng))
        room.pump()
    liar = room.peers[1]
    early = seal(
        liar.identity.signing_key,
        room=room.table.room,
        seq=liar.seq,
        prev=liar.prev,
        kind=st.AUDIT,
        body={"x": liar.deck.key.secret},
    )
    room.deliver(early.to_bytes())
    assert all(p.finished for p in room.peers)
    for verdict in room.verdicts:
        assert (verdict.fair, verdict.seat) == (False, 1), str(verdict)


def random_body(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(8 if depth < 3 else 5)
    if pick == 0:
        return rng.randrange(-(2**63), 2**64)
    if pick == 1:
        return rng.randbytes(rng.choice([0, 1, 31, 32, 33, 64, 65, 200]))
    if pick == 2:
        return rng.choice(["", "pass", "claim", "wizard", "x" * 300])
    if pick == 3:
        return rng.choice([None, True, False])
    if pick == 4:
        return rng.choice([0, 1, 2, 63, 64, 65])
    if pick == 5:
        return [random_body(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["a", "x", "c", "nonce", "pk", "proof", "deck", "public", "private", "y"]
    return {k: random_body(rng, depth + 1) for k in rng.sample(keys, rng.randrange(4))}


@pytest.mark.parametrize("moves", [0, 3, 9])
def test_no_body_a_seated_player_signs_crashes_a_peer(moves: int) -> None:
    room = MentalMatch("cake-duel", 2, 6)
    rng = random.Random(moves)
    for _ in range(moves):
        movers = [p for p in room.peers if p.seat in p.waiting_for and p.step.kind in DECISIONS]
        movers[0].act(NORMAL(movers[0].view(), rng))
        room.pump()
    victim, cheat = room.peers
    history = list(victim.history)
    for _ in range(300):
        kind = rng.choice([victim.step.kind, *st.KINDS])
        body = random_body(rng)
        envelope = seal(
            cheat.identity.signing_key,
            room=room.table.room,
            seq=victim.seq,
            prev=victim.prev,
            kind=kind,
            body=body,
        )
        victim.receive(envelope.to_bytes())  # never raises
    assert all(i.peer == cheat.seat for i in victim.incidents)
    assert len(victim.incidents) <= 64  # capped
    assert not victim.finished and victim.history == history

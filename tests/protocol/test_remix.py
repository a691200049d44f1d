"""A hand re-mixed by its holder alone, through the mental deck: the same game as the local
dealer's, the holder (and its teammate) learn the new order, a forged re-mix is named."""

from __future__ import annotations

from typing import Any

import pytest

from cakeparty.core import Remix, Remixed, new_match
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import pack
from cakeparty.protocol.errors import Incident
from cakeparty.protocol.group import BASE, Scalar, add
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.shuffle import Opening
from cakeparty.protocol.wire import opening_to_data
from tests.protocol.test_room import seat_bots


def _remixes(room: MentalMatch) -> list[Remixed]:
    return [a for s, a in room.peers[0].history if s is None and isinstance(a, Remixed)]


@pytest.mark.parametrize(("players", "seed"), [(2, 2), (4, 2)])
def test_a_mental_duel_with_looks_equals_the_local_duel(players: int, seed: int) -> None:
    room = MentalMatch("cake-duel", players, seed, {"full": True})
    outcome = room.play(seat_bots(players, seed))
    assert _remixes(room), "this seed has no look nor take: pick another"
    verdicts = room.verdicts
    assert all(v.fair for v in verdicts), [str(v) for v in verdicts]
    first = verdicts[0]
    assert len(first.remixes) == len(_remixes(room))
    local = new_match(
        "cake-duel",
        players=players,
        options={"full": True},
        orders=first.orders,
        randoms=first.randoms,
        remixes=first.remixes,
    )
    assert local.play(seat_bots(players, seed)) == outcome
    assert local.history == first.replay.history
    # each peer learnt exactly its side's re-mixed cards, as the local dealer dealt them
    truth = [a for _, a in local.history if isinstance(a, Remixed)]
    for peer in room.peers:
        mine = [a for s, a in peer.history if s is None and isinstance(a, Remixed)]
        assert len(mine) == len(truth)
        for seen, real in zip(mine, truth, strict=True):
            assert (seen.seat, seen.slots, seen.to) == (real.seat, real.slots, real.to)
            expected = real.cards if peer.seat in real.to else (None,) * len(real.cards)
            assert seen.cards == expected


class ForgedRemix(Peer):
    """Re-mixes its hand into a Wizard of its own making."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.REMIX:
            deck = self.deck
            assert deck.joint is not None
            wizard = add(deck.table.point("wizard"), deck.joint)
            body["deck"] = BASE + wizard + body["deck"][64:]
        return body


class LyingToTheTeammate(Peer):
    """Tells its teammate a wrong order for its re-mixed hand."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.REMIX and body["boxes"]:
            request = step.request
            assert isinstance(request, Remix)
            n = len(request.slots)
            fake = Opening(tuple(reversed(range(n))), tuple(Scalar(bytes(32)) for _ in range(n)))
            rb = self._stream(b"lie", step.seq)
            reader = body["boxes"][0][0]
            box = self.identity.seal_for(
                self.table.players[reader], pack(opening_to_data(fake)), rb
            )
            body["boxes"][0] = [reader, box]
        return body


def _named(room: MentalMatch, seats: list[int], cheat: int) -> list[Incident]:
    found = [
        [i for i in room.peers[s].incidents if i.kind == "BadMix" and i.peer == cheat]
        for s in seats
    ]
    assert all(found), [room.peers[s].incidents for s in seats]
    return found[0]


def test_a_forged_re_mix_proof_names_the_holder() -> None:
    for seed in range(2, 12):
        cheat = 1
        room = MentalMatch("cake-duel", 2, seed, peer_types={cheat: ForgedRemix})
        try:
            room.play(seat_bots(2, seed))
        except Exception as exc:
            assert "stuck" in str(exc)
            step = room.peers[0].step
            if step.kind != st.REMIX:
                continue
            assert step.seats == (cheat,)
            _named(room, [0], cheat)
            # the forged hand never reached the game
            assert not [a for a in _remixes(room) if a.seat == cheat]
            return
    pytest.fail("no seed made seat 1 re-mix its hand")


def test_a_wrong_order_boxed_to_the_teammate_names_the_holder() -> None:
    # from seed 5: seeds 3 and 4 re-mix no hand, each a whole four-seat game for nothing
    for seed in range(5, 14):
        room = MentalMatch(
            "cake-duel",
            4,
            seed,
            peer_types={s: LyingToTheTeammate for s in range(4)},
        )
        try:
            room.play(seat_bots(4, seed))
        except Exception:  # the teammate cannot go on: the room stalls one way or another
            lied_to = [p for p in room.peers if p.step.kind == st.REMIX and p.incidents]
            if not lied_to:
                continue
            (mate,) = lied_to
            (holder,) = mate.step.seats
            assert mate.seat == (holder + 2) % 4
            _named(room, [mate.seat], holder)
            # the other side cannot tell (the opening is boxed to the teammate) and goes on
            others = [s for s in range(4) if s not in (holder, mate.seat)]
            assert not any(room.peers[s].incidents for s in others)
            return
    pytest.fail("no seed made a seat re-mix its hand")

"""Sir Wolfy's end-of-turn reveal among peers: only its owner knows where it lies, so a
missing reveal passes during play and the end-of-game audit names the seat."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from cakeparty.core import from_data
from cakeparty.core.games.cake_duel import KEEP_HIDDEN, Phase
from cakeparty.protocol import steps as st
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from tests.protocol.test_room import seat_bots


class WolfHider(Peer):
    """Keeps its played Sir Wolfy hidden, its own check switched off."""

    def _check(self, step: st.Step, seat: int, body: Any) -> Any:
        if seat == self.seat and step.kind == st.ACTION and body["a"][0] == "keep-hidden":
            action = from_data(body["a"])
            played = self.state.tauntable[seat]
            blind = replace(self.state, knowledge=self.state.knowledge.forget(played))
            return action, self.game.apply(blind, action, seat)
        return super()._check(step, seat, body)


def _hiding_chance(room: MentalMatch, bots: dict[int, Any]) -> WolfHider:
    """Play until a seat must reveal the Sir Wolfy it just played; return that peer."""
    for _ in range(2000):
        movers = [p for p in room.peers if p.waiting_for == (p.seat,)]
        peer = movers[0]
        assert isinstance(peer, WolfHider)
        if peer.state.phase is Phase.WOLFY:
            played = peer.state.tauntable[peer.seat]
            if "sir-wolfy" in [peer.deck.card(s) for s in played]:
                return peer
        peer.act(bots[peer.seat](peer.view(), random.Random()))
        room.pump()
    pytest.fail("no Sir Wolfy was played")


def test_a_missing_wolfy_reveal_is_named_by_the_audit() -> None:
    room = MentalMatch("cake-duel", 2, 4, peer_types={0: WolfHider, 1: WolfHider})
    bots = seat_bots(2, 4)
    cheat = _hiding_chance(room, bots)
    honest = room.peers[1 - cheat.seat]
    # its own peer refuses the move, so it sends the envelope by hand
    assert KEEP_HIDDEN not in cheat.game.legal_actions(cheat.state, cheat.seat)
    cheat._send(st.ACTION, {"a": ["keep-hidden"]})
    cheat._drain()
    room.pump()
    # the honest peer cannot see the card: the step is accepted and the game goes on
    assert honest.state.phase is not Phase.WOLFY
    assert not honest.state.breaches
    room.play(bots)
    verdicts = room.verdicts
    assert all(not v.fair and v.seat == cheat.seat for v in verdicts), [str(v) for v in verdicts]
    assert all(v.move == "keep-hidden" for v in verdicts)
    assert all("Sir Wolfy is revealed at the end of the turn" in v.reason for v in verdicts)


def test_an_honest_duel_with_its_wolfy_reveals_is_fair() -> None:
    room = MentalMatch("cake-duel", 2, 4)
    outcome = room.play(seat_bots(2, 4))
    assert outcome is not None
    assert all(v.fair for v in room.verdicts), [str(v) for v in room.verdicts]
    taunts = [a for _seat, a in room.peers[0].history if str(a).startswith("taunt")]
    assert taunts  # this seed plays a Sir Wolfy that nobody flips, and it is shown

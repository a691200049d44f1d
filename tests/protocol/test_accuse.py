"""A witnessed breach ends the game at once: the attacker who saw the hand proves a false
Summoner count to every peer; a false accusation names the accuser instead."""

from __future__ import annotations

from typing import Any

import pytest

from cakeparty.core import Forfeited
from cakeparty.core.games.cake_duel import NO_ACTION, Claim, Declare, Lead, Phase, Summon
from cakeparty.protocol import steps as st
from cakeparty.protocol.group import BASE, add
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.proofs import Share
from cakeparty.protocol.wire import share_from_data, share_to_data
from tests.protocol.test_room import FalseCount, seat_bots


class EagerAccuser(Peer):
    """Accuses every Summoner count it witnesses, with the real shares."""

    def _accusation(self, random_bytes: Any) -> list[Any] | None:
        assert self._witnessed is not None
        slots = self._witnessed[4]
        honest = super()._accusation(random_bytes)
        if honest is not None:
            return honest
        # the count was true: publish the evidence anyway, as if it were not
        evidence = []
        for slot in slots:
            mine = self.deck.make_shares([slot], random_bytes)[0]
            shares = [[self.seat, share_to_data(mine)]]
            shares += [[o, share_to_data(s)] for o, s in sorted(self.deck.proven[slot].items())]
            evidence.append(shares)
        return evidence


class ForgingAccuser(EagerAccuser):
    """Accuses with a holder's share it altered (it does not verify)."""

    def _accusation(self, random_bytes: Any) -> list[Any] | None:
        evidence = super()._accusation(random_bytes)
        assert evidence is not None
        owner, data = evidence[0][1]
        share = share_from_data(data)
        evidence[0][1] = [owner, share_to_data(Share(add(share.point, BASE), share.proof))]
        return evidence


def _to_the_count(
    peer_types: dict[int, type[Peer]], *, name: str = "wizard"
) -> tuple[MentalMatch, int]:
    """A room where seat 0 summons ``name`` at once and seat 1 holds it; stops before the
    count. Returns the room and the seed."""
    for seed in range(60):
        room = MentalMatch("cake-duel", 2, seed, peer_types=peer_types)
        attacker, target = room.peers
        if attacker.waiting_for != (0,):
            continue
        if name not in [target.deck.card(s) for s in target.state.hands[1]]:
            continue
        attacker.act(Claim(attacker.state.hands[0][:1], "summoner", 1))
        room.pump()
        target.act(target.view().legal[1])  # accept (index 0 is the challenge)
        room.pump()
        if attacker.state.phase is not Phase.SUMMON:
            continue
        attacker.act(Summon(name))
        room.pump()
        assert target.state.phase is Phase.DECLARE
        return room, seed
    pytest.fail(f"no seed dealt a {name} to seat 1")


def test_a_false_summoner_count_ends_the_game_at_once_naming_the_liar() -> None:
    room, _seed = _to_the_count({1: FalseCount})
    target = room.peers[1]
    target.act(Declare(1))  # FalseCount says 0
    room.pump()
    # the attacker saw the hand: its peer proves the lie to everyone, and the game is over
    for peer in room.peers:
        assert (None, Forfeited(1, "false-count")) in peer.history
        outcome = peer.outcome
        assert outcome is not None and outcome.reason == "forfeit" and outcome.winners == (0,)
        assert peer.finished
    # the audit agrees, on every peer
    verdicts = room.verdicts
    assert all(not v.fair and v.seat == 1 and v.move == "declare 0" for v in verdicts)
    assert all(str(v) == str(verdicts[0]) for v in verdicts)
    assert not any(p.incidents for p in room.peers)


@pytest.mark.parametrize("accuser", [EagerAccuser, ForgingAccuser])
def test_a_false_accusation_names_the_accuser(accuser: type[Peer]) -> None:
    room, _seed = _to_the_count({0: accuser})
    target = room.peers[1]
    (honest,) = target.view().legal  # the true count, the only choice offered
    target.act(honest)
    room.pump()
    for peer in room.peers:
        assert (None, Forfeited(0, "false-accusation")) in peer.history
        outcome = peer.outcome
        assert outcome is not None and outcome.reason == "forfeit" and outcome.winners == (1,)
    verdicts = room.verdicts
    assert all(not v.fair and v.seat == 0 for v in verdicts), [str(v) for v in verdicts]
    assert all("accused" in v.reason for v in verdicts)


def test_a_true_count_witnessed_lets_the_game_go_on() -> None:
    room, seed = _to_the_count({})
    attacker, target = room.peers
    (honest,) = target.view().legal
    target.act(honest)
    room.pump()
    # one witness step, no accusation: the game goes on, and ends fair
    kinds = [envs[0].kind for envs in attacker.log]
    assert st.WITNESS in kinds
    assert attacker.outcome is None
    room.play(seat_bots(2, seed))
    assert all(v.fair for v in room.verdicts)
    assert not any(isinstance(a, Forfeited) for _, a in attacker.history)


def test_in_team_mode_the_attacker_proves_a_false_count_with_both_holders_shares() -> None:
    # seat 1's teammate (seat 3) shares its hand; seat 2 (the attacker's mate) does not see
    # it and publishes its shares in the clear: the evidence carries the other three
    for seed in range(5, 15):
        room = MentalMatch("cake-duel", 4, seed, peer_types={1: FalseCount})
        lead = next(p for p in room.peers if p.waiting_for == (p.seat,))
        if lead.seat % 2 == 0:
            break
    else:
        pytest.fail("side 0 never starts")
    lead.act(Lead(lead.seat))
    room.pump()
    attacker = room.peers[lead.seat]
    target = room.peers[1]
    attacker.act(Claim(attacker.state.hands[attacker.seat][:1], "summoner", target.seat))
    room.pump()
    target.act(NO_ACTION)
    room.pump()
    assert attacker.state.phase is Phase.SUMMON
    name = target.deck.card(target.state.hands[1][0])
    assert name is not None
    attacker.act(Summon(name))
    room.pump()
    target.act(Declare(1))  # FalseCount says 0; the hand holds at least one
    room.pump()
    for peer in room.peers:
        assert (None, Forfeited(1, "false-count")) in peer.history
        assert peer.outcome is not None and peer.outcome.winners == (0, 2)
    assert all(not v.fair and v.seat == 1 for v in room.verdicts)

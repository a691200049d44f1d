"""Games among in-process peers through the mental deck: equal to the local dealer's,
audited fair, robust to disorder and duplicates, and every cheat named."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from cakeparty.core import Reveal, from_data, get_game, new_match
from cakeparty.core.games.cake_duel import Claim, Declare, Phase, Summon
from cakeparty.core.knowledge import PUBLIC
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import Envelope, decode, seal
from cakeparty.protocol.errors import (
    BadMix,
    BadProof,
    BadShare,
    CommitMismatch,
    Incident,
    MalformedMessage,
    ProtocolError,
)
from cakeparty.protocol.group import BASE, add, seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.proofs import Share
from cakeparty.protocol.wire import share_from_data, share_to_data

GAME = get_game("cake-duel")
NORMAL = GAME.bots["normal"]


def seat_bots(players: int, seed: int) -> dict[int, Any]:
    """One seeded normal bot per seat, so two runs of a duel decide alike."""
    rngs = {s: random.Random(seed * 10 + s) for s in range(players)}
    return {s: (lambda view, _rng, s=s: NORMAL(view, rngs[s])) for s in range(players)}


@pytest.mark.parametrize(
    ("players", "full", "seed"),
    [(2, True, 1), (2, False, 2), (4, True, 3)],
)
def test_a_mental_duel_ends_as_the_local_duel_with_the_same_deck_orders(
    players: int, full: bool, seed: int
) -> None:
    mental = MentalMatch("cake-duel", players, seed, {"full": full})
    outcome = mental.play(seat_bots(players, seed))
    verdicts = mental.verdicts
    assert all(v.fair for v in verdicts), [str(v) for v in verdicts]
    orders, randoms, remixes = verdicts[0].orders, verdicts[0].randoms, verdicts[0].remixes
    assert all((v.orders, v.randoms, v.remixes) == (orders, randoms, remixes) for v in verdicts)
    local = new_match(
        "cake-duel",
        players=players,
        options={"full": full},
        orders=orders,
        randoms=randoms,
        remixes=remixes,
    )
    assert local.play(seat_bots(players, seed)) == outcome
    # the same face-up history: every move, every card dealt and flipped
    assert local.history == verdicts[0].replay.history
    # and every peer saw the same public game
    moves = [[(s, a) for s, a in p.history if s is not None] for p in mental.peers]
    assert all(m == moves[0] for m in moves)
    assert moves[0] == [(s, a) for s, a in local.history if s is not None]


def test_disorder_and_duplicates_change_nothing() -> None:
    calm = MentalMatch("cake-duel", 2, 5, disorder=False)
    calm.play(seat_bots(2, 5))
    rough = MentalMatch("cake-duel", 2, 5, disorder=True, duplicates=0.5)
    rough.play(seat_bots(2, 5))
    assert [p.incidents for p in rough.peers] == [[], []]
    assert rough.peers[0].history == calm.peers[0].history
    assert rough.peers[1].history == calm.peers[1].history
    assert [str(v) for v in rough.verdicts] == ["fair", "fair"]


class Curious(MentalMatch):
    """Checks after every delivery that no peer holds all the shares of a card it may
    not know: an honest-but-curious peer trying every share it has seen."""

    checked = 0

    def pump(self) -> None:
        super().pump()
        for peer in self.peers:
            if peer.deck.joint is None or peer.finished:
                continue
            knowledge = GAME.knowledge(peer.state)
            for slot in range(len(peer.deck.cards)):
                if knowledge.known_by[slot] & (PUBLIC | 1 << peer.seat):
                    continue
                seen = set(peer.deck.public[slot]) | set(peer.deck.private[slot]) | {peer.seat}
                assert len(seen) < peer.table.seats, f"seat {peer.seat} can read card {slot}"
                assert peer.deck.card(slot) is None
                self.checked += 1


@pytest.mark.parametrize("players", [2, 4])
def test_no_seat_can_read_a_card_it_may_not_know(players: int) -> None:
    room = Curious("cake-duel", players, 7)
    room.play(seat_bots(players, 7))
    assert room.checked > 1000
    assert all(v.fair for v in room.verdicts)


# -- cheats ----------------------------------------------------------------------------


def stuck(room: MentalMatch, players: int = 2, seed: int = 1) -> None:
    with pytest.raises(Exception, match="stuck"):
        room.play(seat_bots(players, seed))


def named(room: MentalMatch, cheat: int, kind: type[ProtocolError]) -> list[Incident]:
    honest = [p for p in room.peers if p.seat != cheat]
    kind_name = kind.__name__
    found = [[i for i in p.incidents if i.kind == kind_name and i.peer == cheat] for p in honest]
    assert all(found), [p.incidents for p in honest]
    return found[0]


class BadShareCheat(Peer):
    """Publishes a wrong decryption share when cards are flipped for all."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.SHARES and isinstance(step.request, Reveal) and body["public"]:
            share = share_from_data(body["public"][0])
            body["public"][0] = share_to_data(Share(add(share.point, BASE), share.proof))
        return body


def test_a_bad_decryption_share_names_its_sender() -> None:
    room = MentalMatch("cake-duel", 2, 1, peer_types={1: BadShareCheat})
    stuck(room)
    (incident, *_) = named(room, 1, BadShare)
    assert "share" in incident.reason


class DroppingMix(Peer):
    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            body["deck"] = body["deck"][:-64] + body["deck"][:64]  # last card lost, first twice
        return body


class SubstitutingMix(Peer):
    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            deck = self.deck
            assert deck.joint is not None
            wizard = add(deck.table.point("wizard"), deck.joint)
            body["deck"] = BASE + wizard + body["deck"][64:]  # first card made a Wizard
        return body


class ShortMix(Peer):
    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.MIX:
            body["deck"] = body["deck"][:-64]
        return body


@pytest.mark.parametrize(
    ("cheat", "error"),
    [(DroppingMix, BadMix), (SubstitutingMix, BadMix), (ShortMix, MalformedMessage)],
)
def test_a_mix_that_drops_duplicates_or_substitutes_a_card_is_named(
    cheat: type[Peer], error: type[ProtocolError]
) -> None:
    room = MentalMatch("cake-duel", 2, 1, peer_types={1: cheat})
    stuck(room)
    named(room, 1, error)
    assert room.peers[0].step.kind == st.MIX  # the deck was never accepted


class LyingRandom(Peer):
    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.RAND_OPEN:
            body["x"] = bytes(32)
        return body


def test_a_reveal_that_does_not_match_its_commitment_is_named() -> None:
    # the false opening is a signed proof: the game ends at that step, the liar forfeits
    room = MentalMatch("cake-duel", 2, 1, peer_types={0: LyingRandom})
    outcome = room.play(seat_bots(2, 1))
    named(room, 0, CommitMismatch)
    assert outcome.winners == (1,)
    assert all(p.forfeit == (0, "false-opening") for p in room.peers)
    assert all(v is not None and v.seat == 0 for v in room.verdicts)


class RogueKey(Peer):
    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.KEYS:
            body["pk"] = add(body["pk"], BASE)  # a key it cannot prove it knows
        return body


def test_a_rogue_key_without_a_valid_proof_is_named() -> None:
    room = MentalMatch("cake-duel", 2, 1, peer_types={1: RogueKey})
    stuck(room)
    named(room, 1, BadProof)
    assert room.peers[0].deck.joint is None


class WrongCardOnChallenge(Peer):
    """When its claim is challenged, makes its card decrypt as something else."""

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        request = step.request
        if step.kind == st.SHARES and isinstance(request, Reveal) and request.to is None:
            slot = request.slots[0]
            truth = self.deck.card(slot)
            fake = "sir-wolfy" if truth != "sir-wolfy" else "soldier"
            assert truth is not None
            share = share_from_data(body["public"][0])
            from cakeparty.protocol.group import sub

            shift = sub(self.deck.table.point(truth), self.deck.table.point(fake))
            body["public"][0] = share_to_data(Share(add(share.point, shift), share.proof))
        return body


def test_a_challenged_claim_revealed_as_a_wrong_card_is_named() -> None:
    room = MentalMatch("cake-duel", 2, 1, peer_types={0: WrongCardOnChallenge})
    stuck(room, seed=1)
    (bad,) = named(room, 0, BadShare)
    slot = int(bad.reason.rsplit(" ", 1)[1])
    flips = [a for s, a in room.peers[1].history if s is None and getattr(a, "to", 1) is None]
    assert all(slot not in a.slots for a in flips)  # the false card never reached the game


def test_a_forged_signature_is_refused() -> None:
    room = MentalMatch("cake-duel", 2, 1)
    victim = room.peers[0]
    before = list(victim.history)
    stranger = Identity.generate("Eve", seeded_random_bytes(b"eve"))
    forged = seal(
        stranger.signing_key,
        room=room.table.room,
        seq=victim.seq,
        prev=victim.prev,
        kind=st.ACTION,
        body={"a": ["pass"]},
    )
    impostor = Envelope(
        forged.v,
        forged.room,
        forged.seq,
        forged.prev,
        room.table.players[1],
        forged.kind,
        forged.body,
        forged.sig,
    )
    room.deliver(impostor.to_bytes())
    # the forgery names seat 1, but only a valid signature proves who wrote it
    assert victim.incidents == [] and victim.ignored == 1
    assert victim.history == before


def test_an_envelope_from_a_stranger_or_garbage_changes_nothing() -> None:
    room = MentalMatch("cake-duel", 2, 1)
    before = [list(p.history) for p in room.peers]
    stranger = Identity.generate("Eve", seeded_random_bytes(b"eve"))
    peer = room.peers[0]
    envelope = seal(
        stranger.signing_key,
        room=room.table.room,
        seq=peer.seq,
        prev=peer.prev,
        kind=st.ACTION,
        body={"a": ["pass"]},
    )
    for data in (envelope.to_bytes(), b"", b"\x81\xa1v\x01", bytes(range(256)) * 3):
        room.deliver(data)
    assert [list(p.history) for p in room.peers] == before
    # none of it is evidence against anyone: counted, never kept
    assert all(p.incidents == [] and p.ignored == 4 for p in room.peers)


def test_an_envelope_replayed_from_another_room_is_refused() -> None:
    first = MentalMatch("cake-duel", 2, 1, room="ROOMA1")
    second = MentalMatch("cake-duel", 2, 1, room="ROOMB2")
    envelope = first.peers[0].log[-1][0]
    before = list(second.peers[1].history)
    second.deliver(envelope.to_bytes())
    # anyone can replay a signed envelope anywhere: its author is not to blame
    assert second.peers[1].incidents == [] and second.peers[1].ignored == 1
    assert second.peers[1].history == before


def test_an_earlier_move_replayed_changes_nothing_and_a_resigned_one_is_named() -> None:
    room = MentalMatch("cake-duel", 2, 1)
    bots = seat_bots(2, 1)
    mover = next(p for p in room.peers if p.waiting_for == (p.seat,))
    mover.act(bots[mover.seat](mover.view(), random.Random()))
    room.pump()
    old = next(e for step in mover.log for e in step if e.kind == st.ACTION)
    before = [list(p.history) for p in room.peers]
    room.deliver(old.to_bytes())  # the very same envelope again: a duplicate, ignored
    assert [list(p.history) for p in room.peers] == before
    assert all(p.incidents == [] for p in room.peers)
    # the mover signs the same move again for the current step: not legal any more
    while mover.seat not in mover.waiting_for:
        other = room.peers[1 - mover.seat]
        other.act(bots[other.seat](other.view(), random.Random()))
        room.pump()
    again = seal(
        mover.identity.signing_key,
        room=room.table.room,
        seq=mover.seq,
        prev=mover.prev,
        kind=st.ACTION,
        body=old.body,
    )
    claimed = decode(again.to_bytes()).body["a"]
    assert claimed[0] == "claim" and not set(claimed[1]) <= set(mover.state.hands[mover.seat])
    room.deliver(again.to_bytes())
    other = room.peers[1 - mover.seat]
    assert other.incidents[-1].kind == "MalformedMessage"
    assert other.incidents[-1].peer == mover.seat
    assert "illegal move" in other.incidents[-1].reason


class FalseCount(Peer):
    """Always tells a Summoner there is none of the card named."""

    def act(self, action: Any) -> None:
        if isinstance(action, Declare) and action.count:
            action = Declare(0)
        super().act(action)


def test_a_false_summoner_count_is_named_at_once_and_by_the_audit() -> None:
    # seat 0 summons "wizard" at once; seat 1 holds a Wizard and says it holds none
    for seed in range(40):
        room = MentalMatch("cake-duel", 2, seed, peer_types={1: FalseCount})
        attacker = room.peers[0]
        if attacker.waiting_for != (0,):
            continue
        hand = attacker.state.hands[0]
        target = room.peers[1]
        if "wizard" not in [target.deck.card(s) for s in target.state.hands[1]]:
            continue
        attacker.act(Claim(hand[:1], "summoner", 1))
        room.pump()
        target.act(target.view().legal[1])  # accept (index 0 is the challenge)
        room.pump()
        if attacker.state.phase is not Phase.SUMMON:
            continue
        attacker.act(Summon("wizard"))
        room.pump()
        target.act(Declare(1))  # FalseCount says 0
        room.pump()
        # the attacker saw the hand: it knows at once, proves it, and the game is over
        assert [b.seat for b in attacker.view().breaches] == [1]
        assert all(p.finished for p in room.peers)
        verdict = room.verdicts[0]
        assert not verdict.fair and verdict.seat == 1 and verdict.move == "declare 0"
        assert all(str(v) == str(verdict) for v in room.verdicts)
        return
    pytest.fail("no seed dealt a Wizard to seat 1")


class Boaster(Peer):
    """Taunts with a card that is not Sir Wolfy, its own checks switched off."""

    def _check(self, step: st.Step, seat: int, body: Any) -> Any:
        if seat == self.seat and step.kind == st.ACTION and body["a"][0] == "taunt":
            action = from_data(body["a"])
            blind = replace(self.state, knowledge=self.state.knowledge.forget([action.slot]))
            return action, self.game.apply(blind, action, seat)
        return super()._check(step, seat, body)


def test_a_taunt_with_a_card_that_is_not_sir_wolfy_is_named() -> None:
    room = MentalMatch("cake-duel", 2, 4, peer_types={0: Boaster, 1: Boaster})
    bots = seat_bots(2, 4)
    for _ in range(200):
        movers = [p for p in room.peers if p.waiting_for == (p.seat,)]
        cheat = movers[0]
        played = cheat.state.tauntable[cheat.seat]
        if played and "sir-wolfy" not in [cheat.deck.card(s) for s in played]:
            break
        cheat.act(bots[cheat.seat](cheat.view(), random.Random()))
        room.pump()
    else:
        pytest.fail("no taunt opportunity")
    # its own peer refuses the move, so it sends the envelope by hand
    cheat._send(st.ACTION, {"a": ["taunt", played[0]]})
    cheat._drain()
    room.pump()
    honest = room.peers[1 - cheat.seat]
    (breach,) = honest.state.breaches
    assert breach.seat == cheat.seat and "not Sir Wolfy" in breach.reason
    assert [b.seat for b in honest.view().breaches] == [cheat.seat]  # shown to all: seen
    room.play(bots)
    assert all(v.seat == cheat.seat and not v.fair for v in room.verdicts)

"""Pieces shown to all, re-mixed by their holder, taken at random and shown to two seats,
through the mental deck (the toy game of ``take_game.py``): every peer can open exactly
what its seat may know, each knows it as the cards really are, and the audit is fair and
replays the game as the local dealer deals it."""

from __future__ import annotations

from typing import Any

import pytest

from cakeparty.core import Remixed, Revealed, new_match
from cakeparty.protocol import steps as st
from cakeparty.protocol.mental import MentalMatch

from .take_game import BOX, NAME, seeded_bots


def check_knowledge(room: MentalMatch, truth: list[str] | None = None) -> None:
    """Each peer decrypts only slots its seat may know, and every identity its state holds
    is one its seat may know (and, given ``truth``, the card really there)."""
    for peer in room.peers:
        knowledge = peer.game.knowledge(peer.state)
        for slot in range(len(BOX)):
            mine = knowledge.knows(peer.seat, slot)
            if peer.deck.cards and peer.deck.card(slot) is not None:
                assert mine, f"seat {peer.seat} can open slot {slot} it may not know"
            card = knowledge.cards[slot]
            if card is not None:
                assert mine, f"seat {peer.seat} holds slot {slot} it may not know"
                if truth is not None:
                    assert card == truth[slot]
            elif mine:
                pytest.fail(f"seat {peer.seat} may know slot {slot} but does not")


def play_checked(room: MentalMatch, bots: dict[int, Any]) -> None:
    """Play to the end, checking every peer's knowledge after every step."""
    room.pump()
    while not all(p.finished for p in room.peers):
        check_knowledge(room)
        movers = [
            p
            for p in room.peers
            if p.seat in p.waiting_for and p.step.kind in ("action", "choice-commit")
        ]
        assert movers, "the room is stuck"
        peer = movers[0]
        peer.act(bots[peer.seat](peer.view(), None))
        room.pump()


def agreed(room: MentalMatch) -> Any:
    tales = [(p.outcome, p.prev, tuple(p.randoms), str(p.verdict)) for p in room.peers]
    assert all(t == tales[0] for t in tales), tales
    return tales[0]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_shown_pieces_remixed_taken_and_shown_to_two_seats_stay_right(
    players: int, seed: int
) -> None:
    room = MentalMatch(NAME, players, seed)
    play_checked(room, seeded_bots(players, seed))
    outcome, *_, verdict = agreed(room)
    assert verdict == "fair"
    first = room.verdicts[0]
    history = room.peers[0].history
    remixed = [a for s, a in history if s is None and isinstance(a, Remixed)]
    assert len(remixed) == players  # every victim held shown pieces: each re-mixed
    two = [a for s, a in history if isinstance(a, Revealed) and a.to and len(a.to) == 2]
    assert len(two) == players
    # the same orders and draws through the local dealer: the very same game
    local = new_match(
        NAME,
        players=players,
        orders=first.orders,
        randoms=first.randoms,
        remixes=first.remixes,
    )
    assert local.play(seeded_bots(players, seed)) == outcome
    assert local.history == first.replay.history
    truth = [local.dealer.card(s) for s in range(len(BOX))]
    check_knowledge(room, truth)
    # every peer learnt from each reveal to two seats exactly what the taker and victim did
    real = [a for s, a in local.history if isinstance(a, Revealed) and a.to and len(a.to) == 2]
    for peer in room.peers:
        seen = [a for s, a in peer.history if isinstance(a, Revealed) and a.to and len(a.to) == 2]
        for mine, true in zip(seen, real, strict=True):
            expected = true.cards if peer.seat in true.to else (None,)
            assert (mine.slots, mine.to, mine.cards) == (true.slots, true.to, expected)


def test_a_bystander_cannot_open_a_shown_piece_once_its_holder_has_remixed() -> None:
    room = MentalMatch(NAME, 3, 3)
    bots = seeded_bots(3, 3)
    room.pump()
    while not any(isinstance(a, Remixed) for _, a in room.peers[0].history):
        peer = next(
            p
            for p in room.peers
            if p.seat in p.waiting_for and p.step.kind in ("action", "choice-commit")
        )
        peer.act(bots[peer.seat](peer.view(), None))
        room.pump()
    (remix,) = [a for _, a in room.peers[0].history if isinstance(a, Remixed)]
    victim = remix.seat
    taker = (victim - 1) % 3
    state = room.peers[0].state
    assert state.phase == "take"  # the take is done: one re-mixed piece moved to the taker
    (taken,) = set(remix.slots) - set(state.pieces[victim])
    for peer in room.peers:
        knowledge = peer.game.knowledge(peer.state)
        for slot in remix.slots:
            allowed = {victim, taker} if slot == taken else {victim}
            if peer.seat in allowed:
                assert knowledge.cards[slot] is not None
            else:
                # it saw these pieces face up, but no longer knows which is where
                assert knowledge.cards[slot] is None
                assert peer.deck.card(slot) is None


def test_a_take_from_a_single_public_piece_needs_no_remix_and_no_share() -> None:
    room = MentalMatch(NAME, 3, 4, {"single": True})
    play_checked(room, seeded_bots(3, 4))
    assert agreed(room)[-1] == "fair"
    peer = room.peers[0]
    # seats 1 and 2 hold one piece each, shown to all: taken without a re-mix, and shown
    # to the taker and the victim, who know it already, by a step nobody sends to; seat 0
    # holds two when its turn to lose one comes, and re-mixes them first
    assert [a.seat for _, a in peer.history if isinstance(a, Remixed)] == [0]
    empty = [n for n, step in enumerate(peer.log) if not step]
    assert len(empty) == 2
    assert all(peer.log[n - 1][0].kind == st.RAND_OPEN for n in empty)

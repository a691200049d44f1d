"""Cookies Battle against cheats, through the mental deck among real peers.

Nobody can see whether another player could have followed suit, nor which marker another
holds: a card played off suit is accepted by every peer during play and named by the
end-of-game audit, which replays every trick with the hands face up; a marker used as a
kind it is not is shown to all as it is used, and the game ends there naming its user.
A pass of a card its giver does not hold is named as the sealed choices open. Envelopes
replayed, forged or sent from another room change nothing. The honest seats are never
blamed.
"""

from __future__ import annotations

import random
from typing import Any

from cakeparty.core import Action, Revealed
from cakeparty.core.games.cookies_battle import Phase
from cakeparty.core.games.cookies_battle.actions import PassOn, Play, UseMarker
from cakeparty.core.games.cookies_battle.cards import card
from cakeparty.protocol import steps as st
from cakeparty.protocol.codec import Envelope, seal
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.mental import DECISIONS, MentalMatch
from cakeparty.protocol.peer import Peer

GAME = "cookies-battle"
Bot = Any


def random_bots(players: int, seed: int) -> dict[int, Bot]:
    """One seeded random bot per seat, each deciding from its own peer's view only."""
    rngs = {s: random.Random(seed * 10 + s) for s in range(players)}
    return {s: (lambda view, s=s: rngs[s].choice(view.legal)) for s in range(players)}


def drive(room: MentalMatch, bots: dict[int, Bot], stop: Any = lambda: False) -> None:
    """The seats decide in turn, everything delivered after each move, until every peer
    has finished (audit included) or ``stop()`` holds."""
    room.pump()
    while not all(p.finished for p in room.peers) and not stop():
        movers = [p for p in room.peers if p.seat in p.waiting_for and p.step.kind in DECISIONS]
        assert movers, [str(i) for p in room.peers for i in p.incidents]
        peer = movers[0]
        peer.act(bots[peer.seat](peer.view()))
        room.pump()


def agreed(room: MentalMatch) -> tuple[Any, str]:
    """The outcome and verdict every peer holds alike (or the test fails)."""
    tales = [(p.outcome, p.prev, tuple(p.randoms), str(p.verdict)) for p in room.peers]
    assert all(t == tales[0] for t in tales), tales
    return tales[0][0], tales[0][3]


def only_blamed(room: MentalMatch, cheat: int | None) -> None:
    """No peer holds an incident against anyone but ``cheat``."""
    for peer in room.peers:
        assert all(i.peer in (None, cheat) for i in peer.incidents), peer.incidents


# -- a card off suit while holding the suit ------------------------------------------------


def suit_breaker(bot: Bot, cheated: list[Action]) -> Bot:
    """Plays, once, a coloured card of another suit (or a gold) while holding the turn
    suit; otherwise as ``bot``."""

    def decide(view: Any) -> Action:
        if not cheated and view.phase is Phase.PLAY and view.to_play == view.seat:
            suit = view.turn_suit
            names = {s: view.known[s] for s in view.hand}
            if suit is not None and any(card(n).suit == suit for n in names.values()):
                off = [s for s, n in names.items() if card(n).suit not in (suit, None)]
                if off:
                    cheated.append(Play(off[0]))
                    return cheated[0]
        return bot(view)

    return decide


def test_a_card_off_suit_is_accepted_in_play_and_named_by_the_audit() -> None:
    players, seed, cheat = 3, 5, 1
    room = MentalMatch(GAME, players, seed)
    bots = random_bots(players, seed)
    cheated: list[Action] = []
    bots[cheat] = suit_breaker(bots[cheat], cheated)
    drive(room, bots, stop=lambda: bool(cheated))
    assert cheated, "no chance to break suit came"
    (move,) = cheated
    # every honest peer took the card: the hand it came from is hidden from them
    honest = [p for p in room.peers if p.seat != cheat]
    for peer in honest:
        assert (cheat, move) in peer.history
        assert not peer.state.breaches and peer.outcome is None
    drive(room, bots)
    outcome = agreed(room)[0]
    assert outcome.reason != "cheated"  # nobody could tell during the game
    for peer in room.peers:
        assert not peer.verdict.fair
        assert (peer.verdict.seat, peer.verdict.move) == (cheat, str(move))
        assert "suit" in peer.verdict.reason
    only_blamed(room, None)  # no envelope was bad: only the audit could tell


# -- a marker used as a kind it is not ------------------------------------------------------


def marker_liar(bot: Bot, lied: list[UseMarker]) -> Bot:
    """The first time it may use a marker, it uses one as a kind it is not (a breeze,
    which needs no target); otherwise as ``bot``."""

    def decide(view: Any) -> Action:
        if not lied and view.markers and any(isinstance(a, UseMarker) for a in view.legal):
            slot, kind = view.markers[0]
            claim = "left-breeze" if kind == "right-breeze" else "right-breeze"
            lied.append(UseMarker(slot, claim))
            return lied[0]
        return bot(view)

    return decide


def test_a_marker_claimed_as_another_kind_is_named_as_it_is_shown() -> None:
    players, seed, cheat = 3, 6, 2
    room = MentalMatch(GAME, players, seed)
    bots = random_bots(players, seed)
    lied: list[UseMarker] = []
    bots[cheat] = marker_liar(bots[cheat], lied)
    drive(room, bots)
    assert lied, "the cheat never held a marker"
    (move,) = lied
    outcome = agreed(room)[0]
    assert outcome.reason == "cheated" and cheat not in outcome.winners
    assert set(outcome.winners) == {s for s in range(players) if s != cheat}
    for peer in room.peers:
        # the very next thing after the claim: the marker shown to all, and the end
        at = peer.history.index((cheat, move))
        (shown,) = peer.history[at + 1 :]
        assert isinstance(shown, tuple) and shown[0] is None
        assert isinstance(shown[1], Revealed) and shown[1].slots == (move.slot,)
        assert shown[1].to is None and not shown[1].cards[0].startswith(move.kind)
        assert peer.state.cheat == cheat
        assert (peer.verdict.seat, peer.verdict.move) == (cheat, str(move))
    only_blamed(room, None)


# -- a pass of a card the giver does not hold -----------------------------------------------


class ForeignPasser(Peer):
    """Seals a pass of a card from its left neighbour's hand (its own peer would refuse
    it, so it seals it by hand), and opens it."""

    passed: PassOn | None = None

    def act(self, action: Action) -> None:
        if self.step.kind == st.CHOICE_COMMIT and self.passed is None:
            hands = self.state.hands
            theirs = hands[(self.seat + 1) % self.state.players][0]
            self.passed = PassOn(theirs, hands[self.seat][0])
            self._sealed[self.step.seq] = self.passed
            self._send(st.CHOICE_COMMIT, self._commitment_body(self.step.seq, self.passed))
            self._drain()
        else:
            super().act(action)


def test_a_pass_of_a_card_not_held_is_named_as_the_choices_open() -> None:
    players, seed, cheat = 4, 7, 3
    room = MentalMatch(GAME, players, seed, peer_types={cheat: ForeignPasser})
    drive(room, random_bots(players, seed))
    outcome = agreed(room)[0]
    cheater = room.peers[cheat]
    assert isinstance(cheater, ForeignPasser) and cheater.passed is not None
    assert outcome.reason == "cheated" and cheat not in outcome.winners
    for peer in room.peers:
        assert peer.forfeit == (cheat, "illegal-choice")
        # no card moved: the game ended as the choices opened, before any trick
        assert not any(isinstance(a, Play) for _s, a in peer.history)
        assert peer.verdict.seat == cheat and not peer.verdict.fair
        assert any(i.peer == cheat for i in peer.incidents)
    only_blamed(room, cheat)


# -- envelopes replayed or forged -------------------------------------------------------------


def test_replayed_and_forged_envelopes_change_nothing() -> None:
    players, seed = 3, 8
    calm = MentalMatch(GAME, players, seed)
    drive(calm, random_bots(players, seed))
    expected = agreed(calm)
    assert expected[1] == "fair"

    room = MentalMatch(GAME, players, seed)
    bots = random_bots(players, seed)
    peer = room.peers[0]
    # play into the first round's tricks, past a few cards and marker windows
    drive(room, bots, stop=lambda: sum(isinstance(a, Play) for _s, a in peer.history) >= 5)
    moves = [e for step in peer.log for e in step if e.kind == st.ACTION]
    assert len(moves) >= 5
    before = [(p.prev, len(p.history)) for p in room.peers]
    stranger = Identity.generate("Eve", seeded_random_bytes(b"eve"))
    for old in moves:
        room.deliver(old.to_bytes())  # the very same envelope again (QoS 1 does that)
        # a stranger's signature over the same move, for the step now open, in a seat's name
        forged = seal(
            stranger.signing_key,
            room=room.table.room,
            seq=peer.seq,
            prev=peer.prev,
            kind=st.ACTION,
            body=old.body,
        )
        impostor = Envelope(
            forged.v,
            forged.room,
            forged.seq,
            forged.prev,
            old.sender,
            forged.kind,
            forged.body,
            forged.sig,
        )
        room.deliver(impostor.to_bytes())
        # a stranger's own envelope for the step now open
        room.deliver(
            seal(
                stranger.signing_key,
                room=room.table.room,
                seq=peer.seq,
                prev=peer.prev,
                kind=st.ACTION,
                body=old.body,
            ).to_bytes()
        )
    assert [(p.prev, len(p.history)) for p in room.peers] == before
    assert all(p.ignored == 2 * len(moves) for p in room.peers)
    only_blamed(room, None)
    # the moves replayed in another room: refused there, whoever relays them
    other = MentalMatch(GAME, players, seed + 1, room="ELSEWHERE")
    for old in moves:
        other.deliver(old.to_bytes())
    assert all(p.incidents == [] and p.ignored == len(moves) for p in other.peers)
    # then the game goes on to the very end it would have had
    drive(room, bots)
    assert agreed(room) == expected

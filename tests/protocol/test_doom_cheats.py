"""Cake of Doom against cheats, through the mental deck among real peers.

What a cheat can try, and how every honest peer names it:

* An offer worth less than its target needs: the slots are only known to be cake cards
  (the backs differ), so every peer accepts the bribe; in the blind variant it lies face
  down while every saboteur answers, and the moment it is shown to all the game ends with
  the briber named (reason ``cheated``); in the open game it is named as it is shown.
* An offer holding a mischief card: the backs tell, so every peer refuses the move as it
  arrives and names its sender; nothing moves, and the game goes on.
* A steal steered to another card than the joint random one: the thief can only try by
  opening another random contribution than it committed to, which every peer names at
  once (the thief forfeits and nothing is stolen); a thief that takes another card anyway
  on its own side can never use it: every peer refuses the move and names it.
* A card played as what it is not (a Space Teddy played as a Meteor Shower, a Force Field
  as an Abduction) is shown to all as it is played, and the game ends with that seat named.

In every case every peer names the same seat (and the audit, replaying the game face up,
names it too wherever a test plays the game out), and no honest seat is ever blamed. And a
curious peer, whatever its engine says, never holds all the shares of a card its seat may
not know: another hand, a pile, a stolen card, a blind offer before it opens.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from cakeparty.core import Action, Forfeited, Revealed, to_data
from cakeparty.core.games.cake_of_doom import (
    Abduct,
    Bribe,
    ForceField,
    NoForceField,
    NoSabotage,
    Phase,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import (
    ABDUCTION,
    FREYA,
    SABOTAGES,
    ZIX,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.events import Stole
from cakeparty.core.games.cake_of_doom.rules import targets, units
from cakeparty.core.requests import Random as RandomRequest
from cakeparty.protocol import steps as st
from cakeparty.protocol.mental import DECISIONS, MentalMatch
from cakeparty.protocol.peer import Peer

GAME = "cake-of-doom"
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


def named_cheat(room: MentalMatch, cheat: int, move: Action) -> None:
    """The game ended with ``cheat`` named for ``move`` by every peer, in play and by the
    audit, and nobody else blamed."""
    outcome = agreed(room)[0]
    assert outcome.reason == "cheated" and cheat not in outcome.winners
    assert outcome.winners and all(0 <= s < room.table.seats for s in outcome.winners)
    for peer in room.peers:
        assert peer.state.phase is Phase.OVER and peer.state.cheat == cheat
        assert [(b.seat, b.action) for b in peer.state.breaches] == [(cheat, str(move))]
        assert not peer.verdict.fair
        assert (peer.verdict.seat, peer.verdict.move) == (cheat, str(move))
    only_blamed(room, None)  # every envelope was sound: the cards themselves tell


def hand_of(view: Any) -> dict[int, str]:
    return {s: view.known[s] for s in view.hand if s in view.known}


# -- an offer below what its target needs ----------------------------------------------------


def short_offer(view: Any) -> Bribe | None:
    """On this seat's turn, a bribe of a neutral region with one cake card worth less
    than its minimum (Freya counting her +1), or ``None`` if this hand makes none."""
    if view.phase is not Phase.PLAY or view.seat not in view.to_act:
        return None
    alien = view.aliens[view.seat]
    freya = 1 if alien == FREYA else 0
    cakes = {s: n for s, n in hand_of(view).items() if is_cake_slot(s)}
    for region in sorted(view.regions, key=lambda r: -r.minimum):
        if region.holder is not None:
            continue
        for slot, name in sorted(cakes.items()):
            if units(name, region.continent, alien) + freya < region.minimum:
                return Bribe(region.name, (slot,))
    return None


def short_briber(bot: Bot, made: list[Bribe]) -> Bot:
    """Makes, once, an offer below its target's minimum; otherwise as ``bot``."""

    def decide(view: Any) -> Action:
        if not made:
            offer = short_offer(view)
            if offer is not None:
                made.append(offer)
                return offer
        return bot(view)

    return decide


@pytest.mark.parametrize(("blind", "seed"), [(True, 11), (False, 12)], ids=["blind", "open"])
def test_an_offer_below_the_minimum_is_named_when_it_is_shown(blind: bool, seed: int) -> None:
    players, cheat = 3, 1
    room = MentalMatch(GAME, players, seed, {"blind": blind})
    bots = random_bots(players, seed)
    made: list[Bribe] = []
    bots[cheat] = short_briber(bots[cheat], made)
    drive(room, bots, stop=lambda: bool(made) and (cheat, made[0]) in room.peers[0].history)
    assert made, "the cheat never held a cake card"
    (move,) = made
    if blind:
        # every peer took the bribe face down: no other seat can tell what it is worth
        for peer in room.peers:
            assert peer.outcome is None and (cheat, move) in peer.history
            if peer.seat != cheat:
                knowledge = peer.game.knowledge(peer.state)
                assert not any(knowledge.knows(peer.seat, s) for s in move.slots)
                assert not any(readable(peer, s) for s in move.slots)
    drive(room, bots)
    named_cheat(room, cheat, move)
    for peer in room.peers:
        assert "needed" in peer.verdict.reason
        after = peer.history[peer.history.index((cheat, move)) + 1 :]
        shown = [
            n
            for n, (_s, a) in enumerate(after)
            if isinstance(a, Revealed) and a.to is None and a.slots == move.slots
        ]
        assert shown, "the offer was never shown to all"
        answers = [(s, a) for s, a in after[: shown[0]] if s is not None]
        if blind:
            # the saboteurs answered (and the briber to each sabotage) before anyone saw
            # the cards
            assert any(s != cheat for s, _a in answers), answers
            for s, a in answers:
                kinds = (ForceField, NoForceField) if s == cheat else (Sabotage, NoSabotage)
                assert isinstance(a, kinds), (s, a)
        else:
            assert answers == []  # shown to all at once
        # the opening ended the game: no seat moved after it
        assert all(s is None for s, _a in after[shown[0] :])


# -- an offer holding a mischief card --------------------------------------------------------


def test_a_blind_offer_of_a_mischief_card_is_refused_and_named_at_once() -> None:
    players, seed, cheat = 3, 12, 2
    room = MentalMatch(GAME, players, seed, {"blind": True})
    bots = random_bots(players, seed)
    peer = room.peers[cheat]
    # play until the cheat must decide its turn with a mischief card in hand
    drive(
        room,
        bots,
        stop=lambda: (
            peer.seat in peer.waiting_for
            and peer.state.phase is Phase.PLAY
            and bool(peer.state.mischief_in_hand(cheat))
            and bool(peer.state.cakes_in_hand(cheat))
        ),
    )
    state = peer.state
    region = next(r for r in state.regions if r.holder is None)
    slots = tuple(sorted((state.cakes_in_hand(cheat)[0], state.mischief_in_hand(cheat)[0])))
    move = Bribe(region.name, slots)
    with pytest.raises(Exception, match="cake cards only"):
        peer.act(move)  # its own peer refuses it, so it sends the envelope by hand
    before = [(p.prev, len(p.history), p.state.hands) for p in room.peers]
    peer._send(st.ACTION, {"a": to_data(move)})
    peer._drain()
    room.pump()
    # refused by every peer, each naming the cheat; nothing moved, its turn is still open
    assert [(p.prev, len(p.history), p.state.hands) for p in room.peers] == before
    for other in room.peers:
        assert other.incidents and all(i.peer == cheat for i in other.incidents)
        assert any("cake cards only" in str(i) for i in other.incidents)
        assert cheat in other.waiting_for
    # then it plays honestly, and the game goes on to its end; the audit names the
    # refused move all the same
    drive(room, bots)
    outcome = agreed(room)[0]
    assert outcome.reason in ("regions", "doom")
    for other in room.peers:
        assert not other.verdict.fair and other.verdict.seat == cheat
        assert "cake cards only" in other.verdict.reason and str(move) in other.verdict.reason
    assert all((cheat, move) not in p.history for p in room.peers)
    only_blamed(room, cheat)


# -- a steal steered to another card --------------------------------------------------------


def thieves(room: MentalMatch, bots: dict[int, Bot]) -> list[tuple[int, Abduct]]:
    """Every seat whose Abduction draws a card (Zix looks and picks instead) plays one at
    its first chance, against the seat with the most cards; the first to do so is the
    thief, recorded with its move in the list returned. An armed :class:`SteeringThief`
    at that seat is armed as it plays it."""
    stole: list[tuple[int, Abduct]] = []
    aliens = room.peers[0].state.aliens

    def thief(seat: int, bot: Bot) -> Bot:
        def decide(view: Any) -> Action:
            abductions = [a for a in view.legal if isinstance(a, Abduct)]
            if abductions and not stole:
                move = max(abductions, key=lambda a: (view.hand_sizes[a.victim], -a.victim))
                stole.append((seat, move))
                peer = room.peers[seat]
                if isinstance(peer, SteeringThief):
                    peer.armed = True
                return move
            return bot(view)

        return decide

    for seat, bot in list(bots.items()):
        if aliens[seat] != ZIX:
            bots[seat] = thief(seat, bot)
    return stole


class SteeringThief(Peer):
    """Once ``armed``, at the draw of a card it steals, opens another random contribution
    than the one it committed to (what it would need to steer the draw to a card it
    wants). Unarmed, it is an honest peer."""

    armed = False
    steered: int | None = None  # the step it opened falsely

    def _stealing(self) -> bool:
        """The draw now is of a card from the hand this seat's Abduction targets: its last
        move was that Abduction, and only the draw is waited on since."""
        moves = [(s, a) for s, a in self.history if s is not None]
        pending = self.game.pending(self.state)
        return (
            isinstance(pending, RandomRequest)
            and bool(moves)
            and moves[-1][0] == self.seat
            and isinstance(moves[-1][1], Abduct)
        )

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.RAND_OPEN and self.armed and self.steered is None and self._stealing():
            body["x"] = bytes(b ^ 0xFF for b in body["x"])
            self.steered = step.seq
        return body


def stole_by(peer: Peer, thief: int) -> bool:
    """Whether ``thief`` has taken a card from another hand in ``peer``'s game."""
    return any(isinstance(e, Stole) and e.thief == thief for e in peer.state.events)


def test_a_thief_that_steers_the_draw_of_a_steal_is_named_at_once() -> None:
    players, seed = 3, 13
    room = MentalMatch(GAME, players, seed, peer_types=dict.fromkeys(range(players), SteeringThief))
    bots = random_bots(players, seed)
    stole = thieves(room, bots)
    drive(room, bots)
    assert stole, "nobody stole by a draw"
    ((cheat, move),) = stole
    cheater = room.peers[cheat]
    assert isinstance(cheater, SteeringThief) and cheater.steered is not None
    assert not any(
        isinstance(p, SteeringThief) and p.steered for p in room.peers if p.seat != cheat
    )
    outcome = agreed(room)[0]
    assert outcome.reason == "forfeit" and cheat not in outcome.winners
    for peer in room.peers:
        assert peer.forfeit == (cheat, "false-opening")
        # named at the false opening itself: no card was drawn, none moved
        assert peer.history[-1] == (None, Forfeited(cheat, "false-opening"))
        assert not stole_by(peer, cheat)
        assert (cheat, move) in peer.history
        assert not peer.verdict.fair and peer.verdict.seat == cheat
        assert any(i.peer == cheat for i in peer.incidents)
    only_blamed(room, cheat)


def test_a_card_the_thief_did_not_draw_cannot_be_played() -> None:
    players, seed = 3, 14
    room = MentalMatch(GAME, players, seed)
    bots = random_bots(players, seed)
    stole = thieves(room, bots)
    drive(room, bots, stop=lambda: bool(stole) and stole_by(room.peers[stole[0][0]], stole[0][0]))
    assert stole, "nobody stole by a draw"
    ((cheat, abduct),) = stole
    peer = room.peers[cheat]
    assert stole_by(peer, cheat)
    victim = abduct.victim
    # every peer moved the same card
    assert all(p.state.hands == peer.state.hands for p in room.peers)
    drive(room, bots, stop=lambda: cheat in peer.waiting_for and peer.state.phase is Phase.PLAY)
    # its own side says it took another card of that hand than the one drawn, and offers it
    wanted = peer.state.hands[victim][0]
    target, _need = targets(peer.state, cheat)[0]  # any target it may bribe now
    move = Bribe(target, (wanted,))
    before = [(p.prev, len(p.history), p.state.hands) for p in room.peers]
    peer._send(st.ACTION, {"a": to_data(move)})  # its own peer would refuse it
    peer._drain()
    room.pump()
    # every peer refuses it and names the thief; nothing moved
    assert [(p.prev, len(p.history), p.state.hands) for p in room.peers] == before
    for other in room.peers:
        assert any(i.peer == cheat and "from your hand" in str(i) for i in other.incidents)
        assert wanted in other.state.hands[victim]
    only_blamed(room, cheat)
    # the room is not stuck: the thief's next honest move is taken
    honest = bots[cheat](peer.view())
    counts = [p.history.count((cheat, honest)) for p in room.peers]
    peer.act(honest)
    room.pump()
    assert [p.history.count((cheat, honest)) for p in room.peers] == [n + 1 for n in counts]


# -- a card played as what it is not --------------------------------------------------------


def false_claim(bot: Bot, lied: list[Action], how: str) -> Bot:
    """Plays, once, a mischief card as what it is not: as an Abduction on its turn
    (``how="abduct"``), or as a sabotage against a bribe (``how="sabotage"``)."""

    def decide(view: Any) -> Action:
        if not lied:
            mine = hand_of(view)
            if how == "abduct" and view.phase is Phase.PLAY:
                others = [v for v in range(view.players) if v != view.seat and view.hand_sizes[v]]
                fake = [s for s, n in mine.items() if not is_cake_slot(s)]
                fake = [s for s in fake if card(mine[s]).sort != ABDUCTION]
                if fake and others:
                    lied.append(Abduct(fake[0], others[0]))
            elif how == "sabotage" and view.phase is Phase.SABOTAGE:
                for slot, name in sorted(mine.items()):
                    if not is_cake_slot(slot):
                        claim = next(k for k in SABOTAGES if k != card(name).sort)
                        lied.append(Sabotage(slot, claim))
                        break
            if lied:
                return lied[0]
        return bot(view)

    return decide


@pytest.mark.parametrize(
    ("how", "options", "seed"),
    [("abduct", {}, 15), ("sabotage", {"blind": True}, 16)],
    ids=["abduction", "blind-sabotage"],
)
def test_a_card_played_as_what_it_is_not_is_named_as_it_is_shown(
    how: str, options: dict[str, bool], seed: int
) -> None:
    players, cheat = 3, 2
    room = MentalMatch(GAME, players, seed, options)
    bots = random_bots(players, seed)
    lied: list[Action] = []
    bots[cheat] = false_claim(bots[cheat], lied, how)
    drive(room, bots)
    assert lied, "no chance to lie came"
    (move,) = lied
    named_cheat(room, cheat, move)
    slot = move.slot  # type: ignore[attr-defined]
    for peer in room.peers:
        # the very next thing after the claim: the card shown to all, and the end
        at = peer.history.index((cheat, move))
        (shown,) = peer.history[at + 1 :]
        assert shown[0] is None and isinstance(shown[1], Revealed)
        assert shown[1].slots == (slot,) and shown[1].to is None
        real = card(shown[1].cards[0]).sort
        claimed = ABDUCTION if how == "abduct" else move.kind  # type: ignore[attr-defined]
        assert real != claimed
        assert peer.state.knowledge.cards[slot] == shown[1].cards[0]
    if how == "sabotage":
        # it was another seat's bribe, and no card of it was lost to the lie
        offer = room.peers[0].state.offer
        assert offer is not None and offer.seat != cheat


# -- a curious peer ------------------------------------------------------------------------


def readable(peer: Peer, slot: int) -> bool:
    """Whether ``peer`` holds every decryption share of ``slot``'s card as it is now (its
    own included): all it would need to read it, whatever its rules engine says."""
    deck = peer.deck
    shares = set(deck.public[slot]) | set(deck.private[slot]) | {peer.seat}
    return len(shares) >= peer.table.seats


def abductor(bot: Bot) -> Bot:
    """Plays an Abduction whenever it may, against the seat with the most cards."""

    def decide(view: Any) -> Action:
        abductions = [a for a in view.legal if isinstance(a, Abduct)]
        if abductions:
            return max(abductions, key=lambda a: (view.hand_sizes[a.victim], -a.victim))
        return bot(view)

    return decide


def test_no_peer_holds_the_shares_of_a_card_its_seat_may_not_know() -> None:
    """A curious peer reads nothing beyond its seat: after every step of an advanced blind
    game full of steals, no peer holds all the shares of another hand's card, of a draw
    pile's, of a stolen card (but thief and victim) or of a blind offer before it opens."""
    players, seed = 3, 17
    room = MentalMatch(GAME, players, seed, {"blind": True, "advanced": True})
    bots = {s: abductor(b) for s, b in random_bots(players, seed).items()}
    steals = 0
    offers: set[tuple[int, tuple[int, ...]]] = set()  # the blind offers seen face down
    read = 0  # cards some peer could read (its own, the face-up ones): the check bites

    def check() -> bool:
        nonlocal steals, read
        for peer in room.peers:
            if not peer.deck.cards:
                continue  # the decks are not made yet
            knowledge = peer.game.knowledge(peer.state)
            for slot in range(len(peer.deck.cards)):
                if readable(peer, slot):
                    read += 1
                    assert knowledge.knows(peer.seat, slot), (peer.seat, slot)
        state = room.peers[0].state
        steals = sum(isinstance(e, Stole) for e in state.events)
        offer = state.offer
        if offer is not None and not offer.opened:
            offers.add((offer.seat, offer.slots))
            for peer in room.peers:
                if peer.seat != offer.seat:
                    assert not any(readable(peer, s) for s in offer.slots)
        return steals >= 3 and len(offers) >= 2

    drive(room, bots, stop=check)
    assert steals >= 3 and len(offers) >= 2 and read > 0, (steals, offers, read)
    only_blamed(room, None)

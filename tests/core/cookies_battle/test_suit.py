"""The deferred follow-suit check: a seat's own legal actions follow suit; a state that
knows the whole hand (the local dealer, the audit's replay) records a breach and names the
seat; a peer that does not know the hand accepts the card and records nothing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cakeparty.core import Action, IllegalActionError, get_game, new_match
from cakeparty.core.actions import Committed, RandomResult, Remixed, Revealed
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.games.cookies_battle.actions import PassOn, Play
from cakeparty.core.games.cookies_battle.state import CookiesState
from cakeparty.core.requests import Commit
from tests.core.cookies_battle.stacking import card_order, pass_cards, play, slot, stacked

GAME = get_game("cookies-battle")
HANDS = {0: ["blue-12"], 1: ["blue-3", "gold-7"], 2: ["blue-9"]}


def test_a_local_match_refuses_a_card_that_breaks_suit_naming_the_seat() -> None:
    m = stacked(3, HANDS)
    pass_cards(m)
    play(m, 0, "blue-12")
    assert Play(slot(m, "gold-7")) not in m.legal_actions(1)
    with pytest.raises(IllegalActionError, match="suit") as caught:
        m.apply(Play(slot(m, "gold-7")), 1)
    assert caught.value.seat == 1


class PeerTable:
    """One seat's copy of a game: a dealer that knows every card answers the requests,
    but this seat's state learns only what its seat may (as a networked peer does)."""

    def __init__(self, seat: int, players: int, orders: Sequence[Sequence[str]]) -> None:
        self.seat = seat
        self.state: CookiesState = GAME.new_state(players)
        self.dealer = LocalDealer(GAME.box(self.state), 1, orders=orders, randoms=[0])
        self.moves: list[tuple[int, Action]] = []
        self.randoms: list[int] = []
        self._settle()

    def _settle(self) -> None:
        while True:
            request = GAME.pending(self.state)
            if request is None or isinstance(request, Commit):
                return
            answer = self.dealer.fulfil(request, GAME.knowledge(self.state))
            if (
                isinstance(answer, Revealed)
                and answer.to is not None
                and self.seat not in answer.to
            ):
                answer = answer.redacted()
            if isinstance(answer, Remixed) and self.seat not in answer.to:
                answer = Remixed(answer.seat, answer.slots, (None,) * len(answer.slots), answer.to)
            if isinstance(answer, RandomResult):
                self.randoms.append(answer.value)
            self.state = GAME.apply(self.state, answer, None)

    def commit(self, choices: dict[int, Action]) -> None:
        self.moves.extend(sorted(choices.items()))
        self.state = GAME.apply(self.state, Committed(tuple(sorted(choices.items()))), None)
        self._settle()

    def act(self, seat: int, action: Action) -> None:
        self.moves.append((seat, action))
        self.state = GAME.apply(self.state, action, seat)
        self._settle()

    def slot(self, name: str) -> int:
        return next(s for s in range(len(self.state.box)) if self.dealer.card(s) == name)


def test_a_peer_accepts_the_card_and_the_replay_names_the_seat() -> None:
    orders = [
        list(GAME.box(GAME.new_state(3))[54:90]),  # pieces in box order
        list(GAME.box(GAME.new_state(3))[90:]),  # markers in box order
        card_order(3, HANDS),
    ]
    peer = PeerTable(0, 3, orders)
    state = peer.state
    peer.commit({s: PassOn(state.hands[s][-2], state.hands[s][-1]) for s in range(3)})
    assert peer.state.to_play == 0
    peer.act(0, Play(peer.slot("blue-12")))
    # seat 1 holds the blue 3 and plays the gold 7: seat 0 cannot tell, and accepts it
    peer.act(1, Play(peer.slot("gold-7")))
    assert not peer.state.breaches
    assert peer.state.trick[-1] == (1, peer.slot("gold-7"))
    # the audit's replay: the same shuffles and draws, every card known
    replay = new_match(
        "cookies-battle",
        players=3,
        orders=[cards for _slots, cards in peer.dealer.shuffles],
        randoms=peer.randoms,
        remixes=[cards for _slots, cards in peer.dealer.remixes],
    )
    *before, (culprit, last) = peer.moves
    for seat, action in before:
        replay.apply(action, seat)
    state = GAME.apply(replay.state, last, culprit)  # the rules alone record it
    (breach,) = state.breaches
    assert breach.seat == 1 and breach.action == str(last)
    assert "suit" in breach.reason
    with pytest.raises(IllegalActionError) as caught:  # and a local match refuses it
        replay.apply(last, culprit)
    assert caught.value.seat == 1

"""The deferred follow-suit check: a seat's own legal actions follow suit; a state that
knows the whole hand (the local dealer, the audit's replay) records a breach and names the
seat; a peer that does not know the hand accepts the card and records nothing."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cakeparty.core import Action, IllegalActionError, get_game, new_match
from cakeparty.core.actions import Committed, RandomResult, Remixed, Revealed, forfeit_words
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.games.cookies_battle.actions import PassOn, Play
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.state import CookiesState
from cakeparty.core.requests import Commit
from tests.core.cookies_battle.stacking import card_order, pass_cards, play, slot, stacked
from tests.i18n_catalogs import language

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
    with language("es"):  # the rules alone record it (applied in one language...)
        state = GAME.apply(replay.state, last, culprit)
    (breach,) = state.breaches
    assert breach.seat == 1 and breach.action == str(last)
    # ...its reason kept untranslated, read in the reader's
    assert breach.reason == "broke suit: held a card of the turn suit"
    with language("pl"):
        words = forfeit_words(breach.reason)
        assert words == "złamanie koloru: na ręce była karta w kolorze wiodącym"
    with pytest.raises(IllegalActionError) as caught:  # and a local match refuses it
        replay.apply(last, culprit)
    assert caught.value.seat == 1


class Table:
    """Every seat's own copy of one game, and a spectator's, each learning only what it
    may: the copies must agree on everything public at every step."""

    def __init__(self, players: int, seed: int, options: dict[str, str]) -> None:
        start = GAME.new_state(players, options)
        self.dealer = LocalDealer(GAME.box(start), seed)
        self.copies: dict[int | None, CookiesState] = {s: start for s in [None, *range(players)]}
        self._settle()

    def _answer(self, seat: int | None, answer: Action) -> Action:
        if isinstance(answer, Revealed) and answer.to is not None and seat not in answer.to:
            return answer.redacted()
        if isinstance(answer, Remixed) and seat not in answer.to:
            return Remixed(answer.seat, answer.slots, (None,) * len(answer.slots), answer.to)
        return answer

    def _all(self, action: Action, seat: int | None) -> None:
        for copy_of, state in self.copies.items():
            self.copies[copy_of] = GAME.apply(state, self._answer(copy_of, action), seat)

    def _settle(self) -> None:
        truth = self.copies[0]
        while (request := GAME.pending(truth)) is not None and not isinstance(request, Commit):
            # the dealer syncs on public identities only, which every copy holds
            self._all(self.dealer.fulfil(request, GAME.knowledge(truth)), None)
            truth = self.copies[0]

    def public(self, state: CookiesState) -> tuple[object, ...]:
        return (
            state.phase,
            state.queue,
            GAME.to_act(state),
            state.hands,
            state.pieces,
            state.markers,
            state.trick,
            state.turn_suit,
            state.puppets,
            state.knowledge.known_by,
            len(state.events),
            state.state_id,
            GAME.outcome(state),
        )

    def step(self, rng: random.Random) -> bool:
        states = list(self.copies.values())
        assert len({self.public(s) for s in states}) == 1
        truth = self.copies[0]
        if GAME.outcome(truth) is not None:
            return False
        acting = GAME.to_act(truth)
        if isinstance(GAME.pending(truth), Commit):
            choices = {s: random_bot(GAME.view(self.copies[s], s), rng) for s in acting}
            self._all(Committed(tuple(sorted(choices.items()))), None)
        else:
            (seat,) = acting
            self._all(random_bot(GAME.view(self.copies[seat], seat), rng), seat)
        self._settle()
        return True


@pytest.mark.parametrize(("players", "variant"), [(2, None), (4, "standard"), (5, "beginners")])
def test_every_seats_copy_stays_in_step_and_none_records_a_breach(
    players: int, variant: str | None
) -> None:
    table = Table(players, seed=players, options={} if variant is None else {"variant": variant})
    rng = random.Random(players)
    while table.step(rng):
        pass
    for copy_of, state in table.copies.items():
        assert not state.breaches, copy_of
        assert GAME.outcome(state) is not None

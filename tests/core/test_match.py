"""The generic machinery: matches, sealed simultaneous choices, the local dealer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from cakeparty.core import (
    Action,
    CakePartyError,
    Commit,
    Committed,
    IllegalActionError,
    LocalDealer,
    Outcome,
    Random,
    RandomResult,
    Reveal,
    Revealed,
    Shuffle,
    Shuffled,
    apply,
    legal_actions,
    new_match,
    to_act,
)
from cakeparty.core.actions import Kind, register
from cakeparty.core.game import Game, register_game
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request, check_answer


# A toy game with a simultaneous choice: both seats bid 0-2 at once, then a fair die
# (0-2) is rolled; the bid nearest the roll wins, ties to the lower seat.
@register
@dataclass(frozen=True)
class Bid(Action):
    value: int

    TAG: ClassVar[str] = "toy-bid"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT,)


@dataclass(frozen=True)
class BidState:
    GAME: ClassVar[str] = "toy-bids"
    pending: Request | None
    bids: tuple[int, ...] = ()
    roll: int | None = None


class BidGame(Game):
    name = "toy-bids"
    players = (2,)

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> BidState:
        return BidState(pending=Commit((0, 1)))

    def pending(self, state: BidState) -> Request | None:
        return state.pending

    def to_act(self, state: BidState) -> tuple[int, ...]:
        return state.pending.seats if isinstance(state.pending, Commit) else ()

    def legal_actions(self, state: BidState, seat: int) -> list[Action]:
        return [Bid(v) for v in range(3)] if seat in self.to_act(state) else []

    def apply(self, state: BidState, action: Action, seat: int | None) -> BidState:
        if seat is not None:
            raise IllegalActionError(seat, action, "bids are sealed and opened together")
        check_answer(state.pending, action)
        if isinstance(action, Committed):
            bids = tuple(a.value for _, a in action.choices if isinstance(a, Bid))
            return replace(state, bids=bids, pending=Random(3))
        assert isinstance(action, RandomResult)
        return replace(state, roll=action.value, pending=None)

    def view(self, state: BidState, seat: int | None) -> BidState:
        return state

    def outcome(self, state: BidState) -> Outcome | None:
        if state.roll is None:
            return None
        distance = [abs(b - state.roll) for b in state.bids]
        winner = distance.index(min(distance))
        return Outcome(winners=(winner,), reason="nearest", scores=tuple(state.bids))

    def knowledge(self, state: BidState) -> Knowledge:
        return Knowledge((), ())

    def box(self, state: BidState) -> tuple[str, ...]:
        return ()


register_game(BidGame())


def test_a_simultaneous_choice_stays_sealed_until_every_seat_has_chosen() -> None:
    m = new_match("toy-bids", players=2, seed=1, randoms=[2])
    assert m.to_act == (0, 1)
    m.apply(Bid(2), seat=1)
    assert m.state.bids == ()  # nothing opened yet, nothing in the state to see
    assert m.history == []
    assert m.to_act == (0,)
    with pytest.raises(IllegalActionError, match="already chosen"):
        m.apply(Bid(0), seat=1)
    m.apply(Bid(0), seat=0)
    assert m.history[0] == (None, Committed(((0, Bid(0)), (1, Bid(2)))))
    assert m.state.bids == (0, 2)
    assert m.outcome == Outcome(winners=(1,), reason="nearest", scores=(0, 2))


def test_the_order_of_sealed_choices_does_not_change_the_game() -> None:
    first = new_match("toy-bids", players=2, seed=1)
    first.apply(Bid(1), seat=0)
    first.apply(Bid(2), seat=1)
    second = new_match("toy-bids", players=2, seed=1)
    second.apply(Bid(2), seat=1)
    second.apply(Bid(1), seat=0)
    assert first.history == second.history
    assert first.outcome == second.outcome


def test_an_illegal_sealed_choice_is_refused() -> None:
    m = new_match("toy-bids", players=2, seed=1)
    with pytest.raises(IllegalActionError):
        m.apply(Bid(7), seat=0)
    with pytest.raises(IllegalActionError, match="say which seat"):
        m.apply(Bid(1))


def test_the_dealer_answers_each_request() -> None:
    dealer = LocalDealer(["a", "b", "c"], seed=3, orders=[["c", "a", "b"]], randoms=[1])
    know = Knowledge.public(["a", "b", "c"]).forget([0, 1, 2])
    assert dealer.fulfil(Shuffle((0, 1, 2)), know) == Shuffled((0, 1, 2))
    assert dealer.truth == ["c", "a", "b"]
    assert dealer.fulfil(Reveal((0, 2), (1,)), know) == Revealed((0, 2), ("c", "b"), (1,))
    assert dealer.fulfil(Random(4), know) == RandomResult(4, 1)
    assert dealer.fulfil(Random(4), know).value in range(4)
    assert dealer.shuffles == [((0, 1, 2), ("c", "a", "b"))]
    with pytest.raises(CakePartyError):
        dealer.fulfil(Commit((0, 1)), know)


def test_a_stacked_order_must_hold_exactly_the_shuffled_cards() -> None:
    dealer = LocalDealer(["a", "b"], orders=[["a", "a"]])
    with pytest.raises(CakePartyError, match="exactly the shuffled cards"):
        dealer.fulfil(Shuffle((0, 1)), Knowledge.public(["a", "b"]))


def test_a_dealer_answer_must_match_the_request() -> None:
    with pytest.raises(IllegalActionError):
        check_answer(Reveal((1,), None), Revealed((2,), ("x",), None))
    with pytest.raises(IllegalActionError):
        check_answer(Random(3), RandomResult(2, 1))
    with pytest.raises(IllegalActionError):
        check_answer(None, Shuffled((1,)))


def test_the_functional_api_dispatches_on_the_state() -> None:
    m = new_match("cake-duel", players=2, seed=4)
    state = m.state
    (seat,) = to_act(state)
    action = legal_actions(state, seat)[0]
    assert apply(state, action) == m.game.apply(state, action, seat)


def test_new_match_refuses_a_bad_game_or_player_count() -> None:
    with pytest.raises(CakePartyError, match="unknown game"):
        new_match("cake-fight")
    with pytest.raises(CakePartyError, match="players"):
        new_match("cake-duel", players=3)
    with pytest.raises(CakePartyError, match="option"):
        new_match("cake-duel", options={"fast": True})


def test_a_seat_that_is_not_at_the_table_is_named_with_the_seat_range() -> None:
    from cakeparty.core import SeatError, view

    m = new_match("cake-duel", players=2, seed=7)
    for call in (lambda: m.view(7), lambda: m.legal_actions(-1), lambda: view(m.state, 2)):
        with pytest.raises(SeatError, match="0 to 1") as caught:
            call()
        assert not isinstance(caught.value, IndexError)
    assert m.view(None).seat is None  # a spectator is welcome


def test_an_action_after_the_end_or_from_no_seat_says_so() -> None:
    import random as _random

    from cakeparty.core import SeatError, get_game
    from cakeparty.core.games.cake_duel import PASS

    m = new_match("cake-duel", players=2, seed=3)
    bots = [get_game("cake-duel").bots["random"]] * 2
    m.play(bots, _random.Random(1))
    assert m.outcome is not None
    with pytest.raises(IllegalActionError, match="is over"):
        m.apply(PASS, 0)
    with pytest.raises(IllegalActionError, match="is over"):
        apply(m.state, PASS, 0)
    with pytest.raises(SeatError, match="0 to 1"):
        m.apply(PASS, 5)

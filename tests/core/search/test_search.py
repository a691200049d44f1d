"""The search on a small game of sealed bids: legal, seeded, blind to hidden cards, strong."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cakeparty.core.dealer import LocalDealer
from cakeparty.core.game import Outcome, World, bot_levels, make_bot
from cakeparty.core.match import Match
from cakeparty.core.search import Budget, search, strong_bot
from cakeparty.core.search.ismcts import rewards
from tests.core.search.toy import (
    HAND,
    PRIZES,
    TOY,
    Bid,
    Toy,
    ToyView,
    greedy_bot,
    random_bot,
    value,
)


def toy_match(players: int, seed: int, *, sealed: bool = True, **stack: Any) -> Match:
    state = TOY.new_state(players, {"sealed": sealed})
    return Match(TOY, state, LocalDealer(TOY.box(state), seed, **stack))


def decision_points(players: int, sealed: bool, seed: int) -> list[ToyView]:
    """Every view a seat decides from in one random game."""
    match = toy_match(players, seed, sealed=sealed)
    rng = random.Random(seed)
    views = []
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        views.append(view)
        match.apply(random_bot(view, rng), seat)
    return views


@pytest.mark.parametrize(("players", "sealed"), [(2, True), (3, True), (2, False), (3, False)])
def test_the_search_returns_a_legal_action(players: int, sealed: bool) -> None:
    for view in decision_points(players, sealed, seed=players):
        result = search(TOY, view, random.Random(5), Budget(iterations=40))
        assert result.action in view.legal
        if len(view.legal) > 1:
            assert result.iterations == 40 and result.failures == 0


def test_the_same_seed_and_iterations_give_the_same_search() -> None:
    view = decision_points(3, False, seed=9)[1]
    first = search(TOY, view, random.Random(11), Budget(iterations=120))
    again = search(TOY, view, random.Random(11), Budget(iterations=120))
    assert first == again
    assert sum(first.visits.values()) == 120


def test_the_search_cannot_see_the_cards_of_other_seats() -> None:
    # Two deals: seat 0 holds its cards in the same slots, the prizes turned up are the
    # same, and seat 1 bids the same cards; the last prizes and seat 1's cards still in hand
    # lie differently.
    deals = [
        [("p3", "p1", "p2", "p4", "p5"), ("b1", "b2", "b3", "b4"), ("b1", "b2", "b3", "b4")],
        [("p3", "p1", "p2", "p5", "p4"), ("b1", "b2", "b3", "b4"), ("b1", "b4", "b3", "b2")],
    ]
    matches = [toy_match(2, 1, orders=deal, randoms=[0]) for deal in deals]
    first = len(PRIZES) + HAND  # seat 1's first slot
    for slot in (first, first + 2, first + 1):
        views = [m.view(0) for m in matches]
        assert views[0] == views[1]
        assert matches[0].state.knowledge != matches[1].state.knowledge
        choices = [
            search(TOY, v, random.Random(3), Budget(iterations=150, depth=None)).action
            for v in views
        ]
        assert choices[0] == choices[1]
        for match in matches:
            match.apply(choices[0], 0)
            match.apply(Bid(slot), 1)


def test_a_sealed_choice_stays_unseen() -> None:
    # Seat 1 seals its bid first; seat 0 then decides the same whatever seat 1 chose.
    chosen = []
    for bid in range(4):
        match = toy_match(2, 4)
        match.apply(match.legal_actions(1)[bid], 1)
        assert match.to_act == (0,)
        chosen.append(search(TOY, match.view(0), random.Random(8), Budget(iterations=100)).action)
    assert len(set(chosen)) == 1


def play_against(players: int, bots: list[Any], seed: int, sealed: bool = True) -> Outcome:
    return toy_match(players, seed, sealed=sealed).play(bots, random.Random(seed))


def full_search(iterations: int) -> Any:
    """The search planning every seat's moves (``depth=None``), on an iteration budget."""
    budget = Budget(iterations=iterations, depth=None)
    return lambda view, rng: search(TOY, view, rng, budget).action


def score_against_random(bot: Any, games: int, first_seed: int) -> tuple[int, int]:
    """(wins, losses) of ``bot`` against a random bot, taking each seat in turn."""
    wins = losses = 0
    for game in range(games):
        seat = game % 2
        bots: list[Any] = [random_bot, random_bot]
        bots[seat] = bot
        outcome = play_against(2, bots, first_seed + game)
        wins += outcome.winners == (seat,)
        losses += seat not in outcome.winners
    return wins, losses


def test_the_search_beats_random_play() -> None:
    strong = score_against_random(full_search(150), 12, 300)
    # the same deals with a random bot in the searching seat
    chance = score_against_random(random_bot, 12, 300)
    assert strong[0] >= 8 and strong[0] >= 3 * strong[1], strong
    assert strong[0] > chance[0] and strong[1] < chance[1], (strong, chance)


def test_the_search_exploits_a_fixed_policy() -> None:
    strong = full_search(60)
    wins = 0
    for game in range(8):
        seat = game % 2
        bots: list[Any] = [greedy_bot, greedy_bot]
        bots[seat] = strong
        wins += play_against(2, bots, 200 + game, sealed=False).winners == (seat,)
    assert wins >= 6, wins


def test_a_single_legal_action_is_answered_at_once() -> None:
    class Blind(Toy):
        def determinize(self, view: Any, rng: random.Random) -> World | None:
            raise AssertionError("no search for a forced move")

    view = decision_points(2, True, seed=1)[-1]
    assert len(view.legal) == 1
    assert strong_bot(Blind(), 5.0)(view, random.Random(0)) == view.legal[0]


def test_strong_is_a_level_of_a_game_that_can_be_searched() -> None:
    assert bot_levels(TOY) == ("random", "strong")
    view = decision_points(2, True, seed=2)[0]
    bot = make_bot(TOY, "strong", think=0.01)
    assert bot(view, random.Random(1)) in view.legal


def test_the_normal_bot_leads_a_short_search_and_can_play_the_rollouts() -> None:
    game = Toy()
    game.bots = {"random": random_bot, "normal": greedy_bot}
    view = decision_points(2, True, seed=3)[0]
    expected = greedy_bot(view, random.Random(0))
    # with no walk at all, or one walk per move, the normal bot's move stands
    for walks in (0, len(view.legal)):
        found = search(game, view, random.Random(1), Budget(iterations=walks, rollout="random"))
        assert found.action == expected
    result = search(game, view, random.Random(1), Budget(iterations=30, rollout="normal"))
    assert result.action in view.legal and result.iterations == 30


def test_a_budget_must_bound_the_search() -> None:
    with pytest.raises(ValueError, match="budget"):
        Budget()
    with pytest.raises(ValueError, match="rollout"):
        Budget(iterations=1, rollout="clever")


def test_rewards_split_a_shared_win_and_credit_a_team() -> None:
    assert rewards(Outcome((0, 2), "points", (5, 1, 5), shared=True), 3, 0.0) == [0.5, 0, 0.5]
    assert rewards(Outcome((1, 3), "trophies", (0, 2, 0, 2)), 4, 0.0) == [0, 1, 0, 1]
    scored = rewards(Outcome((0,), "points", (4, 2, 0)), 3, 0.2)
    assert scored == pytest.approx([1.0, 0.1, 0.0])


def test_the_prize_deck_is_dealt_from_the_box() -> None:
    # the toy's own determinizer keeps the contract the search relies on
    for view in decision_points(3, False, seed=6)[:6]:
        for draw in range(3):
            world = TOY.determinize(view, random.Random(draw))
            assert world is not None
            assert TOY.view(world.state, view.seat) == view
            assert sorted(world.truth) == sorted(TOY.box(world.state))
            assert set(world.truth[: len(PRIZES)]) == set(PRIZES)
            known = TOY.knowledge(world.state).cards
            assert all(c is None or c == t for c, t in zip(known, world.truth, strict=True))


class Judged(Toy):
    """The toy, judged by a cut-off once the bids of the round a walk began in are in: a
    seat's reward is 1 when its bid alone was the *lowest* (the opposite of what wins
    prizes).
    Every judgement is recorded."""

    def __init__(self) -> None:
        self.judged: list[tuple[int, int]] = []
        self.bids: list[list[int]] = []  # every seat's bid card, judgement by judgement

    def cutoff(self, start: Any, state: Any) -> list[float] | None:
        if state.step != "open":
            return None
        self.judged.append((start.round, state.round))
        cards = state.knowledge.cards
        bids = [value(cards[slot]) for slot in state.bids]
        self.bids.append(bids)
        low = min(bids)
        return [1.0 if bid == low and bids.count(low) == 1 else 0.0 for bid in bids]


def test_a_cut_off_ends_every_walk_where_the_game_judges_it() -> None:
    game = Judged()
    view = decision_points(2, False, seed=4)[0]
    assert len(view.legal) > 1
    result = search(game, view, random.Random(2), Budget(iterations=60, prior=0))
    assert result.iterations == 60
    # every walk was judged once, in the round it began in, and never played further
    assert game.judged == [(view.public.round, view.public.round)] * 60
    # the judgement, not the prizes, decides: the lowest bid card is chosen
    cards = view.public.knowledge.cards
    assert result.action == min(view.legal, key=lambda bid: value(cards[bid.slot]))


def test_the_game_names_the_moves_worth_searching() -> None:
    class Narrow(Toy):
        def search_moves(self, view: Any) -> list[Any]:
            return list(view.legal[-2:])

    view = decision_points(2, True, seed=5)[0]
    assert len(view.legal) > 2
    result = search(Narrow(), view, random.Random(3), Budget(iterations=40))
    assert result.action in view.legal[-2:]
    assert set(result.visits) == set(view.legal[-2:])
    assert sum(result.visits.values()) == 40


def test_a_single_move_named_by_the_game_is_made_without_a_walk() -> None:
    class Settled(Toy):
        def search_moves(self, view: Any) -> list[Any]:
            return [view.legal[-1]]

    view = decision_points(2, True, seed=5)[0]
    assert len(view.legal) > 2
    # without a normal bot to weigh it against, the named move is the only candidate
    result = search(Settled(), view, random.Random(3), Budget(iterations=40, prior=0))
    assert result.action == view.legal[-1]
    assert result.iterations == 0 and not result.visits


def test_where_the_game_names_no_move_the_normal_bot_s_stands_without_a_walk() -> None:
    class Unjudged(Toy):
        def search_moves(self, view: Any) -> list[Any]:
            return []

    game = Unjudged()
    game.bots = {"random": random_bot, "normal": greedy_bot}
    view = decision_points(2, True, seed=5)[0]
    assert len(view.legal) > 2
    result = search(game, view, random.Random(3), Budget(iterations=40))
    assert result.action == greedy_bot(view, random.Random(0))
    assert result.iterations == 0
    # with no normal bot to make its move, every legal move is weighed after all
    result = search(game, view, random.Random(3), Budget(iterations=40, prior=0))
    assert result.iterations == 40 and set(result.visits) == set(view.legal)


def test_the_game_s_prior_bot_makes_the_move_a_search_keeps() -> None:
    def last(view: Any, rng: random.Random) -> Any:
        return view.legal[-1]

    class Kept(Toy):
        def prior_bot(self) -> Any:
            return last

        def search_moves(self, view: Any) -> list[Any]:
            return []

    game = Kept()
    game.bots = {"random": random_bot, "normal": greedy_bot}
    view = decision_points(2, True, seed=5)[0]
    assert greedy_bot(view, random.Random(0)) != view.legal[-1]
    # the move kept is the prior bot's, not the normal bot's
    result = search(game, view, random.Random(3), Budget(iterations=40))
    assert result.action == view.legal[-1] and result.iterations == 0
    # by default the prior bot is the normal bot
    assert Toy().prior_bot() is None and game.bots["normal"] is greedy_bot
    plain = Toy()
    plain.bots = {"random": random_bot, "normal": greedy_bot}
    assert plain.prior_bot() is greedy_bot


def test_walks_are_played_by_the_game_s_rollout_policy() -> None:
    played: list[int] = []

    def counting(view: Any, rng: random.Random) -> Any:
        played.append(view.seat)
        return random_bot(view, rng)

    class Rolled(Toy):
        def rollout_bot(self) -> Any:
            return counting

    view = decision_points(2, False, seed=6)[0]
    search(Rolled(), view, random.Random(4), Budget(iterations=10, rollout="normal"))
    assert played and set(played) == {0, 1}


def test_the_time_budget_is_read_on_the_clock_given() -> None:
    # a clock that moves a quarter of a second each time it is read: a budget of one
    # second allows the few walks made before it is read four more times
    ticks = iter(range(10_000))

    def clock() -> float:
        return next(ticks) * 0.25

    view = decision_points(2, True, seed=7)[0]
    result = search(TOY, view, random.Random(1), Budget(seconds=1.0, clock=clock))
    assert 1 <= result.iterations <= 3


def test_a_paired_search_walks_every_move_in_each_world_with_the_same_luck() -> None:
    game = Judged()
    view = decision_points(2, True, seed=4)[0]
    moves = len(view.legal)
    assert moves > 1
    result = search(game, view, random.Random(2), Budget(iterations=20, prior=0, paired=True))
    # twenty worlds, every move walked in each of them
    assert result.iterations == 20
    assert result.visits == {move: 20.0 for move in view.legal}
    assert len(game.judged) == 20 * moves
    # in each world the other seat's bid is the same whichever move is walked
    others = [bids[1 - view.seat] for bids in game.bids]
    worlds = [others[i : i + moves] for i in range(0, len(others), moves)]
    assert all(len(set(world)) == 1 for world in worlds)
    assert len({world[0] for world in worlds}) > 1  # and it differs from world to world
    # the same luck for every move: the sealed bid of the other seat is drawn alike, so
    # the lowest card, never worse in a world and sometimes better, is found
    cards = view.public.knowledge.cards
    assert result.action == min(view.legal, key=lambda bid: value(cards[bid.slot]))
    again = search(Judged(), view, random.Random(2), Budget(iterations=20, prior=0, paired=True))
    assert again == result


def test_a_paired_search_keeps_the_normal_move_unless_another_clearly_leads() -> None:
    game = Judged()
    game.bots = {"random": random_bot, "normal": greedy_bot}
    view = decision_points(2, True, seed=4)[0]
    greedy = greedy_bot(view, random.Random(0))
    cards = view.public.knowledge.cards
    lowest = min(view.legal, key=lambda bid: value(cards[bid.slot]))
    assert greedy != lowest
    # too few worlds to judge: the normal bot's move stands
    few = search(game, view, random.Random(2), Budget(iterations=1, paired=True, least=2))
    assert few.action == greedy
    # enough worlds: a lower bid, which the judgement rewards, replaces it (the other
    # seat bids high, so more than the lowest card may do)
    many = search(game, view, random.Random(2), Budget(iterations=20, paired=True))
    assert value(cards[many.action.slot]) < value(cards[greedy.slot])

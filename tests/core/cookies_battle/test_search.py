"""What the strong bot's search reads from Cookies Battle: the quick rollout policy, the
judgement of a table and the cut-off of a walk."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from cakeparty.core import get_game, new_match
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.games.cookies_battle import search
from cakeparty.core.games.cookies_battle.actions import GivePiece, NoMarker, Play, UseMarker
from cakeparty.core.games.cookies_battle.bots import normal_bot, power
from cakeparty.core.games.cookies_battle.search import cutoff, evaluate, quick_bot
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.requests import Commit

GAME = get_game("cookies-battle")
TABLES = [(2, None), (3, "standard"), (4, "standard"), (5, "beginners")]


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_the_quick_policy_plays_whole_games_by_the_rules(players: int, variant: Any) -> None:
    options = {} if variant is None else {"variant": variant}
    m = new_match("cookies-battle", players=players, seed=4, options=options)
    result = m.play([quick_bot] * players, random.Random(4))
    assert m.state.phase is Phase.OVER
    assert not m.state.breaches
    assert result.winners


def test_the_quick_policy_takes_a_wanted_piece_cheaply_and_sheds_an_unwanted_one() -> None:
    # over many decisions of a game, the last seat of a trick that can take a good piece
    # takes it, and one that can lose a rotten piece loses it
    checked = 0
    for view, action in _decisions(4, 11, quick_bot):
        if view.phase is Phase.PLAY and len(view.trick) == 3 and len(view.legal) > 1:
            from cakeparty.core.games.cookies_battle.actions import Play
            from cakeparty.core.games.cookies_battle.tricks import winner

            table = [view.known[s] for _, s in view.trick]
            plays = [a for a in view.legal if isinstance(a, Play)]
            wins = {a for a in plays if winner([*table, view.known[a.slot]]) == 3}
            piece = view.known[view.dispute]
            if isinstance(action, Play) and 0 < len(wins) < len(plays):
                chosen = action in wins
                # the policy plays a card at random now and then (``NOISE``)
                checked += chosen == (not piece.startswith("rotten"))
    assert checked >= 5


def _decisions(players: int, seed: int, bot: Any = normal_bot) -> Iterator[tuple[Any, Any]]:
    """Every decision of a game played by ``bot`` in every seat: the view and the move
    made (once the caller has looked at it)."""
    m = new_match("cookies-battle", players=players, seed=seed)
    rng = random.Random(seed)
    while m.outcome is None:
        seat = m.to_act[0]
        view = m.view(seat)
        action = bot(view, rng)
        yield view, action
        m.apply(action, seat)


def _views(players: int, seed: int, count: int) -> list[Any]:
    """Views of seat 0's card choices in the middle of a trick, in a game of normal bots."""
    views = []
    for view, _ in _decisions(players, seed):
        if len(views) == count:
            break
        if view.seat == 0 and view.phase is Phase.PLAY and view.trick and len(view.legal) > 1:
            views.append(view)
    return views


def _walk(state: CookiesState, rng: random.Random, dealer: LocalDealer) -> list[CookiesState]:
    """Every state of a walk from ``state`` to the end of the game, by the quick policy."""
    states = [state]
    while GAME.outcome(state) is None:
        request = GAME.pending(state)
        if request is None:
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, quick_bot(GAME.view(state, seat), rng), seat)
        elif isinstance(request, Commit):
            raise AssertionError("no sealed choice in the middle of a round")
        else:
            state = GAME.apply(state, dealer.fulfil(request, GAME.knowledge(state)), None)
        states.append(state)
        if state.phase is Phase.PASS:
            break
    return states


@pytest.mark.parametrize("tricks", [0, 1])
def test_a_walk_is_judged_once_the_tricks_are_won_and_not_before(
    tricks: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "TRICKS", tricks)
    rng = random.Random(3)
    for view in _views(4, seed=3, count=3):
        world = GAME.determinize(view, rng)
        assert world is not None
        start = world.state
        states = _walk(start, rng, LocalDealer(world.truth, 5))
        judged = [i for i, s in enumerate(states) if cutoff(start, s) is not None]
        assert judged, "a walk to the end of the round was never judged"
        first = judged[0]
        won = [sum(s.tricks_won) - sum(start.tricks_won) for s in states]
        round_over = states[first].phase is Phase.PASS
        assert won[first] == tricks + 1 or round_over
        assert all(w <= tricks for w in won[:first])
        values = cutoff(start, states[first])
        assert values is not None and len(values) == 4
        assert all(0 <= v <= 1 for v in values)
        assert sum(values) == pytest.approx(1)


def test_the_judgement_of_a_finished_game_names_its_winner() -> None:
    # with nothing left to win, the judgement follows the final scores: the tummy ache
    # puts the best chance on the second highest score
    found = 0
    for seed in range(8):
        m = new_match("cookies-battle", players=4, seed=seed)
        result = m.play([quick_bot] * 4, random.Random(seed))
        if len(result.winners) != 1 or len(set(result.scores)) != 4:
            continue
        values = evaluate(m.state)
        assert len(values) == 4 and all(0 <= v <= 1 for v in values)
        assert max(range(4), key=lambda s: values[s]) == result.winners[0]
        top = max(range(4), key=lambda s: result.scores[s])
        assert values[top] < values[result.winners[0]] / 2  # the highest has a tummy ache
        found += 1
    assert found >= 2


def test_the_strong_bot_plays_a_legal_card_from_its_view() -> None:
    from cakeparty.core.search import Budget
    from cakeparty.core.search import search as run

    for view in _views(4, seed=8, count=2):
        settings = dict(GAME.search_settings(view))
        budget = Budget(iterations=40, **settings)
        result = run(GAME, view, random.Random(2), budget)
        assert result.action in view.legal
        assert result.iterations == 40


def test_the_search_asks_a_smaller_lead_of_the_last_card_of_a_trick() -> None:
    views = _views(4, seed=5, count=12)
    last = [v for v in views if len(v.trick) == 3]
    earlier = [v for v in views if len(v.trick) < 3]
    assert last and earlier
    for view in last:
        assert GAME.search_settings(view)["confidence"] == search.CONFIDENCE[0]
    for view in earlier:
        assert GAME.search_settings(view)["confidence"] == search.CONFIDENCE_ELSE


def test_the_quick_policy_keeps_its_markers_but_may_defend_against_one_aimed_at_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # quick bots all round: none ever uses a marker of its own accord, so no Defense is
    # ever asked; with a normal bot using markers, a quick bot aimed at defends at times
    m = new_match("cookies-battle", players=3, seed=2)
    m.play([quick_bot] * 3, random.Random(2))
    assert sum(m.state.markers_used) == 0
    monkeypatch.setattr(search, "DEFEND", 1.0)
    defended = 0
    for seed in range(6):
        m = new_match("cookies-battle", players=3, seed=seed)
        rng = random.Random(seed)
        while m.outcome is None:
            seat = m.to_act[0]
            view = m.view(seat)
            action = (normal_bot if seat == 0 else quick_bot)(view, rng)
            if seat != 0 and view.phase is not Phase.DEFENSE:
                assert not isinstance(action, UseMarker)
            if seat != 0 and view.phase is Phase.DEFENSE and isinstance(action, UseMarker):
                assert view.window is not None
                assert view.window.target == seat or "breeze" in view.window.kind
                defended += 1
            m.apply(action, seat)
    assert defended


def test_the_pass_is_the_normal_bot_s_made_without_a_walk() -> None:
    from cakeparty.core.search import Budget
    from cakeparty.core.search import search as run

    m = new_match("cookies-battle", players=4, seed=6)
    view = m.view(0)
    assert view.phase is Phase.PASS and len(view.legal) > 1
    expected = normal_bot(view, random.Random(9))
    assert GAME.search_moves(view) == []
    result = run(GAME, view, random.Random(2), Budget(iterations=40, **GAME.search_settings(view)))
    assert result.action == expected
    assert result.iterations == 0


def test_a_stronger_hand_is_judged_to_draw_more_of_this_round_s_pieces() -> None:
    # four seats level on points; seat 0's hand is twice as strong as the others'
    standing = search.Standing(
        points=(5, 5, 5, 5), markers=(0, 0, 0, 0), power=(6.0, 3.0, 3.0, 3.0),
        this_round=8, later=12, aim=0,
    )  # fmt: skip
    level = search.chances(standing, search.Judge(hand=0.0))
    assert level == pytest.approx([0.25] * 4)
    drawn = search.chances(standing, search.Judge(hand=0.5))
    assert sum(drawn) == pytest.approx(1)
    # where the highest score wins, the strong hand is the likeliest winner
    assert drawn[0] > 0.3 and drawn[1] == pytest.approx(drawn[2]) == pytest.approx(drawn[3])
    # the seat judging expects more of the pieces to come than another seat would
    mine = search.chances(replace(standing, seat=2), search.Judge(mine=1.5))
    assert mine[2] > 0.3 and mine[0] == pytest.approx(mine[1]) == pytest.approx(mine[3])
    assert search.chances(replace(standing, seat=2), search.Judge()) == pytest.approx(level)
    # with nothing left to win but the markers, the hand no longer counts
    over = search.Standing((5, 6, 7, 8), (1, 0, 0, 0), (6.0, 3.0, 3.0, 3.0), 0, 0, 1)
    assert search.chances(over, search.Judge(hand=0.0)) == search.chances(
        over, search.Judge(hand=0.5)
    )


def test_the_judgement_reads_every_seat_s_hand_and_pieces_in_a_world() -> None:
    view = _views(4, seed=3, count=1)[0]
    world = GAME.determinize(view, random.Random(1))
    assert world is not None
    state = world.state
    standing = search.table(state)
    assert standing.seat is None
    # the seat judging is the one named, whoever holds the last pieces
    assert search.table(state, 1).seat == 1 and search.table(state, 1).points == standing.points
    names = world.truth
    for seat in range(4):
        assert standing.power[seat] == pytest.approx(
            sum(power(names[slot], False) for slot in state.hands[seat])
        )
        assert standing.markers[seat] == len(state.markers[seat])
    assert standing.this_round == len(state.hands[view.seat])
    assert standing.this_round + standing.later == search.to_win(state)


def test_the_search_weighs_one_of_each_set_of_alike_markers_and_pieces() -> None:
    shortened = 0
    for view, _ in _decisions(4, 2):
        if any(isinstance(a, UseMarker | GivePiece) for a in view.legal):
            moves = GAME.search_moves(view)
            early = not search.spending_time(view)
            keys = {search.alike(view, a) for a in view.legal if not (early and search.spends(a))}
            if moves is None:
                assert len(keys) == len(view.legal)
            else:
                shortened += 1
                assert set(moves) <= set(view.legal)
                # every different move is still weighed, once
                assert sorted(map(str, (search.alike(view, a) for a in moves))) == sorted(
                    map(str, keys)
                )
    assert shortened >= 3


def test_the_move_kept_keeps_the_markers_until_the_last_cards_of_the_game() -> None:
    kept = late = 0
    for seed in (1, 2, 3):
        for view, _ in _decisions(4, seed):
            if view.phase is Phase.PASS or len(view.legal) < 2:
                continue
            normal = normal_bot(view, random.Random(seed))
            move = search.keeping_bot(view, random.Random(seed))
            assert move in view.legal
            if search.spends(normal) and not search.spending_time(view):
                # a marker the normal bot would spend is kept: its card, or no marker
                kept += 1
                assert not search.spends(move)
                if any(isinstance(a, Play) for a in view.legal):
                    assert isinstance(move, Play)
                else:
                    assert move == NoMarker()
                # nor is spending it weighed by the search
                moves = GAME.search_moves(view)
                assert moves is not None and not any(search.spends(a) for a in moves)
            else:
                assert move == normal
                late += search.spends(normal)
    # the normal bots spend markers early in every game, and some in the last cards
    assert kept >= 6 and late >= 1


def test_in_the_beginners_game_the_move_kept_is_the_normal_bot_s() -> None:
    m = new_match("cookies-battle", players=3, seed=5, options={"variant": "beginners"})
    rng = random.Random(5)
    spent = 0
    while m.outcome is None:
        seat = m.to_act[0]
        view = m.view(seat)
        normal = normal_bot(view, random.Random(spent))
        assert search.spending_time(view)
        assert search.keeping_bot(view, random.Random(spent)) == normal
        spent += search.spends(normal)
        m.apply(normal_bot(view, rng), seat)
    assert spent >= 1


def test_the_strong_bot_spends_no_marker_before_the_last_cards() -> None:
    from cakeparty.core.search import Budget
    from cakeparty.core.search import search as run

    tried = 0
    for view, _ in _decisions(4, 4):
        if tried == 3:
            break
        if search.spending_time(view) or not any(search.spends(a) for a in view.legal):
            continue
        if not search.spends(normal_bot(view, random.Random(0))):
            continue
        tried += 1
        settings = GAME.search_settings(view)
        result = run(GAME, view, random.Random(tried), Budget(iterations=30, **settings))
        assert result.action in view.legal and not search.spends(result.action)
    assert tried == 3

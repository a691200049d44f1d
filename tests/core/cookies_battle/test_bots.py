"""The Cookies Battle bots: they see only their view, and ``normal`` plays a real strategy."""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import replace

import pytest

from cakeparty.core import Match, new_match
from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.actions import NoMarker, Play, UseMarker
from cakeparty.core.games.cookies_battle.bots import allowed, normal_bot, random_bot
from cakeparty.core.games.cookies_battle.cards import COLOURS, DEAL, cards, markers, pieces
from cakeparty.core.games.cookies_battle.judge import (
    Holding,
    Outlook,
    count_score,
    piece_score,
    place_chance,
)
from cakeparty.core.games.cookies_battle.scoring import assemble_counts
from cakeparty.core.games.cookies_battle.state import Phase
from cakeparty.core.games.cookies_battle.tricks import playable
from cakeparty.core.games.cookies_battle.view import CookiesView
from tests.core.cookies_battle.stacking import (
    act,
    held_markers,
    held_pieces,
    pass_cards,
    play,
    play_trick,
    slot,
    stacked,
)

# -- the judge ---------------------------------------------------------------------------


def test_the_bots_suit_rule_is_the_engines() -> None:
    rng = random.Random(4)
    every = list(cards("standard"))
    for _ in range(300):
        hand = rng.sample(every, rng.randint(1, 12))
        for suit in (None, *COLOURS):
            assert sorted(allowed(hand, suit)) == sorted(playable(hand, suit))


def test_the_worked_example_scores_17() -> None:
    names = [
        *(f"traditional-{i}" for i in range(1, 6)),
        "sprinkle-1",
        "strawberry-1",
        "strawberry-2",
    ]
    assert piece_score(names) == 17


def _brute(t: int, s: int, w: int, r: int) -> int:
    """Every choice of the good pieces the rotten ones cancel, the best kept."""
    goods = ["t"] * t + ["s"] * s + ["w"] * w
    cancel = min(r, len(goods))
    points = {"t": (1, 6), "s": (2, 10), "w": (4, 20)}
    best = 0
    for gone in itertools.combinations(range(len(goods)), cancel):
        kept = [g for i, g in enumerate(goods) if i not in gone]
        total = 0
        for kind, (per, whole) in points.items():
            n = kept.count(kind)
            total += (n // 4) * whole + (n % 4) * per
        best = max(best, total)
    return best


def test_the_assembly_by_counts_matches_every_choice_and_the_engines_scoring() -> None:
    for t, s, w, r in itertools.product(range(7), range(6), range(5), range(4)):
        assert count_score((t, s, w, r)) == _brute(t, s, w, r), (t, s, w, r)
        assert count_score((t, s, w, r)) == assemble_counts((t, s, w), r).points


def test_the_second_place_chance_peaks_between_the_others() -> None:
    others = [(10.0, 1.0), (20.0, 1.0), (30.0, 1.0)]
    chances = {mine: place_chance((mine, 1.0), others, 1) for mine in (5, 15, 25, 35)}
    assert max(chances, key=chances.__getitem__) == 25
    assert chances[25] > 0.9 and chances[35] < 0.05 and chances[5] < 0.05
    # the first place: the higher the better
    assert place_chance((35.0, 1.0), others, 0) > place_chance((25.0, 1.0), others, 0)


def test_the_outlook_knows_a_whole_cookie_is_worth_more_than_its_pieces() -> None:
    three = Holding((3, 0, 0, 0))
    outlook = Outlook(seat=0, holdings=(three, Holding((0, 0, 0, 0), unknown=4)), future=0, aim=0)
    assert three.plus("traditional").score == 6
    assert three.plus("rotten").score == 2
    assert outlook.chance() < 0.5 < outlook.chance(outlook.with_piece(0, "traditional"))


# -- situations on stacked games ------------------------------------------------------------

# Three players, the beginners' game (the highest score wins, so what a marker is worth is
# plain). Seats 1 and 2 hold no blue; seat 0 leads blue every trick:
#   trick 1: blue 5, red 9, green 8   — seat 0 takes the strawberry, its 5 earns a marker
#   trick 2: blue 12, red 10, green 10 — seat 0 takes the second piece
#   trick 3: blue 6, gold 2, green 3  — seat 1's gold takes the third, its 2 earns a marker
BEGINNERS = {
    0: ["blue-5", "blue-12", "blue-6", "gold-11", "gold-12"],
    1: [
        *("red-9", "red-10", "gold-2", "red-1", "red-2", "red-3"),
        *("red-4", "red-5", "red-6", "red-7", "red-8", "gold-3"),
    ],
    2: [
        *("green-8", "green-10", "green-3", "green-1", "green-2", "green-4"),
        *("green-5", "green-6", "green-7", "green-9", "gold-5", "gold-6"),
    ],
}
PASSES = {0: ("gold-11", "gold-12"), 1: ("red-7", "red-8"), 2: ("green-7", "green-9")}


def beginners(pieces: list[str], markers: list[str]) -> Match:
    m = stacked(3, BEGINNERS, piece_pile=pieces, marker_pile=markers, variant="beginners")
    pass_cards(m, PASSES)
    for trick in (["blue-5", "red-9", "green-8"], ["blue-12", "red-10", "green-10"]):
        play_trick(m, trick)
    play_trick(m, ["blue-6", "gold-2", "green-3"])
    assert m.state.leader == 1
    return m


def test_normal_answers_a_theft_against_itself_with_its_defense() -> None:
    m = beginners(["strawberry-1", "sprinkle-1", "traditional-1"], ["defense-1", "theft-1"])
    assert held_markers(m, 0) == ["defense-1"] and held_markers(m, 1) == ["theft-1"]
    act(m, 1, UseMarker(slot(m, "theft-1"), "theft", (0,)))
    assert m.state.phase is Phase.DEFENSE and m.to_act == (0,)
    view = m.view(0)
    assert normal_bot(view, random.Random(1)) == UseMarker(slot(m, "defense-1"), "defense")


def test_normal_keeps_its_defense_when_the_theft_costs_it_less_than_the_defense() -> None:
    # seat 0 holds two traditional pieces: a Theft takes 1 point, a Defense costs 2
    m = beginners(["traditional-1", "traditional-2", "sprinkle-1"], ["defense-1", "theft-1"])
    play(m, 1, "red-2")
    act(m, 0, NoMarker())  # seat 2 holds no marker; seat 0 lets the window pass
    act(m, 1, UseMarker(slot(m, "theft-1"), "theft", (0,)))  # seat 1, the player, steals
    assert m.state.phase is Phase.DEFENSE and m.to_act == (0,)
    assert normal_bot(m.view(0), random.Random(1)) == NoMarker()


def test_normal_gives_away_a_rotten_piece_by_swap_when_it_pays() -> None:
    # the rotten piece cancels seat 0's strawberry: a Swap with seat 1 gives it away
    m = beginners(["strawberry-1", "rotten-1", "traditional-1"], ["swap-1", "puppet-1"])
    assert held_pieces(m, 0) == ["rotten-1", "strawberry-1"]
    play(m, 1, "red-2")
    assert m.state.phase is Phase.MARKER and m.to_act == (0,)
    choice = normal_bot(m.view(0), random.Random(1))
    assert choice == UseMarker(slot(m, "swap-1"), "swap", (1,), (slot(m, "rotten-1"),))


# -- situations in whole games ---------------------------------------------------------------


def _quiet(view: CookiesView, rng: random.Random) -> Action:
    """Plays a random card and lets every marker window pass."""
    if NoMarker() in view.legal:
        return NoMarker()
    return rng.choice(view.legal)


def _ends(m: Match, seat: int, action: Action) -> tuple[bool, bool]:
    """Whether ``seat`` wins, and whether it has the tummy ache, if it makes ``action`` now
    and the game then ends with every marker window let pass."""
    after = copy.deepcopy(m)
    after.apply(action, seat)
    rng = random.Random(0)
    while after.outcome is None:
        s = after.to_act[0]
        after.apply(_quiet(after.view(s), rng), s)
    return seat in after.outcome.winners, seat in after.state.tummy_ache


@pytest.mark.parametrize("seed", [26, 27])
def test_normal_does_not_take_the_trick_that_gives_it_the_top_score_at_the_end(
    seed: int,
) -> None:
    # a game between random players up to the second-last trick of the last round, where
    # the seat that plays last in the trick holds no marker it could use
    m = new_match("cookies-battle", players=4, seed=seed)
    rng = random.Random(seed)
    while True:
        seat, state = m.to_act[0], m.state
        if (
            state.phase is Phase.PLAY
            and (state.round, state.trick_no) == (3, DEAL[4] - 1)
            and len(state.trick) == 3
        ):
            break
        m.apply(random_bot(m.view(seat), rng), seat)
    view = m.view(seat)
    assert all(isinstance(a, Play) for a in view.legal) and len(view.legal) == 2
    ends = {a: _ends(m, seat, a) for a in view.legal}
    assert sorted(ends.values()) == [(False, True), (True, False)]  # top loses, second wins
    choice = normal_bot(view, random.Random(0))
    assert ends[choice] == (True, False)


@pytest.mark.parametrize(
    ("players", "variant"),
    [(2, None), (3, "standard"), (4, "standard"), (5, "beginners"), (6, "standard")],
)
def test_normal_decides_legally_and_the_same_way_for_the_same_seed(
    players: int, variant: str | None
) -> None:
    options = {} if variant is None else {"variant": variant}
    m = new_match("cookies-battle", players=players, seed=3, options=options)
    rng = random.Random(3)
    decisions = 0
    while m.outcome is None:
        seat = m.to_act[0]
        view = m.view(seat)
        if seat == 0:
            choice = normal_bot(view, random.Random(decisions))
            assert choice in view.legal
            assert normal_bot(view, random.Random(decisions)) == choice
            decisions += 1
        else:
            choice = random_bot(view, rng)
        m.apply(choice, seat)
    assert decisions > 3 * DEAL[players]


def test_normal_decides_from_the_view_alone() -> None:
    m = new_match("cookies-battle", players=4, seed=9)
    rng = random.Random(9)
    checked = 0
    while m.outcome is None and checked < 12:
        seat = m.to_act[0]
        if seat == 0 and m.state.phase in (Phase.PLAY, Phase.MARKER, Phase.PASS):
            # the same table with every item this seat may not know swapped around
            knowledge = m.state.knowledge
            names = list(knowledge.cards)
            hidden = [s for s in range(len(names)) if not knowledge.knows(seat, s)]
            for group in (cards("standard"), pieces(), markers()):
                pool = [s for s in hidden if names[s] in group]
                shuffled = [names[s] for s in pool]
                random.Random(checked).shuffle(shuffled)
                for s, name in zip(pool, shuffled, strict=True):
                    names[s] = name
            other = replace(m.state, knowledge=replace(knowledge, cards=tuple(names)))
            seen, swapped = m.view(seat), m.game.view(other, seat)
            assert normal_bot(seen, random.Random(5)) == normal_bot(swapped, random.Random(5))
            checked += 1
        m.apply(random_bot(m.view(seat), rng), seat)
    assert checked == 12

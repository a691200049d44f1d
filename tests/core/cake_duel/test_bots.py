"""The Cake Duel bots: they see only their view, and ``normal`` plays a real strategy."""

from __future__ import annotations

import random

from cakeparty.core import get_game, new_match
from cakeparty.core.games.cake_duel import CHALLENGE, PASS, Claim, Phase, Summon
from cakeparty.core.games.cake_duel.bots import normal_bot, random_bot
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.simulate import simulate
from tests.core.cake_duel.play import settle

from .stacking import hand_slots, stacked
from .test_properties import perturbed


def test_normal_beats_random_in_most_duels() -> None:
    report = simulate("cake-duel", games=60, seed=5, bots=["normal", "random"], players=2)
    assert report.errors == 0
    assert report.wins["normal"] >= 0.85 * 60


def test_normal_leads_a_team_to_beat_random_players() -> None:
    report = simulate("cake-duel", games=20, seed=5, bots=["normal", "random"], players=4)
    assert report.wins["normal"] >= 0.85 * 20


def test_bots_decide_from_the_view_alone() -> None:
    m = new_match("cake-duel", players=2, seed=9)
    rng = random.Random(1)
    for _ in range(40):
        if m.outcome is not None:
            break
        seat = m.to_act[0]
        seen = m.view(seat)
        other = m.game.view(perturbed(m.state, seat, random.Random(2)), seat)
        for bot in (normal_bot, random_bot):
            assert bot(seen, random.Random(3)) == bot(other, random.Random(3))
        m.apply(normal_bot(seen, rng), seat)


def test_normal_catches_a_claim_of_a_third_wizard_when_it_holds_two() -> None:
    m = stacked(
        [["wizard", "soldier", "defender", "archer"], ["wizard", "wizard", "soldier", "archer"]]
    )
    m.apply(Claim(hand_slots(m, 0, "soldier", "defender"), "wizard", 1))
    assert normal_bot(m.view(1), random.Random(0)) == CHALLENGE


def test_normal_catches_a_wizard_when_it_holds_all_three() -> None:
    m = stacked(
        [["soldier", "soldier", "defender", "archer"], ["wizard", "wizard", "wizard", "archer"]]
    )
    m.apply(Claim(hand_slots(m, 0, "soldier"), "wizard", 1))
    assert normal_bot(m.view(1), random.Random(0)) == CHALLENGE


def test_normal_lets_a_likely_claim_stand_when_little_is_at_stake() -> None:
    m = stacked(
        [["soldier", "soldier", "defender", "archer"], ["wizard", "scientist", "archer", "archer"]]
    )
    m.apply(Claim(hand_slots(m, 0, "soldier"), "soldier", 1))
    assert normal_bot(m.view(1), random.Random(0)) != CHALLENGE


def test_normal_tells_the_truth_when_it_holds_attackers() -> None:
    m = stacked(
        [
            ["wizard", "wizard", "defender", "scientist"],
            ["soldier", "soldier", "defender", "archer"],
        ]
    )
    action = normal_bot(m.view(0), random.Random(0))
    assert isinstance(action, Claim)
    assert is_truthful(action.name, [m.dealer.card(s) for s in action.slots])


def test_normal_passes_to_win_a_bout_it_leads() -> None:
    # seat 1 starts and passes at once; seat 0, with 4 cakes to 3, ends the bout by passing
    m = stacked(
        [
            ["defender", "defender", "scientist", "sir-wolfy"],
            ["soldier", "archer", "wizard", "defender"],
        ],
        starter=1,
    )
    m.apply(PASS)
    assert m.state.cakes == (4, 3)
    assert normal_bot(m.view(0), random.Random(0)) == PASS


def test_normal_summoner_names_the_card_it_knows_is_there() -> None:
    m = stacked(
        [["summoner", "oracle", "soldier", "archer"], ["wizard", "wizard", "defender", "archer"]],
        specials=["summoner", "oracle"],
    )
    # the Oracle shows seat 0 the opponent's hand first
    m.apply(Claim(hand_slots(m, 0, "oracle"), "oracle", 1))
    m.apply(m.legal_actions(1)[1])  # no action
    settle(m)
    assert m.state.phase is Phase.ATTACK and m.to_act == (0,)
    m.apply(Claim(hand_slots(m, 0, "summoner"), "summoner", 1))
    m.apply(m.legal_actions(1)[1])
    settle(m)
    assert m.state.phase is Phase.SUMMON
    assert normal_bot(m.view(0), random.Random(0)) == Summon("wizard")


def test_normal_bluffs_sometimes_but_not_mostly() -> None:
    game = get_game("cake-duel")
    claims = bluffs = 0
    for seed in range(12):
        m = new_match("cake-duel", players=2, seed=seed)
        rng = random.Random(seed)
        while m.outcome is None:
            seat = m.to_act[0]
            action = game.bots["normal"](m.view(seat), rng)
            if hasattr(action, "name") and hasattr(action, "slots"):
                claims += 1
                cards = [m.dealer.card(s) for s in action.slots]
                bluffs += not is_truthful(action.name, cards)
            m.apply(action, seat)
    assert claims > 100
    assert 0.03 < bluffs / claims < 0.45


def test_a_summoner_blocked_by_a_scientist_still_names_but_steals_nothing() -> None:
    """What the table tells the Summoner's player (it promised 2 cakes a copy even when a
    Scientist had blocked it) reads the namings left and the thefts among them."""
    from cakeparty.core.games.cake_duel.actions import Block
    from cakeparty.core.games.cake_duel.view import summons_left

    for blocked in (False, True):
        m = stacked(
            [["summoner", "oracle", "soldier", "archer"], ["scientist", "wizard", "defender"]],
            specials=["summoner", "oracle"],
        )
        m.apply(Claim(hand_slots(m, 0, "summoner"), "summoner", 1))
        if blocked:
            m.apply(Block(hand_slots(m, 1, "scientist"), "scientist"))
        m.apply(m.legal_actions(0 if blocked else 1)[1])  # no challenge: it stands
        settle(m)
        assert m.state.phase is Phase.SUMMON
        assert summons_left(m.view(0)) == ((1, 0) if blocked else (1, 1))

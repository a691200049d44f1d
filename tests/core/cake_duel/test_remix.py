"""A hand another seat saw is re-mixed by its holder: nobody follows a known card into a
facedown play, and what a look showed stays a glimpse of the hand, not of its slots."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from types import MappingProxyType

import pytest

from cakeparty.core import Match, Remix, Remixed, new_match
from cakeparty.core.games.cake_duel import CHALLENGE, NO_ACTION, PASS, Claim, Phase
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.beliefs import Beliefs
from cakeparty.core.games.cake_duel.bots import normal_bot, random_bot
from cakeparty.core.games.cake_duel.state import DuelState
from cakeparty.core.knowledge import PUBLIC
from tests.core.cake_duel.play import accept, claim
from tests.core.cake_duel.stacking import hand_slots, stacked

BOTS = {"random": random_bot, "normal": normal_bot}


def _played_by(state: DuelState) -> dict[int, int]:
    """Every slot played facedown this match, and the seat that played it (last time)."""
    played: dict[int, int] = {}
    for event in state.events:
        if isinstance(event, ev.Claimed | ev.Blocked):
            for slot in event.slots:
                played[slot] = event.seat
    return played


def _check_no_seat_follows_a_card(m: Match) -> int:
    """No seat knows a slot in a hand it does not hold, nor a facedown card it did not
    see played (its own side's play), unless the card was shown to all. Returns how many
    (seat, slot) pairs were checked."""
    state: DuelState = m.state
    if state.phase in (Phase.DECLARE, Phase.OVER):
        return 0  # a look whose re-mix waits for the count (the hand cannot move), or the end
    played = _played_by(state)
    checked = 0
    for seat in range(state.players):
        known = m.view(seat).known
        for holder in range(state.players):
            if seat in state.holders(holder):
                continue
            for slot in state.hands[holder]:
                checked += 1
                assert slot not in known, (seat, holder, slot, m.history[-3:])
        for slot in state.discard:
            if state.knowledge.known_by[slot] & PUBLIC or slot not in played:
                continue
            checked += 1
            if seat not in state.holders(played[slot]):
                assert slot not in known, (seat, slot, m.history[-3:])
    return checked


def _play(seed: int, players: int, bot: str) -> tuple[Match, int, int]:
    rng = random.Random(seed)
    m = new_match("cake-duel", players=players, seed=seed, options={"full": True})
    checked = looks = 0
    for _ in range(5000):
        if m.outcome is not None:
            break
        seat = m.to_act[0]
        m.apply(BOTS[bot](m.view(seat), rng), seat)
        checked += _check_no_seat_follows_a_card(m)
    assert m.outcome is not None
    looks = sum(1 for _, a in m.history if isinstance(a, Remixed))
    return m, checked, looks


@pytest.mark.parametrize(("players", "bot", "games"), [(2, "random", 120), (2, "normal", 40)])
def test_after_any_look_or_transfer_no_view_identifies_a_facedown_card_it_did_not_see_played(
    players: int, bot: str, games: int
) -> None:
    remixes = checked = 0
    for seed in range(games):
        _m, n, r = _play(seed, players, bot)
        checked += n
        remixes += r
    # looks and Priests' takes happen often enough for the check to mean something
    assert remixes > games // 4
    assert checked > 100 * games


def test_team_duels_keep_hands_unfollowable_too() -> None:
    remixes = 0
    for seed in range(12):
        _m, _n, r = _play(seed, 4, "random")
        remixes += r
    assert remixes > 0


def test_same_seed_same_duel_with_re_mixes() -> None:
    a, _, ra = _play(3, 2, "normal")
    b, _, rb = _play(3, 2, "normal")
    assert ra == rb and a.history == b.history
    assert a.dealer.remixes == b.dealer.remixes


def test_a_re_mix_keeps_the_holders_cards_and_the_dealer_records_it() -> None:
    m = stacked(
        [["oracle", "archer", "wizard", "defender"], ["soldier", "wizard", "scientist", "priest"]],
        specials=["oracle", "priest"],
    )
    before = sorted(m.dealer.card(s) for s in m.state.hands[1])
    claim(m, 0, ["oracle"], "oracle")
    accept(m)
    (remix,) = [a for _, a in m.history if isinstance(a, Remixed)]
    assert remix.seat == 1 and remix.to == (1,) and remix.slots == m.state.hands[1]
    assert sorted(c for c in remix.cards if c is not None) == before
    assert m.dealer.remixes == [(remix.slots, remix.cards)]
    assert [m.dealer.card(s) for s in remix.slots] == list(remix.cards)
    assert {s: m.view(1).known[s] for s in remix.slots} == dict(
        zip(remix.slots, remix.cards, strict=True)
    )


def _looked_then_claimed(seed: int, bluff: bool, leak: bool = False) -> tuple[Match, bool]:
    """Alice's Oracle sees Bob's hand (one Wizard); Bob then claims a Wizard with the
    Wizard (``bluff=False``) or with a Soldier. Does Alice's normal bot challenge?
    ``leak``: give Alice the played slot's identity, as before hands were re-mixed."""
    m = stacked(
        [
            ["oracle", "archer", "defender", "defender"],
            ["wizard", "soldier", "soldier", "scientist"],
        ],
        specials=["oracle", "priest"],
    )
    m.dealer.remix_rng = random.Random(seed)
    claim(m, 0, ["oracle"], "oracle")
    accept(m)
    assert m.state.phase is Phase.ATTACK and m.to_act == (0,)  # the Oracle's extra turn
    m.apply(PASS, 0)
    assert "wizard" in m.view(0).glimpses[1]  # Alice saw the Wizard, not where it lies
    (slot,) = hand_slots(m, 1, "soldier" if bluff else "wizard")
    m.apply(Claim((slot,), "wizard", 0), 1)
    view = m.view(0)
    if leak:
        view = replace(view, known=MappingProxyType({**view.known, slot: m.dealer.card(slot)}))
    decision = normal_bot(view, random.Random(seed))
    return m, decision == CHALLENGE


def test_after_a_look_the_normal_bot_cannot_tell_a_bluff_from_the_card_it_saw() -> None:
    # before hands were re-mixed, the looker followed the Wizard's slot: it challenged
    # every bluff and no true claim (20/20 against 0/20)
    leaked = Counter(_looked_then_claimed(seed, True, leak=True)[1] for seed in range(20))
    assert leaked[True] == 20
    # now the claim looks the same either way: the Wizard is somewhere in the hand
    bluffs = Counter(_looked_then_claimed(seed, True)[1] for seed in range(20))
    truths = Counter(_looked_then_claimed(seed, False)[1] for seed in range(20))
    assert bluffs[True] == truths[True]
    assert bluffs[True] < 20


def test_the_looker_sees_the_hand_as_a_whole_and_the_slots_of_neither_claim() -> None:
    m, _ = _looked_then_claimed(0, True)
    n, _ = _looked_then_claimed(0, False)
    for match in (m, n):
        view = match.view(0)
        assert match.state.attack is not None
        assert not set(match.state.attack.slots) & set(view.known)
        assert not set(match.state.hands[1]) & set(view.known)


def test_a_remix_request_is_answered_only_by_its_remix() -> None:
    m = stacked(
        [["oracle", "archer", "wizard", "defender"], ["soldier", "wizard", "scientist", "priest"]],
        specials=["oracle", "priest"],
    )
    claim(m, 0, ["oracle"], "oracle")
    game = m.game
    # drive the state to the waiting re-mix by hand, without the match's dealer loop
    state = game.apply(m.state, NO_ACTION, 1)
    while not isinstance(game.pending(state), Remix):
        state = game.apply(state, m.dealer.fulfil(game.pending(state), state.knowledge), None)
    request = game.pending(state)
    assert request == Remix(1, state.hands[1], (1,))
    wrong = Remixed(0, request.slots, (None,) * len(request.slots), (0,))
    with pytest.raises(Exception, match="does not answer"):
        game.apply(state, wrong, None)


def test_the_looker_still_counts_the_cards_it_saw_in_the_hand() -> None:
    m = stacked(
        [["oracle", "archer", "defender", "defender"], ["wizard", "wizard", "soldier", "priest"]],
        specials=["oracle", "priest"],
    )
    claim(m, 0, ["oracle"], "oracle")
    accept(m)
    view = m.view(0)
    assert not set(m.state.hands[1]) & set(view.known)
    beliefs = Beliefs.of(view)
    # two Wizards seen in Bob's hand: certain, though their slots are not
    assert beliefs.expected_in_hand(1, "wizard") >= 2
    assert beliefs.holds(1, ("priest",)) == 1.0
    # and they are no longer among the cards Alice could meet anywhere else
    blind = Beliefs.of(replace(view, glimpses=MappingProxyType({})))
    assert beliefs.unknown["wizard"] < blind.unknown["wizard"]

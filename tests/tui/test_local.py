"""The local game driver and the chronicle, headless."""

from __future__ import annotations

import itertools
import random

import pytest

from cakeparty.core import IllegalActionError, Remixed, new_match
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
    CHALLENGE,
    NO_ACTION,
    Claim,
    Declare,
    KeepHidden,
    Taunt,
)
from cakeparty.core.games.cake_duel.bots import random_bot
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.text import describe
from cakeparty.tui.games.cake_duel.chronicle import Chronicle, replay_lines
from cakeparty.tui.table.local import GameSetup, LocalTable, seats_for


def play_out(duel: LocalTable, seed: int) -> None:
    rng = random.Random(seed)
    while not duel.over:
        seat = duel.to_act
        assert seat is not None
        if duel.is_bot(seat):
            action = duel.bot_choice(seat)
        else:
            action = rng.choice(duel.match.legal_actions(seat))
        duel.act(seat, action)


def test_seats_are_the_player_then_bots_or_people() -> None:
    assert [s.name for s in seats_for(GameSetup(players=4), "Ann")] == [
        "Ann",
        "Muffin",
        "Eclair",
        "Brownie",
    ]
    assert [s.bot for s in seats_for(GameSetup(bots="random"), "Muffin")] == [None, "random"]
    assert seats_for(GameSetup(bots="random"), "Muffin")[1].name == "Eclair"
    hot = seats_for(GameSetup(players=2, hotseat=True), "Ann")
    assert [s.name for s in hot] == ["Ann", "Player 2"] and all(s.bot is None for s in hot)


def test_a_seed_gives_the_same_duel() -> None:
    first, second = (LocalTable(GameSetup(seed=21, bots="random")) for _ in range(2))
    play_out(first, 1)
    play_out(second, 1)
    assert first.match.history == second.match.history
    assert LocalTable(GameSetup(bots="random")).setup.seed is not None


def test_only_legal_actions_are_accepted() -> None:
    duel = LocalTable(GameSetup(seed=2, bots="random"))
    seat = duel.to_act
    assert seat is not None
    with pytest.raises(IllegalActionError):
        duel.act(seat, CHALLENGE)
    with pytest.raises(IllegalActionError):
        duel.act(1 - seat, NO_ACTION)
    with pytest.raises(ValueError, match="no bot level"):
        LocalTable(GameSetup(bots="godlike"))


@pytest.mark.parametrize(("players", "full"), [(2, True), (2, False), (4, True)])
def test_the_story_tells_how_every_bout_ended(players: int, full: bool) -> None:
    """The engine drops a finished bout's events; the chronicle still tells them."""
    for seed in range(6):
        duel = LocalTable(
            GameSetup(players=players, options={"full": full}, seed=seed, bots="random")
        )
        play_out(duel, seed)
        events = [e.event for e in duel.story]
        won = [e for e in events if isinstance(e, ev.BoutWon)]
        started = [e for e in events if isinstance(e, ev.BoutStarted)]
        assert len(won) == len(started) == sum(duel.match.state.trophies)
        assert [w.trophies for w in won][-1] == duel.match.state.trophies
        assert sum(isinstance(e, ev.DuelWon) for e in events) == 1
        for before, after in itertools.pairwise(events):
            if isinstance(after, ev.BoutWon) and after.reason == "challenge":
                assert isinstance(before, ev.Challenged)
        for event in events:
            assert describe(event, duel.names)


def test_the_replay_shows_the_real_card_of_every_facedown_play() -> None:
    for seed in range(5):
        duel = LocalTable(GameSetup(seed=seed, bots="random"))
        play_out(duel, seed)
        replay = duel.replay()
        assert [e.event for e in replay] == [e.event for e in duel.story]
        for entry in replay:
            event = entry.event
            if isinstance(event, ev.Claimed | ev.Blocked):
                assert len(entry.cards) == len(event.slots)
            if isinstance(event, ev.Challenged):
                # the cards flipped are the cards the replay said were played
                play = next(
                    e
                    for e in reversed(replay[: replay.index(entry)])
                    if isinstance(e.event, ev.Claimed | ev.Blocked) and e.event.slots == event.slots
                )
                assert play.cards == event.cards
                assert is_truthful(event.name, play.cards) == event.truthful
            if isinstance(event, ev.BoutStarted):
                assert [len(h) for h in entry.hands] == [4] * duel.players
        lines = replay_lines(replay, duel.names)
        assert sum(kind == "bout" for kind, _t in lines) == sum(duel.match.state.trophies)
        assert any(kind in ("truth", "lie") and "really" in text for kind, text in lines)


def test_a_summoner_count_the_hand_shows_is_forced() -> None:
    duel = LocalTable(GameSetup(seed=4, bots="random"))
    rng = random.Random(0)
    forced = 0
    for _ in range(3000):
        if duel.over:
            duel = LocalTable(GameSetup(seed=rng.randrange(99), bots="random"))
        seat = duel.to_act
        assert seat is not None
        legal = duel.match.legal_actions(seat)
        action = duel.forced(seat)
        if action is not None:
            assert legal == [action]
            if isinstance(action, Declare):
                forced += 1
            else:  # the end-of-turn Sir Wolfy step, which the rules make for the player
                assert isinstance(action, KeepHidden | Taunt)
        else:
            summons = [a for a in legal if isinstance(a, Claim) and a.name == "summoner"]
            action = summons[0] if summons and rng.random() < 0.5 else rng.choice(legal)
            if action in (CHALLENGE,) and rng.random() < 0.8:
                action = NO_ACTION if NO_ACTION in legal else action
        duel.act(seat, action)
        if forced >= 3:
            break
    assert forced >= 3


def test_the_face_up_replay_follows_hands_re_mixed_after_a_look() -> None:
    remixed = 0
    for seed in range(12):
        m = new_match("cake-duel", players=2, seed=seed, options={"full": True})
        rng = random.Random(seed)
        truth: list[tuple[str, ...]] = []  # the real cards of every facedown play, as played
        while m.outcome is None:
            seat = m.to_act[0]
            before = len(m.state.events)
            m.apply(random_bot(m.view(seat), rng), seat)
            for event in m.state.events[before:]:
                if isinstance(event, ev.Claimed | ev.Blocked):
                    truth.append(tuple(m.dealer.card(s) for s in event.slots))
        remixed += sum(isinstance(a, Remixed) for _, a in m.history)
        chronicle = Chronicle(m.game, 2, {"full": True}, m.dealer)
        told = [
            e.cards
            for e in chronicle.follow(m.history)
            if isinstance(e.event, ev.Claimed | ev.Blocked)
        ]
        assert told == truth
    assert remixed > 0

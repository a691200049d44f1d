"""Cookies Battle in words: cards, pieces, markers, actions, every event, the table and
the final breakdown — and no sentence names what its reader may not know."""

from __future__ import annotations

import random

from cakeparty.core import new_match
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.scoring import seat_score
from cakeparty.core.games.cookies_battle.text import (
    action_words,
    assembly_words,
    card_words,
    describe,
    hand_order,
    marker_words,
    piece_words,
    score_lines,
    table_lines,
)

NAMES = ["Ann", "Bob", "Cy", "Di"]


def test_things_in_words() -> None:
    assert card_words("blue-7") == "Blue 7"
    assert card_words("gold-12") == "Gold 12"
    assert [card_words(c) for c in ("zero-a", "thirteen-b", "magician")] == [
        "Zero",
        "Thirteen",
        "Magician",
    ]
    assert card_words(None) == "?"
    assert piece_words("sprinkle-8") == "Sprinkle" and piece_words(None) == "?"
    assert marker_words("right-breeze") == "Right Breeze"


def test_a_hand_sorts_by_suit_then_value_specials_last() -> None:
    hand = ["magician", "gold-2", "red-9", "blue-12", "blue-3", "zero-a", "green-1"]
    assert sorted(hand, key=hand_order) == [
        "blue-3",
        "blue-12",
        "green-1",
        "red-9",
        "gold-2",
        "magician",
        "zero-a",
    ]


def test_every_event_reads_as_a_sentence() -> None:
    events = [
        ev.RoundStarted(1, 2),
        ev.Dealt(1, 12),
        ev.Passed(1),
        ev.Passed(1, duel=True),
        ev.PieceShown(3, "strawberry-1"),
        ev.CardPlayed(0, "blue-3"),
        ev.CardPlayed(1, "gold-5", forced=True),
        ev.TrickWon(2, "rotten-1", ("blue-3", "gold-5"), 3),
        ev.MarkerEarned(0, "theft"),
        ev.MarkerEarned(0, None),
        ev.MarkerUsed(1, "puppet", 3),
        ev.MarkerUsed(1, "left-breeze", None),
        ev.Defended(2, 1, "puppet"),
        ev.Puppeted(1, 3),
        ev.Puppeted(2, 3, 2),
        ev.PieceTaken(0, 1, "sprinkle-2"),
        ev.PieceTaken(0, 1, None),
        ev.Swapped(0, 2, "traditional-1", "strawberry-2"),
        ev.Swapped(0, 2, None, None),
        ev.RoundEnded(1, (3, 1, 4, 4)),
        ev.PiecesRevealed(((), ())),
        ev.Cheated(3, "claimed a marker of another kind than the one shown"),
        ev.GameOver((1,), False, (10, 8, 3, 2), (0,)),
        ev.GameOver((1, 2), True, (10, 8, 8, 2), (0,)),
    ]
    lines = [describe(e, NAMES) for e in events]
    for line, event in zip(lines, events, strict=True):
        assert line and not line.startswith(type(event).__name__)
    assert lines[5] == "Ann plays Blue 3"
    assert "Puppet" in lines[6]
    assert lines[9] == "Ann earns a marker"
    # a second Puppet on a seat draws the card after the first one's
    assert lines[13] == "Di's next card will be drawn at random"
    assert lines[14] == "Di's next 2 cards will be drawn at random"
    assert lines[16] == "Ann takes a piece from Bob"
    assert "Strawberry" not in lines[18]
    assert lines[19] == "Round 1 ends: Ann 3 pieces, Bob 1 piece, Cy 4 pieces, Di 4 pieces"
    assert lines[23] == "A shared win: Bob & Cy"


def test_the_assembly_in_words_the_worked_example() -> None:
    pieces = [f"traditional-{n}" for n in range(1, 6)] + ["sprinkle-1"]
    pieces += ["strawberry-1", "strawberry-2"]
    line = assembly_words(seat_score(pieces, 0))
    assert line.startswith("1 whole Traditional cookie · 1 loose Traditional piece")
    assert line.endswith("2 loose Strawberry pieces: 17")  # no marker: no "+ 0"
    line = assembly_words(seat_score(pieces, 2))
    assert line.endswith("2 unused markers: 17 + 4 = 21")


def test_actions_in_words() -> None:
    m = new_match("cookies-battle", players=4, seed=1)
    view = m.view(0)
    a, b = view.hand[:2]
    assert action_words(view, PassOn(a, b)).startswith("left: ")
    assert action_words(view, HandOver(a)).startswith("give ")
    assert action_words(view, Play(a)) == f"play {card_words(view.card(a))}"
    assert action_words(view, NoMarker()) == "no marker"
    assert action_words(view, UseMarker(100, "theft", (2,)), NAMES) == "Theft on Cy"
    assert action_words(view, UseMarker(100, "swap", (1,), (60,)), NAMES) == (
        "Swap with Bob, giving ?"
    )
    assert action_words(view, UseMarker(100, "defense")) == "Defense"
    assert action_words(view, GivePiece(60)) == "give ?"


def test_the_table_and_the_end_in_plain_lines() -> None:
    m = new_match("cookies-battle", players=4, seed=9)
    rng = random.Random(9)
    for _ in range(80):
        seat = m.to_act[0]
        m.apply(random_bot(m.view(seat), rng), seat)
    lines = table_lines(m.view(1), NAMES)
    assert lines[0].startswith("Round 1 · trick ")
    assert any(line.startswith("Your hand: ") for line in lines)
    assert sum(line.startswith(("Ann:", "Bob:", "Cy:", "Di:")) for line in lines) == 4
    m.play([random_bot] * 4, rng)
    end = score_lines(m.view(None), NAMES)
    assert len(end) >= 5
    assert end[-1].endswith("wins") or end[-1].startswith("A shared win")
    assert any("tummy ache" in line for line in end) == bool(m.state.tummy_ache)

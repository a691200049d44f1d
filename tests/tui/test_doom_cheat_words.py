"""A Cake of Doom cheat reads in the language of whoever reads it, not of the peer that
applied the move: the engine keeps the reason untranslated, with what fills it, and each
place that tells it (the game's log, the end dialog, the face-up replay, a spectator's log,
the audit's verdict) says it in the reader's language. Networked seats pass their
envelopes by hand; the move is applied in Spanish and read in Polish."""

from __future__ import annotations

import random
from typing import Any

from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.text import final_lines
from cakeparty.tui.games.cake_of_doom import watch_lines
from cakeparty.tui.games.cake_of_doom.story import describe, replay_lines
from cakeparty.tui.table.net import NetTable
from tests.protocol.test_doom_cheats import short_offer

from .languages import speaking
from .netseats import deliver, seats_at

GAME = "cake-of-doom"


def a_short_offer_played(seed: int) -> tuple[list[NetTable], int]:
    """Three seats play random moves until one of them makes an offer below what its
    target needs; every seat then runs to the end of the audit. The seat that cheated."""
    seats = seats_at(GAME, 3)
    rng = random.Random(seed)
    cheat: int | None = None
    deliver(seats)
    for _turn in range(2000):
        if all(s.over and s.audited for s in seats):
            break
        for seat in seats:
            acting = seat.to_act
            if acting is None:
                continue
            view = seat.view(acting)
            offer = short_offer(view) if cheat is None else None
            if offer is not None:
                cheat = acting
                seat.act(acting, offer)
            else:
                seat.act(acting, rng.choice(seat.legal(acting)))
        deliver(seats)
        for seat in seats:
            seat.catch_up()
    assert cheat is not None, "nobody held a cake card too small"
    assert all(s.over and s.audited and not s.fair for s in seats)
    return seats, cheat


def reason_of(seat: NetTable) -> Any:
    (cheated,) = (e for e in seat.view(None).events if isinstance(e, ev.Cheated))
    return cheated


def test_an_offer_below_the_minimum_made_in_spanish_reads_in_polish_everywhere() -> None:
    with speaking("es"):
        seats, cheat = a_short_offer_played(seed=4)
    ann = seats[0]
    name = ann.names[cheat]
    cheated = reason_of(ann)
    # the state keeps the reason untranslated, with the numbers that fill it
    assert cheated.reason == "offered {value} where {need} is needed"
    fields = dict(cheated.params)
    value, need = fields["value"], fields["need"]
    assert isinstance(value, int) and isinstance(need, int) and value < need
    polish = f"{name} oszukuje: zaoferowano {value}, a potrzeba {need}"
    with speaking("pl"):
        view = ann.view(None)
        # the game's log (a seat's, and the story as a screen tells it)
        assert describe(cheated, ann.names) == polish
        told = [text for _kind, text in replay_lines(ann.story, ann.names)]
        assert polish in told
        # the end dialog: the standings, the reason last
        assert final_lines(view, ann.names)[-1] == polish
        # the face-up replay after the audit
        replayed = [text for _kind, text in replay_lines(ann.replay(), ann.names)]
        assert polish in replayed
        # a spectator's log
        assert ("", polish) in watch_lines(ann.story, ann.names)
        # the audit's verdict, on every seat
        for seat in seats:
            verdict = seat.verdict_text()
            assert verdict.endswith(f"zaoferowano {value}, a potrzeba {need}"), verdict
        everything = " ".join([*told, *replayed, *final_lines(view, ann.names), verdict])
        assert "ofreció" not in everything and "{" not in everything, everything
    # and in English, the source language, where nothing was applied
    english = f"{name} cheated: offered {value} where {need} is needed"
    assert describe(cheated, ann.names) == english
    assert ann.verdict_text().endswith(f"offered {value} where {need} is needed")

"""The shared networked seat over a game whose every turn is a sealed choice: three
Cake Master sessions passing their envelopes to each other by hand, each seen through
:class:`NetTable` — who the room waits for while choices are sealed, nothing forced, the
audit fair at the end. The game's own words come from its registration (or none)."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import Committed, get_game
from cakeparty.protocol import steps as st
from cakeparty.protocol.identity import fingerprint
from cakeparty.tui.table import registration
from cakeparty.tui.table.net import NetTable, UntoldStory, seat_name
from cakeparty.tui.table.session import away_seats

from .netseats import deliver, seats_at

GAME = "cake-master"


def three_players(game: str = GAME) -> list[NetTable]:
    return seats_at(game, 3)


def test_the_seat_says_who_the_room_waits_for_while_choices_are_sealed() -> None:
    ann, bob, cy = seats = three_players()
    assert ann.waiting_text() == "Exchanging game keys: waiting for Bob and Cy"
    deliver(seats)
    # the deck is shuffled, the cakes dealt: every seat chooses what it passes, at once
    assert [s.to_act for s in seats] == [0, 1, 2]
    assert all(s.waiting_text() is None for s in seats)  # each screen shows its own choice
    assert all(s.forced(s.seat) is None for s in seats)  # a choice of cards is never made
    bot = get_game(GAME).bots["random"]
    rng = random.Random(3)
    sealed = bot(bob.view(1), rng)
    bob.act(1, sealed)
    deliver(seats)
    # Bob's choice is sealed: nobody has seen it, he waits for the others to choose
    assert bob.peer.step.kind == st.CHOICE_COMMIT and bob.to_act is None
    assert bob.waiting_text() == "Waiting for Ann and Cy to choose"
    assert bob.waiting_on() == (0, 2)
    # everyone it waits for gone offline: that is what it waits for
    bob.runner.online[ann.runner.identity.player_id] = False
    assert bob.waiting_text() == "Waiting for Ann and Cy to choose"  # Cy is still here
    bob.runner.online[cy.runner.identity.player_id] = False
    assert bob.waiting_text() == "Waiting for Ann and Cy to come back online"
    bob.runner.online.clear()
    assert ann.to_act == 0 and ann.waiting_text() is None
    assert ann.legal(1) == () and ann.legal(0)  # only this player's own seat acts here
    for seat in (ann, cy):
        seat.act(seat.seat, bot(seat.view(seat.seat), rng))
    deliver(seats)
    # every choice opened at once; the passed cards travel on, and the game goes on
    assert all(s.peer.step.kind != st.CHOICE_OPEN for s in seats)
    opened = [
        [a for _s, a in s.peer.history if isinstance(a, Committed)] for s in seats
    ]  # the same choices on every seat, in seat order, Bob's the one he sealed
    assert opened[0] == opened[1] == opened[2] and len(opened[0]) == 1
    assert [seat for seat, _a in opened[0][0].choices] == [0, 1, 2]
    assert opened[0][0].choices[1][1] == sealed


def test_a_table_waiting_for_a_host_gone_names_the_host_not_its_bots() -> None:
    ann, bob, cy = three_players()
    host, bot = ann.runner.identity.player_id, cy.runner.identity.player_id
    bob = NetTable(bob.runner, {bot: True}, host)  # Cy's seat: a bot run by Ann
    assert bob.waiting_text() == "Exchanging game keys: waiting for Ann and Cy"
    bob.runner.online[host] = False
    assert bob.away(2)  # a bot is away when its host is
    assert bob.waiting_text() == "Waiting for Ann to come back online"
    # the room waits for the bot alone: its host is named, and why
    bob.runner.online[host] = True
    seats = [ann, bob, NetTable(cy.runner, {bot: True}, host)]
    deliver(seats)
    rng = random.Random(7)
    for seat in (ann, bob):
        seat.act(seat.seat, get_game(GAME).bots["random"](seat.view(seat.seat), rng))
    deliver(seats)
    assert bob.waiting_on() == (2,)
    assert bob.waiting_text() == "Waiting for Cy to choose"
    bob.runner.online[host] = False
    assert bob.waiting_text() == "Waiting for Ann to come back online (Ann's app plays Cy)"


@pytest.mark.parametrize("game", ["cake-master", "cake-of-doom", "cookies-battle"])
def test_every_game_tags_a_player_gone_offline_on_its_table(game: str) -> None:
    """The players' rows of Cake Master, Cake of Doom and Cookies Battle (the screens' and
    the spectators' boards draw them alike) say "offline" beside a player who is, and only
    while they are; Cake Master's line of stars shows them reversed."""
    seats = three_players(game)
    deliver(seats)
    bob, cy = seats[1], seats[2]
    board = registration.lookup(game).watch_board
    assert board is not None
    assert away_seats(bob) == frozenset()
    assert "offline" not in board(bob, bob.view(None), 80).plain
    bob.runner.online[cy.runner.identity.player_id] = False
    assert away_seats(bob) == {2}
    rows = board(bob, bob.view(None), 80).plain.split("\n")
    tagged = [row for row in rows if "offline" in row]
    assert len(tagged) == 1 and tagged[0].count("offline") == 1 and "Cy" in tagged[0], rows
    if game == "cake-master":
        from cakeparty.tui.games.cake_master.lines import title_line

        title = title_line(bob.view(1), bob.names, 80, away_seats(bob))
        reversed_ = [title.plain[s.start : s.end] for s in title.spans if "reverse" in str(s.style)]
        assert reversed_ == ["Cy★0"]
    bob.runner.online[cy.runner.identity.player_id] = True  # back online: the tag is gone
    assert "offline" not in board(bob, bob.view(None), 80).plain


def test_a_whole_game_ends_with_a_fair_audit_on_every_seat() -> None:
    seats = three_players()
    bot = get_game(GAME).bots["normal"]
    rng = random.Random(5)
    deliver(seats)
    for _turn in range(500):
        if all(s.over and s.audited for s in seats):
            break
        for seat in seats:
            acting = seat.to_act
            if acting is not None:
                seat.act(acting, bot(seat.view(acting), rng))
        deliver(seats)
        for seat in seats:
            seat.catch_up()  # as the screen does on each "moved" event
    assert all(s.over and s.audited and s.fair for s in seats)
    assert seats[0].verdict_text() == "Audit: fair. Every card and every move checked out."
    outcome = seats[0].outcome
    assert outcome is not None and all(s.outcome == outcome for s in seats)
    assert all(s.waiting_text() is None and s.waiting_on() == () for s in seats)
    told = registration.find(GAME)
    if told is None or told.story is None:  # no screen here yet: a story with no events
        assert isinstance(seats[0]._story, UntoldStory) and seats[0].story == []
    else:  # its registration tells the story, and the replay face up after the audit
        assert seats[0].story and seats[0].replay()


def test_a_decision_is_named_in_the_games_words_or_plainly() -> None:
    ann, bob, _cy = seats = three_players()
    deliver(seats)
    told = registration.find(GAME)
    expected = "Bob decides"
    if told is not None and told.describe_decision is not None:
        expected = told.describe_decision(ann.view(None), 1, ann.names)
    assert ann.describe_decision(1) == expected
    assert seat_name(5, ann.names) == "Seat 6"
    assert ann.name_of(bob.runner.identity.player_id) == "Bob"
    stranger = bytes(32)
    assert ann.name_of(stranger) == f"a stranger ({fingerprint(stranger)})"

"""A networked duel behind the duel screen, headless: two sessions passing their envelopes
to each other by hand, seen through :class:`NetTable` — waiting states, a bad message
named, the audit and the replay face up."""

from __future__ import annotations

import random
import secrets
from typing import Any

from cakeparty.core import get_game
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.tui.games.cake_duel.chronicle import replay_lines
from cakeparty.tui.table.net import NetTable, name_list

from .netseats import Runner, deliver


def two_players() -> tuple[NetTable, NetTable]:
    ann, bob = Identity.generate("Ann"), Identity.generate("Bob")
    table = Table.of(
        "ROOM42",
        "cake-duel",
        [(ann.player_id, "Ann"), (bob.player_id, "Bob")],
        {"full": False},
        timeout=60,
        nonce=secrets.token_bytes(16),
    )
    duels = []
    for seat, identity in enumerate((ann, bob)):
        runner = Runner(GameSession(table, [identity]), identity, seat)
        duels.append(NetTable(runner, {bob.player_id: False}))
    return duels[0], duels[1]


def test_the_duel_says_what_the_room_waits_for() -> None:
    ann, bob = two_players()
    # each has sent its game key; nothing has arrived yet
    assert ann.waiting_text() == "Exchanging game keys: waiting for Bob"
    assert ann.to_act is None and not ann.over
    deliver([ann, bob])
    # the deck is shuffled and dealt; fair lots chose who attacks
    first = ann if ann.to_act is not None else bob
    other = bob if first is ann else ann
    assert first.to_act == first.seat and other.to_act is None
    assert first.waiting_text() is None  # the screen shows the player's own choices
    assert other.waiting_text() == f"{first.names[first.seat]} attacks: claim or pass"
    assert other.waiting_on() == (first.seat,)
    view = first.view(first.seat)
    assert len(view.hand) == 4 and all(first.view(first.seat).card(s) for s in view.hand)
    assert not any(other.view(other.seat).card(s) for s in view.hand)  # no leak


def test_a_bad_message_is_named() -> None:
    ann, bob = two_players()
    deliver([ann, bob])
    peer = ann.peer
    forged = seal(
        bob.runner.identity.signing_key,
        room=ann.table.room,
        seq=peer.seq,
        prev=peer.prev,
        kind="action",
        body={"nonsense": 1},
    ).to_bytes()
    ann.session.receive(forged, 0.0)
    [text] = ann.new_incidents()
    assert text.startswith(f"Bob sent a bad message (step {peer.seq}): ")
    assert ann.new_incidents() == []  # each is told once


def test_a_whole_duel_ends_with_a_fair_audit_and_a_face_up_replay() -> None:
    ann, bob = two_players()
    bot = get_game("cake-duel").bots["random"]
    rng = random.Random(7)
    deliver([ann, bob])
    for _turn in range(2000):
        if ann.over and bob.over and ann.audited and bob.audited:
            break
        for duel in (ann, bob):
            seat = duel.to_act
            if seat is not None:
                duel.act(seat, bot(duel.view(seat), rng))
        deliver([ann, bob])
        ann.catch_up()  # as the screen does on each "moved" event
    assert ann.audited and bob.audited
    assert ann.fair and bob.fair
    assert ann.verdict_text() == "Audit: fair. Every card and every move checked out."
    assert ann.verdict_short() == "audit: fair"
    assert ann.waiting_text() is None and ann.waiting_on() == ()
    # the story was told from the peer's own history, to the end
    assert any(isinstance(e.event, ev.DuelWon) for e in ann.story)
    # the replay shows every card of both hands
    lines = replay_lines(ann.replay(), ann.names)
    dealt = [text for kind, text in lines if "is dealt" in text]
    assert any(text.strip().startswith("Bob is dealt") for text in dealt)
    assert any(kind in ("truth", "lie") and "really" in text for kind, text in lines)


def test_names_read_as_a_sentence() -> None:
    names: list[Any] = [[], ["Bob"], ["Bob", "Cy"], ["Bob", "Cy", "Dee"]]
    assert [name_list(n) for n in names] == ["", "Bob", "Bob and Cy", "Bob, Cy and Dee"]


def test_players_with_the_same_name_are_told_apart_by_their_keys() -> None:
    from cakeparty.protocol.identity import fingerprint
    from cakeparty.tui.table.net import distinct_names

    a, b, c = bytes(32), bytes([1]) * 32, bytes([2]) * 32
    names = distinct_names(("Player", "Ann", "Player"), (a, b, c))
    assert names == (f"Player {fingerprint(a)[:4]}", "Ann", f"Player {fingerprint(c)[:4]}")
    assert names[0] != names[2]


def test_a_vote_out_reads_as_one_ending_on_both_screens() -> None:
    from cakeparty.protocol.lobby import ABANDON, NO_PREV

    ann, bob = two_players()
    deliver([ann, bob])
    slow = ann if ann.to_act is not None else bob
    other = bob if slow is ann else ann
    peer = other.peer
    vote = seal(
        other.runner.identity.signing_key,
        room=ann.table.room,
        seq=peer.seq,
        prev=NO_PREV,
        kind=ABANDON,
        body={"seat": slow.seat, "step": peer.prev},
    ).to_bytes()
    slow.session.receive(vote, 1.0)
    other.session.receive(vote, 1.0)
    assert slow.over and other.over
    assert slow.session.abandoned == other.session.abandoned
    slow_name, other_name = slow.names[slow.seat], other.names[other.seat]
    assert slow.waiting_text() == (
        f"{other_name} ended the game as abandoned by you: your time was up."
    )
    assert other.waiting_text() == (
        f"The game was abandoned by {slow_name}: {other_name} ended it after waiting."
    )
    assert slow.verdict_text() == other.verdict_text() == "No audit: the game was abandoned."

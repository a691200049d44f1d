"""Cake Master's sealed choices against cheats, through the mental deck: a seat that
opens another placement than the one it committed to is named at once, and one that
commits and never opens is named by the timeout (the others vote it out).

The helpers are the toy sealed game's (``test_sealed.py``); here the game is Cake Master,
whose every pass and placement is a ``Commit``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cakeparty.core import get_game, to_data
from cakeparty.core.games.cake_master.actions import Place
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.protocol import steps as st
from cakeparty.protocol.errors import CommitMismatch
from cakeparty.protocol.group import seeded_random_bytes
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.mental import MentalMatch
from cakeparty.protocol.peer import Peer
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table

from .test_sealed import NeverOpens, commit_all, play, relay, steps_of

GAME = "cake-master"


def bots(players: int) -> dict[int, Any]:
    """The normal bot at every seat (each decides from its own peer's view)."""
    normal = get_game(GAME).bots["normal"]
    return dict.fromkeys(range(players), normal)


def agreed(room: MentalMatch) -> Any:
    """The ending every peer holds: the same outcome, log and verdict on each (their
    histories differ only in the cards each was shown), or the test fails."""
    tales = [(p.outcome, p.prev, p.randoms, str(p.verdict), len(p.history)) for p in room.peers]
    assert all(t == tales[0] for t in tales), tales
    return tales[0][0]


class LyingPlacer(Peer):
    """Opens, at its first placement, another legal placement than the one it sealed."""

    lied: tuple[Any, Any] | None = None  # (sealed, opened)

    def _contribution(self, step: st.Step) -> Any:
        body = super()._contribution(step)
        if step.kind == st.CHOICE_OPEN and self.state.phase is Phase.PLACE and self.lied is None:
            sealed = self._sealed[step.seq - 1]
            legal = self.game.legal_actions(self.state, self.seat)
            other = next(a for a in legal if isinstance(a, Place) and a != sealed)
            body["a"] = to_data(other)
            self.lied = (sealed, other)
        return body


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_that_opens_another_placement_is_named_at_once(players: int) -> None:
    liar = 1
    room = MentalMatch(GAME, players, 51 + players, peer_types={liar: LyingPlacer})
    play(room, bots(players))
    outcome = agreed(room)
    cheat = room.peers[liar]
    assert isinstance(cheat, LyingPlacer) and cheat.lied is not None
    sealed, opened = cheat.lied
    assert sealed != opened
    for peer in room.peers:
        # named at the false opening itself: the next step is already the audit
        assert steps_of(peer)[-2:] == [st.CHOICE_OPEN, st.AUDIT]
        assert peer.forfeit == (liar, "false-opening")
        assert peer.verdict is not None and not peer.verdict.fair
        assert peer.verdict.seat == liar
        assert any(i.kind == CommitMismatch.__name__ and i.peer == liar for i in peer.incidents)
        assert peer.state.phase is Phase.OVER and peer.state.forfeit == liar
        # the false placement never reached any cake
        assert not any((liar, opened) in getattr(a, "choices", ()) for _s, a in peer.history)
    assert outcome.reason == "forfeit" and liar not in outcome.winners


def sessions_of(players: int, tmp: Path, silent: int) -> list[GameSession]:
    identities = [
        Identity.generate(f"P{i}", seeded_random_bytes(f"master{i}".encode()))
        for i in range(players)
    ]
    table = Table.of(
        "MASTER2",
        GAME,
        [(i.player_id, i.name) for i in identities],
        timeout=30,
        on_timeout="ask",
    )
    sessions = [
        GameSession(table, [i], journal_dir=tmp / f"p{n}") for n, i in enumerate(identities)
    ]
    sessions[silent].peers[0].__class__ = NeverOpens
    return sessions


def test_a_seat_that_commits_its_pass_and_never_opens_is_named_by_the_timeout(
    tmp_path: Path,
) -> None:
    silent, players = 2, 3
    sessions = sessions_of(players, tmp_path, silent)
    commit_all(sessions, 0.0, bots(players))  # the deal, then every seat seals its pass
    others = [n for n in range(players) if n != silent]
    for session in sessions:
        peer = session.peers[0]
        assert peer.state.phase is Phase.PASS
        assert peer.step.kind == st.CHOICE_OPEN and session.waiting_for == (silent,)
        assert not any(h for h in peer.history if type(h[1]).__name__ == "Committed")
    # the step does not move: before the timeout nobody is overdue
    for n in others:
        sessions[n].tick(10.0)
        assert sessions[n].overdue(10.0) == ()
    relay(sessions, 10.0)
    # past it the people at the other seats vote the silent seat out
    for n in others:
        assert sessions[n].overdue(40.0) == (silent,)
        assert sessions[n].vote(silent, 40.0)
    relay(sessions, 40.0)
    for session in sessions:  # the silent seat's own peer holds the same ending
        abandoned = session.abandoned
        assert session.finished and abandoned is not None
        assert abandoned.seat == silent and abandoned.voters == frozenset(others)
    # an opening that comes late changes nothing now
    Peer._enter(sessions[silent].peers[0])
    relay(sessions, 41.0)
    assert all(s.abandoned is not None and s.abandoned.seat == silent for s in sessions)

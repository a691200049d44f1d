"""Networked seats with no network: game sessions that pass their envelopes to each other
by hand, each seen through :class:`NetTable` as a screen sees it."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from cakeparty.core import Action
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.tui.table.net import NetTable


class Runner:
    """What :class:`NetTable` uses of a room runner, over a session with no network."""

    def __init__(self, session: GameSession, identity: Identity, seat: int) -> None:
        self.session = session
        self.identity = identity
        self.my_seat = seat
        self.online: dict[bytes, bool] = {}

    def act(self, action: Action) -> None:
        self.session.act(self.my_seat, action)


def seats_at(game: str, players: int, timeout: int = 60, now: float = 0.0) -> list[NetTable]:
    """The seats of Ann, Bob (and Cy) at a game of ``game``, each a session of its own,
    its clock (``timeout`` seconds a move) started at monotonic time ``now``."""
    people = [Identity.generate(n) for n in ("Ann", "Bob", "Cy")[:players]]
    table = Table.of(
        "ROOM43",
        game,
        [(p.player_id, p.name) for p in people],
        timeout=timeout,
        nonce=secrets.token_bytes(16),
    )
    return [
        NetTable(Runner(GameSession(table, [person], now=now), person, seat))
        for seat, person in enumerate(people)
    ]


def deliver(seats: Sequence[NetTable], now: float = 0.0) -> None:
    """Pass every envelope waiting to be sent to the other sessions (received at monotonic
    time ``now``), until all is quiet."""
    moved = True
    while moved:
        moved = False
        for seat in seats:
            outbox = seat.session.outbox
            batch, outbox[:] = list(outbox), []
            for data in batch:
                moved = True
                for other in seats:
                    if other is not seat:
                        other.session.receive(data, now)


def guest_room() -> Any:
    """What a networked game's screen uses of the lobby's room: a guest's, the game going
    on."""
    return SimpleNamespace(hosting=False, advert=None, playing=True, embedded=False)

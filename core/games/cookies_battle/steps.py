"""The small steps every part of the flow takes: log events, queue requests, show a slot
to the seats that learn it, re-mix a holder's pieces, ask a seat to act, end on a cheat.

What each step decides from is public (who holds what, who knows which slot), so every
peer takes the same steps whatever identities it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.requests import Remix, Request, Reveal


def log(state: CookiesState, *events: Any) -> CookiesState:
    """Add ``events`` to the story; an event some seats may not read whole is kept as well
    as every seat reads it (redacted once here rather than at every view)."""
    start = len(state.events)
    secret = tuple(
        (start + i, readings(e, state.players))
        for i, e in enumerate(events)
        if isinstance(e, ev.SECRET)
    )
    if secret:
        return state.evolve(events=state.events + events, secrets=state.secrets + secret)
    return state.evolve(events=state.events + events)


def readings(event: Any, players: int) -> tuple[Any, ...]:
    """``event`` as each seat reads it, then as a spectator does (the last entry)."""
    return (*(ev.redact(event, s) for s in range(players)), ev.redact(event, None))


def enqueue(state: CookiesState, *requests: Request, then: str = "") -> CookiesState:
    return state.evolve(queue=state.queue + requests, then=then)


def set_at(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def bump(counts: tuple[int, ...], seat: int, by: int = 1) -> tuple[int, ...]:
    return set_at(counts, seat, counts[seat] + by)


def _known_by_others(state: CookiesState, seat: int, slots: Sequence[int]) -> bool:
    mine = 1 << seat
    return any(state.knowledge.known_by[s] & ~mine for s in slots)


def show(state: CookiesState, slot: int, seats: Sequence[int]) -> tuple[Request, ...]:
    """Show ``slot`` to those of ``seats`` that do not know it yet (a seat that knows it,
    by a re-mix of its own pieces say, has nothing to learn: the mental deck sends shares
    only to seats that learn the card)."""
    newcomers = tuple(s for s in seats if not state.knowledge.knows(s, slot))
    return (Reveal((slot,), newcomers),) if newcomers else ()


def remix_pieces(state: CookiesState, seat: int) -> tuple[Request, ...]:
    """The re-mix that hides which of ``seat``'s pieces is which from everyone else, when
    it is needed (public facts only: the piece count and who knows which slot)."""
    held = state.pieces[seat]
    if len(held) < 2 or not _known_by_others(state, seat, held):
        return ()
    return (Remix(seat, held, (seat,)),)


def ask(state: CookiesState, phase: Phase, seat: int) -> CookiesState:
    """Ask ``seat`` to act in ``phase``; a marker holder first re-mixes known pieces."""
    state = state.evolve(phase=phase, actor=seat)
    if phase is Phase.SWAP or (phase in (Phase.PLAY, Phase.MARKER) and state.markers[seat]):
        return enqueue(state, *remix_pieces(state, seat))
    return state


def cheated(state: CookiesState, seat: int, reason: str) -> CookiesState:
    state = state.evolve(
        cheat=seat,
        cheat_reason=reason,
        phase=Phase.OVER,
        queue=(),
        then="",
        actor=None,
        winners=tuple(s for s in range(state.players) if s != seat),
        shared=state.players > 2,
    )
    return log(state, ev.Cheated(seat, reason), ev.GameOver(state.winners, state.shared, ()))

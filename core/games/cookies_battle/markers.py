"""Using a marker: shown to all (a false kind is a cheat), the Defense window, then the
effect — Theft, Puppet, Swap, the Breezes — and back to where it was used.

See :mod:`.flow` for when markers may be used and how hidden takes stay hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import GivePiece, UseMarker
from cakeparty.core.games.cookies_battle.cards import marker_kind
from cakeparty.core.games.cookies_battle.legal import DEFENSE
from cakeparty.core.games.cookies_battle.state import Breach, CookiesState, Phase
from cakeparty.core.games.cookies_battle.steps import (
    ask,
    bump,
    cheated,
    enqueue,
    log,
    remix_pieces,
    set_at,
    show,
)
from cakeparty.core.games.cookies_battle.turns import window_next
from cakeparty.core.i18n import N_
from cakeparty.core.requests import Random, Request, Reveal


def use(state: CookiesState, seat: int, action: UseMarker) -> CookiesState:
    """A marker is used: it leaves its holder and is shown to all."""
    held = tuple(s for s in state.markers[seat] if s != action.slot)
    state = state.evolve(
        markers=set_at(state.markers, seat, held),
        used=(*state.used, action.slot),
        markers_used=bump(state.markers_used, seat),
        phase=Phase.SETUP,
        actor=None,
    )
    if action.kind == DEFENSE:
        state = state.evolve(defender=seat, defense=())
        return enqueue(state, Reveal((action.slot,), None), then="defense-shown")
    resume = "play" if state.resume != "window" else "window"
    state = state.evolve(user=seat, using=action, resume=resume)
    return enqueue(state, Reveal((action.slot,), None), then="marker-shown")


def _lied(state: CookiesState, seat: int, action: UseMarker) -> CookiesState | None:
    """The game ended by a cheat if the marker shown is not the kind claimed."""
    name = state.name(action.slot)
    if name is None or marker_kind(name) == action.kind:
        return None
    reason = N_("claimed a marker of another kind than the one shown")
    breach = Breach(seat, str(action), reason, state.round, state.trick_no)
    return cheated(state.evolve(breaches=(*state.breaches, breach)), seat, reason)


def marker_shown(state: CookiesState) -> CookiesState:
    """The marker is face up: a cheat if not the kind claimed; else the Defense window."""
    user, action = state.user, state.using
    assert user is not None and action is not None
    lied = _lied(state, user, action)
    if lied is not None:
        return lied
    target = action.target[0] if action.target else None
    state = log(state, ev.MarkerUsed(user, action.kind, target))
    n = state.players
    asks = tuple((user + i) % n for i in range(1, n))
    return defense_next(state.evolve(defense=asks))


def defense_next(state: CookiesState) -> CookiesState:
    """Ask the next marker holder whether it defends, or resolve the marker."""
    asks = state.defense
    while asks and not state.markers[asks[0]]:
        asks = asks[1:]
    if not asks:
        return _resolve(state.evolve(defense=()))
    return ask(state.evolve(defense=asks[1:]), Phase.DEFENSE, asks[0])


def defense_shown(state: CookiesState) -> CookiesState:
    """The Defense is face up: a cheat if it is none; else the marker is cancelled."""
    defender, user, action = state.defender, state.user, state.using
    assert defender is not None and user is not None and action is not None
    slot = state.used[-1]
    lied = _lied(state, defender, UseMarker(slot, DEFENSE))
    if lied is not None:
        return lied
    state = log(state, ev.Defended(defender, user, action.kind))
    return _resume(state.evolve(defense=()))


def _resolve(state: CookiesState) -> CookiesState:
    """The marker's effect, once no Defense answered it."""
    user, action = state.user, state.using
    assert user is not None and action is not None
    kind = action.kind
    if kind == "theft":
        return _takes(state, [(user, action.target[0])])
    if kind == "puppet":
        target = action.target[0]
        state = state.evolve(puppets=(*state.puppets, target))
        waiting = state.puppets.count(target)
        return _resume(log(state, ev.Puppeted(user, target, waiting)))
    if kind == "swap":
        return ask(state, Phase.SWAP, action.target[0])
    n = state.players
    if kind == "right-breeze":
        pairs = [(s, state.right(s)) for s in range(n)]
    else:
        pairs = [(s, state.left(s)) for s in range(n)]
    return _takes(state, [(t, v) for t, v in pairs if state.pieces[v]])


def _takes(state: CookiesState, pairs: Sequence[tuple[int, int]]) -> CookiesState:
    """Random takes, all drawn from the holdings as they stand now."""
    if not pairs:
        return _resume(state)
    requests: list[Request] = []
    draws = list(state.draws)
    for taker, victim in pairs:
        requests.extend(remix_pieces(state, victim))
        requests.append(Random(len(state.pieces[victim])))
        draws.append(("take", taker, victim))
    state = state.evolve(draws=tuple(draws), phase=Phase.SETUP, actor=None)
    return enqueue(state, *requests, then="drawn")


def drawn(state: CookiesState) -> CookiesState:
    """Every piece drawn moves to its taker and is shown to it."""
    pieces = [list(p) for p in state.pieces]
    for taker, victim, slot in state.picks:
        pieces[victim].remove(slot)
        pieces[taker].append(slot)
    state = state.evolve(pieces=tuple(tuple(sorted(p)) for p in pieces))
    reveals = [r for taker, victim, slot in state.picks for r in show(state, slot, (taker, victim))]
    return enqueue(state, *reveals, then="taken")


def taken(state: CookiesState) -> CookiesState:
    """The takes are done: told in events (the piece named to taker and victim only)."""
    taken = [ev.PieceTaken(t, v, state.name(slot)) for t, v, slot in state.picks]
    return _resume(log(state.evolve(picks=()), *taken))


def swap(state: CookiesState, seat: int, action: GivePiece) -> CookiesState:
    """The Swap's target gives its piece: both pieces move, each shown to its receiver."""
    user, using = state.user, state.using
    assert user is not None and using is not None
    mine = using.piece[0]
    pieces = [list(p) for p in state.pieces]
    pieces[user].remove(mine)
    pieces[seat].remove(action.slot)
    pieces[user].append(action.slot)
    pieces[seat].append(mine)
    state = state.evolve(
        pieces=tuple(tuple(sorted(p)) for p in pieces),
        given=action.slot,
        phase=Phase.SETUP,
        actor=None,
    )
    return enqueue(
        state,
        *show(state, mine, (seat, user)),
        *show(state, action.slot, (user, seat)),
        then="swapped",
    )


def swapped(state: CookiesState) -> CookiesState:
    """The Swap is done."""
    user, using, given = state.user, state.using, state.given
    assert user is not None and using is not None and given is not None
    event = ev.Swapped(user, using.target[0], state.name(using.piece[0]), state.name(given))
    return _resume(log(state.evolve(given=None), event))


def _resume(state: CookiesState) -> CookiesState:
    """Back to where the marker was used: the player's own turn, or the window."""
    resume = state.resume
    state = state.evolve(user=None, using=None, defender=None)
    if resume == "window":
        return window_next(state)
    return ask(state.evolve(resume=""), Phase.PLAY, state.to_play)

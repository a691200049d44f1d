"""A trick as it is played: the piece in dispute, each seat's card (or a Puppet's draw),
the marker window after every card, the winner and the markers earned.

The rules of the trick itself (suit, winner, awards) are :mod:`.tricks`; this module moves
the slots and asks the seats. See :mod:`.flow` for the whole game.
"""

from __future__ import annotations

from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import Play
from cakeparty.core.games.cookies_battle.cards import GOLD, SUIT
from cakeparty.core.games.cookies_battle.state import Breach, CookiesState, Phase
from cakeparty.core.games.cookies_battle.steps import ask, bump, enqueue, log, set_at
from cakeparty.core.games.cookies_battle.tricks import earners, winner
from cakeparty.core.i18n import N_, _
from cakeparty.core.requests import Random, Request, Reveal


def start_trick(state: CookiesState) -> CookiesState:
    """The leader shows the top piece of the pile: the piece in dispute."""
    piece = state.piece_pile[0]
    state = state.evolve(
        trick_no=state.trick_no + 1,
        dispute=piece,
        piece_pile=state.piece_pile[1:],
        trick=(),
        turn_suit=None,
        phase=Phase.SETUP,
        actor=None,
    )
    return enqueue(state, Reveal((piece,), None), then="shown")


def shown(state: CookiesState) -> CookiesState:
    """The piece in dispute is face up: the leader is asked for a card."""
    assert state.dispute is not None
    return next_turn(log(state, ev.PieceShown(state.trick_no, state.name(state.dispute))))


def next_turn(state: CookiesState) -> CookiesState:
    """Ask the seat to play for its card; a puppeted seat's card is drawn at random."""
    seat = state.to_play
    if seat in state.puppets:
        puppets = list(state.puppets)
        puppets.remove(seat)
        state = state.evolve(
            puppets=tuple(puppets),
            phase=Phase.SETUP,
            actor=None,
            draws=(*state.draws, ("puppet", seat, 0)),
        )
        return enqueue(state, Random(len(state.hands[seat])))
    return ask(state, Phase.PLAY, seat)


def play(state: CookiesState, seat: int, slot: int, *, forced: bool = False) -> CookiesState:
    """``seat``'s card ``slot`` goes to the trick and is shown to all (``forced``: drawn by
    a Puppet)."""
    held = state.hands[seat]
    at = held.index(slot) if slot in held else len(held)
    hand = held[:at] + held[at + 1 :]
    state = state.evolve(
        hands=set_at(state.hands, seat, hand),
        trick=(*state.trick, (seat, slot)),
        phase=Phase.SETUP,
        actor=None,
        resume="forced" if forced else "",
    )
    return enqueue(state, Reveal((slot,), None), then="played")


def suit_breach(state: CookiesState, seat: int, action: Play) -> CookiesState:
    """Record a card that breaks suit, where this state knows the player's whole hand."""
    cards = state.knowledge.cards
    names = [cards[s] for s in state.hands[seat]]
    if None in names:
        return state  # only the holder can tell; the audit will
    played = cards[action.slot]
    assert played is not None
    # the rule of :func:`.tricks.may_play`, read from the table of suits
    suit = state.turn_suit
    if suit is None or SUIT[played] in (suit, None):
        return state
    if suit not in [SUIT[n] for n in names]:  # type: ignore[index]
        return state
    reason = N_("broke suit: held a card of the turn suit")  # read in the reader's language
    breach = Breach(seat, str(action), reason, state.round, state.trick_no)
    return state.evolve(breaches=(*state.breaches, breach))


def card_shown(state: CookiesState) -> CookiesState:
    """The card played is face up: it may set the turn suit; the marker window opens."""
    seat, slot = state.trick[-1]
    name = state.name(slot)
    forced = state.resume == "forced"
    suit = None if name is None else SUIT[name]
    if state.turn_suit is None and suit is not None and suit != GOLD:  # a colour card
        state = state.evolve(resume="", turn_suit=suit)
    else:
        state = state.evolve(resume="")
    state = log(state, ev.CardPlayed(seat, name, forced))
    if not state.options.markers:
        return _after_window(state)
    n = state.players
    order = tuple((seat + i) % n for i in range(1, n + 1))  # ends with the player
    return window_next(state.evolve(window=order, resume="window"))


def window_next(state: CookiesState) -> CookiesState:
    """Ask the next marker holder of the window, or close it."""
    window = state.window
    while window and not state.markers[window[0]]:
        window = window[1:]
    if not window:
        return _after_window(state.evolve(window=(), resume=""))
    return ask(state.evolve(window=window[1:], resume="window"), Phase.MARKER, window[0])


def _after_window(state: CookiesState) -> CookiesState:
    if len(state.trick) < state.players:
        return next_turn(state)
    return end_trick(state)


def end_trick(state: CookiesState) -> CookiesState:
    """The winner takes the piece and leads; the markers earned are dealt, each shown to
    its earner."""
    names = [state.name(slot) for _, slot in state.trick]
    if any(n is None for n in names):
        raise IllegalActionError(None, None, _("a trick is judged before its cards are shown"))
    played = [n for n in names if n is not None]
    win = state.trick[winner(played)][0]
    piece = state.dispute
    assert piece is not None
    piece_name = state.name(piece)
    state = state.evolve(
        pieces=set_at(state.pieces, win, tuple(sorted((*state.pieces[win], piece)))),
        won_face_up=set_at(state.won_face_up, win, (*state.won_face_up[win], piece_name or "?")),
        tricks_won=bump(state.tricks_won, win),
        played=state.played + tuple(slot for _, slot in state.trick),
        last_trick=state.trick,
        last_winner=win,
        trick=(),
        dispute=None,
        leader=win,
        phase=Phase.SETUP,
        actor=None,
    )
    state = log(state, ev.TrickWon(win, piece_name, tuple(names), state.trick_no))
    reveals: list[Request] = []
    if state.options.markers:
        for index in earners(played):
            if not state.marker_pile:
                break
            seat = state.last_trick[index][0]
            slot = state.marker_pile[0]
            state = state.evolve(
                marker_pile=state.marker_pile[1:],
                markers=set_at(state.markers, seat, (*state.markers[seat], slot)),
                markers_earned=bump(state.markers_earned, seat),
                awarded=(*state.awarded, (seat, slot)),
            )
            reveals.append(Reveal((slot,), (seat,)))
    return enqueue(state, *reveals, then="earned")

"""Who acts, and which actions are legal — from public facts and the seat's own slots.

Every action names slots and seats only, so any peer can check another seat's action on
public facts: whose turn it is, which slots a hand, a pile of pieces or of markers holds,
who holds pieces. What needs a hidden card is not checked here: following suit (checked
by :mod:`.flow` where the state knows the whole hand, else at the end-of-game audit) and a
marker's kind (checked when the marker is shown to all as it is used).

Listing legal actions for a seat uses only what that seat knows: the cards of its own
hand (to follow suit) and the kinds of its own markers.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from cakeparty.core.actions import Action
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.cards import SUIT, marker_kind
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.i18n import _

DEFENSE = "defense"
TARGETED = ("theft", "puppet", "swap")
ASKING = (Phase.PLAY, Phase.MARKER, Phase.DEFENSE, Phase.SWAP)


def to_act(state: CookiesState) -> tuple[int, ...]:
    """The seats the game waits on: a sealed choice's seats, or the one seat asked."""
    if state.queue:
        return state.choosing
    if state.phase in ASKING and state.actor is not None:
        return (state.actor,)
    return ()


# -- listing ------------------------------------------------------------------------------


def playable_slots(state: CookiesState, seat: int) -> tuple[int, ...]:
    """The cards of ``seat``'s hand it may play, as far as this state knows the hand (a
    card this state does not know is listed: only its holder can tell)."""
    hand = state.hands[seat]
    suit = state.turn_suit
    if suit is None:
        return hand
    bit = 1 << seat
    cards, known_by = state.knowledge.cards, state.knowledge.known_by
    suits = [SUIT[n] for s in hand if known_by[s] & bit and (n := cards[s]) is not None]
    if len(suits) < len(hand):
        return hand
    # the rule of :func:`.tricks.may_play`, for the whole hand at once: a seat holding the
    # turn suit plays it or a special
    if suit not in suits:
        return hand
    return tuple(s for s, c in zip(hand, suits, strict=True) if c == suit or c is None)


def own_marker_kinds(state: CookiesState, seat: int) -> tuple[tuple[int, str], ...]:
    """``seat``'s markers with their kinds, where this state knows them."""
    out = []
    for slot in state.markers[seat]:
        name = state.name(slot)
        if name is not None and state.knowledge.knows(seat, slot):
            out.append((slot, marker_kind(name)))
    return tuple(out)


def marker_uses(state: CookiesState, seat: int, slot: int, kind: str) -> list[UseMarker]:
    """Every way ``seat`` may use its marker ``slot`` of ``kind`` now (outside a Defense
    window)."""
    others = [s for s in range(state.players) if s != seat]
    if kind == DEFENSE:
        return []
    if kind == "theft":
        return [UseMarker(slot, kind, (t,)) for t in others if state.pieces[t]]
    if kind == "puppet":
        return [UseMarker(slot, kind, (t,)) for t in others]
    if kind == "swap":
        return [
            UseMarker(slot, kind, (t,), (p,))
            for t in others
            if state.pieces[t]
            for p in state.pieces[seat]
        ]
    return [UseMarker(slot, kind)]


def _all_marker_uses(state: CookiesState, seat: int) -> list[Action]:
    out: list[Action] = []
    for slot, kind in own_marker_kinds(state, seat):
        out.extend(marker_uses(state, seat, slot, kind))
    return out


@lru_cache(maxsize=64)
def _passes(hand: tuple[int, ...], duel: bool) -> tuple[Action, ...]:
    """Every pass from ``hand``, in the order a seat is offered them (the same hands come
    back at every view of the pass)."""
    if duel:
        return tuple(HandOver(s) for s in hand)
    return tuple(PassOn(a, b) for a, b in permutations(hand, 2))


def legal_actions(state: CookiesState, seat: int) -> list[Action]:
    """Every action ``seat`` may make now, from what that seat knows."""
    if seat not in to_act(state):
        return []
    if state.queue:  # the sealed pass
        hand = state.hands[seat]
        return list(_passes(hand, state.options.duel))
    phase = state.phase
    if phase is Phase.PLAY:
        return [*(Play(s) for s in playable_slots(state, seat)), *_all_marker_uses(state, seat)]
    if phase is Phase.MARKER:
        return [NoMarker(), *_all_marker_uses(state, seat)]
    if phase is Phase.DEFENSE:
        defenses: list[Action] = [
            UseMarker(slot, DEFENSE)
            for slot, kind in own_marker_kinds(state, seat)
            if kind == DEFENSE
        ]
        return [NoMarker(), *defenses]
    if phase is Phase.SWAP:
        return [GivePiece(s) for s in state.pieces[seat]]
    return []


# -- checking -----------------------------------------------------------------------------


def check_pass(state: CookiesState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` is a pass ``seat`` may seal."""
    hand = state.hands[seat] if 0 <= seat < state.players else ()
    if seat not in state.choosing:
        raise IllegalActionError(seat, action, _("this seat has no choice to make now"))
    if state.options.duel:
        if not isinstance(action, HandOver):
            raise IllegalActionError(seat, action, _("give one card to your opponent"))
        if action.slot not in hand:
            raise IllegalActionError(seat, action, _("give a card from your hand"))
        return
    if not isinstance(action, PassOn):
        raise IllegalActionError(seat, action, _("pass one card left and one card right"))
    if action.left not in hand or action.right not in hand:
        raise IllegalActionError(seat, action, _("pass cards from your hand"))


def check_marker(state: CookiesState, seat: int, action: UseMarker) -> None:
    """The checks of a marker's use that need no hidden card."""

    def illegal(reason: str) -> IllegalActionError:
        return IllegalActionError(seat, action, reason)

    if action.slot not in state.markers[seat]:
        raise illegal(_("use a marker you hold"))
    defending = state.phase is Phase.DEFENSE
    if defending != (action.kind == DEFENSE):
        if defending:
            raise illegal(_("only a Defense may answer a marker"))
        raise illegal(_("a Defense only answers a marker just used"))
    kind = action.kind
    if kind in TARGETED:
        if len(action.target) != 1:
            raise illegal(_("choose another player"))
        target = action.target[0]
        if target == seat or not 0 <= target < state.players:
            raise illegal(_("choose another player"))
        if kind in ("theft", "swap") and not state.pieces[target]:
            raise illegal(_("that player has no piece"))
    elif action.target:
        raise illegal(_("this marker has no target"))
    if kind == "swap":
        if len(action.piece) != 1 or action.piece[0] not in state.pieces[seat]:
            raise illegal(_("give one of your own pieces"))
    elif action.piece:
        raise illegal(_("only a Swap gives a piece"))


def check(state: CookiesState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may make ``action`` now, as far
    as public facts tell."""

    def illegal(reason: str) -> IllegalActionError:
        return IllegalActionError(seat, action, reason)

    if state.phase is Phase.OVER:
        raise illegal(_("the game is over"))
    if state.choosing:
        raise illegal(_("choices are sealed and opened together with the other seats'"))
    if seat not in to_act(state):
        raise illegal(_("it is not this seat's turn"))
    phase = state.phase
    if isinstance(action, Play):
        if phase is not Phase.PLAY:
            raise illegal(_("no card is to be played now"))
        if action.slot not in state.hands[seat]:
            raise illegal(_("play a card from your hand"))
    elif isinstance(action, UseMarker):
        if phase not in (Phase.PLAY, Phase.MARKER, Phase.DEFENSE):
            raise illegal(_("no marker may be used now"))
        check_marker(state, seat, action)
    elif isinstance(action, NoMarker):
        if phase not in (Phase.MARKER, Phase.DEFENSE):
            raise illegal(_("nothing to let pass now"))
    elif isinstance(action, GivePiece):
        if phase is not Phase.SWAP:
            raise illegal(_("no piece is asked for now"))
        if action.slot not in state.pieces[seat]:
            raise illegal(_("give one of your own pieces"))
    else:
        raise illegal(_("not a Cookies Battle move now"))

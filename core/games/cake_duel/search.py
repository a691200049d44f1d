"""How the strong bot's search judges a Cake Duel: where a walk can stop, and how it plays.

A bout is the unit of a duel: every bout starts from a fresh shuffle with cakes 3 against 4,
so what one decision changes is, above all, who takes the bout it is made in. A walk of the
search therefore never goes past the end of that bout (worth 1 to the side that took it and
0 to the other: winning more bouts is winning more duels), and it stops sooner, at the start
of the turn after the decision's, where :func:`judge` weighs the position: the cakes, the
cards in each hand (a walk's world holds them all) and the deck. Short walks are many walks,
and none of their noise comes from turns the decision hardly touches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import CARDS, Type
from cakeparty.core.games.cake_duel.state import DuelState, Phase

#: Turns a walk plays past the one its decision is made in before it is judged: the answer
#: to the decision is seen, and the rest is left to the judge (two or three turns judged
#: worse).
TURNS = 1

# The weights of :func:`judge`: a logistic fit of who took the bout, from the position at the
# start of each turn of 500 duels between normal bots (seeds 1000-1499).
BIAS = 0.014
CAKES = 0.43  # per cake of the attacker's lead
STEAL = (0.03, -0.049)  # cakes its attack cards could steal (at most 6): attacker, target
ATTACKERS = (0.089, -0.061)  # attack cards in hand
BLOCKERS = (0.27, -0.447)  # block cards in hand
CARDS_HELD = (0.086, 0.053)  # cards in hand
DECK_EMPTY = 0.034
LAST_CARDS = 0.713  # per card more in the attacker's hand, once the deck is empty
PASS_AHEAD = 3.766  # the other side passed and the attacker leads: a pass takes the bout
PASS_BEHIND = -0.942  # the other side passed while ahead

_BLOCKER = Type.BLOCKER

#: The search's settings for a duel (fields of the search's budget).
SETTINGS: dict[str, Any] = {}


def _hand(state: DuelState, seat: int) -> tuple[int, int, int, int]:
    """Steal, attack cards, block cards and size of ``seat``'s hand."""
    cards = state.knowledge.cards
    steal = attackers = blockers = 0
    hand = state.hands[seat]
    for slot in hand:
        name = cards[slot]
        if name is None:
            continue
        card = CARDS[name]
        if card.type.attacker:
            attackers += 1
            steal += card.steal
        elif card.type is _BLOCKER:
            blockers += 1
    return min(steal, 6), attackers, blockers, len(hand)


def judge(state: DuelState) -> float:
    """The chance that the attacking side takes the bout, from a position at the start of
    a turn of a two-seat duel."""
    attacker = state.attacker
    assert attacker is not None
    side = attacker % 2
    lead = state.cakes[side] - state.cakes[1 - side]
    mine = _hand(state, attacker)
    theirs = _hand(state, 1 - attacker)
    z = BIAS + CAKES * lead
    for i, weights in enumerate((STEAL, ATTACKERS, BLOCKERS, CARDS_HELD)):
        z += weights[0] * mine[i] + weights[1] * theirs[i]
    if not state.deck:
        z += DECK_EMPTY + LAST_CARDS * (mine[3] - theirs[3])
    if state.passes:
        z += PASS_AHEAD if lead > 0 else PASS_BEHIND
    return 1.0 / (1.0 + math.exp(-z))


def cutoff(start: DuelState, state: DuelState) -> Sequence[float] | None:
    """Each seat's reward where a walk from ``start`` ends: the bout's end (1 to the side
    that took it, 0 to the other), or in a two-seat duel the start of the turn
    :data:`TURNS` turns later (:func:`judge`); ``None`` to play on."""
    if state.bout != start.bout or state.winner is not None:
        events = state.events
        for i in range(len(events) - 1, start.bout_start - 1, -1):
            event = events[i]
            if isinstance(event, ev.BoutWon):
                return [1.0 if seat % 2 == event.side else 0.0 for seat in range(state.players)]
        return None
    if (
        state.turn >= start.turn + TURNS
        and state.phase is Phase.ATTACK
        and not state.queue
        and state.players == 2
    ):
        win = judge(state)
        attacker = state.attacker
        return [win if seat == attacker else 1.0 - win for seat in range(2)]
    return None


def settings(view: Any) -> Mapping[str, Any]:
    """The search's settings for the decision of ``view``."""
    del view
    return SETTINGS

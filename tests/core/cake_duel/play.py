"""Small moves for the Cake Duel tests: play named cards, read the public log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from cakeparty.core import Match
from cakeparty.core.games.cake_duel import (
    CHALLENGE,
    NO_ACTION,
    PASS,
    Block,
    Claim,
    Lead,
    Phase,
)
from cakeparty.core.games.cake_duel.events import BoutWon
from tests.core.cake_duel.stacking import hand_slots

E = TypeVar("E")


def claim(
    m: Match, seat: int, cards: Sequence[str], name: str, target: int | None = None
) -> tuple[int, ...]:
    """``seat`` plays the named cards of its hand as ``len(cards)`` × ``name``."""
    slots = hand_slots(m, seat, *cards)
    if target is None:
        target = 1 - seat
    m.apply(Claim(slots, name, target), seat)
    return slots


def block(m: Match, seat: int, cards: Sequence[str], name: str) -> tuple[int, ...]:
    """``seat`` plays the named cards of its hand as a block of ``len(cards)`` × ``name``."""
    slots = hand_slots(m, seat, *cards)
    m.apply(Block(slots, name), seat)
    return slots


def settle(m: Match) -> None:
    """End the turn as the rules have it: each seat that played reveals its Sir Wolfy, or
    none (its first choice: the reveal, in a tournament too)."""
    while m.state.phase is Phase.WOLFY and m.outcome is None:
        seat = m.to_act[0]
        m.apply(m.legal_actions(seat)[0], seat)


def accept(m: Match, *, end_turn: bool = True) -> None:
    """The seat to act lets the claim just made stand (and the turn ends, unless told)."""
    m.apply(NO_ACTION, m.to_act[0])
    if end_turn:
        settle(m)


def challenge(m: Match, *, end_turn: bool = True) -> None:
    """The seat to act challenges the claim just made."""
    m.apply(CHALLENGE, m.to_act[0])
    if end_turn:
        settle(m)


def pass_turn(m: Match) -> None:
    """The attacker passes."""
    assert m.state.phase is Phase.ATTACK
    m.apply(PASS, m.to_act[0])
    settle(m)


def log(m: Match) -> tuple[Any, ...]:
    """Every public event of the match so far."""
    return m.view(None).log


def events(m: Match, kind: type[E]) -> list[E]:
    """The public events of one kind, oldest first."""
    return [e for e in log(m) if isinstance(e, kind)]


def burn(m: Match, turns: int) -> None:
    """Play ``turns`` turns that move no cake: each attacker plays its newest card as one
    Soldier, the target blocks with its newest card as one Defender, the attacker accepts.
    Each turn draws two cards; the cards dealt first stay in hand."""
    for _ in range(turns):
        attacker = m.to_act[0]
        target = 1 - attacker
        m.apply(Claim((m.state.hands[attacker][-1],), "soldier", target), attacker)
        m.apply(Block((m.state.hands[target][-1],), "defender"), target)
        m.apply(NO_ACTION, attacker)
        settle(m)


TRUE_ATTACKS = frozenset({"soldier", "archer", "wizard"})
SPECIAL_ATTACKS = frozenset({"assassin", "scout", "summoner", "quartermaster", "oracle"})


def _bluff_name(card: str) -> str:
    """A claim that ``card`` alone makes false (Pierrot is any core card it is claimed as)."""
    if card == "pierrot":
        return "scout"
    return "archer" if card == "soldier" else "soldier"


def win_bout(m: Match, side: int) -> None:
    """End the bout at once with a challenge that ``side`` wins.

    An attacker of ``side`` makes a true claim that the other side challenges, or passes
    when it holds no attacker; an attacker of the other side bluffs and is challenged.
    """
    bout = m.state.bout
    while m.state.bout == bout and m.outcome is None:
        if m.state.phase is Phase.LEAD:
            m.apply(Lead(m.to_act[0]), m.to_act[0])
            continue
        attacker = m.to_act[0]
        target = next(s for s in range(m.state.players) if s % 2 != attacker % 2)
        hand = m.state.hands[attacker]
        true = TRUE_ATTACKS | (SPECIAL_ATTACKS if m.state.options.full else frozenset())
        if attacker % 2 == side:
            honest = [s for s in hand if m.dealer.card(s) in true]
            if not honest:
                m.apply(PASS, attacker)
                settle(m)
                continue
            m.apply(Claim((honest[0],), m.dealer.card(honest[0]), target), attacker)
        else:
            m.apply(Claim(hand[:1], _bluff_name(m.dealer.card(hand[0])), target), attacker)
        m.apply(CHALLENGE, target)
        settle(m)
    assert events(m, BoutWon)[-1].side == side

"""The rules of a trick on card names: following suit, the winner, the markers earned.

Pure functions: each takes the cards face up on the table in play order (and, to follow
suit, the cards of one hand), so each rule can be tested on a literal trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.core.games.cookies_battle.cards import GOLD, card, cards

LOW_AWARD = range(2, 6)  # a lowest card of 2 to 5 earns a marker


#: every card by name as (suit, value): the rules below read them for every card of every
#: trick a bot imagines, so they are looked up once (specials: suit ``None``; the
#: Magician: value ``None``)
_CARDS: dict[str, tuple[str | None, int | None]] = {
    name: (card(name).suit, card(name).value) for name in cards("standard")
}


def turn_suit(played: Sequence[str]) -> str | None:
    """The colour of the first colour card played (specials and gold never set it)."""
    for name in played:
        suit = _CARDS[name][0]
        if suit is not None and suit != GOLD:
            return suit
    return None


def may_play(hand: Sequence[str], suit: str | None, name: str) -> bool:
    """May a seat holding ``hand`` play ``name`` when the turn suit is ``suit``?

    A special may always be played; before a turn suit is set anything goes; a seat that
    holds a card of the turn suit must play one (or a special: no gold, no other colour);
    a seat with none may play anything.
    """
    c = card(name)
    if c.special or suit is None:
        return True
    if any(card(h).suit == suit for h in hand):
        return c.suit == suit
    return True


def playable(hand: Sequence[str], suit: str | None) -> tuple[str, ...]:
    """The cards of ``hand`` that may be played now."""
    return tuple(n for n in hand if may_play(hand, suit, n))


def winner(played: Sequence[str]) -> int:
    """The index in ``played`` of the card that wins the trick.

    The first 13 played; else the first 0 played if any 12 (a colour or gold) is on the
    table; else the highest gold; else the highest card of the turn suit; else the first 0
    played; else the first card played.
    """
    suit = turn_suit(played)
    zero = gold = follow = -1
    gold_value = follow_value = -1
    twelve = False
    for i, name in enumerate(played):
        kind, value = _CARDS[name]
        if kind is None:
            if value == 13:
                return i  # the first 13 wins whatever else lies there
            if value == 0 and zero < 0:
                zero = i
            continue
        assert value is not None
        if value == 12:
            twelve = True
        if kind == GOLD:
            if value > gold_value:
                gold, gold_value = i, value
        elif kind == suit and value > follow_value:
            follow, follow_value = i, value
    if zero >= 0 and twelve:
        return zero
    if gold >= 0:
        return gold
    if follow >= 0:
        return follow
    if zero >= 0:
        return zero
    return 0


def weakness(name: str, suit: str | None) -> int:
    """Which of two equal low cards is weaker: an off-suit colour (0) < the turn suit (1)
    < gold (2)."""
    kind = _CARDS[name][0]
    if kind == GOLD:
        return 2
    return 1 if kind == suit else 0


def earners(played: Sequence[str]) -> tuple[int, ...]:
    """The indices in ``played`` of the cards that earn a marker, in play order.

    The Magician always does. The lowest numbered card of the trick does if it is a 2 to 5
    (a 1 on the table is lower and stops it) and no 0 is on the table; between equal
    lowest cards the weaker one earns, and if still tied each does. The Magician never
    stops a low card.
    """
    magicians: list[int] = []
    low = 99
    lowest: list[int] = []
    for i, name in enumerate(played):
        kind, value = _CARDS[name]
        if kind is None:
            if value is None:
                magicians.append(i)
            elif value == 0:
                low = -1  # a 0 on the table: no low card earns
        elif value is not None and low >= 0:
            if value < low:
                low, lowest = value, [i]
            elif value == low:
                lowest.append(i)
    if low not in LOW_AWARD:
        return tuple(magicians)
    suit = turn_suit(played)
    weak = [weakness(played[i], suit) for i in lowest]
    weakest = min(weak)
    out = [i for i, w in zip(lowest, weak, strict=True) if w == weakest]
    return tuple(sorted({*magicians, *out}))

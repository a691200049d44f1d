"""The rules of a trick on card names: following suit, the winner, the markers earned.

Pure functions: each takes the cards face up on the table in play order (and, to follow
suit, the cards of one hand), so each rule can be tested on a literal trick.
"""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.core.games.cookies_battle.cards import card

LOW_AWARD = range(2, 6)  # a lowest card of 2 to 5 earns a marker


def turn_suit(played: Sequence[str]) -> str | None:
    """The colour of the first colour card played (specials and gold never set it)."""
    for name in played:
        c = card(name)
        if c.colour:
            return c.suit
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
    cards = [card(n) for n in played]
    suit = turn_suit(played)
    thirteens = [i for i, c in enumerate(cards) if c.special and c.value == 13]
    if thirteens:
        return thirteens[0]
    zeros = [i for i, c in enumerate(cards) if c.special and c.value == 0]
    if zeros and any(not c.special and c.value == 12 for c in cards):
        return zeros[0]
    golds = [i for i, c in enumerate(cards) if c.gold]
    if golds:
        return max(golds, key=lambda i: cards[i].value or 0)
    follow = [i for i, c in enumerate(cards) if suit is not None and c.suit == suit]
    if follow:
        return max(follow, key=lambda i: cards[i].value or 0)
    if zeros:
        return zeros[0]
    return 0


def weakness(name: str, suit: str | None) -> int:
    """Which of two equal low cards is weaker: an off-suit colour (0) < the turn suit (1)
    < gold (2)."""
    c = card(name)
    if c.gold:
        return 2
    return 1 if c.suit == suit else 0


def earners(played: Sequence[str]) -> tuple[int, ...]:
    """The indices in ``played`` of the cards that earn a marker, in play order.

    The Magician always does. The lowest numbered card of the trick does if it is a 2 to 5
    (a 1 on the table is lower and stops it) and no 0 is on the table; between equal
    lowest cards the weaker one earns, and if still tied each does. The Magician never
    stops a low card.
    """
    cards = [card(n) for n in played]
    out = {i for i, c in enumerate(cards) if c.magician}
    if not any(c.special and c.value == 0 for c in cards):
        numbered = [(i, c.value) for i, c in enumerate(cards) if not c.special]
        if numbered:
            low = min(v for _, v in numbered if v is not None)
            if low in LOW_AWARD:
                suit = turn_suit(played)
                lowest = [i for i, v in numbered if v == low]
                weakest = min(weakness(played[i], suit) for i in lowest)
                out |= {i for i in lowest if weakness(played[i], suit) == weakest}
    return tuple(sorted(out))

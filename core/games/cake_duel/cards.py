"""The cards of Cake Duel: the 20-card core set and the 10-card special set."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cakeparty.core.i18n import N_


class Type(enum.Enum):
    """What a card is, which decides what may block it and how it may be claimed."""

    WEAPON = "weapon attacker"
    MAGIC = "magic attacker"
    SPECIAL = "special attacker"
    BLOCKER = "blocker"
    UNCLAIMABLE = "unclaimable"
    TRANSFORMING = "transforming unclaimable"

    @property
    def attacker(self) -> bool:
        return self in (Type.WEAPON, Type.MAGIC, Type.SPECIAL)

    @property
    def unclaimable(self) -> bool:
        return self in (Type.UNCLAIMABLE, Type.TRANSFORMING)


@dataclass(frozen=True)
class Card:
    """One kind of card: its name (the identity of a slot), type, copies and effect."""

    name: str
    title: str
    type: Type
    copies: int
    effect: str
    steal: int = 0  # cakes an unblocked copy steals (Summoner steals by naming)
    special: bool = False


SOLDIER, ARCHER, WIZARD = "soldier", "archer", "wizard"
DEFENDER, SCIENTIST, SIR_WOLFY = "defender", "scientist", "sir-wolfy"
ASSASSIN, SCOUT, SUMMONER, QUARTERMASTER, ORACLE = (
    "assassin",
    "scout",
    "summoner",
    "quartermaster",
    "oracle",
)
PRIEST, ANGEL, PIERROT, MIMIC = "priest", "angel", "pierrot", "mimic"

CARDS: dict[str, Card] = {
    c.name: c
    for c in (
        Card(SOLDIER, N_("Soldier"), Type.WEAPON, 5, N_("Steal 1 cake."), steal=1),
        Card(ARCHER, N_("Archer"), Type.WEAPON, 4, N_("Steal 1 cake."), steal=1),
        Card(WIZARD, N_("Wizard"), Type.MAGIC, 3, N_("Steal 2 cakes."), steal=2),
        Card(DEFENDER, N_("Defender"), Type.BLOCKER, 4, N_("Blocks one weapon attacker.")),
        Card(SCIENTIST, N_("Scientist"), Type.BLOCKER, 3, N_("Blocks one magic attacker.")),
        Card(
            SIR_WOLFY,
            N_("Sir Wolfy"),
            Type.UNCLAIMABLE,
            1,
            N_("Never a valid claim: bluff him as another card. Shown after the turn."),
        ),
        Card(
            ASSASSIN,
            N_("Assassin"),
            Type.WEAPON,
            1,
            N_("Steal 5 cakes. One Defender blocks it."),
            steal=5,
            special=True,
        ),
        Card(
            SCOUT,
            N_("Scout"),
            Type.WEAPON,
            1,
            N_("Steal 1 cake; take another turn, even if blocked."),
            steal=1,
            special=True,
        ),
        Card(
            SUMMONER,
            N_("Summoner"),
            Type.MAGIC,
            1,
            N_("Name a card, look at the opponent's hand, steal 2 cakes per copy of it there."),
            special=True,
        ),
        Card(
            QUARTERMASTER,
            N_("Quartermaster"),
            Type.SPECIAL,
            1,
            N_("Your hand size +1 for the rest of the bout."),
            special=True,
        ),
        Card(
            ORACLE,
            N_("Oracle"),
            Type.SPECIAL,
            1,
            N_("Look at the opponent's hand; take another turn."),
            special=True,
        ),
        Card(
            PRIEST,
            N_("Priest"),
            Type.BLOCKER,
            2,
            N_("Blocks one attacker of any type, cancels it, and takes its card into your hand."),
            special=True,
        ),
        Card(
            ANGEL,
            N_("Angel"),
            Type.BLOCKER,
            1,
            N_("Blocks every attacker of the claim and cancels all their effects."),
            special=True,
        ),
        Card(
            PIERROT,
            N_("Pierrot"),
            Type.TRANSFORMING,
            1,
            N_("When flipped by a challenge, becomes the claimed card if it is a core card."),
            special=True,
        ),
        Card(
            MIMIC,
            N_("Mimic"),
            Type.TRANSFORMING,
            1,
            N_("When flipped by a challenge, becomes another claimed card flipped with it."),
            special=True,
        ),
    )
}

CORE_SET: tuple[str, ...] = tuple(
    name for name, card in CARDS.items() if not card.special for _ in range(card.copies)
)
SPECIAL_SET: tuple[str, ...] = tuple(
    name for name, card in CARDS.items() if card.special for _ in range(card.copies)
)
CORE_NAMES = frozenset(name for name, card in CARDS.items() if not card.special)

#: Which blocker names may answer an attacker of each type.
BLOCKERS_FOR: dict[Type, tuple[str, ...]] = {
    Type.WEAPON: (DEFENDER, PRIEST, ANGEL),
    Type.MAGIC: (SCIENTIST, PRIEST, ANGEL),
    Type.SPECIAL: (PRIEST, ANGEL),
}


def card(name: str) -> Card:
    """The card called ``name``; ``KeyError`` if there is none."""
    return CARDS[name]

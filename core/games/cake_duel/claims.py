"""The rules of claims, challenges and blocking, as small pure functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cakeparty.core.games.cake_duel.cards import (
    ANGEL,
    BLOCKERS_FOR,
    CARDS,
    CORE_NAMES,
    MIMIC,
    PIERROT,
    PRIEST,
    Type,
)
from cakeparty.core.games.cake_duel.state import DuelOptions, Play
from cakeparty.core.i18n import _


def claim_cap(name: str, options: DuelOptions) -> int:
    """Most copies of ``name`` one claim may name: all copies in the full game's sets.

    A claim of more is provably false, so it is never offered.
    """
    return CARDS[name].copies * options.sets


def claimable(name: str, options: DuelOptions) -> bool:
    """May ``name`` be claimed at all in this game? Specials only in the full game."""
    info = CARDS.get(name)
    if info is None or info.type.unclaimable:
        return False
    return options.full or name in CORE_NAMES


@lru_cache(maxsize=64)
def attack_names(options: DuelOptions) -> tuple[str, ...]:
    """Every name an attack may claim."""
    return tuple(n for n, c in CARDS.items() if c.type.attacker and claimable(n, options))


@lru_cache(maxsize=256)
def block_names(attack_name: str, options: DuelOptions) -> tuple[str, ...]:
    """Every blocker name able to block a claimed ``attack_name``."""
    return tuple(n for n in BLOCKERS_FOR[CARDS[attack_name].type] if claimable(n, options))


def max_block(attack: Play, block_name: str, options: DuelOptions) -> int:
    """How many ``block_name`` cards may answer ``attack``: no more than it needs."""
    if block_name == ANGEL:
        return 1  # one Angel blocks the whole claim
    return min(claim_cap(block_name, options), attack.count)


def attack_problem(name: str, count: int, options: DuelOptions) -> str | None:
    """Why a claim of ``count`` × ``name`` may not attack, or ``None`` if it may."""
    info = CARDS.get(name)
    if info is None:
        return _("there is no card called {name}").format(name=name)
    if info.type.unclaimable:
        return _("{card} can never be claimed").format(card=_(info.title))
    if not claimable(name, options):
        return _("{card} is not in the core game").format(card=_(info.title))
    if not info.type.attacker:
        return _("{card} is not an attacker").format(card=_(info.title))
    if count < 1:
        return _("a claim plays at least one card")
    if count > claim_cap(name, options):
        return _("there are only {n} × {card} in the game").format(
            n=claim_cap(name, options), card=_(info.title)
        )
    return None


def block_problem(attack: Play, name: str, count: int, options: DuelOptions) -> str | None:
    """Why ``count`` × ``name`` may not block ``attack``, or ``None`` if it may."""
    info = CARDS.get(name)
    if info is None:
        return _("there is no card called {name}").format(name=name)
    if info.type.unclaimable:
        return _("{card} can never be claimed").format(card=_(info.title))
    if not claimable(name, options):
        return _("{card} is not in the core game").format(card=_(info.title))
    if info.type is not Type.BLOCKER:
        return _("{card} is not a blocker").format(card=_(info.title))
    if name not in block_names(attack.name, options):
        return _("{card} cannot block {attacker}").format(
            card=_(info.title), attacker=_(CARDS[attack.name].title)
        )
    if count < 1:
        return _("a claim plays at least one card")
    most = max_block(attack, name, options)
    if count > most:
        return _("at most {n} × {card} may block this claim").format(n=most, card=_(info.title))
    return None


def is_truthful(claimed: str, flipped: Sequence[str]) -> bool:
    """Is a claim of ``len(flipped)`` × ``claimed`` true, once its cards are flipped?

    Pierrot becomes the claimed card if that is a core card. Mimic becomes another card
    flipped with it that is not unclaimable; alone, or among unclaimables only, it is a lie.
    Sir Wolfy never transforms.
    """
    real = [c for c in flipped if not CARDS[c].type.unclaimable]
    for card in flipped:
        if card == claimed:
            continue
        if card == PIERROT and claimed in CORE_NAMES:
            continue
        if card == MIMIC and real:
            continue  # it copies a real card; any real card not as claimed fails below
        return False
    return True


@dataclass(frozen=True)
class Blocking:
    """How a block claim meets an attack claim: counts of attack cards affected."""

    cancelled: int  # Priest or Angel: no theft, no extra effect
    blocked: int  # Defender or Scientist: no theft, extra effects still happen
    taken: int  # cards of the attack the Priests take into hand

    @classmethod
    def of(cls, attack: Play, block: Play | None) -> Blocking:
        n = attack.count
        if block is None:
            return cls(0, 0, 0)
        if block.name == ANGEL:
            return cls(n, 0, 0)
        q = min(block.count, n)
        if block.name == PRIEST:
            return cls(q, 0, q)
        return cls(0, q, 0)

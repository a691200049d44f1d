"""The rules of a bribe as small pure functions: what a target requires, what a card is
worth on it, what a sabotage must remove.

An offer's value is the number of its cake cards plus their +1s: a specialty gets +1 on a
region of its own continent, on DOOM when it is DOOM's favourite continent, and (Ozzy)
everywhere; Freya gets +1 on a bribe of a neutral region. A saboteur removes value one
unit at a time: the +1 of a card first (the card turns sideways, still worth 1), then the
card; Freya's +1 only once every one of her cake cards is gone. A sabotage removes exactly
its amount, or all that is left when less is left.
"""

from __future__ import annotations

from cakeparty.core.games.cake_of_doom.cards import (
    DOOM,
    DOOM_MINIMUM,
    DOOM_REGIONS,
    FREYA,
    OZZY,
    REGIONS,
    SABOTAGES,
    card,
)
from cakeparty.core.games.cake_of_doom.state import DoomState, Offer
from cakeparty.core.i18n import _, ngettext


def target_continent(state: DoomState, target: str) -> str | None:
    """The continent whose specialties get +1 on ``target``."""
    return state.favourite if target == DOOM else REGIONS[target].continent


def units(name: str, continent: str | None, alien: str | None) -> int:
    """The value of the cake card ``name`` on a target of ``continent``."""
    info = card(name)
    if not info.cake:
        return 0
    bonus = info.specialty and (alien == OZZY or info.continent == continent)
    return 2 if bonus else 1


def freya_bonus(state: DoomState, seat: int, target: str) -> int:
    """Freya's +1: on a bribe of a neutral region."""
    if state.aliens[seat] != FREYA or target == DOOM:
        return 0
    held = state.held(target)
    return 1 if held is not None and held.holder is None else 0


def requirement(state: DoomState, seat: int, target: str) -> int | None:
    """The value ``seat``'s offer must reach for ``target``, or ``None`` when ``seat``
    may not bribe it (not in play, its own, DOOM without two regions)."""
    if target == DOOM:
        if len(state.regions_of(seat)) < DOOM_REGIONS:
            return None
        return DOOM_MINIMUM
    held = state.held(target)
    if held is None or held.holder == seat:
        return None
    if held.holder is None:
        return held.minimum
    return held.value + 1


def targets(state: DoomState, seat: int) -> list[tuple[str, int]]:
    """Every target ``seat`` may bribe, with what it requires."""
    out = []
    for name in (*(r.name for r in state.regions), DOOM):
        need = requirement(state, seat, name)
        if need is not None:
            out.append((name, need))
    return out


def protected(state: DoomState, seat: int) -> bool:
    """Advanced: a briber controlling 2 regions of one continent cannot be sabotaged."""
    if not state.options.advanced:
        return False
    continents = [r.continent for r in state.regions_of(seat)]
    return any(continents.count(c) >= 2 for c in set(continents))


def amount(kind: str, value: int) -> int:
    """The value a sabotage of ``kind`` removes from an offer now worth ``value``."""
    fixed = SABOTAGES[kind]
    removes = value // 2 if fixed is None else fixed
    return min(removes, value)


def removal_error(offer: Offer, slots: tuple[int, ...], freya: int, due: int) -> str | None:
    """Why removing ``slots`` (a slot twice: 2 value) and ``freya`` from ``offer`` is not
    a removal of exactly ``due`` value, or ``None`` when it is."""
    if len(slots) + freya != due:
        return ngettext("remove exactly {n} value", "remove exactly {n} value", due).format(n=due)
    for slot in set(slots):
        if slot not in offer.slots:
            return _("that card is not in the offer")
        if slots.count(slot) > offer.left(slot):
            return _("that card has only {n} value left").format(n=offer.left(slot))
    if freya:
        if offer.freya - offer.freya_removed < 1:
            return _("there is no +1 of Freya's to remove")
        if any(offer.left(s) - slots.count(s) > 0 for s in offer.slots):
            return _("Freya's cake cards go before her +1")
    return None

"""Shared helpers for the Cake of Doom tests: where every slot lies, random playouts."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from cakeparty.core import Match, new_match
from cakeparty.core.games.cake_of_doom.bots import random_bot
from cakeparty.core.games.cake_of_doom.state import DoomState

VARIANTS: dict[str, dict[str, bool]] = {
    "basic": {},
    "advanced": {"advanced": True},
    "blind": {"blind": True},
    "advanced-blind": {"advanced": True, "blind": True},
}


def zones(state: DoomState) -> dict[str, tuple[int, ...]]:
    """Every zone a card can lie in, with its slots."""
    out: dict[str, tuple[int, ...]] = {
        "cake-pile": state.cake_pile,
        "mischief-pile": state.mischief_pile,
        "cake-discard": state.cake_discard,
        "mischief-discard": state.mischief_discard,
        "played": state.played,
        "doom": state.doom_cards,
    }
    for seat, hand in enumerate(state.hands):
        out[f"hand-{seat}"] = hand
    for region in state.regions:
        out[f"region-{region.name}"] = region.cards
    offer = state.offer
    if offer is not None:
        out["offer"] = offer.slots
        out["against"] = tuple(
            s for p in offer.sabotages for s in (p.slot, p.blocked_by) if s is not None
        )
    return out


def all_slots(state: DoomState) -> list[int]:
    return sorted(s for slots in zones(state).values() for s in slots)


def steps(
    match: Match,
    bot: Callable[[Any, random.Random], Any] = random_bot,
    rng: random.Random | None = None,
    limit: int = 20_000,
) -> Iterator[Match]:
    """Play ``match`` to the end with ``bot`` in every seat, yielding after every move."""
    rng = rng or random.Random(0)
    for _ in range(limit):
        if match.outcome is not None:
            return
        seat = match.to_act[0]
        match.apply(bot(match.view(seat), rng), seat)
        yield match
    raise AssertionError("the game did not end")


def new(players: int, seed: int, variant: str = "basic", **kw: Any) -> Match:
    return new_match("cake-of-doom", players=players, seed=seed, options=VARIANTS[variant], **kw)

"""Determinized search over the engine contract: a ``strong`` bot for every game that can
draw worlds consistent with a seat's view (:meth:`cakeparty.core.game.Game.determinize`).

See :mod:`cakeparty.core.search.ismcts` for the search itself.
"""

from __future__ import annotations

import random
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game
from cakeparty.core.search.ismcts import Budget, Result, search

__all__ = ["Budget", "Result", "search", "strong_bot"]


def strong_bot(game: Game, think: float, *, iterations: int | None = None) -> Bot:
    """The searching bot of ``game``, thinking ``think`` seconds per decision (and at most
    ``iterations`` walks, when given: with it alone, ``think=0``, the bot is deterministic
    for a seed)."""
    budget = Budget(iterations=iterations, seconds=think if think > 0 else None)

    def bot(view: Any, rng: random.Random) -> Action:
        return search(game, view, rng, budget).action

    return bot

"""Determinized search over the engine contract: a ``strong`` bot for every game that can
draw worlds consistent with a seat's view (:meth:`cakeparty.core.game.Game.determinize`).

See :mod:`cakeparty.core.search.ismcts` for the search itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game
from cakeparty.core.search.ismcts import Budget, Result, search

__all__ = ["Budget", "Result", "search", "strong_bot"]


def strong_bot(
    game: Game,
    think: float,
    *,
    iterations: int | None = None,
    clock: Callable[[], float] | None = None,
) -> Bot:
    """The searching bot of ``game``, thinking ``think`` seconds per decision on ``clock``
    (default: the wall clock), and at most ``iterations`` walks when given: with it alone,
    ``think=0``, the bot is deterministic for a seed. The game's own search settings
    (:meth:`~cakeparty.core.game.Game.search_settings`) apply."""

    def bot(view: Any, rng: random.Random) -> Action:
        settings = dict(game.search_settings(view))
        if clock is not None:
            settings["clock"] = clock
        budget = Budget(iterations=iterations, seconds=think if think > 0 else None, **settings)
        return search(game, view, rng, budget).action

    return bot

"""Determinized search over the engine contract: a ``strong`` bot for every game that can
draw worlds consistent with a seat's view (:meth:`cakeparty.core.game.Game.determinize`)."""

from __future__ import annotations

from cakeparty.core.game import Bot, Game


def strong_bot(game: Game, think: float) -> Bot:
    """The searching bot of ``game``, thinking ``think`` seconds per decision."""
    raise NotImplementedError("the search is not written yet")

"""Cake Duel bots. Each is a pure function of the seat's view and a random source."""

from __future__ import annotations

import random

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_duel.view import DuelView


def random_bot(view: DuelView, rng: random.Random) -> Action:
    """Uniformly at random among the legal actions."""
    return rng.choice(view.legal)


def normal_bot(view: DuelView, rng: random.Random) -> Action:
    return rng.choice(view.legal)

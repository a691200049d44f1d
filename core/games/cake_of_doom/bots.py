"""Cake of Doom bots. Each is a pure function of the seat's view and a random source.

``random`` picks uniformly among the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from cakeparty.core.actions import Action


def random_bot(view: Any, rng: random.Random) -> Action:
    """Uniformly at random among the legal actions."""
    choice: Action = rng.choice(view.legal)
    return choice


#: every level of bot this game has, by name
BOTS: Mapping[str, Callable[[Any, random.Random], Action]] = {"random": random_bot}

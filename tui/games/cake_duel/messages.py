"""The messages only the Cake Duel screen posts (the shared ones are in
:mod:`cakeparty.tui.messages`)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


@dataclass
class BoutEnded(Message):
    """A bout ended; ``side`` won it; ``trophies`` per side."""

    side: int
    reason: str
    trophies: tuple[int, int]

"""One error family for the rules engine.

Every error is a ``ValueError`` with structured fields, after python-chess's three kinds:
an action that is badly written (:class:`ActionSyntaxError`), one that is well written but
not allowed here (:class:`IllegalActionError`), and one whose text could mean several things
(:class:`AmbiguousActionError`). A :class:`RuleBreach` is an illegal action that could only
be detected once hidden cards were revealed: it names the seat that cheated.
"""

from __future__ import annotations

from typing import Any


class CakePartyError(ValueError):
    """Base of every error the engine raises on bad input."""


class ActionSyntaxError(CakePartyError):
    """An action's text or wire form cannot be read."""

    def __init__(self, text: Any, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r}: {reason}")


class IllegalActionError(CakePartyError):
    """A well-formed action that the rules do not allow for this seat now."""

    def __init__(self, seat: int | None, action: Any, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        who = "dealer" if seat is None else f"seat {seat}"
        super().__init__(f"{who}: {action}: {reason}")


class AmbiguousActionError(CakePartyError):
    """A short text form that matches more than one legal action."""

    def __init__(self, text: str, candidates: tuple[Any, ...]) -> None:
        self.text = text
        self.candidates = candidates
        shown = ", ".join(str(c) for c in candidates[:5])
        super().__init__(f"{text!r} is ambiguous: {shown}")


class RuleBreach(IllegalActionError):
    """A rule found broken once hidden cards were revealed; ``seat`` is the culprit."""


class SeatError(CakePartyError):
    """A seat number that is not at this table."""

    def __init__(self, seat: Any, players: int) -> None:
        self.seat = seat
        self.players = players
        super().__init__(f"no seat {seat!r}: this table's seats are 0 to {players - 1}")


class StaleStateError(CakePartyError):
    """An action was made against a state that has since moved on."""

    def __init__(self, expected: int, got: int) -> None:
        self.expected = expected
        self.got = got
        super().__init__(f"stale state id {got}, the game is at {expected}")

"""Requests: what a rule needs from outside the rules.

``apply`` leaves a state *waiting* on one request; a dealer fulfils it by feeding back the
matching action from :mod:`cakeparty.core.actions`:

=================  ======================  ===========================================
request            answered by             meaning
=================  ======================  ===========================================
``Reveal``         ``Revealed``            make these slots' identities known to seats
``Shuffle``        ``Shuffled``            permute the identities behind these slots
``Remix``          ``Remixed``             a holder re-mixes its own slots, unseen
``Random``         ``RandomResult``        a fair number in ``range(n)``
``Commit``         ``Committed``           one sealed choice from each of these seats
=================  ======================  ===========================================
"""

from __future__ import annotations

from dataclasses import dataclass

from cakeparty.core.actions import Action, Committed, RandomResult, Remixed, Revealed, Shuffled
from cakeparty.core.errors import IllegalActionError


@dataclass(frozen=True)
class Reveal:
    """Make the identities of ``slots`` known to the seats ``to`` (``None``: everyone)."""

    slots: tuple[int, ...]
    to: tuple[int, ...] | None


@dataclass(frozen=True)
class Shuffle:
    """Permute the identities behind ``slots`` at random, known to nobody afterwards."""

    slots: tuple[int, ...]


@dataclass(frozen=True)
class Remix:
    """``seat`` re-mixes its own ``slots`` (a hand), seen by the seats ``to`` alone.

    A game asks for it whenever a seat outside ``to`` learned cards of that hand (a look,
    a card passed or stolen): afterwards the seats of ``to`` know which slot holds which
    card, and nobody else does — a known card cannot be followed into a facedown play.
    """

    seat: int
    slots: tuple[int, ...]
    to: tuple[int, ...]


@dataclass(frozen=True)
class Random:
    """A fair random number in ``range(n)``."""

    n: int


@dataclass(frozen=True)
class Commit:
    """Each of ``seats`` chooses at once, unseen by the others; opened together."""

    seats: tuple[int, ...]


Request = Reveal | Shuffle | Remix | Random | Commit


def check_answer(request: Request | None, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``action`` answers ``request`` exactly."""
    if request is None:
        raise IllegalActionError(None, action, "no request is waiting")
    if isinstance(request, Reveal):
        ok = (
            isinstance(action, Revealed)
            and action.slots == request.slots
            and action.to == request.to
        )
    elif isinstance(request, Shuffle):
        ok = isinstance(action, Shuffled) and action.slots == request.slots
    elif isinstance(request, Remix):
        ok = (
            isinstance(action, Remixed)
            and action.seat == request.seat
            and action.slots == request.slots
            and action.to == request.to
        )
    elif isinstance(request, Random):
        ok = isinstance(action, RandomResult) and action.n == request.n
    else:
        ok = isinstance(action, Committed) and tuple(s for s, _ in action.choices) == request.seats
    if not ok:
        raise IllegalActionError(None, action, f"does not answer {request}")

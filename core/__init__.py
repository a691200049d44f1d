"""Cake Party's rules engine: pure, deterministic, no I/O.

The small public API for scripts and bots::

    from cakeparty.core import new_match
    m = new_match("cake-duel", players=2, seed=7, options={"full": True})
    while m.outcome is None:
        seat = m.to_act[0]
        m.apply(m.legal_actions(seat)[0], seat)

and the functional contract every game follows: ``to_act(state)``,
``legal_actions(state, seat)``, ``apply(state, action, seat)``, ``view(state, seat)``,
``outcome(state)``, with requests (``Reveal``, ``Shuffle``, ``Remix``, ``Random``,
``Commit``)
fulfilled by a dealer and fed back as actions.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cakeparty.core.actions import (
        Action,
        Committed,
        Forfeited,
        RandomResult,
        Remixed,
        Revealed,
        Shuffled,
        from_data,
        parse,
        to_data,
    )
    from cakeparty.core.dealer import LocalDealer
    from cakeparty.core.errors import (
        ActionSyntaxError,
        AmbiguousActionError,
        CakePartyError,
        IllegalActionError,
        RuleBreach,
        SeatError,
    )
    from cakeparty.core.game import (
        Bot,
        Game,
        Outcome,
        apply,
        game_names,
        get_game,
        legal_actions,
        outcome,
        pending,
        to_act,
        view,
    )
    from cakeparty.core.match import Match, new_match
    from cakeparty.core.requests import Commit, Random, Remix, Request, Reveal, Shuffle

#: Where each public name lives. The modules load on first use, so a program that needs
#: only ``cakeparty.core.i18n`` or ``cakeparty.core.errors`` (the app's menu) does not pay
#: for the whole engine.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        (
            "Action",
            "Committed",
            "Forfeited",
            "RandomResult",
            "Remixed",
            "Revealed",
            "Shuffled",
            "from_data",
            "parse",
            "to_data",
        ),
        "actions",
    ),
    "LocalDealer": "dealer",
    **dict.fromkeys(
        (
            "ActionSyntaxError",
            "AmbiguousActionError",
            "CakePartyError",
            "IllegalActionError",
            "RuleBreach",
            "SeatError",
        ),
        "errors",
    ),
    **dict.fromkeys(
        (
            "Bot",
            "Game",
            "Outcome",
            "apply",
            "game_names",
            "get_game",
            "legal_actions",
            "outcome",
            "pending",
            "to_act",
            "view",
        ),
        "game",
    ),
    "Match": "match",
    "new_match": "match",
    **dict.fromkeys(("Commit", "Random", "Remix", "Request", "Reveal", "Shuffle"), "requests"),
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "Action",
    "ActionSyntaxError",
    "AmbiguousActionError",
    "Bot",
    "CakePartyError",
    "Commit",
    "Committed",
    "Forfeited",
    "Game",
    "IllegalActionError",
    "LocalDealer",
    "Match",
    "Outcome",
    "Random",
    "RandomResult",
    "Remix",
    "Remixed",
    "Request",
    "Reveal",
    "Revealed",
    "RuleBreach",
    "SeatError",
    "Shuffle",
    "Shuffled",
    "apply",
    "from_data",
    "game_names",
    "get_game",
    "legal_actions",
    "new_match",
    "outcome",
    "parse",
    "pending",
    "to_act",
    "to_data",
    "view",
]

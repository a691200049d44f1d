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

"""Cookies Battle: trick-taking with cookie pieces, magic markers and the tummy ache.

3 to 6 players (``standard`` or ``beginners``), or the 2-player duel. Win tricks to take
cookie pieces; the highest score has a tummy ache and the second highest wins (beginners
and the duel: the highest wins). The flow, and every choice the printed rules leave open,
is described in :mod:`.flow`; the rules of a trick in :mod:`.tricks`; scoring in
:mod:`.scoring`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game, Outcome, World, register_game
from cakeparty.core.games.cookies_battle import bots, search
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.flow import apply as _apply
from cakeparty.core.games.cookies_battle.flow import new_state as _new_state
from cakeparty.core.games.cookies_battle.flow import outcome as _outcome
from cakeparty.core.games.cookies_battle.legal import legal_actions as _legal_actions
from cakeparty.core.games.cookies_battle.legal import to_act as _to_act
from cakeparty.core.games.cookies_battle.state import (
    GAME,
    Breach,
    CookiesOptions,
    CookiesState,
    Phase,
)
from cakeparty.core.games.cookies_battle.view import CookiesView, MarkerWindow
from cakeparty.core.games.cookies_battle.view import view as _view
from cakeparty.core.games.cookies_battle.worlds import determinize as _determinize
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

__all__ = [
    "GAME",
    "Breach",
    "CookiesBattle",
    "CookiesOptions",
    "CookiesState",
    "CookiesView",
    "GivePiece",
    "HandOver",
    "MarkerWindow",
    "NoMarker",
    "PassOn",
    "Phase",
    "Play",
    "UseMarker",
]


class CookiesBattle(Game):
    """The Cookies Battle spec."""

    name = GAME
    title = N_("Cookies Battle")
    stat_words: Mapping[str, str] = {
        "tricks_won": N_("tricks won a game"),
        "markers_earned": N_("markers earned a game"),
        "markers_used": N_("markers used a game"),
        "tummy_ache": N_("share of the games with the tummy ache"),
    }
    ending_words: Mapping[str, str] = {
        "tummy-ache": N_("the tummy ache"),
        "points": N_("the highest score"),
    }
    players = (2, 3, 4, 5, 6)
    bots: Mapping[str, Bot] = bots.BOTS

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> CookiesState:
        return _new_state(CookiesOptions.parse(players, options))

    def pending(self, state: CookiesState) -> Request | None:
        return state.pending

    def to_act(self, state: CookiesState) -> tuple[int, ...]:
        return _to_act(state)

    def legal_actions(self, state: CookiesState, seat: int) -> list[Action]:
        return _legal_actions(state, seat)

    def apply(self, state: CookiesState, action: Action, seat: int | None) -> CookiesState:
        return _apply(state, action, seat)

    def view(self, state: CookiesState, seat: int | None) -> CookiesView:
        return _view(state, seat)

    def outcome(self, state: CookiesState) -> Outcome | None:
        return _outcome(state)

    def knowledge(self, state: CookiesState) -> Knowledge:
        return state.knowledge

    def box(self, state: CookiesState) -> tuple[str, ...]:
        return state.box

    def determinize(self, view: CookiesView, rng: random.Random) -> World | None:
        return _determinize(view, rng)

    def rollout_bot(self) -> Bot | None:
        """The quick policy of :mod:`.search`: the normal bot is too slow to play walks."""
        return search.quick_bot

    def prior_bot(self) -> Bot | None:
        """The normal bot keeping its markers for the last cards (:func:`.search.keeping_bot`)."""
        return search.keeping_bot

    def cutoff(self, start: CookiesState, state: CookiesState) -> Sequence[float] | None:
        """A walk is judged a trick or so after it began (:func:`.search.cutoff`)."""
        return search.cutoff(start, state)

    def search_moves(self, view: CookiesView) -> list[Action] | None:
        """The pass is the normal bot's, and alike moves are weighed once
        (:func:`.search.search_moves`)."""
        return search.search_moves(view)

    def search_settings(self, view: CookiesView) -> Mapping[str, Any]:
        """A smaller lead over the normal bot's move where a walk's judgement is surer
        (:func:`.search.settings`)."""
        return search.settings(view)

    def stats(self, state: CookiesState) -> dict[str, tuple[float, ...]]:
        """Per seat: tricks won (pieces taken), markers earned and markers used; under the
        tummy ache also whether the seat ended out of the win for the highest score (a
        bot that plays for the second place and ends on top took too much)."""
        figures = {
            "tricks_won": tuple(float(n) for n in state.tricks_won),
            "markers_earned": tuple(float(n) for n in state.markers_earned),
            "markers_used": tuple(float(n) for n in state.markers_used),
        }
        if state.options.tummy_ache:
            aches = set(state.tummy_ache)
            figures["tummy_ache"] = tuple(float(s in aches) for s in range(state.players))
        return figures


COOKIES_BATTLE = register_game(CookiesBattle())

"""Cake Duel: a bluffing card game for 2 players, or 4 in team mode.

Every card is played facedown and claimed; any claim may be a bluff; any claim may be
challenged. Take all the opponent's cakes or catch them lying; three bouts win a duel.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game, Outcome, World, register_game
from cakeparty.core.games.cake_duel import bots
from cakeparty.core.games.cake_duel.actions import (
    AGREE,
    CHALLENGE,
    KEEP_HIDDEN,
    NO_ACTION,
    NO_TRADE,
    PASS,
    REFUSE,
    Block,
    Claim,
    Declare,
    KeepHidden,
    Lead,
    Summon,
    Take,
    Taunt,
    Trade,
)
from cakeparty.core.games.cake_duel.flow import apply as _apply
from cakeparty.core.games.cake_duel.flow import breach_with as _breach_with
from cakeparty.core.games.cake_duel.flow import new_state as _new_state
from cakeparty.core.games.cake_duel.flow import witnesses as _witnesses
from cakeparty.core.games.cake_duel.legal import legal_actions as _legal_actions
from cakeparty.core.games.cake_duel.legal import to_act as _to_act
from cakeparty.core.games.cake_duel.search import cutoff as _cutoff
from cakeparty.core.games.cake_duel.search import settings as _settings
from cakeparty.core.games.cake_duel.state import GAME, DuelOptions, DuelState, Phase
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.games.cake_duel.view import view as _view
from cakeparty.core.games.cake_duel.worlds import determinize as _determinize
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

__all__ = [
    "AGREE",
    "CHALLENGE",
    "GAME",
    "KEEP_HIDDEN",
    "NO_ACTION",
    "NO_TRADE",
    "PASS",
    "REFUSE",
    "Block",
    "CakeDuel",
    "Claim",
    "Declare",
    "DuelOptions",
    "DuelState",
    "DuelView",
    "KeepHidden",
    "Lead",
    "Phase",
    "Summon",
    "Take",
    "Taunt",
    "Trade",
]


class CakeDuel(Game):
    """The Cake Duel spec."""

    name = GAME
    title = N_("Cake Duel")
    ending_words: Mapping[str, str] = {"trophies": N_("trophies"), "tournament": N_("duels won")}
    players = (2, 4)
    bots: Mapping[str, Bot] = {"random": bots.random_bot, "normal": bots.normal_bot}

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> DuelState:
        return _new_state(DuelOptions.parse(players, options))

    def pending(self, state: DuelState) -> Request | None:
        return state.pending

    def to_act(self, state: DuelState) -> tuple[int, ...]:
        return _to_act(state)

    def legal_actions(self, state: DuelState, seat: int) -> list[Action]:
        return _legal_actions(state, seat)

    def apply(self, state: DuelState, action: Action, seat: int | None) -> DuelState:
        return _apply(state, action, seat)

    def view(self, state: DuelState, seat: int | None) -> DuelView:
        return _view(state, seat)

    def outcome(self, state: DuelState) -> Outcome | None:
        if state.winner is None:
            return None
        winners = state.seats_of(state.winner)
        scores = state.duels if state.options.tournament else state.trophies
        per_seat = tuple(scores[state.side(s)] for s in range(state.players))
        reason = "tournament" if state.options.tournament else "trophies"
        if state.forfeit is not None:
            reason = "forfeit"
        return Outcome(winners=winners, reason=reason, scores=per_seat)

    def knowledge(self, state: DuelState) -> Knowledge:
        return state.knowledge

    def box(self, state: DuelState) -> tuple[str, ...]:
        return state.box

    def determinize(self, view: DuelView, rng: random.Random) -> World | None:
        return _determinize(view, rng)

    def cutoff(self, start: DuelState, state: DuelState) -> Sequence[float] | None:
        return _cutoff(start, state)

    def search_settings(self, view: DuelView) -> Mapping[str, Any]:
        return _settings(view)

    def witnesses(
        self, state: DuelState, seat: int, action: Action
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return _witnesses(state, seat, action)

    def breach(
        self, state: DuelState, seat: int, action: Action, cards: Mapping[int, str]
    ) -> str | None:
        return _breach_with(state, seat, action, cards)


CAKE_DUEL = register_game(CakeDuel())

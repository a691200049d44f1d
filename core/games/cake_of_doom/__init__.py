"""Cake of Doom: a bribing game for 3 to 6 players.

Aliens bribe Earth's regions with cake while the other players sabotage the offers. Control
two regions, then win DOOM (the Democratic Order Of Mankind, minimum 7) and you win at
once; otherwise after 10 rounds the player with the most regions wins.

Options: ``advanced`` (each player chooses the mix of their opening 8 cards; control
bonuses; a briber holding two regions of one continent cannot be sabotaged) and ``blind``
(offers stay face down until every saboteur has answered), each true or false.

Choices the printed rules leave open, as this engine plays them, are listed in
:mod:`.flow` (the turn, the bribe, sabotage and Force Fields, draws, the end), in
:mod:`.effects` (the control bonuses), in :mod:`.rules` (an offer's value and what a
sabotage removes), in :mod:`.legal` (what peers check at once and what they check when
cards are shown), in :mod:`.cards` (names, slots) and in :mod:`.actions` (the moves and
their text forms).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game, Outcome, World, register_game
from cakeparty.core.games.cake_of_doom import bots
from cakeparty.core.games.cake_of_doom.actions import (
    PASS,
    Abduct,
    Bribe,
    ChooseMix,
    Discard,
    Draw,
    ForceField,
    Grab,
    NoBribe,
    NoForceField,
    NoSabotage,
    Peek,
    PickCard,
    Remove,
    Rob,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.flow import apply as _apply
from cakeparty.core.games.cake_of_doom.flow import new_state as _new_state
from cakeparty.core.games.cake_of_doom.flow import outcome as _outcome
from cakeparty.core.games.cake_of_doom.legal import legal_actions as _legal_actions
from cakeparty.core.games.cake_of_doom.search import cutoff as _cutoff
from cakeparty.core.games.cake_of_doom.search import search_moves as _search_moves
from cakeparty.core.games.cake_of_doom.search import settings as _settings
from cakeparty.core.games.cake_of_doom.state import GAME, DoomOptions, DoomState, Phase
from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.games.cake_of_doom.view import view as _view
from cakeparty.core.games.cake_of_doom.worlds import determinize as _determinize
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

__all__ = [
    "GAME",
    "PASS",
    "Abduct",
    "Bribe",
    "CakeOfDoom",
    "ChooseMix",
    "Discard",
    "DoomOptions",
    "DoomState",
    "DoomView",
    "Draw",
    "ForceField",
    "Grab",
    "NoBribe",
    "NoForceField",
    "NoSabotage",
    "Peek",
    "Phase",
    "PickCard",
    "Remove",
    "Rob",
    "Sabotage",
]


class CakeOfDoom(Game):
    """The Cake of Doom spec."""

    name = GAME
    title = N_("Cake of Doom")
    stat_words: Mapping[str, str] = {
        "regions": N_("regions held at the end"),
        "bribes_won": N_("bribes won a game"),
        "sabotages": N_("sabotages a game"),
        "doom": N_("share of the games DOOM ended"),
    }
    ending_words: Mapping[str, str] = {"doom": N_("DOOM"), "regions": N_("regions")}
    players = (3, 4, 5, 6)
    bots: Mapping[str, Bot] = bots.BOTS

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> DoomState:
        return _new_state(DoomOptions.parse(players, options))

    def pending(self, state: DoomState) -> Request | None:
        return state.pending

    def to_act(self, state: DoomState) -> tuple[int, ...]:
        return state.to_act

    def legal_actions(self, state: DoomState, seat: int) -> list[Action]:
        return _legal_actions(state, seat)

    def apply(self, state: DoomState, action: Action, seat: int | None) -> DoomState:
        return _apply(state, action, seat)

    def view(self, state: DoomState, seat: int | None) -> DoomView:
        return _view(state, seat)

    def outcome(self, state: DoomState) -> Outcome | None:
        return _outcome(state)

    def knowledge(self, state: DoomState) -> Knowledge:
        return state.knowledge

    def box(self, state: DoomState) -> tuple[str, ...]:
        return state.box

    def determinize(self, view: DoomView, rng: random.Random) -> World | None:
        return _determinize(view, rng)

    def rollout_bot(self) -> Bot | None:
        return bots.BOTS["normal"]

    def cutoff(self, start: DoomState, state: DoomState) -> Sequence[float] | None:
        """A walk is judged a few turns after the one it began in (see :mod:`.search`)."""
        return _cutoff(start, state)

    def search_moves(self, view: DoomView) -> list[Action] | None:
        return _search_moves(view)

    def search_settings(self, view: DoomView) -> Mapping[str, Any]:
        return _settings(view)

    def stats(self, state: DoomState) -> dict[str, tuple[float, ...]]:
        """Per seat: regions held at the end, bribes won, sabotages played; ``doom`` is 1.0
        for every seat when DOOM ended the game (so its mean is the share of such games)."""
        seats = range(state.players)
        ended_by_doom = 1.0 if state.doom is not None else 0.0
        return {
            "regions": tuple(float(len(state.regions_of(s))) for s in seats),
            "bribes_won": tuple(float(n) for n in state.bribes_won),
            "sabotages": tuple(float(n) for n in state.sabotages_played),
            "doom": tuple(ended_by_doom for _ in seats),
        }


CAKE_OF_DOOM = register_game(CakeOfDoom())

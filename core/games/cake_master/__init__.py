"""Cake Master: a drafting game for 1 to 6 players.

Each turn every player receives cake cards, passes two of them to the neighbours and
places the rest on three cakes; every pass and every placement is a sealed, simultaneous
choice. Tasty cakes and cakes that please customers earn stars over 3 rounds. Two players
pass by keeping one card and giving two, then keeping one and giving one back; solo, the
player meets as many customers as possible with 4 cards a turn and 3 exchanges a game.

Choices the printed rules leave open, as this engine plays them:

* The left neighbour is the next seat (``seat + 1``), the right neighbour the previous one.
* Each turn asks one sealed choice per seat to pass (two players: two, keep-and-give twice)
  and one to place: a placement names all three cards with their cakes and quarters
  (:class:`Place`), so a seat's turn is never seen half done. Solo, the card left out of
  the placement is the one discarded.
* Solo: an exchange (:class:`Exchange`, any number of cards) is a choice of the place
  step; each counts once against the 3 of the game, and a turn may hold several. Exchanged
  cards go to the discard pile.
* Every round gathers and reshuffles all 72 cake cards, solo too [printed]. A deck that
  runs short mid-round takes back the discard pile, shuffled (72 cards are enough for a
  round at any table, so it is a safeguard).
* The customer deck is shuffled once a game; customers are face up once drawn.
* A seat proven to have broken a rule (``Forfeited``) ends the game and cannot win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.game import Bot, Game, Outcome, World, register_game
from cakeparty.core.games.cake_master import bots
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.flow import apply as _apply
from cakeparty.core.games.cake_master.flow import new_state as _new_state
from cakeparty.core.games.cake_master.flow import outcome as _outcome
from cakeparty.core.games.cake_master.flow import rating
from cakeparty.core.games.cake_master.legal import legal_actions as _legal_actions
from cakeparty.core.games.cake_master.legal import to_act as _to_act
from cakeparty.core.games.cake_master.search import cutoff as _cutoff
from cakeparty.core.games.cake_master.search import rollout_bot as _rollout_bot
from cakeparty.core.games.cake_master.search import search_moves as _search_moves
from cakeparty.core.games.cake_master.search import search_settings as _search_settings
from cakeparty.core.games.cake_master.state import GAME, MasterOptions, MasterState, Phase
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.games.cake_master.view import view as _view
from cakeparty.core.games.cake_master.worlds import determinize as _determinize
from cakeparty.core.i18n import N_
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

__all__ = [
    "GAME",
    "CakeMaster",
    "Exchange",
    "Keep",
    "MasterOptions",
    "MasterState",
    "MasterView",
    "PassCards",
    "Phase",
    "Place",
    "rating",
]


class CakeMaster(Game):
    """The Cake Master spec."""

    name = GAME
    title = N_("Cake Master")
    stat_words: Mapping[str, str] = {
        "customers_met": N_("customers met a game"),
        "taste": N_("taste points a game"),
    }
    ending_words: Mapping[str, str] = {
        "stars": N_("stars"),
        "apprentice": N_("rating Apprentice"),
        "baker": N_("rating Baker"),
        "cake-master": N_("rating Cake Master"),
    }
    players = (1, 2, 3, 4, 5, 6)
    bots: Mapping[str, Bot] = {"random": bots.random_bot, "normal": bots.normal_bot}

    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> MasterState:
        return _new_state(MasterOptions.parse(players, options))

    def pending(self, state: MasterState) -> Request | None:
        return state.pending

    def to_act(self, state: MasterState) -> tuple[int, ...]:
        return _to_act(state)

    def legal_actions(self, state: MasterState, seat: int) -> list[Action]:
        return _legal_actions(state, seat)

    def apply(self, state: MasterState, action: Action, seat: int | None) -> MasterState:
        return _apply(state, action, seat)

    def view(self, state: MasterState, seat: int | None) -> MasterView:
        return _view(state, seat)

    def outcome(self, state: MasterState) -> Outcome | None:
        return _outcome(state)

    def knowledge(self, state: MasterState) -> Knowledge:
        return state.knowledge

    def box(self, state: MasterState) -> tuple[str, ...]:
        return state.box

    def determinize(self, view: MasterView, rng: random.Random) -> World | None:
        return _determinize(view, rng)

    def cutoff(self, start: MasterState, state: MasterState) -> list[float] | None:
        return _cutoff(start, state)

    def rollout_bot(self) -> Bot:
        return _rollout_bot

    def search_moves(self, view: MasterView) -> list[Action] | None:
        return _search_moves(view)

    def search_settings(self, view: MasterView) -> Mapping[str, Any]:
        return _search_settings(view)

    def stats(self, state: MasterState) -> dict[str, tuple[float, ...]]:
        """Per seat: customers met and taste points over the game."""
        met = [0] * state.players
        tasted = [0] * state.players
        for result in state.results:
            for seat, score in enumerate(result.seats):
                met[seat] += len(score.matches)
                tasted[seat] += score.taste
        out: dict[str, tuple[float, ...]] = {"customers_met": tuple(float(m) for m in met)}
        if not state.options.solo:
            out["taste"] = tuple(float(t) for t in tasted)
        return out


CAKE_MASTER = register_game(CakeMaster())

"""The contract every game implements, and the functions that dispatch to it."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.errors import CakePartyError, IllegalActionError, SeatError
from cakeparty.core.i18n import N_, _
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Request

#: A bot is a pure function of what its seat sees and a random source.
Bot = Callable[[Any, random.Random], Action]


@dataclass(frozen=True)
class World:
    """One complete game consistent with what a seat has seen: a state, and the identity
    of every slot (what a :class:`~cakeparty.core.dealer.LocalDealer` would hold)."""

    state: Any
    truth: tuple[str, ...]


#: Seconds a searching bot thinks per decision unless told otherwise.
DEFAULT_THINK = 1.0
#: The most seconds a strong bot may be given per decision.
MOST_THINK = 60.0


def think_seconds(text: str) -> float:
    """Seconds a strong bot thinks per decision, read from ``text``: more than 0, at most
    :data:`MOST_THINK`; a :class:`ValueError` says why not."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise ValueError(_("{text!r} is not a number of seconds").format(text=text))
    if not 0 < value <= MOST_THINK:
        raise ValueError(
            _("the thinking time is more than 0 s and at most {most} s, not {value}").format(
                most=int(MOST_THINK), value=text
            )
        )
    return value


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the one source of truth for it."""

    winners: tuple[int, ...]  # seats
    reason: str
    scores: tuple[int, ...]  # per seat, in the game's own unit (trophies, points …)
    shared: bool = False  # several winners who are not one team


#: the ways any game may end, in a simulation's words
ENDING_WORDS: Mapping[str, str] = {"forfeit": N_("a forfeit"), "cheated": N_("a cheat")}


def stat_words(game: Game, key: str) -> str:
    """A simulation's words for ``game``'s own figure ``key`` (the key where it has none)."""
    words = game.stat_words.get(key)
    return _(words) if words else key


def ending_words(game: Game, reason: str) -> str:
    """A simulation's words for the way a game of ``game`` ended (``reason`` where it has
    none)."""
    words = game.ending_words.get(reason) or ENDING_WORDS.get(reason)
    return _(words) if words else reason


class Game(ABC):
    """A game as a spec: setup, who acts, legal actions, apply, views, outcome."""

    name: str = ""
    title: str = ""
    players: tuple[int, ...] = ()
    bots: Mapping[str, Bot] = {}
    #: a simulation's words (marked with ``N_``, translated when shown) for the game's own
    #: figures, by :meth:`stats` key, and for the ways its games end, by an outcome's
    #: ``reason`` (a forfeit and a cheat are every game's: :data:`ENDING_WORDS`)
    stat_words: Mapping[str, str] = {}
    ending_words: Mapping[str, str] = {}

    @abstractmethod
    def new_state(self, players: int, options: Mapping[str, Any] | None = None) -> Any:
        """A fresh game, before anything is shuffled or dealt."""

    @abstractmethod
    def pending(self, state: Any) -> Request | None:
        """The request the state waits on, if any."""

    @abstractmethod
    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats that may act now."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Every action ``seat`` may make now, from what that seat knows."""

    @abstractmethod
    def apply(self, state: Any, action: Action, seat: int | None) -> Any:
        """The state after ``seat`` (``None``: the dealer) makes ``action``."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def knowledge(self, state: Any) -> Knowledge:
        """The identities of every slot as far as this state knows them."""

    @abstractmethod
    def box(self, state: Any) -> tuple[str, ...]:
        """Every slot's card as it comes out of the box (before any shuffle)."""

    # -- figures for simulations (optional) ------------------------------------------------

    def stats(self, state: Any) -> Mapping[str, Sequence[float]]:
        """A finished game's own figures, one number per seat (say, customers met), which a
        simulation averages per bot; none by default."""
        return {}

    # -- worlds for search (optional) ------------------------------------------------------

    def determinize(self, view: Any, rng: random.Random) -> World | None:
        """A complete world drawn at random among those consistent with ``view`` (what one
        seat sees), reading nothing but ``view`` and ``rng``: ``self.view(world.state, seat)
        == view`` and every identity the state knows agrees with ``world.truth``. ``None``:
        this game cannot be searched."""
        return None

    def rollout_bot(self) -> Bot | None:
        """The policy a search plays the rest of a walk with, for every seat: quick and
        sensible beats slow and wise, since a search makes many walks. Default: the game's
        ``normal`` bot."""
        return self.bots.get("normal")

    def prior_bot(self) -> Bot | None:
        """The bot whose move a search keeps unless another move beats it by more than the
        noise of its walks (and makes when no walk finishes). Default: the game's ``normal``
        bot."""
        return self.bots.get("normal")

    def cutoff(self, start: Any, state: Any) -> Sequence[float] | None:
        """A walk of a search that began at ``start`` has reached ``state``: when the game
        can judge it from here, each seat's expected reward (between 0, a sure loss, and 1,
        a sure win), which ends the walk; ``None`` to play on. Default: play to the end."""
        return None

    def search_moves(self, view: Any) -> Sequence[Action] | None:
        """The moves of ``view``'s seat worth searching, when the legal ones are too many
        for a search to tell apart (say the best few by the game's own judgement); none:
        only the prior bot's move, where walks cannot judge a choice; ``None``: every legal
        move. The prior bot's move (:meth:`prior_bot`) is weighed too."""
        return None

    def search_settings(self, view: Any) -> Mapping[str, Any]:
        """The search's settings this game prefers for the decision of ``view`` (fields of
        :class:`cakeparty.core.search.Budget`, say by the number of seats); none by
        default."""
        return {}

    # -- a breach a witness can prove (optional) -----------------------------------------

    def witnesses(
        self, state: Any, seat: int, action: Action
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Who can check ``seat``'s ``action`` in ``state`` at once with hidden cards they
        know, and which slots that takes: ``(seats, slots)``, empty when nobody can.

        Public facts only (who knows which slot), so every peer agrees; a networked room
        asks each witness whether it accuses, and ends the game on a proven breach.
        """
        return (), ()

    def breach(self, state: Any, seat: int, action: Action, cards: Mapping[int, str]) -> str | None:
        """Why ``action`` by ``seat`` in ``state`` breaks a rule given the identities
        ``cards`` of the slots :meth:`witnesses` named, or ``None`` if it does not."""
        return None


_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` known by its name."""
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The game called ``name``; a clear error naming the known games otherwise."""
    from cakeparty.core import games  # noqa: F401  (registers every game)

    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise CakePartyError(f"unknown game {name!r} (known: {known})") from None


def game_names() -> tuple[str, ...]:
    """The names of every game available."""
    from cakeparty.core import games  # noqa: F401

    return tuple(_GAMES)


def game_of(state: Any) -> Game:
    """The game a state belongs to."""
    return get_game(state.GAME)


def check_seat(state: Any, seat: int | None, *, spectator: bool = False) -> None:
    """Raise :class:`SeatError` unless ``seat`` sits at ``state``'s table (``None``, a
    spectator, is allowed where ``spectator`` says so)."""
    if seat is None and spectator:
        return
    players = getattr(state, "players", None)
    if not isinstance(players, int):
        return  # a game whose state does not count its seats checks them itself
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SeatError(seat, players)


def to_act(state: Any) -> tuple[int, ...]:
    """The seats that may act in ``state``."""
    return game_of(state).to_act(state)


def pending(state: Any) -> Request | None:
    """The request ``state`` waits on."""
    return game_of(state).pending(state)


def legal_actions(state: Any, seat: int) -> list[Action]:
    """Every action ``seat`` may make in ``state``."""
    check_seat(state, seat)
    return game_of(state).legal_actions(state, seat)


def apply(state: Any, action: Action, seat: int | None = None) -> Any:
    """The state after ``action``. ``seat`` may be left out when one seat is to act."""
    game = game_of(state)
    if seat is not None:
        check_seat(state, seat)
    if seat is None and game.pending(state) is None:
        acting = game.to_act(state)
        if len(acting) != 1:
            raise IllegalActionError(None, action, "say which seat acts")
        seat = acting[0]
    return game.apply(state, action, seat)


def view(state: Any, seat: int | None) -> Any:
    """What ``seat`` may see of ``state``."""
    check_seat(state, seat, spectator=True)
    return game_of(state).view(state, seat)


def outcome(state: Any) -> Outcome | None:
    """How ``state``'s game ended, if it has."""
    return game_of(state).outcome(state)


#: The bot levels every game offers, weakest first; ``strong`` only where the game can be
#: searched (:meth:`Game.determinize`).
SEARCH_LEVEL = "strong"


def bot_levels(game: Game) -> tuple[str, ...]:
    """The bot levels ``game`` offers, weakest first."""
    levels = tuple(game.bots)
    if type(game).determinize is not Game.determinize and SEARCH_LEVEL not in levels:
        levels += (SEARCH_LEVEL,)
    return levels


def make_bot(
    game: Game,
    level: str,
    think: float | None = None,
    clock: Callable[[], float] | None = None,
) -> Bot:
    """The bot of ``level`` for ``game``; ``think``: seconds per decision for a bot that
    searches (default :data:`DEFAULT_THINK`), read on ``clock`` (default: the wall clock;
    a simulation gives the thread's CPU time, so a busy machine measures the same bot).
    A clear error for a level it does not offer."""
    if level in game.bots:
        return game.bots[level]
    if level == SEARCH_LEVEL and SEARCH_LEVEL in bot_levels(game):
        from cakeparty.core.search import strong_bot

        return strong_bot(game, DEFAULT_THINK if think is None else think, clock=clock)
    known = ", ".join(bot_levels(game))
    raise CakePartyError(f"no bot level {level!r} for {game.name} (known: {known})")

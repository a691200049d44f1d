"""A local table: the match, who sits in each seat (people or bots) and its story so far.

Everything a local game screen needs that is not drawing: whose turn it is, whether that
seat is a bot, what a bot chooses, which choices are forced, and the events as they
happen. Any registered game is played this way; what is the game's own (its story, the
decisions the app makes for a person) comes from its registration. No UI library here,
so it is tested headless.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from cakeparty.core import Action, Bot, IllegalActionError, Match, Outcome, get_game, new_match
from cakeparty.core.game import DEFAULT_THINK, SEARCH_LEVEL, bot_levels, make_bot
from cakeparty.core.i18n import _
from cakeparty.tui.table import registration
from cakeparty.tui.table.story import Story

#: Bots' names, by seat: a cake-themed table.
BOT_NAMES = ("Muffin", "Eclair", "Brownie", "Crumble", "Macaron", "Strudel")


@dataclass(frozen=True)
class GameSetup:
    """How to start a local game.

    ``game`` blank is the first registered game, ``players`` 0 its usual count;
    ``options`` (a mapping or pairs) is completed with the game's defaults (an option that
    is not for that many players takes its default), so two setups of the same choices are
    equal however they were written.
    """

    game: str = ""
    players: int = 0
    bots: str = "normal"  # the bots' level
    think: float = DEFAULT_THINK  # seconds a strong bot thinks per decision
    options: Any = ()  # the game's options: ((key, value), …) in the game's order
    seed: int | None = None  # None: a fresh random seed
    hotseat: bool = False  # every seat a person at this keyboard
    names: tuple[str, ...] = ()  # hot-seat: the people's names by seat (blank: the default)

    def __post_init__(self) -> None:
        table = registration.lookup(self.game) if self.game else registration.registered()[0]
        object.__setattr__(self, "game", table.name)
        if not self.players:
            object.__setattr__(self, "players", table.usual())
        object.__setattr__(self, "options", table.complete(self.options, self.players))

    @property
    def table(self) -> registration.TableGame:
        return registration.lookup(self.game)

    @property
    def rule_options(self) -> dict[str, Any]:
        """The game's options as its rules read them."""
        return self.table.rule_options(self.options)

    def option(self, key: str) -> Any:
        return dict(self.options).get(key)


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a name, and the bot level if a bot plays it."""

    name: str
    bot: str | None = None


def seats_for(setup: GameSetup, player: str) -> tuple[Seat, ...]:
    """The seats of ``setup``: the player in seat 0, then bots or other people."""
    given = [n.strip() for n in setup.names] if setup.hotseat else []
    if given and given[0]:
        player = given[0]
    seats = [Seat(player)]
    bots = iter(n for n in BOT_NAMES if n != player)
    for seat in range(1, setup.players):
        if setup.hotseat:
            name = given[seat] if seat < len(given) else ""
            seats.append(Seat(name or _("Player {n}").format(n=seat + 1)))
        else:
            seats.append(Seat(next(bots), setup.bots))
    return tuple(seats)


class LocalTable:
    """A game played at this computer: people and bots around one local dealer."""

    def __init__(
        self, setup: GameSetup, player: str = "Player", bots: Mapping[str, Bot] | None = None
    ) -> None:
        """``bots``: the bot levels to choose from (default: the game's own, strong
        included where the game can be searched)."""
        self.table = registration.lookup(setup.game)
        game = get_game(setup.game)
        self.bots: Mapping[str, Bot] = game.bots if bots is None else bots
        self.levels = bot_levels(game) if bots is None else tuple(bots)
        self._made: dict[str, Bot] = {} if bots is None else dict(bots)
        if not setup.hotseat and setup.bots not in self.levels:
            raise ValueError(
                _("no bot level called {level} (choose from {levels})").format(
                    level=setup.bots, levels=", ".join(_(level) for level in self.levels)
                )
            )
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        self.setup = replace(setup, seed=seed)
        self.options: dict[str, Any] = setup.rule_options
        self.match: Match = new_match(
            setup.game, players=setup.players, seed=seed, options=self.options
        )
        self.game = game
        self.player = player
        self.seats = seats_for(setup, player)
        self.names = tuple(s.name for s in self.seats)
        #: every seat's moves so far, in order (what replays the game from its seed)
        self.moves: list[tuple[int, Action]] = []
        #: called after each move (:func:`cakeparty.tui.table.kept.keep` writes the game)
        self.keeper: Callable[[LocalTable], None] | None = None
        self.bot_rng = random.Random(seed ^ 0x5EED)
        self._story = self._new_story()
        self.story: list[Any] = []
        self.catch_up()

    # -- reading -----------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.bot is None)

    @property
    def hotseat(self) -> bool:
        return self.setup.hotseat

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].bot is not None

    shown_as_bot = is_bot

    def away(self, seat: int) -> bool:
        """Is the player of ``seat`` gone from the table? Never, at one computer."""
        return False

    def past_moves(self) -> Iterator[tuple[int, Action, LocalTable]]:
        """The people's moves so far, each with the table as it stood before it (dealt
        again from the same seed); not those the app made for them (:meth:`forced`)."""
        if not self.moves:
            return
        again = LocalTable(self.setup, self.player)
        humans = set(self.humans)
        for seat, action in self.moves:
            if seat in humans and action != again.forced(seat):
                yield seat, action, again
            again.act(seat, action)

    @property
    def to_act(self) -> int | None:
        """The seat to act now, or ``None`` (the game is over)."""
        acting = self.match.to_act
        return acting[0] if acting else None

    def view(self, seat: int | None) -> Any:
        return self.match.view(seat)

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    def legal(self, seat: int) -> tuple[Action, ...]:
        return tuple(self.match.legal_actions(seat))

    # -- acting ------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> list[Any]:
        """``seat`` makes ``action``; the new entries of the story."""
        if action not in self.match.legal_actions(seat):
            raise IllegalActionError(seat, action, _("not a legal choice now"))
        self.match.apply(action, seat)
        self.moves.append((seat, action))
        entries = self.catch_up()
        if self.keeper is not None:
            self.keeper(self)
        return entries

    def thinks(self, seat: int) -> bool:
        """Does the bot in ``seat`` search (and so take its time over each decision)?"""
        return self.seats[seat].bot == SEARCH_LEVEL

    def bot_choice(self, seat: int) -> Action:
        """What the bot in ``seat`` does now (pure: the view and the bots' random source)."""
        level = self.seats[seat].bot
        assert level is not None
        if level not in self._made:
            self._made[level] = make_bot(self.game, level, self.setup.think)
        return self._made[level](self.view(seat), self.bot_rng)

    def forced(self, seat: int) -> Action | None:
        """An action a person need not choose: the game's bookkeeping that the app makes
        for them (its registration says which)."""
        if self.table.forced is None:
            return None
        forced: Action | None = self.table.forced(self.match.legal_actions(seat))
        return forced

    def _new_story(self, dealer: Any = None) -> Story:
        assert self.table.story is not None, "a registered game tells its story"
        story: Story = self.table.story(self.game, self.players, self.options, dealer)
        return story

    def catch_up(self) -> list[Any]:
        entries = self._story.follow(self.match.history)
        self.story.extend(entries)
        return entries

    # -- after the game -----------------------------------------------------------------

    def replay(self) -> list[Any]:
        """The whole game again, with the real cards of every facedown play."""
        return self._new_story(self.match.dealer).follow(self.match.history)

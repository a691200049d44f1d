"""A local game: the match, who sits in each seat (people or bots) and its story so far.

Everything a local game screen needs that is not drawing: whose turn it is, whether that
seat is a bot, what a bot chooses, which choices are forced, and the events as they
happen. No UI library here, so it is tested headless.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from cakeparty.core import Action, Bot, IllegalActionError, Match, Outcome, get_game, new_match
from cakeparty.core.games.cake_duel.actions import Declare, KeepHidden, Taunt
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.i18n import _
from cakeparty.tui.chronicle import Chronicle, Entry

#: Bots' names, by seat: a cake-themed table.
BOT_NAMES = ("Muffin", "Eclair", "Brownie", "Crumble")
PLAYABLE = ("cake-duel",)


@dataclass(frozen=True)
class GameSetup:
    """How to start a local game."""

    game: str = "cake-duel"
    players: int = 2
    bots: str = "normal"  # the bots' level
    full: bool = True  # the full game, with hidden specials
    tournament: bool = False  # best of five duels; revealing Sir Wolfy is optional
    show_specials: bool = False  # the rules' learning option: the specials drawn are shown
    seed: int | None = None  # None: a fresh random seed
    hotseat: bool = False  # every seat a person at this keyboard
    names: tuple[str, ...] = ()  # hot-seat: the people's names by seat (blank: the default)

    @property
    def options(self) -> dict[str, Any]:
        """The game's options as its rules read them (only those set, besides the deck)."""
        options: dict[str, Any] = {"full": self.full}
        if self.tournament:
            options["tournament"] = True
        if self.show_specials:
            options["show_specials"] = True
        return options


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


class LocalDuel:
    """A Cake Duel played at this computer: people and bots around one local dealer."""

    def __init__(
        self, setup: GameSetup, player: str = "Player", bots: Mapping[str, Bot] | None = None
    ) -> None:
        """``bots``: the bot levels to choose from (default: the game's own)."""
        if setup.game not in PLAYABLE:
            raise ValueError(_("{game} cannot be played here yet").format(game=setup.game))
        game = get_game(setup.game)
        self.bots: Mapping[str, Bot] = game.bots if bots is None else bots
        if not setup.hotseat and setup.bots not in self.bots:
            raise ValueError(_("no bot level called {level}").format(level=setup.bots))
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        self.setup = replace(setup, seed=seed)
        self.options: dict[str, Any] = setup.options
        self.match: Match = new_match(
            setup.game, players=setup.players, seed=seed, options=self.options
        )
        self.game = game
        self.seats = seats_for(setup, player)
        self.names = tuple(s.name for s in self.seats)
        self.bot_rng = random.Random(seed ^ 0x5EED)
        self._chronicle = Chronicle(game, setup.players, self.options)
        self.story: list[Entry] = []
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

    def away(self, seat: int) -> bool:
        """Is the player of ``seat`` gone from the table? Never, at one computer."""
        return False

    @property
    def to_act(self) -> int | None:
        """The seat to act now, or ``None`` (the duel is over)."""
        acting = self.match.to_act
        return acting[0] if acting else None

    def view(self, seat: int | None) -> DuelView:
        view: DuelView = self.match.view(seat)
        return view

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome

    @property
    def over(self) -> bool:
        return self.match.outcome is not None

    def legal(self, seat: int) -> tuple[Action, ...]:
        return tuple(self.match.legal_actions(seat))

    # -- acting ------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> list[Entry]:
        """``seat`` makes ``action``; the new entries of the story."""
        if action not in self.match.legal_actions(seat):
            raise IllegalActionError(seat, action, _("not a legal choice now"))
        self.match.apply(action, seat)
        return self.catch_up()

    def bot_choice(self, seat: int) -> Action:
        """What the bot in ``seat`` does now (pure: the view and the bots' random source)."""
        level = self.seats[seat].bot
        assert level is not None
        return self.bots[level](self.view(seat), self.bot_rng)

    def forced(self, seat: int) -> Action | None:
        """An action a person need not choose: a Summoner count their hand already shows, or
        the end-of-turn Sir Wolfy reveal (or none) that the rules make for them."""
        legal = self.match.legal_actions(seat)
        if len(legal) == 1 and isinstance(legal[0], Declare | Taunt | KeepHidden):
            return legal[0]
        return None

    def catch_up(self) -> list[Entry]:
        entries = self._chronicle.follow(self.match.history)
        self.story.extend(entries)
        return entries

    # -- after the duel ----------------------------------------------------------------

    def replay(self) -> list[Entry]:
        """The whole duel again, with the real cards of every facedown play."""
        chronicle = Chronicle(self.game, self.players, self.options, self.match.dealer)
        return chronicle.follow(self.match.history)

"""What the app knows of a game beyond its rules: its screen, player counts and options.

A game's screen package (``tui/games/<game>/``) describes itself with one
:class:`TableGame`; ``tui/games/__init__.py`` lists them, one line per game. Everything
else — the menu, the command line, the host's form, the lobby — reads these records, so
none of it names a game. No UI library is imported here: the headless commands read the
options and player counts without loading Textual, and the screens are built through
factories that import them when a game starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core.i18n import _, ngettext


@dataclass(frozen=True)
class Choice:
    """One value of an option: what the form says, what the lobby says, its flag."""

    value: Any
    label: str  # in the setup forms (marked with N_, translated when shown)
    summary: str | None = None  # in the lobby's options; None: not mentioned there
    flag: str | None = None  # the command-line flag that chooses it ("--core")
    help: str = ""  # that flag's help


@dataclass(frozen=True)
class GameOption:
    """A rule option of a game: its key in the rules' options, and its choices."""

    key: str
    label: str  # the form's line label
    choices: tuple[Choice, ...]
    default: Any
    always: bool = False  # sent to the rules even when it is the default
    #: the player counts it is for (empty: every count); at another count the forms hide
    #: its line and the game is set up with its default
    counts: tuple[int, ...] = ()

    def choice(self, value: Any) -> Choice | None:
        return next((c for c in self.choices if c.value == value), None)

    def applies(self, players: int) -> bool:
        """Whether the option means anything for ``players`` players."""
        return not self.counts or players in self.counts


@dataclass(frozen=True)
class PlayerCount:
    """A number of players a game allows, as the forms and the lobby call it."""

    count: int
    label: str  # in the forms ("4 — two teams")
    note: str | None = None  # a line in the lobby's options ("Team mode: …")
    local: bool = True  # offered for play at one computer
    networked: bool = True  # offered when hosting a room
    usual: bool = False  # the count offered first (none marked: the fewest)


#: Builds the screen of a local game: (setup, player name, bot delay, leave, keep) → a
#: Screen (the keywords of :class:`~cakeparty.tui.table.screen.TableScreen`).
LocalScreen = Callable[..., Any]
#: Builds the screen of a networked seat: (runner, bots, host, leave) → a Screen.
NetScreen = Callable[..., Any]


@dataclass(frozen=True)
class TableGame:
    """A game as the app offers it: name (the rules' name), counts, options, screens."""

    name: str
    counts: tuple[PlayerCount, ...]
    #: The title, marked with N_ (the rules' own title when blank): the menu shows it
    #: without loading the rules engine.
    label: str = ""
    #: What kind of game it is, marked with N_ ("bluffing"): the game picker says it.
    kind: str = ""
    options: tuple[GameOption, ...] = ()
    local_screen: LocalScreen | None = None
    net_screen: NetScreen | None = None
    #: Which actions a person never has to choose (the only legal one): a rule's
    #: bookkeeping the app makes for them. Given the legal actions; None: none is forced.
    forced: Callable[[Sequence[Any]], Any] | None = None
    #: The story of a game's public events: (core game, players, options, dealer) → a
    #: :class:`~cakeparty.tui.table.story.Story`.
    story: Callable[..., Any] | None = None
    #: What a seat decides now, in the game's words, for the others waiting on it:
    #: (public view, seat, names) → "Bob attacks: claim or pass". None: "Bob decides".
    describe_decision: Callable[[Any, int, Sequence[str]], str] | None = None
    #: The help screen's keys and card reference of the game, as the table's core options
    #: play it (None: options not known, the standard game's): (options) → (keys, a
    #: renderable). None: the help screen's own.
    help: Callable[[Any], tuple[Sequence[tuple[str, str]], Any]] | None = None
    #: A spectator's log: the story's entries as (style, text) lines, public words
    #: only: (entries, names) → lines. None: the spectator's log tells no events.
    watch_lines: Callable[[Sequence[Any], Sequence[str]], list[tuple[str, str]]] | None = None
    #: The face-up replay as (kind, text) lines: (entries, names, public view) → lines.
    #: None: a spectator sees the audit's verdict, and no replay.
    replay_lines: Callable[[Sequence[Any], Sequence[str], Any], list[tuple[str, str]]] | None = None
    #: A spectator's table: what lies on it and each seat's public facts, from the
    #: public view: (table, public view, width) → a Rich renderable of a few rows, where
    #: the table has ``names``, ``players``, ``is_bot(seat)`` and ``away(seat)``. None:
    #: a spectator sees the players and the log only.
    watch_board: Callable[[Any, Any, int], Any] | None = None

    # -- reading -----------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's title in the player's language."""
        if self.label:
            return _(self.label)
        from cakeparty.core.game import get_game

        return _(get_game(self.name).title) or self.name

    def players(self, *, networked: bool = False) -> tuple[int, ...]:
        return tuple(c.count for c in self.counts if (c.networked if networked else c.local))

    def players_words(self, *, networked: bool | None = None) -> str:
        """How many may play, in words: "2–6 players", "2 or 4 players" (at one computer,
        in a room when ``networked``; None: either)."""
        if networked is None:
            offered = sorted({c.count for c in self.counts})
        else:
            offered = sorted(set(self.players(networked=networked)))
        return count_words(offered)

    def usual(self, *, networked: bool = False) -> int:
        """The count the forms and ``--players`` start from: the one the game marks usual,
        else its fewest (of those offered here, or in a room when ``networked``)."""
        offered = self.players(networked=networked) or self.players()
        marked = [c.count for c in self.counts if c.usual and c.count in offered]
        return marked[0] if marked else offered[0]

    def count(self, players: int) -> PlayerCount | None:
        return next((c for c in self.counts if c.count == players), None)

    def option(self, key: str) -> GameOption | None:
        return next((o for o in self.options if o.key == key), None)

    def defaults(self) -> dict[str, Any]:
        return {o.key: o.default for o in self.options}

    def complete(
        self, chosen: Mapping[str, Any] | Sequence[tuple[str, Any]], players: int | None = None
    ) -> tuple[tuple[str, Any], ...]:
        """Every option of this game, in its order: the ones ``chosen``, the defaults else
        (and for ``players`` players, the default of an option that is not for that many).
        An option the game does not have is an error."""
        given = dict(chosen)
        unknown = set(given) - {o.key for o in self.options}
        if unknown:
            raise ValueError(
                _("{game} has no option {option}").format(
                    game=self.name, option=", ".join(sorted(unknown))
                )
            )
        return tuple(
            (
                o.key,
                given.get(o.key, o.default) if players is None or o.applies(players) else o.default,
            )
            for o in self.options
        )

    def rule_options(self, chosen: Mapping[str, Any] | Sequence[tuple[str, Any]]) -> dict[str, Any]:
        """The options as the rules read them: those set away from their default, and
        those the game always states."""
        out: dict[str, Any] = {}
        for key, value in self.complete(chosen):
            option = self.option(key)
            assert option is not None
            if option.always or value != option.default:
                out[key] = value
        return out

    def summary(self, players: int, options: Mapping[str, Any]) -> list[str]:
        """The lobby's lines about the players and the options chosen."""
        lines = []
        count = self.count(players)
        if count is not None and count.note:
            lines.append(_(count.note))
        said = []
        for option in self.options:
            if not option.applies(players):
                continue
            choice = option.choice(options.get(option.key, option.default))
            if choice is not None and choice.summary:
                said.append(_(choice.summary))
        if said:
            lines.append(" · ".join(said))
        return lines


def count_words(counts: Sequence[int]) -> str:
    """Numbers of players in words: "3 players", "2–6 players" (a run of three or more),
    "2 or 4 players"; blank for none."""
    if not counts:
        return ""
    if len(counts) == 1:
        return ngettext("{n} player", "{n} players", counts[0]).format(n=counts[0])
    low, high = counts[0], counts[-1]
    if len(counts) > 2 and list(counts) == list(range(low, high + 1)):
        return _("{low}–{high} players").format(low=low, high=high)
    some = ", ".join(str(c) for c in counts[:-1])
    return _("{some} or {last} players").format(some=some, last=high)


# -- the registry ------------------------------------------------------------------------


def registered() -> tuple[TableGame, ...]:
    """Every game the app has a screen for, in the menu's order."""
    from cakeparty.tui.games import GAMES

    return GAMES


def table_names() -> tuple[str, ...]:
    return tuple(g.name for g in registered())


def find(name: str) -> TableGame | None:
    """The registration of ``name``; ``None`` for a game with rules but no screen."""
    return next((g for g in registered() if g.name == name), None)


def game_title(name: str) -> str:
    """The title of game ``name`` in the player's language: its registration's, else its
    rules' (a game with rules but no screen), else the name itself."""
    found = find(name)
    if found is not None:
        return found.title
    from cakeparty.core.game import get_game

    try:
        return _(get_game(name).title) or name
    except Exception:  # no such game here: a peer's advert may name any
        return name


def lookup(name: str) -> TableGame:
    """The registration of ``name``, or a clear error saying which games can be played."""
    found = find(name)
    if found is None:
        raise ValueError(
            _("{game} cannot be played here yet; try: {games}").format(
                game=name, games=", ".join(table_names())
            )
        )
    return found


def bare(name: str) -> TableGame:
    """A game with rules but no screen package: its counts from the rules, no options
    (enough for the headless commands)."""
    from cakeparty.core.game import get_game

    counts = tuple(PlayerCount(n, str(n)) for n in get_game(name).players)
    return TableGame(name=name, counts=counts)


def any_game(name: str) -> TableGame:
    """The registration of ``name``, or its bare description when it has no screen."""
    return find(name) or bare(name)

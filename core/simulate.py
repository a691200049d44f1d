"""Headless games between bots, for statistics and for testing bots against each other.

Pure but for clocks: the caller times the whole run; a bot that searches (``strong``) thinks
for a budget of the thread's CPU time (:func:`time.thread_time`, so a busy machine measures
the same bot) and is timed per decision on the wall clock (what a player would wait).
Bots swap seats from one game to the next, so neither side keeps the advantage of a seat.
"""

from __future__ import annotations

import random
import statistics
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cakeparty.core.errors import CakePartyError
from cakeparty.core.game import (
    SEARCH_LEVEL,
    Bot,
    Game,
    Outcome,
    bot_levels,
    ending_words,
    get_game,
    make_bot,
    stat_words,
    think_seconds,
)
from cakeparty.core.i18n import _, ngettext
from cakeparty.core.match import Match, new_match

#: the width the text summary keeps to (a terminal of 80 columns)
WIDTH = 79


class SimulationError(CakePartyError):
    """The simulation was asked for something impossible (unknown bot, bad count)."""


@dataclass
class Report:
    """What a batch of games came to."""

    game: str
    games: int
    labels: tuple[str, ...]  # one per bot given
    players: int = 0  # seats at each game's table
    wins: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)  # games by Outcome.reason
    shared: int = 0
    errors: int = 0
    bouts: int = 0
    turns: int = 0
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    # a game's own figures (Game.stats), summed per bot label, and how many seats they add
    sums: dict[str, dict[str, float]] = field(default_factory=dict)
    seats: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    # seconds of each decision of a searching bot (with more than one legal action)
    thinking: list[float] = field(default_factory=list)

    def decision_ms(self) -> dict[str, float]:
        """The median and 95th percentile milliseconds of a searching bot's decision."""
        if not self.thinking:
            return {}
        times = sorted(self.thinking)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        return {
            "strong_decisions": len(times),
            "strong_ms_median": round(1000 * statistics.median(times), 3),
            "strong_ms_p95": round(1000 * p95, 3),
        }

    def as_json(self) -> dict[str, Any]:
        played = max(1, self.games - self.errors)
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "wins": {label: self.wins[label] for label in self.labels},
            "shared": self.shared,
            "errors": self.errors,
            "endings": dict(sorted(self.endings.items())),
            "seconds": round(self.seconds, 3),
            "bouts_per_game": round(self.bouts / played, 3),
            "turns_per_game": round(self.turns / played, 3),
            **self.figures(),
            **self.decision_ms(),
            **self.extra,
        }

    def add(self, other: Report) -> None:
        """Count in the games of ``other``, a part of the same run (same game and bots)."""
        self.games += other.games
        self.wins.update(other.wins)
        self.endings.update(other.endings)
        self.shared += other.shared
        self.errors += other.errors
        self.bouts += other.bouts
        self.turns += other.turns
        self.seconds += other.seconds
        for key, sums in other.sums.items():
            mine = self.sums.setdefault(key, {})
            for label, number in sums.items():
                mine[label] = mine.get(label, 0.0) + number
        self.seats.update(other.seats)
        self.failures.extend(other.failures)
        self.thinking.extend(other.thinking)

    def figures(self) -> dict[str, dict[str, float]]:
        """The mean of each of the game's own figures per seat and game, by bot label."""
        return {
            f"{key}_per_game": {
                label: round(sums.get(label, 0.0) / self.seats[label], 3)
                for label in self.labels
                if self.seats[label]
            }
            for key, sums in self.sums.items()
        }

    def figure_lines(self) -> list[str]:
        """The game's own figures, one per bot, as lines of the summary: a figure of many
        seats wraps under its name, between one seat's mean and the next (a no-break space
        holds each together), not at the terminal's edge."""
        spec = get_game(self.game)
        lines = []
        for key, means in self.figures().items():
            shown = ", ".join(f"{label}\u00a0{mean}" for label, mean in means.items())
            figure = stat_words(spec, key.removesuffix("_per_game"))
            line = _("  {figure}: {means}").format(figure=figure, means=shown)
            wrapped = textwrap.fill(line, WIDTH, subsequent_indent="      ")
            lines.extend(wrapped.replace("\u00a0", " ").splitlines())
        return lines

    def summary(self) -> str:
        spec = get_game(self.game)
        lines = [
            ngettext(
                "{games} game of {game}, {players}, in {seconds:.1f} s",
                "{games} games of {game}, {players}, in {seconds:.1f} s",
                self.games,
            ).format(
                games=self.games,
                game=_(spec.title),
                players=ngettext("{n} player", "{n} players", self.players).format(n=self.players),
                seconds=self.seconds,
            )
        ]
        for label in self.labels:
            won = self.wins[label]
            lines.append(
                _("  {label:<14} {won:>6} wins  {pct:5.1f}%").format(
                    label=label, won=won, pct=100 * won / max(1, self.games)
                )
            )
        if self.shared:
            lines.append(_("  shared wins    {n:>6}").format(n=self.shared))
        lines.append(_("  errors         {n:>6}").format(n=self.errors))
        endings = {ending_words(spec, reason): n for reason, n in sorted(self.endings.items())}
        width = max(map(len, endings), default=0)  # the counts in one column
        for words, n in endings.items():
            lines.append(_("  ended by {reason:<14} {n:>6}").format(reason=words.ljust(width), n=n))
        lines.extend(self.figure_lines())
        timing = self.decision_ms()
        if timing:
            lines.append(
                _("  strong decisions {n}: median {median} ms, p95 {p95} ms").format(
                    n=timing["strong_decisions"],
                    median=timing["strong_ms_median"],
                    p95=timing["strong_ms_p95"],
                )
            )
        data = self.as_json()
        lines.append(
            _("  bouts per game {b}, turns per game {t}").format(
                b=data["bouts_per_game"], t=data["turns_per_game"]
            )
        )
        return "\n".join(lines)


def bot_budget(name: str, think: float | None) -> tuple[str, float | None]:
    """The level and thinking time of a bot named ``LEVEL`` or ``LEVEL@SECONDS`` (a
    searching bot with its own budget: ``strong@1`` against ``strong@0.1`` shows what more
    time buys); ``think`` where the name gives none."""
    level, at, seconds = name.partition("@")
    if not at:
        return name, think
    try:
        value = think_seconds(seconds)
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    if level != SEARCH_LEVEL:
        raise SimulationError(
            _("only the {level} bot thinks for a time: {name!r}").format(
                level=SEARCH_LEVEL, name=name
            )
        )
    return level, value


def default_bots(players: int) -> list[str]:
    """The bots ``simulate`` plays when none are named: the normal bot against the random
    one, one each for two players or two sides (four players), else the normal bot and a
    random one on every other seat."""
    if players in (1, 2, 4):
        return ["normal", "random"]
    return ["normal"] + ["random"] * (players - 1)


def labels_for(bots: Sequence[str]) -> tuple[str, ...]:
    """Keys for the wins table: the bot's name, or ``name#i`` when a name repeats."""
    counts = Counter(bots)
    return tuple(name if counts[name] == 1 else f"{name}#{i}" for i, name in enumerate(bots))


MatchFactory = Callable[[str, int, int, Mapping[str, Any]], Match]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: its dealer's and its bots'."""
    return seed * 1_000_003 + index


def seat_owners(index: int, bots: int, players: int, sides: int | None = None) -> list[int]:
    """Which of ``bots`` bots plays each of ``players`` seats in game ``index`` (one bot per
    side of ``sides``, default one per seat): the bots move round the seats from one game
    to the next."""
    shift = index % bots
    return [(seat % (sides or players) + shift) % bots for seat in range(players)]


def simulate(
    game: str,
    *,
    games: int,
    seed: int,
    bots: Sequence[str],
    players: int,
    options: Mapping[str, Any] | None = None,
    factory: MatchFactory | None = None,
    think: float | None = None,
    first: int = 0,
) -> Report:
    """Play ``games`` games; ``bots`` gives one bot per side (teams) or one per seat
    (``strong@SECONDS``: a searching bot with a budget of its own, :func:`bot_budget`);
    ``think``: seconds per decision of a searching bot (default: the app's); ``first``: the
    index of the first game (the games of a seed are numbered: a long run split in parts,
    each from its own first game, plays the same games)."""
    spec = get_game(game)
    if games < 1:
        raise SimulationError(_("the number of games must be at least 1"))
    levels = bot_levels(spec)
    budgets = {name: bot_budget(name, think) for name in bots}
    unknown = [b for b in bots if budgets[b][0] not in levels]
    if unknown or not bots:
        raise SimulationError(
            _("unknown bot {bot!r} for {game} (known: {known})").format(
                bot=unknown[0] if unknown else "", game=game, known=", ".join(levels)
            )
        )
    if len(bots) == 1 and players > 1:
        bots = list(bots) * 2
    sides = 2 if players == 4 and len(bots) == 2 else players
    # solo: each bot plays a game in turn
    if len(bots) != sides and players != 1:
        raise SimulationError(
            ngettext(
                "give one bot per side or per seat: {n} bot for {p} players",
                "give one bot per side or per seat: {n} bots for {p} players",
                len(bots),
            ).format(n=len(bots), p=players)
        )
    labels = labels_for(bots)
    report = Report(game=game, games=games, labels=labels, players=players)
    by_level = {name: _bot(spec, *budgets[name], report.thinking) for name in set(bots)}
    make = factory or (lambda g, p, s, o: new_match(g, players=p, seed=s, options=o))
    for index in range(first, first + games):
        seeded = game_seed(seed, index)
        owner = seat_owners(index, len(bots), players, sides)
        seat_bots: dict[int, Bot] = {seat: by_level[bots[owner[seat]]] for seat in range(players)}
        try:
            match = make(game, players, seeded, dict(options or {}))
            result: Outcome = match.play(seat_bots, random.Random(seeded))
        except CakePartyError as exc:
            report.errors += 1
            report.failures.append(f"game {index} (seed {seeded}): {exc}")
            continue
        report.endings[result.reason] += 1
        winners = {labels[owner[s]] for s in result.winners}
        if players == 1:
            pass  # a solo game has nobody to beat: its own figures tell how it went
        elif result.shared or len(winners) > 1:
            report.shared += 1
        else:
            report.wins[winners.pop()] += 1
        report.bouts += getattr(match.state, "bout", 1)
        report.turns += getattr(match.state, "turn", 0)
        _add_figures(report, spec.stats(match.state), [labels[owner[s]] for s in range(players)])
    return report


def _bot(spec: Game, level: str, think: float | None, times: list[float]) -> Bot:
    """The bot of ``level``; a searching bot records how long each real decision takes."""
    # the thinking budget is the thread's CPU time: other work on a busy machine does not
    # weaken the bot being measured
    bot = make_bot(spec, level, think, clock=time.thread_time)
    if level != SEARCH_LEVEL:
        return bot

    def timed(view: Any, rng: random.Random) -> Any:
        start = time.perf_counter()
        action = bot(view, rng)
        if len(view.legal) > 1:
            times.append(time.perf_counter() - start)
        return action

    return timed


def _add_figures(report: Report, figures: Mapping[str, Sequence[float]], owners: list[str]) -> None:
    """Add one game's own figures (one value per seat) to the sums of each seat's bot."""
    if not figures:
        return
    for label in owners:
        report.seats[label] += 1
    for key, values in figures.items():
        sums = report.sums.setdefault(key, {})
        for label, number in zip(owners, values, strict=True):
            sums[label] = sums.get(label, 0.0) + number

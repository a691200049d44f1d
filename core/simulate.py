"""Headless games between bots, for statistics and for testing bots against each other.

Pure: the caller times it. Bots swap seats from one game to the next, so neither side
keeps the advantage of a seat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cakeparty.core.errors import CakePartyError
from cakeparty.core.game import Bot, Outcome, get_game
from cakeparty.core.i18n import _, ngettext
from cakeparty.core.match import Match, new_match


class SimulationError(CakePartyError):
    """The simulation was asked for something impossible (unknown bot, bad count)."""


@dataclass
class Report:
    """What a batch of games came to."""

    game: str
    games: int
    labels: tuple[str, ...]  # one per bot given
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

    def as_json(self) -> dict[str, Any]:
        played = max(1, self.games - self.errors)
        return {
            "game": self.game,
            "games": self.games,
            "wins": {label: self.wins[label] for label in self.labels},
            "shared": self.shared,
            "errors": self.errors,
            "endings": dict(sorted(self.endings.items())),
            "seconds": round(self.seconds, 3),
            "bouts_per_game": round(self.bouts / played, 3),
            "turns_per_game": round(self.turns / played, 3),
            **self.figures(),
            **self.extra,
        }

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

    def summary(self) -> str:
        lines = [
            ngettext(
                "{games} game of {game} in {seconds:.1f} s",
                "{games} games of {game} in {seconds:.1f} s",
                self.games,
            ).format(games=self.games, game=self.game, seconds=self.seconds)
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
        for reason, n in sorted(self.endings.items()):
            lines.append(_("  ended by {reason:<14} {n:>6}").format(reason=reason, n=n))
        for key, means in self.figures().items():
            shown = ", ".join(f"{label} {mean}" for label, mean in means.items())
            lines.append(_("  {figure}: {means}").format(figure=key, means=shown))
        data = self.as_json()
        lines.append(
            _("  bouts per game {b}, turns per game {t}").format(
                b=data["bouts_per_game"], t=data["turns_per_game"]
            )
        )
        return "\n".join(lines)


def labels_for(bots: Sequence[str]) -> tuple[str, ...]:
    """Keys for the wins table: the bot's name, or ``name#i`` when a name repeats."""
    counts = Counter(bots)
    return tuple(name if counts[name] == 1 else f"{name}#{i}" for i, name in enumerate(bots))


MatchFactory = Callable[[str, int, int, Mapping[str, Any]], Match]


def simulate(
    game: str,
    *,
    games: int,
    seed: int,
    bots: Sequence[str],
    players: int,
    options: Mapping[str, Any] | None = None,
    factory: MatchFactory | None = None,
) -> Report:
    """Play ``games`` games; ``bots`` gives one bot per side (teams) or one per seat."""
    spec = get_game(game)
    if games < 1:
        raise SimulationError(_("the number of games must be at least 1"))
    unknown = [b for b in bots if b not in spec.bots]
    if unknown or not bots:
        raise SimulationError(
            _("unknown bot {bot!r} for {game} (known: {known})").format(
                bot=unknown[0] if unknown else "", game=game, known=", ".join(spec.bots)
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
    report = Report(game=game, games=games, labels=labels)
    make = factory or (lambda g, p, s, o: new_match(g, players=p, seed=s, options=o))
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        # rotate the bots round the seats from one game to the next
        shift = index % len(bots)
        owner = [(seat % sides + shift) % len(bots) for seat in range(players)]
        seat_bots: dict[int, Bot] = {seat: spec.bots[bots[owner[seat]]] for seat in range(players)}
        try:
            match = make(game, players, game_seed, dict(options or {}))
            result: Outcome = match.play(seat_bots, random.Random(game_seed))
        except CakePartyError as exc:
            report.errors += 1
            report.failures.append(f"game {index} (seed {game_seed}): {exc}")
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

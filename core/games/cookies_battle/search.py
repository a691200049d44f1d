"""What the ``strong`` Cookies Battle bot's search needs from the game: a quick policy to
play the rest of a walk, a judgement of a whole table (a world of the search, every held
item named), and where a walk may stop and be judged.

- :func:`quick_bot` plays from its view by a cheap rule: a card that takes a piece it
  wants as cheaply as it can, or sheds its strongest card that loses when it does not
  want the piece; it keeps its markers (2 points each) but answers with a Defense, now
  and then, a marker aimed at it or a breeze; it passes its middle cards as the normal
  bot does.
- :func:`evaluate` reads every seat's pieces and markers in a world and turns the scores,
  with the pieces still to be won, into each seat's chance of the winning place (the
  second under the tummy ache, else the first), as the normal bot judges its own.
- :func:`cutoff` ends a walk once the trick in progress and ``TRICKS`` more have been won
  (or the round is over), and judges the table there.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.actions import NoMarker, PassOn, Play, UseMarker
from cakeparty.core.games.cookies_battle.bots import keep_value, power
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    MARKER_POINTS,
    ROUNDS,
    piece_kind,
    pieces,
)
from cakeparty.core.games.cookies_battle.judge import (
    BOX_MEAN,
    BOX_SQUARE,
    FLOOR_VAR,
    KIND_INDEX,
    count_score,
    place_chance,
)
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.games.cookies_battle.tricks import winner

#: tricks a walk plays after the one in progress before it is judged (0: it is judged
#: as soon as the trick in progress is won)
TRICKS = 0
#: the share of a marker's points a seat is expected to keep to the end
KEEP = 0.8
#: how often the quick policy answers with a Defense a marker aimed at it (or a breeze)
DEFEND = 0.6
#: how often the quick policy plays a card at random among the legal ones
NOISE = 0.1

#: the kind index of every piece name, looked up once
_KIND: dict[str, int] = {name: KIND_INDEX[piece_kind(name)] for name in pieces()}


# -- judging a table ----------------------------------------------------------------------


def scores(state: CookiesState) -> list[float]:
    """Each seat's score now, as the final scoring would count it, with its markers worth
    ``KEEP`` of their points while pieces are still to be won (a world names every piece
    held)."""
    names = state.knowledge.cards
    # once nothing is left to win, a marker kept is worth its points
    marker = MARKER_POINTS * (KEEP if to_win(state) else 1.0)
    out = []
    for seat in range(state.players):
        counts = [0, 0, 0, 0]
        for slot in state.pieces[seat]:
            name = names[slot]
            if name is not None:
                counts[_KIND[name]] += 1
        held = (counts[0], counts[1], counts[2], counts[3])
        out.append(count_score(held) + marker * len(state.markers[seat]))
    return out


def to_win(state: CookiesState) -> int:
    """The pieces still to be won in this game, the one in dispute included."""
    n = state.players
    tricks = ROUNDS * DEAL[n] - sum(state.tricks_won)
    return max(0, min(tricks, len(state.piece_pile) + (state.dispute is not None)))


def evaluate(state: CookiesState) -> list[float]:
    """Each seat's chance of the winning place from this table: every final score a
    normal guess around today's score plus a fair share of the pieces still to be won;
    the chances sum to 1."""
    n = state.players
    now = scores(state)
    future = to_win(state)
    share = 1.0 / n
    mean = future * share * BOX_MEAN
    spread = (future * (share * BOX_SQUARE - (share * BOX_MEAN) ** 2) + FLOOR_VAR) ** 0.5
    finals = [(s + mean, spread) for s in now]
    aim = 1 if state.options.tummy_ache else 0
    chances = [place_chance(finals[s], finals[:s] + finals[s + 1 :], aim) for s in range(n)]
    total = sum(chances)
    if total <= 0:
        return [1.0 / n] * n
    return [c / total for c in chances]


def cutoff(start: CookiesState, state: CookiesState) -> list[float] | None:
    """Judge the walk from ``start`` once ``TRICKS`` tricks after the one in progress have
    been won, or at the end of the round; ``None`` before."""
    won = sum(state.tricks_won) - sum(start.tricks_won)
    if won <= TRICKS and not (won and state.phase is Phase.PASS):
        return None
    if state.phase is Phase.OVER:
        return None  # the game's own outcome judges it
    return evaluate(state)


# -- the quick policy ---------------------------------------------------------------------


def quick_bot(view: Any, rng: random.Random) -> Action:
    """A cheap sensible move from ``view``: see the module's docstring."""
    legal: Sequence[Action] = view.legal
    if len(legal) == 1:
        return legal[0]
    phase = view.phase
    if phase is Phase.PLAY:
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return _card(view, plays, rng)
    if phase is Phase.DEFENSE:
        window = view.window
        hurt = window is not None and (window.target == view.seat or "breeze" in window.kind)
        if hurt and rng.random() < DEFEND:
            for action in legal:
                if isinstance(action, UseMarker) and action.kind == "defense":
                    return action
    if phase in (Phase.MARKER, Phase.DEFENSE) or phase is Phase.PLAY:
        for action in legal:
            if isinstance(action, NoMarker):
                return action
        return legal[0]
    if phase is Phase.PASS:
        return _pass(view, legal)
    return legal[0]


def _card(view: Any, plays: list[Play], rng: random.Random) -> Action:
    if rng.random() < NOISE:
        return rng.choice(plays)
    known = view.known
    greedy = not view.options.tummy_ache
    table = [known[slot] for _, slot in view.trick if slot in known]
    piece = known.get(view.dispute) if view.dispute is not None else None
    wanted = piece is not None and _KIND.get(piece, 3) != 3
    last = len(table) == view.players - 1
    winning: list[tuple[float, Play]] = []
    losing: list[tuple[float, Play]] = []
    for action in plays:
        name = known[action.slot]
        strength = power(name, greedy)
        if winner([*table, name]) == len(table):
            winning.append((strength, action))
        else:
            losing.append((strength, action))
    if wanted:
        if winning:
            # last to play: the cheapest card that takes it; else the strongest, which
            # is likelier to hold
            pick = min if last else max
            return pick(winning, key=_first)[1]
        return min(losing, key=_first)[1]
    if losing:
        return max(losing, key=_first)[1]
    return min(winning, key=_first)[1]


def _first(item: tuple[float, Play]) -> float:
    return item[0]


def _pass(view: Any, legal: Sequence[Action]) -> Action:
    known = view.known
    greedy = not view.options.tummy_ache
    order = sorted(view.hand, key=lambda s: (keep_value(known[s], greedy), s))
    if len(order) >= 2:
        wanted = PassOn(order[0], order[1])
        if wanted in legal:
            return wanted
    return legal[0]


#: the search's settings (:class:`cakeparty.core.search.Budget` fields): a judged walk's
#: reward varies far less than a win or a loss (its spread over worlds is about 0.02 for
#: the last card of a trick, 0.05 to 0.2 earlier), so a small lead over the normal bot's
#: move is already evidence
SETTINGS: dict[str, Any] = {"least": 4, "prior": 2.0}
#: the lead asked of another move, by how many cards the trick still waits on after this
#: seat's (in units of half a standard deviation of a win or a loss)
CONFIDENCE = {0: 0.05}
CONFIDENCE_ELSE = 0.2


def settings(view: Any) -> dict[str, Any]:
    """The search's settings for the decision of ``view``."""
    out = dict(SETTINGS)
    after = view.players - 1 - len(view.trick) if view.phase is Phase.PLAY else -1
    out["confidence"] = CONFIDENCE.get(after, CONFIDENCE_ELSE)
    return out

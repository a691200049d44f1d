"""What the ``strong`` Cookies Battle bot's search needs from the game: a quick policy to
play the rest of a walk, a judgement of a whole table (a world of the search, every held
item named), where a walk may stop and be judged, and which moves are worth weighing.

- :func:`quick_bot` plays from its view by a cheap rule: a card that takes a piece it
  wants as cheaply as it can, or sheds its strongest card that loses when it does not
  want the piece; it keeps its markers (2 points each) but answers with a Defense, now
  and then, a marker aimed at it or a breeze; it passes its middle cards as the normal
  bot does.
- :func:`evaluate` reads every seat's pieces, markers and hand in a world
  (:func:`table`) and turns them into each seat's chance of the winning place (the
  second under the tummy ache, else the first): every final score a normal guess around
  today's score plus a share of the pieces still to be won (:func:`chances`, with the
  settings of :data:`JUDGE`; ``bench/fit_cookies.py`` fits them on games of normal bots).
- :func:`cutoff` ends a walk once the trick in progress and ``TRICKS`` more have been won
  (or the round is over), and judges the table there.
- :func:`keeping_bot` makes the move the search keeps unless another beats it: the
  normal bot's, but under the tummy ache the seat keeps its markers (a Defense aside)
  until its last :data:`KEEP` cards of the game, playing the normal bot's card
  meanwhile. Spent early, a marker buys pieces that push the seat to the top: over 200
  games (seed 1), the strong bot ended with the tummy ache in 43 % of them spending its
  markers as the normal bot does, in 30 % and 36.5 % (two runs) keeping them.
- :func:`search_moves` leaves the pass to the normal bot, weighs no marker spent before
  the last :data:`KEEP` cards, and weighs one of each set of moves alike (:func:`alike`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
    spends,
)
from cakeparty.core.games.cookies_battle.bots import keep_value, normal_bot, power
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    MARKER_POINTS,
    ROUNDS,
    cards,
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
#: how often the quick policy answers with a Defense a marker aimed at it (or a breeze)
DEFEND = 0.6
#: how often the quick policy plays a card at random among the legal ones
NOISE = 0.1
#: the searching seat spends a marker (but a Defense) only once it holds at most this many
#: cards in the last round
KEEP = 2

#: the kind index of every piece name, looked up once
_KIND: dict[str, int] = {name: KIND_INDEX[piece_kind(name)] for name in pieces()}


# -- judging a table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Judge:
    """The settings of the guess of every seat's final score from a table: ``keep``, the
    share of a marker's points a seat is expected to keep to the end; ``hand``, how much
    the cards in hand (their :func:`~.bots.power` summed) draw this round's pieces still to
    come; ``floor``, the spread every final score keeps from what no count shows;
    ``scale``, how far the spread of the pieces still to come is believed; ``lead``, how
    much a seat's lead in points turns the pieces to come away from it; ``mine``, how many
    more of them the judging seat draws than another seat would (it plays for them)."""

    keep: float = 0.8
    hand: float = 0.0
    floor: float = FLOOR_VAR
    scale: float = 1.0
    lead: float = 0.0
    mine: float = 1.0

    def but(self, **changes: float) -> Judge:
        return replace(self, **changes)


#: the judgement the search uses (fitted by ``bench/fit_cookies.py``)
JUDGE = Judge()


@dataclass(frozen=True)
class Standing:
    """What a judgement reads of a table: each seat's points from its pieces, its markers
    and the power of its hand; this round's pieces still to come and the later rounds';
    the seat judging (``None``: nobody in particular)."""

    points: tuple[int, ...]
    markers: tuple[int, ...]
    power: tuple[float, ...]
    this_round: int
    later: int
    aim: int
    seat: int | None = None


#: the power of every card for taking tricks, looked up once
_POWER: dict[str, float] = {name: power(name, False) for name in cards("standard")}


def table(state: CookiesState, seat: int | None = None) -> Standing:
    """The standing of a table where every held item is named (a world of the search, or
    a local game), judged by ``seat``."""
    names = state.knowledge.cards
    points = []
    for held in state.pieces:
        counts = [0, 0, 0, 0]
        for slot in held:
            name = names[slot]
            if name is not None:
                counts[_KIND[name]] += 1
        points.append(count_score((counts[0], counts[1], counts[2], counts[3])))
    hands = state.hands or ((),) * state.players
    strength = tuple(sum(_POWER.get(names[slot] or "", 0.5) for slot in hand) for hand in hands)
    future = to_win(state)
    this_round = min(future, max((len(hand) for hand in hands), default=0))
    return Standing(
        tuple(points),
        tuple(len(m) for m in state.markers),
        strength,
        this_round,
        future - this_round,
        1 if state.options.tummy_ache else 0,
        seat,
    )


def chances(standing: Standing, judge: Judge = JUDGE) -> list[float]:
    """Each seat's chance of the winning place from ``standing``: every final score a
    normal guess around today's score plus the share of the pieces still to be won that
    its hand (this round) and its lead draw; the chances sum to 1."""
    n = len(standing.points)
    marker = MARKER_POINTS * (judge.keep if standing.this_round + standing.later else 1.0)
    now = [p + marker * m for p, m in zip(standing.points, standing.markers, strict=True)]
    mean_now = sum(now) / n
    mean_power = sum(standing.power) / n
    # a seat ahead draws fewer of the pieces to come (``lead`` < 0: more)
    ahead = [math.exp(-judge.lead * (x - mean_now)) for x in now]
    if standing.seat is not None:
        ahead[standing.seat] *= judge.mine
    drawn = [
        a * math.exp(judge.hand * (p - mean_power))
        for a, p in zip(ahead, standing.power, strict=True)
    ]
    total_ahead, total_drawn = sum(ahead), sum(drawn)
    finals = []
    for seat in range(n):
        mean, var = now[seat], judge.floor
        for count, share in (
            (standing.this_round, drawn[seat] / total_drawn),
            (standing.later, ahead[seat] / total_ahead),
        ):
            mean += count * share * BOX_MEAN
            var += judge.scale * count * (share * BOX_SQUARE - (share * BOX_MEAN) ** 2)
        finals.append((mean, var**0.5))
    out = [place_chance(finals[s], finals[:s] + finals[s + 1 :], standing.aim) for s in range(n)]
    total = sum(out)
    if total <= 0:
        return [1.0 / n] * n
    return [c / total for c in out]


def to_win(state: CookiesState) -> int:
    """The pieces still to be won in this game, the one in dispute included."""
    n = state.players
    tricks = ROUNDS * DEAL[n] - sum(state.tricks_won)
    return max(0, min(tricks, len(state.piece_pile) + (state.dispute is not None)))


def evaluate(state: CookiesState, seat: int | None = None) -> list[float]:
    """Each seat's chance of the winning place from this table, judged by ``seat``
    (:func:`chances`)."""
    return chances(table(state, seat))


def cutoff(start: CookiesState, state: CookiesState) -> list[float] | None:
    """Judge the walk from ``start`` once ``TRICKS`` tricks after the one in progress have
    been won, or at the end of the round; ``None`` before."""
    won = sum(state.tricks_won) - sum(start.tricks_won)
    if won <= TRICKS and not (won and state.phase is Phase.PASS):
        return None
    if state.phase is Phase.OVER:
        return None  # the game's own outcome judges it
    # the walk began with the searching seat asked
    return evaluate(state, start.actor)


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
SETTINGS: dict[str, Any] = {"least": 4, "prior": 2.0, "score_weight": 0.0}
#: the lead asked of another move, by how many cards the trick still waits on after this
#: seat's (in units of half a standard deviation of a win or a loss)
CONFIDENCE = {0: 0.05}
CONFIDENCE_ELSE = 0.2


def spending_time(view: Any) -> bool:
    """Whether the seat of ``view`` may spend its markers: in the last round, once it holds
    at most :data:`KEEP` cards, under the tummy ache (the beginners' game, where the
    highest score wins, spends them as the normal bot does)."""
    if not view.options.tummy_ache:
        return True
    return view.round >= ROUNDS and len(view.hand) <= KEEP


def keeping_bot(view: Any, rng: random.Random) -> Action:
    """The normal bot's move, but a marker it would spend before :func:`spending_time` is
    kept: the normal bot's card instead, or no marker."""
    return normal_bot(view, rng, spend=spending_time(view))


def search_moves(view: Any) -> list[Action] | None:
    """The moves worth a search: at the pass only the normal bot's (a walk judged a trick
    later cannot tell two passes apart: it would pick one by the luck of its walks); else,
    leaving out the markers it may not spend yet (:func:`spending_time`), one of each set
    of moves alike (two markers of a kind, two pieces of a kind to give), so that no walk
    is spent telling them apart; ``None`` where every legal move is weighed."""
    legal: Sequence[Action] = view.legal
    if len(legal) < 2:
        return None
    if view.phase is Phase.PASS:
        return []
    keep = not spending_time(view)
    seen: set[Any] = set()
    out: list[Action] = []
    for action in legal:
        if keep and spends(action):
            continue
        key = alike(view, action)
        if key not in seen:
            seen.add(key)
            out.append(action)
    return out if len(out) < len(legal) else None


def alike(view: Any, action: Action) -> Any:
    """What ``action`` comes to, the same for moves alike: a marker by its kind, target
    and the kind of piece it gives; a piece given by its kind; any other move itself."""
    known = view.known
    if isinstance(action, UseMarker):
        given = tuple(piece_kind(known[s]) if s in known else s for s in action.piece)
        return (action.kind, action.target, given)
    if isinstance(action, GivePiece):
        return ("give", piece_kind(known[action.slot]) if action.slot in known else action.slot)
    return action


def settings(view: Any) -> dict[str, Any]:
    """The search's settings for the decision of ``view``."""
    out = dict(SETTINGS)
    after = view.players - 1 - len(view.trick) if view.phase is Phase.PLAY else -1
    out["confidence"] = CONFIDENCE.get(after, CONFIDENCE_ELSE)
    return out

"""Cookies Battle bots. Each is a pure function of the seat's view and a random source.

``random`` picks uniformly among the legal actions.

``normal`` reads only its view. It knows the cards in its hand, the cards played this
round and the cards it passed (a neighbour holds them until they are played), and deals
the cards it cannot place into guessed hands of the seats still to play. From the pieces
won face up, the takes and swaps of the public story, the piece counts and the marker
counts (and how often each seat has kept its markers) it guesses every seat's final
score (see :mod:`.judge`), and it plays for the chance of ending in the winning place:
the second under the tummy ache, the first in the beginners' game and the duel.

- A card: it plays out the rest of the trick many times over guessed hands and picks the
  card whose likely winner (and marker) leaves it best placed, spending strong cards only
  where they pay.
- A marker: a Theft, Swap, Breeze or Puppet when the expected gain in place beats the 2
  points the marker is worth kept and the risk of a Defense; otherwise it keeps it.
  Defense is kept for a marker that hurts it.
- The pass: it keeps its strongest cards and its safest losers (0, Magician, low cards)
  and passes the middle cards, or its weakest when only the highest score wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
    spends,
)
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    PIECE_KINDS,
    ROUNDS,
    card,
    cards,
    is_card,
    piece_kind,
)
from cakeparty.core.games.cookies_battle.events import (
    CardPlayed,
    MarkerEarned,
    PieceTaken,
    Swapped,
    TrickWon,
)
from cakeparty.core.games.cookies_battle.judge import (
    KIND_INDEX,
    Holding,
    Outlook,
)
from cakeparty.core.games.cookies_battle.state import Phase
from cakeparty.core.games.cookies_battle.tricks import earners, turn_suit, winner
from cakeparty.core.games.cookies_battle.view import CookiesView, MarkerWindow


def random_bot(view: Any, rng: random.Random) -> Action:
    """Uniformly at random among the legal actions."""
    action: Action = rng.choice(view.legal)
    return action


# -- what the normal bot works from --------------------------------------------------------

#: guessed hands played out per decision on a card
SAMPLES = 24
#: how much of a winning chance a card's power is worth keeping for later tricks
SPEND = 0.004
#: a marker is used only when it gains at least this much winning chance
MARKER_MARGIN = 0.003
#: the chance that a seat holding a Defense answers a marker with it
DEFENSE_RATE = 0.5
#: how far a Puppet is trusted to turn a trick (another seat may not want the piece)
PUPPET_TRUST = 0.5


@dataclass(frozen=True)
class Table:
    """The facts the normal bot reads from its view, by name."""

    seat: int
    players: int
    variant: str
    hand: Mapping[int, str]  # slot → card
    trick: tuple[tuple[int, str], ...]  # (seat, card) in play order
    piece: str | None  # the kind of the piece in dispute
    outlook: Outlook
    pieces: Mapping[int, str]  # my pieces, slot → name
    markers: Mapping[int, str]  # my markers, slot → kind
    marker_counts: tuple[int, ...]
    marker_pile: int
    hand_sizes: tuple[int, ...]
    pool: tuple[str, ...]  # cards whose place this seat cannot tell
    passed: tuple[str, ...]  # cards this seat passed that are still in a neighbour's hand

    @property
    def greedy(self) -> bool:
        """Only the highest score wins (the beginners' game, the duel)."""
        return self.outlook.aim == 0

    def later(self) -> list[int]:
        """The seats still to play in this trick after me, in order (on my turn)."""
        if not self.trick:
            return [(self.seat + i) % self.players for i in range(1, self.players)]
        leader = self.trick[0][0]
        out = []
        s = (self.seat + 1) % self.players
        while s != leader:
            out.append(s)
            s = (s + 1) % self.players
        return out

    def to_come(self) -> list[int]:
        """The seats whose cards this trick still waits on, in order (at any time)."""
        if not self.trick:
            return []
        played = {s for s, _ in self.trick}
        leader = self.trick[0][0]
        seats = [(leader + i) % self.players for i in range(self.players)]
        return [s for s in seats if s not in played]

    @property
    def neighbours(self) -> tuple[int, ...]:
        return tuple(sorted({self.left_of(self.seat), self.right_of(self.seat)}))

    def right_of(self, seat: int) -> int:
        """The neighbour on ``seat``'s right (the one who plays before it)."""
        return (seat - 1) % self.players

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players


def power(name: str, greedy: bool) -> float:
    """How strong a card is for taking tricks later (0 to 1)."""
    c = card(name)
    if c.value == 13:
        return 1.0
    if c.magician:
        return 0.2
    if c.value == 0:
        return 0.5
    assert c.value is not None
    if c.gold:
        return 0.5 + c.value / 24
    return c.value / 24 if greedy else c.value / 30


def keep_value(name: str, greedy: bool) -> float:
    """How much a card is worth keeping at the pass: the strong ones always; the safe
    losers too (0, Magician, low cards) when the second place wins."""
    c = card(name)
    if greedy or c.value == 13 or c.gold:
        return power(name, greedy)
    if c.magician:
        return 0.9
    if c.value == 0:
        return 0.7
    assert c.value is not None
    if c.value <= 3:
        return 0.6
    if c.value <= 5:
        return 0.45
    if c.value <= 9:
        return 0.15
    return 0.25 + 0.05 * (c.value - 10)


# -- cards ------------------------------------------------------------------------------

_SUIT = {name: card(name).suit for name in cards("standard")}
_COLOUR = {name: card(name).colour for name in cards("standard")}


def allowed(hand: list[str], suit: str | None) -> list[str]:
    """The cards of ``hand`` that may be played (the rule of :func:`.tricks.playable`,
    in one pass: the bot asks it thousands of times a decision)."""
    if suit is None:
        return hand
    follow = [n for n in hand if _SUIT[n] == suit]
    if not follow:
        return hand
    return follow + [n for n in hand if _SUIT[n] is None]


def _deal(t: Table, later: list[int], rng: random.Random) -> list[list[str]]:
    """Guessed hands for the seats in ``later``: the cards this seat passed and that are
    still out go to one neighbour or the other (it cannot tell which any more), the rest
    are drawn from the cards it cannot place."""
    held: dict[int, list[str]] = {s: [] for s in later}
    neighbours = t.neighbours
    for name in t.passed:
        seat = neighbours[0] if len(neighbours) == 1 else rng.choice(neighbours)
        if seat in held and len(held[seat]) < t.hand_sizes[seat]:
            held[seat].append(name)
    need = [t.hand_sizes[s] - len(held[s]) for s in later]
    drawn = rng.sample(t.pool, min(sum(need), len(t.pool)))
    at = 0
    for s, n in zip(later, need, strict=True):
        held[s].extend(drawn[at : at + n])
        at += n
    return [held[s] for s in later]


def _play(t: Table, plays: list[Play], rng: random.Random) -> tuple[float, Action]:
    """The card whose likely trick leaves this seat best placed, less its power spent."""
    later = t.later()
    samples = [(_deal(t, later, rng), [rng.random() for _ in later]) for _ in range(SAMPLES)]
    chances: dict[tuple[int, bool], float] = {}

    def chance(taker: int, earned: bool) -> float:
        key = (taker, earned)
        if key not in chances:
            held = list(t.outlook.holdings)
            if t.piece is not None:
                held[taker] = held[taker].plus(t.piece)
            if earned:
                held[t.seat] = held[t.seat].with_markers(1)
            chances[key] = t.outlook.chance(held)
        return chances[key]

    mine = len(t.trick)
    judgements: dict[tuple[object, ...], tuple[int, bool]] = {}
    before = [n for _, n in t.trick]
    seated = [s for s, _ in t.trick] + [t.seat]
    best: tuple[float, Action] | None = None
    for action in plays:
        name = t.hand[action.slot]
        total = 0.0
        opened = turn_suit([*before, name])
        for hands, picks in samples:
            table = [*before, name]
            seats = list(seated)
            suit = opened
            for seat, hand, pick in zip(later, hands, picks, strict=True):
                if not hand:
                    continue
                choice = allowed(hand, suit)
                played = choice[int(pick * len(choice))]
                table.append(played)
                seats.append(seat)
                if suit is None and _COLOUR[played]:
                    suit = _SUIT[played]
            # the same trick comes back often (always for the last card): judged once
            key = (*table, *seats)
            judged = judgements.get(key)
            if judged is None:
                earned = t.marker_pile > 0 and mine in earners(table)
                judged = judgements[key] = (seats[winner(table)], earned)
            total += chance(*judged)
        score = total / len(samples) - SPEND * power(name, t.greedy)
        if best is None or score > best[0]:
            best = (score, action)
    assert best is not None
    return best


def _pass(t: Table, legal: tuple[Action, ...]) -> Action:
    """Pass the two cards least worth keeping."""
    order = sorted(t.hand, key=lambda s: (keep_value(t.hand[s], t.greedy), s))
    wanted = PassOn(order[0], order[1])
    return wanted if wanted in legal else legal[0]


def _hand_over(t: Table, legal: tuple[Action, ...]) -> Action:
    """The duel: give the card least worth keeping."""
    slot = min(t.hand, key=lambda s: (keep_value(t.hand[s], t.greedy), s))
    wanted = HandOver(slot)
    return wanted if wanted in legal else legal[0]


def _give_piece(t: Table, legal: tuple[Action, ...]) -> Action:
    """The target of a Swap gives the piece whose loss leaves it best placed."""
    best: tuple[float, Action] | None = None
    held = list(t.outlook.holdings)
    mine = held[t.seat]
    for action in legal:
        if not isinstance(action, GivePiece) or action.slot not in t.pieces:
            continue
        held[t.seat] = mine.minus(piece_kind(t.pieces[action.slot]))
        score = t.outlook.chance(held)
        if best is None or score > best[0]:
            best = (score, action)
    return legal[0] if best is None else best[1]


# -- markers ----------------------------------------------------------------------------


def _defended(t: Table, user: int) -> float:
    """The chance that another seat answers a marker of ``user``'s with a Defense (each
    unknown marker is a Defense one time in six)."""
    keep = 1.0
    for seat, n in enumerate(t.marker_counts):
        if seat != user and n and seat != t.seat:
            keep *= 1 - DEFENSE_RATE * (1 - (5 / 6) ** n)
    return 1 - keep


def _breeze(t: Table, held: list[Holding], right: bool) -> float:
    """The chance after a breeze: every seat takes a random piece from its right
    (``right``) or left neighbour's holdings before the breeze; each seat's score moves by
    what it may take less what it may lose, in expectation."""
    shifts = [0.0] * t.players
    for seat in range(t.players):
        giver = t.right_of(seat) if right else t.left_of(seat)
        for kind, p in held[giver].kinds():
            shifts[seat] += p * t.outlook.value_of(held[seat], kind)
            shifts[giver] -= p * t.outlook.value_of(held[giver].minus(kind), kind)
    return t.outlook.chance(held, shifts)


def _swap(t: Table, held: list[Holding], user: int, target: int, given: str | None) -> float:
    """The expected chance after ``user`` gives a piece of kind ``given`` to ``target`` and
    takes one the target picks (guessed at random from the target's pieces)."""
    base = list(held)
    base[user] = base[user].minus(given)
    total = 0.0
    for kind, p in held[target].kinds():
        after = list(base)
        after[target] = after[target].minus(kind).plus(given)
        after[user] = after[user].plus(kind)
        total += p * t.outlook.chance(after)
    return total


def _puppet(t: Table, held: list[Holding], target: int, rng: random.Random) -> float | None:
    """The expected chance after a Puppet on ``target``, still to play in this trick: what
    it could take by choice against what a random card of its hand takes (guessed hands;
    a seat is taken to want a piece that is not rotten)."""
    if not t.trick or t.piece is None or target not in t.to_come():
        return None
    table = [n for _, n in t.trick]
    seats = [s for s, _ in t.trick]
    holder = seats[winner(table)]
    suit = turn_suit(table)
    free = chosen = 0.0
    for _ in range(SAMPLES // 2):
        hand = _deal(t, [target], rng)[0]
        choice = allowed(hand, suit)
        wins = [winner([*table, c]) == len(table) for c in choice]
        free += any(wins)
        chosen += sum(wins) / len(wins) if wins else 0.0
    n = SAMPLES // 2
    wanted = t.piece != "rotten"
    shift = PUPPET_TRUST * (free - chosen) / n if wanted else 0.0
    theirs = t.outlook.chance([*held[:target], held[target].plus(t.piece), *held[target + 1 :]])
    others = t.outlook.chance([*held[:holder], held[holder].plus(t.piece), *held[holder + 1 :]])
    # the Puppet moves ``shift`` of the piece's chance from the target to the holder
    base = t.outlook.chance(held)
    return base + shift * (others - theirs)


def _effect(
    t: Table,
    held: list[Holding],
    user: int,
    kind: str,
    target: int | None,
    given: str | None,
    rng: random.Random,
) -> float | None:
    """The expected chance after ``user``'s marker of ``kind`` takes effect (``None``: not
    judged, so left alone)."""
    if kind == "theft" and target is not None:
        return t.outlook.after_take(held, user, target)
    if kind == "swap" and target is not None:
        if user == t.seat:
            return _swap(t, held, user, target, given)
        if target == t.seat:
            # I would give the piece I miss least, and take one I cannot name
            mine = held[t.seat]
            return max(
                (
                    t.outlook.chance(_replaced(held, t.seat, mine.minus(k).plus(None)))
                    for k, _ in mine.kinds()
                ),
                default=None,
            )
        return None
    if kind in ("right-breeze", "left-breeze"):
        return _breeze(t, held, kind == "right-breeze")
    if kind == "puppet" and target is not None and user == t.seat:
        return _puppet(t, held, target, rng)
    return None


def _replaced(held: list[Holding], seat: int, holding: Holding) -> list[Holding]:
    out = list(held)
    out[seat] = holding
    return out


def _use_marker(t: Table, legal: tuple[Action, ...], rng: random.Random) -> tuple[float, Action]:
    """The marker use that gains most, with its gain in chance (``NoMarker`` and 0 when
    none pays its points and the risk of a Defense)."""
    held = list(t.outlook.holdings)
    now = t.outlook.chance(held)
    held[t.seat] = held[t.seat].with_markers(-1)
    spent = t.outlook.chance(held)
    defended = _defended(t, t.seat)
    best: tuple[float, Action] = (0.0, NoMarker())
    seen: set[tuple[str, tuple[int, ...], str | None]] = set()
    for action in legal:
        if not spends(action):
            continue
        given = None
        if action.piece:
            name = t.pieces.get(action.piece[0])
            given = None if name is None else piece_kind(name)
        key = (action.kind, action.target, given)
        if key in seen:
            continue  # the same kind, target and piece kind from another slot
        seen.add(key)
        target = action.target[0] if action.target else None
        after = _effect(t, held, t.seat, action.kind, target, given, rng)
        if after is None:
            continue
        gain = defended * spent + (1 - defended) * after - now
        if gain > MARKER_MARGIN and gain > best[0]:
            best = (gain, action)
    return best


def _defend(
    t: Table, window: MarkerWindow, legal: tuple[Action, ...], rng: random.Random
) -> Action:
    """Answer a marker with a Defense when its effect hurts more than the Defense's points."""
    defense = next((a for a in legal if isinstance(a, UseMarker) and a.kind == "defense"), None)
    if defense is None:
        return NoMarker()
    held = list(t.outlook.holdings)
    if window.kind == "puppet":
        if window.target != t.seat or t.piece is None:
            return NoMarker()
        # my next card at random: it costs about half of what this trick's piece is worth
        now = t.outlook.chance(held)
        taken = t.outlook.chance(_replaced(held, t.seat, held[t.seat].plus(t.piece)))
        after: float | None = now - 0.5 * abs(taken - now)
    else:
        after = _effect(t, held, window.user, window.kind, window.target, None, rng)
    if after is None:
        return NoMarker()
    held[t.seat] = held[t.seat].with_markers(-1)
    return defense if t.outlook.chance(held) > after + MARKER_MARGIN else NoMarker()


# -- reading the view ---------------------------------------------------------------------

KINDS = tuple(KIND_INDEX)


def _tracked(view: CookiesView) -> tuple[list[list[float]], list[int]]:
    """Each seat's pieces as expected counts by kind, followed through the public story
    (a take this seat cannot name moves a share of every kind the victim may hold), and
    how many markers each seat has earned."""
    vectors = [[0.0] * len(KINDS) for _ in range(view.players)]
    earned = [0] * view.players

    def move(giver: int, taker: int, name: str | None, source: list[float]) -> None:
        if name is not None:
            i = KIND_INDEX[piece_kind(name)]
            vectors[giver][i] = max(0.0, vectors[giver][i] - 1)
            vectors[taker][i] += 1
            return
        total = sum(source)
        if total <= 0:
            return
        for i, x in enumerate(source):
            share = x / total
            vectors[giver][i] = max(0.0, vectors[giver][i] - share)
            vectors[taker][i] += share

    # the story's events are plain values of these classes: told apart by their type,
    # the quickest test over a story of hundreds of events read at every decision
    for event in view.events:
        if type(event) is CardPlayed:
            continue
        if type(event) is MarkerEarned:
            earned[event.seat] += 1
        elif type(event) is TrickWon:
            if event.piece is not None:
                vectors[event.seat][KIND_INDEX[piece_kind(event.piece)]] += 1
        elif type(event) is PieceTaken:
            move(event.victim, event.taker, event.piece, list(vectors[event.victim]))
        elif type(event) is Swapped:
            mine, theirs = list(vectors[event.seat]), list(vectors[event.target])
            move(event.seat, event.target, event.given, mine)
            move(event.target, event.seat, event.received, theirs)
    return vectors, earned


#: the share of every kind in the box, for pieces nothing else tells about
BOX_SHARE = tuple(PIECE_KINDS[k][0] / 36 for k in KINDS)


def _holding(
    view: CookiesView, seat: int, vector: list[float], markers: int, keep: float
) -> Holding:
    """What ``seat`` holds as far as this seat can tell: the pieces it can name, and for
    the rest the kinds the public story makes likeliest (whole numbers, so that rotten
    pieces and whole cookies count as they will), each a guess that adds to the spread."""
    names = [view.known.get(s) for s in view.pieces[seat]]
    counts = [0, 0, 0, 0]
    for name in names:
        if name is not None:
            counts[KIND_INDEX[piece_kind(name)]] += 1
    unknown = len(names) - sum(counts)
    if not unknown:
        return Holding((counts[0], counts[1], counts[2], counts[3]), 0, markers, keep=keep)
    rest = [max(0.0, v - c) for v, c in zip(vector, counts, strict=True)]
    total = sum(rest)
    if total > unknown:
        rest = [x * unknown / total for x in rest]
    elif total < unknown:
        rest = [x + (unknown - total) * b for x, b in zip(rest, BOX_SHARE, strict=True)]
    whole = [int(x) for x in rest]
    by_remainder = sorted(range(len(rest)), key=lambda i: (whole[i] - rest[i], i))
    for i in by_remainder[: unknown - sum(whole)]:
        whole[i] += 1
    guessed = sum(1 for x, w in zip(rest, whole, strict=True) if abs(x - w) > 0.01)
    counts = [c + w for c, w in zip(counts, whole, strict=True)]
    held = (counts[0], counts[1], counts[2], counts[3])
    return Holding(held, 0, markers, guessed=min(unknown, guessed * 2), keep=keep)


def read(view: CookiesView) -> Table:
    """The facts the normal bot works from, all from ``view``."""
    assert view.seat is not None
    seat, n = view.seat, view.players
    known = view.known
    vectors, earned = _tracked(view)
    holdings = tuple(
        _holding(view, s, vectors[s], len(view.markers), 1.0)
        if s == seat
        # another seat keeps its markers about as often as it has kept them so far
        else _holding(
            view,
            s,
            vectors[s],
            view.marker_counts[s],
            (view.marker_counts[s] + 1) / (earned[s] + 2),
        )
        for s in range(n)
    )
    per_round = DEAL[n]
    future = (ROUNDS - view.round) * per_round
    future += per_round - view.trick_no if view.phase is not Phase.PASS else per_round
    aim = 1 if view.options.tummy_ache else 0
    trick = tuple((s, known[slot]) for s, slot in view.trick if slot in known)
    piece = None
    if view.phase is not Phase.PASS and view.dispute is not None:
        name = known.get(view.dispute)
        piece = None if name is None else piece_kind(name)
    seen = {name for name in known.values() if is_card(name)}
    # the cards this seat knows that are neither in its hand nor played: those it passed
    gone = {*view.hand, *view.played, *(slot for _, slot in view.trick)}
    passed = tuple(name for slot, name in known.items() if slot not in gone and is_card(name))
    return Table(
        seat=seat,
        players=n,
        variant=view.variant,
        hand={s: known[s] for s in view.hand if s in known},
        trick=trick,
        piece=piece,
        outlook=Outlook(seat, holdings, max(0, min(future, view.piece_pile)), aim),
        pieces={s: known[s] for s in view.pieces[seat] if s in known},
        markers=dict(view.markers),
        marker_counts=view.marker_counts,
        marker_pile=view.marker_pile,
        hand_sizes=view.hand_sizes,
        pool=tuple(c for c in cards(view.variant) if c not in seen),
        passed=passed,
    )


# -- the bot ------------------------------------------------------------------------------


def normal_bot(view: CookiesView, rng: random.Random, *, spend: bool = True) -> Action:
    """Plays for the winning place from its own view: the second under the tummy ache.
    With ``spend`` false it keeps its markers (a Defense aside): where it would spend one,
    it plays its card instead, or uses no marker."""
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    t = read(view)
    if view.phase is Phase.PASS:
        return _hand_over(t, legal) if view.options.duel else _pass(t, legal)
    if view.phase is Phase.SWAP:
        return _give_piece(t, legal)
    if view.phase is Phase.DEFENSE:
        if view.window is None:
            return NoMarker()
        return _defend(t, view.window, legal, rng)
    markers = any(isinstance(a, UseMarker) for a in legal)
    marker = _use_marker(t, legal, rng)[1] if markers else NoMarker()
    plays = [a for a in legal if isinstance(a, Play)]
    if not spend and spends(marker):
        if len(plays) == 1:
            return plays[0]
        if plays:
            return _play(t, plays, rng)[1]
        return NoMarker() if NoMarker() in legal else marker
    if not plays or isinstance(marker, UseMarker):
        return marker
    return _play(t, plays, rng)[1]


#: every level of bot this game has, by name
BOTS: Mapping[str, Callable[[Any, random.Random], Action]] = {
    "random": random_bot,
    "normal": normal_bot,
}

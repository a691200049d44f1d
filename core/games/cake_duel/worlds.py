"""Worlds drawn from one seat's view: complete duels consistent with all that seat has seen.

A searching bot plays many possible futures from where it stands; each future needs a whole
duel, every card placed. :func:`determinize` rebuilds the public part of the state from the
view alone and deals every card the seat cannot know at random among the identities not
accounted for. It reads nothing but the view and the random source, so it cannot peek.

What a view implies, and how each fact is kept:

- the slots of every zone: hands are public; the discard pile is the order of this bout's
  claims and blocks, less the cards Priests took; the deck is what remains of the duel's
  slots (a bout deals and draws from the top of a deck gathered in slot order); the specials
  left out of the duel are the last slots of the box;
- identities the seat knows (its hand, its side's plays, flipped cards, a look) stay;
- a glimpse (cards seen in a hand since re-mixed) puts those cards in that hand's slots;
- the specials the seat has seen this duel are among the duel's specials; the others are
  drawn from the rest of the special set;
- outside a tournament a played Sir Wolfy is revealed at the end of its turn, so no card
  played unflipped in an earlier turn of this bout is Sir Wolfy unless he was shown.

Who else knows which slot follows from the public history: every seat knows its own hand
(with its teammate), the cards its side played, what was flipped, and an attacker knows
the hand it is looking at while a Summoner count is due.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from cakeparty.core.game import World
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import (
    CARDS,
    CORE_NAMES,
    ORACLE,
    PIERROT,
    SCOUT,
    SIR_WOLFY,
)
from cakeparty.core.games.cake_duel.claims import Blocking
from cakeparty.core.games.cake_duel.flow import build_box
from cakeparty.core.games.cake_duel.state import DuelState, Phase, evolve
from cakeparty.core.games.cake_duel.view import DuelView, summons_left
from cakeparty.core.knowledge import EVERYONE, Knowledge


def _holders(view: DuelView, seat: int) -> tuple[int, ...]:
    return (seat,) if view.players == 2 else tuple(sorted((seat, (seat + 2) % 4)))


def _mask(seats: tuple[int, ...]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def _since_duel(log: tuple[Any, ...]) -> tuple[Any, ...]:
    """The events of the duel being played (a tournament plays several)."""
    for i in range(len(log) - 1, -1, -1):
        if isinstance(log[i], ev.DuelWon):
            return log[i + 1 :]
    return log


class _Table:
    """The public zones and who knows which slot, rebuilt from one view."""

    def __init__(self, view: DuelView) -> None:
        self.view = view
        options = view.options
        self.box = build_box(options)
        n_core = sum(1 for name in self.box if not CARDS[name].special)
        in_duel = n_core + options.specials
        self.unused = tuple(range(in_duel, len(self.box)))
        masks = [0] * len(self.box)
        discard: list[int] = []
        wolfy_free: set[int] = set()  # played in a turn already over
        wolfy_shown = False
        turn: list[int] = []
        for event in view.events:
            if isinstance(event, (ev.Claimed, ev.Passed)):
                # a new turn: the plays of the last one had their Sir Wolfy revealed, or held
                # none
                wolfy_free.update(turn)
                turn = []
            if isinstance(event, (ev.Claimed, ev.Blocked)):
                discard.extend(event.slots)
                turn.extend(event.slots)
                for slot in event.slots:
                    # played from a hand its holders alone knew (see below)
                    masks[slot] = _mask(_holders(view, event.seat))
            elif isinstance(event, ev.Took):
                discard = [s for s in discard if s not in event.slots]
            elif isinstance(event, ev.Challenged):
                for slot in event.slots:
                    masks[slot] = EVERYONE
                wolfy_shown |= SIR_WOLFY in event.cards
            elif isinstance(event, ev.Taunted):
                masks[event.slot] = EVERYONE
                wolfy_shown = True
        for seat, hand in enumerate(view.hands):
            # a hand is known to its holders alone: whoever else saw a card of it (a look,
            # a Priest's taken card) had it re-mixed away
            for slot in hand:
                masks[slot] = _mask(_holders(view, seat))
        if view.phase is Phase.DECLARE and view.attacker is not None and view.target is not None:
            for slot in view.hands[view.target]:
                masks[slot] |= 1 << view.attacker  # the look a Summoner count is checked by
        self.discard = tuple(discard)
        self.masks = masks
        used = set(discard)
        for hand in view.hands:
            used.update(hand)
        self.deck = tuple(s for s in range(in_duel) if s not in used)
        # a card taken back into a hand was never up for the reveal
        free = {s for s in wolfy_free if masks[s] != EVERYONE and s in discard}
        self.wolfy_free = frozenset() if wolfy_shown or options.tournament else frozenset(free)


@dataclass(frozen=True)
class _Told:
    """An opponent's play still facedown: its slots hidden from the seat, the name claimed,
    and the chance it is honest."""

    slots: tuple[int, ...]
    name: str
    honesty: float


#: How often an opponent's attack claim, and its block claim, is true before any of its
#: claims was challenged in this match: the prior of :func:`honesty`.
ATTACK_HONESTY = 0.95
BLOCK_HONESTY = 0.6
#: How many challenges the prior weighs, against the match's own.
HONESTY_WEIGHT = 8.0


def honesty(view: DuelView) -> tuple[_Told, ...]:
    """The opponents' plays of this bout whose cards the seat has not seen, latest first,
    with the chance each is honest: a prior for attacks and blocks, moved by how the
    opponents' challenged claims turned out in this match."""
    assert view.seat is not None
    mine = view.seat % 2
    truths = bluffs = 0
    for event in view.log:
        if isinstance(event, ev.Challenged) and event.claimer % 2 != mine:
            truths += event.truthful
            bluffs += not event.truthful
    told: list[_Told] = []
    for event in reversed(view.events):
        if not isinstance(event, (ev.Claimed, ev.Blocked)) or event.seat % 2 == mine:
            continue
        slots = tuple(s for s in event.slots if s not in view.known)
        if not slots:
            continue
        prior = ATTACK_HONESTY if isinstance(event, ev.Claimed) else BLOCK_HONESTY
        rate = (prior * HONESTY_WEIGHT + truths) / (HONESTY_WEIGHT + truths + bluffs)
        told.append(_Told(slots, event.name, rate))
    return tuple(told)


class _Deal:
    """What a deal from one view starts from: the known identities, the cards left to
    place, and where they may go. ``ok`` is false if the view admits no deal at all."""

    def __init__(self, view: DuelView, table: _Table) -> None:
        box = table.box
        truth: list[str | None] = [None] * len(box)
        for slot in sorted(view.known):
            truth[slot] = view.known[slot]
        pool = Counter(box)
        pool.subtract(c for c in truth if c is not None)
        self.glimpsed = [(h, list(cards)) for h, cards in sorted(view.glimpses.items())]
        for _, cards in self.glimpsed:
            pool.subtract(cards)
        self.ok = all(n >= 0 for n in pool.values())
        # the specials of this duel: those the seat has seen, then the rest of the set
        unused = set(table.unused)
        in_duel = Counter(c for s, c in enumerate(truth) if c is not None and s not in unused)
        for _, cards in self.glimpsed:
            in_duel.update(cards)
        present = Counter({n: k for n, k in in_duel.items() if CARDS[n].special})
        for name in sorted(view.specials_seen):
            present[name] = max(present[name], 1)
        self.missing: list[str] = []
        for name in sorted(present):
            extra = present[name] - in_duel[name]
            if extra > pool[name]:
                self.ok = False
            self.missing.extend([name] * extra)
            pool[name] -= extra
        self.specials_left = sorted(n for n in pool.elements() if CARDS[n].special)
        self.core_left = sorted(n for n in pool.elements() if not CARDS[n].special)
        self.truth = truth
        self.hidden = [s for s in range(len(box)) if s not in unused and truth[s] is None]
        self.open_slots = [[s for s in view.hands[h] if truth[s] is None] for h, _ in self.glimpsed]
        self.unused = [s for s in table.unused if truth[s] is None]
        self.wolfy_free = table.wolfy_free
        hidden_after = len(self.hidden) - sum(len(cards) for _, cards in self.glimpsed)
        self.drawn = hidden_after - len(self.core_left) - len(self.missing)
        if any(len(o) < len(c) for o, (_, c) in zip(self.open_slots, self.glimpsed, strict=True)):
            self.ok = False
        if not 0 <= self.drawn <= len(self.specials_left):
            self.ok = False
        if len(self.specials_left) - self.drawn != len(self.unused):
            self.ok = False

    def draw(self, rng: random.Random, plays: tuple[_Told, ...] = ()) -> tuple[str, ...]:
        """Every slot's identity: the known ones kept, the others dealt at random, and
        each of ``plays`` made true with its chance of being honest."""
        truth = list(self.truth)
        for open_slots, (_, cards) in zip(self.open_slots, self.glimpsed, strict=True):
            chosen = rng.sample(open_slots, len(cards))
            for slot, card in zip(chosen, cards, strict=True):
                truth[slot] = card
        hidden = [s for s in self.hidden if truth[s] is None]
        specials = list(self.specials_left)
        rng.shuffle(specials)
        cards = self.core_left + self.missing + specials[: self.drawn]
        rng.shuffle(cards)
        for slot, card in zip(hidden, cards, strict=True):
            truth[slot] = card
        for slot, card in zip(self.unused, specials[self.drawn :], strict=True):
            truth[slot] = card
        _keep_wolfy_out(truth, hidden, self.wolfy_free, rng)
        if plays:
            self._tell_truth(truth, hidden, plays, rng)
        return tuple(c for c in truth if c is not None)

    def _tell_truth(
        self,
        truth: list[str | None],
        hidden: list[int],
        plays: tuple[_Told, ...],
        rng: random.Random,
    ) -> None:
        """Make each play honest with its chance: a card of a play that does not pass as
        the name claimed trades places with a hidden copy of that name. Hidden slots only
        trade places among themselves (a seen special stays in the duel, Sir Wolfy stays
        out of the slots he cannot be in), so the deal still agrees with the view."""
        free = set(hidden)
        unused = set(self.unused)
        missing = Counter(self.missing)
        for told in plays:
            if rng.random() >= told.honesty:
                free.difference_update(told.slots)
                continue
            for slot in told.slots:
                card = truth[slot]
                if card == told.name or (card == PIERROT and told.name in CORE_NAMES):
                    continue
                partners = [
                    s
                    for s in free
                    if truth[s] == told.name
                    and s not in told.slots
                    and (card != SIR_WOLFY or s not in self.wolfy_free)
                ]
                if not partners and card is not None and CARDS[card].special:
                    # a special this duel need not hold may go back to the box for the claimed one
                    held = sum(1 for s in free if truth[s] == card and s not in unused)
                    if held > missing[card]:
                        partners = [s for s in self.unused if truth[s] == told.name]
                if not partners:
                    break  # not enough copies left: the play is a bluff in this world
                other = partners[rng.randrange(len(partners))] if len(partners) > 1 else partners[0]
                truth[slot], truth[other] = truth[other], card
            free.difference_update(told.slots)


def _keep_wolfy_out(
    truth: list[str | None], hidden: list[int], banned: frozenset[int], rng: random.Random
) -> None:
    """Move a Sir Wolfy dealt where the rules say he cannot be to a random allowed slot
    (which leaves him uniform over the allowed ones)."""
    if not banned:
        return
    at = next((s for s in hidden if s in banned and truth[s] == SIR_WOLFY), None)
    if at is None:
        return
    allowed = [s for s in hidden if s not in banned]
    if not allowed:
        return
    other = rng.choice(allowed)
    truth[at], truth[other] = truth[other], truth[at]


def _extra_turn(view: DuelView) -> bool:
    attack = view.attack
    if attack is None or view.phase not in (Phase.TRADE, Phase.TRADE_ANSWER, Phase.WOLFY):
        return False
    active = attack.count - Blocking.of(attack, view.block).cancelled
    return attack.name in (SCOUT, ORACLE) and active > 0


def _wolfy(view: DuelView, table: _Table) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Who still says whether a Sir Wolfy was among its plays this turn, and which plays."""
    tauntable: list[tuple[int, ...]] = [()] * view.players
    if view.phase is not Phase.WOLFY or not view.to_act:
        return tuple(tauntable), ()
    seats: list[int] = []
    on_discard = set(table.discard)
    for play in (view.attack, view.block):
        if play is None:
            continue
        unflipped = tuple(s for s in play.slots if s in on_discard and table.masks[s] != EVERYONE)
        if unflipped:
            tauntable[play.seat] = unflipped
            seats.append(play.seat)
    seats = seats[seats.index(view.to_act[0]) :]
    for seat in range(view.players):
        if seat not in seats:
            tauntable[seat] = ()
    return tuple(tauntable), tuple(seats)


def _others_glimpses(view: DuelView) -> list[tuple[int, int, tuple[int, ...]]]:
    """The glimpses other seats hold, as (looker, holder, slots seen): a look at a hand
    gives its looker the whole hand once re-mixed, a Priest's taken cards give their owner's
    side those cards; a glimpse is gone once that hand loses a card.

    The hand a look saw is the holder's hand now, taken back event by event: every draw
    takes the lowest slots of the deck, so the cards a draw added are the highest of the hand.
    The cards themselves are read from the world's deal when it is drawn. After a Priest's
    take the holder's re-mix hides which of its cards came from the attack, so that glimpse
    is the card now in the taken slot: a likely guess, not a certainty.
    """
    events = view.events
    hands = [set(h) for h in view.hands]
    seen_at: dict[int, tuple[int, ...]] = {}
    for i in range(len(events) - 1, -1, -1):
        event = events[i]
        if isinstance(event, ev.Looked):
            seen_at[i] = tuple(sorted(hands[event.target]))
        elif isinstance(event, ev.Drew):
            for slot in sorted(hands[event.seat])[len(hands[event.seat]) - event.count :]:
                hands[event.seat].discard(slot)
        elif isinstance(event, (ev.Claimed, ev.Blocked)):
            hands[event.seat].update(event.slots)
        elif isinstance(event, ev.Took):
            hands[event.seat].difference_update(event.slots)
        elif isinstance(event, ev.Traded) and event.agreed:
            hands[event.seat] = (hands[event.seat] - set(event.take)) | set(event.give)
            hands[event.mate] = (hands[event.mate] - set(event.give)) | set(event.take)
    pending = -1  # a Summoner's look waits for its count before the hand is re-mixed
    if view.phase is Phase.DECLARE:
        pending = max(seen_at, default=-1)
    held: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, event in enumerate(events):
        if isinstance(event, ev.Looked):
            if i != pending and seen_at[i]:
                held[(event.seat, event.target)] = seen_at[i]
        elif isinstance(event, (ev.Claimed, ev.Blocked)):
            held = {k: v for k, v in held.items() if k[1] != event.seat}
        elif isinstance(event, ev.Traded) and event.agreed:
            held = {k: v for k, v in held.items() if k[1] not in (event.seat, event.mate)}
        elif isinstance(event, ev.Took):
            for looker in _holders(view, event.owner):
                held[(looker, event.seat)] = tuple(event.slots)
    return [(k[0], k[1], v) for k, v in sorted(held.items()) if k[0] != view.seat]


class _Plan:
    """Everything a world from one view holds whatever the cards dealt: the state but for
    its identities, and how to deal them."""

    def __init__(self, view: DuelView) -> None:
        assert view.seat is not None
        table = _Table(view)
        self.deal = _Deal(view, table)
        self.told = honesty(view)
        self.masks = tuple(table.masks)
        starter = next(
            (e.starter for e in reversed(view.events) if isinstance(e, ev.BoutStarted)), None
        )
        summons, thefts = summons_left(view)
        tauntable, wolfy_seats = _wolfy(view, table)
        public = frozenset(
            c
            for e in _since_duel(view.log)
            if isinstance(e, ev.Challenged)
            for c in e.cards
            if CARDS[c].special
        )
        if view.options.show_specials:
            public |= view.specials_seen
        self.public = public
        self.seat = view.seat
        self.others_glimpses = _others_glimpses(view)
        self.mine = tuple(
            (view.seat, holder, cards) for holder, cards in sorted(view.glimpses.items())
        )
        self.specials_seen = view.specials_seen
        # per other seat: the slots it knows, whose specials it has seen
        self.known_to = [
            [s for s, m in enumerate(self.masks) if m & (1 << other)]
            for other in range(view.players)
        ]
        forfeit = next((e.seat for e in view.log if isinstance(e, ev.Forfeited)), None)
        order = view.order
        self.template = DuelState(
            options=view.options,
            box=table.box,
            knowledge=Knowledge((), ()),
            deck=table.deck,
            discard=table.discard,
            unused=table.unused,
            hands=view.hands,
            hand_sizes=view.hand_sizes,
            cakes=view.cakes,
            trophies=view.trophies,
            duels=view.duels,
            phase=view.phase,
            queue=(),
            starter=starter,
            order=order,
            turn_index=order.index(view.attacker) if view.attacker is not None else 0,
            attack=view.attack,
            target=view.target,
            block=view.block,
            passes=view.passes,
            extra_turn=_extra_turn(view),
            summons=summons,
            summon_thefts=thefts,
            summon_name=view.summon_name,
            oracle=False,
            offer=view.trade_offer,
            tauntable=tauntable,
            wolfy_seats=wolfy_seats,
            taunting=None,
            public_specials=public,
            glimpses=(),
            declarations=(),
            breaches=view.breaches,
            bout=view.bout,
            turn=view.turn,
            events=view.log,
            bout_start=len(view.log) - len(view.events),
            winner=view.winner,
            forfeit=forfeit,
            state_id=view.state_id,
        )

    def world(self, rng: random.Random) -> World:
        truth = self.deal.draw(rng, self.told)
        masks = self.masks
        cards = tuple(c if m else None for c, m in zip(truth, masks, strict=True))
        seen = tuple(
            self.specials_seen
            if other == self.seat
            else self.public | {truth[s] for s in slots if CARDS[truth[s]].special}
            for other, slots in enumerate(self.known_to)
        )
        glimpses = self.mine + tuple(
            (looker, holder, tuple(truth[s] for s in slots))
            for looker, holder, slots in self.others_glimpses
        )
        state = evolve(
            self.template,
            knowledge=Knowledge(cards, masks),
            seen_specials=seen,
            glimpses=glimpses,
        )
        return World(state, truth)


# A search draws world after world from the view it stands at: the plan for the last view
# is kept (with the view itself, so it cannot be mistaken for another).
_last: list[tuple[DuelView, _Plan]] = []


def determinize(view: DuelView, rng: random.Random) -> World | None:
    """A whole duel drawn at random among those ``view``'s seat cannot tell apart from the
    one it plays; ``None`` for a spectator's view, or while a request is being fulfilled
    (a bot is only ever asked when it may act, and then nothing is waiting)."""
    if view.seat is None or view.waiting:
        return None
    last = _last[0] if _last else None
    if last is not None and last[0] is view:
        plan = last[1]
    else:
        plan = _Plan(view)
        _last[:] = [(view, plan)]
    if not plan.deal.ok:
        return None
    return plan.world(rng)

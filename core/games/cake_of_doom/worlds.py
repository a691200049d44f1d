"""Worlds drawn from one seat's view: where every card may lie and what it may be, given
only what that seat has seen.

Everything but the hidden cards is public and in the view: the steps still to run, the
regions, the piles' sizes, each hand's count of cake and mischief cards (the backs differ),
the offer, the cards on the table. What a seat cannot see is which facedown card is where:

* the slots of another hand and of the piles are interchangeable (a slot's number tells
  nothing but its deck), so the slots nobody has shown are laid out in order over the
  other hands and the piles, as many of each deck as the view counts;
* a hand looked at and held for a pick (Zix, Middle East) holds the slots the pick offers,
  and, for the looker, the cards it saw;
* the identities the seat cannot know are the box less every card it knows, dealt at random
  over those slots, cake cards to cake slots and mischief cards to mischief slots;
* a blind offer still face down is worth at least what its target needs (a smaller one is a
  cheat the briber would not make), so its cards are dealt first among the cakes not seen,
  until they reach it.

Who knows a card follows from where it lies, as it does at a seat's choice (every hand
another seat knew a card of has been re-mixed): a card face up, everyone; a card in a hand
or a face-down offer, its holder (and, for a hand held for a pick, the looker); a card in a
pile, nobody.
"""

from __future__ import annotations

import random

from cakeparty.core.game import World
from cakeparty.core.games.cake_of_doom.cards import CAKES, DOOM, REGIONS, box, is_cake_slot
from cakeparty.core.games.cake_of_doom.rules import units
from cakeparty.core.games.cake_of_doom.state import DoomState, Held, Offer
from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.knowledge import EVERYONE, Knowledge

#: draws of a blind offer's cards before the most valuable cakes left are taken instead
OFFER_TRIES = 64


def _table(view: DoomView) -> list[int]:
    """Every slot lying face up: discards, regions, DOOM, grab and steal cards, the cards
    played against the offer, and the offer itself once it is face up."""
    slots = [*view.cake_discard, *view.mischief_discard, *view.played, *view.doom.cards]
    for region in view.regions:
        slots.extend(region.cards)
    offer = view.offer
    if offer is not None:
        if offer.opened:
            slots.extend(offer.slots)
        for play in offer.sabotages:
            slots.append(play.slot)
            if play.blocked_by is not None:
                slots.append(play.blocked_by)
    return slots


def _hands(view: DoomView, placed: set[int]) -> tuple[list[list[int]], list[int], list[int]]:
    """The slots of every hand (the seat's own as it sees it, a held hand's known slots,
    unseen slots of the right deck for the rest), then of the cake and mischief piles."""
    assert view.seat is not None
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[view.seat] = list(view.hand)
    task = view.task
    hold = task.hold if task is not None else None
    if hold is not None and hold != view.seat:
        # the pick offers slots of the held hand; the looker saw the rest of it too
        held = set(task.among) if task is not None else set()
        held |= {s for s in view.known if s not in placed and s not in view.hand}
        hands[hold] = sorted(held)
    placed = placed | {s for h in hands for s in h}
    free_cakes = [s for s in range(CAKES) if s not in placed]
    free_mischief = [s for s in range(CAKES, len(box())) if s not in placed]
    # the slots are interchangeable: the identities dealt onto them are what is drawn
    for seat in range(view.players):
        if seat == view.seat:
            continue
        hand = hands[seat]
        cakes = view.hand_cakes[seat] - sum(1 for s in hand if is_cake_slot(s))
        mischief = view.hand_sizes[seat] - view.hand_cakes[seat]
        mischief -= sum(1 for s in hand if not is_cake_slot(s))
        hand.extend(free_cakes[len(free_cakes) - cakes :] if cakes else ())
        del free_cakes[len(free_cakes) - cakes :]
        hand.extend(free_mischief[len(free_mischief) - mischief :] if mischief else ())
        del free_mischief[len(free_mischief) - mischief :]
    # what is left lies in the piles
    return hands, free_cakes, free_mischief


def _offer_cards(view: DoomView, pool: list[str], rng: random.Random) -> list[str]:
    """Cake cards for a blind offer still face down, taken out of ``pool``: drawn at random
    until they reach the target's need (the most valuable left if that takes too long)."""
    offer = view.offer
    assert offer is not None
    n = len(offer.slots)
    continent = view.doom.favourite if offer.target == DOOM else REGIONS[offer.target].continent
    alien = view.aliens[offer.seat]
    least = offer.need - offer.freya
    for _ in range(OFFER_TRIES):
        picked = rng.sample(range(len(pool)), n)
        if sum(units(pool[i], continent, alien) for i in picked) >= least:
            break
    else:
        order = sorted(range(len(pool)), key=lambda i: -units(pool[i], continent, alien))
        picked = order[:n]
    chosen = [pool[i] for i in picked]
    for i in sorted(picked, reverse=True):
        pool.pop(i)
    return chosen


def determinize(view: DoomView, rng: random.Random) -> World | None:
    """A world drawn at random among those consistent with ``view``; ``None`` for a
    spectator's view or one waiting on cards (a seat chooses only when nothing moves)."""
    if view.seat is None or view.waiting:
        return None
    seat = view.seat
    table = _table(view)
    offer = view.offer
    face_down = offer.slots if offer is not None and not offer.opened else ()
    placed = {*table, *face_down}
    hands, cake_pile, mischief_pile = _hands(view, placed)

    # identities: what the seat knows, then the rest of the box at random
    names = box()
    truth: list[str | None] = [None] * len(names)
    for slot, name in view.known.items():
        truth[slot] = name
    seen = set(view.known.values())
    cake_pool = [n for n in names[:CAKES] if n not in seen]
    mischief_pool = [n for n in names[CAKES:] if n not in seen]
    rng.shuffle(cake_pool)
    rng.shuffle(mischief_pool)
    hidden_offer = [s for s in face_down if s not in view.known]
    if hidden_offer:
        for slot, name in zip(hidden_offer, _offer_cards(view, cake_pool, rng), strict=True):
            truth[slot] = name
    for slot in range(len(names)):
        if truth[slot] is None:
            truth[slot] = cake_pool.pop() if slot < CAKES else mischief_pool.pop()
    assert not cake_pool and not mischief_pool
    dealt = tuple(n for n in truth if n is not None)
    assert len(dealt) == len(names)

    # who knows what: from where each card lies
    masks = [0] * len(names)
    for slot in table:
        masks[slot] = EVERYONE
    task = view.task
    for holder, hand in enumerate(hands):
        bits = 1 << holder
        if task is not None and task.hold == holder:
            bits |= 1 << task.seat
        for slot in hand:
            masks[slot] = bits
    if offer is not None:
        for slot in face_down:
            masks[slot] = 1 << offer.seat
    for slot in view.known:
        masks[slot] |= 1 << seat
    cards = tuple(dealt[s] if masks[s] else None for s in range(len(names)))
    knowledge = Knowledge(cards, tuple(masks))
    state = _state(view, knowledge, hands, cake_pile, mischief_pile)
    return World(state, dealt)


def _state(
    view: DoomView,
    knowledge: Knowledge,
    hands: list[list[int]],
    cake_pile: list[int],
    mischief_pile: list[int],
) -> DoomState:
    """The state the view shows, with the hidden cards laid out as drawn."""
    offer = view.offer
    rebuilt = None
    if offer is not None:
        rebuilt = Offer(
            seat=offer.seat,
            target=offer.target,
            slots=offer.slots,
            need=offer.need,
            opened=offer.opened,
            units=offer.units,
            removed=offer.removed,
            freya=offer.freya,
            freya_removed=offer.freya_removed,
            protected=offer.protected,
            sabotages=offer.sabotages,
        )
    return DoomState(
        options=view.options,
        box=box(),
        knowledge=knowledge,
        phase=view.phase,
        queue=(),
        agenda=view.agenda,
        task=view.task,
        draws=view.draws,
        aliens=view.aliens,
        favourite=view.doom.favourite,
        regions=tuple(Held(r.name, r.holder, r.cards, r.value) for r in view.regions),
        first=view.first,
        current=view.current,
        round=view.round,
        turn=view.turn,
        cake_pile=tuple(cake_pile),
        mischief_pile=tuple(mischief_pile),
        cake_discard=view.cake_discard,
        mischief_discard=view.mischief_discard,
        hands=tuple(tuple(h) for h in hands),
        played=view.played,
        offer=rebuilt,
        asking=view.asking,
        breaches=view.breaches,
        cheat=view.cheat,
        doom=view.doom.holder,
        doom_cards=view.doom.cards,
        forfeit=view.forfeit,
        bribes_won=view.bribes_won,
        sabotages_played=view.sabotages_played,
        events=view.events,
        state_id=view.state_id,
    )


__all__ = ["determinize"]

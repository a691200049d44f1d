"""Worlds drawn from one seat's view: complete games a search may play out.

Where every card lies is public (every choice names slots), and so is who may know each
slot; only identities are hidden. A world keeps every identity the view shows and deals
the others — the cake cards in other hands and in the deck, the customers still in their
deck — at random among the cards not accounted for. Every round gathers and reshuffles all
72 cake cards, so nothing seen in an earlier round constrains them; nothing in the rules
ties a hidden card to a place either (no suit to follow, no claim to check).
"""

from __future__ import annotations

import random

from cakeparty.core.game import World
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.cards import CAKE_CARDS, CUSTOMER_CARDS
from cakeparty.core.games.cake_master.state import (
    SOLO_EXCHANGES,
    MasterState,
)
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Commit

BOX = CAKE_CARDS + CUSTOMER_CARDS
CAKE_COUNT = len(CAKE_CARDS)
BOX_COUNT = len(BOX)


def determinize(view: MasterView, rng: random.Random) -> World | None:
    """A world consistent with ``view``, drawn with ``rng``; ``None`` while cards are
    still moving (a settled table waits on the seats' choices, or is over)."""
    if view.waiting:
        return None
    known = view.known
    truth = list(BOX)
    # hidden slots, in slot order, take the unseen identities in a random order
    for first, last, names in (
        (0, CAKE_COUNT, CAKE_CARDS),
        (CAKE_COUNT, BOX_COUNT, CUSTOMER_CARDS),
    ):
        hidden = [s for s in range(first, last) if s not in known]
        seen = {known[s] for s in range(first, last) if s in known}
        unseen = [n for n in names if n not in seen]
        rng.shuffle(unseen)
        for slot, name in zip(hidden, unseen, strict=True):
            truth[slot] = name
        for slot in range(first, last):
            if slot in known:
                truth[slot] = known[slot]
    masks = view.known_by
    knowledge = Knowledge(tuple(truth[s] if masks[s] else None for s in range(BOX_COUNT)), masks)
    deck = tuple(range(CAKE_COUNT - view.deck_count, CAKE_COUNT))
    placed = {s for seat in view.cakes for cake in seat for s in cake if s is not None}
    held = {s for hand in view.hands for s in hand}
    discard = tuple(
        s for s in range(CAKE_COUNT - view.deck_count) if s not in placed and s not in held
    )
    customer_deck = tuple(range(BOX_COUNT - view.customers_left, BOX_COUNT))
    open_customers = set(view.customers)
    customer_discard = tuple(
        s for s in range(CAKE_COUNT, BOX_COUNT - view.customers_left) if s not in open_customers
    )
    forfeit = next((e.seat for e in view.events if isinstance(e, ev.Forfeited)), None)
    state = MasterState(
        options=view.options,
        box=BOX,
        knowledge=knowledge,
        deck=deck,
        discard=discard,
        customer_deck=customer_deck,
        customers=view.customers,
        customer_discard=customer_discard,
        hands=view.hands,
        cakes=view.cakes,
        phase=view.phase,
        queue=(Commit(view.to_act),) if view.to_act else (),
        received=view.given,
        round=view.round,
        turn=view.turn,
        stars=view.stars,
        last_taste=view.last_taste,
        results=view.results,
        exchanges=SOLO_EXCHANGES - view.exchanges_left if view.options.solo else 0,
        met=view.met,
        forfeit=forfeit,
        placing=(),
        events=view.events,
        state_id=view.state_id,
    )
    return World(state, tuple(truth))

"""How a game moves: ``apply`` a dealer's answer, then run every automatic step after it.

A round: shuffle all 72 cake cards, draw the round's customers (1, 2, 3; solo: up to 3),
then 4 turns. A turn: deal (3 cards; solo 4), pass (sealed; two players: keep one, give
two, then keep one, give one back), place (sealed), turn the placed cards face up. After
the fourth turn the round is scored. Every seat's decision is a sealed ``Commit``: the
choices reach the game together, as one ``Committed``, and are applied in seat order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cakeparty.core.actions import Action, Committed, Forfeited, Revealed, Shuffled
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.game import Outcome
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.cards import CAKE_CARDS, CARDS, CUSTOMER_CARDS, CUSTOMERS
from cakeparty.core.games.cake_master.legal import check, exchanges_left
from cakeparty.core.games.cake_master.scoring import best_matching, taste, taste_stars
from cakeparty.core.games.cake_master.state import (
    CAKE_SLOTS,
    NO_CAKES,
    ROUNDS,
    SOLO_CUSTOMERS,
    TURNS,
    MasterOptions,
    MasterState,
    Phase,
    RoundResult,
    SeatScore,
    evolve,
)
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Commit, Request, Reveal, Shuffle, check_answer

# -- setting up ------------------------------------------------------------------------


def new_state(options: MasterOptions) -> MasterState:
    """A game before anything is shuffled: every card in the box, face up."""
    box = CAKE_CARDS + CUSTOMER_CARDS
    players = options.players
    customers = tuple(range(len(CAKE_CARDS), len(box)))
    state = MasterState(
        options=options,
        box=box,
        knowledge=Knowledge.public(box),
        deck=(),
        discard=CAKE_SLOTS,
        customer_deck=customers,
        customers=(),
        customer_discard=(),
        hands=((),) * players,
        cakes=(NO_CAKES,) * players,
        phase=Phase.SETUP,
        queue=(Shuffle(customers),),
        received=((),) * players,
        stars=(0,) * players,
        last_taste=(0,) * players,
    )
    return _start_round(state)


def _log(state: MasterState, *events: Any) -> MasterState:
    return evolve(state, events=state.events + events)


def _start_round(state: MasterState) -> MasterState:
    """Gather every cake card and have them shuffled; draw the round's customers; deal."""
    number = state.round + 1
    new = SOLO_CUSTOMERS - len(state.customers) if state.options.solo else number
    drawn = state.customer_deck[:new]
    queue: list[Request] = [*state.queue, Shuffle(CAKE_SLOTS)]
    if drawn:
        queue.append(Reveal(drawn, None))
    state = evolve(
        state,
        round=number,
        deck=CAKE_SLOTS,
        discard=(),
        hands=((),) * state.players,
        cakes=(NO_CAKES,) * state.players,
        customer_deck=state.customer_deck[len(drawn) :],
        customers=state.customers + drawn,
        queue=tuple(queue),
    )
    return _deal(_log(state, ev.RoundStarted(number)))


def _draw(state: MasterState, needs: Sequence[tuple[int, int]]) -> MasterState:
    """Give ``(seat, count)`` cards from the top of the deck, each shown to its seat only.

    A deck that runs short takes the discard pile back, shuffled, under what is left.
    """
    queue = list(state.queue)
    deck, discard = state.deck, state.discard
    if len(deck) < sum(n for _, n in needs) and discard:
        queue.append(Shuffle(discard))
        deck, discard = deck + discard, ()
    hands = list(state.hands)
    for seat, count in needs:
        drawn, deck = deck[:count], deck[count:]
        hands[seat] = hands[seat] + drawn
        if drawn:
            queue.append(Reveal(drawn, (seat,)))
    return evolve(state, deck=deck, discard=discard, hands=tuple(hands), queue=tuple(queue))


def _deal(state: MasterState) -> MasterState:
    size = state.options.hand_size
    state = _draw(state, [(seat, size) for seat in range(state.players)])
    return evolve(state, phase=Phase.SETUP, turn=state.turn + 1)


def _choose(state: MasterState, phase: Phase) -> MasterState:
    seats = tuple(range(state.players))
    return evolve(state, phase=phase, queue=(*state.queue, Commit(seats)))


def _dealt(state: MasterState) -> MasterState:
    if state.options.solo:
        return _choose(state, Phase.PLACE)
    return _choose(state, Phase.KEEP if state.options.duo else Phase.PASS)


# -- passing -----------------------------------------------------------------------------


def _show(state: MasterState, seat: int, slots: Sequence[int]) -> MasterState:
    """Have ``slots`` shown to ``seat`` where it does not know them yet."""
    unknown = tuple(s for s in slots if not state.knowledge.knows(seat, s))
    if not unknown:
        return state
    return evolve(state, queue=(*state.queue, Reveal(unknown, (seat,))))


def _passed(state: MasterState, choices: dict[int, Action]) -> MasterState:
    """Every seat gives one card left and one right, keeping the third."""
    gives: dict[int, list[int]] = {seat: [] for seat in range(state.players)}
    kept: dict[int, tuple[int, ...]] = {}
    for seat, action in choices.items():
        assert isinstance(action, PassCards)
        gives[state.left(seat)].append(action.left)
        gives[state.right(seat)].append(action.right)
        kept[seat] = tuple(s for s in state.hands[seat] if s not in (action.left, action.right))
    hands = tuple(kept[seat] + tuple(sorted(gives[seat])) for seat in range(state.players))
    state = _log(evolve(state, hands=hands, phase=Phase.PASSING), ev.CardsPassed(state.turn))
    for seat in range(state.players):
        state = _show(state, seat, gives[seat])
    return state


def _kept(state: MasterState, choices: dict[int, Action]) -> MasterState:
    """Two players: keep one card, give the other two to the opponent."""
    kept = {seat: action.slot for seat, action in choices.items() if isinstance(action, Keep)}
    given = {seat: tuple(s for s in state.hands[seat] if s != kept[seat]) for seat in range(2)}
    hands = tuple((kept[seat], *given[1 - seat]) for seat in range(2))
    received = (given[1], given[0])
    state = evolve(state, hands=hands, received=received, phase=Phase.PASSING)
    state = _log(state, ev.CardsPassed(state.turn))
    for seat in range(2):
        state = _show(state, seat, received[seat])
    return state


def _kept_back(state: MasterState, choices: dict[int, Action]) -> MasterState:
    """Two players: keep one of the two cards received, give the other back."""
    back = {}
    for seat, action in choices.items():
        assert isinstance(action, Keep)
        back[seat] = next(s for s in state.received[seat] if s != action.slot)
    hands = tuple(
        (*tuple(s for s in state.hands[seat] if s != back[seat]), back[1 - seat])
        for seat in range(2)
    )
    state = evolve(state, hands=hands, received=((), ()), phase=Phase.PASSING)
    state = _log(state, ev.CardsPassed(state.turn, back=True))
    for seat in range(2):
        state = _show(state, seat, (back[1 - seat],))
    return state


def _after_passing(state: MasterState) -> MasterState:
    if state.options.duo and any(state.received):
        return _choose(state, Phase.KEEP_BACK)
    return _choose(state, Phase.PLACE)


# -- placing -----------------------------------------------------------------------------


def _exchanged(state: MasterState, seat: int, action: Exchange) -> MasterState:
    hand = tuple(s for s in state.hands[seat] if s not in action.slots)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1 :])
    state = evolve(
        state,
        hands=hands,
        discard=state.discard + action.slots,
        exchanges=state.exchanges + 1,
        phase=Phase.EXCHANGING,
    )
    state = _draw(state, [(seat, len(action.slots))])
    return _log(state, ev.Exchanged(seat, len(action.slots), exchanges_left(state)))


def _placed(state: MasterState, choices: dict[int, Action]) -> MasterState:
    """Every seat's three cards go on its cakes; they are turned face up together."""
    cakes = [list(map(list, seat_cakes)) for seat_cakes in state.cakes]
    hands = list(state.hands)
    discard = state.discard
    shown: list[int] = []
    for seat, action in choices.items():
        assert isinstance(action, Place)
        for slot, (cake, quarter) in action.spots.items():
            cakes[seat][cake][quarter] = slot
        left = tuple(s for s in hands[seat] if s not in action.slots)
        discard += left  # solo: the fourth card
        hands[seat] = ()
        shown.extend(action.slots)
    state = evolve(
        state,
        cakes=tuple(tuple(tuple(cake) for cake in seat) for seat in cakes),
        hands=tuple(hands),
        discard=discard,
        phase=Phase.PLACING,
    )
    unknown = tuple(s for s in shown if not state.knowledge.knows(None, s))
    if unknown:
        state = evolve(state, queue=(*state.queue, Reveal(unknown, None)))
    return state


def _after_placing(state: MasterState) -> MasterState:
    placed = []
    for seat, action in state.placing:
        assert isinstance(action, Place)
        cards = tuple(state.knowledge.cards[s] or "?" for s in action.slots)
        placed.append(ev.Placed(seat, cards, action.cakes, action.quarters))
    state = _log(evolve(state, placing=()), *placed)
    if state.turn_in_round < TURNS:
        return _deal(state)
    state = _score_round(state)
    if state.round < ROUNDS:
        return _start_round(state)
    return _game_over(state)


# -- scoring -----------------------------------------------------------------------------


def _score_round(state: MasterState) -> MasterState:
    customers = tuple(state.knowledge.cards[s] or "?" for s in state.customers)
    players = state.players
    per_seat = []
    for seat in range(players):
        cakes = state.seat_cakes(seat)
        if any(c is None for cake in cakes for c in cake):
            raise IllegalActionError(None, None, _("a cake is scored before its cards are shown"))
        tastes = tuple(taste(cake) for cake in cakes)
        per_seat.append((cakes, tastes, best_matching(cakes, customers)))
    totals = [sum(t.total for t in tastes) for _, tastes, _ in per_seat]
    stars_for_taste = (0,) * players if state.options.solo else taste_stars(totals)
    scores = tuple(
        SeatScore(cakes, tastes, stars_for_taste[seat], matches)
        for seat, (cakes, tastes, matches) in enumerate(per_seat)
    )
    stars = tuple(state.stars[s] + scores[s].stars for s in range(players))
    result = RoundResult(state.round, customers, scores, stars)
    if state.options.solo:
        won = {state.customers[k] for _, k in scores[0].matches}
        left = tuple(s for s in state.customers if s not in won)
        gone = tuple(s for s in state.customers if s in won)
        met = state.met + len(won)
    else:
        left, gone, met = (), state.customers, 0
    state = evolve(
        state,
        stars=stars,
        last_taste=tuple(totals),
        results=(*state.results, result),
        customers=left,
        customer_discard=state.customer_discard + gone,
        met=met,
    )
    return _log(state, ev.RoundScored(result))


def winners(state: MasterState) -> tuple[tuple[int, ...], bool]:
    """The winning seats, and whether the win is shared (a tie after the taste tie-break)."""
    seats = [s for s in range(state.players) if s != state.forfeit]
    if state.options.solo:
        return (0,), False
    best = max(state.stars[s] for s in seats)
    top = [s for s in seats if state.stars[s] == best]
    if len(top) > 1:
        taste_best = max(state.last_taste[s] for s in top)
        top = [s for s in top if state.last_taste[s] == taste_best]
    return tuple(top), len(top) > 1


def _game_over(state: MasterState) -> MasterState:
    won, shared = winners(state)
    return _log(evolve(state, phase=Phase.OVER, queue=()), ev.GameOver(won, shared))


RATINGS = ((7, "cake-master"), (4, "baker"), (0, "apprentice"))


def rating(met: int) -> str:
    """Solo: the rating a number of customers met earns."""
    return next(name for low, name in RATINGS if met >= low)


def outcome(state: MasterState) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    won, shared = winners(state)
    if state.forfeit is not None:
        reason = "forfeit"
    elif state.options.solo:
        reason = rating(state.met)
    else:
        reason = "stars"
    scores = (state.met,) if state.options.solo else state.stars
    return Outcome(winners=won, reason=reason, scores=scores, shared=shared)


# -- applying ----------------------------------------------------------------------------


def _learn(state: MasterState, action: Revealed) -> MasterState:
    known = state.knowledge
    for slot, card in zip(action.slots, action.cards, strict=True):
        if card is None:
            continue
        held = known.cards[slot]
        if held is not None and held != card:
            raise IllegalActionError(
                None,
                action,
                _("slot {slot} is {held}, not {card}").format(slot=slot, held=held, card=card),
            )
        kinds = CARDS if slot < len(CAKE_CARDS) else CUSTOMERS
        if card not in kinds:
            raise IllegalActionError(
                None, action, _("{card} cannot lie in slot {slot}").format(card=card, slot=slot)
            )
    state = evolve(state, knowledge=known.reveal(action.slots, action.cards, action.to))
    if action.to is None and action.slots and action.slots[0] >= len(CAKE_CARDS):
        names = tuple(c or "?" for c in action.cards)
        state = _log(state, ev.CustomersArrived(names))
    return state


def _committed(state: MasterState, action: Committed) -> MasterState:
    choices = dict(action.choices)
    phase = state.phase
    if phase is Phase.PASS:
        return _passed(state, choices)
    if phase is Phase.KEEP:
        return _kept(state, choices)
    if phase is Phase.KEEP_BACK:
        return _kept_back(state, choices)
    assert phase is Phase.PLACE
    exchange = choices.get(0)
    if isinstance(exchange, Exchange):
        return _exchanged(state, 0, exchange)
    return evolve(_placed(state, choices), placing=action.choices)


_CONTINUE: dict[Phase, Callable[[MasterState], MasterState]] = {
    Phase.SETUP: _dealt,
    Phase.PASSING: _after_passing,
    Phase.EXCHANGING: lambda s: _choose(s, Phase.PLACE),
    Phase.PLACING: _after_placing,
}


def _fulfil(state: MasterState, action: Action) -> MasterState:
    """Feed a dealer's answer to the pending request, then carry on."""
    check_answer(state.pending, action)
    if isinstance(action, Committed):
        for seat, choice in action.choices:
            check(state, seat, choice)
    state = evolve(state, queue=state.queue[1:])
    if isinstance(action, Shuffled):
        state = evolve(state, knowledge=state.knowledge.forget(action.slots))
    elif isinstance(action, Revealed):
        state = _learn(state, action)
    else:
        assert isinstance(action, Committed)
        state = _committed(state, action)
    if state.queue:
        return state
    return _CONTINUE[state.phase](state)


def _forfeited(state: MasterState, action: Forfeited) -> MasterState:
    """A breach proven against a seat: the game ends at once, that seat cannot win."""
    if state.phase is Phase.OVER or not 0 <= action.seat < state.players:
        raise IllegalActionError(None, action, _("nobody may forfeit now"))
    state = evolve(state, forfeit=action.seat, phase=Phase.OVER, queue=())
    won, shared = winners(state)
    return _log(state, ev.Forfeited(action.seat, action.reason), ev.GameOver(won, shared))


def apply(state: MasterState, action: Action, seat: int | None) -> MasterState:
    """The state after the dealer (``seat`` is ``None``) answers a request.

    Every decision of a seat is a sealed choice: it reaches the game inside a
    ``Committed`` with the choices of every other seat, never on its own.
    """
    if seat is not None:
        raise IllegalActionError(
            seat, action, _("choices are sealed and opened together with the other seats'")
        )
    if state.phase is Phase.OVER:
        raise IllegalActionError(None, action, _("the game is over"))
    state = _forfeited(state, action) if isinstance(action, Forfeited) else _fulfil(state, action)
    return evolve(state, state_id=state.state_id + 1)

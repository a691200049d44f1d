"""Grab and steal cards and the control bonuses of the advanced game: a Tractor Beam's
take from a discard pile, a steal (a fair random card shown to thief and victim; Zix looks
and chooses), and each region's one-off bonus, a choice of its winner where it needs one.

How the bonuses are played where the table leaves room:

* They come after the bribe has resolved: the cards a sabotage removed are already on the
  cake discard pile, so Western Europe may take back a cake just removed (the worked
  example's Moon Cake).
* North America, West Africa, North Africa's redraw and Mumbo's card: the winner chooses
  the piles (``draw``). South America, South Asia and Pacific Islands draw from their pile
  what it can give.
* East Asia and Middle East choose among the other players holding cards; Middle East
  takes a cake card only, and nothing from a hand without one (the look still counts: that
  hand is re-mixed).
* Southern Africa asks each other player holding cards, from the winner's left.
* North Africa's discard may be empty (then nothing is drawn).
* Vashti must take one of the eaten cakes (there is no reason to refuse one).
* A bonus that finds nothing to take (an empty discard pile, nobody with cards) does
  nothing.
"""

from __future__ import annotations

from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.cards import (
    ZIX,
)
from cakeparty.core.games.cake_of_doom.state import (
    DoomState,
    Phase,
    Task,
    replace,
)
from cakeparty.core.games.cake_of_doom.steps import (
    add,
    ask,
    draw,
    draw_task,
    drop,
    log,
    pick,
    public_names,
    remix,
    request,
    show,
    then,
)
from cakeparty.core.requests import Random


def grab(state: DoomState, seat: int, slot: int, pile: str) -> DoomState:
    """A Tractor Beam takes the top card of a discard pile, then lies on the mischief discard."""
    discard = state.cake_discard if pile == "cake" else state.mischief_discard
    taken = discard[-1:]
    if pile == "cake":
        state = replace(state, cake_discard=discard[:-1])
    else:
        state = replace(state, mischief_discard=discard[:-1])
    state = log(add(state, seat, taken), ev.Grabbed(seat, pile, public_names(state, taken)[0]))
    played = tuple(s for s in state.played if s != slot)
    return replace(state, played=played, mischief_discard=(*state.mischief_discard, slot))


def abducted(state: DoomState, seat: int, slot: int, victim: int) -> DoomState:
    """An Abduction goes to the mischief discard and steals from ``victim``."""
    played = tuple(s for s in state.played if s != slot)
    state = replace(state, played=played, mischief_discard=(*state.mischief_discard, slot))
    state = log(state, ev.Abducted(seat, victim))
    return then(state, ("steal", seat, victim, "abduction"))


def steal(state: DoomState, thief: int, victim: int, why: str) -> DoomState:
    """Take a card from ``victim``: Zix looks and chooses; otherwise a fair random card."""
    hand = state.hands[victim]
    if not hand or thief == victim:
        return state
    if why == "abduction" and state.aliens[thief] == ZIX:
        state = log(state, ev.Looked(thief, victim))
        state = show(state, hand, (thief,))
        return then(state, ("look-pick", thief, victim, "zix"))
    state = remix(state, victim)
    state = request(state, Random(len(hand)))
    return then(state, ("stolen", thief, victim, why))


def stolen(state: DoomState, thief: int, victim: int, why: str) -> DoomState:
    """Move the random card drawn to the thief and show it to the thief."""
    index = state.draws[-1]
    state = replace(state, draws=())
    slot = state.hands[victim][index]
    state = add(drop(state, victim, (slot,)), thief, (slot,))
    state = show(state, (slot,), (thief, victim))
    return log(state, ev.Stole(thief, victim, why))


def look_pick(state: DoomState, seat: int, victim: int, why: str) -> DoomState:
    """After a look, the looker picks a card (Middle East: a cake card) of that hand."""
    hand = state.hands[victim]
    among = state.cakes_in_hand(victim) if why == "middle-east" else hand
    if not among:
        return state
    return ask(state, Task(Phase.PICK, seat, among=among, hold=victim, why=why))


def others_with_cards(state: DoomState, seat: int) -> tuple[int, ...]:
    """The other seats holding cards, from ``seat``'s left."""
    return tuple(
        (seat + i) % state.players
        for i in range(1, state.players)
        if state.hands[(seat + i) % state.players]
    )


def bonus(state: DoomState, seat: int, region: str) -> DoomState:
    """The control bonus of ``region``, won by ``seat`` (advanced)."""
    state = log(state, ev.ControlBonus(seat, region))
    if region == "north-america":
        return draw_task(state, seat, 2, region)
    if region == "south-america":
        return draw(state, seat, min(1, state.available("cake")), 0)
    if region in ("western-europe", "eastern-europe"):
        pile = "cake" if region == "western-europe" else "mischief"
        discard = state.cake_discard if pile == "cake" else state.mischief_discard
        if not discard:
            return log(state, ev.BonusVoid(seat, region))
        top = discard[-1]
        state = pick(state, seat, top)
        return state
    if region == "east-asia":
        victims = others_with_cards(state, seat)
        if not victims:
            return log(state, ev.BonusVoid(seat, region))
        return ask(state, Task(Phase.ROB, seat, among=victims, why=region))
    if region == "south-asia":
        return draw(state, seat, 0, min(1, state.available("mischief")))
    if region == "middle-east":
        victims = others_with_cards(state, seat)
        if not victims:
            return log(state, ev.BonusVoid(seat, region))
        return ask(state, Task(Phase.PEEK, seat, among=victims, why=region))
    if region == "north-africa":
        hand = state.hands[seat]
        if not hand:
            return log(state, ev.BonusVoid(seat, region))
        return ask(state, Task(Phase.DISCARD, seat, count=len(hand), upto=True, why=region))
    if region == "west-africa":
        return draw_task(state, seat, 1, region)
    if region == "southern-africa":
        others = others_with_cards(state, seat)
        if not others:
            return log(state, ev.BonusVoid(seat, region))
        return then(state, *(("discard-one", other, region) for other in others))
    if region == "australia":
        if not state.mischief_discard:
            return log(state, ev.BonusVoid(seat, region))
        return ask(state, Task(Phase.PICK, seat, among=state.mischief_discard, why=region))
    if region == "pacific-islands":
        state = draw(state, seat, min(2, state.available("cake")), 0)
        return then(state, ("discard-one", seat, region))
    if region in ("arctic", "antarctica"):
        victim = state.left(seat) if region == "arctic" else state.right(seat)
        return then(state, ("steal", seat, victim, region))
    raise AssertionError(region)


def discard_one(state: DoomState, seat: int, why: str) -> DoomState:
    """``seat`` discards 1 card of its choice (Southern Africa, Pacific Islands)."""
    if not state.hands[seat]:
        return state
    return ask(state, Task(Phase.DISCARD, seat, count=1, why=why))


def discard_rest(state: DoomState, task: Task, count: int) -> DoomState:
    """A discard of several cards may be made one card at a time."""
    if not state.hands[task.seat]:
        return state
    return ask(state, replace(task, count=min(count, len(state.hands[task.seat]))))


def redraw(state: DoomState, seat: int, count: int) -> DoomState:
    """North Africa: draw as many cards as were discarded."""
    return draw_task(state, seat, count, "north-africa")

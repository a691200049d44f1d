"""How a game moves: ``apply`` a seat's move or a dealer's answer, then run every automatic
step after it until a seat must choose, a request is waited on, or the game is over.

The automatic steps wait in ``state.agenda`` (the first runs next); a move or a step puts
its own steps in front, so a sub-flow (a steal, a sabotage and its Force Field, a control
bonus) finishes before the turn goes on.

Decisions this engine takes where the printed rules leave room (see also the package
docstring):

* Setup is public fair randomness, in this order: each seat's alien (a draw among the
  aliens left, seat 0 first), DOOM's favourite continent, the regions in play (a draw among
  the regions left, one at a time), the first player. Then both decks are shuffled.
* A card played from a hand (a Tractor Beam, an Abduction, a sabotage, a Force Field) is
  shown to everyone as it is played; one that is not what its move claimed is a cheat that
  ends the game (:class:`~.state.Breach`, reason ``cheated``). An offer is shown to
  everyone at once (blind: once every saboteur has answered); one worth less than its
  target needs before sabotage is a cheat too. Whether a slot is a cake or a mischief card
  is public (the backs differ), so an offer of a mischief card is simply illegal.
* Before a seat chooses, every hand that holds a card some other seat knows (a card taken
  from a discard pile, returned from a failed bribe, stolen, or seen in a look) is re-mixed
  by its holder, cake and mischief cards separately: nobody can follow a known card into a
  later facedown offer. A hand looked at (Zix, Middle East) stays as it is until the
  looker has taken its card.
* A steal draws a fair random card of the victim's hand, then shows it to the thief (and
  the victim, who knew it).
* Sabotage is asked once of each other seat, in seat order from the briber's left; a seat
  holding no mischief card is skipped (public: the backs differ), and so is the briber's
  Force Field question. Krell, after a sabotage, is asked once more at once. After each
  sabotage the briber may answer with one Force Field (it cancels that sabotage; a
  sabotage needs no second one, so "any number" means one per sabotage). In the open game
  the saboteur then chooses what its standing sabotage removes; in the blind game every
  removal is chosen after the offer is shown, in the order the sabotages were played (a
  Cake Monster takes half the value as it stands then).
* Cards played against a bribe (sabotages, Force Fields) go to the mischief discard pile
  when the bribe resolves; a grab or steal card once it has taken effect (a Tractor Beam
  cannot take itself).
* A draw takes its cards from the top of each pile. A pile that cannot give what a draw
  asks takes back its discard pile, all but the top card, shuffled, under the cards left.
  A draw asks for at most what both piles can still give.
* At the end of a turn a hand over the limit discards down to it (no voluntary discards).
  A discard of several cards may be made at once or one card at a time (the step asks
  again for the rest); the legal moves listed are the one-card discards.
* A control bonus (advanced) is taken every time its region is won.
* The game ends at once when DOOM is won, or after round 10; or when a seat cheated, and
  then nobody who cheated wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cakeparty.core.actions import Action, Forfeited, RandomResult, Remixed, Revealed, Shuffled
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.game import Outcome
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Abduct,
    Bribe,
    ChooseMix,
    Discard,
    Draw,
    ForceField,
    Grab,
    NoBribe,
    NoForceField,
    NoSabotage,
    Peek,
    PickCard,
    Remove,
    Rob,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import (
    ALIEN_NAMES,
    CAKE_SLOTS,
    CONTINENTS,
    DEAL_CAKES,
    DEAL_MISCHIEF,
    DOOM,
    FORCE_FIELD,
    KRELL,
    MISCHIEF_SLOTS,
    MUMBO,
    REGION_NAMES,
    REGIONS_IN_PLAY,
    ROUNDS,
    TRACTOR_BEAM,
    VASHTI,
    ZIX,
    box,
    card,
    is_cake_slot,
    is_card,
)
from cakeparty.core.games.cake_of_doom.legal import check
from cakeparty.core.games.cake_of_doom.rules import (
    amount,
    freya_bonus,
    protected,
    requirement,
    target_continent,
    units,
)
from cakeparty.core.games.cake_of_doom.state import (
    Breach,
    DoomOptions,
    DoomState,
    Held,
    Offer,
    Phase,
    SabotagePlay,
    Task,
)
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import EVERYONE, Knowledge
from cakeparty.core.requests import Random, Remix, Reveal, Shuffle, check_answer

# -- small helpers ---------------------------------------------------------------------


def _log(state: DoomState, *events: Any) -> DoomState:
    return replace(state, events=state.events + events)


def _then(state: DoomState, *steps: tuple[Any, ...]) -> DoomState:
    """Run ``steps`` next, before the rest of the agenda."""
    return replace(state, agenda=(*steps, *state.agenda))


def _ask(state: DoomState, task: Task) -> DoomState:
    return replace(state, task=task, phase=task.phase)


def _request(state: DoomState, *requests: Any) -> DoomState:
    return replace(state, queue=(*state.queue, *requests))


def _set_hand(state: DoomState, seat: int, hand: tuple[int, ...]) -> DoomState:
    hands = list(state.hands)
    hands[seat] = hand
    return replace(state, hands=tuple(hands))


def _add(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    return _set_hand(state, seat, state.hands[seat] + slots)


def _drop(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    return _set_hand(state, seat, tuple(s for s in state.hands[seat] if s not in slots))


def _count(values: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(v + 1 if i == seat else v for i, v in enumerate(values))


def _show_all(state: DoomState, slots: tuple[int, ...]) -> DoomState:
    """Have ``slots`` turned face up where they are not yet."""
    hidden = tuple(s for s in slots if not state.knowledge.knows(None, s))
    return _request(state, Reveal(hidden, None)) if hidden else state


def _show(state: DoomState, slots: tuple[int, ...], seats: tuple[int, ...]) -> DoomState:
    unknown = tuple(s for s in slots if not all(state.knowledge.knows(t, s) for t in seats))
    return _request(state, Reveal(unknown, seats)) if unknown else state


def _discard_to_piles(state: DoomState, slots: tuple[int, ...]) -> DoomState:
    cakes = tuple(s for s in slots if is_cake_slot(s))
    mischief = tuple(s for s in slots if not is_cake_slot(s))
    return replace(
        state,
        cake_discard=state.cake_discard + cakes,
        mischief_discard=state.mischief_discard + mischief,
    )


def _names(state: DoomState, slots: tuple[int, ...]) -> tuple[str | None, ...]:
    return tuple(
        state.knowledge.cards[s] if state.knowledge.knows(None, s) else None for s in slots
    )


# -- setting up ------------------------------------------------------------------------


def new_state(options: DoomOptions) -> DoomState:
    """A game before anything is drawn: every card in the box, face up."""
    cards = box()
    players = options.players
    picks = REGIONS_IN_PLAY[players]
    queue = (
        *(Random(len(ALIEN_NAMES) - i) for i in range(players)),
        Random(len(CONTINENTS)),
        *(Random(len(REGION_NAMES) - i) for i in range(picks)),
        Random(players),
    )
    return DoomState(
        options=options,
        box=cards,
        knowledge=Knowledge.public(cards),
        phase=Phase.SETUP,
        queue=queue,
        agenda=(("setup",),),
        cake_pile=CAKE_SLOTS,
        mischief_pile=MISCHIEF_SLOTS,
        hands=((),) * players,
        bribes_won=(0,) * players,
        sabotages_played=(0,) * players,
    )


def _setup(state: DoomState) -> DoomState:
    draws = list(state.draws)
    pool = list(ALIEN_NAMES)
    aliens = tuple(pool.pop(draws.pop(0)) for _ in range(state.players))
    favourite = CONTINENTS[draws.pop(0)]
    pool = list(REGION_NAMES)
    chosen = {pool.pop(draws.pop(0)) for _ in range(REGIONS_IN_PLAY[state.players])}
    regions = tuple(Held(name) for name in REGION_NAMES if name in chosen)
    first = draws.pop(0)
    state = replace(
        state,
        draws=(),
        aliens=aliens,
        favourite=favourite,
        regions=regions,
        first=first,
        current=first,
    )
    state = _log(state, ev.GameSetUp(aliens, tuple(r.name for r in regions), favourite, first))
    state = _request(state, Shuffle(CAKE_SLOTS), Shuffle(MISCHIEF_SLOTS))
    order = tuple((first + i) % state.players for i in range(state.players))
    if state.options.advanced:
        return _then(state, *(("ask-mix", seat) for seat in order), ("start-game",))
    # dealt once the shuffles are done
    deals = (("deal", seat, DEAL_CAKES, DEAL_MISCHIEF) for seat in order)
    return _then(state, *deals, ("start-game",))


def _deal(state: DoomState, seat: int, cakes: int, mischief: int) -> DoomState:
    dealt = state.cake_pile[:cakes] + state.mischief_pile[:mischief]
    state = replace(
        state, cake_pile=state.cake_pile[cakes:], mischief_pile=state.mischief_pile[mischief:]
    )
    return _request(_add(state, seat, dealt), Reveal(dealt, (seat,)))


def _ask_mix(state: DoomState, seat: int) -> DoomState:
    return _ask(state, Task(Phase.MIX, seat, why="opening"))


def _start_game(state: DoomState) -> DoomState:
    state = _log(replace(state, round=1), ev.RoundStarted(1))
    return _start_turn(state)


def _start_turn(state: DoomState) -> DoomState:
    state = replace(state, turn=state.turn + 1)
    state = _log(state, ev.TurnStarted(state.current, state.round))
    return _ask(state, Task(Phase.PLAY, state.current))


def _play(state: DoomState) -> DoomState:
    return _ask(state, Task(Phase.PLAY, state.current))


# -- drawing ---------------------------------------------------------------------------


def _take(state: DoomState, pile: str, n: int) -> tuple[DoomState, tuple[int, ...]]:
    """Take ``n`` cards from the top of ``pile``, refilling it from its discard pile."""
    cake = pile == "cake"
    cards = state.cake_pile if cake else state.mischief_pile
    discard = state.cake_discard if cake else state.mischief_discard
    if len(cards) < n and len(discard) > 1:
        back, discard = discard[:-1], discard[-1:]
        cards = cards + back
        state = _log(_request(state, Shuffle(back)), ev.Refilled(pile, len(back)))
    taken, cards = cards[:n], cards[n:]
    if cake:
        state = replace(state, cake_pile=cards, cake_discard=discard)
    else:
        state = replace(state, mischief_pile=cards, mischief_discard=discard)
    return state, taken


def draw(state: DoomState, seat: int, cakes: int, mischief: int) -> DoomState:
    """``seat`` draws ``cakes`` + ``mischief`` cards, each shown to ``seat`` alone."""
    state, a = _take(state, "cake", cakes)
    state, b = _take(state, "mischief", mischief)
    drawn = a + b
    if not drawn:
        return state
    # every drawn card is shown, known or not: a refill's shuffle is still to come
    state = _request(_add(state, seat, drawn), Reveal(drawn, (seat,)))
    return _log(state, ev.Drew(seat, len(a), len(b)))


def _draw_task(state: DoomState, seat: int, count: int, why: str) -> DoomState:
    n = min(count, state.available("cake") + state.available("mischief"))
    if n <= 0:
        return state
    return _ask(state, Task(Phase.DRAW, seat, count=n, why=why))


def _draw_step(state: DoomState) -> DoomState:
    return _draw_task(state, state.current, state.draw_count(state.current), "turn")


def _limit(state: DoomState) -> DoomState:
    seat = state.current
    excess = len(state.hands[seat]) - state.limit(seat)
    if excess <= 0:
        return state
    return _ask(state, Task(Phase.DISCARD, seat, count=excess, why="limit"))


def _end_turn(state: DoomState) -> DoomState:
    following = state.left(state.current)
    if following == state.first:
        if state.round >= ROUNDS:
            return _game_over(state, "rounds")
        state = _log(replace(state, round=state.round + 1), ev.RoundStarted(state.round + 1))
    return _start_turn(replace(state, current=following))


# -- claims and cheats -----------------------------------------------------------------


def _claim(state: DoomState, seat: int, slot: int, sort: str, move: str) -> DoomState:
    """A card played as ``sort`` is face up now: end the game if it is something else."""
    name = state.knowledge.cards[slot]
    if name is None:
        raise IllegalActionError(None, move, f"slot {slot} was not shown")
    if card(name).sort != sort:
        reason = _("played {card} as {claimed}").format(
            card=_(card(name).title), claimed=_(card(f"{sort}-1").title)
        )
        return cheat(state, seat, move, reason)
    return state


def cheat(state: DoomState, seat: int, move: str, reason: str) -> DoomState:
    """``seat`` is proven to have cheated: the game ends, and no cheat wins."""
    state = replace(
        state,
        breaches=(*state.breaches, Breach(seat, move, reason, state.turn)),
        cheat=seat if state.cheat is None else state.cheat,
    )
    return _game_over(_log(state, ev.Cheated(seat, reason)), "cheated")


# -- grab and steal --------------------------------------------------------------------


def _grab(state: DoomState, seat: int, slot: int, pile: str) -> DoomState:
    discard = state.cake_discard if pile == "cake" else state.mischief_discard
    taken = discard[-1:]
    if pile == "cake":
        state = replace(state, cake_discard=discard[:-1])
    else:
        state = replace(state, mischief_discard=discard[:-1])
    state = _log(_add(state, seat, taken), ev.Grabbed(seat, pile, _names(state, taken)[0]))
    played = tuple(s for s in state.played if s != slot)
    return replace(state, played=played, mischief_discard=(*state.mischief_discard, slot))


def _abducted(state: DoomState, seat: int, slot: int, victim: int) -> DoomState:
    played = tuple(s for s in state.played if s != slot)
    state = replace(state, played=played, mischief_discard=(*state.mischief_discard, slot))
    state = _log(state, ev.Abducted(seat, victim))
    return _then(state, ("steal", seat, victim, "abduction"))


def _remix(state: DoomState, seat: int) -> DoomState:
    """Have ``seat`` re-mix each part of its hand (cake, mischief) that another seat knows
    a card of."""
    outside = EVERYONE & ~(1 << seat)
    known = state.knowledge.known_by
    for part in (state.cakes_in_hand(seat), state.mischief_in_hand(seat)):
        if part and any(known[s] & outside for s in part):
            state = _request(state, Remix(seat, part, (seat,)))
    return state


def _steal(state: DoomState, thief: int, victim: int, why: str) -> DoomState:
    hand = state.hands[victim]
    if not hand or thief == victim:
        return state
    if why == "abduction" and state.aliens[thief] == ZIX:
        state = _log(state, ev.Looked(thief, victim))
        state = _show(state, hand, (thief,))
        return _then(state, ("look-pick", thief, victim, "zix"))
    state = _remix(state, victim)
    state = _request(state, Random(len(hand)))
    return _then(state, ("stolen", thief, victim, why))


def _stolen(state: DoomState, thief: int, victim: int, why: str) -> DoomState:
    index = state.draws[-1]
    state = replace(state, draws=())
    slot = state.hands[victim][index]
    state = _add(_drop(state, victim, (slot,)), thief, (slot,))
    state = _show(state, (slot,), (thief, victim))
    return _log(state, ev.Stole(thief, victim, why))


def _look_pick(state: DoomState, seat: int, victim: int, why: str) -> DoomState:
    hand = state.hands[victim]
    among = state.cakes_in_hand(victim) if why == "middle-east" else hand
    if not among:
        return state
    return _ask(state, Task(Phase.PICK, seat, among=among, hold=victim, why=why))


# -- bribes ----------------------------------------------------------------------------


def _bribe(state: DoomState, seat: int, action: Bribe) -> DoomState:
    need = requirement(state, seat, action.target)
    assert need is not None
    offer = Offer(
        seat=seat,
        target=action.target,
        slots=action.slots,
        need=need,
        freya=freya_bonus(state, seat, action.target),
        protected=protected(state, seat),
    )
    state = replace(_drop(state, seat, action.slots), offer=offer)
    blind = state.options.blind
    state = _log(state, ev.Bribed(seat, action.target, (None,) * len(action.slots), need))
    steps: list[tuple[Any, ...]] = []
    if not blind:
        state = _show_all(state, action.slots)
        steps.append(("open-offer", str(action)))
    steps += [("asking",), ("closing", str(action)), ("resolve",)]
    steps += [("draw-step",), ("limit",), ("end-turn",)]
    return replace(state, agenda=tuple(steps))


def _open_offer(state: DoomState, move: str) -> DoomState:
    offer = state.offer
    assert offer is not None
    names = tuple(state.knowledge.cards[s] for s in offer.slots)
    if any(n is None for n in names):
        raise IllegalActionError(None, move, "the offer was not shown")
    continent = target_continent(state, offer.target)
    alien = state.aliens[offer.seat]
    worth = tuple(units(n, continent, alien) for n in names if n is not None)
    offer = replace(offer, opened=True, units=worth, removed=(0,) * len(worth))
    state = replace(state, offer=offer)
    value = offer.value
    assert value is not None
    shown = tuple(n for n in names if n is not None)
    state = _log(state, ev.OfferOpened(offer.seat, offer.target, shown, value))
    if any(w == 0 for w in worth):
        return cheat(state, offer.seat, move, _("offered a card that is no cake"))
    full = offer.full_value
    assert full is not None
    if full < offer.need:
        reason = _("offered {value} where {need} is needed").format(value=full, need=offer.need)
        return cheat(state, offer.seat, move, reason)
    return state


def _asking(state: DoomState) -> DoomState:
    offer = state.offer
    assert offer is not None
    if offer.protected:
        return _log(state, ev.Protected(offer.seat))
    seats = tuple((offer.seat + i) % state.players for i in range(1, state.players))
    return _then(replace(state, asking=seats), ("ask",))


def _ask_next(state: DoomState) -> DoomState:
    while state.asking:
        seat, rest = state.asking[0], state.asking[1:]
        state = replace(state, asking=rest)
        if state.mischief_in_hand(seat):
            return _ask(state, Task(Phase.SABOTAGE, seat, why="sabotage"))
    return state


def _sabotaged(state: DoomState, seat: int, action: Sabotage) -> DoomState:
    offer = state.offer
    assert offer is not None
    play = SabotagePlay(seat, action.slot, action.kind)
    offer = replace(offer, sabotages=(*offer.sabotages, play))
    state = replace(
        _drop(state, seat, (action.slot,)),
        offer=offer,
        sabotages_played=_count(state.sabotages_played, seat),
    )
    state = _show_all(_log(state, ev.Sabotaged(seat, action.kind)), (action.slot,))
    return _then(
        state,
        ("claim", seat, action.slot, action.kind, str(action)),
        ("ff-ask",),
        ("after-ff",),
        ("ask",),
    )


def _ff_ask(state: DoomState) -> DoomState:
    offer = state.offer
    assert offer is not None
    if not state.mischief_in_hand(offer.seat):
        return state
    return _ask(state, Task(Phase.FORCE_FIELD, offer.seat, why="force-field"))


def _shielded(state: DoomState, seat: int, action: ForceField) -> DoomState:
    offer = state.offer
    assert offer is not None
    last = replace(offer.sabotages[-1], blocked_by=action.slot)
    offer = replace(offer, sabotages=(*offer.sabotages[:-1], last))
    state = replace(_drop(state, seat, (action.slot,)), offer=offer)
    state = _show_all(_log(state, ev.Shielded(seat, last.seat)), (action.slot,))
    return _then(state, ("claim", seat, action.slot, FORCE_FIELD, str(action)))


def _after_ff(state: DoomState) -> DoomState:
    offer = state.offer
    assert offer is not None
    index = len(offer.sabotages) - 1
    last = offer.sabotages[index]
    mine = sum(1 for s in offer.sabotages if s.seat == last.seat)
    if state.aliens[last.seat] == KRELL and mine == 1:
        state = replace(state, asking=(last.seat, *state.asking))
    if last.stands and offer.opened:
        return _then(state, ("removal", index))
    return state


def _removal(state: DoomState, index: int) -> DoomState:
    offer = state.offer
    assert offer is not None and offer.value is not None
    play = offer.sabotages[index]
    if amount(play.kind, offer.value) == 0:
        return _record_removal(state, index, (), 0)
    return _ask(state, Task(Phase.REMOVE, play.seat, among=(index,), why="remove"))


def _record_removal(state: DoomState, index: int, slots: tuple[int, ...], freya: int) -> DoomState:
    offer = state.offer
    assert offer is not None
    removed = list(offer.removed)
    for slot in slots:
        removed[offer.slots.index(slot)] += 1
    play = replace(offer.sabotages[index], removal=slots, freya=freya)
    sabotages = (*offer.sabotages[:index], play, *offer.sabotages[index + 1 :])
    offer = replace(
        offer,
        removed=tuple(removed),
        freya_removed=offer.freya_removed + freya,
        sabotages=sabotages,
    )
    state = replace(state, offer=offer)
    value = offer.value
    assert value is not None
    return _log(state, ev.Removed(play.seat, _names(state, slots), freya, value))


def _closing(state: DoomState, move: str) -> DoomState:
    offer = state.offer
    assert offer is not None
    if offer.opened:
        return state
    state = _show_all(state, offer.slots)
    return _then(state, ("open-offer", move), ("blind-removals",))


def _blind_removals(state: DoomState) -> DoomState:
    offer = state.offer
    assert offer is not None
    steps = [("removal", i) for i, play in enumerate(offer.sabotages) if play.stands]
    return _then(state, *steps)


def _resolve(state: DoomState) -> DoomState:
    offer = state.offer
    assert offer is not None and offer.value is not None
    seat, value = offer.seat, offer.value
    played = tuple(
        slot
        for play in offer.sabotages
        for slot in (play.slot, play.blocked_by)
        if slot is not None
    )
    state = replace(state, offer=None, mischief_discard=state.mischief_discard + played)
    if value < offer.need:
        state = _add(state, seat, offer.remaining)
        state = replace(state, cake_discard=state.cake_discard + offer.gone)
        state = _log(
            state,
            ev.BribeFailed(seat, offer.target, value, offer.need, len(offer.remaining)),
        )
        if state.aliens[seat] == MUMBO:
            return _then(state, ("mumbo", seat))
        return state
    state = replace(state, bribes_won=_count(state.bribes_won, seat))
    if offer.target == DOOM:
        state = replace(
            state,
            doom_cards=offer.remaining,
            cake_discard=state.cake_discard + offer.gone,
        )
        state = _log(state, ev.BribeWon(seat, DOOM, value, None, 0))
        return _game_over(replace(state, doom=seat), "doom")
    held = state.held(offer.target)
    assert held is not None
    eaten = held.cards
    won = Held(offer.target, seat, offer.remaining, value)
    regions = tuple(won if r.name == offer.target else r for r in state.regions)
    state = replace(state, regions=regions, cake_discard=state.cake_discard + offer.gone + eaten)
    state = _log(state, ev.BribeWon(seat, offer.target, value, held.holder, len(eaten)))
    steps: list[tuple[Any, ...]] = []
    if eaten and held.holder is not None and state.aliens[held.holder] == VASHTI:
        steps.append(("vashti", held.holder, eaten))
    if state.options.advanced:
        steps.append(("bonus", seat, offer.target))
    return _then(state, *steps)


def _vashti(state: DoomState, seat: int, eaten: tuple[int, ...]) -> DoomState:
    among = tuple(s for s in eaten if s in state.cake_discard)
    if not among:
        return state
    return _ask(state, Task(Phase.PICK, seat, among=among, why="vashti"))


def _mumbo(state: DoomState, seat: int) -> DoomState:
    return _draw_task(state, seat, 1, "mumbo")


# -- control bonuses (advanced) --------------------------------------------------------


def _others_with_cards(state: DoomState, seat: int) -> tuple[int, ...]:
    return tuple(
        (seat + i) % state.players
        for i in range(1, state.players)
        if state.hands[(seat + i) % state.players]
    )


def _bonus(state: DoomState, seat: int, region: str) -> DoomState:
    state = _log(state, ev.ControlBonus(seat, region))
    if region == "north-america":
        return _draw_task(state, seat, 2, region)
    if region == "south-america":
        return draw(state, seat, min(1, state.available("cake")), 0)
    if region in ("western-europe", "eastern-europe"):
        pile = "cake" if region == "western-europe" else "mischief"
        discard = state.cake_discard if pile == "cake" else state.mischief_discard
        if not discard:
            return state
        top = discard[-1]
        state = _pick(state, seat, top)
        return state
    if region == "east-asia":
        victims = _others_with_cards(state, seat)
        if not victims:
            return state
        return _ask(state, Task(Phase.ROB, seat, among=victims, why=region))
    if region == "south-asia":
        return draw(state, seat, 0, min(1, state.available("mischief")))
    if region == "middle-east":
        victims = _others_with_cards(state, seat)
        if not victims:
            return state
        return _ask(state, Task(Phase.PEEK, seat, among=victims, why=region))
    if region == "north-africa":
        hand = state.hands[seat]
        if not hand:
            return state
        return _ask(state, Task(Phase.DISCARD, seat, count=len(hand), upto=True, why=region))
    if region == "west-africa":
        return _draw_task(state, seat, 1, region)
    if region == "southern-africa":
        return _then(
            state, *(("discard-one", other, region) for other in _others_with_cards(state, seat))
        )
    if region == "australia":
        if not state.mischief_discard:
            return state
        return _ask(state, Task(Phase.PICK, seat, among=state.mischief_discard, why=region))
    if region == "pacific-islands":
        state = draw(state, seat, min(2, state.available("cake")), 0)
        return _then(state, ("discard-one", seat, region))
    if region in ("arctic", "antarctica"):
        victim = state.left(seat) if region == "arctic" else state.right(seat)
        return _then(state, ("steal", seat, victim, region))
    raise AssertionError(region)


def _discard_one(state: DoomState, seat: int, why: str) -> DoomState:
    if not state.hands[seat]:
        return state
    return _ask(state, Task(Phase.DISCARD, seat, count=1, why=why))


def _discard_rest(state: DoomState, task: Task, count: int) -> DoomState:
    """A discard of several cards may be made one card at a time."""
    if not state.hands[task.seat]:
        return state
    return _ask(state, replace(task, count=min(count, len(state.hands[task.seat]))))


def _redraw(state: DoomState, seat: int, count: int) -> DoomState:
    return _draw_task(state, seat, count, "north-africa")


# -- seats' moves ----------------------------------------------------------------------


def _where(state: DoomState, slot: int) -> tuple[str, int | None]:
    if slot in state.cake_discard:
        return "cake-discard", None
    if slot in state.mischief_discard:
        return "mischief-discard", None
    for seat, hand in enumerate(state.hands):
        if slot in hand:
            return "hand", seat
    raise AssertionError(slot)


def _pick(state: DoomState, seat: int, slot: int, why: str = "") -> DoomState:
    """``seat`` takes ``slot`` into its hand from wherever it lies."""
    source, owner = _where(state, slot)
    if source == "cake-discard":
        state = replace(state, cake_discard=tuple(s for s in state.cake_discard if s != slot))
    elif source == "mischief-discard":
        state = replace(
            state, mischief_discard=tuple(s for s in state.mischief_discard if s != slot)
        )
    else:
        assert owner is not None
        state = _drop(state, owner, (slot,))
    shown = None if source == "hand" else _names(state, (slot,))[0]
    if why == "vashti":
        source = "eaten"
    state = _log(_add(state, seat, (slot,)), ev.Picked(seat, source, owner, shown))
    if owner is not None:
        state = _show(state, (slot,), (seat, owner))
    return state


def _discarded(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    return _log(state, ev.Discarded(seat, _names(state, slots)))


def _act(state: DoomState, seat: int, action: Action) -> DoomState:
    task = state.task
    assert task is not None
    state = replace(state, task=None, phase=Phase.WAITING)
    if isinstance(action, ChooseMix):
        state = _log(state, ev.MixChosen(seat, action.cakes, action.mischief))
        return _deal(state, seat, action.cakes, action.mischief)
    if isinstance(action, Grab):
        state = replace(_drop(state, seat, (action.slot,)), played=(*state.played, action.slot))
        state = _show_all(state, (action.slot,))
        return _then(
            state,
            ("claim", seat, action.slot, TRACTOR_BEAM, str(action)),
            ("grab", seat, action.slot, action.pile),
            ("play",),
        )
    if isinstance(action, Abduct):
        state = replace(_drop(state, seat, (action.slot,)), played=(*state.played, action.slot))
        state = _show_all(state, (action.slot,))
        return _then(
            state,
            ("claim", seat, action.slot, "abduction", str(action)),
            ("abducted", seat, action.slot, action.victim),
            ("play",),
        )
    if isinstance(action, Bribe):
        return _bribe(state, seat, action)
    if isinstance(action, NoBribe):
        state = _log(state, ev.Passed(seat))
        return replace(state, agenda=(("draw-step",), ("limit",), ("end-turn",)))
    if isinstance(action, Sabotage):
        return _sabotaged(state, seat, action)
    if isinstance(action, NoSabotage):
        return _then(_log(state, ev.NotSabotaged(seat)), ("ask",))
    if isinstance(action, ForceField):
        return _shielded(state, seat, action)
    if isinstance(action, NoForceField):
        return state
    if isinstance(action, Remove):
        return _record_removal(state, task.among[0], action.slots, action.freya)
    if isinstance(action, Draw):
        return draw(state, seat, action.cakes, action.mischief)
    if isinstance(action, Discard):
        state = _drop(state, seat, action.slots)
        state = _show_all(_discard_to_piles(state, action.slots), action.slots)
        steps: list[tuple[Any, ...]] = [("discarded", seat, action.slots)]
        if task.why == "north-africa" and action.slots:
            steps.append(("redraw", seat, len(action.slots)))
        elif not task.upto and len(action.slots) < task.count:
            steps.append(("discard-rest", task, task.count - len(action.slots)))
        return _then(state, *steps)
    if isinstance(action, PickCard):
        return _pick(state, seat, action.slot, task.why)
    if isinstance(action, Rob):
        return _then(state, ("steal", seat, action.victim, "east-asia"))
    if isinstance(action, Peek):
        state = _show(
            _log(state, ev.Looked(seat, action.victim)), state.hands[action.victim], (seat,)
        )
        return _then(state, ("look-pick", seat, action.victim, "middle-east"))
    raise IllegalActionError(seat, action, _("nobody may act now"))


# -- running ---------------------------------------------------------------------------

_STEPS: dict[str, Callable[..., DoomState]] = {
    "setup": _setup,
    "ask-mix": _ask_mix,
    "deal": _deal,
    "start-game": _start_game,
    "play": _play,
    "claim": _claim,
    "grab": _grab,
    "abducted": _abducted,
    "steal": _steal,
    "stolen": _stolen,
    "look-pick": _look_pick,
    "open-offer": _open_offer,
    "asking": _asking,
    "ask": _ask_next,
    "ff-ask": _ff_ask,
    "after-ff": _after_ff,
    "removal": _removal,
    "closing": _closing,
    "blind-removals": _blind_removals,
    "resolve": _resolve,
    "vashti": _vashti,
    "mumbo": _mumbo,
    "bonus": _bonus,
    "discard-one": _discard_one,
    "redraw": _redraw,
    "discard-rest": _discard_rest,
    "discarded": _discarded,
    "draw-step": _draw_step,
    "limit": _limit,
    "end-turn": _end_turn,
}


def _run(state: DoomState) -> DoomState:
    """Run the agenda until a request or a seat's choice is waited on, or the game ends;
    before a seat chooses, re-mix every hand another seat knows a card of."""
    while not state.queue and state.task is None and state.phase is not Phase.OVER:
        if not state.agenda:
            raise IllegalActionError(None, None, "the game has nothing left to do")
        step, rest = state.agenda[0], state.agenda[1:]
        state = _STEPS[step[0]](replace(state, agenda=rest), *step[1:])
    if state.queue or state.task is None or state.phase is Phase.OVER:
        return state
    for seat in range(state.players):
        if seat != state.task.hold:
            state = _remix(state, seat)
    return state


def _learn(state: DoomState, action: Revealed | Remixed, slots: tuple[int, ...]) -> None:
    for slot, name in zip(slots, action.cards, strict=True):
        if name is None:
            continue
        if not is_card(name) or card(name).cake != is_cake_slot(slot):
            raise IllegalActionError(None, action, f"{name} cannot lie in slot {slot}")
        if isinstance(action, Revealed):
            held = state.knowledge.cards[slot]
            if held is not None and held != name:
                raise IllegalActionError(None, action, f"slot {slot} is {held}, not {name}")


def _fulfil(state: DoomState, action: Action) -> DoomState:
    check_answer(state.pending, action)
    state = replace(state, queue=state.queue[1:])
    if isinstance(action, Shuffled):
        state = replace(state, knowledge=state.knowledge.forget(action.slots))
    elif isinstance(action, Revealed):
        _learn(state, action, action.slots)
        state = replace(
            state, knowledge=state.knowledge.reveal(action.slots, action.cards, action.to)
        )
    elif isinstance(action, Remixed):
        _learn(state, action, action.slots)
        before = sorted(n for n in (state.knowledge.cards[s] for s in action.slots) if n)
        after = sorted(n for n in action.cards if n)
        if len(before) == len(after) == len(action.slots) and before != after:
            raise IllegalActionError(None, action, "a re-mix must keep the same cards")
        state = replace(
            state, knowledge=state.knowledge.remix(action.slots, action.cards, action.to)
        )
    else:
        assert isinstance(action, RandomResult)
        state = replace(state, draws=(*state.draws, action.value))
    if state.queue:
        return state
    return _run(state)


# -- the end ---------------------------------------------------------------------------


def standing(state: DoomState, seat: int) -> tuple[int, int, int]:
    """What ranks ``seat`` at the end: regions, cake value in front of it, cards in hand."""
    mine = state.regions_of(seat)
    return len(mine), sum(r.value for r in mine), len(state.hands[seat])


def winners(state: DoomState) -> tuple[tuple[int, ...], bool]:
    """The winning seats and whether the win is shared."""
    if state.doom is not None:
        return (state.doom,), False
    out = {b.seat for b in state.breaches}
    if state.forfeit is not None:
        out.add(state.forfeit)
    seats = [s for s in range(state.players) if s not in out]
    if not seats:
        return (), False
    best = max(standing(state, s) for s in seats)
    top = tuple(s for s in seats if standing(state, s) == best)
    return top, len(top) > 1


def _game_over(state: DoomState, reason: str) -> DoomState:
    state = replace(state, phase=Phase.OVER, task=None, agenda=(), queue=())
    won, shared = winners(state)
    return _log(state, ev.GameOver(won, reason, shared))


def outcome(state: DoomState) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    won, shared = winners(state)
    if state.doom is not None:
        reason = "doom"
    elif state.breaches:
        reason = "cheated"
    elif state.forfeit is not None:
        reason = "forfeit"
    else:
        reason = "regions"
    scores = tuple(len(state.regions_of(s)) for s in range(state.players))
    return Outcome(winners=won, reason=reason, scores=scores, shared=shared)


# -- applying --------------------------------------------------------------------------


def _forfeited(state: DoomState, action: Forfeited) -> DoomState:
    if not 0 <= action.seat < state.players:
        raise IllegalActionError(None, action, _("nobody may forfeit now"))
    state = _log(replace(state, forfeit=action.seat), ev.Forfeited(action.seat, action.reason))
    return _game_over(state, "forfeit")


def apply(state: DoomState, action: Action, seat: int | None) -> DoomState:
    """The state after ``seat`` (``None``: the dealer) makes ``action``.

    Raises :class:`IllegalActionError` naming seat, action and reason if it is not allowed.
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError(seat, action, _("the game is over"))
    if seat is None or isinstance(action, (Revealed, Shuffled, Remixed, RandomResult, Forfeited)):
        if seat is not None:
            raise IllegalActionError(seat, action, _("only the dealer answers requests"))
        if isinstance(action, Forfeited):
            state = _forfeited(state, action)
        else:
            state = _fulfil(state, action)
    else:
        check(state, seat, action)
        state = _run(_act(state, seat, action))
    return replace(state, state_id=state.state_id + 1)


__all__ = ["apply", "cheat", "draw", "new_state", "outcome", "standing", "winners"]

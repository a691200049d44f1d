"""How a duel moves: ``apply`` an action, then run every automatic step that follows.

A duel is a sequence of bouts; a bout a sequence of turns. Each turn: the attacker claims
or passes; the target challenges, blocks or lets it stand; the attacker may challenge a
block; the claims resolve; the team's attacker may trade; both sides resupply. Where a
rule needs a card nobody here may see, the state waits on a request in ``queue``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cakeparty.core.actions import (
    Action,
    Forfeited,
    RandomResult,
    ReasonParams,
    Remixed,
    Revealed,
    Shuffled,
    forfeit_words,
)
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
    Block,
    Challenge,
    Claim,
    Declare,
    KeepHidden,
    Lead,
    NoAction,
    NoTrade,
    Pass,
    Refuse,
    Summon,
    Take,
    Taunt,
    Trade,
)
from cakeparty.core.games.cake_duel.cards import (
    CARDS,
    CORE_SET,
    ORACLE,
    QUARTERMASTER,
    SCOUT,
    SIR_WOLFY,
    SPECIAL_SET,
    SUMMONER,
)
from cakeparty.core.games.cake_duel.claims import Blocking, is_truthful
from cakeparty.core.games.cake_duel.legal import check, played_wolfy
from cakeparty.core.games.cake_duel.state import (
    DUELS_TO_WIN,
    HAND_SIZE,
    TROPHIES_TO_WIN,
    Breach,
    Declaration,
    DuelOptions,
    DuelState,
    Phase,
    Play,
    evolve,
)
from cakeparty.core.i18n import N_, _
from cakeparty.core.knowledge import Knowledge, mask_of
from cakeparty.core.requests import Random, Remix, Reveal, Shuffle, check_answer

# -- setting up ------------------------------------------------------------------------


def build_box(options: DuelOptions) -> tuple[str, ...]:
    """Every card of this duel as it comes out of the box: core sets, then specials.

    Team mode combines two games less one Sir Wolfy (39 core cards) and both special sets.
    """
    core = list(CORE_SET) * options.sets
    if options.team:
        core.remove(SIR_WOLFY)
    specials = list(SPECIAL_SET) * options.sets if options.full else []
    return (*core, *specials)


def _core_count(box: tuple[str, ...]) -> int:
    """The box holds the core cards first, then the specials."""
    return sum(1 for name in box if not CARDS[name].special)


def new_state(options: DuelOptions) -> DuelState:
    """A duel before anything is shuffled."""
    box = build_box(options)
    players = options.players
    state = DuelState(
        options=options,
        box=box,
        knowledge=Knowledge.public(box),
        deck=(),
        discard=(),
        unused=(),
        hands=((),) * players,
        hand_sizes=(HAND_SIZE,) * players,
        cakes=(0, 0),
        trophies=(0, 0),
        duels=(0, 0),
        phase=Phase.SPECIALS,
        tauntable=((),) * players,
        seen_specials=(frozenset(),) * players,
    )
    return _start_duel(state)


def _start_duel(state: DuelState) -> DuelState:
    """Sort every card back into the box; draw the specials for this duel."""
    n_core = _core_count(state.box)
    state = evolve(
        state,
        knowledge=state.knowledge.restore(state.box),
        deck=tuple(range(n_core)),
        discard=(),
        unused=tuple(range(n_core, len(state.box))),
        hands=((),) * state.players,
        trophies=(0, 0),
        seen_specials=(frozenset(),) * state.players,
        public_specials=frozenset(),
    )
    if state.options.full:
        return evolve(state, phase=Phase.SPECIALS, queue=(Shuffle(state.unused),))
    return _new_bout(state)


def _specials_drawn(state: DuelState) -> DuelState:
    chosen = state.unused[: state.options.specials]
    state = evolve(
        state,
        knowledge=state.knowledge.forget(state.unused),
        deck=state.deck + chosen,
        unused=state.unused[len(chosen) :],
    )
    if state.options.show_specials:
        return evolve(state, queue=(Reveal(chosen, None),))
    return _new_bout(state)


def _new_bout(state: DuelState) -> DuelState:
    """Gather every card of the duel into the deck and have it shuffled."""
    deck = state.game_slots()
    return evolve(
        state,
        deck=deck,
        discard=(),
        hands=((),) * state.players,
        hand_sizes=(HAND_SIZE,) * state.players,
        phase=Phase.SHUFFLE,
        queue=(Shuffle(deck),),
        order=(),
        turn_index=0,
        attack=None,
        target=None,
        block=None,
        passes=0,
        extra_turn=False,
        tauntable=((),) * state.players,
        glimpses=(),
        bout_start=len(state.events),
    )


def _deal(state: DuelState) -> DuelState:
    """Deal four cards to each seat, in seat order, from the top of the deck."""
    assert state.starter is not None
    first, second = state.options.cakes
    cakes = (first, second) if state.starter == 0 else (second, first)
    deck = state.deck
    hands = []
    reveals = []
    for seat in range(state.players):
        hand, deck = deck[:HAND_SIZE], deck[HAND_SIZE:]
        hands.append(hand)
        reveals.append(Reveal(hand, state.holders(seat)))
    started = ev.BoutStarted(state.bout, state.starter, cakes)
    return evolve(
        state,
        deck=deck,
        hands=tuple(hands),
        cakes=cakes,
        phase=Phase.DEAL,
        queue=tuple(reveals),
        events=(*state.events, started),
    )


def _dealt(state: DuelState) -> DuelState:
    assert state.starter is not None
    if state.options.team:
        return evolve(state, phase=Phase.LEAD)
    order = (state.starter, 1 - state.starter)
    return _begin_turn(evolve(state, order=order, turn_index=0))


# -- a turn ------------------------------------------------------------------------------


def _log(state: DuelState, *events: Any) -> DuelState:
    return evolve(state, events=state.events + events)


def _begin_turn(state: DuelState) -> DuelState:
    attacker = state.attacker
    assert attacker is not None
    state = evolve(state, phase=Phase.ATTACK, attack=None, block=None, target=None)
    if not state.hands[attacker]:
        return _passed(_log(state, ev.Passed(attacker, auto=True)), attacker)
    return state


def _passed(state: DuelState, seat: int) -> DuelState:
    passes = state.passes + 1
    state = evolve(state, passes=passes)
    if passes >= state.players:
        # every seat passed in succession: the side with more cakes takes the bout
        side = 0 if state.cakes[0] > state.cakes[1] else 1
        return _bout_won(state, side, "passes")
    return _resupply(state)


def _move(hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]) -> Any:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _without(slots: tuple[int, ...], gone: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(s for s in slots if s not in gone)


def _play(state: DuelState, seat: int, slots: tuple[int, ...]) -> DuelState:
    """Put ``slots`` from ``seat``'s hand facedown on the discard pile."""
    hands = _move(state.hands, seat, _without(state.hands[seat], slots))
    return evolve(
        state, hands=hands, discard=state.discard + slots, glimpses=_unglimpse(state, seat)
    )


def _claimed(state: DuelState, seat: int, action: Claim) -> DuelState:
    state = _play(state, seat, action.slots)
    state = evolve(
        state,
        attack=Play(seat, action.slots, action.name),
        target=action.target,
        passes=0,
        phase=Phase.RESPOND,
    )
    return _log(state, ev.Claimed(seat, action.target, action.name, action.slots))


def _blocked(state: DuelState, seat: int, action: Block) -> DuelState:
    state = _play(state, seat, action.slots)
    state = evolve(state, block=Play(seat, action.slots, action.name), phase=Phase.REPLY)
    return _log(state, ev.Blocked(seat, action.name, action.slots))


def _challenged(state: DuelState, seat: int) -> DuelState:
    play = state.block or state.attack
    assert play is not None
    return evolve(state, phase=Phase.FLIP, queue=(Reveal(play.slots, None),))


def _flipped(state: DuelState, action: Revealed) -> DuelState:
    play = state.block or state.attack
    assert play is not None and state.attacker is not None and state.target is not None
    cards = tuple(c for c in action.cards if c is not None)
    if len(cards) != play.count:
        raise IllegalActionError(None, action, _("a challenge flips every card of the claim"))
    truthful = is_truthful(play.name, cards)
    challenger = state.attacker if play.seat == state.target else state.target
    state = _log(
        state, ev.Challenged(challenger, play.seat, play.name, play.slots, cards, truthful)
    )
    winner = play.seat if truthful else challenger
    return _bout_won(state, state.side(winner), "challenge")


def _resolve(state: DuelState) -> DuelState:
    """Match blockers to attackers; Priests take their cards first."""
    assert state.attack is not None
    blocking = Blocking.of(state.attack, state.block)
    if blocking.taken == 0:
        return _effects(state)
    if blocking.taken < state.attack.count:
        return evolve(state, phase=Phase.PRIEST)
    return _take(state, state.attack.slots)


def _take(state: DuelState, slots: tuple[int, ...]) -> DuelState:
    """The Priests' holder takes ``slots`` of the attack into hand, seen by its side."""
    assert state.target is not None and state.attack is not None
    target, owner = state.target, state.attack.seat
    hands = _move(state.hands, target, state.hands[target] + slots)
    state = evolve(state, hands=hands, discard=_without(state.discard, slots))
    state = _log(state, ev.Took(target, owner, slots))
    shown = _show(state, slots, state.holders(target), Phase.TAKEN) or state
    remixed = _remix(shown, target, Phase.TAKEN)
    if remixed is None:
        return _effects(state) if shown is state else shown
    return remixed


def _show(
    state: DuelState, slots: tuple[int, ...], seats: tuple[int, ...], phase: Phase
) -> DuelState | None:
    """Ask for ``slots`` to be shown to ``seats`` where not all of them know them yet."""
    unknown = tuple(s for s in slots if not all(state.knowledge.knows(t, s) for t in seats))
    if not unknown:
        return None
    return evolve(state, phase=phase, queue=(*state.queue, Reveal(unknown, seats)))


def _remix(state: DuelState, seat: int, phase: Phase) -> DuelState | None:
    """Have ``seat`` re-mix its hand if a seat outside its holders knows a card in it.

    In the printed game a player mixes the cards in their hand; here slots keep their ids,
    so without a re-mix whoever saw the hand (a look, a Priest's taken card) would follow
    each known card into every later facedown play. What a seat saw stays a *glimpse*: the
    hand holds these cards, but which slot is which is known to the holders alone.
    """
    hand = state.hands[seat]
    holders = state.holders(seat)
    outside = ~mask_of(holders)
    knowledge = state.knowledge
    lookers = 0
    for slot in hand:
        lookers |= knowledge.known_by[slot] & outside
    if not lookers:
        return None
    glimpses = list(state.glimpses)
    for looker in range(state.players):
        if lookers >> looker & 1:
            seen = tuple(knowledge.cards[s] for s in hand if knowledge.knows(looker, s))
            glimpses = [g for g in glimpses if g[:2] != (looker, seat)]
            glimpses.append((looker, seat, seen))
    return evolve(
        state,
        phase=phase,
        queue=(*state.queue, Remix(seat, hand, holders)),
        glimpses=tuple(glimpses),
    )


def _unglimpse(state: DuelState, seat: int) -> tuple[tuple[int, int, tuple[str | None, ...]], ...]:
    """``seat``'s hand lost cards: nobody can tell any more which of those it saw remain."""
    return tuple(g for g in state.glimpses if g[1] != seat)


def _steal(state: DuelState, cakes: int) -> tuple[DuelState, bool]:
    """The attacker's side takes up to ``cakes`` from the target's; True if that ends the bout."""
    assert state.attacker is not None and state.target is not None
    thief, victim = state.side(state.attacker), state.side(state.target)
    taken = min(cakes, state.cakes[victim])
    if taken == 0:
        return state, False
    pool = list(state.cakes)
    pool[thief] += taken
    pool[victim] -= taken
    state = _log(
        evolve(state, cakes=(pool[0], pool[1])), ev.Stole(state.attacker, state.target, taken)
    )
    if pool[victim] == 0:
        return _bout_won(state, thief, "cakes"), True
    return state, False


def _effects(state: DuelState) -> DuelState:
    """Unblocked attackers steal; then Quartermaster, Summoner, Oracle; then extra turns."""
    attack, attacker = state.attack, state.attacker
    assert attack is not None and attacker is not None
    blocking = Blocking.of(attack, state.block)
    active = attack.count - blocking.cancelled
    stealing = max(0, active - blocking.blocked)
    if attack.name != SUMMONER:
        state, over = _steal(state, stealing * CARDS[attack.name].steal)
        if over:
            return state
    if attack.name == QUARTERMASTER and active:
        sizes = list(state.hand_sizes)
        sizes[attacker] += active
        state = _log(
            evolve(state, hand_sizes=tuple(sizes)), ev.HandSizeUp(attacker, sizes[attacker])
        )
    state = evolve(state, extra_turn=attack.name in (SCOUT, ORACLE) and active > 0)
    if attack.name == SUMMONER and active:
        return evolve(state, phase=Phase.SUMMON, summons=active, summon_thefts=stealing)
    if attack.name == ORACLE and active:
        return _look(evolve(state, oracle=True))
    return _after_effects(state)


def _look(state: DuelState) -> DuelState:
    """Show the target's hand to the attacker alone (Summoner, Oracle)."""
    attacker, target = state.attacker, state.target
    assert attacker is not None and target is not None
    state = _log(state, ev.Looked(attacker, target))
    shown = _show(state, state.hands[target], (attacker,), Phase.LOOK)
    return _looked(state) if shown is None else shown


def _looked(state: DuelState) -> DuelState:
    target = state.target
    assert target is not None
    if state.summon_name is None:
        return _remix(state, target, Phase.REMIX) or _after_remix(state)
    if state.summon_thefts <= 0:
        # a Scientist blocked this Summoner: it steals nothing, so no count is asked for
        # (the rules make a count public only through the cakes it moves)
        return _summon_done(state)
    if not state.hands[target]:
        return _declared(state, target, Declare(0))
    return evolve(state, phase=Phase.DECLARE)


def _summoned(state: DuelState, seat: int, action: Summon) -> DuelState:
    state = _log(evolve(state, summon_name=action.name), ev.Summoned(seat, action.name))
    return _look(state)


def _declared(state: DuelState, seat: int, action: Declare) -> DuelState:
    name = state.summon_name
    assert name is not None
    hand = state.hands[seat]
    held = {s: c for s in hand if (c := state.knowledge.cards[s]) is not None}
    found = _false_count(state, seat, action, held)
    if found is not None:
        # only a state that holds the hand can tell; the cakes move as declared, so that
        # every peer stays in step, and the breach is named: at once by a witness's
        # accusation in a networked room, refused outright by the local dealer
        reason, params = found
        state = _breach(state, seat, action, reason, hand, params)
    declaration = Declaration(seat, hand, name, action.count)
    state = evolve(state, declarations=(*state.declarations, declaration))
    state = _log(state, ev.Declared(seat, name, action.count))
    state = evolve(state, summon_thefts=state.summon_thefts - 1)
    state, over = _steal(state, 2 * action.count)
    if over:
        return state
    return _summon_done(state)


def _summon_done(state: DuelState) -> DuelState:
    """One Summoner resolved: the target re-mixes the hand the attacker saw."""
    target = state.target
    assert target is not None
    state = evolve(state, summons=state.summons - 1, summon_name=None)
    return _remix(state, target, Phase.REMIX) or _after_remix(state)


def _after_remix(state: DuelState) -> DuelState:
    """After the look (and its re-mix): the next Summoner, or the remaining effects."""
    if state.oracle:
        return _after_effects(evolve(state, oracle=False))
    if state.summons > 0:
        return evolve(state, phase=Phase.SUMMON)
    return _after_effects(state)


def _after_effects(state: DuelState) -> DuelState:
    if state.options.team:
        return evolve(state, phase=Phase.TRADE)
    return _resupply(state)


def _traded(state: DuelState, offer: Trade) -> DuelState:
    attacker = state.attacker
    assert attacker is not None
    mate = state.teammate(attacker)
    assert mate is not None
    hands = _move(state.hands, attacker, _without(state.hands[attacker], offer.give) + offer.take)
    hands = _move(hands, mate, _without(hands[mate], offer.take) + offer.give)
    glimpses = tuple(g for g in state.glimpses if g[1] not in (attacker, mate))
    state = evolve(state, hands=hands, offer=None, glimpses=glimpses)
    return _log(state, ev.Traded(attacker, mate, offer.give, offer.take, agreed=True))


def _resupply(state: DuelState) -> DuelState:
    """The attacker draws up to hand size, then the blocker; drawn cards shown to holders."""
    attacker = state.attacker
    assert attacker is not None
    seats = [attacker] if state.target is None else [attacker, state.target]
    deck, hands = state.deck, state.hands
    reveals: list[Reveal] = []
    drew: list[ev.Drew] = []
    for seat in seats:
        need = max(0, state.hand_sizes[seat] - len(hands[seat]))
        drawn, deck = deck[:need], deck[need:]
        if drawn:
            hands = _move(hands, seat, hands[seat] + drawn)
            reveals.append(Reveal(drawn, state.holders(seat)))
            drew.append(ev.Drew(seat, len(drawn)))
    state = _log(evolve(state, deck=deck, hands=hands), *drew)
    if reveals:
        return evolve(state, phase=Phase.RESUPPLY, queue=state.queue + tuple(reveals))
    return _end_turn(state)


def _end_turn(state: DuelState) -> DuelState:
    """The turn is over: first every seat that played says whether a Sir Wolfy was among it."""
    return _wolfy_step(state) or _next_turn(state)


def _next_turn(state: DuelState) -> DuelState:
    attacker = state.attacker
    assert attacker is not None
    index = state.turn_index
    if state.extra_turn:
        state = _log(state, ev.ExtraTurn(attacker))
    else:
        index = (index + 1) % len(state.order)
    state = evolve(state, turn=state.turn + 1, turn_index=index, extra_turn=False)
    return _begin_turn(state)


def _wolfy_step(state: DuelState) -> DuelState | None:
    """At the end of the turn each played Sir Wolfy nobody flipped is revealed [printed].

    Only its owner knows where it is, so every seat whose played cards lie unflipped on the
    discard pile decides, attacker first: reveal the Sir Wolfy, or reveal none. Others can
    check a reveal at once; a Sir Wolfy kept hidden outside a tournament is a breach that
    the end-of-game audit, seeing every card, names. Once the one Sir Wolfy was shown face up
    this bout there is nothing left to declare. A turn that ends the bout (a challenge, the
    last cake) ends "at once" [printed]: its cards go back into the deck unrevealed.
    """
    knowledge = state.knowledge
    shown = any(knowledge.knows(None, s) and knowledge.cards[s] == SIR_WOLFY for s in state.discard)
    tauntable: list[tuple[int, ...]] = [()] * state.players
    seats: list[int] = []
    if not shown:
        for play in (state.attack, state.block):
            if play is None:
                continue
            unflipped = tuple(
                s for s in play.slots if s in state.discard and not knowledge.knows(None, s)
            )
            if unflipped:
                tauntable[play.seat] = unflipped
                seats.append(play.seat)
    if not seats:
        return None
    return evolve(state, phase=Phase.WOLFY, tauntable=tuple(tauntable), wolfy_seats=tuple(seats))


def _wolfy_done(state: DuelState, seat: int) -> DuelState:
    """``seat`` revealed its Sir Wolfy, or none: the next seat, or the turn's (bout's) end."""
    left = list(state.tauntable)
    left[seat] = ()
    seats = state.wolfy_seats[1:]
    state = evolve(state, tauntable=tuple(left), wolfy_seats=seats)
    if seats:
        return evolve(state, phase=Phase.WOLFY)
    return _next_turn(state)


# -- bouts and duels ---------------------------------------------------------------------


def _bout_won(state: DuelState, side: int, reason: str) -> DuelState:
    trophies = list(state.trophies)
    trophies[side] += 1
    won = (trophies[0], trophies[1])
    state = evolve(state, trophies=won, queue=())
    state = _log(state, ev.BoutWon(side, reason, won))
    if won[side] < TROPHIES_TO_WIN:
        # the loser of the bout attacks first in the next
        return _new_bout(evolve(state, starter=1 - side, bout=state.bout + 1))
    duels = list(state.duels)
    duels[side] += 1
    state = _log(evolve(state, duels=(duels[0], duels[1])), ev.DuelWon(side, (duels[0], duels[1])))
    if state.options.tournament and duels[side] < DUELS_TO_WIN:
        return _start_duel(evolve(state, starter=1 - side, bout=state.bout + 1))
    return evolve(state, winner=side, phase=Phase.OVER, attack=None, block=None, target=None)


# -- applying actions --------------------------------------------------------------------


def _fulfil(state: DuelState, action: Action) -> DuelState:
    """Feed a dealer's answer to the pending request, then carry on."""
    request = state.pending
    check_answer(request, action)
    state = evolve(state, queue=state.queue[1:])
    if isinstance(action, Shuffled):
        state = evolve(state, knowledge=state.knowledge.forget(action.slots))
        if state.phase is Phase.SPECIALS:
            return _specials_drawn(state)
        if state.starter is None:
            return evolve(state, phase=Phase.START, queue=(Random(state.options.sides),))
        return _deal(state)
    if isinstance(action, RandomResult):
        return _deal(evolve(state, starter=action.value))
    if isinstance(action, Remixed):
        state = _remixed(state, action)
    else:
        assert isinstance(action, Revealed)
        state = _learn(state, action)
        if state.taunting is not None:
            return _taunted(state, action)
    if state.queue:
        return state
    follow: Callable[[DuelState, Action], DuelState] = _CONTINUE[state.phase]
    return follow(state, action)


def _remixed(state: DuelState, action: Remixed) -> DuelState:
    """The holder re-mixed its hand: only its holders know which slot holds which card."""
    known = state.knowledge
    for card in action.cards:
        if card is not None and card not in CARDS:
            raise IllegalActionError(None, action, f"{card} is not a Cake Duel card")
    before = sorted(c for c in (known.cards[s] for s in action.slots) if c is not None)
    after = sorted(c for c in action.cards if c is not None)
    if len(before) == len(action.slots) == len(after) and before != after:
        raise IllegalActionError(None, action, _("a re-mix must keep the same cards"))
    return evolve(state, knowledge=known.remix(action.slots, action.cards, action.to))


def _learn(state: DuelState, action: Revealed) -> DuelState:
    """Record a reveal; remember the specials each seat now knows to be in the duel."""
    known = state.knowledge
    for slot, card in zip(action.slots, action.cards, strict=True):
        if card is None:
            continue
        held = known.cards[slot]
        if held is not None and held != card:
            raise IllegalActionError(None, action, f"slot {slot} is {held}, not {card}")
        if card not in CARDS:
            raise IllegalActionError(None, action, f"{card} is not a Cake Duel card")
    state = evolve(state, knowledge=known.reveal(action.slots, action.cards, action.to))
    specials = frozenset(c for c in action.cards if c is not None and CARDS[c].special)
    if not specials:
        return state
    seats = range(state.players) if action.to is None else action.to
    seen = list(state.seen_specials)
    for seat in seats:
        seen[seat] = seen[seat] | specials
    public = state.public_specials | specials if action.to is None else state.public_specials
    return evolve(state, seen_specials=tuple(seen), public_specials=public)


def _taunted(state: DuelState, action: Revealed) -> DuelState:
    seat = state.taunting
    assert seat is not None
    state = evolve(state, taunting=None)
    if action.cards[0] is not None and action.cards[0] != SIR_WOLFY:
        reason = N_("the card shown to taunt is not Sir Wolfy")
        state = _breach(state, seat, Taunt(action.slots[0]), reason, action.slots)
    else:
        state = _log(state, ev.Taunted(seat, action.slots[0]))
    return _wolfy_done(state, seat)


def _kept_hidden(state: DuelState, seat: int, action: KeepHidden) -> DuelState:
    """No Sir Wolfy revealed: a breach outside a tournament if this state knows one was played.

    Only the seats that know the card can tell (its owner, a teammate, the audit's replay
    with every card face up); the game goes on alike for every peer, as for a Summoner
    count, and the breach is named: refused by the local dealer, named by the audit.
    """
    wolfy = played_wolfy(state, seat)
    if state.options.tournament or wolfy is None:
        return state
    reason = N_("a played Sir Wolfy is revealed at the end of the turn")
    return _breach(state, seat, action, reason, (wolfy,))


def _breach(
    state: DuelState,
    seat: int,
    action: Action,
    reason: str,
    slots: tuple[int, ...],
    params: ReasonParams = (),
) -> DuelState:
    """Record a rule broken by ``seat``, seen by every seat that knows all of ``slots``;
    ``reason`` untranslated, filled from ``params`` by whoever reads it."""
    witnesses = 0
    for other in range(state.players):
        if all(state.knowledge.knows(other, s) for s in slots):
            witnesses |= 1 << other
    breach = Breach(seat, str(action), reason, state.turn, witnesses, params)
    return evolve(state, breaches=(*state.breaches, breach))


def _forfeited(state: DuelState, action: Forfeited) -> DuelState:
    """A breach proven by a witness's evidence: the seat's side loses the duel at once."""
    if state.phase is Phase.OVER or not 0 <= action.seat < state.players:
        raise IllegalActionError(None, action, _("nobody may forfeit now"))
    side = 1 - state.side(action.seat)
    state = _log(state, ev.Forfeited(action.seat, action.reason))
    return evolve(
        state,
        winner=side,
        forfeit=action.seat,
        phase=Phase.OVER,
        queue=(),
        attack=None,
        block=None,
        target=None,
    )


def witnesses(
    state: DuelState, seat: int, action: Action
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A Summoner count can be checked at once by whoever saw the hand (the attacker)."""
    if not isinstance(action, Declare) or state.phase is not Phase.DECLARE:
        return (), ()
    hand = state.hands[seat]
    holders = state.holders(seat)
    seats = tuple(
        other
        for other in range(state.players)
        if other not in holders and hand and all(state.knowledge.knows(other, s) for s in hand)
    )
    return (seats, hand) if seats else ((), ())


def breach_with(
    state: DuelState, seat: int, action: Action, cards: Mapping[int, str]
) -> str | None:
    """Why ``action`` breaks a rule once the cards of ``cards`` are known, if it does (in
    words)."""
    found = _false_count(state, seat, action, cards)
    return None if found is None else forfeit_words(*found)


def _false_count(
    state: DuelState, seat: int, action: Action, cards: Mapping[int, str]
) -> tuple[str, ReasonParams] | None:
    """A Summoner count the cards of ``cards`` prove false: its reason, untranslated, and
    what fills it."""
    if not isinstance(action, Declare) or state.summon_name is None:
        return None
    hand = state.hands[seat]
    if any(s not in cards for s in hand):
        return None
    held = [cards[s] for s in hand].count(state.summon_name)
    if held == action.count:
        return None
    params = (("claimed", action.count), ("card", CARDS[state.summon_name].title), ("n", held))
    return N_("declared {claimed} × {card}, the hand holds {n}"), params


_CONTINUE: dict[Phase, Callable[[DuelState, Any], DuelState]] = {
    Phase.SPECIALS: lambda s, a: _new_bout(s),
    Phase.DEAL: lambda s, a: _dealt(s),
    Phase.FLIP: _flipped,
    Phase.TAKEN: lambda s, a: _effects(s),
    Phase.LOOK: lambda s, a: _looked(s),
    Phase.REMIX: lambda s, a: _after_remix(s),
    Phase.RESUPPLY: lambda s, a: _end_turn(s),
}


def apply(state: DuelState, action: Action, seat: int | None) -> DuelState:
    """The state after ``seat`` (``None``: the dealer) makes ``action``.

    Raises :class:`IllegalActionError` naming seat, action and reason if it is not allowed.
    """
    if isinstance(action, Forfeited):
        if seat is not None:
            raise IllegalActionError(seat, action, _("only the dealer answers requests"))
        return evolve(_forfeited(state, action), state_id=state.state_id + 1)
    if seat is None or isinstance(action, (Revealed, Shuffled, Remixed, RandomResult)):
        if seat is not None:
            raise IllegalActionError(seat, action, _("only the dealer answers requests"))
        return _counted(state, _fulfil(state, action))
    check(state, seat, action)
    return _counted(state, _decide(state, seat, action))


def _counted(before: DuelState, after: DuelState) -> DuelState:
    """``after`` with the state id one past ``before``'s.

    ``after`` is a value this ``apply`` has just made unless nothing changed: nobody else
    holds it yet, so its id is set in place rather than by one more copy.
    """
    if after is before:
        return evolve(after, state_id=before.state_id + 1)
    object.__setattr__(after, "state_id", before.state_id + 1)
    return after


def _decide(state: DuelState, seat: int, action: Action) -> DuelState:
    phase = state.phase
    if phase is Phase.LEAD:
        assert isinstance(action, Lead)
        order = tuple((action.seat + i) % 4 for i in range(4))
        state = _log(evolve(state, order=order, turn_index=0), ev.LeadChosen(action.seat))
        return _begin_turn(state)
    if phase is Phase.ATTACK:
        if isinstance(action, Pass):
            return _passed(_log(state, ev.Passed(seat, auto=False)), seat)
        assert isinstance(action, Claim)
        return _claimed(state, seat, action)
    if phase is Phase.RESPOND:
        if isinstance(action, Challenge):
            return _challenged(state, seat)
        if isinstance(action, Block):
            return _blocked(state, seat, action)
        assert isinstance(action, NoAction)
        return _resolve(_log(state, ev.Accepted(seat)))
    if phase is Phase.REPLY:
        if isinstance(action, Challenge):
            return _challenged(state, seat)
        assert isinstance(action, NoAction)
        return _resolve(_log(state, ev.Accepted(seat)))
    if phase is Phase.PRIEST:
        assert isinstance(action, Take)
        return _take(state, action.slots)
    if phase is Phase.SUMMON:
        assert isinstance(action, Summon)
        return _summoned(state, seat, action)
    if phase is Phase.DECLARE:
        assert isinstance(action, Declare)
        return _declared(state, seat, action)
    if phase is Phase.TRADE:
        if isinstance(action, NoTrade):
            return _resupply(state)
        assert isinstance(action, Trade)
        return evolve(state, offer=action, phase=Phase.TRADE_ANSWER)
    if phase is Phase.WOLFY:
        if isinstance(action, Taunt):
            return evolve(state, taunting=seat, queue=(Reveal((action.slot,), None),))
        assert isinstance(action, KeepHidden)
        return _wolfy_done(_kept_hidden(state, seat, action), seat)
    if phase is Phase.TRADE_ANSWER:
        offer = state.offer
        assert isinstance(offer, Trade) and state.attacker is not None
        if isinstance(action, Refuse):
            mate = state.teammate(state.attacker)
            assert mate is not None
            state = _log(
                evolve(state, offer=None),
                ev.Traded(state.attacker, mate, offer.give, offer.take, agreed=False),
            )
            return _resupply(state)
        return _resupply(_traded(state, offer))
    raise IllegalActionError(seat, action, _("nobody may act now"))

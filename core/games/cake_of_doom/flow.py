"""How a game moves: ``apply`` a seat's move or a dealer's answer, then run every automatic
step after it until a seat must choose, a request is waited on, or the game is over.

The automatic steps wait in ``state.agenda`` (the first runs next); a move or a step puts
its own steps in front, so a sub-flow (a steal, a sabotage and its Force Field, a control
bonus) finishes before the turn goes on. The steps live in :mod:`.steps` (what every part
shares, the end), :mod:`.bribe` (offer to resolution) and :mod:`.effects` (grab and steal
cards, control bonuses); this module sets up, runs the turn and applies moves.

Decisions this engine takes where the printed rules leave room (see also the package
docstring):

* Advanced: each seat in turn order, from the first player, chooses how many of its 8
  opening cards are cake cards; a choice the piles cannot fill is not offered (six players
  cannot all take 8 mischief cards of the 40).
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
* A steal draws a fair random card of the victim's hand, then shows it to the thief; the
  victim, who knew it, is left out of that reveal (a seat is never shown a card it knows,
  so a mental deck never opens a card twice to one seat).
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
* Ties at the end: "the cake value in front of" a player is the sum of its regions' values
  as they stood when won (bonuses included), then the cards in hand, then a shared win.
* The game ends at once when DOOM is won, or after round 10; or when a seat cheated, and
  then nobody who cheated wins: the others are ranked as at the end of round 10.
"""

from __future__ import annotations

from collections.abc import Callable
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
from cakeparty.core.games.cake_of_doom.bribe import (
    after_ff,
    ask_next,
    asking,
    blind_removals,
    bribe,
    closing,
    ff_ask,
    mumbo,
    open_offer,
    record_removal,
    removal,
    resolve,
    sabotaged,
    shielded,
    vashti,
)
from cakeparty.core.games.cake_of_doom.cards import (
    ALIEN_NAMES,
    CAKE_SLOTS,
    CONTINENTS,
    DEAL_CAKES,
    DEAL_MISCHIEF,
    MISCHIEF_SLOTS,
    REGION_NAMES,
    REGIONS_IN_PLAY,
    ROUNDS,
    TRACTOR_BEAM,
    box,
    card,
    is_cake_slot,
    is_card,
)
from cakeparty.core.games.cake_of_doom.effects import (
    abducted,
    bonus,
    discard_one,
    discard_rest,
    grab,
    look_pick,
    redraw,
    steal,
    stolen,
)
from cakeparty.core.games.cake_of_doom.legal import check
from cakeparty.core.games.cake_of_doom.state import (
    DoomOptions,
    DoomState,
    Held,
    Phase,
    Task,
    draft,
    replace,
    settled,
)
from cakeparty.core.games.cake_of_doom.steps import (
    add,
    ask,
    cheat,
    claim,
    discard_to_piles,
    draw,
    draw_task,
    drop,
    game_over,
    log,
    pick,
    public_names,
    remix,
    request,
    show,
    show_all,
    standing,
    then,
    winners,
)
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import Knowledge
from cakeparty.core.requests import Random, Reveal, Shuffle, check_answer


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
    """Read the setup draws, shuffle both decks, then deal (advanced: ask each mix)."""
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
    state = log(state, ev.GameSetUp(aliens, tuple(r.name for r in regions), favourite, first))
    state = request(state, Shuffle(CAKE_SLOTS), Shuffle(MISCHIEF_SLOTS))
    order = tuple((first + i) % state.players for i in range(state.players))
    if state.options.advanced:
        return then(state, *(("ask-mix", seat) for seat in order), ("start-game",))
    # dealt once the shuffles are done
    deals = (("deal", seat, DEAL_CAKES, DEAL_MISCHIEF) for seat in order)
    return then(state, *deals, ("start-game",))


def _deal(state: DoomState, seat: int, cakes: int, mischief: int) -> DoomState:
    """Give ``seat`` the top cards of each pile, shown to it alone."""
    dealt = state.cake_pile[:cakes] + state.mischief_pile[:mischief]
    state = replace(
        state, cake_pile=state.cake_pile[cakes:], mischief_pile=state.mischief_pile[mischief:]
    )
    return request(add(state, seat, dealt), Reveal(dealt, (seat,)))


def _ask_mix(state: DoomState, seat: int) -> DoomState:
    """Advanced: ``seat`` chooses the mix of its opening 8 cards."""
    return ask(state, Task(Phase.MIX, seat, why="opening"))


def _start_game(state: DoomState) -> DoomState:
    """Round 1 begins."""
    state = log(replace(state, round=1), ev.RoundStarted(1))
    return _start_turn(state)


def _start_turn(state: DoomState) -> DoomState:
    """The turn player's grab and steal cards, then bribe or pass."""
    state = replace(state, turn=state.turn + 1)
    state = log(state, ev.TurnStarted(state.current, state.round))
    return ask(state, Task(Phase.PLAY, state.current))


def _play(state: DoomState, made: int) -> DoomState:
    """Back to the turn player after a grab, a steal or a discard: the ``made``-th of the
    turn (the task counts them)."""
    return ask(state, Task(Phase.PLAY, state.current, count=made))


def _draw_step(state: DoomState) -> DoomState:
    """Draw r cards in round r (Pib one more)."""
    return draw_task(state, state.current, state.draw_count(state.current), "turn")


def _limit(state: DoomState) -> DoomState:
    """Discard down to the hand limit at the end of the turn."""
    seat = state.current
    excess = len(state.hands[seat]) - state.limit(seat)
    if excess <= 0:
        return state
    return ask(state, Task(Phase.DISCARD, seat, count=excess, why="limit"))


def _end_turn(state: DoomState) -> DoomState:
    """The next seat's turn; after the last turn of round 10, the end."""
    following = state.left(state.current)
    if following == state.first:
        if state.round >= ROUNDS:
            return game_over(state, "rounds")
        number = state.round + 1  # read first: replace changes a draft where it lies
        state = log(replace(state, round=number), ev.RoundStarted(number))
    return _start_turn(replace(state, current=following))


def _discarded(state: DoomState, seat: int, slots: tuple[int, ...]) -> DoomState:
    """Log a discard once its cards are face up."""
    return log(state, ev.Discarded(seat, public_names(state, slots)))


def _act(state: DoomState, seat: int, action: Action) -> DoomState:
    """A seat's checked move."""
    task = state.task
    assert task is not None
    state = replace(state, task=None, phase=Phase.WAITING)
    if isinstance(action, ChooseMix):
        state = log(state, ev.MixChosen(seat, action.cakes, action.mischief))
        return _deal(state, seat, action.cakes, action.mischief)
    if isinstance(action, Grab):
        state = replace(drop(state, seat, (action.slot,)), played=(*state.played, action.slot))
        state = show_all(state, (action.slot,))
        return then(
            state,
            ("claim", seat, action.slot, TRACTOR_BEAM, str(action)),
            ("grab", seat, action.slot, action.pile),
            ("play", task.count + 1),
        )
    if isinstance(action, Abduct):
        state = replace(drop(state, seat, (action.slot,)), played=(*state.played, action.slot))
        state = show_all(state, (action.slot,))
        return then(
            state,
            ("claim", seat, action.slot, "abduction", str(action)),
            ("abducted", seat, action.slot, action.victim),
            ("play", task.count + 1),
        )
    if isinstance(action, Bribe):
        return bribe(state, seat, action)
    if isinstance(action, NoBribe):
        state = log(state, ev.Passed(seat))
        return replace(state, agenda=(("draw-step",), ("limit",), ("end-turn",)))
    if isinstance(action, Sabotage):
        return sabotaged(state, seat, action)
    if isinstance(action, NoSabotage):
        return then(log(state, ev.NotSabotaged(seat)), ("ask",))
    if isinstance(action, ForceField):
        return shielded(state, seat, action)
    if isinstance(action, NoForceField):
        return state
    if isinstance(action, Remove):
        return record_removal(state, task.among[0], action.slots, action.freya)
    if isinstance(action, Draw):
        return draw(state, seat, action.cakes, action.mischief)
    if isinstance(action, Discard):
        state = drop(state, seat, action.slots)
        state = show_all(discard_to_piles(state, action.slots), action.slots)
        steps: list[tuple[Any, ...]] = [("discarded", seat, action.slots)]
        if task.phase is Phase.PLAY:
            # a discard of the seat's own accord: its turn goes on
            steps.append(("play", task.count + 1))
        elif task.why == "north-africa" and action.slots:
            steps.append(("redraw", seat, len(action.slots)))
        elif not task.upto and len(action.slots) < task.count:
            steps.append(("discard-rest", task, task.count - len(action.slots)))
        return then(state, *steps)
    if isinstance(action, PickCard):
        return pick(state, seat, action.slot, task.why)
    if isinstance(action, Rob):
        return then(state, ("steal", seat, action.victim, "east-asia"))
    if isinstance(action, Peek):
        state = show(
            log(state, ev.Looked(seat, action.victim)), state.hands[action.victim], (seat,)
        )
        return then(state, ("look-pick", seat, action.victim, "middle-east"))
    raise IllegalActionError(seat, action, _("nobody may act now"))


_STEPS: dict[str, Callable[..., DoomState]] = {
    "setup": _setup,
    "ask-mix": _ask_mix,
    "deal": _deal,
    "start-game": _start_game,
    "play": _play,
    "claim": claim,
    "grab": grab,
    "abducted": abducted,
    "steal": steal,
    "stolen": stolen,
    "look-pick": look_pick,
    "open-offer": open_offer,
    "asking": asking,
    "ask": ask_next,
    "ff-ask": ff_ask,
    "after-ff": after_ff,
    "removal": removal,
    "closing": closing,
    "blind-removals": blind_removals,
    "resolve": resolve,
    "vashti": vashti,
    "mumbo": mumbo,
    "bonus": bonus,
    "discard-one": discard_one,
    "redraw": redraw,
    "discard-rest": discard_rest,
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
            state = remix(state, seat)
    return state


def _learn(state: DoomState, action: Revealed | Remixed, slots: tuple[int, ...]) -> None:
    """Check a dealer's identities: real cards, of the deck their slot belongs to."""
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
    """Feed a dealer's answer to the pending request, then carry on."""
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


def outcome(state: DoomState) -> Outcome | None:
    """How the game ended: DOOM, regions after round 10, a cheat or a forfeit."""
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


def _forfeited(state: DoomState, action: Forfeited) -> DoomState:
    """A breach proven against a seat: the game ends, that seat cannot win."""
    if not 0 <= action.seat < state.players:
        raise IllegalActionError(None, action, _("nobody may forfeit now"))
    state = log(replace(state, forfeit=action.seat), ev.Forfeited(action.seat, action.reason))
    return game_over(state, "forfeit")


def apply(state: DoomState, action: Action, seat: int | None) -> DoomState:
    """The state after ``seat`` (``None``: the dealer) makes ``action``.

    Raises :class:`IllegalActionError` naming seat, action and reason if it is not allowed.
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError(seat, action, _("the game is over"))
    # every step below changes one private copy; the state given stays as it was
    state = draft(state)
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
    return settled(replace(state, state_id=state.state_id + 1))


__all__ = ["apply", "cheat", "draw", "new_state", "outcome", "standing", "winners"]

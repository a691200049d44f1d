"""How a game moves: ``apply`` an action, then run every automatic step after it.

This module sets up, deals, passes, ends rounds and the game, and feeds the dealer's
answers; a trick as it is played is :mod:`.turns`, a marker's use :mod:`.markers`, and the
small moves they share :mod:`.steps`. A step that needs a request (a card shown, a draw)
queues it and names the step to take once the queue is empty (``state.then``).

The flow, as this engine plays the rules (choices the printed rules leave open are
decided here):

* **Start.** The piece pile and the marker pile are shuffled once a game; a fair random
  number picks the first starting player.
* **A round.** Every card is gathered and shuffled; each player is dealt (12/12/9/8; the
  duel 10), each hand shown to its holder only; the rest stay out, unseen. Then one
  sealed choice of every seat: a card to the left neighbour (the next seat) and one to
  the right (the previous seat) — the duel: one card to the opponent. Once opened, each
  passed card is shown to its receiver; its giver keeps knowing it.
* **A trick.** The leader's trick starts by showing the top piece of the pile to all (the
  piece in dispute). Seats play clockwise (``seat + 1``); each card is shown to all. The
  winner takes the piece face down (everyone saw it: the history stays public) and leads.
* **Markers earned** at the end of a trick, from the top of the pile, each shown to its
  earner only, in play order of the cards that earn them; an empty pile gives nothing.
* **Marker windows** (not in the duel). After every card, each seat holding a marker is
  asked in turn, clockwise from the seat after the player and ending with the player: let
  it pass or use one marker. On its own turn to play a seat may also use markers first.
  After a marker (any but Defense) every other marker holder, clockwise from its user, is
  asked whether it answers with a Defense; the first Defense cancels the marker and both
  leave the game. A Defense is final: no window follows it. Asking every holder, not only
  those holding a Defense, keeps the kinds secret. The window after a trick's last card
  closes before the trick is won.
* **Using a marker** shows it to all. A marker that is not the kind its user claimed is a
  cheat: the breach is recorded and the game ends at once, naming the seat.
* **Effects.** Theft takes a random piece of the target. Puppet: the target's next card
  is drawn at random from its hand (the one card that may break suit). Swap: the target
  chooses the piece it gives; both pieces move, each shown to its receiver. Breezes: every
  player whose right (left) neighbour holds pieces takes a random one of them, all drawn
  from the holdings before the breeze. A Puppet waits for its target's next card, in a
  later trick or round if need be (two Puppets draw the next two cards); one still
  waiting when the game ends lapses. A puppeted seat's turn is drawn at once: it does not
  use a marker first (it may in the window after the card).
* **Hidden takes.** Before a random draw from a seat's pieces, and before a Swap's target
  chooses, the holder re-mixes its pieces unless it holds one piece or nobody else knows
  any of them. Likewise a marker holder re-mixes its pieces before it is asked to use a
  marker, so the piece a Swap's user gives shows nothing. After a take, the piece is shown
  to its taker (its victim knew it).
* **Following suit** is checked where the state knows every card of the player's hand
  (the local dealer, the audit's replay): a breach is recorded, never from partial
  knowledge, so every peer stays in step. A Puppet's card is never checked.
* **Rounds and the end.** A round ends when the hands are empty; 3 rounds. The next
  round's first player holds the fewest pieces (ties: the closest clockwise from the last
  round's first player, that player first). At the end every piece is shown to all and the
  game is scored (:mod:`.scoring`).
* A seat proven to have broken a rule (``Forfeited``) ends the game as a cheat. A game
  ended by a cheat is not scored: every other seat shares the win (reason ``cheated``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from cakeparty.core.actions import (
    Action,
    Committed,
    Forfeited,
    RandomResult,
    Remixed,
    Revealed,
    Shuffled,
)
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.game import Outcome
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    ROUNDS,
    box,
    cards,
    dealt_to,
    is_card,
    marker_kind,
    markers,
    pieces,
)
from cakeparty.core.games.cookies_battle.legal import check, check_pass
from cakeparty.core.games.cookies_battle.markers import (
    defense_next,
    defense_shown,
    drawn,
    marker_shown,
    swap,
    swapped,
    taken,
    use,
)
from cakeparty.core.games.cookies_battle.scoring import decide, seat_score
from cakeparty.core.games.cookies_battle.state import CookiesOptions, CookiesState, Phase
from cakeparty.core.games.cookies_battle.steps import cheated, enqueue, log
from cakeparty.core.games.cookies_battle.turns import (
    card_shown,
    play,
    shown,
    start_trick,
    suit_breach,
    window_next,
)
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import PUBLIC, Knowledge
from cakeparty.core.requests import Commit, Random, Request, Reveal, Shuffle, check_answer


def new_state(options: CookiesOptions) -> CookiesState:
    """A game before anything is shuffled: every slot in the box, face up."""
    items = box(options.variant)
    n = options.players
    state = CookiesState(
        options=options,
        box=items,
        knowledge=Knowledge.public(items),
        phase=Phase.SETUP,
        hands=((),) * n,
        pieces=((),) * n,
        markers=((),) * n,
        won_face_up=((),) * n,
        tricks_won=(0,) * n,
        markers_earned=(0,) * n,
        markers_used=(0,) * n,
    )
    pile = tuple(state.piece_slots)
    markers = tuple(state.marker_slots)
    requests: list[Request] = [Shuffle(pile)]
    if markers:
        requests.append(Shuffle(markers))
    requests.append(Random(n))
    state = state.evolve(piece_pile=pile, marker_pile=markers, draws=(("first", 0, 0),))
    return enqueue(state, *requests, then="round")


def _start_round(state: CookiesState) -> CookiesState:
    """Gather every card, shuffle, deal; the hands are shown to their holders."""
    number = state.round + 1
    slots = tuple(state.card_slots)
    size = DEAL[state.players]
    hands = tuple(slots[s * size : (s + 1) * size] for s in range(state.players))
    state = state.evolve(
        round=number,
        trick_no=0,
        hands=hands,
        out=slots[state.players * size :],
        played=(),
        trick=(),
        last_trick=(),
        last_winner=None,
        turn_suit=None,
        phase=Phase.SETUP,
        actor=None,
        leader=state.first,
    )
    state = log(state, ev.RoundStarted(number, state.first), ev.Dealt(number, size))
    reveals = [Reveal(hand, (seat,)) for seat, hand in enumerate(hands)]
    return enqueue(state, Shuffle(slots), *reveals, then="dealt")


def _dealt(state: CookiesState) -> CookiesState:
    return enqueue(state.evolve(phase=Phase.PASS), Commit(tuple(range(state.players))))


def _passed(state: CookiesState, choices: dict[int, Action]) -> CookiesState:
    """Every seat's passed cards move at once; each is shown to its receiver."""
    n = state.players
    gives: dict[int, list[int]] = {seat: [] for seat in range(n)}
    hands = [list(h) for h in state.hands]
    for seat, action in choices.items():
        if isinstance(action, HandOver):
            moves = [(action.slot, 1 - seat)]
        else:
            assert isinstance(action, PassOn)
            moves = [(action.left, state.left(seat)), (action.right, state.right(seat))]
        for slot, receiver in moves:
            hands[seat].remove(slot)
            gives[receiver].append(slot)
    for seat in range(n):
        hands[seat] = sorted(hands[seat] + gives[seat])
    state = state.evolve(hands=tuple(tuple(h) for h in hands))
    reveals = [Reveal(tuple(sorted(gives[seat])), (seat,)) for seat in range(n) if gives[seat]]
    return enqueue(state, *reveals, then="passed")


def _received(state: CookiesState) -> CookiesState:
    """The passed cards shown to their receivers: the pass is told (each seat reads its own
    cards given and received, every name now known to it), and the first trick starts."""
    n = state.players
    moves = sorted(
        (dealt_to(slot, n), seat, slot)
        for seat, hand in enumerate(state.hands)
        for slot in hand
        if dealt_to(slot, n) != seat
    )
    state = log(state, ev.Passed(state.round, state.options.duel, tuple(moves)))
    return start_trick(state)


def _earned(state: CookiesState) -> CookiesState:
    earned = [
        ev.MarkerEarned(seat, None if (name := state.name(slot)) is None else marker_kind(name))
        for seat, slot in state.awarded
    ]
    state = log(state.evolve(awarded=()), *earned)
    if any(state.hands):
        return start_trick(state)
    return _end_round(state)


def next_first(pieces: Sequence[int], previous: int) -> int:
    """The first player of a new round: the fewest pieces; a tie goes to the closest
    clockwise from the previous round's first player (that player first)."""
    n = len(pieces)
    fewest = min(pieces)
    return next(s for s in ((previous + i) % n for i in range(n)) if pieces[s] == fewest)


def _end_round(state: CookiesState) -> CookiesState:
    counts = tuple(len(p) for p in state.pieces)
    state = log(state, ev.RoundEnded(state.round, counts))
    if state.round < ROUNDS:
        return _start_round(state.evolve(first=next_first(counts, state.first)))
    hidden = tuple(
        slot
        for held in state.pieces
        for slot in held
        if not state.knowledge.known_by[slot] & PUBLIC
    )
    state = state.evolve(phase=Phase.SETUP, actor=None)
    if hidden:
        return enqueue(state, Reveal(hidden, None), then="final")
    return _final(state)


def _final(state: CookiesState) -> CookiesState:
    names = tuple(tuple(state.name(s) for s in held) for held in state.pieces)
    if any(n is None for held in names for n in held):
        raise IllegalActionError(None, None, _("the game is scored before the pieces are shown"))
    scores = tuple(
        seat_score([n for n in held if n is not None], len(state.markers[seat]))
        for seat, held in enumerate(names)
    )
    won, aches = decide(scores, state.options.tummy_ache)
    state = state.evolve(
        results=scores,
        winners=won,
        tummy_ache=aches,
        shared=len(won) > 1,
        phase=Phase.OVER,
        actor=None,
    )
    totals = tuple(s.total for s in scores)
    return log(state, ev.PiecesRevealed(names), ev.GameOver(won, len(won) > 1, totals, aches))


def outcome(state: CookiesState) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    if state.cheat is not None:
        return Outcome(
            winners=state.winners,
            reason="cheated",
            scores=(0,) * state.players,
            shared=state.shared,
        )
    reason = "tummy-ache" if state.options.tummy_ache else "points"
    return Outcome(
        winners=state.winners,
        reason=reason,
        scores=tuple(s.total for s in state.results),
        shared=state.shared,
    )


@cache
def _names_by_slot(variant: str) -> tuple[frozenset[str], ...]:
    """The names each slot of ``variant``'s box may hold: a card, a piece, a marker."""
    items = box(variant)
    kinds = (frozenset(cards(variant)), frozenset(pieces()), frozenset(markers()))
    return tuple(
        kinds[0] if is_card(name) else kinds[1] if name in kinds[1] else kinds[2] for name in items
    )


def _kind_ok(state: CookiesState, slot: int, name: str) -> bool:
    return name in _names_by_slot(state.options.variant)[slot]


def _learn(state: CookiesState, action: Revealed) -> CookiesState:
    known = state.knowledge
    names, allowed = known.cards, _names_by_slot(state.options.variant)
    for slot, name in zip(action.slots, action.cards, strict=True):
        if name is None:
            continue
        held = names[slot]
        if held is not None and held != name:
            raise IllegalActionError(
                None,
                action,
                _("slot {slot} is {held}, not {name}").format(slot=slot, held=held, name=name),
            )
        if name not in allowed[slot]:
            raise IllegalActionError(
                None, action, _("{name} cannot lie in slot {slot}").format(name=name, slot=slot)
            )
    return state.evolve(knowledge=known.reveal(action.slots, action.cards, action.to))


def _remixed(state: CookiesState, action: Remixed) -> CookiesState:
    for slot, name in zip(action.slots, action.cards, strict=True):
        if name is not None and not _kind_ok(state, slot, name):
            raise IllegalActionError(
                None, action, _("{name} cannot lie in slot {slot}").format(name=name, slot=slot)
            )
    knowledge = state.knowledge.remix(action.slots, action.cards, action.to)
    return state.evolve(knowledge=knowledge)


def _random(state: CookiesState, action: RandomResult) -> CookiesState:
    (purpose, a, b), draws = state.draws[0], state.draws[1:]
    state = state.evolve(draws=draws)
    if purpose == "first":
        return state.evolve(first=action.value, leader=action.value)
    if purpose == "take":
        slot = state.pieces[b][action.value]
        return state.evolve(picks=(*state.picks, (a, b, slot)))
    assert purpose == "puppet"
    return play(state, a, state.hands[a][action.value], forced=True)


_CONTINUE: dict[str, Callable[[CookiesState], CookiesState]] = {
    "round": _start_round,
    "dealt": _dealt,
    "passed": _received,
    "trick": start_trick,
    "shown": shown,
    "played": card_shown,
    "earned": _earned,
    "marker-shown": marker_shown,
    "defense-shown": defense_shown,
    "drawn": drawn,
    "taken": taken,
    "swapped": swapped,
    "final": _final,
}


def _settle(state: CookiesState) -> CookiesState:
    while not state.queue and state.then and state.phase is not Phase.OVER:
        step = state.then
        state = _CONTINUE[step](state.evolve(then=""))
    return state


def _fulfil(state: CookiesState, action: Action) -> CookiesState:
    """Feed a dealer's answer to the pending request."""
    check_answer(state.pending, action)
    if isinstance(action, Committed):
        for seat, choice in action.choices:
            check_pass(state, seat, choice)
    state = state.evolve(queue=state.queue[1:])
    if isinstance(action, Shuffled):
        return state.evolve(knowledge=state.knowledge.forget(action.slots))
    if isinstance(action, Revealed):
        return _learn(state, action)
    if isinstance(action, Remixed):
        return _remixed(state, action)
    if isinstance(action, RandomResult):
        return _random(state, action)
    assert isinstance(action, Committed)
    return _passed(state, dict(action.choices))


def _forfeited(state: CookiesState, action: Forfeited) -> CookiesState:
    if not 0 <= action.seat < state.players:
        raise IllegalActionError(None, action, _("nobody may forfeit now"))
    return cheated(state, action.seat, action.reason)


def _decide(state: CookiesState, seat: int, action: Action) -> CookiesState:
    if isinstance(action, Play):
        return play(suit_breach(state, seat, action), seat, action.slot)
    if isinstance(action, UseMarker):
        if state.phase is Phase.PLAY:
            state = state.evolve(resume="play")
        return use(state, seat, action)
    if isinstance(action, NoMarker):
        if state.phase is Phase.DEFENSE:
            return defense_next(state)
        return window_next(state)
    assert isinstance(action, GivePiece)
    return swap(state, seat, action)


def apply(state: CookiesState, action: Action, seat: int | None) -> CookiesState:
    """The state after ``seat`` (``None``: the dealer) makes ``action``."""
    if state.phase is Phase.OVER:
        raise IllegalActionError(seat, action, _("the game is over"))
    state = state.draft()
    if seat is None:
        if isinstance(action, Forfeited):
            state = _forfeited(state, action)
        else:
            state = _fulfil(state, action)
    else:
        if isinstance(action, (Revealed, Shuffled, Remixed, RandomResult, Committed, Forfeited)):
            raise IllegalActionError(seat, action, _("only the dealer answers requests"))
        check(state, seat, action)
        state = _decide(state, seat, action)
    state = _settle(state)
    return state.done()

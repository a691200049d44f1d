"""How a game moves: ``apply`` an action, then run every automatic step after it.

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
  those holding a Defense, keeps the kinds secret.
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
* A seat proven to have broken a rule (``Forfeited``) ends the game as a cheat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

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
    card,
    cards,
    marker_kind,
    piece_kind,
)
from cakeparty.core.games.cookies_battle.legal import DEFENSE, check, check_pass
from cakeparty.core.games.cookies_battle.scoring import decide, seat_score
from cakeparty.core.games.cookies_battle.state import (
    Breach,
    CookiesOptions,
    CookiesState,
    Phase,
)
from cakeparty.core.games.cookies_battle.tricks import earners, may_play, winner
from cakeparty.core.i18n import _
from cakeparty.core.knowledge import PUBLIC, Knowledge
from cakeparty.core.requests import Commit, Random, Remix, Request, Reveal, Shuffle, check_answer

# -- small helpers ------------------------------------------------------------------------


def _log(state: CookiesState, *events: Any) -> CookiesState:
    start = len(state.events)
    secret = tuple(start + i for i, e in enumerate(events) if isinstance(e, ev.SECRET))
    if secret:
        return state.evolve(events=state.events + events, secrets=state.secrets + secret)
    return state.evolve(events=state.events + events)


def _queue(state: CookiesState, *requests: Request, then: str = "") -> CookiesState:
    return state.evolve(queue=state.queue + requests, then=then)


def _set(seq: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*seq[:index], value, *seq[index + 1 :])


def _bump(counts: tuple[int, ...], seat: int, by: int = 1) -> tuple[int, ...]:
    return _set(counts, seat, counts[seat] + by)


def _known_by_others(state: CookiesState, seat: int, slots: Sequence[int]) -> bool:
    mine = 1 << seat
    return any(state.knowledge.known_by[s] & ~mine for s in slots)


def _show(state: CookiesState, slot: int, seats: Sequence[int]) -> tuple[Request, ...]:
    """Show ``slot`` to those of ``seats`` that do not know it yet (a seat that knows it,
    by a re-mix of its own pieces say, has nothing to learn: the mental deck sends shares
    only to seats that learn the card)."""
    newcomers = tuple(s for s in seats if not state.knowledge.knows(s, slot))
    return (Reveal((slot,), newcomers),) if newcomers else ()


def _remix_pieces(state: CookiesState, seat: int) -> tuple[Request, ...]:
    """The re-mix that hides which of ``seat``'s pieces is which from everyone else, when
    it is needed (public facts only: the piece count and who knows which slot)."""
    held = state.pieces[seat]
    if len(held) < 2 or not _known_by_others(state, seat, held):
        return ()
    return (Remix(seat, held, (seat,)),)


# -- setting up ---------------------------------------------------------------------------


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
    return _queue(state, *requests, then="round")


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
    state = _log(state, ev.RoundStarted(number, state.first), ev.Dealt(number, size))
    reveals = [Reveal(hand, (seat,)) for seat, hand in enumerate(hands)]
    return _queue(state, Shuffle(slots), *reveals, then="dealt")


def _dealt(state: CookiesState) -> CookiesState:
    return _queue(state.evolve(phase=Phase.PASS), Commit(tuple(range(state.players))))


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
    state = _log(state, ev.Passed(state.round, state.options.duel))
    reveals = [Reveal(tuple(sorted(gives[seat])), (seat,)) for seat in range(n) if gives[seat]]
    return _queue(state, *reveals, then="trick")


# -- tricks -------------------------------------------------------------------------------


def _start_trick(state: CookiesState) -> CookiesState:
    """The leader shows the top piece of the pile: the piece in dispute."""
    piece = state.piece_pile[0]
    state = state.evolve(
        trick_no=state.trick_no + 1,
        dispute=piece,
        piece_pile=state.piece_pile[1:],
        trick=(),
        turn_suit=None,
        phase=Phase.SETUP,
        actor=None,
    )
    return _queue(state, Reveal((piece,), None), then="shown")


def _shown(state: CookiesState) -> CookiesState:
    assert state.dispute is not None
    return _next_turn(_log(state, ev.PieceShown(state.trick_no, state.name(state.dispute))))


def _ask(state: CookiesState, phase: Phase, seat: int) -> CookiesState:
    """Ask ``seat`` to act in ``phase``; a marker holder first re-mixes known pieces."""
    state = state.evolve(phase=phase, actor=seat)
    if phase is Phase.SWAP or (phase in (Phase.PLAY, Phase.MARKER) and state.markers[seat]):
        return _queue(state, *_remix_pieces(state, seat))
    return state


def _next_turn(state: CookiesState) -> CookiesState:
    seat = state.to_play
    if seat in state.puppets:
        puppets = list(state.puppets)
        puppets.remove(seat)
        state = state.evolve(
            puppets=tuple(puppets),
            phase=Phase.SETUP,
            actor=None,
            draws=(*state.draws, ("puppet", seat, 0)),
        )
        return _queue(state, Random(len(state.hands[seat])))
    return _ask(state, Phase.PLAY, seat)


def _play(state: CookiesState, seat: int, slot: int, *, forced: bool = False) -> CookiesState:
    hand = tuple(s for s in state.hands[seat] if s != slot)
    state = state.evolve(
        hands=_set(state.hands, seat, hand),
        trick=(*state.trick, (seat, slot)),
        phase=Phase.SETUP,
        actor=None,
        resume="forced" if forced else "",
    )
    return _queue(state, Reveal((slot,), None), then="played")


def _suit_breach(state: CookiesState, seat: int, action: Play) -> CookiesState:
    """Record a card that breaks suit, where this state knows the player's whole hand."""
    names = [state.name(s) for s in state.hands[seat]]
    if any(n is None for n in names):
        return state  # only the holder can tell; the audit will
    hand = [n for n in names if n is not None]
    played = state.name(action.slot)
    assert played is not None
    if may_play(hand, state.turn_suit, played):
        return state
    reason = _("broke suit: held a card of the turn suit")
    breach = Breach(seat, str(action), reason, state.round, state.trick_no)
    return state.evolve(breaches=(*state.breaches, breach))


def _card_shown(state: CookiesState) -> CookiesState:
    seat, slot = state.trick[-1]
    name = state.name(slot)
    forced = state.resume == "forced"
    state = state.evolve(resume="")
    if state.turn_suit is None and name is not None and card(name).colour:
        state = state.evolve(turn_suit=card(name).suit)
    state = _log(state, ev.CardPlayed(seat, name, forced))
    if not state.options.markers:
        return _after_window(state)
    n = state.players
    order = tuple((seat + i) % n for i in range(1, n + 1))  # ends with the player
    return _window_next(state.evolve(window=order, resume="window"))


def _window_next(state: CookiesState) -> CookiesState:
    """Ask the next marker holder of the window, or close it."""
    window = state.window
    while window and not state.markers[window[0]]:
        window = window[1:]
    if not window:
        return _after_window(state.evolve(window=(), resume=""))
    return _ask(state.evolve(window=window[1:], resume="window"), Phase.MARKER, window[0])


def _after_window(state: CookiesState) -> CookiesState:
    if len(state.trick) < state.players:
        return _next_turn(state)
    return _end_trick(state)


def _end_trick(state: CookiesState) -> CookiesState:
    names = [state.name(slot) for _, slot in state.trick]
    if any(n is None for n in names):
        raise IllegalActionError(None, None, _("a trick is judged before its cards are shown"))
    played = [n for n in names if n is not None]
    win = state.trick[winner(played)][0]
    piece = state.dispute
    assert piece is not None
    piece_name = state.name(piece)
    state = state.evolve(
        pieces=_set(state.pieces, win, tuple(sorted((*state.pieces[win], piece)))),
        won_face_up=_set(state.won_face_up, win, (*state.won_face_up[win], piece_name or "?")),
        tricks_won=_bump(state.tricks_won, win),
        played=state.played + tuple(slot for _, slot in state.trick),
        last_trick=state.trick,
        last_winner=win,
        trick=(),
        dispute=None,
        leader=win,
        phase=Phase.SETUP,
        actor=None,
    )
    state = _log(state, ev.TrickWon(win, piece_name, tuple(names), state.trick_no))
    reveals: list[Request] = []
    if state.options.markers:
        for index in earners(played):
            if not state.marker_pile:
                break
            seat = state.last_trick[index][0]
            slot = state.marker_pile[0]
            state = state.evolve(
                marker_pile=state.marker_pile[1:],
                markers=_set(state.markers, seat, (*state.markers[seat], slot)),
                markers_earned=_bump(state.markers_earned, seat),
                awarded=(*state.awarded, (seat, slot)),
            )
            reveals.append(Reveal((slot,), (seat,)))
    return _queue(state, *reveals, then="earned")


def _earned(state: CookiesState) -> CookiesState:
    earned = [
        ev.MarkerEarned(seat, None if (name := state.name(slot)) is None else marker_kind(name))
        for seat, slot in state.awarded
    ]
    state = _log(state.evolve(awarded=()), *earned)
    if any(state.hands):
        return _start_trick(state)
    return _end_round(state)


# -- markers ------------------------------------------------------------------------------


def _use(state: CookiesState, seat: int, action: UseMarker) -> CookiesState:
    """A marker is used: it leaves its holder and is shown to all."""
    held = tuple(s for s in state.markers[seat] if s != action.slot)
    state = state.evolve(
        markers=_set(state.markers, seat, held),
        used=(*state.used, action.slot),
        markers_used=_bump(state.markers_used, seat),
        phase=Phase.SETUP,
        actor=None,
    )
    if action.kind == DEFENSE:
        state = state.evolve(defender=seat, defense=())
        return _queue(state, Reveal((action.slot,), None), then="defense-shown")
    resume = "play" if state.resume != "window" else "window"
    state = state.evolve(user=seat, using=action, resume=resume)
    return _queue(state, Reveal((action.slot,), None), then="marker-shown")


def _lied(state: CookiesState, seat: int, action: UseMarker) -> CookiesState | None:
    """The game ended by a cheat if the marker shown is not the kind claimed."""
    name = state.name(action.slot)
    if name is None or marker_kind(name) == action.kind:
        return None
    reason = _("claimed a marker of another kind than the one shown")
    breach = Breach(seat, str(action), reason, state.round, state.trick_no)
    return _cheated(state.evolve(breaches=(*state.breaches, breach)), seat, reason)


def _cheated(state: CookiesState, seat: int, reason: str) -> CookiesState:
    state = state.evolve(
        cheat=seat,
        cheat_reason=reason,
        phase=Phase.OVER,
        queue=(),
        then="",
        actor=None,
        winners=tuple(s for s in range(state.players) if s != seat),
        shared=state.players > 2,
    )
    return _log(state, ev.Cheated(seat, reason), ev.GameOver(state.winners, state.shared, ()))


def _marker_shown(state: CookiesState) -> CookiesState:
    user, action = state.user, state.using
    assert user is not None and action is not None
    lied = _lied(state, user, action)
    if lied is not None:
        return lied
    target = action.target[0] if action.target else None
    state = _log(state, ev.MarkerUsed(user, action.kind, target))
    n = state.players
    asks = tuple((user + i) % n for i in range(1, n))
    return _defense_next(state.evolve(defense=asks))


def _defense_next(state: CookiesState) -> CookiesState:
    asks = state.defense
    while asks and not state.markers[asks[0]]:
        asks = asks[1:]
    if not asks:
        return _resolve(state.evolve(defense=()))
    return _ask(state.evolve(defense=asks[1:]), Phase.DEFENSE, asks[0])


def _defense_shown(state: CookiesState) -> CookiesState:
    defender, user, action = state.defender, state.user, state.using
    assert defender is not None and user is not None and action is not None
    slot = state.used[-1]
    lied = _lied(state, defender, UseMarker(slot, DEFENSE))
    if lied is not None:
        return lied
    state = _log(state, ev.Defended(defender, user, action.kind))
    return _resume(state.evolve(defense=()))


def _resolve(state: CookiesState) -> CookiesState:
    """The marker's effect, once no Defense answered it."""
    user, action = state.user, state.using
    assert user is not None and action is not None
    kind = action.kind
    if kind == "theft":
        return _takes(state, [(user, action.target[0])])
    if kind == "puppet":
        target = action.target[0]
        state = state.evolve(puppets=(*state.puppets, target))
        return _resume(_log(state, ev.Puppeted(user, target)))
    if kind == "swap":
        return _ask(state, Phase.SWAP, action.target[0])
    n = state.players
    if kind == "right-breeze":
        pairs = [(s, state.right(s)) for s in range(n)]
    else:
        pairs = [(s, state.left(s)) for s in range(n)]
    return _takes(state, [(t, v) for t, v in pairs if state.pieces[v]])


def _takes(state: CookiesState, pairs: Sequence[tuple[int, int]]) -> CookiesState:
    """Random takes, all drawn from the holdings as they stand now."""
    if not pairs:
        return _resume(state)
    requests: list[Request] = []
    draws = list(state.draws)
    for taker, victim in pairs:
        requests.extend(_remix_pieces(state, victim))
        requests.append(Random(len(state.pieces[victim])))
        draws.append(("take", taker, victim))
    state = state.evolve(draws=tuple(draws), phase=Phase.SETUP, actor=None)
    return _queue(state, *requests, then="drawn")


def _drawn(state: CookiesState) -> CookiesState:
    """Every piece drawn moves to its taker and is shown to it."""
    pieces = [list(p) for p in state.pieces]
    for taker, victim, slot in state.picks:
        pieces[victim].remove(slot)
        pieces[taker].append(slot)
    state = state.evolve(pieces=tuple(tuple(sorted(p)) for p in pieces))
    reveals = [
        r for taker, victim, slot in state.picks for r in _show(state, slot, (taker, victim))
    ]
    return _queue(state, *reveals, then="taken")


def _taken(state: CookiesState) -> CookiesState:
    taken = [ev.PieceTaken(t, v, state.name(slot)) for t, v, slot in state.picks]
    return _resume(_log(state.evolve(picks=()), *taken))


def _swap(state: CookiesState, seat: int, action: GivePiece) -> CookiesState:
    user, using = state.user, state.using
    assert user is not None and using is not None
    mine = using.piece[0]
    pieces = [list(p) for p in state.pieces]
    pieces[user].remove(mine)
    pieces[seat].remove(action.slot)
    pieces[user].append(action.slot)
    pieces[seat].append(mine)
    state = state.evolve(
        pieces=tuple(tuple(sorted(p)) for p in pieces),
        given=action.slot,
        phase=Phase.SETUP,
        actor=None,
    )
    return _queue(
        state,
        *_show(state, mine, (seat, user)),
        *_show(state, action.slot, (user, seat)),
        then="swapped",
    )


def _swapped(state: CookiesState) -> CookiesState:
    user, using, given = state.user, state.using, state.given
    assert user is not None and using is not None and given is not None
    event = ev.Swapped(user, using.target[0], state.name(using.piece[0]), state.name(given))
    return _resume(_log(state.evolve(given=None), event))


def _resume(state: CookiesState) -> CookiesState:
    """Back to where the marker was used: the player's own turn, or the window."""
    resume = state.resume
    state = state.evolve(user=None, using=None, defender=None)
    if resume == "window":
        return _window_next(state)
    return _ask(state.evolve(resume=""), Phase.PLAY, state.to_play)


# -- rounds and the end -------------------------------------------------------------------


def next_first(pieces: Sequence[int], previous: int) -> int:
    """The first player of a new round: the fewest pieces; a tie goes to the closest
    clockwise from the previous round's first player (that player first)."""
    n = len(pieces)
    fewest = min(pieces)
    return next(s for s in ((previous + i) % n for i in range(n)) if pieces[s] == fewest)


def _end_round(state: CookiesState) -> CookiesState:
    counts = tuple(len(p) for p in state.pieces)
    state = _log(state, ev.RoundEnded(state.round, counts))
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
        return _queue(state, Reveal(hidden, None), then="final")
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
    return _log(state, ev.PiecesRevealed(names), ev.GameOver(won, len(won) > 1, totals, aches))


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


# -- applying -----------------------------------------------------------------------------


@cache
def _card_names(variant: str) -> frozenset[str]:
    return frozenset(cards(variant))


def _kind_ok(state: CookiesState, slot: int, name: str) -> bool:
    if slot in state.card_slots:
        return name in _card_names(state.options.variant)
    try:
        if slot in state.piece_slots:
            piece_kind(name)
        else:
            marker_kind(name)
    except KeyError:
        return False
    return True


def _learn(state: CookiesState, action: Revealed) -> CookiesState:
    known = state.knowledge
    for slot, name in zip(action.slots, action.cards, strict=True):
        if name is None:
            continue
        held = known.cards[slot]
        if held is not None and held != name:
            raise IllegalActionError(None, action, f"slot {slot} is {held}, not {name}")
        if not _kind_ok(state, slot, name):
            raise IllegalActionError(None, action, f"{name} cannot lie in slot {slot}")
    return state.evolve(knowledge=known.reveal(action.slots, action.cards, action.to))


def _remixed(state: CookiesState, action: Remixed) -> CookiesState:
    for slot, name in zip(action.slots, action.cards, strict=True):
        if name is not None and not _kind_ok(state, slot, name):
            raise IllegalActionError(None, action, f"{name} cannot lie in slot {slot}")
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
    return _play(state, a, state.hands[a][action.value], forced=True)


_CONTINUE: dict[str, Callable[[CookiesState], CookiesState]] = {
    "round": _start_round,
    "dealt": _dealt,
    "trick": _start_trick,
    "shown": _shown,
    "played": _card_shown,
    "earned": _earned,
    "marker-shown": _marker_shown,
    "defense-shown": _defense_shown,
    "drawn": _drawn,
    "taken": _taken,
    "swapped": _swapped,
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
    return _cheated(state, action.seat, action.reason)


def _decide(state: CookiesState, seat: int, action: Action) -> CookiesState:
    if isinstance(action, Play):
        return _play(_suit_breach(state, seat, action), seat, action.slot)
    if isinstance(action, UseMarker):
        if state.phase is Phase.PLAY:
            state = state.evolve(resume="play")
        return _use(state, seat, action)
    if isinstance(action, NoMarker):
        if state.phase is Phase.DEFENSE:
            return _defense_next(state)
        return _window_next(state)
    assert isinstance(action, GivePiece)
    return _swap(state, seat, action)


def apply(state: CookiesState, action: Action, seat: int | None) -> CookiesState:
    """The state after ``seat`` (``None``: the dealer) makes ``action``."""
    if state.phase is Phase.OVER:
        raise IllegalActionError(seat, action, _("the game is over"))
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
    return state.evolve(state_id=state.state_id + 1)

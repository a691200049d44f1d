"""Who acts, and which moves are legal — from public facts and the seat's own cards.

``check`` uses public facts only (which slots a hand holds, which are cake and which are
mischief cards, the regions, the piles), so every peer accepts or refuses a move alike;
what only the cards can tell (is this card what it was claimed to be, is the offer worth
enough) is checked when the cards are shown, and a false claim ends the game as a cheat.

``legal_actions`` lists what a seat may do from what that seat knows: it never offers a
false claim or an offer below its target. Cards of the same sort are interchangeable, so it
lists one move per choice of sorts, with the lowest slots (``check`` accepts any slots).
"""

from __future__ import annotations

from collections.abc import Iterable

from cakeparty.core.actions import Action
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_of_doom.actions import (
    PILES,
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
    ABDUCTION,
    FORCE_FIELD,
    OPENING,
    SABOTAGES,
    TRACTOR_BEAM,
    TURN_PLAYS,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.rules import (
    amount,
    freya_bonus,
    removal_error,
    requirement,
    target_continent,
    targets,
    units,
)
from cakeparty.core.games.cake_of_doom.state import DoomState, Phase
from cakeparty.core.i18n import _, ngettext

#: above this many choices of sorts, offers are listed by value class only
MAX_OFFERS = 1024


def to_act(state: DoomState) -> tuple[int, ...]:
    return state.to_act


def known_hand(state: DoomState, seat: int) -> dict[int, str]:
    """The cards of ``seat``'s hand that ``seat`` knows, by slot."""
    cards, masks, bit = state.knowledge.cards, state.knowledge.known_by, 1 << seat
    return {
        slot: name
        for slot in state.hands[seat]
        if (name := cards[slot]) is not None and masks[slot] & bit
    }


def _sorts(hand: dict[int, str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for slot in sorted(hand):
        groups.setdefault(card(hand[slot]).sort, []).append(slot)
    return groups


def _multisets(
    groups: list[list[int]], sizes: Iterable[int] | None = None
) -> list[tuple[int, ...]]:
    """Every choice of the first k slots of each group (``sizes``: the totals allowed), in
    ascending slot order; the choices come in the order of the counts taken from each
    group, the first group's count the most significant (the empty choice first)."""
    total = sum(len(g) for g in groups)
    allowed = set(range(total + 1)) if sizes is None else {n for n in sizes if n <= total}
    if not allowed:
        return []
    low, high = min(allowed), max(allowed)
    # how many cards the groups after each one can still give
    after = [0] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        after[i] = after[i + 1] + len(groups[i])
    # (how many taken, which), pruned to what can still reach an allowed size
    taken: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for i, group in enumerate(groups):
        prefixes = [(k, tuple(group[:k])) for k in range(len(group) + 1)]
        rest = after[i + 1]
        taken = [
            (n + k, t + p)
            for n, t in taken
            for k, p in prefixes[max(0, low - rest - n) : high - n + 1]
        ]
    return [tuple(sorted(t)) for n, t in taken if n in allowed]


def _bribe(target: str, slots: tuple[int, ...]) -> Bribe:
    """A :class:`Bribe` of slots already in order (ascending, not empty): the listing makes
    thousands of them a game, and checking each again is what costs."""
    move = object.__new__(Bribe)
    move.__dict__.update(target=target, slots=slots)
    return move


def _discard(slots: tuple[int, ...]) -> Discard:
    """A :class:`Discard` of slots already in ascending order (as :func:`_bribe`)."""
    move = object.__new__(Discard)
    move.__dict__["slots"] = slots
    return move


def _values(groups: list[list[int]], weights: list[int]) -> list[int]:
    """The value of each choice of the first k slots of each group, in the order of
    :func:`_multisets` (every size), each card of a group worth its group's weight."""
    values = [0]
    for group, weight in zip(groups, weights, strict=True):
        steps = [k * weight for k in range(len(group) + 1)]
        values = [v + d for v in values for d in steps]
    return values


def offers(state: DoomState, seat: int, hand: dict[int, str]) -> list[Bribe]:
    """Every offer ``seat`` can make that reaches its target, one per choice of sorts."""
    cakes = {s: n for s, n in hand.items() if is_cake_slot(s)}
    if not cakes:
        return []
    out: list[Bribe] = []
    alien = state.aliens[seat]
    groups = list(_sorts(cakes).values())
    size = 1
    for g in groups:
        size *= len(g) + 1
    # the slots of each choice by sort, made when a target first takes it
    by_sort: dict[int, tuple[int, ...]] = {}
    for target, need in targets(state, seat):
        continent = target_continent(state, target)
        extra = freya_bonus(state, seat, target)
        # the cards of a group are of one sort, so they are worth alike
        weights = [units(cakes[g[0]], continent, alien) for g in groups]
        if sum(w * len(g) for w, g in zip(weights, groups, strict=True)) + extra < need:
            continue
        if size > MAX_OFFERS:
            by_value: dict[int, list[int]] = {}
            worth = {s: w for g, w in zip(groups, weights, strict=True) for s in g}
            for s in sorted(cakes):
                by_value.setdefault(worth[s], []).append(s)
            chosen = list(by_value.values())
            weights = [worth[g[0]] for g in chosen]
            made: dict[int, tuple[int, ...]] = {}
        else:
            chosen, made = groups, by_sort
        values = _values(chosen, weights)
        least = need - extra
        # the first choice is the empty one
        for i in range(1, len(values)):
            if values[i] >= least:
                slots = made.get(i)
                if slots is None:
                    slots = made[i] = _choice(chosen, i)
                out.append(_bribe(target, slots))
    return out


def _choice(groups: list[list[int]], index: int) -> tuple[int, ...]:
    """The choice at ``index`` in the order of :func:`_values` (the counts taken from each
    group as the digits of ``index``, the first group's the most significant)."""
    taken: list[int] = []
    for group in reversed(groups):
        index, k = divmod(index, len(group) + 1)
        taken.extend(group[:k])
    taken.sort()
    return tuple(taken)


def removals(state: DoomState, due: int) -> list[Remove]:
    """Every way to remove exactly ``due`` value from the offer, one per choice of sorts."""
    offer = state.offer
    assert offer is not None
    freya_left = offer.freya - offer.freya_removed
    classes: dict[tuple[str, int], list[int]] = {}
    for slot in offer.slots:
        left = offer.left(slot)
        if left > 0:
            name = state.knowledge.cards[slot]
            sort = card(name).sort if name is not None else str(slot)
            classes.setdefault((sort, left), []).append(slot)
    per_class: list[list[tuple[int, ...]]] = []
    for (_sort, left), members in classes.items():
        options: list[tuple[int, ...]] = []
        n = len(members)
        for twos in range(n + 1 if left == 2 else 1):
            for ones in range(n - twos + 1):
                picked = [s for s in members[:twos] for _ in range(2)]
                picked += members[twos : twos + ones]
                if len(picked) <= due:
                    options.append(tuple(picked))
        per_class.append(options)
    out: list[Remove] = []

    def walk(i: int, taken: tuple[int, ...]) -> None:
        if len(taken) > due:
            return
        if i == len(per_class):
            chosen = tuple(sorted(taken))
            for freya in (0, 1) if freya_left else (0,):
                if removal_error(offer, chosen, freya, due) is None:
                    out.append(Remove(chosen, freya))
            return
        for part in per_class[i]:
            walk(i + 1, taken + part)

    walk(0, ())
    return out


def draws(count: int, cakes: int, mischief: int) -> list[Draw]:
    """Every split of ``count`` cards between piles that can give ``cakes`` and
    ``mischief``."""
    n = min(count, cakes + mischief)
    return [Draw(c, n - c) for c in range(max(0, n - mischief), min(n, cakes) + 1)]


def discards(hand: dict[int, str], slots: tuple[int, ...], count: int, upto: bool) -> list[Discard]:
    groups: dict[str, list[int]] = {}
    for slot in sorted(slots):
        key = card(hand[slot]).sort if slot in hand else f"slot-{slot}"
        groups.setdefault(key, []).append(slot)
    sizes = range(count + 1) if upto else (count,)
    return [_discard(s) for s in _multisets(list(groups.values()), sizes)]


def legal_actions(state: DoomState, seat: int) -> list[Action]:
    """Every move ``seat`` may make now, from what ``seat`` knows."""
    task = state.task
    if task is None or seat not in state.to_act:
        return []
    hand = known_hand(state, seat)
    lowest: dict[str, int] = {}
    for slot in sorted(hand, reverse=True):
        lowest[card(hand[slot]).sort] = slot
    phase = task.phase
    out: list[Action] = []
    if phase is Phase.MIX:
        return [
            ChooseMix(c)
            for c in range(OPENING + 1)
            if c <= len(state.cake_pile) and OPENING - c <= len(state.mischief_pile)
        ]
    if phase is Phase.PLAY:
        if task.count >= TURN_PLAYS:  # no more grabs, steals or discards this turn
            return [*offers(state, seat, hand), NoBribe()]
        if TRACTOR_BEAM in lowest:
            for pile in PILES:
                if state.cake_discard if pile == "cake" else state.mischief_discard:
                    out.append(Grab(lowest[TRACTOR_BEAM], pile))
        if ABDUCTION in lowest:
            for victim in range(state.players):
                if victim != seat and state.hands[victim]:
                    out.append(Abduct(lowest[ABDUCTION], victim))
        out.extend(offers(state, seat, hand))
        out.append(NoBribe())
        # a discard any time of the turn: one card a move, one per sort (it may be repeated)
        out.extend(discards(hand, state.hands[seat], 1, False))
        return out
    if phase is Phase.SABOTAGE:
        out.append(NoSabotage())
        out.extend(Sabotage(lowest[kind], kind) for kind in SABOTAGES if kind in lowest)
        return out
    if phase is Phase.FORCE_FIELD:
        out.append(NoForceField())
        if FORCE_FIELD in lowest:
            out.append(ForceField(lowest[FORCE_FIELD]))
        return out
    if phase is Phase.REMOVE:
        return list(removals(state, _due(state, task.among[0])))
    if phase is Phase.PICK:
        return [PickCard(s) for s in task.among]
    if phase is Phase.DRAW:
        return list(draws(task.count, state.available("cake"), state.available("mischief")))
    if phase is Phase.DISCARD:
        if task.upto:
            return list(discards(hand, state.hands[seat], task.count, True))
        # down to a count, one card at a time (the step repeats until it is done)
        return list(discards(hand, state.hands[seat], 1, False))
    if phase is Phase.ROB:
        return [Rob(v) for v in task.among]
    if phase is Phase.PEEK:
        return [Peek(v) for v in task.among]
    return []


def _due(state: DoomState, index: int) -> int:
    offer = state.offer
    assert offer is not None and offer.value is not None
    return amount(offer.sabotages[index].kind, offer.value)


#: the moves each step allows
_MOVES: dict[Phase, tuple[type[Action], ...]] = {
    Phase.MIX: (ChooseMix,),
    Phase.PLAY: (Grab, Abduct, Bribe, NoBribe, Discard),
    Phase.SABOTAGE: (Sabotage, NoSabotage),
    Phase.FORCE_FIELD: (ForceField, NoForceField),
    Phase.REMOVE: (Remove,),
    Phase.PICK: (PickCard,),
    Phase.DRAW: (Draw,),
    Phase.DISCARD: (Discard,),
    Phase.ROB: (Rob,),
    Phase.PEEK: (Peek,),
}


def check(state: DoomState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may make ``action`` now, as far as
    public facts tell."""

    def illegal(reason: str) -> IllegalActionError:
        return IllegalActionError(seat, action, reason)

    task = state.task
    if task is None or seat not in state.to_act:
        raise illegal(_("it is not this seat's move"))
    hand = state.hands[seat]

    def mischief_in_hand(slot: int) -> None:
        if slot not in hand:
            raise illegal(_("play a card from your hand"))
        if is_cake_slot(slot):
            raise illegal(_("that is a cake card, not a mischief card"))

    phase = task.phase
    if not isinstance(action, _MOVES.get(phase, ())):
        raise illegal(_("not a move of this step ({phase})").format(phase=phase.value))
    turn_play = isinstance(action, Grab | Abduct | Discard)  # what TURN_PLAYS counts
    if phase is Phase.PLAY and turn_play and task.count >= TURN_PLAYS:
        raise illegal(
            _("no more grab, steal or discard moves this turn ({n} at most)").format(n=TURN_PLAYS)
        )
    if isinstance(action, ChooseMix):
        if action.cakes > len(state.cake_pile) or action.mischief > len(state.mischief_pile):
            raise illegal(_("the piles do not hold that many cards"))
    elif isinstance(action, Grab):
        mischief_in_hand(action.slot)
        if not (state.cake_discard if action.pile == "cake" else state.mischief_discard):
            raise illegal(_("that discard pile is empty"))
    elif isinstance(action, Abduct):
        mischief_in_hand(action.slot)
        if not 0 <= action.victim < state.players or action.victim == seat:
            raise illegal(_("abduct from another player"))
        if not state.hands[action.victim]:
            raise illegal(_("that player holds no card"))
    elif isinstance(action, Bribe):
        if requirement(state, seat, action.target) is None:
            raise illegal(_("you cannot bribe that target now"))
        if any(s not in hand for s in action.slots):
            raise illegal(_("offer cards from your hand"))
        if any(not is_cake_slot(s) for s in action.slots):
            raise illegal(_("offer cake cards only"))
    elif isinstance(action, (Sabotage, ForceField)):
        mischief_in_hand(action.slot)
    elif isinstance(action, Remove):
        offer = state.offer
        if offer is None or not offer.opened:
            raise illegal(_("the offer is not face up"))
        reason = removal_error(offer, action.slots, action.freya, _due(state, task.among[0]))
        if reason is not None:
            raise illegal(reason)
    elif isinstance(action, Draw):
        n = min(task.count, state.available("cake") + state.available("mischief"))
        if action.count != n:
            raise illegal(ngettext("draw {n} card", "draw {n} cards", n).format(n=n))
        if action.cakes > state.available("cake") or action.mischief > state.available("mischief"):
            raise illegal(_("that pile cannot give so many cards"))
    elif isinstance(action, Discard):
        if any(s not in hand for s in action.slots):
            raise illegal(_("discard cards from your hand"))
        count = len(action.slots)
        if phase is Phase.PLAY:
            if count == 0:
                raise illegal(_("discard at least one card"))
        elif count > task.count or (not task.upto and count == 0):
            raise illegal(
                ngettext("discard {n} card", "discard {n} cards", task.count).format(n=task.count)
            )
    elif isinstance(action, PickCard):
        if action.slot not in task.among:
            raise illegal(_("take one of the cards offered"))
    elif isinstance(action, (Rob, Peek)) and action.victim not in task.among:
        raise illegal(_("choose another player who holds cards"))

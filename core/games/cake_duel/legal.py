"""Who may act, and which actions are legal — from public facts and the seat's own cards.

``check`` validates another seat's action with public information only (slot ids, counts,
names); ``legal_actions`` lists a seat's choices from what that seat knows.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations

from cakeparty.core.actions import Action
from cakeparty.core.errors import IllegalActionError
from cakeparty.core.games.cake_duel.actions import (
    AGREE,
    CHALLENGE,
    KEEP_HIDDEN,
    NO_ACTION,
    NO_TRADE,
    PASS,
    REFUSE,
    Agree,
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
from cakeparty.core.games.cake_duel.cards import CARDS, SIR_WOLFY
from cakeparty.core.games.cake_duel.claims import (
    Blocking,
    attack_names,
    attack_problem,
    block_names,
    block_problem,
    claim_cap,
    max_block,
)
from cakeparty.core.games.cake_duel.state import DuelOptions, DuelState, Phase, Play
from cakeparty.core.i18n import _, ngettext

#: The action kinds each decision phase accepts.
ACCEPTS: dict[Phase, tuple[type[Action], ...]] = {
    Phase.LEAD: (Lead,),
    Phase.ATTACK: (Claim, Pass),
    Phase.RESPOND: (Challenge, Block, NoAction),
    Phase.REPLY: (Challenge, NoAction),
    Phase.PRIEST: (Take,),
    Phase.SUMMON: (Summon,),
    Phase.DECLARE: (Declare,),
    Phase.TRADE: (Trade, NoTrade),
    Phase.TRADE_ANSWER: (Agree, Refuse),
    Phase.WOLFY: (Taunt, KeepHidden),
}


def to_act(state: DuelState) -> tuple[int, ...]:
    """The seats that may act now (none while a request is pending)."""
    if state.queue:
        return ()
    phase = state.phase
    if phase is Phase.LEAD:
        assert state.starter is not None
        return (state.starter,)  # the lower seat of the starting side decides for it
    if phase in (Phase.ATTACK, Phase.REPLY, Phase.SUMMON, Phase.TRADE):
        assert state.attacker is not None
        return (state.attacker,)
    if phase in (Phase.RESPOND, Phase.PRIEST, Phase.DECLARE):
        assert state.target is not None
        return (state.target,)
    if phase is Phase.WOLFY:
        return state.wolfy_seats[:1]
    if phase is Phase.TRADE_ANSWER:
        assert state.attacker is not None
        mate = state.teammate(state.attacker)
        assert mate is not None
        return (mate,)
    return ()


def _slots_in(slots: tuple[int, ...], where: tuple[int, ...]) -> bool:
    return len(set(slots)) == len(slots) and set(slots) <= set(where)


def _opponents(state: DuelState, seat: int) -> tuple[int, ...]:
    return tuple(s for s in range(state.players) if state.side(s) != state.side(seat))


def _deck_empty_trades(state: DuelState) -> bool:
    return not state.deck


def check(state: DuelState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may make ``action`` now."""

    def illegal(reason: str) -> IllegalActionError:
        return IllegalActionError(seat, action, reason)

    if state.phase is Phase.OVER:
        raise illegal(_("the duel is over"))
    if seat not in to_act(state):
        if state.queue:
            raise illegal(_("the game is waiting for cards to be dealt or shown"))
        raise illegal(_("it is not this seat's turn"))
    if not isinstance(action, ACCEPTS.get(state.phase, ())):
        raise illegal(_("not possible now: {phase}").format(phase=state.phase.value))
    hand = state.hands[seat]
    if isinstance(action, Claim):
        if not _slots_in(action.slots, hand):
            raise illegal(_("the cards played must be distinct cards from your hand"))
        problem = attack_problem(action.name, len(action.slots), state.options)
        if problem:
            raise illegal(problem)
        if action.target not in _opponents(state, seat):
            raise illegal(_("seat {target} is not an opponent").format(target=action.target))
    elif isinstance(action, Block):
        assert state.attack is not None
        if not _slots_in(action.slots, hand):
            raise illegal(_("the cards played must be distinct cards from your hand"))
        problem = block_problem(state.attack, action.name, len(action.slots), state.options)
        if problem:
            raise illegal(problem)
    elif isinstance(action, Take):
        assert state.attack is not None
        taken = Blocking.of(state.attack, state.block).taken
        if len(action.slots) != taken or not _slots_in(action.slots, state.attack.slots):
            raise illegal(
                ngettext(
                    "take {n} card of the attack", "take {n} cards of the attack", taken
                ).format(n=taken)
            )
    elif isinstance(action, Summon):
        if action.name not in CARDS:
            raise illegal(_("there is no card called {name}").format(name=action.name))
    elif isinstance(action, Declare):
        if action.count > len(hand):
            raise illegal(
                ngettext(
                    "the hand holds only {n} card", "the hand holds only {n} cards", len(hand)
                ).format(n=len(hand))
            )
    elif isinstance(action, Lead):
        if action.seat not in state.seats_of(state.side(seat)):
            raise illegal(_("seat {lead} is not on your team").format(lead=action.seat))
    elif isinstance(action, Trade):
        _check_trade(state, seat, action, illegal)
    elif isinstance(action, Taunt):
        _check_taunt(state, seat, action, illegal)


Refusal = Callable[[str], IllegalActionError]


def _check_taunt(state: DuelState, seat: int, action: Taunt, illegal: Refusal) -> None:
    if action.slot not in state.tauntable[seat]:
        raise illegal(_("only a card you played, unflipped, in the turn just ended"))
    card = state.knowledge.cards[action.slot]
    if card is not None and state.knowledge.knows(seat, action.slot) and card != SIR_WOLFY:
        raise illegal(_("that card is not Sir Wolfy"))


def played_wolfy(state: DuelState, seat: int) -> int | None:
    """The Sir Wolfy ``seat`` played unflipped this turn, as far as this state knows."""
    for slot in state.tauntable[seat]:
        if state.card_for(seat, slot) == SIR_WOLFY:
            return slot
    return None


def _check_trade(state: DuelState, seat: int, action: Trade, illegal: Refusal) -> None:
    mate = state.teammate(seat)
    assert mate is not None
    if not _slots_in(action.give, state.hands[seat]):
        raise illegal(_("you can only give a card from your hand"))
    if not _slots_in(action.take, state.hands[mate]):
        raise illegal(_("you can only take a card from your teammate's hand"))
    if not (action.give and action.take) and not _deck_empty_trades(state):
        raise illegal(_("only a swap while the deck has cards"))


def _subsets(slots: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for size in range(1, min(most, len(slots)) + 1):
        out.extend(combinations(slots, size))
    return out


# Actions are values, so the choices a hand gives are worked out once and shared: a duel
# meets the same hands again and again (every view of the seat to act, every search
# iteration from one position).


@lru_cache(maxsize=8192)
def _attacks(
    hand: tuple[int, ...], targets: tuple[int, ...], options: DuelOptions
) -> tuple[Action, ...]:
    """Every attack ``hand`` can make on ``targets``, passing first."""
    out: list[Action] = [PASS]
    names = attack_names(options)
    most = max((claim_cap(n, options) for n in names), default=0)
    subsets = _subsets(hand, most)
    for target in targets:
        for name in names:
            cap = claim_cap(name, options)
            out.extend(Claim(s, name, target) for s in subsets if len(s) <= cap)
    return tuple(out)


@lru_cache(maxsize=8192)
def _blocks(
    hand: tuple[int, ...], attack_name: str, count: int, options: DuelOptions
) -> tuple[Action, ...]:
    """Every answer ``hand`` can give to a claim of ``count`` × ``attack_name``."""
    out: list[Action] = [CHALLENGE, NO_ACTION]
    attack = Play(-1, tuple(range(count)), attack_name)
    for name in block_names(attack_name, options):
        out.extend(Block(s, name) for s in _subsets(hand, max_block(attack, name, options)))
    return tuple(out)


def legal_actions(state: DuelState, seat: int) -> list[Action]:
    """Every action ``seat`` may make now, computed from what that seat knows."""
    if seat not in to_act(state) or state.phase is Phase.OVER:
        return []
    return _decisions(state, seat)


def _decisions(state: DuelState, seat: int) -> list[Action]:
    phase = state.phase
    hand = state.hands[seat]
    options = state.options
    if phase is Phase.LEAD:
        return [Lead(s) for s in state.seats_of(state.side(seat))]
    if phase is Phase.ATTACK:
        return list(_attacks(hand, _opponents(state, seat), options))
    if phase is Phase.RESPOND:
        attack = state.attack
        assert attack is not None
        return list(_blocks(hand, attack.name, attack.count, options))
    if phase is Phase.REPLY:
        return [CHALLENGE, NO_ACTION]
    if phase is Phase.PRIEST:
        assert state.attack is not None
        taken = Blocking.of(state.attack, state.block).taken
        return [Take(s) for s in combinations(state.attack.slots, taken)]
    if phase is Phase.SUMMON:
        return [Summon(name) for name in CARDS]
    if phase is Phase.DECLARE:
        named = state.summon_name
        cards = [state.card_for(seat, s) for s in hand]
        if named is not None and all(c is not None for c in cards):
            return [Declare(cards.count(named))]
        return [Declare(n) for n in range(len(hand) + 1)]
    if phase is Phase.TRADE:
        mate = state.teammate(seat)
        assert mate is not None
        mine, theirs = hand, state.hands[mate]
        out: list[Action] = [NO_TRADE]
        out.extend(Trade((g,), (t,)) for g in mine for t in theirs)
        if _deck_empty_trades(state):
            out.extend(Trade((g,), ()) for g in mine)
            out.extend(Trade((), (t,)) for t in theirs)
        return out
    if phase is Phase.TRADE_ANSWER:
        return [AGREE, REFUSE]
    if phase is Phase.WOLFY:
        wolfy = played_wolfy(state, seat)
        if wolfy is None:
            return [KEEP_HIDDEN]
        # the owner's choice in a tournament [printed]; otherwise the reveal is the rule
        return [Taunt(wolfy), KEEP_HIDDEN] if state.options.tournament else [Taunt(wolfy)]
    return []

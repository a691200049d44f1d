"""Stack a Cookies Battle game: the hands dealt, the piece and marker piles, the first
player; and drive it by card, piece and marker names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cakeparty.core import Match, new_match
from cakeparty.core.actions import Action
from cakeparty.core.games.cookies_battle.actions import NoMarker, PassOn, Play
from cakeparty.core.games.cookies_battle.cards import DEAL, cards, markers, pieces
from cakeparty.core.games.cookies_battle.state import Phase


def _fill(top: Sequence[str], every: Sequence[str]) -> list[str]:
    if len(set(top)) != len(top) or not set(top) <= set(every):
        raise ValueError(f"not distinct names of this box: {top}")
    return [*top, *(c for c in every if c not in top)]


def card_order(
    players: int, hands: Mapping[int, Sequence[str]], variant: str = "standard"
) -> list[str]:
    """A whole card order dealing ``hands`` (each topped up with cards no hand names, in
    box order), then the cards left out."""
    size = DEAL[players]
    every = cards(variant)
    named = [c for hand in hands.values() for c in hand]
    spare = [c for c in every if c not in named]
    order: list[str] = []
    for seat in range(players):
        hand = list(hands.get(seat, ()))
        while len(hand) < size:
            hand.append(spare.pop(0))
        order.extend(hand)
    return _fill(order, every)


def stacked(
    players: int = 3,
    hands: Mapping[int, Sequence[str]] | None = None,
    *,
    piece_pile: Sequence[str] = (),
    marker_pile: Sequence[str] = (),
    first: int = 0,
    variant: str | None = None,
    randoms: Sequence[int] = (),
    later: Sequence[Sequence[str] | None] = (),
    seed: int = 0,
) -> Match:
    """A game dealing ``hands`` in round 1, with the piles in the orders given (top first)
    and ``first`` leading the first trick. ``randoms`` follow the first player's draw;
    ``later``: the card orders of later rounds (``None``: random)."""
    duel = players == 2
    box_variant = "duel" if duel else (variant or "standard")
    orders: list[Sequence[str] | None] = [_fill(piece_pile, pieces())]
    if not duel:
        orders.append(_fill(marker_pile, markers()))
    orders.append(card_order(players, hands or {}, box_variant))
    orders.extend(later)
    options = {} if variant is None else {"variant": variant}
    return new_match(
        "cookies-battle",
        players=players,
        seed=seed,
        options=options,
        orders=orders,
        randoms=[first, *randoms],
    )


def slot(m: Match, name: str) -> int:
    """The slot holding ``name`` now."""
    return next(s for s in range(len(m.state.box)) if m.dealer.card(s) == name)


def names(m: Match, slots: Sequence[int]) -> list[str]:
    return [m.dealer.card(s) for s in slots]


def hand(m: Match, seat: int) -> list[str]:
    return sorted(names(m, m.state.hands[seat]))


def held_pieces(m: Match, seat: int) -> list[str]:
    return sorted(names(m, m.state.pieces[seat]))


def held_markers(m: Match, seat: int) -> list[str]:
    return sorted(names(m, m.state.markers[seat]))


def pass_cards(m: Match, passes: Mapping[int, tuple[str, str]] | None = None) -> None:
    """Seal every seat's pass: ``passes[seat]`` names (left, right); a seat not named
    passes the last two cards of its hand in slot order."""
    assert m.state.phase is Phase.PASS
    for seat in range(m.state.players):
        if passes and seat in passes:
            left, right = passes[seat]
            m.apply(PassOn(slot(m, left), slot(m, right)), seat)
        else:
            held = m.state.hands[seat]
            m.apply(PassOn(held[-2], held[-1]), seat)


def play(m: Match, seat: int, name: str) -> None:
    """``seat`` plays the card ``name`` (it must be that seat's turn to play)."""
    assert m.state.phase is Phase.PLAY and m.to_act == (seat,), (m.state.phase, m.to_act)
    m.apply(Play(slot(m, name)), seat)


def let_pass(m: Match) -> None:
    """Every marker window and Defense window asking now is let pass."""
    while m.state.phase in (Phase.MARKER, Phase.DEFENSE):
        m.apply(NoMarker(), m.to_act[0])


def play_trick(m: Match, cards_in_order: Sequence[str]) -> None:
    """Play a whole trick by card names, from the seat to play; windows let pass."""
    for name in cards_in_order:
        let_pass(m)
        play(m, m.state.to_play, name)
    let_pass(m)


def act(m: Match, seat: int, action: Action) -> None:
    assert seat in m.to_act, (seat, m.to_act, m.state.phase)
    m.apply(action, seat)

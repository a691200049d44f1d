"""Stack a duel: choose the specials, every hand and the draw pile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cakeparty.core import Match, new_match
from cakeparty.core.games.cake_duel.cards import CORE_SET, SIR_WOLFY, SPECIAL_SET


def stacked(
    hands: Sequence[Sequence[str]],
    deck: Sequence[str] | None = None,
    *,
    specials: Sequence[str] = (),
    starter: int = 0,
    options: dict[str, bool] | None = None,
    later: Sequence[Sequence[str] | None] = (),
) -> Match:
    """A duel whose first bout deals ``hands`` (seat order) and then ``deck`` (top first).

    ``specials`` are the specials shuffled in (the full game when given). ``starter`` is
    the side that attacks first. The rest of the cards go to the bottom of the deck in a
    fixed order unless ``deck`` lists them all. ``later``: orders of later shuffles.
    """
    players = len(hands)
    opts = {"full": bool(specials), **(options or {})}
    sets = 2 if players == 4 else 1
    core = list(CORE_SET) * sets
    if players == 4:
        core.remove(SIR_WOLFY)
    pool = Counter(core) + Counter(specials)
    top = [c for hand in hands for c in hand] + list(deck or [])
    rest = pool - Counter(top)
    if Counter(top) - pool:
        raise ValueError(f"not in this duel's deck: {Counter(top) - pool}")
    order = top + sorted(rest.elements())
    orders: list[Sequence[str] | None] = []
    if opts["full"]:
        box_specials = Counter(list(SPECIAL_SET) * sets)
        others = sorted((box_specials - Counter(specials)).elements())
        orders.append([*specials, *others])
    orders.append(order)
    orders.extend(later)
    return new_match(
        "cake-duel", players=players, seed=0, options=opts, orders=orders, randoms=[starter]
    )


def hand_slots(m: Match, seat: int, *names: str) -> tuple[int, ...]:
    """Slots in ``seat``'s hand holding ``names`` (one slot per name, in order)."""
    free = list(m.state.hands[seat])
    out = []
    for name in names:
        slot = next(s for s in free if m.dealer.card(s) == name)
        free.remove(slot)
        out.append(slot)
    return tuple(out)

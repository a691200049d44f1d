"""How the normal bot judges a game of Cake of Doom, from its own view only.

Every figure here is a heuristic over public facts (regions, discard piles, hand sizes and
how many of each hand are cake cards, aliens, the offer once it is face up) and the seat's
own cards; nothing reads a card the seat may not know.

* **Cards.** :meth:`Mind.keep` is what a card is worth in hand: a cake card more when it is
  a specialty that earns its +1 somewhere still to win (DOOM's favourite continent most),
  Force Fields most of the mischief cards, then the sabotages by their bite. Cards are
  scarce early (one card drawn in round 1) and plentiful late, so a card's worth falls
  round by round.
* **Sabotage to expect.** The sabotage cards nobody has seen (not in this hand, not on the
  discard pile, not on the table) are in the mischief pile or in the other hands; a seat
  holding ``m`` mischief cards holds one of them with a chance that follows from their
  share. Each seat asked sabotages with a fixed readiness when it can; Krell may add a
  second. :func:`survival` turns this into the chance that an offer keeps enough value,
  the briber cancelling the biggest sabotages with the Force Fields it will spend (a
  Meteor Shower and the Cake Monster count as 3 value each).
* **Regions.** A region is worth more late (fewer turns left to lose it), more when it is
  taken from a rival (most from one DOOM is open to), when it opens DOOM, and in the
  advanced game by its control bonus and when it makes a pair of one continent.
* **Threat.** A player is as dangerous as the regions it holds, more so once it holds the
  two that open DOOM; the leader is the most dangerous other player.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from itertools import product

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_of_doom.cards import (
    ABDUCTION,
    CAKE_MONSTER,
    DOOM,
    DOOM_MINIMUM,
    DOOM_REGIONS,
    FORCE_FIELD,
    FREYA,
    KRELL,
    LASER_FORK,
    METEOR_SHOWER,
    MISCHIEF,
    OZZY,
    REGIONS,
    ROUNDS,
    SABOTAGES,
    SPACE_TEDDY,
    TRACTOR_BEAM,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.view import DoomView, RegionView

#: How readily another seat sabotages a bribe when it holds a sabotage card.
READINESS = 0.7
#: How many sabotages :func:`survival` follows at most (the rest are too unlikely).
MAX_SABOTAGES = 6

#: What a mischief card is worth in hand, before the round's scarcity.
MISCHIEF_KEEP: dict[str, float] = {
    FORCE_FIELD: 0.6,
    METEOR_SHOWER: 0.45,
    CAKE_MONSTER: 0.45,
    LASER_FORK: 0.35,
    SPACE_TEDDY: 0.25,
    ABDUCTION: 0.3,
    TRACTOR_BEAM: 0.12,
}
#: A sponge's worth in hand, before the round's scarcity.
CAKE_KEEP = 0.12


def scarcity(round_: int) -> float:
    """Cards are worth more early (few are drawn) than late (many are)."""
    return max(0.6, 1.6 - 0.1 * max(1, round_))


def sabotage_amount(kind: str, value: int) -> int:
    """What a sabotage of ``kind`` takes from an offer worth ``value``."""
    fixed = SABOTAGES[kind]
    return min(value // 2 if fixed is None else fixed, value)


@lru_cache(maxsize=4096)
def _left_after(count: int, shields: int, weights: tuple[float, float, float]) -> tuple[float, ...]:
    """For ``count`` sabotages of 1, 2 or 3 value drawn with ``weights`` (Space Teddies,
    Laser Forks, Meteor Showers and the Cake Monster unseen), of which the
    ``shields`` biggest are cancelled: the chance that the rest remove exactly k value."""
    total = sum(weights)
    probs = [w / total for w in weights] if total else [1.0, 0.0, 0.0]
    out = [0.0] * (3 * count + 1)
    for combo in product((1, 2, 3), repeat=count):
        p = 1.0
        for a in combo:
            p *= probs[a - 1]
        if p == 0.0:
            continue
        kept = sorted(combo)[: max(0, count - shields)]
        out[sum(kept)] += p
    return tuple(out)


def count_chances(chances: list[float]) -> list[float]:
    """The chance of exactly k successes among independent events (k = 0, 1, …)."""
    dist = [1.0]
    for q in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, p in enumerate(dist):
            nxt[k] += p * (1 - q)
            nxt[k + 1] += p * q
        dist = nxt
    return dist


def survival(
    margin: int, chances: list[float], shields: int, weights: tuple[float, float, float]
) -> float:
    """The chance that sabotages (one per entry of ``chances``, each played with that
    chance) remove no more than ``margin`` value once the ``shields`` biggest are
    cancelled: the chance that an offer ``margin`` above its need still succeeds."""
    if margin < 0:
        return 0.0
    ok = 0.0
    for pk, left in _outcomes(tuple(chances), shields, weights):
        ok += pk * sum(left[: margin + 1])
    return min(1.0, ok)


@lru_cache(maxsize=4096)
def _outcomes(
    chances: tuple[float, ...], shields: int, weights: tuple[float, float, float]
) -> tuple[tuple[float, tuple[float, ...]], ...]:
    """For :func:`survival`, which asks it once per margin: each number of sabotages that
    may happen, with its chance and what the rest then remove."""
    out = []
    for k, pk in enumerate(count_chances(list(chances))):
        if pk == 0.0:
            continue
        k = min(k, MAX_SABOTAGES)
        out.append((pk, _left_after(k, min(shields, k), weights)))
    return tuple(out)


class Mind:
    """What the normal bot works from: its view, its cards by name, what is unseen."""

    def __init__(self, view: DoomView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.alien = view.aliens[self.seat]
        self.players = view.players
        self.scarcity = scarcity(view.round)
        self.names: dict[int, str] = {}
        for slot in view.hand:
            name = view.card(slot)
            assert name is not None, "a seat knows the cards in its hand"
            self.names[slot] = name
        self.mine = view.regions_of(self.seat)
        self._unseen()

    @cached_property
    def legal_set(self) -> frozenset[Action]:
        """The legal moves, to look one up (made when first asked: most choices never do)."""
        return frozenset(self.view.legal)

    # -- what is not seen ---------------------------------------------------------------

    def _unseen(self) -> None:
        """Count the mischief cards of each sort this seat has not seen anywhere."""
        seen: dict[str, int] = {}
        slots = [*self.view.hand, *self.view.mischief_discard]
        offer = self.view.offer
        if offer is not None:
            for play in offer.sabotages:
                slots.append(play.slot)
                if play.blocked_by is not None:
                    slots.append(play.blocked_by)
        for slot in slots:
            name = self.view.card(slot)
            if name is not None and not is_cake_slot(slot):
                sort = card(name).sort
                seen[sort] = seen.get(sort, 0) + 1
        self.unseen = {sort: max(0, n - seen.get(sort, 0)) for sort, n in MISCHIEF.items()}
        self.unseen_total = max(1, sum(self.unseen.values()))
        sab = [self.unseen[k] for k in (SPACE_TEDDY, LASER_FORK)]
        heavy = self.unseen[METEOR_SHOWER] + self.unseen[CAKE_MONSTER]
        self.weights = (float(sab[0]), float(sab[1]), float(heavy))
        self.sabotage_share = sum(self.unseen[k] for k in SABOTAGES) / self.unseen_total
        self.shield_share = self.unseen[FORCE_FIELD] / self.unseen_total

    def mischief_of(self, seat: int) -> int:
        return self.view.hand_sizes[seat] - self.view.hand_cakes[seat]

    def holds_sabotage(self, seat: int) -> float:
        """The chance ``seat`` holds a sabotage card, from its mischief count alone."""
        return 1.0 - (1.0 - self.sabotage_share) ** self.mischief_of(seat)

    def holds_shield(self, seat: int) -> float:
        return 1.0 - (1.0 - self.shield_share) ** self.mischief_of(seat)

    def sabotage_chances(self, seats: tuple[int, ...] | list[int]) -> list[float]:
        """One chance per sabotage the ``seats`` may play (Krell: a second one)."""
        out = []
        for seat in seats:
            q = READINESS * self.holds_sabotage(seat)
            out.append(q)
            if self.view.aliens[seat] == KRELL and self.mischief_of(seat) > 1:
                out.append(q * 0.5)
        return out

    def others(self, seat: int) -> list[int]:
        """The other seats in the order they are asked about ``seat``'s bribe."""
        return [(seat + i) % self.players for i in range(1, self.players)]

    # -- players ------------------------------------------------------------------------

    def regions(self, seat: int) -> int:
        return len(self.view.regions_of(seat))

    def threat(self, seat: int) -> float:
        """How close ``seat`` is to winning: regions, DOOM within reach, cards in hand."""
        held = self.regions(seat)
        return held + (0.7 if held >= DOOM_REGIONS else 0.0) + 0.04 * self.view.hand_sizes[seat]

    def leader(self) -> int:
        """The most dangerous other player (the lowest seat among equals)."""
        return max(self.others(self.seat), key=lambda s: (self.threat(s), -s))

    # -- cards --------------------------------------------------------------------------

    def continent_of(self, target: str) -> str | None:
        return self.view.doom.favourite if target == DOOM else REGIONS[target].continent

    def units(self, name: str, target: str, seat: int | None = None) -> int:
        """What the cake card ``name`` is worth on ``target`` for ``seat`` (this seat)."""
        info = card(name)
        if not info.cake:
            return 0
        alien = self.view.aliens[self.seat if seat is None else seat]
        bonus = info.specialty and (alien == OZZY or info.continent == self.continent_of(target))
        return 2 if bonus else 1

    def open_continents(self) -> set[str]:
        """Continents of the regions this seat could still win."""
        return {r.continent for r in self.view.regions if r.holder != self.seat}

    def keep(self, name: str) -> float:
        """What a card is worth in this hand (the higher, the more it is kept)."""
        info = card(name)
        if not info.cake:
            return MISCHIEF_KEEP[info.sort] * self.scarcity
        worth = CAKE_KEEP
        if info.specialty:
            if self.alien == OZZY:
                worth += 0.1
            if info.continent == self.view.doom.favourite:
                worth += 0.12 + (0.1 if self.mine else 0.0)
            elif info.continent in self.open_continents():
                worth += 0.05
        return worth * self.scarcity

    def cakes(self) -> list[int]:
        return [s for s in self.view.hand if is_cake_slot(s)]

    def shields(self) -> list[int]:
        return [s for s, n in self.names.items() if card(n).sort == FORCE_FIELD]

    # -- targets ------------------------------------------------------------------------

    def region(self, name: str) -> RegionView | None:
        return next((r for r in self.view.regions if r.name == name), None)

    def need(self, target: str, seat: int | None = None) -> int | None:
        """What ``seat``'s offer for ``target`` must reach, or ``None`` if it may not."""
        seat = self.seat if seat is None else seat
        if target == DOOM:
            return DOOM_MINIMUM if self.regions(seat) >= DOOM_REGIONS else None
        held = self.region(target)
        if held is None or held.holder == seat:
            return None
        return held.minimum if held.holder is None else held.value + 1

    def freya(self, target: str, seat: int | None = None) -> int:
        seat = self.seat if seat is None else seat
        if self.view.aliens[seat] != FREYA or target == DOOM:
            return 0
        held = self.region(target)
        return 1 if held is not None and held.holder is None else 0

    def protected(self, seat: int) -> bool:
        """Advanced: a seat holding two regions of one continent cannot be sabotaged."""
        if not self.view.options.advanced:
            return False
        continents = [r.continent for r in self.view.regions_of(seat)]
        return any(continents.count(c) >= 2 for c in set(continents))

    def late(self) -> float:
        """How far the game has gone, 0 (round 1) to 1 (round 10)."""
        return (self.view.round - 1) / (ROUNDS - 1)

    def gain(self, target: str, seat: int | None = None) -> float:
        """What winning ``target`` is worth to ``seat`` (this seat), in regions."""
        seat = self.seat if seat is None else seat
        if target == DOOM:
            return DOOM_GAIN
        held = self.region(target)
        assert held is not None
        owned = self.regions(seat)
        worth = 0.7 + 0.3 * self.late()  # a region won late is more likely kept
        if held.holder is not None:
            worth += 0.5 + (0.4 if self.regions(held.holder) >= DOOM_REGIONS else 0.0)
        if owned == DOOM_REGIONS - 1:
            worth += 0.5  # DOOM opens
        if self.view.options.advanced:
            worth += BONUS_WORTH[target]
            if any(r.continent == held.continent for r in self.view.regions_of(seat)):
                worth += 0.4  # two of a continent: no more sabotage
        return worth


#: What winning DOOM is worth against a region: the game.
DOOM_GAIN = 8.0

#: Advanced: what each region's control bonus is worth, in regions (a card gained or
#: taken from a rival is worth most; a look or a swap of cards less).
BONUS_WORTH: dict[str, float] = {
    "north-america": 0.3,  # 2 cards of any mix
    "south-america": 0.15,
    "western-europe": 0.15,
    "eastern-europe": 0.2,
    "east-asia": 0.3,  # a card taken from the leader
    "south-asia": 0.15,
    "middle-east": 0.3,  # a look and the best cake card
    "north-africa": 0.1,
    "west-africa": 0.15,
    "southern-africa": 0.35,  # every other player loses a card
    "australia": 0.25,  # the best mischief card of the discard pile
    "pacific-islands": 0.15,
    "arctic": 0.25,
    "antarctica": 0.25,
}

"""The box of Cake of Doom: 90 cake cards and 40 mischief cards; the 14 regions, DOOM,
the 8 aliens and the 6 continents.

Every card is a slot with a unique name, ``<sort>-<n>``:

- cakes: ``sponge-1`` … ``sponge-45`` (earthly cakes) and three of each specialty,
  ``tiramisu-1`` … ``tiramisu-3``, ``moon-cake-1`` …, ``frozen-yule-log-3``;
- mischief: ``space-teddy-1`` … ``space-teddy-12``, ``laser-fork-1`` … ``laser-fork-4``,
  ``meteor-shower-1`` … ``-3``, ``cake-monster-1``, ``force-field-1`` … ``-5``,
  ``tractor-beam-1`` … ``-5``, ``abduction-1`` … ``-10``.

The box holds the 90 cake cards first (slots 0–89), then the 40 mischief cards (slots
90–129). The two decks have different backs, so whether a slot is a cake or a mischief
card is public; which cake or which mischief is hidden until shown.

Regions, DOOM, the aliens and the continents are not cards (no slots): they are named
``north-america`` …, ``doom``, ``freya`` …, ``europe`` ….
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cakeparty.core.i18n import N_

# -- continents ------------------------------------------------------------------------

CONTINENTS = ("europe", "asia", "africa", "americas", "oceania", "poles")
CONTINENT_TITLES: dict[str, str] = {
    "europe": N_("Europe"),
    "asia": N_("Asia"),
    "africa": N_("Africa"),
    "americas": N_("Americas"),
    "oceania": N_("Oceania"),
    "poles": N_("Poles"),
}

# -- cake cards ------------------------------------------------------------------------

SPONGE = "sponge"
SPONGES = 45
COPIES = 3  # of each specialty

#: continent → its specialties, in the order of the rules
SPECIALTIES: dict[str, tuple[str, ...]] = {
    "europe": ("tiramisu", "black-forest-gateau", "victoria-sponge"),
    "asia": ("moon-cake", "starry-fruit-cake", "pandan-chiffon"),
    "africa": ("malva-pudding", "basbousa", "koeksister"),
    "americas": ("tres-leches", "red-velvet"),
    "oceania": ("pavlova", "lamington"),
    "poles": ("baked-alaska", "frozen-yule-log"),
}

# -- mischief cards --------------------------------------------------------------------

SPACE_TEDDY = "space-teddy"
LASER_FORK = "laser-fork"
METEOR_SHOWER = "meteor-shower"
CAKE_MONSTER = "cake-monster"
FORCE_FIELD = "force-field"
TRACTOR_BEAM = "tractor-beam"
ABDUCTION = "abduction"

#: mischief sort → copies in the box
MISCHIEF: dict[str, int] = {
    SPACE_TEDDY: 12,
    LASER_FORK: 4,
    METEOR_SHOWER: 3,
    CAKE_MONSTER: 1,
    FORCE_FIELD: 5,
    TRACTOR_BEAM: 5,
    ABDUCTION: 10,
}
#: a sabotage → the value it removes (the Cake Monster: ``None``, half the current value)
SABOTAGES: dict[str, int | None] = {
    SPACE_TEDDY: 1,
    LASER_FORK: 2,
    METEOR_SHOWER: 3,
    CAKE_MONSTER: None,
}

SORT_TITLES: dict[str, str] = {
    SPONGE: N_("Sponge Cake"),
    "tiramisu": N_("Tiramisu"),
    "black-forest-gateau": N_("Black Forest Gateau"),
    "victoria-sponge": N_("Victoria Sponge"),
    "moon-cake": N_("Moon Cake"),
    "starry-fruit-cake": N_("Starry Fruit Cake"),
    "pandan-chiffon": N_("Pandan Chiffon"),
    "malva-pudding": N_("Malva Pudding"),
    "basbousa": N_("Basbousa"),
    "koeksister": N_("Koeksister"),
    "tres-leches": N_("Tres Leches"),
    "red-velvet": N_("Red Velvet"),
    "pavlova": N_("Pavlova"),
    "lamington": N_("Lamington"),
    "baked-alaska": N_("Baked Alaska"),
    "frozen-yule-log": N_("Frozen Yule Log"),
    SPACE_TEDDY: N_("Space Teddy"),
    LASER_FORK: N_("Laser Fork"),
    METEOR_SHOWER: N_("Meteor Shower"),
    CAKE_MONSTER: N_("Cake Monster"),
    FORCE_FIELD: N_("Force Field"),
    TRACTOR_BEAM: N_("Tractor Beam"),
    ABDUCTION: N_("Abduction"),
}

MISCHIEF_EFFECTS: dict[str, str] = {
    SPACE_TEDDY: N_("sabotage: remove 1 value from the offer"),
    LASER_FORK: N_("sabotage: remove 2 value from the offer"),
    METEOR_SHOWER: N_("sabotage: remove 3 value from the offer"),
    CAKE_MONSTER: N_("sabotage: remove half the current offer value, rounded down"),
    FORCE_FIELD: N_("cancel the sabotage just played against your bribe"),
    TRACTOR_BEAM: N_("on your turn: take the top card of either discard pile"),
    ABDUCTION: N_("on your turn: take a random card from another player's hand"),
}


@dataclass(frozen=True)
class Card:
    """One card: ``kind`` is ``"cake"`` or ``"mischief"``; ``sort`` its name without the
    copy number; ``continent`` the continent of a specialty (``None`` otherwise)."""

    name: str
    kind: str
    sort: str
    continent: str | None

    @property
    def cake(self) -> bool:
        return self.kind == "cake"

    @property
    def specialty(self) -> bool:
        return self.continent is not None

    @property
    def sabotage(self) -> bool:
        return self.sort in SABOTAGES

    @property
    def title(self) -> str:
        """Marked for translation; translate when shown."""
        return SORT_TITLES[self.sort]


def _sorts() -> dict[str, tuple[str, str | None, int]]:
    """sort → (kind, continent, copies)."""
    out: dict[str, tuple[str, str | None, int]] = {SPONGE: ("cake", None, SPONGES)}
    for continent, names in SPECIALTIES.items():
        for name in names:
            out[name] = ("cake", continent, COPIES)
    for name, copies in MISCHIEF.items():
        out[name] = ("mischief", None, copies)
    return out


SORTS = _sorts()


@cache
def card(name: str) -> Card:
    """The card called ``name``; :class:`KeyError` if no card has that name."""
    sort, _, number = name.rpartition("-")
    if sort not in SORTS or not number.isdigit() or number.startswith("0"):
        raise KeyError(name)
    kind, continent, copies = SORTS[sort]
    if not 1 <= int(number) <= copies:
        raise KeyError(name)
    return Card(name, kind, sort, continent)


def is_card(name: str) -> bool:
    try:
        card(name)
    except KeyError:
        return False
    return True


def cake_cards() -> tuple[str, ...]:
    """The 90 cake cards, as they come out of the box."""
    return tuple(
        f"{sort}-{n}"
        for sort, (kind, _, copies) in SORTS.items()
        if kind == "cake"
        for n in range(1, copies + 1)
    )


def mischief_cards() -> tuple[str, ...]:
    """The 40 mischief cards, as they come out of the box."""
    return tuple(f"{sort}-{n}" for sort, copies in MISCHIEF.items() for n in range(1, copies + 1))


@cache
def box() -> tuple[str, ...]:
    """Every slot of a game: the 90 cake cards (slots 0–89), then the 40 mischief cards."""
    return (*cake_cards(), *mischief_cards())


CAKES = 90
MISCHIEFS = 40
CAKE_SLOTS = tuple(range(CAKES))
MISCHIEF_SLOTS = tuple(range(CAKES, CAKES + MISCHIEFS))


def is_cake_slot(slot: int) -> bool:
    """Cake cards lie in slots 0–89 (public: the backs differ)."""
    return 0 <= slot < CAKES


# -- regions and DOOM ------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """A region of Earth: its continent, the minimum bribe and its control bonus
    (the advanced game)."""

    name: str
    title: str  # marked for translation
    continent: str
    minimum: int
    bonus: str  # marked for translation


REGIONS: dict[str, Region] = {
    r.name: r
    for r in (
        Region(
            "north-america",
            N_("North America"),
            "americas",
            4,
            N_("draw 2 cards, any mix of piles"),
        ),
        Region("south-america", N_("South America"), "americas", 3, N_("draw 1 cake card")),
        Region(
            "western-europe",
            N_("Western Europe"),
            "europe",
            3,
            N_("take the top cake from the cake discard pile"),
        ),
        Region(
            "eastern-europe",
            N_("Eastern Europe"),
            "europe",
            3,
            N_("take the top card of the mischief discard pile"),
        ),
        Region(
            "east-asia",
            N_("East Asia"),
            "asia",
            4,
            N_("steal 1 random card from a player of your choice"),
        ),
        Region("south-asia", N_("South Asia"), "asia", 4, N_("draw 1 mischief card")),
        Region(
            "middle-east",
            N_("Middle East"),
            "asia",
            3,
            N_("look at one player's hand and take 1 cake card from it"),
        ),
        Region(
            "north-africa",
            N_("North Africa"),
            "africa",
            3,
            N_("discard any number of cards, then draw as many"),
        ),
        Region(
            "west-africa",
            N_("West Africa"),
            "africa",
            3,
            N_("draw 1 card from the pile of your choice"),
        ),
        Region(
            "southern-africa",
            N_("Southern Africa"),
            "africa",
            3,
            N_("each other player discards 1 card of their choice"),
        ),
        Region(
            "australia",
            N_("Australia"),
            "oceania",
            3,
            N_("take any 1 card from the mischief discard pile"),
        ),
        Region(
            "pacific-islands",
            N_("Pacific Islands"),
            "oceania",
            2,
            N_("draw 2 cake cards, then discard 1 card"),
        ),
        Region(
            "arctic",
            N_("Arctic"),
            "poles",
            2,
            N_("steal 1 random card from the player on your left"),
        ),
        Region(
            "antarctica",
            N_("Antarctica"),
            "poles",
            2,
            N_("steal 1 random card from the player on your right"),
        ),
    )
}
REGION_NAMES = tuple(REGIONS)

DOOM = "doom"
DOOM_TITLE = N_("DOOM")
DOOM_MINIMUM = 7
DOOM_REGIONS = 2  # regions a player must control to bribe DOOM

#: players → regions in play (plus DOOM)
REGIONS_IN_PLAY: dict[int, int] = {3: 5, 4: 7, 5: 9, 6: 11}

# -- aliens ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Alien:
    name: str
    title: str  # marked for translation
    power: str  # marked for translation


FREYA = "freya"
GLORP = "glorp"
ZIX = "zix"
MUMBO = "mumbo"
VASHTI = "vashti"
KRELL = "krell"
PIB = "pib"
OZZY = "ozzy"

ALIENS: dict[str, Alien] = {
    a.name: a
    for a in (
        Alien(
            FREYA,
            N_("Freya"),
            N_(
                "+1 offer value on a bribe of a neutral region; "
                "a saboteur removes her cake cards before this +1"
            ),
        ),
        Alien(GLORP, N_("Glorp"), N_("hand limit 12 instead of 10")),
        Alien(
            ZIX,
            N_("Zix"),
            N_("when you play Abduction, look at the target's hand and choose the card"),
        ),
        Alien(MUMBO, N_("Mumbo"), N_("when your bribe fails, draw 1 card")),
        Alien(
            VASHTI,
            N_("Vashti"),
            N_("when one of your regions is stolen, take 1 of its eaten cake cards into hand"),
        ),
        Alien(KRELL, N_("Krell"), N_("may play up to 2 sabotages on the same bribe")),
        Alien(PIB, N_("Pib"), N_("draw 1 extra card in your draw step")),
        Alien(OZZY, N_("Ozzy"), N_("your specialties get their +1 on every region, DOOM included")),
    )
}
ALIEN_NAMES = tuple(ALIENS)

HAND_LIMIT = 10
GLORP_LIMIT = 12
DEAL_CAKES = 5
DEAL_MISCHIEF = 3
OPENING = DEAL_CAKES + DEAL_MISCHIEF
ROUNDS = 10
#: grab, steal and discard moves one turn allows: any number, by the rules, but two Tractor
#: Beams can take each other back from the discard pile for ever, so a turn stops offering
#: them after this many (a turn that gets something done needs nowhere near as many)
TURN_PLAYS = 40

"""The Cake of Doom bots: they decide from their view alone, always legally, and ``normal``
plays a real strategy — it beats random players, sinks a DOOM bribe, keeps a Force Field
for its own, goes for DOOM when it can and builds offers that survive the sabotage to
expect. Situations are real engine states found in seeded games (a few with public facts
changed: who holds which region)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from cakeparty.core import Match
from cakeparty.core.games.cake_of_doom import (
    Abduct,
    Bribe,
    Discard,
    DoomView,
    Draw,
    ForceField,
    Grab,
    NoForceField,
    NoSabotage,
    Phase,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.bots import normal_bot, random_bot
from cakeparty.core.games.cake_of_doom.cards import (
    DOOM,
    FORCE_FIELD,
    REGION_NAMES,
    card,
    is_cake_slot,
)
from cakeparty.core.games.cake_of_doom.judge import BONUS_WORTH, Mind, sabotage_amount, survival
from cakeparty.core.simulate import simulate

from .helpers import new

Bot = Callable[[Any, random.Random], Any]


def situations(
    players: int,
    seeds: range,
    found: Callable[[DoomView], bool],
    *,
    variant: str = "basic",
    bot: Bot = random_bot,
) -> Iterator[tuple[Match, DoomView]]:
    """Every state of seeded games (``bot`` in every seat) where the seat to act sees a
    view for which ``found`` holds."""
    for seed in seeds:
        match = new(players, seed, variant)
        rng = random.Random(seed)
        while match.outcome is None:
            seat = match.to_act[0]
            view = match.view(seat)
            if found(view):
                yield match, view
            match.apply(bot(view, rng), seat)


def names(view: DoomView) -> list[str]:
    return [card(n).sort for n in (view.card(s) for s in view.hand) if n is not None]


# -- against random players ------------------------------------------------------------


def test_normal_beats_three_random_players_in_most_games() -> None:
    report = simulate(
        "cake-of-doom", games=12, seed=3, bots=["normal", "random", "random", "random"], players=4
    )
    assert report.errors == 0
    assert report.wins["normal"] >= 8  # chance: 3 of 12


def test_normal_beats_random_players_in_the_advanced_blind_game_at_five() -> None:
    report = simulate(
        "cake-of-doom",
        games=8,
        seed=4,
        bots=["normal", "random", "random", "random", "random"],
        players=5,
        options={"advanced": True, "blind": True},
    )
    assert report.errors == 0
    assert report.wins["normal"] >= 5  # chance: 1.6 of 8


# -- legal, deterministic, from the view alone -----------------------------------------


def _hidden_swapped(match: Match, seat: int, rng: random.Random) -> Any:
    """The same state with every identity ``seat`` may not know swapped around (cake cards
    among cake cards, mischief among mischief)."""
    state = match.state
    cards = list(state.knowledge.cards)
    for deck in (True, False):
        hidden = [
            s
            for s, name in enumerate(cards)
            if name is not None and is_cake_slot(s) == deck and not state.knowledge.knows(seat, s)
        ]
        swapped = [cards[s] for s in hidden]
        rng.shuffle(swapped)
        for s, name in zip(hidden, swapped, strict=True):
            cards[s] = name
    return replace(state, knowledge=replace(state.knowledge, cards=tuple(cards)))


@pytest.mark.parametrize(
    ("players", "variant"), [(3, "basic"), (4, "advanced"), (5, "blind"), (6, "advanced-blind")]
)
def test_normal_decides_legally_from_its_view_alone(players: int, variant: str) -> None:
    match = new(players, 11, variant)
    decisions = 0
    while match.outcome is None:
        seat = match.to_act[0]
        view = match.view(seat)
        action = normal_bot(view, random.Random(1))
        assert action in view.legal, (view.phase, action)
        # the random source is never read, and hidden cards change nothing
        assert normal_bot(view, random.Random(2)) == action
        if decisions % 5 == 0:
            other = match.game.view(_hidden_swapped(match, seat, random.Random(decisions)), seat)
            assert normal_bot(other, random.Random(1)) == action
        match.apply(action, seat)
        decisions += 1
    assert decisions > 50


# -- the odds of an offer --------------------------------------------------------------


def test_an_offer_nobody_can_sabotage_succeeds_and_one_below_its_need_fails() -> None:
    teddies = (1.0, 0.0, 0.0)
    assert survival(0, [], 0, teddies) == 1.0
    assert survival(-1, [], 0, teddies) == 0.0
    assert survival(0, [0.0, 0.0], 0, teddies) == 1.0


def test_sure_sabotages_sink_a_thin_offer_unless_shielded() -> None:
    teddies = (1.0, 0.0, 0.0)
    assert survival(0, [1.0], 0, teddies) == 0.0
    assert survival(1, [1.0], 0, teddies) == 1.0
    assert survival(1, [1.0, 1.0], 0, teddies) == 0.0
    assert survival(1, [1.0, 1.0], 1, teddies) == 1.0  # a Force Field cancels one
    # one sabotage in two: a Space Teddy or a Meteor Shower, as likely
    assert survival(1, [0.5], 0, (1.0, 0.0, 1.0)) == pytest.approx(0.75)


def test_a_wider_margin_and_fewer_saboteurs_never_make_an_offer_less_safe() -> None:
    weights = (12.0, 4.0, 4.0)
    for margin in range(6):
        for n in range(1, 5):
            chances = [0.6] * n
            assert survival(margin + 1, chances, 0, weights) >= survival(
                margin, chances, 0, weights
            )
            assert survival(margin, chances[1:], 0, weights) >= survival(
                margin, chances, 0, weights
            )


# -- situations ------------------------------------------------------------------------


def _doom_sabotage_ask(view: DoomView) -> bool:
    offer = view.offer
    if view.phase is not Phase.SABOTAGE or offer is None or offer.target != DOOM:
        return False
    return offer.value is not None and any(isinstance(a, Sabotage) for a in view.legal)


def test_normal_sabotages_a_doom_bribe_its_card_can_sink() -> None:
    seen = 0
    for _match, view in situations(4, range(40), _doom_sabotage_ask, bot=normal_bot):
        offer = view.offer
        assert offer is not None and offer.value is not None
        margin = offer.value - offer.need
        sinking = [
            a
            for a in view.legal
            if isinstance(a, Sabotage) and sabotage_amount(a.kind, offer.value) > margin
        ]
        if margin < 0 or not sinking:
            continue
        choice = normal_bot(view, random.Random(0))
        assert isinstance(choice, Sabotage), (offer, view.legal)
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_normal_lets_a_failing_bribe_be() -> None:
    def failing(view: DoomView) -> bool:
        offer = view.offer
        return (
            view.phase is Phase.SABOTAGE
            and offer is not None
            and offer.value is not None
            and offer.value < offer.need
            and len(view.legal) > 1
        )

    seen = 0
    for _match, view in situations(4, range(10), failing):
        assert normal_bot(view, random.Random(0)) == NoSabotage()
        seen += 1
        if seen == 5:
            break
    assert seen == 5


def _force_field_ask(view: DoomView) -> bool:
    return view.phase is Phase.FORCE_FIELD and any(isinstance(a, ForceField) for a in view.legal)


def test_normal_keeps_its_last_force_field_from_a_region_bribe_once_it_holds_a_region() -> None:
    seen = 0
    for _match, view in situations(4, range(40), _force_field_ask):
        assert view.seat is not None and view.offer is not None
        shields = names(view).count(FORCE_FIELD)
        if view.offer.target == DOOM or shields != 1 or view.round >= 10:
            continue
        if not view.regions_of(view.seat):
            continue
        assert normal_bot(view, random.Random(0)) == NoForceField()
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_normal_shields_a_doom_bribe_the_sabotage_would_sink() -> None:
    seen = 0
    for _match, view in situations(4, range(40), _force_field_ask, bot=normal_bot):
        offer = view.offer
        assert offer is not None
        if offer.target != DOOM or offer.value is None:
            continue
        bite = sabotage_amount(offer.sabotages[-1].kind, offer.value)
        if offer.value - offer.need < 0 or offer.value - bite >= offer.need:
            continue
        assert isinstance(normal_bot(view, random.Random(0)), ForceField)
        seen += 1
        if seen == 2:
            break
    assert seen == 2


def _with_regions(match: Match, seat: int, count: int) -> Match:
    """``match`` with ``seat`` holding ``count`` regions (public facts only)."""
    state = match.state
    regions = list(state.regions)
    given = 0
    for i, held in enumerate(regions):
        if given < count and held.holder != seat:
            regions[i] = replace(held, holder=seat, value=held.minimum)
        if regions[i].holder == seat:
            given += 1
    changed = Match(match.game, replace(state, regions=tuple(regions)), match.dealer)
    return changed


def test_normal_goes_for_doom_with_a_hand_that_reaches_it_well() -> None:
    def strong(view: DoomView) -> bool:
        if view.phase is not Phase.PLAY or view.seat is None:
            return False
        mind = Mind(view)
        return sum(mind.units(mind.names[s], DOOM) for s in mind.cakes()) >= 10

    seen = 0
    for match, view in situations(4, range(30), strong):
        assert view.seat is not None
        doom_ready = _with_regions(match, view.seat, 2)
        choice = normal_bot(doom_ready.view(view.seat), random.Random(0))
        if isinstance(choice, (Abduct, Grab)):
            continue  # grab and steal cards come first
        assert isinstance(choice, Bribe) and choice.target == DOOM, choice
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_normal_abducts_from_the_leader() -> None:
    def abducting(view: DoomView) -> bool:
        return view.phase is Phase.PLAY and any(isinstance(a, Abduct) for a in view.legal)

    seen = 0
    for match, view in situations(4, range(20), abducting):
        assert view.seat is not None
        leader = (view.seat + 2) % 4
        if not match.state.hands[leader]:
            continue
        changed = _with_regions(match, leader, 2)
        choice = normal_bot(changed.view(view.seat), random.Random(0))
        if isinstance(choice, Abduct):
            assert choice.victim == leader
            seen += 1
            if seen == 3:
                break
    assert seen == 3


def test_normal_builds_region_offers_with_room_for_the_sabotage_it_expects() -> None:
    """Without a Force Field, against players who all hold mischief cards, a region bribe
    of the normal bot offers more than its need."""

    def armed(view: DoomView) -> bool:
        if view.phase is not Phase.PLAY or view.seat is None or FORCE_FIELD in names(view):
            return False
        others = [s for s in range(view.players) if s != view.seat]
        return all(view.hand_sizes[s] - view.hand_cakes[s] >= 2 for s in others)

    seen = 0
    for seed in range(4):
        for _match, view in situations(4, range(seed, seed + 1), armed, bot=normal_bot):
            choice = normal_bot(view, random.Random(0))
            if not isinstance(choice, Bribe) or choice.target == DOOM:
                continue
            mind = Mind(view)
            value = sum(mind.units(mind.names[s], choice.target) for s in choice.slots)
            need = mind.need(choice.target)
            assert need is not None
            assert value + mind.freya(choice.target) > need, (choice, need)
            seen += 1
    assert seen >= 5


def test_every_control_bonus_has_a_worth() -> None:
    assert set(BONUS_WORTH) == set(REGION_NAMES)
    assert all(0 < w < 1 for w in BONUS_WORTH.values())


def test_normal_sabotages_a_face_down_doom_bribe_in_the_blind_game() -> None:
    def asked(view: DoomView) -> bool:
        offer = view.offer
        return (
            view.phase is Phase.SABOTAGE
            and offer is not None
            and offer.target == DOOM
            and not offer.opened
            and any(isinstance(a, Sabotage) for a in view.legal)
        )

    seen = 0
    for _match, view in situations(4, range(40), asked, variant="blind", bot=normal_bot):
        assert view.offer is not None and view.offer.value is None  # face down
        assert isinstance(normal_bot(view, random.Random(0)), Sabotage)
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_normal_grabs_a_force_field_from_the_top_of_the_mischief_discard() -> None:
    def on_top(view: DoomView) -> bool:
        if view.phase is not Phase.PLAY or not view.mischief_discard:
            return False
        top = view.card(view.mischief_discard[-1])
        return (
            top is not None
            and card(top).sort == FORCE_FIELD
            and any(isinstance(a, Grab) and a.pile == "mischief" for a in view.legal)
        )

    seen = 0
    for _match, view in situations(4, range(60), on_top):
        choice = normal_bot(view, random.Random(0))
        assert isinstance(choice, Grab) and choice.pile == "mischief", choice
        seen += 1
        if seen == 3:
            break
    assert seen == 3


def test_normal_draws_mischief_when_it_holds_none_and_cake_when_it_holds_plenty() -> None:
    def drawing(view: DoomView) -> bool:
        if view.phase is not Phase.DRAW or len(view.legal) < 2:
            return False
        mischief = len(view.mischief_hand)
        return mischief == 0 or mischief >= 5

    lacking = plenty = 0
    for _match, view in situations(4, range(12), drawing):
        choice = normal_bot(view, random.Random(0))
        assert isinstance(choice, Draw)
        most = max(a.mischief for a in view.legal if isinstance(a, Draw))
        if not view.mischief_hand:
            assert choice.mischief >= min(2, most), (choice, view.legal)
            lacking += 1
        else:
            assert choice.mischief == min(a.mischief for a in view.legal if isinstance(a, Draw))
            plenty += 1
        if lacking >= 3 and plenty >= 3:
            break
    assert lacking >= 3 and plenty >= 3


def test_normal_keeps_its_force_field_over_a_sponge_cake_at_the_hand_limit() -> None:
    def limit(view: DoomView) -> bool:
        task = view.task
        if view.phase is not Phase.DISCARD or task is None or task.why != "limit":
            return False
        sorts = names(view)
        return FORCE_FIELD in sorts and sorts.count("sponge") >= 1 and len(view.cake_hand) >= 5

    seen = 0
    for _match, view in situations(4, range(20), limit):
        choice = normal_bot(view, random.Random(0))
        assert isinstance(choice, Discard)
        assert all(card(view.known[s]).sort != FORCE_FIELD for s in choice.slots)
        seen += 1
        if seen == 3:
            break
    assert seen == 3

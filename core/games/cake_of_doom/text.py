"""Cake of Doom in plain words: cards, regions, aliens, offers, moves, events and a whole
board as text. Pure functions of public facts, a view and the seats' names; no UI library.
Every sentence goes through the translation catalog.

>>> card_words("tiramisu-2")
'Tiramisu (Europe +1)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.actions import Action, forfeit_words
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
from cakeparty.core.games.cake_of_doom.cards import (
    ALIENS,
    CONTINENT_TITLES,
    DOOM,
    DOOM_TITLE,
    MISCHIEF_EFFECTS,
    REGIONS,
    ROUNDS,
    SORT_TITLES,
    card,
)
from cakeparty.core.games.cake_of_doom.view import DoomView, OfferView
from cakeparty.core.i18n import _, ngettext

Names = Sequence[str]


def seat_name(seat: int | None, names: Names) -> str:
    if seat is None:
        return _("nobody")
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat {n}").format(n=seat + 1)


# -- cards, regions, aliens --------------------------------------------------------------


def card_title(name: str | None) -> str:
    """A card's title ("Tiramisu"); "?" if unknown."""
    if name is None:
        return "?"
    return _(SORT_TITLES[card(name).sort])


def card_words(name: str | None) -> str:
    """A card with what it does: "Tiramisu (Europe +1)", "Laser Fork (sabotage: …)"."""
    if name is None:
        return _("a hidden card")
    info = card(name)
    if info.continent is not None:
        return _("{card} ({continent} +1)").format(
            card=card_title(name), continent=_(CONTINENT_TITLES[info.continent])
        )
    if info.cake:
        return card_title(name)
    return _("{card} ({effect})").format(
        card=card_title(name), effect=_(MISCHIEF_EFFECTS[info.sort])
    )


def card_list(names: Sequence[str | None]) -> str:
    return ", ".join(card_title(n) for n in names) if names else _("no card")


def continent_title(continent: str | None) -> str:
    return "?" if continent is None else _(CONTINENT_TITLES[continent])


def target_title(target: str) -> str:
    """A region's title, or DOOM."""
    return _(DOOM_TITLE) if target == DOOM else _(REGIONS[target].title)


def region_words(name: str, *, bonus: bool = False) -> str:
    """ "Western Europe (Europe, minimum 3)", with its control bonus when asked."""
    region = REGIONS[name]
    words = _("{region} ({continent}, minimum {minimum})").format(
        region=_(region.title), continent=continent_title(region.continent), minimum=region.minimum
    )
    if bonus:
        words += " — " + _(region.bonus)
    return words


def alien_title(name: str) -> str:
    return _(ALIENS[name].title)


def alien_words(name: str) -> str:
    """ "Glorp: hand limit 12 instead of 10"."""
    return _("{alien}: {power}").format(alien=alien_title(name), power=_(ALIENS[name].power))


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


# -- the offer -------------------------------------------------------------------------


def offer_words(offer: OfferView, names: Names, known: Any = None) -> str:
    """The bribe on the table: who, what for, its value now against what it needs."""
    who = seat_name(offer.seat, names)
    target = target_title(offer.target)
    if not offer.opened:
        return ngettext(
            "{name} offers {n} face-down card for {target} (needs {need})",
            "{name} offers {n} face-down cards for {target} (needs {need})",
            len(offer.slots),
        ).format(name=who, n=len(offer.slots), target=target, need=offer.need)
    shown = []
    for slot, left in zip(offer.slots, offer.left, strict=True):
        title = card_title(known.get(slot) if known is not None else None)
        if left == 0:
            title = _("{card} (removed)").format(card=title)
        shown.append(title)
    if offer.freya:
        shown.append(_("Freya +1 (removed)") if offer.freya_removed else _("Freya +1"))
    return _("{name} offers {cards} for {target}: value {value}, needs {need}").format(
        name=who, cards=", ".join(shown), target=target, value=offer.value, need=offer.need
    )


# -- moves -----------------------------------------------------------------------------


def describe_action(view: DoomView, action: Action, names: Names) -> str:
    """A move as its seat would read it in a menu."""
    known = view.known
    if isinstance(action, ChooseMix):
        return _("open with cake {cakes} · mischief {mischief}").format(
            cakes=action.cakes, mischief=action.mischief
        )
    if isinstance(action, Grab):
        if action.pile == "cake":
            return _("Tractor Beam: take the top of the cake discard pile")
        return _("Tractor Beam: take the top of the mischief discard pile")
    if isinstance(action, Abduct):
        return _("Abduction: steal a random card from {name}").format(
            name=seat_name(action.victim, names)
        )
    if isinstance(action, Bribe):
        return _("bribe {target} with {cards}").format(
            target=target_title(action.target),
            cards=card_list([known.get(s) for s in action.slots]),
        )
    if isinstance(action, NoBribe):
        return _("no bribe this turn")
    if isinstance(action, Sabotage):
        return _("sabotage with {card}").format(card=_(SORT_TITLES[action.kind]))
    if isinstance(action, NoSabotage):
        return _("no sabotage")
    if isinstance(action, ForceField):
        return _("block it with a Force Field")
    if isinstance(action, NoForceField):
        return _("let the sabotage stand")
    if isinstance(action, Remove):
        return _("remove {what}").format(what=removal_words(view, action))
    if isinstance(action, Draw):
        return _("draw cake {cakes} · mischief {mischief}").format(
            cakes=action.cakes, mischief=action.mischief
        )
    if isinstance(action, Discard):
        return _("discard {cards}").format(cards=card_list([known.get(s) for s in action.slots]))
    if isinstance(action, PickCard):
        return _("take {card}").format(card=card_title(known.get(action.slot)))
    if isinstance(action, Rob):
        return _("steal a random card from {name}").format(name=seat_name(action.victim, names))
    if isinstance(action, Peek):
        return _("look at {name}'s hand").format(name=seat_name(action.victim, names))
    return str(action)


def removal_words(view: DoomView, action: Remove) -> str:
    """A removal in words: "Moon Cake; Tiramisu's +1 (it turns sideways); Freya's +1" (a
    slot named twice: the card with its +1)."""
    offer = view.offer
    parts = []
    for slot in dict.fromkeys(action.slots):
        name = card_title(view.card(slot))
        left = 0
        if offer is not None and slot in offer.slots and offer.left:
            left = offer.left[offer.slots.index(slot)]
        if action.slots.count(slot) == 2:
            parts.append(_("{card} with its +1").format(card=name))
        elif left == 2:
            parts.append(_("{card}'s +1 (it turns sideways)").format(card=name))
        else:
            parts.append(name)
    if action.freya:
        parts.append(_("Freya's +1"))
    return "; ".join(parts) or _("nothing")


# -- events ----------------------------------------------------------------------------


def describe(event: Any, names: Names) -> str:
    """One public event as a sentence."""
    who = seat_name(getattr(event, "seat", None), names)
    if isinstance(event, ev.GameSetUp):
        return _("Regions in play: {regions}; DOOM favours {continent}; {name} starts").format(
            regions=", ".join(target_title(r) for r in event.regions),
            continent=continent_title(event.favourite),
            name=seat_name(event.first, names),
        )
    if isinstance(event, ev.MixChosen):
        return _("{name} opens with cake {cakes} · mischief {mischief}").format(
            name=who, cakes=event.cakes, mischief=event.mischief
        )
    if isinstance(event, ev.RoundStarted):
        return _("Round {n} of {of} begins").format(n=event.round, of=ROUNDS)
    if isinstance(event, ev.TurnStarted):
        return _("{name}'s turn").format(name=who)
    if isinstance(event, ev.Grabbed):
        if event.pile == "cake":
            grabbed = _("{name} plays a Tractor Beam and takes {card} from the cake discard")
        else:
            grabbed = _("{name} plays a Tractor Beam and takes {card} from the mischief discard")
        return grabbed.format(name=who, card=card_title(event.card))
    if isinstance(event, ev.Abducted):
        return _("{name} plays an Abduction against {victim}").format(
            name=who, victim=seat_name(event.victim, names)
        )
    if isinstance(event, ev.Stole):
        return _("{name} steals a card from {victim}").format(
            name=seat_name(event.thief, names), victim=seat_name(event.victim, names)
        )
    if isinstance(event, ev.Looked):
        return _("{name} looks at {victim}'s hand").format(
            name=who, victim=seat_name(event.victim, names)
        )
    if isinstance(event, ev.Picked):
        if event.card is None:
            return _("{name} takes a card from {owner}").format(
                name=who, owner=seat_name(event.owner, names)
            )
        return _("{name} takes {card}").format(name=who, card=card_title(event.card))
    if isinstance(event, ev.Bribed):
        return ngettext(
            "{name} bribes {target} with {n} card (needs {need})",
            "{name} bribes {target} with {n} cards (needs {need})",
            len(event.cards),
        ).format(name=who, target=target_title(event.target), n=len(event.cards), need=event.need)
    if isinstance(event, ev.OfferOpened):
        cards = card_list(event.cards)
        if event.freya:  # counted in the value: said, as a saboteur may take it
            freya = _("Freya's +1")
            cards = f"{cards}, {freya}"
        return _("The offer: {cards} = {value}").format(cards=cards, value=event.value)
    if isinstance(event, ev.Protected):
        return _("{name} holds two regions of one continent: nobody may sabotage").format(name=who)
    if isinstance(event, ev.Sabotaged):
        return _("{name} sabotages with {card}").format(name=who, card=_(SORT_TITLES[event.kind]))
    if isinstance(event, ev.NotSabotaged):
        return _("{name} does not sabotage").format(name=who)
    if isinstance(event, ev.Shielded):
        return _("{name} blocks {saboteur}'s sabotage with a Force Field").format(
            name=who, saboteur=seat_name(event.saboteur, names)
        )
    if isinstance(event, ev.Removed):
        parts = [card_title(c) for c in event.cards]
        parts += [
            _("{card}'s +1 (it turns sideways)").format(card=card_title(c)) for c in event.sideways
        ]
        if event.freya:
            parts.append(_("Freya's +1"))
        return _("{name} removes {what}: the offer is worth {value}").format(
            name=who, what=", ".join(parts) or _("nothing"), value=event.value
        )
    if isinstance(event, ev.BribeWon):
        if event.target == DOOM:
            return _("{name} wins DOOM with {value}!").format(name=who, value=event.value)
        if event.previous is not None:
            return ngettext(
                "{name} takes {target} from {previous} with {value}; {n} cake is eaten",
                "{name} takes {target} from {previous} with {value}; {n} cakes are eaten",
                event.eaten,
            ).format(
                name=who,
                target=target_title(event.target),
                previous=seat_name(event.previous, names),
                value=event.value,
                n=event.eaten,
            )
        return _("{name} takes {target} with {value}").format(
            name=who, target=target_title(event.target), value=event.value
        )
    if isinstance(event, ev.BribeFailed):
        return _("{name}'s bribe for {target} fails: {value} of {need}; {cards} back").format(
            name=who,
            target=target_title(event.target),
            value=event.value,
            need=event.need,
            cards=_cards(event.returned),
        )
    if isinstance(event, ev.Passed):
        return _("{name} does not bribe").format(name=who)
    if isinstance(event, ev.ControlBonus):
        return _("{name} takes the bonus of {region}: {bonus}").format(
            name=who, region=target_title(event.region), bonus=_(REGIONS[event.region].bonus)
        )
    if isinstance(event, ev.BonusVoid):
        if event.region == "middle-east":
            return _("{name} finds no hand to look at").format(name=who)
        if event.region == "north-africa":
            return _("{name} has no card to discard").format(name=who)
        if event.region == "southern-africa":
            return _("Nobody else has a card to discard")
        return _("{name} finds no card to take").format(name=who)
    if isinstance(event, ev.Drew):
        return _("{name} draws cake {cakes} · mischief {mischief}").format(
            name=who, cakes=event.cakes, mischief=event.mischief
        )
    if isinstance(event, ev.Discarded):
        return _("{name} discards {cards}").format(name=who, cards=card_list(event.cards))
    if isinstance(event, ev.Refilled):
        if event.pile == "cake":
            refilled = ngettext(
                "The cake pile takes back {n} card from its discard",
                "The cake pile takes back {n} cards from its discard",
                event.count,
            )
        else:
            refilled = ngettext(
                "The mischief pile takes back {n} card from its discard",
                "The mischief pile takes back {n} cards from its discard",
                event.count,
            )
        return refilled.format(n=event.count)
    if isinstance(event, ev.Cheated):
        reason = forfeit_words(event.reason, event.params)
        return _("{name} cheated: {reason}").format(name=who, reason=reason)
    if isinstance(event, ev.Forfeited):
        return _("{name} forfeits: {reason}").format(name=who, reason=forfeit_words(event.reason))
    if isinstance(event, ev.GameOver):
        won = " & ".join(seat_name(s, names) for s in event.winners) or _("nobody")
        if event.shared:
            return _("A shared win: {names}").format(names=won)
        return _("{name} wins").format(name=won)
    return str(event)


# -- a whole board ---------------------------------------------------------------------


def board_lines(view: DoomView, names: Names) -> list[str]:
    """The table as plain text: round, DOOM, regions, players, piles, the offer, the hand."""
    lines = [
        _("Cake of Doom · round {n} of {of} · {name}'s turn").format(
            n=max(view.round, 1), of=ROUNDS, name=seat_name(view.current, names)
        ),
        _("DOOM: minimum {minimum}, favours {continent}, held by {name}").format(
            minimum=view.doom.minimum,
            continent=continent_title(view.doom.favourite),
            name=seat_name(view.doom.holder, names),
        ),
    ]
    for region in view.regions:
        holder = (
            _("neutral")
            if region.holder is None
            else _("{name} with {value}").format(
                name=seat_name(region.holder, names), value=region.value
            )
        )
        lines.append(
            "  " + region_words(region.name, bonus=region.bonus is not None) + " · " + holder
        )
    for seat in range(view.players):
        alien = alien_title(view.aliens[seat]) if view.aliens else "?"
        regions = len(view.regions_of(seat))
        lines.append(
            ngettext(
                "{name} ({alien}): {n} region · {cards} in hand, {cakes}",
                "{name} ({alien}): {n} regions · {cards} in hand, {cakes}",
                regions,
            ).format(
                name=seat_name(seat, names),
                alien=alien,
                n=regions,
                cards=_cards(view.hand_sizes[seat]),
                cakes=ngettext("{n} cake", "{n} cakes", view.hand_cakes[seat]).format(
                    n=view.hand_cakes[seat]
                ),
            )
        )
    top_cake = view.known.get(view.cake_discard[-1]) if view.cake_discard else None
    top_mischief = view.known.get(view.mischief_discard[-1]) if view.mischief_discard else None
    lines.append(
        _(
            "Piles: cake {cakes} (discard top {top_cake}), mischief {mischief} "
            "(discard top {top_mischief})"
        ).format(
            cakes=view.cake_pile,
            top_cake=card_title(top_cake) if view.cake_discard else "-",
            mischief=view.mischief_pile,
            top_mischief=card_title(top_mischief) if view.mischief_discard else "-",
        )
    )
    if view.offer is not None:
        lines.append(offer_words(view.offer, names, view.known))
    if view.seat is not None:
        cakes = [card_words(view.known.get(s)) for s in view.cake_hand]
        mischief = [card_words(view.known.get(s)) for s in view.mischief_hand]
        lines.append(_("Your cakes: {cards}").format(cards="; ".join(cakes) or "-"))
        lines.append(_("Your mischief: {cards}").format(cards="; ".join(mischief) or "-"))
    return lines


def final_lines(view: DoomView, names: Names) -> list[str]:
    """The end: one line per seat, the winners first (DOOM's wins at once), then most
    regions, with what breaks ties; seats alike on all of it share a place. A seat proven to
    have broken a rule is marked, and why is said last, in the reader's language."""

    def key(seat: int) -> tuple[int, int, int]:
        mine = view.regions_of(seat)
        return len(mine), sum(r.value for r in mine), view.hand_sizes[seat]

    def standing(seat: int) -> tuple[bool, int, int, int]:
        regions, value, cards = key(seat)
        return seat not in view.winners, -regions, -value, -cards

    order = sorted(range(view.players), key=lambda s: (standing(s), s))
    lines = []
    for seat in order:
        regions, value, cards = key(seat)
        rank = sum(standing(other) < standing(seat) for other in order)
        line = ngettext(
            "{place}. {name}: {regions} region, cake value {value}, {cards} in hand",
            "{place}. {name}: {regions} regions, cake value {value}, {cards} in hand",
            regions,
        ).format(
            place=rank + 1,
            name=seat_name(seat, names),
            regions=regions,
            value=value,
            cards=_cards(cards),
        )
        if seat == view.doom.holder:
            line += " · " + _("won DOOM")
        if seat == view.cheat:
            line += " · " + _("cheated")
        elif seat == view.forfeit:
            line += " · " + _("forfeits")
        lines.append(line)
    breach = next((e for e in view.events if isinstance(e, ev.Cheated | ev.Forfeited)), None)
    if breach is not None:
        lines.append(describe(breach, names))
    return lines

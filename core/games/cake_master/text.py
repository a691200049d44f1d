"""Cake Master in plain words: cards, customers, taste, previews, round breakdowns, events.

Pure functions of public facts, a view and the seats' names; no UI library. Every
sentence goes through the translation catalog.

>>> card_words("pink-hp-rb")
'Pink · half|plain · 1 raspberry, 1 blueberry'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core.actions import Action, forfeit_words
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.cards import CARDS, CUSTOMERS, ICING_TITLES
from cakeparty.core.games.cake_master.flow import rating
from cakeparty.core.games.cake_master.scoring import Cake, Taste, best_matching, taste
from cakeparty.core.games.cake_master.state import RoundResult
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.i18n import N_, _, ngettext

Names = Sequence[str]

RATING_TITLES: dict[str, str] = {
    "apprentice": N_("Apprentice"),
    "baker": N_("Baker"),
    "cake-master": N_("Cake Master"),
}


def seat_name(seat: int, names: Names) -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat {n}").format(n=seat + 1)


# -- cards and customers -------------------------------------------------------------------


def icing_word(icing: str) -> str:
    return _(ICING_TITLES[icing])


#: A card's two edges, left|right: (left half-rosette, right half-rosette) → words.
EDGE_TITLES: dict[tuple[bool, bool], str] = {
    (False, False): N_("plain|plain"),
    (True, False): N_("half|plain"),
    (False, True): N_("plain|half"),
    (True, True): N_("half|half"),
}

#: A card's fruit: (raspberries, blueberries) → words, one for each pattern in the box.
FRUIT_TITLES: dict[tuple[int, int], str] = {
    (0, 0): N_("no fruit"),
    (1, 0): N_("1 raspberry"),
    (0, 1): N_("1 blueberry"),
    (1, 1): N_("1 raspberry, 1 blueberry"),
    (2, 0): N_("2 raspberries"),
    (0, 2): N_("2 blueberries"),
}


def edge_words(name: str) -> str:
    """The two edges, left|right: "half|plain"."""
    card = CARDS[name]
    return _(EDGE_TITLES[card.left, card.right])


def fruit_words(name: str) -> str:
    """A card's fruit: "1 raspberry, 1 blueberry", "2 blueberries", "no fruit"."""
    card = CARDS[name]
    return _(FRUIT_TITLES[card.raspberries, card.blueberries])


def card_words(name: str | None) -> str:
    """A card in full: "Pink · half|plain · 1 raspberry, 1 blueberry"; "?" if unknown."""
    if name is None:
        return "?"
    return " · ".join((icing_word(CARDS[name].icing), edge_words(name), fruit_words(name)))


def customer_words(name: str) -> str:
    """A customer's request: "all Pink"."""
    return _(CUSTOMERS[name].request)


def customer_title(name: str) -> str:
    """A customer by number and request: "C7: all Pink"."""
    customer = CUSTOMERS[name]
    return _("C{n}: {request}").format(n=customer.number, request=_(customer.request))


def rating_title(met: int) -> str:
    """Solo: the rating earned by meeting ``met`` customers."""
    return _(RATING_TITLES[rating(met)])


# -- taste ---------------------------------------------------------------------------------


def taste_words(points: Taste) -> str:
    """A cake's taste item by item: "icing 3 · rosettes 2 · no half 1 · pairs 2 = 8"."""
    return _(
        "icing {icing} · rosettes {rosettes} · no half {no_half} · pairs {pairs} = {total}"
    ).format(
        icing=points.icing,
        rosettes=points.rosettes,
        no_half=points.no_half,
        pairs=points.pairs,
        total=points.total,
    )


def cake_words(cake: Cake) -> str:
    """A cake's taste breakdown as it stands."""
    return taste_words(taste(cake))


# -- a choice before it is sealed ----------------------------------------------------------


@dataclass(frozen=True)
class Preview:
    """What a placement would make of a seat's cakes."""

    cakes: tuple[Cake, ...]
    tastes: tuple[Taste, ...]
    customers: tuple[tuple[int, str], ...]  # (cake, customer) a finished cake would meet

    @property
    def taste(self) -> int:
        return sum(t.total for t in self.tastes)


def preview(view: MasterView, choice: Action) -> Preview:
    """The seat's cakes, their taste and the customers they would meet after ``choice``
    (a placement; any other choice leaves the cakes as they are)."""
    assert view.seat is not None
    cakes = [list(cake) for cake in view.seat_cakes(view.seat)]
    if isinstance(choice, Place):
        for slot, (cake, quarter) in choice.spots.items():
            cakes[cake][quarter] = view.card(slot)
    done = tuple(tuple(cake) for cake in cakes)
    names = view.customer_names
    matches = best_matching(done, names)
    return Preview(done, tuple(taste(c) for c in done), tuple((c, names[k]) for c, k in matches))


def preview_words(view: MasterView, choice: Action) -> str:
    """One line: "taste 14 (5 + 6 + 3) · meets all Pink"; solo: customers only."""
    shown = preview(view, choice)
    met = ", ".join(customer_words(name) for _cake, name in shown.customers)
    if view.solo:
        line = ngettext("{n} customer met", "{n} customers met", len(shown.customers)).format(
            n=len(shown.customers)
        )
    else:
        parts = " + ".join(str(t.total) for t in shown.tastes)
        line = _("taste {total} ({parts})").format(total=shown.taste, parts=parts)
    return _("{line} · meets {customers}").format(line=line, customers=met) if met else line


def choice_words(view: MasterView, choice: Action) -> str:
    """A choice in words for the seat making it."""
    if isinstance(choice, PassCards):
        return _("left: {left}; right: {right}").format(
            left=card_words(view.card(choice.left)), right=card_words(view.card(choice.right))
        )
    if isinstance(choice, Keep):
        return _("keep {card}").format(card=card_words(view.card(choice.slot)))
    if isinstance(choice, Exchange):
        return ngettext("exchange {n} card", "exchange {n} cards", len(choice.slots)).format(
            n=len(choice.slots)
        )
    if isinstance(choice, Place):
        return "; ".join(
            _("{card} on cake {cake}, quarter {quarter}").format(
                card=card_words(view.card(slot)), cake=cake + 1, quarter=quarter + 1
            )
            for slot, (cake, quarter) in choice.spots.items()
        )
    return str(choice)


# -- a round's end -------------------------------------------------------------------------


def round_breakdown(result: RoundResult, names: Names, *, solo: bool = False) -> list[str]:
    """One line per seat: taste per cake, stars for taste, customers met, stars so far."""
    lines = [
        _("Round {n}: customers {customers}").format(
            n=result.round, customers=", ".join(customer_words(c) for c in result.customers)
        )
    ]
    for seat, score in enumerate(result.seats):
        met = ", ".join(
            _("cake {cake} → {customer}").format(
                cake=cake + 1, customer=customer_words(result.customers[k])
            )
            for cake, k in score.matches
        )
        if solo:
            line = _("{name}: customers met {met}").format(
                name=seat_name(seat, names), met=met or _("none")
            )
        else:
            line = _(
                "{name}: taste {parts} = {taste} · {taste_stars} ★ for taste"
                " · customers {met} · {round} ★ this round, {stars} ★ in all"
            ).format(
                name=seat_name(seat, names),
                parts=" + ".join(str(t.total) for t in score.tastes),
                taste=score.taste,
                taste_stars=score.taste_stars,
                met=met or _("none"),
                round=score.stars,
                stars=result.stars[seat],
            )
        lines.append(line)
    return lines


# -- events --------------------------------------------------------------------------------


def exchanges_left_words(left: int) -> str:
    """Solo: "2 exchanges left"."""
    return ngettext("{n} exchange left", "{n} exchanges left", left).format(n=left)


def describe(event: Any, names: Names) -> str:
    """One public event as a sentence."""
    if isinstance(event, ev.RoundStarted):
        return _("Round {n} begins").format(n=event.round)
    if isinstance(event, ev.CustomersArrived):
        return _("New customers: {customers}").format(
            customers=", ".join(customer_words(c) for c in event.customers)
        )
    if isinstance(event, ev.CardsPassed):
        if event.back:
            return _("Each player keeps one card and gives the other back")
        if len(names) == 2:
            return _("Each player keeps one card and gives the other two to the opponent")
        return _("Everyone keeps one card and passes one to each neighbour")
    if isinstance(event, ev.Exchanged):
        left = exchanges_left_words(event.left)
        return ngettext(
            "{name} exchanges {n} card ({left})",
            "{name} exchanges {n} cards ({left})",
            event.count,
        ).format(name=seat_name(event.seat, names), n=event.count, left=left)
    if isinstance(event, ev.Placed):
        cakes = "; ".join(  # the quarter too: which cards touch makes the rosettes
            _("{card} on cake {cake}, quarter {quarter}").format(
                card=card_words(card), cake=cake + 1, quarter=quarter + 1
            )
            for card, cake, quarter in zip(event.cards, event.cakes, event.quarters, strict=True)
        )
        return _("{name} places {cards}").format(name=seat_name(event.seat, names), cards=cakes)
    if isinstance(event, ev.RoundScored):
        return _("Round {n} is scored").format(n=event.result.round)
    if isinstance(event, ev.Forfeited):
        return _("{name} forfeits: {reason}").format(
            name=seat_name(event.seat, names), reason=forfeit_words(event.reason)
        )
    if isinstance(event, ev.GameOver):
        who = " & ".join(seat_name(s, names) for s in event.winners)
        if event.shared:
            return _("A shared win: {names}").format(names=who)
        return _("{name} wins").format(name=who)
    return str(event)


def final_lines(view: MasterView, names: Names) -> list[str]:
    """The end of the game: solo, customers met and the rating; otherwise one line per
    seat, most stars first, with the last round's taste that breaks a tie (seats alike on
    both share their place: a shared win shows two first places); a seat that forfeited
    last, saying so."""
    if view.solo:
        return [
            ngettext("{n} customer met", "{n} customers met", view.met).format(n=view.met),
            _("Rating: {rating}").format(rating=rating_title(view.met)),
        ]

    # a seat proven to have broken a rule cannot win: it is listed last, and why
    forfeit = next((e for e in view.events if isinstance(e, ev.Forfeited)), None)
    out = forfeit.seat if forfeit is not None else None

    def standing(seat: int) -> tuple[bool, int, int]:
        return seat == out, -view.stars[seat], -view.last_taste[seat]

    order = sorted(range(view.players), key=lambda s: (standing(s), s))
    return [
        describe(forfeit, names)
        if forfeit is not None and seat == out
        else _("{place}. {name}: {stars} ★ (last round's taste {taste})").format(
            place=1 + sum(standing(other) < standing(seat) for other in order),
            name=seat_name(seat, names),
            stars=view.stars[seat],
            taste=view.last_taste[seat],
        )
        for seat in order
    ]

"""What the table tells besides the events: how a block ended, what a look showed, why a
Pierrot or a Mimic counted as it did. Pure sentences from public facts and one seat's view.

The events hold only public facts; these lines explain them, so a player never has to
work out from the rules what just happened to a claim.
"""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import (
    ANGEL,
    CARDS,
    CORE_NAMES,
    MIMIC,
    PIERROT,
    PRIEST,
    SCOUT,
    SUMMONER,
)
from cakeparty.core.games.cake_duel.text import card_list, card_title, claim_text, seat_name
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.i18n import _, ngettext

#: Attackers whose effect is more than stealing, and still happens when only blocked.
_EFFECT_WHEN_BLOCKED = (SCOUT, SUMMONER)


def block_result(claimed: ev.Claimed, blocked: ev.Blocked, names: Sequence[str]) -> str:
    """What an accepted block did to the attack: "the Angel cancels 2 × Wizard; no cakes
    stolen". Claims that are not challenged count as claimed, so this is what happens."""
    count = len(claimed.slots)
    attack = claim_text(count, claimed.name)
    block = claim_text(len(blocked.slots), blocked.name)
    if blocked.name == ANGEL:
        return _("The Angel cancels {attack}; no cakes stolen").format(attack=attack)
    stopped = min(len(blocked.slots), count)
    rest = count - stopped
    if blocked.name == PRIEST:
        holder = seat_name(blocked.seat, names)
        if rest == 0:
            return _(
                "{block} cancels {attack} and takes it into {seat}'s hand; no cakes stolen"
            ).format(block=block, attack=attack, seat=holder)
        return ngettext(
            "{block} cancels {n} of {attack} and takes it into {seat}'s hand; {rest} still attacks",
            "{block} cancels {n} of {attack} and takes them into {seat}'s hand; "
            "{rest} still attack",
            stopped,
        ).format(block=block, n=stopped, attack=attack, seat=holder, rest=rest)
    if rest == 0:
        text = _("{block} blocks {attack}; no cakes stolen").format(block=block, attack=attack)
    else:
        text = ngettext(
            "{block} blocks {n} of {attack}; {rest} still steals",
            "{block} blocks {n} of {attack}; {rest} still steal",
            rest,
        ).format(block=block, n=stopped, attack=attack, rest=rest)
    if claimed.name in _EFFECT_WHEN_BLOCKED:
        text = _("{result}; the {card}'s effect still happens").format(
            result=text, card=card_title(claimed.name)
        )
    return text


def transform_note(event: ev.Challenged) -> str | None:
    """Why a flipped Pierrot or Mimic counted as it did, or ``None`` if none was flipped."""
    cards = event.cards
    claimed = card_title(event.name)
    notes = []
    if PIERROT in cards:
        if event.name in CORE_NAMES:
            notes.append(_("Pierrot became the claimed {card}").format(card=claimed))
        else:
            notes.append(
                _("Pierrot becomes only a core card, never the claimed {card}").format(card=claimed)
            )
    if MIMIC in cards:
        real = [c for c in cards if not CARDS[c].type.unclaimable]
        if real:
            notes.append(_("Mimic became the {card} beside it").format(card=card_title(real[0])))
        else:
            notes.append(_("Mimic has no real card beside it to copy"))
    if not notes:
        return None
    if event.truthful:
        return _("{notes}: the claim stands").format(notes="; ".join(notes))
    return _("{notes}: the claim is a bluff").format(notes="; ".join(notes))


def look_cards(view: DuelView, target: int) -> tuple[str, ...] | None:
    """What the viewer saw of ``target``'s hand in a look, once every card has come.

    During the look the cards are known by slot; once the hand is re-mixed they remain a
    glimpse. ``None`` while the look's cards are still on their way (a networked reveal).
    """
    glimpse = view.glimpses.get(target)
    if glimpse is not None:
        return glimpse
    hand = view.hands[target]
    cards = [view.known[s] for s in hand if s in view.known]
    if len(cards) < len(hand):
        return None
    return tuple(cards)


def look_line(cards: Sequence[str], target: int, names: Sequence[str]) -> str:
    """The log's line for a look: "You see Archer, Soldier, Archer in Muffin's hand"."""
    who = seat_name(target, names)
    if not cards:
        return _("You see {seat}'s hand: it is empty").format(seat=who)
    return _("You see {cards} in {seat}'s hand").format(cards=card_list(cards), seat=who)

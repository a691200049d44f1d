"""Cake Duel in plain words: events, actions and decisions as sentences for logs.

Pure functions of public facts and the seats' names; no UI library. Every sentence goes
through the translation catalog, and card names through their translated titles.

>>> from cakeparty.core.games.cake_duel import events as ev
>>> describe(ev.Claimed(1, 0, "wizard", (3, 8)), ("Ann", "Bot"))
'Bot claims 2 × Wizard (2 cards facedown)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
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
from cakeparty.core.games.cake_duel.cards import CARDS, MIMIC, PIERROT, Type
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.i18n import N_, _, ngettext

Names = Sequence[str]

#: Short words for a card's type, fit for a narrow card face.
TYPE_WORDS: dict[Type, str] = {
    Type.WEAPON: N_("weapon"),
    Type.MAGIC: N_("magic"),
    Type.SPECIAL: N_("special"),
    Type.BLOCKER: N_("blocker"),
    Type.UNCLAIMABLE: N_("unclaimable"),
    Type.TRANSFORMING: N_("transforming"),
}

#: The full words for a card's type, as the rules write them.
TYPE_TITLES: dict[Type, str] = {
    Type.WEAPON: N_("weapon attacker"),
    Type.MAGIC: N_("magic attacker"),
    Type.SPECIAL: N_("special attacker"),
    Type.BLOCKER: N_("blocker"),
    Type.UNCLAIMABLE: N_("unclaimable"),
    Type.TRANSFORMING: N_("transforming unclaimable"),
}

#: How a bout was won, one whole sentence per way, so a translation may order it freely.
_BOUT_WON: dict[str, str] = {
    "challenge": N_("{side} wins the bout by a challenge. Trophies: {score}"),
    "cakes": N_("{side} wins the bout by taking every cake. Trophies: {score}"),
    "passes": N_("{side} wins the bout with more cakes after everyone passed. Trophies: {score}"),
}


# -- cards and people ------------------------------------------------------------------


def card_title(name: str) -> str:
    """A card's display name in the active language ("Sir Wolfy")."""
    return _(CARDS[name].title)


def card_type(name: str, *, short: bool = False) -> str:
    """A card's type in words ("magic attacker", or "magic" when ``short``)."""
    table = TYPE_WORDS if short else TYPE_TITLES
    return _(table[CARDS[name].type])


def card_effect(name: str) -> str:
    """A card's effect in one sentence."""
    return _(CARDS[name].effect)


def card_list(names: Iterable[str | None]) -> str:
    """Cards as a comma-separated list; an unknown card reads "?"."""
    return ", ".join("?" if n is None else card_title(n) for n in names)


def claim_text(count: int, name: str) -> str:
    """A claim's quantity and name: "2 × Wizard"."""
    return _("{count} × {card}").format(count=count, card=card_title(name))


def seat_name(seat: int, names: Names) -> str:
    """The name of ``seat``, or a generic one if ``names`` does not hold it."""
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat {n}").format(n=seat + 1)


def side_name(side: int, names: Names, *, opening: bool = False) -> str:
    """A side by its players: "Ann" in a duel, "team Ann & Cy" in team mode ("Team Ann &
    Cy" ``opening`` a sentence; a player's own name is never changed)."""
    seats = [s for s in range(len(names)) if s % 2 == side]
    if len(seats) == 1:
        return names[seats[0]]
    if not seats:
        return _("Side {n}").format(n=side + 1)
    players = " & ".join(names[s] for s in seats)
    if opening:
        # Translators: a team named by its players where it opens a sentence
        return _("Team {players}").format(players=players)
    return _("team {players}").format(players=players)


#: What may come before a sentence's first word ("¡Equipo Ann & Cy gana el duelo!").
_OPENING_MARKS = "¡¿«„“\"'( "


def side_says(text: str, side: int, names: Names, **fields: object) -> str:
    """``text``, a translated sentence with a ``{side}`` field, said of ``side``: a team
    that opens the sentence starts with a capital, wherever the language puts it ("Team
    Ann & Cy wins the duel!", but "Gana el torneo equipo Ann & Cy")."""
    plain = side_name(side, names)
    sentence = text.format(side=plain, **fields)
    opening = side_name(side, names, opening=True)
    start = len(sentence) - len(sentence.lstrip(_OPENING_MARKS))
    if opening != plain and sentence.startswith(plain, start):
        sentence = sentence[:start] + opening + sentence[start + len(plain) :]
    return sentence


def score_text(scores: tuple[int, int], names: Names) -> str:
    """Per-side numbers with their names: "Ann 1 – 0 Bot"."""
    return _("{first} {a} – {b} {second}").format(
        first=side_name(0, names), a=scores[0], b=scores[1], second=side_name(1, names)
    )


def _team_game(names: Names) -> bool:
    return len(names) > 2


# -- events ----------------------------------------------------------------------------


def describe(event: Any, names: Names, *, brief: bool = False) -> str:
    """One public event as a sentence, for the log; ``brief`` leaves out how many cards
    lie facedown under a claim or a block (the table shows them)."""
    who = _who(names)
    if isinstance(event, ev.BoutStarted):
        first, second = event.cakes[event.starter], event.cakes[1 - event.starter]
        text = ngettext(
            "Bout {bout}: {side} attacks first, {a} cake against {b}.",
            "Bout {bout}: {side} attacks first, {a} cakes against {b}.",
            first,
        )
        return side_says(text, event.starter, names, bout=event.bout, a=first, b=second)
    if isinstance(event, ev.LeadChosen):
        return _("{seat} attacks first for the team.").format(seat=who(event.seat))
    if isinstance(event, ev.Claimed):
        return _describe_claim(event, names, brief)
    if isinstance(event, ev.Passed):
        if event.auto:
            return _("{seat} has no cards and passes").format(seat=who(event.seat))
        return _("{seat} passes").format(seat=who(event.seat))
    if isinstance(event, ev.Blocked):
        n = len(event.slots)
        if brief:
            text = _("{seat} blocks with {claim}")
        else:
            text = ngettext(
                "{seat} blocks with {claim} ({n} card facedown)",
                "{seat} blocks with {claim} ({n} cards facedown)",
                n,
            )
        return text.format(seat=who(event.seat), claim=claim_text(n, event.name), n=n)
    if isinstance(event, ev.Accepted):
        return _("{seat} takes no action").format(seat=who(event.seat))
    if isinstance(event, ev.Challenged):
        return _describe_challenge(event, names)
    if isinstance(event, ev.Took):
        return ngettext(
            "{seat}'s Priest takes {n} of {owner}'s facedown cards into hand",
            "{seat}'s Priests take {n} of {owner}'s facedown cards into hand",
            len(event.slots),
        ).format(seat=who(event.seat), owner=who(event.owner), n=len(event.slots))
    if isinstance(event, ev.Stole):
        return ngettext(
            "{seat} steals {n} cake from {target}",
            "{seat} steals {n} cakes from {target}",
            event.cakes,
        ).format(seat=who(event.seat), n=event.cakes, target=who(event.target))
    if isinstance(event, ev.HandSizeUp):
        return _("{seat}'s hand size is now {size}").format(seat=who(event.seat), size=event.size)
    if isinstance(event, ev.Summoned):
        return _("{seat}'s Summoner calls for {card}").format(
            seat=who(event.seat), card=card_title(event.name)
        )
    if isinstance(event, ev.Declared):
        if event.count == 0:
            return _("{seat} holds no {card}").format(
                seat=who(event.seat), card=card_title(event.name)
            )
        return _("{seat} holds {claim}").format(
            seat=who(event.seat), claim=claim_text(event.count, event.name)
        )
    if isinstance(event, ev.Looked):
        return _("{seat} looks at {target}'s hand").format(
            seat=who(event.seat), target=who(event.target)
        )
    if isinstance(event, ev.ExtraTurn):
        return _("{seat} takes another turn").format(seat=who(event.seat))
    if isinstance(event, ev.Drew):
        return ngettext("{seat} draws {n} card", "{seat} draws {n} cards", event.count).format(
            seat=who(event.seat), n=event.count
        )
    if isinstance(event, ev.Traded):
        return _describe_trade(event, names)
    if isinstance(event, ev.Taunted):
        return _("{seat} reveals Sir Wolfy to taunt!").format(seat=who(event.seat))
    if isinstance(event, ev.BoutWon):
        text = _BOUT_WON.get(event.reason, N_("{side} wins the bout. Trophies: {score}"))
        return side_says(_(text), event.side, names, score=score_text(event.trophies, names))
    if isinstance(event, ev.DuelWon):
        return side_says(_("{side} wins the duel!"), event.side, names)
    if isinstance(event, ev.Forfeited):
        if event.reason == "false-accusation":
            return _("{seat} accused falsely and loses the game").format(seat=who(event.seat))
        return _("{seat} was caught breaking a rule and loses the game").format(
            seat=who(event.seat)
        )
    return str(event)


def _who(names: Names) -> Any:
    return lambda seat: seat_name(seat, names)


def _describe_claim(event: ev.Claimed, names: Names, brief: bool) -> str:
    n = len(event.slots)
    team = _team_game(names)
    if brief:
        text = _("{seat} attacks {target}: claims {claim}") if team else _("{seat} claims {claim}")
    elif team:
        text = ngettext(
            "{seat} attacks {target}: claims {claim} ({n} card facedown)",
            "{seat} attacks {target}: claims {claim} ({n} cards facedown)",
            n,
        )
    else:
        text = ngettext(
            "{seat} claims {claim} ({n} card facedown)",
            "{seat} claims {claim} ({n} cards facedown)",
            n,
        )
    return text.format(
        seat=seat_name(event.seat, names),
        target=seat_name(event.target, names),
        claim=claim_text(n, event.name),
        n=n,
    )


def _describe_challenge(event: ev.Challenged, names: Names) -> str:
    # who wins the bout is the next line's news (the bout's end follows every challenge)
    claim = claim_text(len(event.slots), event.name)
    cards = card_list(event.cards)
    seat, claimer = seat_name(event.seat, names), seat_name(event.claimer, names)
    if event.truthful:
        text = _("{seat} challenges {claimer}'s {claim} — the cards were {cards}: true!")
        # a Pierrot or a Mimic flipped became the card claimed: say why the claim holds
        shifted = [n for n in dict.fromkeys(event.cards) if n in (PIERROT, MIMIC)]
        if shifted and event.name not in shifted:
            text += " " + _("({cards} counted as {card})").format(
                cards=card_list(shifted), card=card_title(event.name)
            )
    else:
        text = _("{seat} challenges {claimer}'s {claim} — the cards were {cards}: a bluff!")
    return text.format(seat=seat, claimer=claimer, claim=claim, cards=cards)


def _describe_trade(event: ev.Traded, names: Names) -> str:
    seat, mate = seat_name(event.seat, names), seat_name(event.mate, names)
    if not event.agreed:
        return _("{mate} refuses {seat}'s trade").format(mate=mate, seat=seat)
    if event.give and event.take:
        return _("{seat} swaps a card with {mate}").format(seat=seat, mate=mate)
    if event.give:
        return _("{seat} gives {mate} a card").format(seat=seat, mate=mate)
    return _("{seat} takes a card from {mate}").format(seat=seat, mate=mate)


# -- actions ---------------------------------------------------------------------------


def describe_action(
    action: Action,
    names: Names,
    seat: int | None = None,
    known: Mapping[int, str] | None = None,
) -> str:
    """An action in words: a sentence when ``seat`` is given ("Ann passes"), otherwise the
    label of a choice ("Pass"). ``known`` names the slots the reader may know (a trade)."""
    if seat is None:
        return _label(action, names, known or {})
    who = seat_name(seat, names)
    if isinstance(action, Claim):
        claim = claim_text(len(action.slots), action.name)
        if _team_game(names):
            return _("{seat} attacks {target} with {claim}").format(
                seat=who, target=seat_name(action.target, names), claim=claim
            )
        return _("{seat} claims {claim}").format(seat=who, claim=claim)
    if isinstance(action, Pass):
        return _("{seat} passes").format(seat=who)
    if isinstance(action, Block):
        return _("{seat} blocks with {claim}").format(
            seat=who, claim=claim_text(len(action.slots), action.name)
        )
    if isinstance(action, Challenge):
        return _("{seat} challenges").format(seat=who)
    if isinstance(action, NoAction):
        return _("{seat} takes no action").format(seat=who)
    if isinstance(action, Take):
        return ngettext(
            "{seat} takes {n} facedown card", "{seat} takes {n} facedown cards", len(action.slots)
        ).format(seat=who, n=len(action.slots))
    if isinstance(action, Summon):
        return _("{seat} calls for {card}").format(seat=who, card=card_title(action.name))
    if isinstance(action, Declare):
        return _("{seat} declares {n}").format(seat=who, n=action.count)
    if isinstance(action, Lead):
        return _("{seat} lets {lead} attack first").format(
            seat=who, lead=seat_name(action.seat, names)
        )
    if isinstance(action, Trade):
        return _("{seat} offers a trade").format(seat=who)
    if isinstance(action, NoTrade):
        return _("{seat} does not trade").format(seat=who)
    if isinstance(action, Agree):
        return _("{seat} agrees to the trade").format(seat=who)
    if isinstance(action, Refuse):
        return _("{seat} refuses the trade").format(seat=who)
    if isinstance(action, Taunt):
        return _("{seat} reveals Sir Wolfy to taunt").format(seat=who)
    if isinstance(action, KeepHidden):
        return _("{seat} reveals no Sir Wolfy").format(seat=who)
    return f"{who}: {action}"


def _label(action: Action, names: Names, known: Mapping[int, str]) -> str:
    def slot(s: int) -> str:
        name = known.get(s)
        return card_title(name) if name else _("a card")

    if isinstance(action, Claim):
        claim = claim_text(len(action.slots), action.name)
        if _team_game(names):
            return _("Claim {claim} against {target}").format(
                claim=claim, target=seat_name(action.target, names)
            )
        return _("Claim {claim}").format(claim=claim)
    if isinstance(action, Pass):
        return _("Pass")
    if isinstance(action, Block):
        return _("Block with {claim}").format(claim=claim_text(len(action.slots), action.name))
    if isinstance(action, Challenge):
        return _("Challenge")
    if isinstance(action, NoAction):
        return _("No action")
    if isinstance(action, Take):
        return ngettext(
            "Take {n} facedown card", "Take {n} facedown cards", len(action.slots)
        ).format(n=len(action.slots))
    if isinstance(action, Summon):
        return _("Call for {card}").format(card=card_title(action.name))
    if isinstance(action, Declare):
        return _("Declare {n}").format(n=action.count)
    if isinstance(action, Lead):
        return _("{lead} attacks first").format(lead=seat_name(action.seat, names))
    if isinstance(action, Trade):
        if action.give and action.take:
            return _("Give {give}, take {take}").format(
                give=slot(action.give[0]), take=slot(action.take[0])
            )
        if action.give:
            return _("Give {give}").format(give=slot(action.give[0]))
        return _("Take {take}").format(take=slot(action.take[0]))
    if isinstance(action, NoTrade):
        return _("No trade")
    if isinstance(action, Agree):
        return _("Agree to the trade")
    if isinstance(action, Refuse):
        return _("Refuse the trade")
    if isinstance(action, Taunt):
        return _("Reveal Sir Wolfy to taunt")
    if isinstance(action, KeepHidden):
        return _("Reveal no Sir Wolfy")
    return str(action)


# -- decisions -------------------------------------------------------------------------

_DECISIONS: dict[Phase, str] = {
    Phase.LEAD: N_("{seat} chooses who attacks first"),
    Phase.ATTACK: N_("{seat} attacks: claim or pass"),
    Phase.RESPOND: N_("{seat} answers the attack: challenge, block or no action"),
    Phase.REPLY: N_("{seat} answers the block: challenge or no action"),
    Phase.PRIEST: N_("{seat} picks the card the Priest takes"),
    Phase.SUMMON: N_("{seat} names a card for the Summoner"),
    Phase.DECLARE: N_("{seat} declares how many of the named card they hold"),
    Phase.TRADE: N_("{seat} may trade a card with their teammate"),
    Phase.TRADE_ANSWER: N_("{seat} answers a trade offer"),
    Phase.WOLFY: N_("{seat} reveals a played Sir Wolfy, if any"),
}


def describe_decision(phase: Phase, seat: int | None, names: Names) -> str:
    """Who decides what now, in words ("Bot attacks: claim or pass")."""
    if phase is Phase.OVER:
        return _("The duel is over")
    text = _DECISIONS.get(phase)
    if text is None or seat is None:
        return _("Dealing…")
    return _(text).format(seat=seat_name(seat, names))

"""The story of a Cake of Doom game: every public event in words, and in the face-up
replay what each hidden move really held — the cards a hand took (a draw, a steal, a
pick) and a blind offer's cards before they opened.

A :class:`DoomStory` is the game's :class:`~cakeparty.tui.table.story.Story`: each step of
the history becomes :class:`Entry` values. No UI library here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import Action
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import Bribe
from cakeparty.core.games.cake_of_doom.cards import ALIENS
from cakeparty.core.games.cake_of_doom.state import DoomState
from cakeparty.core.i18n import _, ngettext
from cakeparty.tui.games.cake_of_doom.parts import (
    card_title,
    continent_title,
    seat_name,
    sort_title,
    target_title,
)
from cakeparty.tui.table.story import Story


@dataclass(frozen=True)
class Entry:
    """A public event, or (replay only) what a seat's hidden move really held."""

    event: Any
    seat: int | None = None  # the seat of a truth line
    what: str = ""  # "took" (cards into a hand) or "offered" (a blind offer)
    cards: tuple[str, ...] = ()  # the real cards


class DoomStory(Story):
    """Follows a game's history and turns it into :class:`Entry` values."""

    state: DoomState

    def entries(
        self, before: DoomState, after: DoomState, seat: int | None, action: Action
    ) -> list[Entry]:
        out: list[Entry] = []
        if not self.done and not getattr(self, "_began", False):
            self._began = True
            out.extend(Entry(e) for e in before.events)
        if self.face_up and isinstance(action, Bribe) and after.options.blind and seat is not None:
            out.append(Entry(None, seat, "offered", self.real(action.slots)))
        out.extend(Entry(e) for e in after.events[len(before.events) :])
        if self.face_up and before.hands and after.hands:
            for holder, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
                gained = tuple(sorted(set(new) - set(old)))
                if gained:
                    out.append(Entry(None, holder, "took", self.real(gained)))
        return out


def _cards(names: Sequence[str | None]) -> str:
    return ", ".join(card_title(n) for n in names)


def describe(event: Any, names: Sequence[str], *, blind: bool = False) -> str:
    """A public event in words (``blind``: offers are made face down)."""
    who = lambda seat: seat_name(seat, names)  # noqa: E731
    if isinstance(event, ev.GameSetUp):
        aliens = ", ".join(
            _("{name} is {alien}").format(name=who(s), alien=_(ALIENS[a].title))
            for s, a in enumerate(event.aliens)
        )
        return _("{aliens}. DOOM's favourite continent: {continent}. {name} begins.").format(
            aliens=aliens, continent=continent_title(event.favourite), name=who(event.first)
        )
    if isinstance(event, ev.MixChosen):
        return _("{name} opens with {cakes} cake and {mischief} mischief (8 cards)").format(
            name=who(event.seat), cakes=event.cakes, mischief=event.mischief
        )
    if isinstance(event, ev.RoundStarted):
        return _("— Round {n} —").format(n=event.round)
    if isinstance(event, ev.TurnStarted):
        return _("{name}'s turn").format(name=who(event.seat))
    if isinstance(event, ev.Grabbed):
        pile = _("cake") if event.pile == "cake" else _("mischief")
        if event.card is None:
            return _("{name} plays a Tractor Beam on the {pile} discard pile").format(
                name=who(event.seat), pile=pile
            )
        return _("{name} plays a Tractor Beam and takes {card} from the {pile} discards").format(
            name=who(event.seat), card=card_title(event.card), pile=pile
        )
    if isinstance(event, ev.Abducted):
        return _("{name} plays an Abduction on {victim}").format(
            name=who(event.seat), victim=who(event.victim)
        )
    if isinstance(event, ev.Stole):
        return _("{thief} takes a card from {victim}'s hand").format(
            thief=who(event.thief), victim=who(event.victim)
        )
    if isinstance(event, ev.Looked):
        return _("{name} looks at {victim}'s hand").format(
            name=who(event.seat), victim=who(event.victim)
        )
    if isinstance(event, ev.Picked):
        if event.card is None:
            return _("{name} takes a card").format(name=who(event.seat))
        return _("{name} takes {card}").format(name=who(event.seat), card=card_title(event.card))
    if isinstance(event, ev.Bribed):
        target = target_title(event.target)
        if any(c is None for c in event.cards) and not blind:
            return ngettext(
                "{name} bribes {target} with {n} card (needs {need})",
                "{name} bribes {target} with {n} cards (needs {need})",
                len(event.cards),
            ).format(name=who(event.seat), target=target, n=len(event.cards), need=event.need)
        if any(c is None for c in event.cards):
            return ngettext(
                "{name} bribes {target} with {n} face-down card (needs {need})",
                "{name} bribes {target} with {n} face-down cards (needs {need})",
                len(event.cards),
            ).format(name=who(event.seat), target=target, n=len(event.cards), need=event.need)
        return _("{name} bribes {target} with {cards} (needs {need})").format(
            name=who(event.seat), target=target, cards=_cards(event.cards), need=event.need
        )
    if isinstance(event, ev.OfferOpened):
        return _("The offer opens: {cards}, worth {value}").format(
            cards=_cards(event.cards), value=event.value
        )
    if isinstance(event, ev.Protected):
        return _("{name} holds two regions of one continent: no sabotage").format(
            name=who(event.seat)
        )
    if isinstance(event, ev.Sabotaged):
        return _("{name} sabotages with {card}").format(
            name=who(event.seat), card=sort_title(event.kind)
        )
    if isinstance(event, ev.NotSabotaged):
        return _("{name} does not sabotage").format(name=who(event.seat))
    if isinstance(event, ev.Shielded):
        return _("{name} cancels {saboteur}'s sabotage with a Force Field").format(
            name=who(event.seat), saboteur=who(event.saboteur)
        )
    if isinstance(event, ev.Removed):
        parts = [card_title(c) for c in event.cards]
        if event.freya:
            parts.append(_("Freya's +1"))
        return _("{name} removes {what}: the offer is worth {value}").format(
            name=who(event.seat), what=", ".join(parts) or _("nothing"), value=event.value
        )
    if isinstance(event, ev.BribeWon):
        line = _("{name} wins {target} with {value}").format(
            name=who(event.seat), target=target_title(event.target), value=event.value
        )
        if event.previous is not None:
            line += " " + ngettext(
                "from {owner}; {n} cake is eaten",
                "from {owner}; {n} cakes are eaten",
                event.eaten,
            ).format(owner=who(event.previous), n=event.eaten)
        return line
    if isinstance(event, ev.BribeFailed):
        return ngettext(
            "{name}'s bribe of {target} fails ({value} of {need}); {n} card goes back",
            "{name}'s bribe of {target} fails ({value} of {need}); {n} cards go back",
            event.returned,
        ).format(
            name=who(event.seat),
            target=target_title(event.target),
            value=event.value,
            need=event.need,
            n=event.returned,
        )
    if isinstance(event, ev.Passed):
        return _("{name} does not bribe").format(name=who(event.seat))
    if isinstance(event, ev.ControlBonus):
        return _("{name} takes the control bonus of {region}").format(
            name=who(event.seat), region=target_title(event.region)
        )
    if isinstance(event, ev.Drew):
        total = event.cakes + event.mischief
        return ngettext(
            "{name} draws {n} card: {cakes} cake, {mischief} mischief",
            "{name} draws {n} cards: {cakes} cake, {mischief} mischief",
            total,
        ).format(name=who(event.seat), n=total, cakes=event.cakes, mischief=event.mischief)
    if isinstance(event, ev.Discarded):
        if any(c is None for c in event.cards):
            return ngettext(
                "{name} discards {n} card", "{name} discards {n} cards", len(event.cards)
            ).format(name=who(event.seat), n=len(event.cards))
        return _("{name} discards {cards}").format(name=who(event.seat), cards=_cards(event.cards))
    if isinstance(event, ev.Refilled):
        pile = _("cake") if event.pile == "cake" else _("mischief")
        return ngettext(
            "The {pile} pile is refilled with {n} card",
            "The {pile} pile is refilled with {n} cards",
            event.count,
        ).format(pile=pile, n=event.count)
    if isinstance(event, ev.Cheated):
        return _("{name} cheated: {reason}").format(name=who(event.seat), reason=event.reason)
    if isinstance(event, ev.Forfeited):
        return _("{name} forfeits: {reason}").format(name=who(event.seat), reason=event.reason)
    if isinstance(event, ev.GameOver):
        return game_over_line(event, names)
    return str(event)


def game_over_line(event: ev.GameOver, names: Sequence[str]) -> str:
    """How the game ended, and who won."""
    winners = ", ".join(seat_name(s, names) for s in event.winners)
    if event.reason == "doom":
        return _("{name} wins DOOM and the game!").format(name=winners)
    if event.reason == "cheated":
        return _("The game ends on a cheat; {names} win").format(names=winners or "—")
    if event.reason == "forfeit":
        return _("The game ends on a forfeit; {names} win").format(names=winners or "—")
    if event.shared:
        return _("Round 10 is over: {names} share the win").format(names=winners)
    return _("Round 10 is over: {name} wins").format(name=winners)


def truth_line(entry: Entry, names: Sequence[str]) -> str:
    """What a hidden move really held: "  ↳ Ann takes Tiramisu, Space Teddy"."""
    who = seat_name(entry.seat, names)
    if entry.what == "offered":
        return _("  ↳ {name} offered {cards}").format(name=who, cards=_cards(entry.cards))
    return _("  ↳ {name} takes {cards}").format(name=who, cards=_cards(entry.cards))


def replay_lines(
    entries: Sequence[Entry], names: Sequence[str], *, blind: bool = False
) -> list[tuple[str, str]]:
    """A face-up replay as ``(kind, text)`` lines ("bout", "event", "truth", "end")."""
    lines: list[tuple[str, str]] = []
    for entry in entries:
        if entry.event is None:
            if entry.cards:
                lines.append(("truth", truth_line(entry, names)))
            continue
        event = entry.event
        if isinstance(event, ev.RoundStarted):
            kind = "bout"
        elif isinstance(event, ev.GameOver | ev.BribeWon | ev.Cheated):
            kind = "end"
        else:
            kind = "event"
        lines.append((kind, describe(event, names, blind=blind)))
    return lines

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
from cakeparty.core.games.cake_of_doom import text
from cakeparty.core.games.cake_of_doom.actions import Bribe
from cakeparty.core.games.cake_of_doom.cards import ALIENS
from cakeparty.core.games.cake_of_doom.state import DoomState
from cakeparty.core.i18n import _, ngettext
from cakeparty.tui.games.cake_of_doom.parts import (
    card_title,
    continent_title,
    seat_name,
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
    """A public event in words (``blind``: offers are made face down): the rules' own
    sentences, with the aliens told at the start and how the game ended at the end."""
    if isinstance(event, ev.GameSetUp):
        aliens = ", ".join(
            _("{name} is {alien}").format(name=seat_name(s, names), alien=_(ALIENS[a].title))
            for s, a in enumerate(event.aliens)
        )
        return _("{aliens}. DOOM's favourite continent: {continent}. {name} begins.").format(
            aliens=aliens,
            continent=continent_title(event.favourite),
            name=seat_name(event.first, names),
        )
    if isinstance(event, ev.Bribed) and blind and any(c is None for c in event.cards):
        return ngettext(
            "{name} bribes {target} with {n} face-down card (needs {need})",
            "{name} bribes {target} with {n} face-down cards (needs {need})",
            len(event.cards),
        ).format(
            name=seat_name(event.seat, names),
            target=target_title(event.target),
            n=len(event.cards),
            need=event.need,
        )
    if isinstance(event, ev.GameOver):
        return game_over_line(event, names)
    return text.describe(event, names)


def game_over_line(event: ev.GameOver, names: Sequence[str]) -> str:
    """How the game ended, and who won."""
    winners = ", ".join(seat_name(s, names) for s in event.winners)
    if event.reason == "doom":
        return _("{name} wins DOOM and the game!").format(name=winners)
    count = len(event.winners)
    if event.reason == "cheated":
        return ngettext(
            "The game ends on a cheat: {names} wins",
            "The game ends on a cheat: {names} win",
            count,
        ).format(names=winners or "—")
    if event.reason == "forfeit":
        return ngettext(
            "The game ends on a forfeit: {names} wins",
            "The game ends on a forfeit: {names} win",
            count,
        ).format(names=winners or "—")
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

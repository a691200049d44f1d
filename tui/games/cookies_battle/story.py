"""The story of a Cookies Battle game: every public event in order, and in the face-up
replay every hand as dealt and every sealed pass opened with its real cards.

A :class:`CookiesStory` is the game's :class:`~cakeparty.tui.table.story.Story`: each
step of the history becomes :class:`Entry` values. No UI library here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import Action, Committed, Shuffled
from cakeparty.core.games.cookies_battle.actions import HandOver, PassOn
from cakeparty.core.i18n import _
from cakeparty.tui.games.cookies_battle.parts import card_words, sort_key
from cakeparty.tui.table.story import Story


@dataclass(frozen=True)
class Entry:
    """A public event, or (replay only) a seat's real cards: its hand as dealt, or its
    opened pass."""

    event: Any
    seat: int | None = None  # the seat of an opened pass or a dealt hand
    choice: Action | None = None  # the opened pass (replay only)
    cards: tuple[str, ...] = ()  # the real cards of the pass, or of the hand dealt


def choice_slots(choice: Action) -> tuple[int, ...]:
    """The slots a pass names, in the order its words tell them."""
    if isinstance(choice, PassOn):
        return (choice.left, choice.right)
    if isinstance(choice, HandOver):
        return (choice.slot,)
    return ()


def _event_name(event: Any) -> str:
    return type(event).__name__


class CookiesStory(Story):
    """Follows a game's history and turns it into :class:`Entry` values."""

    def entries(self, before: Any, after: Any, seat: int | None, action: Action) -> list[Entry]:
        out: list[Entry] = []
        if not getattr(self, "_began", False):
            self._began = True
            out.extend(Entry(e) for e in before.events)
        if self.face_up and isinstance(action, Committed):
            for chooser, choice in action.choices:
                out.append(Entry(None, chooser, choice, self.real(choice_slots(choice))))
        new = after.events[len(before.events) :]
        out.extend(Entry(e) for e in new)
        if self.face_up and self._cards_shuffled(after, action):
            # a round's hands are named as it starts and filled by the cards' shuffle
            for holder, hand in enumerate(after.hands):
                out.append(Entry(None, holder, None, self.real(hand)))
        return out

    @staticmethod
    def _cards_shuffled(after: Any, action: Action) -> bool:
        """This step shuffled the playing cards (not the pieces or the markers)."""
        if not isinstance(action, Shuffled) or not action.slots:
            return False
        cards = after.card_slots
        return all(slot in cards for slot in action.slots) and any(after.hands)


#: The mark before a replay's line of real cards (under the event it belongs to).
OPENED = "  ↳ "


def opened_line(entry: Entry, names: Sequence[str]) -> str:
    """Real cards in words: a hand as dealt, or an opened pass."""
    who = names[entry.seat] if entry.seat is not None and 0 <= entry.seat < len(names) else "?"
    cards = [card_words(c) for c in entry.cards]
    choice = entry.choice
    if choice is None:
        ordered = sorted(entry.cards, key=sort_key)
        return OPENED + _("{name} is dealt {cards}").format(
            name=who, cards=", ".join(card_words(c) for c in ordered)
        )
    if isinstance(choice, PassOn) and len(cards) == 2:
        return OPENED + _("{name} passes {left} to the left, {right} to the right").format(
            name=who, left=cards[0], right=cards[1]
        )
    if isinstance(choice, HandOver) and cards:
        return OPENED + _("{name} gives {card}").format(name=who, card=cards[0])
    return f"{OPENED}{who}: {choice}"


def replay_lines(entries: Sequence[Entry], names: Sequence[str]) -> list[tuple[str, str]]:
    """A face-up replay as ``(kind, text)`` lines ("bout", "event", "truth", "end"): every
    event with what it hid, every hand as dealt and every pass opened."""
    from cakeparty.core.games.cookies_battle import events as ev
    from cakeparty.core.games.cookies_battle.text import describe

    lines: list[tuple[str, str]] = []
    for entry in entries:
        if entry.event is None:
            lines.append(("truth", opened_line(entry, names)))
            continue
        event = entry.event
        if isinstance(event, ev.RoundStarted):
            kind = "bout"
        elif isinstance(event, ev.TrickWon | ev.GameOver | ev.Cheated):
            kind = "end"
        else:
            kind = "event"
        lines.append((kind, describe(event, names)))
    return lines

"""The story of a Cake Master game: every public event in order, and in the face-up
replay every sealed choice opened with its real cards.

A :class:`MasterStory` is the game's :class:`~cakeparty.tui.table.story.Story`: each step
of the history becomes :class:`Entry` values. No UI library here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import Action, Committed
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.state import ROUNDS, TURNS, MasterState, Phase
from cakeparty.core.games.cake_master.text import card_words, describe, seat_name
from cakeparty.core.i18n import _
from cakeparty.tui.table.story import Story


@dataclass(frozen=True)
class Entry:
    """A public event, or (replay only) one seat's opened choice with its real cards."""

    event: Any
    seat: int | None = None  # the seat of an opened choice
    choice: Action | None = None  # the opened choice (replay only)
    cards: tuple[str, ...] = ()  # the real cards of the choice's slots, in its order
    phase: Phase | None = None  # the step the choice was made in
    #: the round and the turn in it (1–4) of the step that made it; 0 before any
    round: int = 0
    turn: int = 0


def choice_slots(choice: Action) -> tuple[int, ...]:
    """The slots a choice names, in the order its words tell them."""
    if isinstance(choice, PassCards):
        return (choice.left, choice.right)
    if isinstance(choice, Keep):
        return (choice.slot,)
    if isinstance(choice, Place | Exchange):
        return choice.slots
    return ()


class MasterStory(Story):
    """Follows a game's history and turns it into :class:`Entry` values."""

    state: MasterState

    def entries(
        self, before: MasterState, after: MasterState, seat: int | None, action: Action
    ) -> list[Entry]:
        out: list[Entry] = []
        if not self.done and not getattr(self, "_began", False):
            # what the game told before its first step (the first round, its customers)
            self._began = True
            out.extend(Entry(e) for e in before.events)
        when = {"round": before.round, "turn": before.turn_in_round}
        if self.face_up and isinstance(action, Committed):
            for chooser, choice in action.choices:
                out.append(
                    Entry(
                        None,
                        chooser,
                        choice,
                        self.real(choice_slots(choice)),
                        before.phase,
                        **when,
                    )
                )
        # the state keeps every event of the game: what this step added is the tail
        out.extend(Entry(e, **when) for e in after.events[len(before.events) :])
        return out


def opened_line(entry: Entry, names: Sequence[str]) -> str:
    """An opened choice in words, with its real cards: "Ann gives Pink · … to the left"."""
    who = seat_name(entry.seat if entry.seat is not None else -1, names)
    choice, cards = entry.choice, [card_words(c) for c in entry.cards]
    if isinstance(choice, PassCards) and len(cards) == 2:
        return _("  ↳ {name} gives {left} to the left, {right} to the right").format(
            name=who, left=cards[0], right=cards[1]
        )
    if isinstance(choice, Keep) and cards:
        return _("  ↳ {name} keeps {card}").format(name=who, card=cards[0])
    if isinstance(choice, Exchange):
        return _("  ↳ {name} exchanges {cards}").format(name=who, cards="; ".join(cards))
    if isinstance(choice, Place):
        return _("  ↳ {name} places {cards}").format(
            name=who,
            cards="; ".join(
                _("{card} on cake {cake}, quarter {quarter}").format(
                    card=card, cake=cake + 1, quarter=quarter + 1
                )
                for card, cake, quarter in zip(cards, choice.cakes, choice.quarters, strict=True)
            ),
        )
    return f"  ↳ {who}: {choice}"


#: What a turn's own story begins with (its choices opened, its passes, placements and
#: exchanges): the turn's heading goes before the first of them.
TURN_EVENTS = (ev.CardsPassed, ev.Exchanged, ev.Placed)


def turn_heading(entry: Entry) -> str:
    """The heading of a turn in the replay: "Round 2/3 · turn 3/4"."""
    return _("Round {n}/{rounds} · turn {turn}/{turns}").format(
        n=entry.round, rounds=ROUNDS, turn=entry.turn, turns=TURNS
    )


def replay_lines(entries: Sequence[Entry], names: Sequence[str]) -> list[tuple[str, str]]:
    """A face-up replay as ``(kind, text)`` lines ("bout", "turn", "event", "truth",
    "end"): each turn under its heading (its round and its turn in the round)."""
    lines: list[tuple[str, str]] = []
    headed = (0, 0)  # the round and turn of the last heading
    for entry in entries:
        starts = entry.choice is not None or isinstance(entry.event, TURN_EVENTS)
        if starts and entry.turn and (entry.round, entry.turn) != headed:
            headed = (entry.round, entry.turn)
            lines.append(("turn", turn_heading(entry)))
        if entry.choice is not None:
            if isinstance(entry.choice, Place):
                continue  # the placement is told by its public event just after
            lines.append(("truth", opened_line(entry, names)))
            continue
        event = entry.event
        if isinstance(event, ev.RoundStarted):
            kind = "bout"
        elif isinstance(event, ev.RoundScored | ev.GameOver):
            kind = "end"
        else:
            kind = "event"
        lines.append((kind, describe(event, names)))
    return lines

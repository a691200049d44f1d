"""The story of a duel: every public event in order, and after the duel every card face up.

A :class:`Chronicle` is the duel's :class:`~cakeparty.tui.table.story.Story`: it turns
each step of the history into :class:`Entry` values (the bout it belongs to, and in a
replay the real cards of every facedown play, from the dealer's records the shared story
keeps). No UI library here: the screens render :class:`Entry` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import Action, LocalDealer, Revealed
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.state import DuelState, Phase
from cakeparty.core.games.cake_duel.text import card_list, describe, seat_name
from cakeparty.core.i18n import _
from cakeparty.tui.table.story import Story


@dataclass(frozen=True)
class Entry:
    """One event of the duel, the bout it belongs to, and in a replay the real cards."""

    bout: int
    event: Any
    #: the real cards of the slots the event names (replay only); of a duel won, its
    #: specials (in a replay, or where every seat was shown them as they were drawn)
    cards: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()  # the hands just dealt (replay, BoutStarted)
    #: the duel's turn count as the bout began (BoutStarted): a screen that tells the story
    #: later than it happened (a game continued, a seat resumed) counts the bout's turns
    #: from it, not from the turn it tells it at
    turn: int = 0


class Chronicle(Story):
    """Follows a duel's history and turns it into :class:`Entry` values."""

    state: DuelState
    #: the specials of the duel in play as shown to every seat when they were drawn (the
    #: learning option): no secret, so told at the duel's end even where no card is known
    shown_specials: tuple[str, ...] = ()

    # -- events ----------------------------------------------------------------------------

    def entries(
        self, before: DuelState, after: DuelState, seat: int | None, action: Action
    ) -> list[Entry]:
        if isinstance(action, Revealed) and action.to is None and before.phase is Phase.SPECIALS:
            self.shown_specials = tuple(sorted(c for c in action.cards if c is not None))
        # the state keeps every event of the match: what this step added is the tail
        events = after.events[len(before.events) :]
        return [self._entry(before, after, e) for e in events]

    def _entry(self, before: DuelState, after: DuelState, event: Any) -> Entry:
        if isinstance(event, ev.BoutStarted):
            hands = tuple(self.real(h) for h in after.hands) if self.face_up else ()
            return Entry(after.bout, event, hands=hands, turn=after.turn)
        bout = before.bout
        if not self.face_up:
            if isinstance(event, ev.DuelWon):
                return Entry(bout, event, cards=self.shown_specials)
            return Entry(bout, event)
        if isinstance(event, ev.Claimed | ev.Blocked | ev.Took):
            return Entry(bout, event, cards=self.real(event.slots))
        if isinstance(event, ev.Drew):
            drawn = [s for s in after.hands[event.seat] if s not in before.hands[event.seat]]
            return Entry(bout, event, cards=self.real(drawn))
        if isinstance(event, ev.Looked):
            return Entry(bout, event, cards=self.real(after.hands[event.target]))
        if isinstance(event, ev.DuelWon):
            # the specials of the duel just won: every slot but those left out of it
            unused = set(before.unused)
            slots = [s for s in range(len(before.box)) if s not in unused]
            specials = sorted(c for c in self.real(slots) if CARDS[c].special)
            return Entry(bout, event, cards=tuple(specials))
        return Entry(bout, event)


def hidden_specials(state: DuelState, dealer: LocalDealer) -> tuple[str, ...]:
    """The specials shuffled into this duel's deck, as the dealer knows them (after a duel,
    when nothing is secret any more)."""
    cards = (dealer.card(slot) for slot in state.game_slots())
    return tuple(sorted(c for c in cards if CARDS[c].special))


def duel_specials(replay: Sequence[Entry]) -> list[tuple[str, ...]]:
    """The hidden specials of each duel won so far, in order, from a face-up replay's
    entries (a tournament plays several duels, each with specials of its own)."""
    return [e.cards for e in replay if isinstance(e.event, ev.DuelWon)]


# -- the replay ----------------------------------------------------------------------------

#: How the replay sets its lines under an event apart; layout, not words.
_INDENT = "  "
_UNDER = "  ↳ "


def replay_lines(entries: Sequence[Entry], names: Sequence[str]) -> list[tuple[str, str]]:
    """A face-up replay as ``(kind, text)`` lines: kind is "bout", "event", "truth",
    "lie" or "end", so a screen can style them."""
    lines: list[tuple[str, str]] = []
    for entry in entries:
        event = entry.event
        if isinstance(event, ev.BoutStarted):
            lines.append(("bout", describe(event, names)))
            for seat, hand in enumerate(entry.hands):
                lines.append(
                    (
                        "truth",
                        _INDENT
                        + _("{seat} is dealt {cards}").format(
                            seat=seat_name(seat, names), cards=card_list(hand)
                        ),
                    )
                )
            continue
        kind = "end" if isinstance(event, ev.BoutWon | ev.DuelWon) else "event"
        lines.append((kind, describe(event, names)))
        if isinstance(event, ev.Claimed | ev.Blocked) and entry.cards:
            true = is_truthful(event.name, entry.cards)
            really = _("really {cards}: true") if true else _("really {cards}: a bluff")
            lines.append(
                ("truth" if true else "lie", _UNDER + really.format(cards=card_list(entry.cards)))
            )
        elif isinstance(event, ev.Took) and entry.cards:
            taken = _("taken: {cards}").format(cards=card_list(entry.cards))
            lines.append(("truth", _UNDER + taken))
        elif isinstance(event, ev.Drew) and entry.cards:
            drawn = _("drawn: {cards}").format(cards=card_list(entry.cards))
            lines.append(("truth", _UNDER + drawn))
        elif isinstance(event, ev.Looked):
            if entry.cards:
                seen = _("the hand seen: {cards}").format(cards=card_list(entry.cards))
            else:
                seen = _("the hand seen: no cards")
            lines.append(("truth", _UNDER + seen))
    return lines

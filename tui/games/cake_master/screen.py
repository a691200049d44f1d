"""The Cake Master screen: your cakes and the customers above, your hand below, the log.

The screen drives a :class:`~cakeparty.tui.table.session.TableSession` (here a
:class:`~cakeparty.tui.table.local.LocalTable`). It shows the view of the seat at the
keyboard and builds each sealed choice key by key — pass (or keep) a card, or place the
three cards of the turn on their cakes and quarters — showing what the choice would score
before it is committed; what it finally sends is always one of the seat's legal choices.
Bots decide after a short visible delay, hands hide between people in hot-seat play, a
round's scoring opens a breakdown and the game ends on the final table (solo: the rating).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from cakeparty.core import Action
from cakeparty.core.games.cake_master import events as ev
from cakeparty.core.games.cake_master.actions import Exchange, Keep, PassCards, Place
from cakeparty.core.games.cake_master.cards import CUSTOMERS
from cakeparty.core.games.cake_master.state import Phase
from cakeparty.core.games.cake_master.text import (
    describe,
    final_lines,
    rating_title,
    round_breakdown,
)
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.core.i18n import N_, _
from cakeparty.tui.games.cake_master.lines import (
    STEP_WORDS,
    cake_rows,
    cakes_with_marks,
    free_quarters,
    keepable,
    placed_line,
    prompt_line,
    title_line,
)
from cakeparty.tui.games.cake_master.parts import (
    Marks,
    cakes_text,
    customers_text,
    hand_lines,
)
from cakeparty.tui.games.cake_master.story import Entry, replay_lines
from cakeparty.tui.messages import ActionChosen, GameEnded
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.table.screen import TableScreen, table_bindings
from cakeparty.tui.table.session import TableSession, away_seats
from cakeparty.tui.widgets import FittedText, LogView, StatusBar
from cakeparty.tui.widgets.fitted import cut_rows
from cakeparty.tui.widgets.footer import KeyFooter

#: The smallest terminal the screen is laid out for: below it, a notice says so.
MIN_SIZE = (80, 24)

#: The end-of-game box in the game's own words.
END_TITLE = N_("The bakery closes")

#: Key actions that only make sense while a person chooses, by the steps they serve.
STEP_ACTIONS: dict[str, tuple[Phase, ...]] = {
    "give_left": (Phase.PASS,),
    "keep": (Phase.KEEP, Phase.KEEP_BACK),
    "cake": (Phase.PLACE,),
    "exchange": (Phase.PLACE,),
    "commit": (Phase.PASS, Phase.KEEP, Phase.KEEP_BACK, Phase.PLACE),
    "undo": (Phase.PASS, Phase.PLACE),
    "move": (Phase.PASS, Phase.KEEP, Phase.KEEP_BACK, Phase.PLACE),
    "number": (Phase.PASS, Phase.KEEP, Phase.KEEP_BACK, Phase.PLACE),
    "quarter": (Phase.PLACE,),
    "back": (Phase.PLACE,),
    "other_cake": (Phase.PLACE,),
}


class MasterScreen(TableScreen):
    """A local Cake Master game against bots, hot-seat between people, or solo."""

    TOO_SMALL_ID = "cm-too-small"

    CSS_PATH = "screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", _("Card"), key_display="←→", id="cm.left"),
        Binding("right", "move(1)", _("Card"), show=False, id="cm.right"),
        Binding("1", "number(1)", show=False, id="cm.1"),
        Binding("2", "number(2)", show=False, id="cm.2"),
        Binding("3", "number(3)", show=False, id="cm.3"),
        Binding("4", "number(4)", show=False, id="cm.4"),
        Binding("l", "give_left", _("Give left"), id="cm.give_left"),
        Binding("r", "give_right", _("Give right"), id="cm.give_right"),
        Binding("r", "replay", _("Replay"), id="cm.replay"),
        Binding("k", "keep", _("Keep"), id="cm.keep"),
        Binding("a", "cake(0)", _("Cake…"), key_display="a/b/c", id="cm.cake_a"),
        Binding("b", "cake(1)", _("Cake B"), show=False, id="cm.cake_b"),
        Binding("c", "cake(2)", _("Cake C"), show=False, id="cm.cake_c"),
        # a cake chosen, the number keys choose its quarter (else a card of the hand)
        Binding("1", "quarter(1)", _("Quarter"), key_display="1–4", id="cm.quarter_1"),
        Binding("2", "quarter(2)", show=False, id="cm.quarter_2"),
        Binding("3", "quarter(3)", show=False, id="cm.quarter_3"),
        Binding("4", "quarter(4)", show=False, id="cm.quarter_4"),
        Binding("escape,backspace,u", "back", _("Back"), key_display="esc", id="cm.back"),
        # ... and another cake's key moves the card there (not shown: the footer has no room)
        Binding("a", "other_cake(0)", show=False, id="cm.other_cake_a"),
        Binding("b", "other_cake(1)", show=False, id="cm.other_cake_b"),
        Binding("c", "other_cake(2)", show=False, id="cm.other_cake_c"),
        Binding("x", "exchange", _("Exchange"), id="cm.exchange"),
        Binding("backspace,u", "undo", _("Undo"), key_display="u", id="cm.undo"),
        Binding("enter", "commit", _("Commit"), id="cm.commit"),
        Binding("o", "others", _("Cakes of…"), id="cm.others"),
        *table_bindings("cm"),
    ]

    def __init__(self, setup: GameSetup | TableSession, **kwargs: Any) -> None:
        """``setup``: the game to start, or a game already set up (:class:`TableScreen`)."""
        super().__init__(setup, **kwargs)
        self.table = session = self.session
        # every choice is sealed, so a bot's shows nothing: the bots of one step share
        # the delay, and a step waits about as long at any table
        bots = sum(1 for seat in range(session.players) if session.is_bot(seat))
        self.bot_delay = self.delay_setting / max(1, bots)
        self.shown: int | None = None  # whose cakes the cakes panel shows (None: the viewer's)
        self.cursor = 0
        self.marks = Marks()
        self._seen: dict[int, set[int]] = {}  # per seat: its hand at its last choice this turn

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="cm-too-small", markup=False)
        yield Static(id="cm-title", markup=False)
        with Horizontal(id="cm-top"):
            cakes = Static(id="cm-cakes", markup=False)
            cakes.border_title = Content(_("Your cakes"))
            yield cakes
            customers = FittedText(id="cm-customers")
            customers.border_title = Content(_("Customers"))
            yield customers
        with Vertical(id="cm-hand") as hand:
            hand.border_title = Content(_("Your hand"))
            yield Static(id="cm-hand-cards", markup=False)
        yield Static(id="cm-prompt", markup=False)
        every = Static(id="cm-table", markup=False)
        every.border_title = Content(_("Every cake"))
        yield every
        log = LogView(id="cm-log")
        log.border_title = Content(_("Log"))
        yield log
        yield StatusBar(id="cm-status")
        yield from self.compose_bar()
        yield KeyFooter()

    def view(self) -> MasterView:
        view: MasterView = self.table.view(self.viewer)
        return view

    # -- drawing ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Draw everything from the viewer's view."""
        view = self.view()
        names = self.table.names
        self.query_one("#cm-title", Static).update(self.title_text(view))
        shown = self.shown if self.shown is not None else self.viewer
        if shown is None:
            shown = self.table.to_act if self.table.to_act is not None else 0
        cakes = self.query_one("#cm-cakes", Static)
        if shown == self.viewer:
            title = _("Your cakes — {name}").format(name=names[shown])
        else:
            title = _("{name}'s cakes").format(name=names[shown])
            if self.table.away(shown):
                title += " " + _("(offline)")
        cakes.border_title = Content(title)
        marked, focus, seat_cakes = self._cakes_drawn(view, shown)
        open_customers = [c for c in view.customer_names if c in CUSTOMERS]  # face up
        cakes.update(cakes_text(seat_cakes, open_customers, marked, focus, solo=view.solo))
        customers = self.query_one("#cm-customers", FittedText)
        customers.show(lambda width, _rows: customers_text(view, width))
        left = view.customers_left
        customers.border_subtitle = Content(_("{n} in the deck").format(n=left))
        hand = self.query_one("#cm-hand", Vertical)
        cards = self.query_one("#cm-hand-cards", Static)
        if self.viewer is None:
            hand.border_title = Content(_("Hands are hidden"))
            cards.update(_("Hands are hidden until the keyboard is passed"))
        else:
            hand.border_title = Content(_("Your hand — {name}").format(name=names[self.viewer]))
            if view.hand:
                cards.update(
                    hand_lines(
                        view,
                        self.cursor,
                        self.marks_shown(view, self.marks),
                        names,
                        keys_live=self.awaiting is not None,
                        seen=self._seen.get(self.viewer),
                        width=cards.content_size.width or None,
                    )
                )
            else:
                cards.update(Text(_("No cards in hand"), style="dim"))
        self.query_one("#cm-prompt", Static).update(self.prompt_text(view))
        if self.has_class("-tall"):
            every = self.query_one("#cm-table", Static)
            rows = cake_rows(names, view, away_seats(self.table))
            every.update(cut_rows(rows, every.content_size.width or 76))
        self.status.show(*self.status_text(view))
        self.refresh_bindings()

    def tall(self, height: int) -> bool:
        """Are there rows to spare for every seat's cakes at once? Beyond the 24 rows the
        screen needs: a row a seat, the line under them and the panel's edges."""
        return not self.view().solo and height >= self.MIN_SIZE[1] + self.table.players + 3

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(self.tall(event.size.height), "-tall")
        super().on_resize(event)

    def _cakes_drawn(
        self, view: MasterView, seat: int
    ) -> tuple[dict[int, dict[int, str]], int | None, list[tuple[str | None, ...]]]:
        """The cakes of ``seat``, with this step's placements so far (or the viewer's sealed
        one) drawn on the viewer's: the quarters to highlight, the cake being chosen, the
        cakes."""
        if seat != self.viewer:
            return {}, None, list(view.seat_cakes(seat))
        marks = self.marks_shown(view, self.marks)
        marked: dict[int, dict[int, str]] = {}
        for cake, quarter in marks.spots.values():
            marked.setdefault(cake, {})[quarter] = ""
        focus = marks.cake
        if focus is not None:
            for quarter in free_quarters(view, marks, focus):
                marked.setdefault(focus, {})[quarter] = f"{quarter + 1}?"
        return marked, focus, cakes_with_marks(view, marks)

    def sealed_step(self, view: MasterView) -> Hashable:
        """Every step of a seat is a sealed choice; its hand changes at every reveal."""
        return (view.seat, view.phase, view.round, view.turn, view.hand)

    def title_text(self, view: MasterView) -> Text:
        width = max(self.size.width, MIN_SIZE[0])
        return title_line(view, self.table.names, width, away_seats(self.table))

    def status_text(self, view: MasterView) -> tuple[str, str]:
        """The status line and its tone ("you", "wait" or "end")."""
        names = self.table.names
        if self.table.over:
            return _("The game is over · r replay face up · d new game · e results · q quit"), "end"
        step = _(STEP_WORDS[view.phase]) if view.phase in STEP_WORDS else ""
        if self.awaiting is not None:
            if self.sharing:  # people take turns at this keyboard: whose choice it is
                return _("{name}: your choice — {step}").format(
                    name=names[self.awaiting], step=step
                ), "you"
            # one person here, named on the hand: the line keeps its room for the step
            # (and a networked seat's clock before it)
            return _("Your choice — {step}").format(step=step), "you"
        seat = self.table.to_act
        if seat is None:
            if step:  # a networked seat whose choice is sealed: the others still choose
                return _("{step} · waiting for the others' sealed choices").format(
                    step=step
                ), "wait"
            return _("The cards are being dealt"), "wait"
        return _("{step} · waiting for {name}").format(step=step, name=names[seat]), "wait"

    def prompt_text(self, view: MasterView) -> Text:
        """What the keys do now, and what the choice so far would score."""
        if self.awaiting is None or self.viewer is None or not view.hand:
            return Text("")
        slot = self._current_slot(view)
        return prompt_line(view, self.marks, self.table.names, slot, self._placement())

    # -- the story ---------------------------------------------------------------------------

    def _tell(self, entries: list[Entry]) -> None:
        names = self.table.names
        view = self.table.view(None)
        for entry in entries:
            event = entry.event
            if event is None:
                continue
            style = ""
            if isinstance(event, ev.RoundStarted):
                style = "bold reverse"
            elif isinstance(event, ev.RoundScored | ev.GameOver):
                style = "bold"
            elif isinstance(event, ev.Placed):
                # a line each: every seat's placement of the turn stays in sight
                self.log_view.add(placed_line(event, names), "dim")
                continue
            self.log_view.add(describe(event, names), style)
            if isinstance(event, ev.RoundScored):
                result = event.result
                lines = round_breakdown(result, names, solo=view.solo)
                title = _("Round {n} is scored").format(n=result.round)
                self._notices.append((title, lines))

    # -- the game moving on ----------------------------------------------------------------

    def await_player(self, seat: int) -> None:
        self.awaiting = seat
        self.marks.clear()
        view = self.view()
        kept = keepable(view)
        self.cursor = kept[0] if view.phase is Phase.KEEP_BACK and kept else 0
        self.shown = None
        self.refresh_view()

    def note_move(self, seat: int, action: Action, table: TableSession) -> None:
        """The person's hand as it makes a choice this turn: the cards in it later are
        new (a placement ends the turn: the next deals a new hand)."""
        if isinstance(action, Place):
            self._seen.pop(seat, None)
        else:
            self._seen[seat] = set(table.view(seat).hand)

    def perform(self, seat: int, action: Action, by_bot: bool = False) -> None:
        """``seat`` seals ``action``; the log and table follow, then the game moves on."""
        self.awaiting = None
        self.marks.clear()
        if not by_bot:
            self.note_decision(seat, action)
            self.seal(seat, Marks.of(action))
        entries = self.table.act(seat, action)
        self.post_message(ActionChosen(seat, action, by_bot))
        self._tell(entries)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def pass_reason(self, seat: int) -> str:
        phase = self.table.view(None).phase
        return _("{name} makes a sealed choice: {step}").format(
            name=self.table.names[seat], step=_(STEP_WORDS.get(phase, phase.value))
        )

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        outcome = self.table.outcome
        assert outcome is not None
        self.post_message(GameEnded(outcome))
        names = self.table.names
        view = self.table.view(None)
        over = next((e for e in reversed(view.events) if isinstance(e, ev.GameOver)), None)
        winners = over.winners if over is not None else ()
        if view.solo:
            headline = _("Your rating: {rating}").format(rating=rating_title(view.met))
        elif over is not None:
            headline = describe(over, names)
        else:
            headline = _("The game is over")
        lines = final_lines(view, names)
        won = None
        humans = self.table.humans
        if not view.solo and (len(humans) == 1 or not self.table.hotseat):
            won = humans[0] in winners
        self.show_end(lambda: EndScreen(headline, lines, won, title=_(END_TITLE)))

    # -- building a choice -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "give_right":
            return self._in_step(Phase.PASS)
        if action == "replay":
            return self.table.over
        if action == "new_game":
            return self.table.over
        if action == "others":
            return self.table.players > 1
        phases = STEP_ACTIONS.get(action)
        if phases is not None:
            if not any(self._in_step(p) for p in phases):
                return False
            marks = self.marks
            choosing_quarter = marks.cake is not None
            if action in ("quarter", "back", "other_cake"):
                return choosing_quarter
            if action in ("number", "cake", "undo", "exchange") and choosing_quarter:
                return False  # the quarter's keys now, and esc (or u) back to the cakes
            if action == "undo":  # only once there is something to undo
                passed = marks.left is not None or marks.right is not None
                return passed or bool(marks.order or marks.exchange)
            if action == "exchange":
                return self.view().exchanges_left > 0 and not marks.spots
            return True
        return super().check_action(action, parameters)

    def _in_step(self, phase: Phase) -> bool:
        if self.awaiting is None or self.table.over or self.viewer is None:
            return False
        return self.view().phase is phase

    def _current_slot(self, view: MasterView) -> int:
        return view.hand[min(self.cursor, len(view.hand) - 1)]

    def _free(self, view: MasterView, cake: int) -> list[int]:
        return free_quarters(view, self.marks, cake)

    def _placement(self) -> Place | None:
        """The legal placement the marks make, or ``None``."""
        if len(self.marks.spots) != 3:
            return None
        return self._legal_match(Place.of(dict(self.marks.spots)))

    def _legal_match(self, wanted: Action) -> Any:
        """``wanted`` as it is in the legal list, or ``None`` when it is not there."""
        return next((a for a in self._legal() if a == wanted), None)

    def action_move(self, step: int) -> None:
        hand = self.view().hand
        if hand:
            self.cursor = (self.cursor + step) % len(hand)
            self.refresh_view()

    def action_number(self, number: int) -> None:
        if number <= len(self.view().hand):
            self.cursor = number - 1
            self.refresh_view()

    def action_quarter(self, number: int) -> None:
        """The quarter of the cake chosen for the card."""
        if self.marks.cake is not None:
            self._place_on(self.view(), self.marks.cake, number - 1)

    def action_back(self) -> None:
        """Back from choosing the quarter to choosing the cake."""
        self.marks.cake = None
        self.refresh_view()

    def action_give_left(self) -> None:
        self._give("left")

    def action_give_right(self) -> None:
        self._give("right")

    def _give(self, side: str) -> None:
        view = self.view()
        if view.phase is not Phase.PASS or not view.hand:
            return
        slot = self._current_slot(view)
        marks = self.marks
        if side == "left":
            marks.right = None if marks.right == slot else marks.right
            marks.left = slot
        else:
            marks.left = None if marks.left == slot else marks.left
            marks.right = slot
        # move on to a card not chosen yet
        free = [i for i, s in enumerate(view.hand) if s not in (marks.left, marks.right)]
        if free and (marks.left is None or marks.right is None):
            self.cursor = free[0]
        self.refresh_view()

    def action_keep(self) -> None:
        view = self.view()
        if view.phase not in (Phase.KEEP, Phase.KEEP_BACK) or not view.hand:
            return
        chosen = self._legal_match(Keep(self._current_slot(view)))
        if chosen is None:
            self.notify(_("Keep one of the cards received."), severity="warning")
            return
        self.perform(self.awaiting, chosen)  # type: ignore[arg-type]

    def action_cake(self, cake: int) -> None:
        view = self.view()
        if view.phase is not Phase.PLACE or len(self.marks.spots) >= 3 or self.marks.exchange:
            return
        self.shown = None  # the card goes on your own cakes (o may have shown another's)
        if self._card_to_place(view) is not None:
            if self._free(view, cake):
                self.marks.cake = cake
            else:
                self.notify(_("Cake {cake} is full.").format(cake=cake + 1), severity="warning")
        self.refresh_view()

    def action_other_cake(self, cake: int) -> None:
        """Choosing the quarter: the card goes to another cake."""
        self.action_cake(cake)

    def _card_to_place(self, view: MasterView) -> int | None:
        """The card under the cursor, or ``None`` (said) when it is placed already."""
        slot = self._current_slot(view)
        if slot in self.marks.spots:
            self.notify(_("That card is placed already: pick another, or u to undo."))
            return None
        return slot

    def _place_on(self, view: MasterView, cake: int, quarter: int) -> None:
        if quarter not in self._free(view, cake):
            self.notify(
                _("Quarter {q} of cake {cake} is taken.").format(q=quarter + 1, cake=cake + 1),
                severity="warning",
            )
            return
        slot = self._card_to_place(view)  # the cursor may have moved since the cake
        if slot is None:
            return
        self.marks.spots[slot] = (cake, quarter)
        self.marks.order.append(slot)
        self.marks.cake = None
        free = [i for i, s in enumerate(view.hand) if s not in self.marks.spots]
        if free and len(self.marks.spots) < 3:
            self.cursor = free[0]
        self.refresh_view()

    def action_exchange(self) -> None:
        view = self.view()
        marks = self.marks
        if view.phase is not Phase.PLACE or view.exchanges_left <= 0 or marks.spots:
            return
        if marks.cake is not None:  # a card on its way to a cake: not one to exchange
            return
        slot = self._current_slot(view)
        marks.exchange ^= {slot}
        self.refresh_view()

    def action_undo(self) -> None:
        marks = self.marks
        if marks.cake is not None:
            marks.cake = None
        elif marks.order:
            slot = marks.order.pop()
            del marks.spots[slot]
            self.cursor = self.view().hand.index(slot)
        elif marks.right is not None:
            marks.right = None
        elif marks.left is not None:
            marks.left = None
        elif marks.exchange:
            marks.exchange.clear()
        self.refresh_view()

    def action_commit(self) -> None:
        view = self.view()
        seat = self.awaiting
        if seat is None:
            return
        chosen: Action | None = None
        if view.phase is Phase.PASS:
            if self.marks.left is None or self.marks.right is None:
                self.notify(_("Choose a card for the left (l) and one for the right (r)."))
                return
            chosen = self._legal_match(PassCards(self.marks.left, self.marks.right))
        elif view.phase in (Phase.KEEP, Phase.KEEP_BACK):
            self.action_keep()
            return
        elif view.phase is Phase.PLACE:
            if self.marks.exchange:
                chosen = self._legal_match(Exchange(tuple(sorted(self.marks.exchange))))
            elif len(self.marks.spots) < 3:
                self.notify(
                    _("Place all 3 cards first ({n} placed).").format(n=len(self.marks.spots))
                )
                return
            else:
                chosen = self._placement()
        if chosen is None:
            self.notify(_("That is not a legal choice now."), severity="warning")
            return
        self.perform(seat, chosen)

    # -- keys: everything else -------------------------------------------------------------

    def action_others(self) -> None:
        """Show the next player's cakes (public); back to your own after the last."""
        players = self.table.players
        base = self.viewer if self.viewer is not None else 0
        current = self.shown if self.shown is not None else base
        nxt = (current + 1) % players
        self.shown = None if nxt == base else nxt
        self.refresh_view()

    def replay_text(self, replay: Any, names: Sequence[str]) -> list[Any]:
        return replay_lines(replay, names)

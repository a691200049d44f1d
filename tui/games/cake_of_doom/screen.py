"""The Cake of Doom screen: Earth's regions and DOOM on the left, the players and the log
on the right, the bribe on the table and your hand below.

The screen drives a :class:`~cakeparty.tui.table.session.TableSession` (here a
:class:`~cakeparty.tui.table.local.LocalTable`; :mod:`.netscreen` adapts it to a networked
room). It shows the view of the seat at the keyboard and offers only what that view's
``legal`` holds: grab and steal cards and the bribe on your turn — an offer is built card
by card, its value with every bonus shown against what it must reach before it is made —,
the sabotage and the Force Field answer, the removal, the draw and the discard. Bots
decide after a short visible delay, hands hide between people in hot-seat play, and the
game ends on the final standings.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from cakeparty.core import Action
from cakeparty.core.games.cake_of_doom import events as ev
from cakeparty.core.games.cake_of_doom.actions import (
    Abduct,
    Bribe,
    Discard,
    ForceField,
    Grab,
    NoBribe,
    NoForceField,
    NoSabotage,
    Sabotage,
)
from cakeparty.core.games.cake_of_doom.cards import DOOM, SABOTAGES, card
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.text import card_list, final_lines
from cakeparty.core.games.cake_of_doom.view import DoomView
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cake_of_doom.help import reference_entries
from cakeparty.tui.games.cake_of_doom.lines import (
    decision_line,
    prompt_text,
    step_words,
    title_line,
)
from cakeparty.tui.games.cake_of_doom.parts import (
    Marks,
    Sort,
    builder_line,
    card_title,
    discard_tops,
    hand_lines,
    hand_sorts,
    move_label,
    offer_lines,
    offer_worth,
    players_text,
    regions_text,
    requirement,
    seat_name,
    sort_counts,
    sort_title,
    target_title,
)
from cakeparty.tui.games.cake_of_doom.story import Entry, describe, replay_lines
from cakeparty.tui.messages import ActionChosen, GameEnded
from cakeparty.tui.screens.dialogs import Choice
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.table.screen import TableScreen, table_bindings
from cakeparty.tui.table.session import TableSession, away_seats
from cakeparty.tui.widgets import FittedText, LogView, SpareRows, StatusBar
from cakeparty.tui.widgets.footer import KeyFooter

#: The end-of-game box in the game's own words.
END_TITLE = N_("Earth has chosen")

#: Bots without a delay play for at most this long (seconds) between two drawings.
BOT_BURST = 0.05

#: Steps whose choice is a list that opens by itself.
LISTED = (Phase.MIX, Phase.REMOVE, Phase.PICK, Phase.DRAW, Phase.ROB, Phase.PEEK)

#: Key actions offered when one of these moves is legal.
KEY_MOVES: dict[str, tuple[type[Action], ...]] = {
    "grab": (Grab,),
    "abduct": (Abduct,),
    "bribe": (Bribe,),
    "pass_bribe": (NoBribe,),
    "mark_discard": (Discard,),
    "sabotage": (Sabotage,),
    "no_sabotage": (NoSabotage,),
    "force_field": (ForceField,),
    "no_force_field": (NoForceField,),
}


class DoomScreen(TableScreen):
    """A local Cake of Doom game against bots, or hot-seat between people."""

    TOO_SMALL_ID = "doom-too-small"

    CSS_PATH = "screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1)", _("Card"), key_display="←→", id="doom.left"),
        Binding("right,l", "move(1)", _("Card"), show=False, id="doom.right"),
        Binding("space,plus", "add", _("Add"), key_display="space", id="doom.add"),
        Binding("space,plus", "mark", _("Mark"), key_display="space", id="doom.mark"),
        Binding("minus,backspace", "take_back", _("Take back"), key_display="-", id="doom.take"),
        Binding("minus,backspace", "unmark", _("Unmark"), key_display="-", id="doom.unmark"),
        # short words: with every move of a turn open, the footer keeps the chat key at 80
        Binding("t", "grab", _("Tractor"), id="doom.grab"),
        Binding("a", "abduct", _("Abduct"), id="doom.abduct"),
        Binding("b", "bribe", _("Bribe"), id="doom.bribe"),
        Binding("p", "pass_bribe", _("Pass"), id="doom.pass"),
        Binding("x", "mark_discard", _("Discard"), id="doom.mark_discard"),
        Binding("s", "sabotage", _("Sabotage"), id="doom.sabotage"),
        Binding("n", "no_sabotage", _("No sabotage"), id="doom.no_sabotage"),
        Binding("f", "force_field", _("Force Field"), id="doom.force_field"),
        Binding("n", "no_force_field", _("Let it stand"), id="doom.no_force_field"),
        Binding("enter", "offer", _("Offer"), id="doom.offer"),
        Binding("enter", "discard", _("Discard"), id="doom.discard"),
        Binding("enter", "choose", _("Choose"), id="doom.choose"),
        Binding("escape", "drop", _("Drop"), id="doom.drop"),
        Binding("escape", "stop_marking", _("Stop"), id="doom.stop"),
        Binding("r", "replay", _("Replay"), id="doom.replay"),
        *table_bindings("doom"),
    ]

    def __init__(self, setup: GameSetup | TableSession, **kwargs: Any) -> None:
        """``setup``: the game to start, or a game already set up (:class:`TableScreen`)."""
        super().__init__(setup, **kwargs)
        self.table = self.session
        self.cursor = 0
        self.marks = Marks()
        self.prompted = False  # this decision's list has opened by itself once
        self._discards: list[str] = []  # sorts marked to discard, still to go
        self._seen: dict[int, Counter[str]] = {}  # per seat: its hand at its last move
        self._hand_told: Counter[str] | None = None  # the viewer's hand as last told (_tell_hand)
        self._legal_for: tuple[int, int, int] | None = None
        self._legal_moves: tuple[Action, ...] = ()

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="doom-too-small", markup=False)
        yield Static(id="doom-title", markup=False)
        with Horizontal(id="doom-top"):
            with Vertical(id="doom-left"):
                regions = FittedText(id="doom-regions")  # drawn for the rows it has
                regions.border_title = Content(_("Earth"))
                yield regions
                # a taller terminal's rows: the log's, not Earth's; the aliens and the
                # mischief cards in short
                yield SpareRows(lambda: reference_entries(self.view().aliens), _("Cards"))
            with Vertical(id="doom-right"):
                players = Static(id="doom-players", markup=False)
                players.border_title = Content(_("Players"))
                players.border_subtitle = Content(_("▯ cards ⚑ regions"))
                yield players
                log = LogView(id="doom-log")
                log.border_title = Content(_("Log"))
                yield log
        yield Static(id="doom-offer", markup=False)
        with Vertical(id="doom-hand") as hand:
            hand.border_title = Content(_("Your hand"))
            yield Static(id="doom-hand-cards", markup=False)
        yield StatusBar(id="doom-status")
        yield from self.compose_bar()
        yield KeyFooter()

    def view(self) -> DoomView:
        view: DoomView = self.table.view(self.viewer)
        return view

    def sorts(self, view: DoomView | None = None) -> list[Sort]:
        return hand_sorts(view or self.view())

    # -- drawing ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Draw everything from the viewer's view."""
        view = self.view()
        names = self.table.names
        self.query_one("#doom-title", Static).update(title_line(view, names))
        regions = self.query_one("#doom-regions", FittedText)
        regions.border_subtitle = Content(discard_tops(view))
        target = view.offer.target if view.offer is not None else self.marks.target
        regions.show(
            lambda width, rows: regions_text(
                view, names, max(20, width or 40), target, rows or None
            )
        )
        players = self.query_one("#doom-players", Static)
        active = view.to_act[0] if view.to_act else None
        width = max(20, players.content_size.width or 32)
        players.update(players_text(view, names, active, width, away_seats(self.table)))
        self.status.show(*self.status_text(view))
        self.refresh_hand(view)

    def refresh_hand(self, view: DoomView | None = None, *, keys: bool = True) -> None:
        """Draw the offer line and the hand (all a key on the hand changes); ``keys``: the
        footer's keys too (a move along the hand leaves them as they are)."""
        view = view or self.view()
        names = self.table.names
        offer = self.query_one("#doom-offer", Static)
        text = self.offer_text(view)
        offer.styles.height = max(2, len(text.plain.splitlines()))  # three: an offer's cards
        offer.update(text)
        hand = self.query_one("#doom-hand", Vertical)
        cards = self.query_one("#doom-hand-cards", Static)
        if self.viewer is None:
            hand.border_title = Content(_("Hands are hidden"))
            cards.update(_("Hands are hidden until the keyboard is passed"))
        else:
            title = ngettext(
                "Your hand — {name} ({n} card)", "Your hand — {name} ({n} cards)", len(view.hand)
            ).format(name=names[self.viewer], n=len(view.hand))
            sorts = self.sorts(view)
            new = self._new_cards(sorts)
            if new:
                title += " · " + _("* new since your last move")
            hand.border_title = Content(title)
            self.cursor = min(self.cursor, max(0, len(sorts) - 1))
            cards.update(
                hand_lines(
                    view,
                    sorts,
                    self.cursor,
                    self.marks,
                    max(30, cards.content_size.width or 76),
                    live=self.awaiting is not None,
                    new=new,
                )
            )
            hand.border_subtitle = Content(self._cursor_detail(sorts))
        if keys:
            self.refresh_bindings()

    def _legal(self) -> tuple[Action, ...]:
        """The legal moves of the seat deciding, worked out once per state of the game."""
        if self.awaiting is None:
            return ()
        key = (self.awaiting, self.table.view(None).state_id, len(self.table.story))
        if self._legal_for != key:
            self._legal_for, self._legal_moves = key, self.table.legal(self.awaiting)
        return self._legal_moves

    def _new_cards(self, sorts: Sequence[Sort]) -> Counter[str] | None:
        """The cards come into the viewer's hand since its last move, by sort."""
        if self.viewer is None or self.viewer not in self._seen:
            return None
        return sort_counts(sorts) - self._seen[self.viewer]

    def _cursor_detail(self, sorts: Sequence[Sort]) -> str:
        """The card under the cursor in a few words (what a mischief card does)."""
        if not sorts or self.awaiting is None:
            return ""
        group = sorts[min(self.cursor, len(sorts) - 1)]
        from cakeparty.core.games.cake_of_doom.cards import MISCHIEF_EFFECTS, SORTS

        if group.sort in MISCHIEF_EFFECTS:
            return f"{sort_title(group.sort)}: {_(MISCHIEF_EFFECTS[group.sort])}"
        continent = SORTS[group.sort][1]
        if continent is None:
            return _("{card}: worth 1").format(card=sort_title(group.sort))
        from cakeparty.tui.games.cake_of_doom.parts import continent_title

        return _("{card}: worth 1, +1 on {continent}").format(
            card=sort_title(group.sort), continent=continent_title(continent)
        )

    def offer_text(self, view: DoomView) -> Text:
        """The lines above the hand: the offer being built or on the table, and what the
        keys do now. An offer whose cards do not fit a line takes the next one: the keys'
        line when it is being built (the footer has them), a third line for an offer on
        the table when the screen has a row to spare (else its cards are cut)."""
        width = self.query_one("#doom-offer", Static).content_size.width or 78
        if self.marks.mode == "bribe" and self.viewer is not None:
            sorts = self.sorts(view)
            built = builder_line(view, self.marks, sorts)
            if built.cell_len > width:
                return builder_line(view, self.marks, sorts, width, rows=2)
            return Text("\n").join([built, Text(prompt_text(view, "bribe"), style="dim")])
        if view.offer is not None:
            rows = 2 if self._spare_row(view) else 1
            return offer_lines(view, self.table.names, width, rows)
        if self.awaiting is not None:
            step = step_words(view)
            task = view.task
            if self.marks.mode == "discard" and task is not None and task.phase is Phase.PLAY:
                step = _("discard cards of your choice, face up")
            first = Text(step[:1].upper() + step[1:], style="bold")
            if self.marks.mode == "discard" and view.task is not None:
                first.append("  " + _("(marked: {n})").format(n=self.marks.count), style="bold")
            return Text("\n").join([first, Text(prompt_text(view, self.marks.mode), style="dim")])
        return Text("")

    def _spare_row(self, view: DoomView) -> bool:
        """Whether the screen has a row beyond what it needs: Earth's panel (the regions,
        DOOM and its edges), the title, two offer lines, the hand, the status, the footer
        and a chat line (a networked game)."""
        chat = 1 if getattr(self, "CHAT_ID", None) else 0  # a networked game's screen
        needed = len(view.regions) + 3 + 1 + 2 + 4 + 1 + 1 + chat
        return self.size.height > needed

    def status_text(self, view: DoomView) -> tuple[str, str]:
        """The status line and its tone ("you", "wait" or "end")."""
        names = self.table.names
        if self.table.over:
            return _("The game is over · r replay face up · d new game · e results · q quit"), "end"
        if self.awaiting is not None:
            return _("{name}: your decision — {step}").format(
                name=names[self.awaiting], step=step_words(view)
            ), "you"
        seat = self.table.to_act
        if seat is None:
            return _("The cards are moving"), "wait"
        return _("Waiting: {decision}").format(decision=decision_line(view, seat, names)), "wait"

    # -- the story ---------------------------------------------------------------------------

    def _tell(self, entries: list[Entry]) -> None:
        names = self.table.names
        blind = self.table.view(None).options.blind
        for entry in entries:
            event = entry.event
            if event is None:
                continue
            style = ""
            if isinstance(event, ev.RoundStarted):
                style = "bold reverse"
            elif isinstance(event, ev.BribeWon | ev.GameOver | ev.Cheated):
                style = "bold"
            elif isinstance(event, ev.Sabotaged | ev.Shielded | ev.Removed | ev.BribeFailed):
                style = "italic"
            elif isinstance(event, ev.TurnStarted | ev.Drew | ev.NotSabotaged | ev.Refilled):
                style = "dim"
            self.log_view.add(describe(event, names, blind=blind), style)
            if self._moves_hand(event):  # what it moved, said under it
                self._tell_hand(entries)
        self._tell_hand(entries)  # anything else (cards back from a failed bribe)

    def _moves_hand(self, event: Any) -> bool:
        """Whether ``event`` moves a card into or out of the viewer's hand unseen."""
        viewer = self.viewer
        if isinstance(event, ev.Drew | ev.Grabbed):
            return event.seat == viewer
        if isinstance(event, ev.Stole):
            return viewer in (event.thief, event.victim)
        if isinstance(event, ev.Picked):
            return viewer in (event.seat, event.owner)
        return False

    def _tell_hand(self, entries: list[Entry]) -> None:
        """The cards that came into the viewer's hand (a draw, a steal, a pick) and those a
        steal took from it, since the hand was last told, in lines of this screen's log
        alone: the rules let the thief and the victim know the card. Not at a shared
        keyboard, whose log all share."""
        if self.table.hotseat or self.viewer is None:
            self._hand_told = None
            return
        now = Counter(c for c in self.table.view(self.viewer).hand_cards if c is not None)
        before, self._hand_told = self._hand_told, now
        if before is None:  # the story so far, told at the start: the hand is as dealt
            return
        gained, lost = now - before, before - now
        if gained:
            self.log_view.add(
                _("  ↳ into your hand: {cards}").format(cards=card_list(sorted(gained.elements()))),
                "italic",
            )
        taken = any(
            (isinstance(e.event, ev.Stole) and e.event.victim == self.viewer)
            or (isinstance(e.event, ev.Picked) and e.event.owner == self.viewer)
            for e in entries
        )
        if lost and taken:
            self.log_view.add(
                _("  ↳ out of your hand: {cards}").format(cards=card_list(sorted(lost.elements()))),
                "italic",
            )

    # -- the game moving on ----------------------------------------------------------------

    def bot_at_once(self, seat: int) -> bool:
        """Bots with no delay and no search make their moves at once, one after the other."""
        table = self.table
        if self.bot_delay > 0 or not isinstance(table, LocalTable) or table.thinks(seat):
            return False
        self._bots_at_once(table)
        return True

    def _bots_at_once(self, table: LocalTable) -> None:
        """Bots without a delay: their moves one after the other, the table drawn once they
        are made (or every few hundredths of a second, so the screen stays alive)."""
        start = time.monotonic()
        while not table.over and time.monotonic() - start < BOT_BURST:
            seat = table.to_act
            if seat is None or not table.is_bot(seat):
                break
            action = self.bot_move_now(seat)
            entries = table.act(seat, action)
            self.post_message(ActionChosen(seat, action, True))
            self._tell(entries)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def await_player(self, seat: int) -> None:
        """The viewer decides: its keys go live; a list step opens its list, a discard
        starts marking."""
        self.awaiting = seat
        view = self.view()
        phase = view.task.phase if view.task is not None else view.phase
        if phase in (Phase.DISCARD, Phase.PLAY) and self._discards:
            self._discard_next()
            return
        self._discards.clear()
        if phase is Phase.DISCARD:
            if self.marks.mode != "discard":
                self.marks.clear()
                self.marks.mode = "discard"
        elif phase is not Phase.PLAY or self.marks.mode != "bribe":
            self.marks.clear()
        self.refresh_view()
        if phase in LISTED and not self.prompted:
            self.prompted = True
            self.action_choose()

    def note_move(self, seat: int, action: Action, table: TableSession) -> None:
        """The person's hand as it makes a move: the cards in it later are new."""
        self._seen[seat] = sort_counts(hand_sorts(table.view(seat)))

    def perform(self, seat: int, action: Action, by_bot: bool = False) -> None:
        """``seat`` makes ``action``; the log and table follow, then the game moves on."""
        self.awaiting = None
        self.prompted = False
        if not by_bot:
            self.marks.clear()
            self.note_decision(seat, action)
        entries = self.table.act(seat, action)
        self.post_message(ActionChosen(seat, action, by_bot))
        self._tell(entries)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def hide_hands(self) -> None:
        super().hide_hands()
        self.marks.clear()

    def pass_reason(self, seat: int) -> str:
        return decision_line(self.table.view(None), seat, self.table.names)

    def ending(self) -> tuple[str, list[str], tuple[int, ...]]:
        """The headline, the standings and the winners."""
        view = self.table.view(None)
        over = next((e for e in reversed(view.events) if isinstance(e, ev.GameOver)), None)
        outcome = self.table.outcome
        winners = over.winners if over is not None else (outcome.winners if outcome else ())
        headline = describe(over, self.table.names) if over is not None else _("The game is over")
        return headline, final_lines(view, self.table.names), tuple(winners)

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        outcome = self.table.outcome
        assert outcome is not None
        self.post_message(GameEnded(outcome))
        headline, lines, winners = self.ending()
        won = None
        humans = self.table.humans
        if len(humans) == 1 or not self.table.hotseat:
            won = humans[0] in winners
        self.show_end(lambda: EndScreen(headline, lines, won, title=_(END_TITLE)))

    # -- which keys are live ---------------------------------------------------------------

    def _phase(self) -> Phase | None:
        if self.awaiting is None or self.table.over or self.viewer is None:
            return None
        task = self.view().task
        return task.phase if task is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("replay", "new_game"):
            return self.table.over
        phase = self._phase()
        mode = self.marks.mode
        if action in KEY_MOVES:
            if phase is None or mode is not None:
                return False
            return any(isinstance(a, KEY_MOVES[action]) for a in self._legal())
        if action == "move":
            return phase is not None
        # the same keys build an offer and mark cards to discard, named for each
        if action in ("add", "take_back"):
            return phase is not None and mode == "bribe"
        if action in ("mark", "unmark"):
            return phase is not None and mode == "discard"
        if action == "offer":
            return phase is Phase.PLAY and mode == "bribe"
        if action == "drop":
            return phase is Phase.PLAY and mode == "bribe"
        if action == "stop_marking":
            return phase is Phase.PLAY and mode == "discard"
        if action == "discard":
            return phase is Phase.DISCARD or (phase is Phase.PLAY and mode == "discard")
        if action == "choose":
            return phase in LISTED
        return super().check_action(action, parameters)

    # -- keys: the hand --------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        sorts = self.sorts()
        if sorts:
            self.cursor = (self.cursor + step) % len(sorts)
            self.refresh_hand(keys=False)

    def _under_cursor(self) -> Sort | None:
        sorts = self.sorts()
        return sorts[min(self.cursor, len(sorts) - 1)] if sorts else None

    def action_add(self) -> None:
        """One more card of the sort under the cursor; when that sort is used up (or is no
        cake in an offer), the next sort that has a card left."""
        sorts = self.sorts()
        if not sorts or self.marks.mode is None:
            return
        if self.marks.mode == "discard":
            task = self.view().task
            if task is not None and task.phase is Phase.DISCARD and self.marks.count >= task.count:
                self.notify(
                    ngettext(
                        "Discard {n} card: take one back first (-).",
                        "Discard {n} cards: take one back first (-).",
                        task.count,
                    ).format(n=task.count)
                )
                return
        start = min(self.cursor, len(sorts) - 1)
        for step in range(len(sorts)):
            index = (start + step) % len(sorts)
            group = sorts[index]
            if self.marks.mode == "bribe" and not group.cake:
                continue
            chosen = self.marks.picked.get(group.sort, 0)
            if chosen < len(group.slots):
                self.cursor = index
                self.marks.picked[group.sort] = chosen + 1
                self.refresh_hand(keys=False)
                return
        self.notify(
            _("Every cake card you hold is in the offer already.")
            if self.marks.mode == "bribe"
            else _("Every card you hold is marked already.")
        )

    def action_take_back(self) -> None:
        group = self._under_cursor()
        if group is None or not self.marks.picked.get(group.sort):
            return
        self.marks.picked[group.sort] -= 1
        if not self.marks.picked[group.sort]:
            del self.marks.picked[group.sort]
        self.refresh_hand(keys=False)

    # -- keys: the turn --------------------------------------------------------------------

    def action_grab(self) -> None:
        view = self.view()
        grabs = [a for a in self._legal() if isinstance(a, Grab)]
        if not grabs:
            return
        choices = []
        for grab in grabs:
            pile = view.cake_discard if grab.pile == "cake" else view.mischief_discard
            top = card_title(view.card(pile[-1])) if pile else "—"
            label = (
                _("the cake discard pile: {card}")
                if grab.pile == "cake"
                else _("the mischief discard pile: {card}")
            ).format(card=top)
            choices.append(Choice(label, grab))
        self._choose(_("Tractor Beam: take the top card of…"), choices, self._act)

    def action_abduct(self) -> None:
        view = self.view()
        abducts = [a for a in self._legal() if isinstance(a, Abduct)]
        if not abducts:
            return
        choices = [
            Choice(
                self.table.names[a.victim],
                a,
                ngettext("{n} card", "{n} cards", view.hand_sizes[a.victim]).format(
                    n=view.hand_sizes[a.victim]
                ),
            )
            for a in abducts
        ]
        self._choose(
            _("Abduction: a random card from whom?"),
            choices,
            self._act,
            _("Zix looks at the hand and chooses the card.") if self._is_zix(view) else "",
        )

    def _is_zix(self, view: DoomView) -> bool:
        return view.seat is not None and view.aliens[view.seat] == "zix"

    def _targets(self, view: DoomView) -> list[tuple[str, int]]:
        """The targets a legal offer exists for, with what each needs."""
        assert view.seat is not None
        order = [r.name for r in view.regions] + [DOOM]
        offered = {a.target for a in self._legal() if isinstance(a, Bribe)}
        out = []
        for name in order:
            need = requirement(view, view.seat, name)
            if name in offered and need is not None:
                out.append((name, need))
        return out

    def action_bribe(self) -> None:
        view = self.view()
        targets = self._targets(view)
        if not targets:
            self.notify(_("Your cake cannot reach any target now."), severity="warning")
            return
        seat = view.seat
        assert seat is not None
        cakes = [view.card(s) for s in view.cake_hand]
        choices = []
        for name, need in targets:
            _worth, _plus, best = offer_worth(view, seat, name, [c for c in cakes if c])
            detail = _("needs {need}, you reach {best}").format(need=need, best=best)
            region = next((r for r in view.regions if r.name == name), None)
            if region is not None and region.holder is not None:
                detail += " · " + _("held by {name}").format(
                    name=seat_name(region.holder, self.table.names)
                )
            if region is not None and region.bonus:
                detail += " · " + _(region.bonus)
            choices.append(Choice(target_title(name), name, detail))

        def chosen(target: str) -> None:
            self.marks.clear()
            self.marks.mode = "bribe"
            self.marks.target = target
            sorts = self.sorts()
            first = next((i for i, g in enumerate(sorts) if g.cake), 0)
            self.cursor = first
            self.refresh_view()

        self._choose(_("Bribe which target?"), choices, chosen)

    def _matching(self, kind: type[Action], picked: Counter[str]) -> Action | None:
        """The legal move of ``kind`` whose cards are the sorts ``picked`` (for a bribe,
        on the target chosen)."""
        view = self.view()
        for action in self._legal():
            if not isinstance(action, kind):
                continue
            if isinstance(action, Bribe) and action.target != self.marks.target:
                continue
            slots = action.slots  # type: ignore[attr-defined]
            sorts = Counter(card(view.card(s) or "").sort for s in slots if view.card(s))
            if sorts == picked and len(slots) == sum(picked.values()):
                return action
        if kind is Bribe and self.marks.target is not None and view.seat is not None:
            # a hand of very many sorts has its offers listed by value only: the offer of
            # the same values, card for card, is the same offer
            return self._same_values(view, picked)
        return None

    def _same_values(self, view: DoomView, picked: Counter[str]) -> Action | None:
        target = self.marks.target
        assert target is not None and view.seat is not None
        chosen = [view.card(s) for s in self.marks.slots(self.sorts(view))]
        worth, _plus, _total = offer_worth(view, view.seat, target, [n for n in chosen if n])
        wanted = Counter(w for _n, w in worth)
        for action in self._legal():
            if isinstance(action, Bribe) and action.target == target:
                names = [view.card(s) for s in action.slots]
                got, _p, _t = offer_worth(view, view.seat, target, [n for n in names if n])
                if Counter(w for _n, w in got) == wanted:
                    return action
        return None

    def action_offer(self) -> None:
        if self.marks.mode != "bribe" or self.awaiting is None:
            return
        view = self.view()
        target = self.marks.target
        assert target is not None and view.seat is not None
        if not self.marks.count:
            self.notify(_("Add cake cards to the offer first (space)."), severity="warning")
            return
        need = requirement(view, view.seat, target)
        names = [view.card(s) for s in self.marks.slots(self.sorts(view))]
        _worth, _plus, total = offer_worth(view, view.seat, target, [n for n in names if n])
        if need is not None and total < need:
            self.notify(
                _("The offer is worth {value}; {target} needs {need}.").format(
                    value=total, target=target_title(target), need=need
                ),
                severity="warning",
            )
            return
        action = self._matching(Bribe, Counter(self.marks.picked))
        if action is None:
            self.notify(_("That is not a legal offer now."), severity="warning")
            return
        self.perform(self.awaiting, action)

    def action_drop(self) -> None:
        self.marks.clear()
        self.refresh_view()

    def action_mark(self) -> None:
        self.action_add()

    def action_unmark(self) -> None:
        self.action_take_back()

    def action_stop_marking(self) -> None:
        self.action_drop()

    def action_pass_bribe(self) -> None:
        self._act(NoBribe())

    def action_mark_discard(self) -> None:
        """Start marking cards to discard of the player's own accord (enter discards them)."""
        self.marks.clear()
        self.marks.mode = "discard"
        self.refresh_view()

    def action_sabotage(self) -> None:
        sabotages = [a for a in self._legal() if isinstance(a, Sabotage)]
        if not sabotages:
            return
        effects = {
            kind: (
                _("half the offer's value") if amount is None else _("−{n} value").format(n=amount)
            )
            for kind, amount in SABOTAGES.items()
        }
        choices = [Choice(sort_title(a.kind), a, effects[a.kind]) for a in sabotages]
        self._choose(
            _("Sabotage with…"),
            choices,
            self._act,
            _("You choose what it removes once it stands."),
        )

    def action_no_sabotage(self) -> None:
        self._act(NoSabotage())

    def action_force_field(self) -> None:
        fields = [a for a in self._legal() if isinstance(a, ForceField)]
        if fields:
            self._act(fields[0])

    def action_no_force_field(self) -> None:
        self._act(NoForceField())

    def action_discard(self) -> None:
        view = self.view()
        task = view.task
        if task is None or self.awaiting is None:
            return
        count = self.marks.count
        if task.phase is Phase.PLAY:  # of the player's own accord: any number, one at least
            if not count:
                self.notify(_("Mark the cards to discard first (space)."), severity="warning")
                return
        elif count > task.count or (not task.upto and count != task.count):
            self.notify(
                ngettext(
                    "Mark {n} card to discard (marked: {marked}).",
                    "Mark {n} cards to discard (marked: {marked}).",
                    task.count,
                ).format(n=task.count, marked=count),
                severity="warning",
            )
            return
        discards = [a for a in self._legal() if isinstance(a, Discard)]
        if not task.upto and all(len(a.slots) == 1 for a in discards):
            # down to the hand limit, and of the player's own accord, the rules take one card
            # a move: the cards marked go one after the other
            self._discards = [s for s, n in self.marks.picked.items() for _n in range(n)]
            self._discard_next()
            return
        action = self._matching(Discard, Counter(self.marks.picked))
        if action is None:
            self.notify(_("That is not a legal discard now."), severity="warning")
            return
        self.perform(self.awaiting, action)

    def _discard_next(self) -> None:
        """The next card marked to discard goes."""
        seat = self.awaiting
        if seat is None or not self._discards:
            return
        sort = self._discards.pop(0)
        action = self._matching(Discard, Counter({sort: 1}))
        if action is None:
            self._discards.clear()
            self.notify(_("That is not a legal discard now."), severity="warning")
            self.refresh_view()
            return
        self.perform(seat, action)

    # -- keys: the lists -------------------------------------------------------------------

    def action_choose(self) -> None:
        """This step's choices in a list (the opening mix, a removal, a pick, a draw, a
        player to steal from or look at)."""
        view = self.view()
        legal = list(self._legal())
        if not legal:
            return
        choices = [Choice(move_label(view, a, self.table.names), a) for a in legal]
        task = view.task
        title = step_words(view)
        title = title[:1].upper() + title[1:]
        if task is not None and task.phase is Phase.REMOVE and view.offer is not None:
            prompt = _("The offer is worth {value}; it needs {need}.").format(
                value=view.offer.value, need=view.offer.need
            )
        else:
            # the list opens over the log: what just happened stays in sight
            prompt = self.log_view.plain[-1] if self.log_view.plain else ""
        self._choose(title, choices, self._act, prompt)

    # -- keys: everything else -------------------------------------------------------------

    def replay_text(self, replay: Any, names: Sequence[str]) -> list[Any]:
        return replay_lines(replay, names, blind=self.table.view(None).options.blind)

"""The Cookies Battle screen: the trick on the table by seat, the log beside it, your hand
by suit below with your pieces and markers.

The screen drives a :class:`~cakeparty.tui.table.session.TableSession` (here a
:class:`~cakeparty.tui.table.local.LocalTable`; :mod:`.netscreen` adapts it to a
networked room). It shows the view of the seat at the keyboard and offers only what that
view's ``legal`` allows: the pass (a card left and right, or the duel's one card), a card
to play (the playable ones bright), a marker to use with its target and piece, a
Defense, the piece a Swap's target gives.

A marker window never stalls a game: it asks a person only while they hold a marker,
passes by itself after :data:`WINDOW_WAIT` seconds (or at once on enter or n), and the
w key turns which windows ask: all, only those answering a marker (where a Defense goes;
the default at a shared keyboard, which passes for every window asked), or none (markers
are then used on one's own turn); the windows and a marker's lists are :mod:`.windows`'.
Bots decide
after a short visible delay, hands hide between people in hot-seat play, and the game
ends on the scoring breakdown: each assembly, the tummy ache and the winner.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.timer import Timer
from textual.widgets import Static

from cakeparty.core import Action
from cakeparty.core.games.cookies_battle.actions import (
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.cards import (
    MARKER_TITLES,
    ROUNDS,
    dealt_to,
)
from cakeparty.core.games.cookies_battle.scoring import seat_score
from cakeparty.core.games.cookies_battle.text import assembly_words
from cakeparty.core.i18n import N_, _
from cakeparty.tui.games.cookies_battle import events_text
from cakeparty.tui.games.cookies_battle.help import reference_entries
from cakeparty.tui.games.cookies_battle.lines import (
    ALL,
    ANSWERS,
    DEFENSE,
    PASS,
    PLAY,
    SWAP,
    WINDOW,
    decision_line,
    dispute_line,
    piles_line,
    prompt_line,
    step_of,
    step_words,
    title_line,
)
from cakeparty.tui.games.cookies_battle.parts import (
    Marks,
    card_words,
    hand_lines,
    hand_order,
    pieces_summary,
    seats_height,
    seats_text,
)
from cakeparty.tui.games.cookies_battle.scores import breakdown_lines, headline, ranking_lines
from cakeparty.tui.games.cookies_battle.story import Entry, replay_lines
from cakeparty.tui.games.cookies_battle.windows import MarkerChoices
from cakeparty.tui.messages import ActionChosen, GameEnded
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.table.screen import TableScreen, table_bindings
from cakeparty.tui.table.session import TableSession, away_seats
from cakeparty.tui.widgets import LogView, SpareRows, StatusBar
from cakeparty.tui.widgets.footer import KeyFooter

#: Seconds a marker window waits for a person before it passes by itself.
WINDOW_WAIT = 4.0

#: Seconds a hint stays up (the same hint again meanwhile adds no copy: the app's notify).
HINT_SECONDS = 3.0

#: The end-of-game box in the game's own words.
END_TITLE = N_("The cookies are counted")

#: The table panel's width inside its border (the seat lines are cut to it).
TABLE_WIDTH = 50


class CookiesScreen(MarkerChoices, TableScreen):
    """A local Cookies Battle game against bots, or hot-seat between people."""

    TOO_SMALL_ID = "cb-too-small"

    CSS_PATH = "screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", _("Card"), key_display="←→", id="cb.left"),
        Binding("right", "move(1)", _("Card"), show=False, id="cb.right"),
        Binding("home", "move_to(0)", show=False, id="cb.home"),
        Binding("end", "move_to(-1)", show=False, id="cb.end"),
        Binding("enter,space", "play", _("Play"), key_display="⏎", id="cb.play"),
        Binding("enter,space", "give", _("Give"), key_display="⏎", id="cb.give"),
        Binding("enter", "pass_cards", _("Pass cards"), key_display="⏎", id="cb.pass"),
        Binding("enter,space", "no_marker", _("Let pass"), key_display="⏎", id="cb.let"),
        Binding("l", "give_left", _("Left"), id="cb.give_left"),
        Binding("r", "give_right", _("Right"), id="cb.give_right"),
        Binding("r", "replay", _("Replay"), id="cb.replay"),
        Binding("u,backspace", "undo", _("Undo"), key_display="u", id="cb.undo"),
        Binding("m", "marker", _("Marker"), id="cb.marker"),
        Binding("n", "no_marker", _("No marker"), show=False, id="cb.no_marker"),
        Binding("g", "give_piece", _("Give piece"), id="cb.give_piece"),
        Binding("w", "windows", _("Windows"), id="cb.windows"),
        *table_bindings("cb"),
    ]

    def __init__(
        self, setup: GameSetup | TableSession, *, window_wait: float | None = None, **kwargs: Any
    ) -> None:
        """``setup``: the game to start, or a game already set up (:class:`TableScreen`);
        ``window_wait``: the seconds a marker window waits for a person (default
        :data:`WINDOW_WAIT`)."""
        super().__init__(setup, **kwargs)
        self.table = self.session
        self.window_wait = WINDOW_WAIT if window_wait is None else window_wait
        # which marker windows ask the people holding a marker (w turns it): at a shared
        # keyboard each one asked passes the keyboard, so there only the answers to a marker
        self.windows = ANSWERS if self.sharing else ALL
        self.cursor = 0
        self._cursor_of: int | None = None  # whose hand the cursor last stood in
        self.marks = Marks()
        self._timer: Timer | None = None  # the open marker window's own passing
        self._drawn_step = ""  # the step the keys serve, as last drawn ("": none)
        self._drawn_markers = False  # a marker may be used, as last drawn

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="cb-too-small", markup=False)
        yield Static(id="cb-title", markup=False)
        with Horizontal(id="cb-top"):
            with Vertical(id="cb-left"):
                with Vertical(id="cb-table") as table:
                    table.border_title = Content(_("Table"))
                    seats = Static(id="cb-seats", markup=False)
                    seats.styles.max_height = seats_height(self.table.players)
                    yield seats
                    yield Static(id="cb-dispute", markup=False)
                # a taller terminal's rows: the log's, not the table's; the markers in short
                yield SpareRows(lambda: reference_entries(self.view().options), _("Cards"))
                with Vertical(id="cb-hand") as hand:
                    hand.border_title = Content(_("Your hand"))
                    yield Static(id="cb-hand-cards", markup=False)
                    yield Static(id="cb-own", markup=False)
            log = LogView(id="cb-log")
            log.border_title = Content(_("Log"))
            yield log
        yield Static(id="cb-prompt", markup=False)
        yield StatusBar(id="cb-status")
        yield from self.compose_bar()
        yield KeyFooter()

    def view(self) -> Any:
        return self.table.view(self.viewer)

    # -- drawing ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Draw everything from the viewer's view."""
        view = self.view()
        names = self.table.names
        self.query_one("#cb-title", Static).update(title_line(view, names))
        self.query_one("#cb-seats", Static).update(
            seats_text(view, names, self.viewer, TABLE_WIDTH, away=away_seats(self.table))
        )
        self.query_one("#cb-dispute", Static).update(dispute_line(view, names))
        self.query_one("#cb-table", Vertical).border_subtitle = Content(piles_line(view))
        hand = self.query_one("#cb-hand", Vertical)
        cards = self.query_one("#cb-hand-cards", Static)
        own = self.query_one("#cb-own", Static)
        if self.viewer is None:
            hand.border_title = Content(_("Hands are hidden"))
            cards.update(_("Hands are hidden until the keyboard is passed"))
            own.update("")
        else:
            hand.border_title = Content(_("Your hand — {name}").format(name=names[self.viewer]))
            order = self.order(view)
            if order:
                playing = self.awaiting is not None and step_of(view) == PLAY
                cards.update(
                    hand_lines(
                        dict(view.known),
                        order,
                        self.cursor if self.awaiting is not None else None,
                        self.playable(view),
                        self.marks_shown(view, self.marks),
                        self.received(view),
                        dim_unplayable=playing,
                    )
                )
            else:
                cards.update(Text(_("No cards in hand"), style="dim"))
            own.update(self.own_text(view))
        self.query_one("#cb-prompt", Static).update(self.prompt_text(view))
        self.status.show(*self.status_text(view))
        live = self.awaiting is not None and self.viewer is not None and not self.table.over
        self._drawn_step = step_of(view) if live else ""
        self._drawn_markers = live and any(isinstance(a, UseMarker) for a in view.legal)
        self.refresh_bindings()

    def order(self, view: Any) -> list[int]:
        """The viewer's hand in the order drawn (by suit, then value)."""
        return hand_order(view.known, view.hand)

    def playable(self, view: Any) -> set[int]:
        if self.awaiting is None:
            return set()
        return {a.slot for a in view.legal if isinstance(a, Play)}

    def own_text(self, view: Any) -> Text:
        """The viewer's own pieces (face down to the others) and markers (kinds)."""
        seat = self.viewer
        assert seat is not None
        text = Text()
        pieces = [view.known.get(s) for s in view.pieces[seat]]
        text.append(_("Pieces:") + " ", style="bold")
        text.append(pieces_summary(pieces) or "—")  # a dash: "none" agrees with its noun
        if view.players > 2:
            text.append(" · ")
            text.append(_("Markers:") + " ", style="bold")
            kinds = [_(MARKER_TITLES[kind]) for _slot, kind in view.markers]
            text.append(", ".join(kinds) or "—")
        return text

    def breakdown(self, names: Sequence[str]) -> tuple[str, list[Any]]:
        """The scoring breakdown at the end: each player's assembly, highest first."""
        view = self.table.view(None)
        if not view.results:  # a cheat ended the game: nothing was counted
            return _("The game is over"), [events_text.cheat_line(view, names)]
        lines = breakdown_lines(view.results, names, view.winners, view.tummy_ache)
        return _(END_TITLE), [*lines, headline(names, view.winners, view.tummy_ache)]

    def own_score_line(self, view: Any) -> str:
        """What the viewer's pieces and markers would score now (its own, face down)."""
        assert self.viewer is not None
        names = [n for n in (view.known.get(s) for s in view.pieces[self.viewer]) if n]
        score = seat_score(names, len(view.markers))
        return _("Your pieces would score now: {assembly}").format(assembly=assembly_words(score))

    def status_text(self, view: Any) -> tuple[str, str]:
        """The status line and its tone ("you", "wait" or "end")."""
        names = self.table.names
        if self.table.over:
            return _("The game is over · r replay face up · d new game · e results · q quit"), "end"
        step = step_of(view)
        if self.awaiting is not None:
            said = _("{name}: your turn — {step}").format(
                name=names[self.awaiting], step=step_words(view)
            )
            used = self.window_text(view)
            if used and step in (WINDOW, DEFENSE):
                said = f"{used} · {said}"
            return said, "you"
        seat = self.table.to_act
        if seat is None:
            if step == PASS:  # a networked seat whose pass is sealed: the others choose
                return _("Pass step · waiting for the others' sealed passes"), "wait"
            return _("The cards are being dealt"), "wait"
        return decision_line(view, seat, names), "wait"

    def prompt_text(self, view: Any) -> Text:
        """What the keys do now."""
        if self.awaiting is None or self.viewer is None:
            return Text("")
        wait = self.window_wait if self._timer is not None else None
        return prompt_line(
            view,
            self.table.names,
            slot=self.current_slot(view),
            marks=self.marks,
            wait=wait,
            windows=self.windows,
        )

    # -- the story ---------------------------------------------------------------------------

    def _tell(self, entries: list[Entry]) -> None:
        names = self.table.names
        for entry in entries:
            event = entry.event
            if event is None:
                continue
            # a shared keyboard's log is read by everyone: only what all may know
            reader = None if self.sharing else self.viewer
            line, style = events_text.log_line(event, names, reader)
            if line:
                self.log_view.add(line, style)
            if reader is not None and events_text.is_pass(event):
                for own in events_text.pass_lines(event, names, reader, self.view().known):
                    self.log_view.add(own, "")
            if events_text.is_game_end(event):
                self._notices.append(self.breakdown(names))
            elif events_text.is_round_end(event) and event.round < ROUNDS:
                title, lines = events_text.round_notice(event, names)
                if self.viewer is not None and not self.sharing:
                    lines.append(self.own_score_line(self.view()))
                self._notices.append((title, lines))

    def received(self, view: Any) -> set[int]:
        """The viewer's cards received in this round's pass: those dealt to another seat
        (a deal gives each seat consecutive slots), so a game continued or come back to
        marks them too."""
        if self.viewer is None:
            return set()
        return {slot for slot in view.hand if dealt_to(slot, view.players) != self.viewer}

    # -- the game moving on ----------------------------------------------------------------

    def bot_at_once(self, seat: int) -> bool:
        """A window shows nothing until a marker is used: a bot answers it with no visible
        delay (a bot that searches thinks off the screen's loop, like any other move)."""
        table = self.table
        legal = table.legal(seat)
        only = legal[0] if len(legal) == 1 else None
        thinks = isinstance(table, LocalTable) and table.thinks(seat)
        if step_of(table.view(seat)) not in (WINDOW, DEFENSE) or not (only or not thinks):
            return False
        self.refresh_view()
        self.perform(seat, only or self.bot_move_now(seat), by_bot=True)
        return True

    def automatic(self, seat: int) -> Action | None:
        """A window the person is not asked: windows set not to ask it (w), or (one person
        against bots, who read nothing but their views) a window with nothing to use."""
        step = step_of(self.table.view(seat))
        if step not in (WINDOW, DEFENSE):
            return self.table.forced(seat)
        legal = self.table.legal(seat)
        if not self.window_asks(step) or (not self.sharing and legal == (NoMarker(),)):
            return NoMarker()
        return None

    def await_player(self, seat: int) -> None:
        self.awaiting = seat
        self.marks.clear()
        view = self.view()
        order = self.order(view)
        playable = self.playable(view)
        first = next((i for i, s in enumerate(order) if s in playable), 0)
        if step_of(view) == PLAY or seat != self._cursor_of:
            self.cursor = first  # a card to play, or another person's hand: from the start
        else:  # the same hand as before (a window, the pass): where it was
            self.cursor = min(self.cursor, max(len(order) - 1, 0))
        self._cursor_of = seat
        self._stop_timer()
        step = step_of(view)
        if step in (WINDOW, DEFENSE) and self.window_wait > 0:
            self._start_timer(seat, view.state_id)
        self.refresh_view()
        if step == SWAP:
            self.action_give_piece()

    def sealed_step(self, view: Any) -> Hashable:
        """The pass is a sealed choice; the hand changes once every seat's is in."""
        return (view.seat, view.round, view.hand)

    def perform(self, seat: int, action: Action, by_bot: bool = False) -> None:
        """``seat`` makes ``action``; the log and table follow, then the game moves on."""
        self.awaiting = None
        self._stop_timer()
        self.marks.clear()
        if not by_bot and isinstance(action, PassOn):
            self.seal(seat, Marks(action.left, action.right))
        elif not by_bot and isinstance(action, HandOver):
            self.seal(seat, Marks(right=action.slot))
        entries = self.table.act(seat, action)
        self.post_message(ActionChosen(seat, action, by_bot))
        self._tell(entries)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def pass_reason(self, seat: int) -> str:
        return decision_line(self.table.view(None), seat, self.table.names)

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        outcome = self.table.outcome
        assert outcome is not None
        self.post_message(GameEnded(outcome))
        title, lines, won = self.ending(self.table.view(None), self.table.names)
        humans = self.table.humans
        if self.table.hotseat and len(humans) > 1:
            won = None
        self.show_end(lambda: EndScreen(title, lines, won, title=_(END_TITLE)))

    def ending(self, view: Any, names: Sequence[str]) -> tuple[str, list[str], bool | None]:
        """The headline, the breakdown and whether the first person here won."""
        outcome = self.table.outcome
        winners = tuple(outcome.winners) if outcome is not None else ()
        cheat = events_text.cheat_line(view, names)
        if cheat:
            return cheat, [], (self.table.humans[0] in winners) if winners else None
        tummy = view.tummy_ache
        lines = ranking_lines(view.results, names, winners, tummy) if view.results else []
        return headline(names, winners, tummy), lines, self.table.humans[0] in winners

    # -- building a choice -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return self.table.over
        if action == "new_game":
            return self.table.over
        if action in ("give_left", "give_right", "undo", "pass_cards"):
            return self._pass_step(duel=False)
        if action == "give":
            return self._pass_step(duel=True)
        if action in ("move", "move_to"):
            return self.awaiting is not None and self.viewer is not None and not self.table.over
        if action == "play":
            return self._in(PLAY)
        if action == "no_marker":
            return self._in(WINDOW, DEFENSE)
        if action == "marker":
            return self._drawn_markers
        if action == "give_piece":
            return self._in(SWAP)
        if action == "windows":
            return self.table.players > 2 and not self.table.over
        return super().check_action(action, parameters)

    def _in(self, *steps: str) -> bool:
        """Whether the person's keys are live in one of ``steps`` (as last drawn: every
        change of the game is drawn before a key is read)."""
        return self._drawn_step in steps

    def _pass_step(self, *, duel: bool) -> bool:
        return self._in(PASS) and (self.table.players == 2) == duel

    def current_slot(self, view: Any) -> int | None:
        order = self.order(view)
        if not order:
            return None
        return order[min(self.cursor, len(order) - 1)]

    def _legal_match(self, wanted: Action) -> Action | None:
        """``wanted`` as it is in the legal list, or ``None`` when it is not there."""
        return next((a for a in self._legal() if a == wanted), None)

    def action_move(self, step: int) -> None:
        order = self.order(self.view())
        if order:
            self.cursor = (self.cursor + step) % len(order)
            self.refresh_view()

    def action_move_to(self, index: int) -> None:
        order = self.order(self.view())
        if order:
            self.cursor = index % len(order)
            self.refresh_view()

    def action_play(self) -> None:
        view = self.view()
        slot = self.current_slot(view)
        if slot is None:
            return
        chosen = self._legal_match(Play(slot))
        if chosen is None:
            self.notify(
                _("{card} may not be played now: follow the turn suit.").format(
                    card=card_words(view.known.get(slot))
                ),
                severity="warning",
            )
            return
        self._act(chosen)

    def action_give(self) -> None:
        slot = self.current_slot(self.view())
        if slot is not None:
            self._act(HandOver(slot))

    def action_give_left(self) -> None:
        self._mark("left")

    def action_give_right(self) -> None:
        self._mark("right")

    def _mark(self, side: str) -> None:
        view = self.view()
        slot = self.current_slot(view)
        if slot is None:
            return
        marks = self.marks
        if side == "left":
            marks.right = None if marks.right == slot else marks.right
            marks.left = slot
        else:
            marks.left = None if marks.left == slot else marks.left
            marks.right = slot
        order = self.order(view)
        free = [i for i, s in enumerate(order) if s not in (marks.left, marks.right)]
        if free and (marks.left is None or marks.right is None):
            self.cursor = free[0]
        self.refresh_view()

    def action_undo(self) -> None:
        if self.marks.right is not None:
            self.marks.right = None
        else:
            self.marks.left = None
        self.refresh_view()

    def action_pass_cards(self) -> None:
        marks = self.marks
        if marks.left is None or marks.right is None:
            self.notify(
                _("Choose a card for the left (l) and one for the right (r)."),
                timeout=HINT_SECONDS,
            )
            return
        chosen = self._legal_match(PassOn(marks.left, marks.right))
        if chosen is None:
            self.notify(_("That is not a legal choice now."), severity="warning")
            return
        self._act(chosen)

    # -- keys: everything else -------------------------------------------------------------

    def replay_text(self, replay: Any, names: Sequence[str]) -> list[Any]:
        return replay_lines(replay, names)

    def fresh_screen(self, setup: GameSetup) -> CookiesScreen:
        fresh = super().fresh_screen(setup)
        assert isinstance(fresh, CookiesScreen)
        fresh.window_wait = self.window_wait
        fresh.windows = self.windows  # the same people: the windows as they set them
        return fresh

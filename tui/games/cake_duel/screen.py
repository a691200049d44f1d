"""The Cake Duel screen: opponents and table above, the log beside, your hand below.

The screen drives a :class:`~cakeparty.tui.table.session.TableSession` — here a
:class:`~cakeparty.tui.table.local.LocalTable`; :mod:`.netscreen` adapts it to a
networked room. It
shows the view of the seat at the keyboard, offers only the actions in that view's
``legal``, lets bots act after a short visible delay, hides hands between people in
hot-seat play, and shows the end of each bout and of the duel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from cakeparty.core import Action
from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import (
    Agree,
    Block,
    Challenge,
    Claim,
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
from cakeparty.core.games.cake_duel.cards import CARDS
from cakeparty.core.games.cake_duel.claims import is_truthful
from cakeparty.core.games.cake_duel.state import DUELS_TO_WIN, Phase
from cakeparty.core.games.cake_duel.text import (
    card_effect,
    card_title,
    card_type,
    claim_text,
    describe,
    describe_action,
    describe_decision,
    side_says,
)
from cakeparty.core.games.cake_duel.view import DuelView, summons_left
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cake_duel.chronicle import (
    Entry,
    duel_specials,
    hidden_specials,
    replay_lines,
)
from cakeparty.tui.games.cake_duel.help import TOURNAMENT_KEYS, reference_entries
from cakeparty.tui.games.cake_duel.messages import BoutEnded
from cakeparty.tui.games.cake_duel.parts import (
    SEAT_COLUMNS,
    Hint,
    deck_text,
    duel_number_text,
    hand_faces,
    last_duel,
    last_turn_lines,
    own_hint,
    seat_rows,
    specials_line,
    specials_text,
    status_line,
    table_text,
    table_title,
    take_label,
    title_and_players,
    tournament_score,
)
from cakeparty.tui.games.cake_duel.story import block_result, look_cards, look_line, transform_note
from cakeparty.tui.messages import (
    ActionChosen,
    GameEnded,
    SelectionChanged,
    StoryTold,
)
from cakeparty.tui.screens.dialogs import (
    Choice,
    NoticeScreen,
)
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.table.screen import TableScreen, table_bindings
from cakeparty.tui.table.session import TableSession
from cakeparty.tui.widgets import (
    FittedText,
    HandView,
    LogView,
    SeatList,
    SpareRows,
    StatusBar,
)
from cakeparty.tui.widgets.footer import KeyFooter

#: Which action kinds each key action stands for; a key shows only when one is legal.
KEY_ACTIONS: dict[str, tuple[type[Action], ...]] = {
    "claim": (Claim,),
    "pass_turn": (Pass,),
    "block": (Block,),
    "challenge": (Challenge,),
    "no_action": (NoAction,),
    "keep_hidden": (KeepHidden,),
    "summon": (Summon,),
    "take": (Take,),
    "lead": (Lead,),
    "trade": (Trade,),
    "no_trade": (NoTrade,),
    "agree": (Agree,),
    "refuse": (Refuse,),
    "taunt": (Taunt,),
}

#: The smallest terminal the duel is laid out for: below it, a notice says so.
MIN_SIZE = (80, 24)

#: The end-of-game box in the duel's own words (a tournament's, after its last duel).
END_TITLE = N_("The duel is over")
END_KEYS = {"new": N_("d new duel")}
TOURNAMENT_END_TITLE = N_("The tournament is over")
TOURNAMENT_END_KEYS = {"new": N_("d new tournament")}


class DuelEndScreen(EndScreen):
    """The end of a duel: its footer's d says what its keys line says."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "choose('new')", _("New duel"), id="end.new"),
    ]


class TournamentEndScreen(EndScreen):
    """The end of a tournament: d starts a new one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "choose('new')", _("New tournament"), id="end.new"),
    ]


#: Phases whose only decision opens a list at once.
AUTO_CHOOSE = {Phase.SUMMON: "summon", Phase.PRIEST: "take", Phase.LEAD: "lead"}


class DuelScreen(TableScreen):
    """A local Cake Duel against bots, or hot-seat between people at one keyboard."""

    TOO_SMALL_ID = "duel-too-small"
    TOO_SMALL_TEXT = N_("Terminal too small ({width}×{height}): Cake Duel needs {w}×{h}.")

    QUIT_QUESTION = N_("Quit this duel?")
    QUIT_DETAIL = N_("The duel in progress will be lost.")

    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "claim", _("Claim"), id="duel.claim"),
        Binding("p", "pass_turn", _("Pass"), id="duel.pass"),
        Binding("x", "challenge", _("Challenge"), id="duel.challenge"),
        Binding("b", "block", _("Block"), id="duel.block"),
        # one key, one meaning: n is only ever "no" (refuse a trade, as in yes/no questions)
        Binding("a", "no_action", _("Accept"), id="duel.no_action"),
        Binding("s", "summon", _("Summon"), id="duel.summon"),
        Binding("t", "take", _("Priest takes"), id="duel.take"),
        Binding("f", "lead", _("Who goes first"), id="duel.lead"),
        Binding("o", "trade", _("Offer trade"), id="duel.trade"),
        Binding("k", "no_trade", _("Keep hand"), id="duel.no_trade"),
        Binding("y", "agree", _("Agree"), id="duel.agree"),
        Binding("n", "refuse", _("Refuse"), id="duel.refuse"),
        Binding("w", "taunt", _("Reveal Sir Wolfy"), id="duel.taunt"),
        # before the hand's own h (vi "left"): it is on only while the choice is asked
        Binding("h", "keep_hidden", _("Keep Wolfy hidden"), id="duel.keep_hidden", priority=True),
        Binding("r", "replay", _("Replay"), id="duel.replay"),
        *table_bindings("duel", _("New duel")),
    ]

    def __init__(self, setup: GameSetup | TableSession, **kwargs: Any) -> None:
        """``setup``: the game to start, or a duel already set up (:class:`TableScreen`)."""
        super().__init__(setup, **kwargs)
        self.duel = self.session
        self._last_turn: list[str] = []
        self._bout_end: list[Entry] = []
        self._claim: ev.Claimed | None = None  # this turn's attack and block, as told
        self._block: ev.Blocked | None = None
        # looks told but not shown yet: (looker, target, the cards if already known)
        self._looks: list[tuple[int, int, tuple[str, ...] | None]] = []
        self._seen: dict[int, set[int]] = {}  # per seat: the hand at its last decision
        self.first_turn = 1  # the duel's turn count when this bout began
        self.prompted = False  # the list of this decision has opened by itself once
        self.hint: Hint | None = None  # the viewer's own step on the status line, if any

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="duel-too-small", markup=False)
        yield Static(id="duel-title", markup=False)
        with Horizontal(id="duel-top"):
            with Vertical(id="duel-left"):
                seats = SeatList([_(c) for c in SEAT_COLUMNS], id="duel-seats")
                seats.border_title = Content(_("Players"))
                yield seats
                with Vertical(id="duel-table") as table:
                    table.border_title = Content(_("Table"))
                    yield FittedText(id="duel-claims")
                    yield Static(id="duel-deck", markup=False)
                # a taller terminal's rows: the log's, not the table's; the cards in short
                yield SpareRows(lambda: reference_entries(self.view().options.full), _("Cards"))
            log = LogView(id="duel-log")
            log.border_title = Content(_("Log"))
            yield log
        yield StatusBar(id="duel-status", fit=self.fit_status)
        yield from self.compose_bar()
        yield HandView(_("Your hand is empty"), id="duel-hand")
        yield KeyFooter()

    def compose_bar(self) -> ComposeResult:
        """Widgets between the status line and the hand: none in a local game."""
        yield from ()

    def start(self) -> None:
        self.hand.focus()
        super().start()

    @property
    def hand(self) -> HandView:
        return self.query_one(HandView)

    def view(self) -> DuelView:
        return self.duel.view(self.viewer)

    # -- drawing ---------------------------------------------------------------------------

    def refresh_view(self) -> None:
        """Draw everything from the viewer's view."""
        view = self.view()
        duel = self.duel
        turn = view.turn - self.first_turn + 1
        title = self.query_one("#duel-title", Static)
        width = title.content_size.width or self.app.size.width - 2
        line, players = title_and_players(view, duel, turn, width)
        title.update(line)
        seats = self.query_one(SeatList)
        seats.border_title = Content(players)
        seats.show(seat_rows(view, duel, self.viewer))
        hidden = self.last_specials(view)
        table = self.query_one("#duel-table")
        table.border_title = Content(table_title(line, turn))
        table.border_subtitle = Content(deck_text(view, bool(hidden)))
        deck = self.query_one("#duel-deck", Static)
        specials = specials_text(view, hidden)
        deck.update(specials)
        deck.display = bool(specials.plain)
        last_turn = list(self._last_turn)
        self.query_one("#duel-claims", FittedText).show(
            lambda width, rows: table_text(view, duel, last_turn, (width, rows))
        )
        hand = self.hand
        if self.viewer is None:
            hand.border_title = Content(_("Hands are hidden"))
            hand.show([], _("Hands are hidden until the keyboard is passed"))
        else:
            hand.border_title = Content(
                _("Your hand — {name}").format(name=duel.names[self.viewer])
            )
            hand.show(hand_faces(view, self._seen.get(self.viewer)), _("Your hand is empty"))
        self.status.show(*self.status_text(view))
        self.refresh_bindings()

    def last_specials(self, view: DuelView) -> tuple[str, ...]:
        """The hidden specials of the duel played last, once the game is over (a local
        dealer knows them: its end names them); none before."""
        if view.winner is None or not isinstance(self.duel, LocalTable):
            return ()
        match = self.duel.match
        return hidden_specials(match.state, match.dealer)

    def status_text(self, view: DuelView) -> tuple[str, str]:
        """The status line and its tone ("you", "wait" or "end")."""
        deciding = self.viewer if self.awaiting is not None else None
        text, tone = status_line(view, self.duel, deciding)
        self.hint = own_hint(view, self.duel) if tone == "you" else None
        if self.awaiting is None and tone == "you":
            tone = "wait"
        return text, tone

    def fit_status(self, text: str, width: int) -> str:
        """The status line in ``width`` columns: the keys of the viewer's step stay whole
        (its words and a seat's name give way first, and a networked clock stays)."""
        return self.hint.fit(text, width) if self.hint is not None else text

    def _tell(self, entries: list[Entry]) -> None:
        """Write new events to the log, each with what it did to the table; note a bout's
        end and a look to show once the step is over."""
        if not entries:
            return
        names = self.duel.names
        lines: list[str] = []
        told: list[object] = []  # the events and the explaining lines, for the last turn

        def add(text: str, style: str, item: object) -> None:
            self.log_view.add(text, style)
            lines.append(text)
            told.append(item)

        for entry in entries:
            event = entry.event
            text = describe(event, names)
            style = ""
            if isinstance(event, ev.BoutStarted):
                style = "bold reverse"
                self._seen.clear()
                self.first_turn = entry.turn
                if self._bout_end:
                    self._bout_end.append(entry)
            elif isinstance(event, ev.Challenged | ev.BoutWon | ev.DuelWon):
                style = "bold"
                self._bout_end.append(entry)
            elif isinstance(event, ev.Stole | ev.Taunted):
                style = "italic"
            elif isinstance(event, ev.Drew):
                style = "dim"
            add(text, style, entry)
            if isinstance(event, ev.Claimed):
                self._claim, self._block = event, None
            elif isinstance(event, ev.Blocked):
                self._block = event
            elif isinstance(event, ev.Accepted) and self._claim and self._block:
                result = block_result(self._claim, self._block, names)
                self._block = None
                add(result, "italic", result)
            elif isinstance(event, ev.Challenged):
                note = transform_note(event)
                if note is not None:
                    add(note, "bold", note)
            elif isinstance(event, ev.Looked):
                self._note_look(event)
        last_turn_lines(told, names, self._last_turn)
        self.post_message(StoryTold(tuple(lines)))

    def _note_look(self, event: ev.Looked) -> None:
        """A person's seat looked at a hand: keep it to show that person."""
        if self.duel.is_bot(event.seat):
            return
        if not self.duel.hotseat and event.seat != self.viewer:
            return
        cards = look_cards(self.duel.view(event.seat), event.target)
        self._looks.append((event.seat, event.target, cards))

    def _show_look(self) -> bool:
        """Show the viewer the first look it has not seen yet, once its cards are in."""
        viewer = self.viewer
        for index, (looker, target, cards) in enumerate(self._looks):
            if looker != viewer:
                continue
            if cards is None:
                cards = look_cards(self.duel.view(looker), target)
                if cards is None:
                    return False  # the cards are still on their way to this peer
            del self._looks[index]
            names = self.duel.names
            line = look_line(cards, target, names)
            if not self.duel.hotseat:  # at a shared keyboard the log is everyone's
                self.log_view.add(line, "italic")
                self.post_message(StoryTold((line,)))
            title = _("Your look at {seat}'s hand").format(seat=names[target])
            self.refresh_view()
            self.present(NoticeScreen(title, [line], classes="look"), self._resume)
            return True
        return False

    # -- the game moving on ----------------------------------------------------------------

    def news_first(self) -> bool:
        """What a look showed, as soon as it is known; how a bout ended."""
        if self._looks and self._show_look():
            return True
        return bool(self._bout_end) and self._show_bout_end()

    def await_player(self, seat: int) -> None:
        """It is this screen's player's turn: show it, and open the only sensible list.

        A look not shown yet comes first (a networked room's screen moves on through here).
        """
        if self._looks and self._show_look():
            return
        self.awaiting = seat
        self.refresh_view()
        action = AUTO_CHOOSE.get(self.view().phase)
        if action is not None and not self.prompted:
            self.prompted = True
            getattr(self, f"action_{action}")()

    def perform(self, seat: int, action: Action, by_bot: bool = False) -> None:
        """``seat`` makes ``action``; the log and table follow, then the game moves on."""
        self.awaiting = None
        self.prompted = False
        if not by_bot:
            self._seen[seat] = set(self.duel.view(seat).hand)
        entries = self.duel.act(seat, action)
        self.post_message(ActionChosen(seat, action, by_bot))
        if not by_bot:
            self.hand.clear_selection()
        self._tell(entries)
        self.refresh_view()
        self.call_after_refresh(self.advance)

    def pass_reason(self, seat: int) -> str:
        why = describe_decision(self.duel.view(None).phase, seat, self.duel.names)
        return f"{self._last_turn[-1]}\n\n{why}" if self._last_turn else why

    def _show_bout_end(self) -> bool:
        """A bout's end in a dialog: how it was won, what comes next. A duel of a
        tournament ends here too, with the score and its hidden specials; the end of the
        game is the end dialog's (:meth:`_finish`), which keeps the last bout to tell."""
        entries = self._last_bout(self._bout_end)
        self._bout_end = []
        won = next((e for e in entries if isinstance(e.event, ev.BoutWon)), None)
        if won is None:
            return False
        event = won.event
        self.post_message(BoutEnded(event.side, event.reason, event.trophies))
        duel_won = next((e.event for e in entries if isinstance(e.event, ev.DuelWon)), None)
        if duel_won is not None and self._game_won(duel_won):
            self._bout_end = entries  # the end dialog tells it
            return False
        names = self.duel.names
        lines = self._bout_story(entries)
        if duel_won is None:
            title = side_says(_("{side} wins bout {n}"), event.side, names, n=won.bout)
            classes = "bout-end"
        else:
            number = sum(duel_won.duels)
            title = side_says(_("{side} wins duel {n}"), duel_won.side, names, n=number)
            lines.append(tournament_score(duel_won.duels, names))
            specials = self._duel_specials(number)
            if specials:
                lines.append(specials_line(specials, number))
            elif specials is None:
                lines.append(
                    _(
                        "The hidden specials of duel {n} stay hidden until the audit at the "
                        "tournament's end"
                    ).format(n=number)
                )
            lines.append(_("Next: {duel}").format(duel=duel_number_text(number + 1)))
            classes = "bout-end duel-end"
        lines.extend(
            describe(e.event, names) for e in entries if isinstance(e.event, ev.BoutStarted)
        )
        self.refresh_view()
        self.present(NoticeScreen(title, lines, classes=classes), self._resume)
        return True

    @staticmethod
    def _last_bout(entries: list[Entry]) -> list[Entry]:
        """The entries of the last bout that ended among ``entries`` (a game continued
        from disk tells all its bouts at once: the ones before were seen when played)."""
        ends = [i for i, e in enumerate(entries) if isinstance(e.event, ev.BoutWon)]
        if len(ends) < 2:
            return entries
        start = ends[-2] + 1
        while start < len(entries) and not isinstance(
            entries[start].event, ev.Challenged | ev.BoutWon | ev.Forfeited
        ):
            start += 1  # what followed the bout before (its duel's end, the next deal)
        return entries[start:]

    def _game_won(self, event: ev.DuelWon) -> bool:
        """Whether this duel's win ends the game: a single duel, or a tournament's last."""
        return not self.view().options.tournament or max(event.duels) >= DUELS_TO_WIN

    def _duel_specials(self, number: int) -> tuple[str, ...] | None:
        """The hidden specials of the tournament's duel ``number``, once it is over: a
        local dealer knows them. ``None``: the duel had some, not known here yet (a
        networked duel's, until the audit at the game's end)."""
        if not isinstance(self.duel, LocalTable) or not self.view().options.full:
            return ()
        specials = duel_specials(self.duel.replay())
        return specials[number - 1] if len(specials) >= number else ()

    def _bout_story(self, entries: list[Entry]) -> list[str]:
        """How a bout ended: the challenge with its Pierrot or Mimic explained, and the
        winner with the reason and the trophies."""
        names = self.duel.names
        lines: list[str] = []
        for entry in entries:
            event = entry.event
            if isinstance(event, ev.Challenged):
                lines.append(describe(event, names))
                note = transform_note(event)
                if note is not None:
                    lines.append(note)
            elif isinstance(event, ev.BoutWon | ev.Forfeited):
                lines.append(describe(event, names))
        return lines

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        outcome = self.duel.outcome
        assert outcome is not None
        self.post_message(GameEnded(outcome))
        view = self.duel.view(None)
        assert view.winner is not None
        specials: dict[int, tuple[str, ...]] = {}
        if isinstance(self.duel, LocalTable):
            match = self.duel.match
            specials[last_duel(view)] = hidden_specials(match.state, match.dealer)
        headline, lines = self.ending(specials)
        won = None
        humans = self.duel.humans
        if len(humans) == 1 or not self.duel.hotseat:
            won = view.winner == humans[0] % 2
        tournament = view.options.tournament
        title = _(TOURNAMENT_END_TITLE if tournament else END_TITLE)
        keys = TOURNAMENT_END_KEYS if tournament else END_KEYS
        box = TournamentEndScreen if tournament else DuelEndScreen
        self.show_end(lambda: box(headline, lines, won, title=title, keys=keys))

    def ending(self, specials: Mapping[int, Sequence[str]]) -> tuple[str, list[str]]:
        """The end of the game in the duel's words: who won the duel (or the tournament),
        and under it how the last bout was won; in a tournament, the last duel's winner
        and the duels won; then ``specials``, the hidden specials known now and not told
        before, by duel number. The last bout, kept for the end, is told here."""
        names = self.duel.names
        view = self.duel.view(None)
        assert view.winner is not None
        tournament = view.options.tournament
        winner = view.winner
        if tournament:
            headline = side_says(_("{side} wins the tournament!"), winner, names)
        else:
            headline = side_says(_("{side} wins the duel!"), winner, names)
        lines = self._bout_story(self._last_bout(self._bout_end))
        self._bout_end = []
        if tournament:
            if view.duels[view.winner] >= DUELS_TO_WIN:  # not ended by a proven breach
                lines.append(side_says(_("{side} wins duel {n}"), winner, names, n=last_duel(view)))
            lines.append(tournament_score(view.duels, names))
        for duel, cards in sorted(specials.items()):
            if cards:
                lines.append(specials_line(cards, duel if tournament else None))
        return headline, lines

    # -- keys: choosing an action ----------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kinds = KEY_ACTIONS.get(action)
        if kinds is not None:
            if self.awaiting is None or self.duel.over:
                return False
            return any(isinstance(a, kinds) for a in self._legal())
        if action in ("replay", "new_game"):
            return self.duel.over
        return super().check_action(action, parameters)

    def _cards_for_play(self) -> tuple[int, ...]:
        """The selected cards, or the one under the cursor if none is selected."""
        selected = self.hand.selected
        if selected:
            return selected
        current = self.hand.current
        return (current.key,) if current is not None else ()

    def action_claim(self) -> None:
        slots = set(self._cards_for_play())
        claims = [a for a in self._legal() if isinstance(a, Claim) and set(a.slots) == slots]
        if not claims:
            self.notify(_("Select the cards to play first (space or 1–9)."), severity="warning")
            return
        names = list(dict.fromkeys(a.name for a in claims))
        count = len(slots)
        cards = self._cards_of(slots)
        choices = [
            Choice(
                self._claim_label(count, n, cards),
                n,
                f"{card_type(n)} — {card_effect(n)}",
            )
            for n in names
        ]

        def named(name: str) -> None:
            targets = [a for a in claims if a.name == name]
            if len(targets) == 1:
                self._act(targets[0])
                return
            self._choose(
                _("Attack whom?"),
                [Choice(self.duel.names[a.target], a) for a in targets],
                self._act,
            )

        self._choose(
            ngettext("Claim {n} facedown card as…", "Claim {n} facedown cards as…", count).format(
                n=count
            ),
            choices,
            named,
            _("Any claim may be a bluff; any claim may be challenged."),
            start=self._truthful_first(names, cards),
        )

    def action_block(self) -> None:
        slots = set(self._cards_for_play())
        blocks = [a for a in self._legal() if isinstance(a, Block) and set(a.slots) == slots]
        if not blocks:
            view = self.view()
            most = view.attack.count if view.attack is not None else 1
            self.notify(
                _("Select the cards to block with (at most {n}), then b.").format(n=most),
                severity="warning",
            )
            return
        cards = self._cards_of(slots)
        choices = [
            Choice(self._claim_label(len(a.slots), a.name, cards), a, card_effect(a.name))
            for a in blocks
        ]
        title = ngettext("Block with {n} card as…", "Block with {n} cards as…", len(slots))
        start = self._truthful_first([a.name for a in blocks], cards)
        self._choose(title.format(n=len(slots)), choices, self._act, start=start)

    def _cards_of(self, slots: set[int]) -> tuple[str, ...] | None:
        """The viewer's cards in ``slots`` (its own hand: it knows them all)."""
        known = self.view().known
        cards = tuple(known[s] for s in sorted(slots) if s in known)
        return cards if len(cards) == len(slots) else None

    @staticmethod
    def _claim_label(count: int, name: str, cards: tuple[str, ...] | None) -> str:
        """A claim as offered: "2 × Wizard (true)" when the cards are what it says."""
        label = claim_text(count, name)
        if cards is not None and is_truthful(name, cards):
            label = _("{claim} (true)").format(claim=label)
        return label

    @staticmethod
    def _truthful_first(names: list[str], cards: tuple[str, ...] | None) -> int:
        """Where a claim list opens: on the truthful claim, so a bluff is a deliberate
        move; on the card's own name before what a Pierrot or Mimic may become."""
        if cards is None:
            return 0
        true = [i for i, n in enumerate(names) if is_truthful(n, cards)]
        own = [i for i in true if names[i] in cards]
        return (own or true or [0])[0]

    def action_pass_turn(self) -> None:
        self._act(Pass())

    def action_challenge(self) -> None:
        self._act(Challenge())

    def action_no_action(self) -> None:
        self._act(NoAction())

    def action_keep_hidden(self) -> None:
        self._act(KeepHidden())  # a tournament's Sir Wolfy stays hidden

    def action_no_trade(self) -> None:
        self._act(NoTrade())

    def action_agree(self) -> None:
        self._act(Agree())

    def action_refuse(self) -> None:
        self._act(Refuse())

    def action_taunt(self) -> None:
        taunts = [a for a in self._legal() if isinstance(a, Taunt)]
        if taunts:
            self._act(taunts[0])

    def action_summon(self) -> None:
        summons = [a for a in self._legal() if isinstance(a, Summon)]
        if not summons:
            return
        choices = [
            Choice(card_title(a.name), a, card_effect(a.name)) for a in summons if a.name in CARDS
        ]
        thefts = summons_left(self.view())[1]
        self._choose(
            _("Summoner: name a card"),
            choices,
            self._act,
            _("You see the hand; you steal 2 cakes per copy of this card in it.")
            if thefts > 0  # a Scientist blocked it: it looks, and steals nothing
            else _("You see the hand; a Scientist blocked this Summoner: it steals nothing."),
        )

    def action_take(self) -> None:
        view = self.view()
        takes = [a for a in self._legal() if isinstance(a, Take)]
        if not takes:
            return
        choices = [Choice(take_label(view, a), a) for a in takes]
        self._choose(_("Priest: take which card?"), choices, self._act)

    def action_lead(self) -> None:
        leads = [a for a in self._legal() if isinstance(a, Lead)]
        choices = [Choice(describe_action(a, self.duel.names), a) for a in leads]
        self._choose(_("Who attacks first?"), choices, self._act)

    def action_trade(self) -> None:
        view = self.view()
        trades = [a for a in self._legal() if isinstance(a, Trade | NoTrade)]
        labels: dict[str, Action] = {}  # swapping one Soldier is swapping any other
        for trade in trades:
            labels.setdefault(describe_action(trade, self.duel.names, known=view.known), trade)
        choices = [Choice(label, action) for label, action in labels.items()]
        self._choose(_("Trade with your partner"), choices, self._act)

    # -- keys: everything else -------------------------------------------------------------

    def on_selection_changed(self, message: SelectionChanged) -> None:
        self.refresh_bindings()

    def replay_text(self, replay: Any, names: Sequence[str]) -> list[Any]:
        return replay_lines(replay, names)


class TournamentScreen(DuelScreen):
    """A tournament of duels, best of five: after its last duel, d starts a new one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "new_game", _("New tournament"), id="duel.new"),
    ]

    def action_help(self) -> None:
        from cakeparty.tui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.duel.game.name, TOURNAMENT_KEYS))

"""The marker windows and the choices of a marker on the Cookies Battle screen.

:class:`MarkerChoices` goes before :class:`~cakeparty.tui.table.screen.TableScreen` in the
screen's bases. A window asking the person here passes by itself after the screen's
``window_wait`` seconds — not while a list or the help is open over the table, and again
once it is closed — or at once on n or enter. w turns which windows ask (:data:`ASKS`):
every one, only those that answer a marker just used (where a Defense may go: the
default at a shared keyboard, where every window asked is the keyboard passed), or none
(markers are then used on one's own turn). Using a marker
opens its lists in turn: which marker (by kind), against whom, and for a Swap which of
one's pieces; a Swap's target chooses the piece it gives. Every list offers only what the
view's ``legal`` holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.timer import Timer

from cakeparty.core.games.cookies_battle.actions import GivePiece, NoMarker, UseMarker
from cakeparty.core.games.cookies_battle.cards import MARKER_KINDS, MARKER_TITLES
from cakeparty.core.i18n import _, ngettext
from cakeparty.tui.games.cookies_battle import events_text
from cakeparty.tui.games.cookies_battle.help import MARKER_EFFECTS
from cakeparty.tui.games.cookies_battle.lines import (
    ALL,
    ANSWERS,
    ASKS,
    DEFENSE,
    WINDOW,
    step_of,
    window_words,
)
from cakeparty.tui.games.cookies_battle.parts import piece_words
from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen


class MarkerChoices:
    """A marker window's own passing, and the lists that choose a marker's use."""

    # the parts of the game's screen this drives (declared for the type checker)
    app: Any
    awaiting: int | None
    windows: str
    _drawn_step: str
    window_wait: float
    _timer: Timer | None
    table: Any
    view: Callable[[], Any]
    refresh_view: Callable[[], None]
    set_timer: Callable[..., Timer]
    _act: Callable[[Any], None]
    _legal: Callable[[], tuple[Any, ...]]
    _in: Callable[..., bool]

    # -- a window passing by itself ----------------------------------------------------------

    def on_screen_resume(self) -> None:
        """Back from a dialog (the help) in a window: it passes by itself after a whole
        wait from now."""
        if self.awaiting is not None and self.app.screen is self:
            self._stop_timer()
        self.keep_window_timed()

    def keep_window_timed(self) -> None:
        """A window asking the person here passes by itself: restart its timer when a
        dialog over the table let it lapse."""
        seat = self.awaiting
        if seat is None or self._timer is not None or self.window_wait <= 0:
            return
        view = self.view()
        if step_of(view) in (WINDOW, DEFENSE) and view.seat == seat:
            self._start_timer(seat, view.state_id)
            self.refresh_view()

    def _start_timer(self, seat: int, state_id: int) -> None:
        self._stop_timer()
        self._timer = self.set_timer(self.window_wait, lambda: self._window_over(seat, state_id))

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _window_over(self, seat: int, state_id: int) -> None:
        """The window waited long enough: it passes (not while a list is open)."""
        self._timer = None
        if self.awaiting != seat or self.view().state_id != state_id:
            return
        if self.app.screen is not self:
            # the help or another dialog is open: the person is there. Look again a wait
            # later (its closing restarts the wait too; this look does not hang on it)
            self._start_timer(seat, state_id)
            return
        self._act(NoMarker())

    # -- keys ------------------------------------------------------------------------------

    def action_no_marker(self) -> None:
        self._act(NoMarker())

    def window_asks(self, step: str) -> bool:
        """Whether a window of ``step`` (:data:`WINDOW` or :data:`DEFENSE`) asks the
        person here, by :attr:`windows`."""
        return self.windows == ALL or (self.windows == ANSWERS and step == DEFENSE)

    def action_windows(self) -> None:
        self.windows = ASKS[(ASKS.index(self.windows) + 1) % len(ASKS)]
        if self.windows == ALL:
            self.notify(_("Marker windows ask you while you hold a marker."))
        elif self.windows == ANSWERS:
            self.notify(
                _(
                    "Marker windows ask you only to answer a marker just used (a Defense);"
                    " use the others on your turn."
                )
            )
        else:
            self.notify(_("Marker windows pass without asking: use markers on your turn."))
        step = self._drawn_step
        if step in (WINDOW, DEFENSE) and not self.window_asks(step):
            self._act(NoMarker())
            return
        self.refresh_view()

    def action_marker(self) -> None:
        """Choose a marker (by kind), then its target and, for a Swap, your piece."""
        uses = [a for a in self._legal() if isinstance(a, UseMarker)]
        if not uses:
            return
        view = self.view()
        by_kind: dict[str, list[UseMarker]] = {}
        for use in uses:
            by_kind.setdefault(use.kind, []).append(use)
        kinds = [k for k in MARKER_KINDS if k in by_kind]
        choices = [Choice(_(MARKER_TITLES[k]), k, _(MARKER_EFFECTS[k])) for k in kinds]
        prompt = self.window_text(view) if step_of(view) == DEFENSE else ""
        self._choose(
            _("Use which marker?"),
            choices,
            lambda k: self._marker_target(by_kind[k]),
            prompt,
        )

    def _marker_target(self, uses: list[UseMarker]) -> None:
        names = self.table.names
        view = self.view()
        targets: dict[tuple[int, ...], list[UseMarker]] = {}
        for use in uses:
            targets.setdefault(use.target, []).append(use)
        if len(targets) == 1:
            self._marker_piece(next(iter(targets.values())))
            return
        choices = [
            Choice(
                names[target[0]],
                target,
                ngettext("{n} piece", "{n} pieces", view.piece_counts[target[0]]).format(
                    n=view.piece_counts[target[0]]
                ),
            )
            for target in sorted(targets)
            if target
        ]
        kind = _(MARKER_TITLES[uses[0].kind])
        self._choose(
            _("{marker} against whom?").format(marker=kind),
            choices,
            lambda t: self._marker_piece(targets[t]),
        )

    def _marker_piece(self, uses: list[UseMarker]) -> None:
        view = self.view()
        if len({u.piece for u in uses}) <= 1:
            self._act(uses[0])
            return
        by_piece: dict[str, UseMarker] = {}
        for use in uses:
            label = piece_words(view.known.get(use.piece[0])) if use.piece else "?"
            by_piece.setdefault(label, use)
        if len(by_piece) == 1:
            self._act(next(iter(by_piece.values())))
            return
        choices = [Choice(label, use) for label, use in by_piece.items()]
        self._choose(_("Swap: which of your pieces do you give?"), choices, self._act)

    def action_give_piece(self) -> None:
        """A Swap's target: choose the piece to give (one of each kind is offered)."""
        gives = [a for a in self._legal() if isinstance(a, GivePiece)]
        if not gives:
            return
        view = self.view()
        by_kind: dict[str, GivePiece] = {}
        for give in gives:
            by_kind.setdefault(piece_words(view.known.get(give.slot)), give)
        if len(by_kind) == 1:
            self._act(next(iter(by_kind.values())))
            return
        choices = [Choice(label, give) for label, give in by_kind.items()]
        who = events_text.swapper(view, self.table.names)
        self._choose(
            _("Swap with {name}: which piece do you give?").format(name=who), choices, self._act
        )

    def _choose(
        self,
        title: str,
        choices: list[Choice[Any]],
        then: Any,
        prompt: str = "",
        start: int = 0,
    ) -> None:
        """A list over the table; a marker window stops passing by itself meanwhile, and
        starts again if the list is left with esc."""
        seat = self.awaiting
        timed = self._timer is not None
        self._stop_timer()

        def chosen(value: Any) -> None:
            if value is not None:
                then(value)
                return
            if seat is not None and self.awaiting == seat:
                if timed:
                    self._start_timer(seat, self.view().state_id)
                self.refresh_view()

        self.app.push_screen(ChoiceScreen(title, choices, prompt, start=start), chosen)

    def window_text(self, view: Any) -> str:
        """The marker a Defense window answers, in words."""
        names: Sequence[str] = self.table.names
        return window_words(view, names)

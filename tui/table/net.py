"""A networked table: this player's seat in a room, as any game's screen wants it.

:class:`NetTable` fits :class:`~cakeparty.tui.table.session.TableSession` over a
:class:`~cakeparty.protocol.network.RoomRunner`: views come from this player's own peer,
moves go through the runner, and the story is told from the peer's history. It also says
in words what the room is waiting for (a shuffle, shares, a move, a sealed choice, the
audit) and what went wrong (a peer's bad message, named). What is the game's own — its
story, the decisions the app makes for a person, what a decision is called — comes from
the game's :class:`~cakeparty.tui.table.registration.TableGame`. No UI library here, so
it is tested headless.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cakeparty.core import Action, Committed, Game, Outcome, get_game
from cakeparty.core.i18n import _
from cakeparty.protocol import steps as st
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.names import distinct_names
from cakeparty.protocol.table import Table
from cakeparty.tui.table import registration
from cakeparty.tui.table.story import Story

#: The step kinds in which this seat makes a decision of its own.
DECISIONS = (st.ACTION, st.CHOICE_COMMIT)

#: Seconds left on the mover's clock at which it is warned.
WARN_AT = (30, 10)


def name_list(names: Sequence[str]) -> str:
    """ "Bob", "Bob and Cy", "Bob, Cy and Dee"."""
    if len(names) <= 1:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def seat_name(seat: int, names: Sequence[str]) -> str:
    """The name of ``seat``, or a generic one if ``names`` does not hold it."""
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat {n}").format(n=seat + 1)


class UntoldStory(Story):
    """The story of a game with rules but no screen here: no events told."""

    def entries(self, before: Any, after: Any, seat: int | None, action: Action) -> list[Any]:
        return []


def own_bots(advert: Any) -> set[bytes]:
    """The players of ``advert`` (``None``: none) that are bots playing from processes of
    their own: shown as bots, yet away on their own, not with the host."""
    return {s.player for s in advert.taken if s.own_bot} if advert is not None else set()


@dataclass(frozen=True)
class _Then:
    """The table as it stood at a past move: its views."""

    game: Game
    state: Any

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat)


class NetTable:
    """This player's seat in a networked game of any registered game, behind its screen."""

    hotseat = False

    def __init__(
        self, runner: Any, bots: Mapping[bytes, bool] | None = None, host: bytes | None = None
    ) -> None:
        """``runner``: a :class:`RoomRunner` whose game has started; ``bots``: which
        players are bots, and ``host`` the host that runs them (from the lobby's advert)."""
        session = runner.session
        if session is None or runner.my_seat is None:
            raise ValueError("no game of this player in progress")
        self.runner = runner
        self.session = session
        self.table: Table = session.table
        self.seat: int = runner.my_seat
        self.game: Game = get_game(self.table.game)
        #: what the app knows of the game beyond its rules (a bare one for a game with
        #: no screen here: its story then tells nothing, its decisions are not named)
        self.registered = registration.any_game(self.table.game)
        self.names: tuple[str, ...] = distinct_names(self.table.names, self.table.players)
        self.options: dict[str, Any] = self.table.option_map
        self.bots = dict(bots or {})
        self.host = host
        self.own_bots = own_bots(getattr(runner, "advert", None))
        self._story = self._new_story()
        self.story: list[Any] = []
        self._incidents = 0
        self._step = (-1, "")
        self.step_since = time.monotonic()  # when the room reached the step it is at
        self.catch_up()

    # -- reading -----------------------------------------------------------------------

    @property
    def peer(self) -> Any:
        return self.session.peer(self.seat)

    @property
    def players(self) -> int:
        return self.table.seats

    @property
    def humans(self) -> tuple[int, ...]:
        return (self.seat,)

    def is_bot(self, seat: int) -> bool:
        return self.bots.get(self.table.players[seat], False)

    def shown_as_bot(self, seat: int) -> bool:
        return self.is_bot(seat) or self.table.players[seat] in self.own_bots

    def away(self, seat: int) -> bool:
        """Is the player of ``seat`` offline? A bot is away when its host is."""
        player = self.table.players[seat]
        if self.is_bot(seat) and self.host is not None:
            player = self.host
        return player != self.runner.identity.player_id and self.runner.online.get(player) is False

    def view(self, seat: int | None) -> Any:
        """``seat``'s view if it is this player's, else the public one."""
        return self.game.view(self.peer.state, seat if seat == self.seat else None)

    @property
    def to_act(self) -> int | None:
        """This seat, when the room waits for its decision; otherwise ``None``."""
        peer = self.peer
        if self.over or peer.step.kind not in DECISIONS:
            return None
        return self.seat if self.seat in peer.waiting_for else None

    @property
    def outcome(self) -> Outcome | None:
        outcome: Outcome | None = self.peer.outcome
        return outcome

    @property
    def over(self) -> bool:
        """The game ended: won, abandoned, stopped over a forged card, or stopped over a
        seat's two versions of one step."""
        return (
            self.outcome is not None
            or self.session.abandoned is not None
            or self.peer.broken is not None
            or self.peer.proof is not None
        )

    @property
    def audited(self) -> bool:
        """The audit is done (or the game was abandoned: there is none)."""
        return self.peer.verdict is not None or self.session.abandoned is not None

    @property
    def verdict(self) -> Any:
        return self.peer.verdict

    @property
    def fair(self) -> bool:
        verdict = self.verdict
        return verdict is not None and verdict.fair

    def legal(self, seat: int) -> tuple[Action, ...]:
        if seat != self.seat or self.to_act != seat:
            return ()
        return tuple(self.game.legal_actions(self.peer.state, seat))

    def forced(self, seat: int) -> Action | None:
        """An action a person need not choose: the game's bookkeeping that the app makes
        for them (its registration says which)."""
        if self.registered.forced is None:
            return None
        legal = self.legal(seat)
        if not legal:
            return None
        forced: Action | None = self.registered.forced(legal)
        return forced

    def describe_decision(self, seat: int) -> str:
        """What ``seat`` decides now, in the game's words (from the public view)."""
        describe = self.registered.describe_decision
        if describe is None:
            return _("{seat} decides").format(seat=seat_name(seat, self.names))
        return str(describe(self.view(None), seat, self.names))

    def past_moves(self) -> Iterator[tuple[int, Action, _Then]]:
        """This seat's moves so far, each with the table as it stood before it: the room's
        history played again from the start on this peer's own knowledge (a seat resumed
        from its journal holds it all); not those the app made for it (:meth:`forced`)."""
        state = self.game.new_state(self.table.seats, self.table.option_map)
        forced = self.registered.forced
        for seat, action in list(self.peer.history):
            if seat == self.seat:
                made = forced(self.game.legal_actions(state, seat)) if forced else None
                if action != made:
                    yield seat, action, _Then(self.game, state)
            elif seat is None and isinstance(action, Committed):  # choices sealed at once
                for chooser, choice in action.choices:
                    if chooser == self.seat:
                        yield chooser, choice, _Then(self.game, state)
            state = self.game.apply(state, action, seat)

    # -- acting ------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> list[Any]:
        """This player's move, sent to the room; raises if it is not legal now."""
        if seat != self.seat:
            raise ValueError(f"seat {seat} is not played here")
        self.runner.act(action)
        return self.catch_up()

    def catch_up(self) -> list[Any]:
        peer = self.peer
        key = (peer.seq, peer.step.kind)
        if key != self._step:
            self._step = key
            self.step_since = time.monotonic()
        entries = self._story.follow(peer.history)
        self.story.extend(entries)
        return entries

    # -- what the room waits for ---------------------------------------------------------

    def ending_text(self) -> str | None:
        """How an abandoned game ended, the same words on every screen but for "you"."""
        ended = self.session.abandoned
        if ended is None:
            return None
        voters = name_list([seat_name(s, self.names) for s in sorted(ended.voters)])
        if ended.seat == self.seat:
            return _("{voters} ended the game as abandoned by you: your time was up.").format(
                voters=voters
            )
        return _("The game was abandoned by {name}: {voters} ended it after waiting.").format(
            name=seat_name(ended.seat, self.names), voters=voters
        )

    # -- the clock ---------------------------------------------------------------------

    def clock(self) -> float:
        """Seconds left before the seats the room waits for are overdue (negative: they
        are), on this player's clock: "wait longer" restarts it."""
        return self.session.clock(time.monotonic())

    def own_clock(self) -> float:
        """Seconds left for this player's own move (negative: its time is up)."""
        return self.session.own_clock(time.monotonic())

    def late(self) -> bool:
        """This player keeps the room waiting past the timeout."""
        return self.session.late(time.monotonic())

    def overdue(self) -> tuple[int, ...]:
        """The other seats past the timeout this player has not voted about yet."""
        now = time.monotonic()
        return tuple(s for s in self.session.overdue(now) if not self.session.voted(s))

    def absence_text(self, seat: int) -> str:
        """Whether ``seat``'s player is gone or only slow."""
        name = seat_name(seat, self.names)
        if self.away(seat):
            return _("{name} is offline").format(name=name)
        return _("{name} is online but slow").format(name=name)

    def voters_against(self, seat: int) -> tuple[int, ...]:
        """The other seats that voted to end the game as abandoned by ``seat``."""
        return tuple(sorted(s for s in self.session.votes_against(seat) if s != self.seat))

    def vote_out(self, seat: int) -> bool:
        """End the game as abandoned by ``seat`` (this player's vote)."""
        return bool(self.runner.vote_out(seat))

    def wait_longer(self) -> None:
        self.runner.wait_longer()

    def waiting_text(self) -> str | None:
        """What the room waits for, in words; ``None`` when it waits for this player's
        decision (the screen says what to do) or for nothing. When everyone it waits for
        is offline, that is what it waits for."""
        ending = self.ending_text()
        if ending is not None:
            return ending
        text = self._waiting_for()
        if text is None or self.session.stalled is not None:
            return text
        others = [s for s in self.peer.waiting_for if s != self.seat]
        if others and all(self.away(s) for s in others):
            host = self.table.seat_of(self.host) if self.host is not None else None
            # the bots of a host who is gone come back with it: the host is named
            bots = [s for s in others if host is not None and self.is_bot(s)]
            gone = sorted({host if s in bots else s for s in others})
            who = name_list([seat_name(s, self.names) for s in gone])
            if bots and host not in others:  # only its bots awaited: say why the host is
                text = _("Waiting for {names} to come back online ({host}'s app plays {bots})")
                return text.format(
                    names=who,
                    host=seat_name(host, self.names),
                    bots=name_list([seat_name(s, self.names) for s in bots]),
                )
            return _("Waiting for {names} to come back online").format(names=who)
        return text

    def _waiting_for(self) -> str | None:
        peer = self.peer
        if peer.finished:
            return None
        if self.session.stalled is not None:
            return _("Waiting for room on the disk to write this game's record")
        step = peer.step
        waiting = list(peer.waiting_for)
        others = [s for s in waiting if s != self.seat]
        who = name_list([seat_name(s, self.names) for s in others])
        kind = step.kind
        if kind in DECISIONS:
            if not others or self.seat in waiting:  # this player's own choice comes first
                return None
            if kind == st.CHOICE_COMMIT:
                return _("Waiting for {names} to choose").format(names=who)
            # the game's words name the seat ("Bob attacks: claim or pass")
            return self.describe_decision(others[0])
        if not others:
            return _("Working…")
        if kind == st.KEYS:
            return _("Exchanging game keys: waiting for {names}").format(names=who)
        if kind == st.MIX:
            mix = _("mix {k} of {n}").format(k=step.mixer + 1, n=self.players)
            return _("Waiting for {name} to shuffle ({mix})").format(name=who, mix=mix)
        if kind == st.REMIX:
            return _("Waiting for {name} to mix their hand").format(name=who)
        if kind == st.WITNESS:
            return _("Waiting for {name} to confirm the count").format(name=who)
        if kind == st.SHARES:
            request = step.request
            to = getattr(request, "to", None)
            if to is None:
                why = _("to turn cards face up")
            elif self.seat in to:
                why = _("to show you your cards")
            else:
                readers = name_list([seat_name(s, self.names) for s in to])
                why = _("to show {names} their cards").format(names=readers)
            return _("Waiting for shares from {names} ({why})").format(names=who, why=why)
        if kind in (st.RAND_COMMIT, st.RAND_OPEN):
            return _("Drawing lots fairly: waiting for {names}").format(names=who)
        if kind == st.CHOICE_OPEN:
            return _("Waiting for {names} to reveal their choice").format(names=who)
        if kind == st.AUDIT:
            return _("Audit: waiting for {names} to reveal their game key").format(names=who)
        return _("Waiting for {names}").format(names=who)

    def waited(self) -> float:
        """Seconds the room has been at the step it is at."""
        return time.monotonic() - self.step_since

    def waiting_on(self) -> tuple[int, ...]:
        """The other seats the room waits for now."""
        if self.over and self.audited:
            return ()
        return tuple(s for s in self.peer.waiting_for if s != self.seat)

    # -- what went wrong ---------------------------------------------------------------

    def new_incidents(self) -> list[str]:
        """The peers' bad messages not reported yet, each naming its sender."""
        found = list(self.peer.incidents) + list(self.session.incidents)
        fresh, self._incidents = found[self._incidents :], len(found)
        return [self.describe_incident(error) for error in fresh]

    def describe_incident(self, error: ProtocolError) -> str:
        name = self.name_of(error.peer)
        # the protocol's reasons are marked for translation where they are written
        reason = _(error.reason)
        if error.seq is None:
            return _("{name} sent a bad message: {reason}").format(name=name, reason=reason)
        return _("{name} sent a bad message (step {seq}): {reason}").format(
            name=name, seq=error.seq, reason=reason
        )

    def name_of(self, peer: int | bytes | None) -> str:
        if isinstance(peer, int):
            return seat_name(peer, self.names)
        if isinstance(peer, bytes):
            seat = self.table.seat_of(peer)
            if seat is not None:
                return self.names[seat]
            return _("a stranger ({fingerprint})").format(fingerprint=fingerprint(peer))
        return _("someone")

    def verdict_text(self) -> str:
        """The audit's verdict in words."""
        if self.session.abandoned is not None:
            return _("No audit: the game was abandoned.")
        verdict = self.verdict
        if verdict is None:
            return _("Audit in progress…")
        if verdict.fair:
            return _("Audit: fair. Every card and every move checked out.")
        if verdict.seat is None:
            reason = verdict.reason_words()
            return _("Audit: something is wrong: {reason}").format(reason=reason)
        return _("Audit: {name} cheated ({move}): {reason}").format(
            name=seat_name(verdict.seat, self.names),
            move=verdict.move,
            reason=verdict.reason_words(),
        )

    def verdict_short(self) -> str:
        """The verdict in a few words, for the status line."""
        verdict = self.verdict
        if self.session.abandoned is not None:
            return _("abandoned, no audit")
        if verdict is None:
            return _("auditing…")
        if verdict.fair:
            return _("audit: fair")
        if verdict.seat is None:
            return _("audit: something is wrong")
        return _("audit: {name} cheated").format(name=seat_name(verdict.seat, self.names))

    # -- after the game ----------------------------------------------------------------

    def _new_story(self, dealer: Any = None) -> Story:
        make = self.registered.story
        if make is None:
            return UntoldStory(self.game, self.players, self.options, dealer)
        story: Story = make(self.game, self.players, self.options, dealer)
        return story

    def replay(self) -> list[Any]:
        """The whole game again with every card face up (after a fair audit)."""
        verdict = self.verdict
        if verdict is None or verdict.replay is None:
            return []
        match = verdict.replay
        return self._new_story(match.dealer).follow(match.history)

"""The end-of-game audit: every card face up, every hidden rule checked, a verdict.

Once the game is over every seat publishes its game secret. With all of them any peer can
decrypt every ciphertext of the log: the outcome of each shuffle gives the deck orders, each
re-mix of a hand its new order, the random steps the random draws. The game is then
replayed by the local dealer stacked with exactly those orders and draws, applying every
seat's moves from the log in order. The replay knows every card, so it checks what no peer
could check during play (a Summoner count, a taunt, a suit followed); it must also
reproduce everything public the peers saw.
The verdict is "fair", or the first seat, move and rule broken.

Every intermediate mix is opened too: a mixer whose output is not a permutation of its
input (a card substituted, or a point that is no card) is named, whatever its proof said.
The audit never raises: what it cannot check makes the verdict unfair, naming nobody.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cakeparty.core import (
    Action,
    CakePartyError,
    Committed,
    Forfeited,
    Match,
    Revealed,
    new_match,
)
from cakeparty.core.actions import ReasonParams, forfeit_words
from cakeparty.protocol.errors import ProtocolError

if TYPE_CHECKING:
    from cakeparty.protocol.peer import Peer


@dataclass(frozen=True)
class Verdict:
    """What the audit found."""

    fair: bool
    seat: int | None = None  # the seat at fault
    move: str | None = None  # the move (or message) at fault
    reason: str = ""  # untranslated; with params, a game's breach to fill from them
    replay: Match | None = None  # the whole game, face up
    orders: tuple[tuple[str, ...], ...] = ()  # the card order each shuffle produced
    randoms: tuple[int, ...] = ()
    remixes: tuple[tuple[str, ...], ...] = ()  # the card order each re-mix of a hand produced
    params: ReasonParams = ()  # what fills a breach's reason

    def __str__(self) -> str:
        if self.fair:
            return "fair"
        return f"seat {self.seat}: {self.move}: {self.reason_text}"

    @property
    def reason_text(self) -> str:
        """The reason in the source language, its fields filled."""
        if not self.params:
            return self.reason
        try:
            return self.reason.format(**dict(self.params))
        except (KeyError, IndexError, ValueError):
            return self.reason

    def reason_words(self) -> str:
        """The reason in the reader's language."""
        return forfeit_words(self.reason, self.params)


def _unfair(
    seat: int | None,
    move: str | None,
    reason: str,
    replay: Match | None = None,
    orders: tuple[tuple[str, ...], ...] = (),
    randoms: tuple[int, ...] = (),
    remixes: tuple[tuple[str, ...], ...] = (),
    params: ReasonParams = (),
) -> Verdict:
    return Verdict(False, seat, move, reason, replay, orders, randoms, remixes, params)


def forged_mix(peer: Peer) -> tuple[int, str] | None:
    """The first mixer whose output is not a permutation of its input, and why."""
    for n, (deck, mixes) in enumerate(peer.mixes, 1):
        before = Counter(peer.deck.open_each(deck))
        for mixer, out in mixes:
            after = Counter(peer.deck.open_each(out))
            if after != before:
                what = "a point that is no card" if None in after else "a card substituted"
                return mixer, f"shuffle {n}: the mix is not a permutation of its input ({what})"
            before = after
    return None


def audit(peer: Peer) -> Verdict:
    """Audit ``peer``'s finished game. Never raises."""
    try:
        return _audit(peer)
    except Exception as exc:  # a checker must not crash on what a cheat produced
        return _unfair(None, None, f"not audited: {exc!r}"[:200])


def _audit(peer: Peer) -> Verdict:
    for incident in peer.incidents:
        if isinstance(incident.peer, int):
            return _unfair(incident.peer, f"#{incident.seq}", incident.reason)
    forged = forged_mix(peer)
    if forged is not None:
        return _unfair(forged[0], "mix", forged[1])
    if peer.broken is not None:
        # every mix is sound and every share was proven: the card was a card after all
        return _unfair(
            peer.stopped_by, f"#{peer.broken}", "stopped the game over a card that is sound"
        )
    try:
        orders = tuple(tuple(peer.deck.open_all(deck)) for _, deck in peer.shuffles)
        remixes = tuple(tuple(peer.deck.open_all(deck)) for _, deck in peer.remixes)
    except ProtocolError as exc:
        return _unfair(None, None, f"a card does not decrypt: {exc.reason}")
    randoms = tuple(peer.randoms)
    table = peer.table
    replay = new_match(
        table.game,
        players=table.seats,
        options=table.option_map,
        orders=orders,
        randoms=randoms,
        remixes=remixes,
    )
    # a seat's moves, and each seat's sealed choice as it was opened (a local match
    # seals them one by one and opens them together, as the room did)
    moves: list[tuple[int, Action]] = []
    for seat, action in peer.history:
        if seat is not None:
            moves.append((seat, action))
        elif isinstance(action, Committed):
            moves.extend(action.choices)
    for seat, action in moves:
        try:
            replay.apply(action, seat)
        except CakePartyError as exc:
            return _unfair(
                seat,
                str(action),
                f"not legal with the cards face up: {exc}",
                replay,
                orders,
                randoms,
                remixes,
            )
    # everything revealed to all during play must be what the cards really were
    seen = [a for s, a in peer.history if s is None and isinstance(a, Revealed) and a.to is None]
    truth = [a for s, a in replay.history if s is None and isinstance(a, Revealed) and a.to is None]
    if seen != truth:
        return _unfair(
            None,
            None,
            "a card shown to all differs from the deck",
            replay,
            orders,
            randoms,
            remixes,
        )
    for forfeit in (a for s, a in peer.history if s is None and isinstance(a, Forfeited)):
        # every move was legal with the cards face up: the accusation was false
        return _unfair(
            forfeit.seat,
            str(forfeit),
            "accused a move the cards show was legal",
            replay,
            orders,
            randoms,
            remixes,
        )
    for breach in getattr(replay.state, "breaches", ()):
        params = getattr(breach, "params", ())
        return _unfair(
            breach.seat, breach.action, breach.reason, replay, orders, randoms, remixes, params
        )
    if replay.outcome != peer.outcome:
        return _unfair(None, None, "the replay ends differently", replay, orders, randoms, remixes)
    return Verdict(True, replay=replay, orders=orders, randoms=randoms, remixes=remixes)

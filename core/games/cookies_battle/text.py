"""Cookies Battle in plain words: cards, pieces, markers, actions, events, the table and
the final scores.

Pure functions of public facts, a view and the seats' names; no UI library. Every
sentence goes through the translation catalog.

>>> card_words("gold-12"), card_words("zero-b"), piece_words("strawberry-3")
('Gold 12', 'Zero', 'Strawberry')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cakeparty.core.actions import Action, forfeit_words
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import (
    GivePiece,
    HandOver,
    NoMarker,
    PassOn,
    Play,
    UseMarker,
)
from cakeparty.core.games.cookies_battle.cards import (
    CARD_TITLES,
    MARKER_TITLES,
    PIECE_TITLES,
    SUIT_TITLES,
    SUITS,
    card,
    marker_kind,
    piece_kind,
)
from cakeparty.core.games.cookies_battle.scoring import GOOD, SeatScore
from cakeparty.core.games.cookies_battle.state import Phase
from cakeparty.core.games.cookies_battle.view import CookiesView
from cakeparty.core.i18n import N_, _, ngettext

Names = Sequence[str]

SPECIAL_TITLES: dict[int | None, str] = {
    0: N_("Zero"),
    13: N_("Thirteen"),
    None: N_("Magician"),
}


def seat_name(seat: int | None, names: Names) -> str:
    if seat is None:
        return _("nobody")
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat {n}").format(n=seat + 1)


# -- things --------------------------------------------------------------------------------


def suit_word(suit: str | None) -> str:
    return _(SUIT_TITLES[suit]) if suit in SUIT_TITLES else _("none")


def card_words(name: str | None) -> str:
    """A card: "Blue 7", "Gold 12", "Zero", "Thirteen", "Magician"; "?" if unknown."""
    if name is None:
        return "?"
    c = card(name)
    if c.special:
        return _(SPECIAL_TITLES[c.value])
    assert c.suit is not None
    return _(CARD_TITLES[c.suit]).format(value=c.value)


def piece_words(name: str | None) -> str:
    """A cookie piece by kind: "Strawberry"; "?" if unknown."""
    return "?" if name is None else _(PIECE_TITLES[piece_kind(name)])


def marker_words(kind: str | None) -> str:
    """A marker by kind: "Right Breeze"; "?" if unknown."""
    return "?" if kind is None else _(MARKER_TITLES[kind])


def hand_order(name: str | None) -> tuple[int, int]:
    """A sort key for a hand: by suit (blue, green, red, gold, specials), then value."""
    if name is None:
        return (9, 0)
    c = card(name)
    if c.special:
        return (len(SUITS), -1 if c.value is None else c.value)
    return (SUITS.index(c.suit or ""), c.value or 0)


# -- actions -------------------------------------------------------------------------------


def action_words(view: CookiesView, action: Action, names: Names = ()) -> str:
    """An action in words for the seat making it."""
    if isinstance(action, PassOn):
        return _("left: {left}; right: {right}").format(
            left=card_words(view.card(action.left)), right=card_words(view.card(action.right))
        )
    if isinstance(action, HandOver):
        return _("give {card}").format(card=card_words(view.card(action.slot)))
    if isinstance(action, Play):
        return _("play {card}").format(card=card_words(view.card(action.slot)))
    if isinstance(action, NoMarker):
        return _("no marker")
    if isinstance(action, GivePiece):
        return _("give {piece}").format(piece=piece_words(view.card(action.slot)))
    if isinstance(action, UseMarker):
        marker = marker_words(action.kind)
        if action.piece:
            return _("{marker} with {name}, giving {piece}").format(
                marker=marker,
                name=seat_name(action.target[0], names),
                piece=piece_words(view.card(action.piece[0])),
            )
        if action.target:
            return _("{marker} on {name}").format(
                marker=marker, name=seat_name(action.target[0], names)
            )
        return marker
    return str(action)


# -- events --------------------------------------------------------------------------------


def describe(event: Any, names: Names) -> str:
    """One public event as a sentence."""
    if isinstance(event, ev.RoundStarted):
        return _("Round {n} begins; {name} leads").format(
            n=event.round, name=seat_name(event.first, names)
        )
    if isinstance(event, ev.Dealt):
        return ngettext(
            "{n} card dealt to each player", "{n} cards dealt to each player", event.cards
        ).format(n=event.cards)
    if isinstance(event, ev.Passed):
        if event.duel:
            return _("Each player gives one card to the other")
        return _("Everyone passes one card left and one right")
    if isinstance(event, ev.PieceShown):
        return _("Trick {n}: the piece in dispute is {piece}").format(
            n=event.trick, piece=piece_words(event.piece)
        )
    if isinstance(event, ev.CardPlayed):
        text = _("{name} plays {card}")
        if event.forced:
            text = _("{name} plays {card}, drawn at random by a Puppet")
        return text.format(name=seat_name(event.seat, names), card=card_words(event.card))
    if isinstance(event, ev.TrickWon):
        return _("{name} wins the trick and takes {piece}").format(
            name=seat_name(event.seat, names), piece=piece_words(event.piece)
        )
    if isinstance(event, ev.MarkerEarned):
        if event.kind is None:
            return _("{name} earns a marker").format(name=seat_name(event.seat, names))
        return _("{name} earns a marker: {marker}").format(
            name=seat_name(event.seat, names), marker=marker_words(event.kind)
        )
    if isinstance(event, ev.MarkerUsed):
        if event.target is None:
            return _("{name} uses {marker}").format(
                name=seat_name(event.seat, names), marker=marker_words(event.kind)
            )
        return _("{name} uses {marker} on {target}").format(
            name=seat_name(event.seat, names),
            marker=marker_words(event.kind),
            target=seat_name(event.target, names),
        )
    if isinstance(event, ev.Defended):
        return _("{name} cancels {other}'s {marker} with a Defense").format(
            name=seat_name(event.seat, names),
            other=seat_name(event.against, names),
            marker=marker_words(event.kind),
        )
    if isinstance(event, ev.Puppeted):
        if event.waiting > 1:  # another Puppet draws the card before
            return ngettext(
                "{target}'s next {n} card will be drawn at random",
                "{target}'s next {n} cards will be drawn at random",
                event.waiting,
            ).format(target=seat_name(event.target, names), n=event.waiting)
        return _("{target}'s next card will be drawn at random").format(
            target=seat_name(event.target, names)
        )
    if isinstance(event, ev.PieceTaken):
        if event.piece is None:
            return _("{taker} takes a piece from {victim}").format(
                taker=seat_name(event.taker, names), victim=seat_name(event.victim, names)
            )
        return _("{taker} takes {piece} from {victim}").format(
            taker=seat_name(event.taker, names),
            piece=piece_words(event.piece),
            victim=seat_name(event.victim, names),
        )
    if isinstance(event, ev.Swapped):
        if event.given is None or event.received is None:
            return _("{name} and {target} swap a piece").format(
                name=seat_name(event.seat, names), target=seat_name(event.target, names)
            )
        return _("{name} gives {given} to {target} for {received}").format(
            name=seat_name(event.seat, names),
            given=piece_words(event.given),
            target=seat_name(event.target, names),
            received=piece_words(event.received),
        )
    if isinstance(event, ev.RoundEnded):
        counts = ", ".join(
            ngettext("{name} {n} piece", "{name} {n} pieces", n).format(
                name=seat_name(seat, names), n=n
            )
            for seat, n in enumerate(event.pieces)
        )
        return _("Round {n} ends: {counts}").format(n=event.round, counts=counts)
    if isinstance(event, ev.PiecesRevealed):
        return _("Everyone shows their pieces")
    if isinstance(event, ev.Cheated):
        return _("{name} cheated: {reason}").format(
            name=seat_name(event.seat, names), reason=forfeit_words(event.reason)
        )
    if isinstance(event, ev.GameOver):
        who = " & ".join(seat_name(s, names) for s in event.winners)
        if event.shared:
            return _("A shared win: {names}").format(names=who)
        return _("{name} wins").format(name=who)
    return str(event)


# -- scores --------------------------------------------------------------------------------


def assembly_words(score: SeatScore) -> str:
    """A player's pieces put together: "1 whole Traditional cookie · 2 loose Strawberry
    pieces · 1 Sprinkle cancelled · 1 rotten piece · 2 unused markers: 14 + 4 = 18" (no
    marker: "…: 14")."""
    parts = []
    a = score.assembly
    for i, kind in enumerate(GOOD):
        title = _(PIECE_TITLES[kind])
        if a.cookies[i]:
            parts.append(
                ngettext(
                    "{n} whole {kind} cookie", "{n} whole {kind} cookies", a.cookies[i]
                ).format(n=a.cookies[i], kind=title)
            )
        if a.loose[i]:
            parts.append(
                ngettext("{n} loose {kind} piece", "{n} loose {kind} pieces", a.loose[i]).format(
                    n=a.loose[i], kind=title
                )
            )
        if a.cancelled[i]:
            parts.append(
                ngettext("{n} {kind} cancelled", "{n} {kind} cancelled", a.cancelled[i]).format(
                    n=a.cancelled[i], kind=title
                )
            )
    if a.rotten:
        parts.append(ngettext("{n} rotten piece", "{n} rotten pieces", a.rotten).format(n=a.rotten))
    if score.markers:
        parts.append(
            ngettext("{n} unused marker", "{n} unused markers", score.markers).format(
                n=score.markers
            )
        )
    shown = " · ".join(parts) if parts else _("no pieces")
    if not score.markers:
        return _("{parts}: {total}").format(parts=shown, total=score.total)
    return _("{parts}: {points} + {markers} = {total}").format(
        parts=shown, points=a.points, markers=score.marker_points, total=score.total
    )


def score_lines(view: CookiesView, names: Names) -> list[str]:
    """The end of the game: one line per seat, highest first, then who won and why."""
    if view.cheat is not None:
        return [_("{name} cheated: the game ends").format(name=seat_name(view.cheat, names))]
    if not view.results:
        return []
    order = sorted(range(view.players), key=lambda s: (-view.results[s].total, s))
    lines = [
        _("{name}: {assembly}").format(
            name=seat_name(seat, names), assembly=assembly_words(view.results[seat])
        )
        for seat in order
    ]
    for seat in view.tummy_ache:
        lines.append(
            _("{name} has a tummy ache and cannot win").format(name=seat_name(seat, names))
        )
    who = " & ".join(seat_name(s, names) for s in view.winners)
    if view.shared:
        lines.append(_("A shared win: {names}").format(names=who))
    else:
        lines.append(_("{name} wins").format(name=who))
    return lines


# -- the table -----------------------------------------------------------------------------


PHASE_TITLES: dict[Phase, str] = {
    Phase.SETUP: N_("cards and pieces move"),
    Phase.PASS: N_("passing cards"),
    Phase.PLAY: N_("playing"),
    Phase.MARKER: N_("marker window"),
    Phase.DEFENSE: N_("Defense window"),
    Phase.SWAP: N_("Swap: choosing a piece"),
    Phase.OVER: N_("game over"),
}


def table_lines(view: CookiesView, names: Names) -> list[str]:
    """The table as ``view``'s seat sees it, in plain lines."""
    lines = [
        _("Round {round} · trick {trick} · {phase}").format(
            round=view.round, trick=view.trick_no, phase=_(PHASE_TITLES[view.phase])
        ),
        _("Piece in dispute: {piece} · turn suit: {suit}").format(
            piece=piece_words(view.dispute_piece) if view.dispute is not None else "-",
            suit=suit_word(view.turn_suit),
        ),
    ]
    trick = ", ".join(
        _("{name}: {card}").format(name=seat_name(seat, names), card=card_words(name))
        for seat, name in view.trick_cards
    )
    lines.append(_("Trick: {cards}").format(cards=trick or "-"))
    for seat in range(view.players):
        won = ", ".join(piece_words(p) for p in view.won_face_up[seat]) or "-"
        lines.append(
            _("{name}: {cards} · {pieces} · {markers} · won face up: {won}").format(
                name=seat_name(seat, names),
                cards=ngettext("{n} card", "{n} cards", view.hand_sizes[seat]).format(
                    n=view.hand_sizes[seat]
                ),
                pieces=ngettext("{n} piece", "{n} pieces", view.piece_counts[seat]).format(
                    n=view.piece_counts[seat]
                ),
                markers=ngettext("{n} marker", "{n} markers", view.marker_counts[seat]).format(
                    n=view.marker_counts[seat]
                ),
                won=won,
            )
        )
    if view.seat is not None:
        hand = sorted(view.hand_cards, key=hand_order)
        lines.append(
            _("Your hand: {cards}").format(cards=", ".join(card_words(c) for c in hand) or "-")
        )
        pieces = ", ".join(piece_words(p) for p in view.piece_names(view.seat))
        lines.append(_("Your pieces: {pieces}").format(pieces=pieces or "-"))
        markers = ", ".join(marker_words(kind) for _slot, kind in view.markers)
        lines.append(_("Your markers: {markers}").format(markers=markers or "-"))
    if view.over:
        lines.extend(score_lines(view, names))
    return lines


def marker_name(name: str | None) -> str:
    """A marker by its slot's name: "Theft"; "?" if unknown."""
    return "?" if name is None else marker_words(marker_kind(name))

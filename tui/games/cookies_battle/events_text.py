"""The events of a Cookies Battle game as the screen's log tells them (in the game's own
words, :func:`~cakeparty.core.games.cookies_battle.text.describe`), and the notices a
round's end and a cheat make. Every event is first redacted for the seat reading it (a
marker's kind for its earner only, a piece taken for taker and victim only), so a shared
screen shows only what everyone may know. No widgets here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.text import describe
from cakeparty.core.i18n import _, ngettext


def _name(seat: int | None, names: Sequence[str]) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def used_words(seat: int, kind: str, target: int | None, names: Sequence[str]) -> str:
    """ "Bob uses Theft on Cy" / "Bob uses Right Breeze"."""
    return describe(ev.MarkerUsed(seat, kind, target), names)


def log_line(event: Any, names: Sequence[str], viewer: int | None) -> tuple[str, str]:
    """The log's line for ``event`` as ``viewer`` may read it, and its style."""
    seen = ev.redact(event, viewer)
    style = ""
    if isinstance(seen, ev.RoundStarted):
        style = "bold reverse"
    elif isinstance(seen, ev.TrickWon | ev.GameOver | ev.Cheated):
        style = "bold"
    elif isinstance(seen, ev.MarkerUsed | ev.Defended | ev.PieceTaken | ev.Swapped):
        style = "italic"
    elif isinstance(seen, ev.Dealt | ev.Passed | ev.PieceShown):
        style = "dim"
    return describe(seen, names), style


def pass_lines(
    event: Any, names: Sequence[str], viewer: int | None, known: Mapping[int, str]
) -> list[str]:
    """What ``viewer`` passed and received in a pass (``known``: the names of the cards it
    has seen), for its own log: "You pass Blue 1 to Cy and Red 7 to Bob"; nothing for
    another event or a shared screen."""
    if not isinstance(event, ev.Passed) or viewer is None:
        return []
    from cakeparty.tui.games.cookies_battle.parts import card_words

    moves = ev.redact(event, viewer).moves
    gave = [(card_words(known.get(slot)), _name(to, names)) for g, to, slot in moves if g == viewer]
    got = [(card_words(known.get(slot)), _name(g, names)) for g, to, slot in moves if to == viewer]
    lines = []
    for moved, two, one in (
        (
            gave,
            _("You pass {card} to {name} and {card2} to {name2}"),
            _("You give {card} to {name}"),
        ),
        (
            got,
            _("You receive {card} from {name} and {card2} from {name2}"),
            _("You receive {card} from {name}"),
        ),
    ):
        if len(moved) == 2:
            (card, name), (card2, name2) = moved
            lines.append(two.format(card=card, name=name, card2=card2, name2=name2))
        elif len(moved) == 1:
            (card, name) = moved[0]
            lines.append(one.format(card=card, name=name))
    return lines


def is_pass(event: Any) -> bool:
    return isinstance(event, ev.Passed)


def is_round_end(event: Any) -> bool:
    return isinstance(event, ev.RoundEnded)


def is_game_end(event: Any) -> bool:
    return isinstance(event, ev.GameOver)


def round_notice(event: ev.RoundEnded, names: Sequence[str]) -> tuple[str, list[str]]:
    """A round's end: how many pieces each player holds (the kinds stay face down)."""
    title = _("Round {n} is over").format(n=event.round)
    lines = [
        ngettext("{name}: {n} piece", "{name}: {n} pieces", count).format(
            name=_name(seat, names), n=count
        )
        for seat, count in enumerate(event.pieces)
    ]
    return title, lines


def cheat_line(view: Any, names: Sequence[str]) -> str:
    """The game ended on a cheat: who, and why (blank when it did not)."""
    cheat = next((e for e in reversed(view.events) if isinstance(e, ev.Cheated)), None)
    if cheat is None:
        return ""
    return describe(cheat, names)


def swapper(view: Any, names: Sequence[str]) -> str:
    """Who used the Swap the viewer answers."""
    window = view.window
    return _name(window.user if window is not None else None, names)

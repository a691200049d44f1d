"""What the lobby shows, computed from the room's advert: no widgets here.

Each function turns the advert (and what this app knows about its own seat) into text, so
the lobby screen only wires them together and tests can read them headless.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.cells import cell_len
from rich.text import Text

from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.protocol.errors import ProtocolError
from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.lobby import CLOSED, PLAYING, Advert, Seat
from cakeparty.protocol.network import JOURNAL_UNREADABLE, JOURNAL_UNWRITABLE
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.settings import BOT_LEVELS
from cakeparty.tui.table.net import name_list
from cakeparty.tui.table.registration import any_game, game_title
from cakeparty.tui.widgets.fitted import fit

NAME_WIDTH = 18


def seat_line(
    index: int,
    seat: Seat | None,
    *,
    me: bytes,
    host: bytes | None,
    online: bool = True,
    bot_level: str | None = None,
    host_name: str = "",
) -> Text:
    """One row of the seats list: number, ready mark, name, fingerprint, who plays it."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{index + 1} ", style="dim")
    if seat is None:
        text.append("  ")
        text.append(_("— empty seat —"), style="dim italic")
        return text
    text.append("✓ " if seat.ready else "· ", style="bold" if seat.ready else "dim")
    tags = []
    if seat.player == me:
        tags.append(_("you"))
    if seat.player == host:
        tags.append(_("host"))
    name = seat.name + (f" ({', '.join(tags)})" if tags else "")
    text.append(fit(name, NAME_WIDTH) + " ", style="bold" if seat.player == me else "")
    text.append(f"{seat.fingerprint} ", style="dim")
    if seat.bot:
        runner = _("run by {host}").format(host=host_name) if host_name else ""
        text.append(f" {_bot_kind(bot_level)} {runner}".rstrip(), style="italic")
    else:
        if seat.own_bot:  # a bot in a process of its own: online or not, as a person
            level = seat.own_bot if seat.own_bot in BOT_LEVELS else None
            text.append(f" {_bot_kind(level)}", style="italic")
        else:
            text.append(" " + _("person"))
        text.append(" · ")
        if online:
            text.append(_("online"))
        else:
            text.append(_("offline"), style="bold reverse")
    text.append(" · ")
    if seat.ready:
        text.append(_("ready"), style="bold")
    else:
        text.append(_("not ready"), style="dim")
    return text


def _bot_kind(level: str | None) -> str:
    """ "bot (strong)", or "bot" when the level is not known here."""
    return _("bot ({level})").format(level=_(level)) if level else _("bot")


def options_lines(
    advert: Advert | None,
    plan: HostPlan | None = None,
    *,
    reached: bool = True,
    elsewhere: bool = False,
    width: int = 0,
) -> Text:
    """The room's options: game and players, the game's own options, move timeout.
    ``reached``: the room can still be reached (else no advert is awaited any more);
    ``elsewhere``: another window of this player has the room (so none is read here);
    ``width``: the panel's columns (0: no limit), where the game and its players go on a
    line each when both do not fit on one, rather than wrap in the middle of a phrase."""
    if advert is not None and advert.table is not None:  # what the game is played with
        table = advert.table
        game, players = table.game, table.seats
        options = dict(table.option_map)
        timeout, on_timeout = table.timeout, table.on_timeout
    elif advert is not None:
        game, players = advert.game, advert.seats
        options = dict(advert.options)
        timeout, on_timeout = advert.timeout, advert.on_timeout
    elif plan is not None:
        game, players, timeout = plan.game, plan.players, plan.timeout
        options = plan.rule_options
        on_timeout = plan.on_timeout
    elif elsewhere:
        return Text(_("Not read here: the room is open in another window"), style="dim")
    elif not reached:
        return Text(_("No advert from the host"), style="dim")
    else:
        return Text(_("Waiting for the host's advert…"), style="dim")
    text = Text()
    title = game_title(game)
    count = ngettext("{n} player", "{n} players", players).format(n=players)
    text.append(title, style="bold")
    apart = width > 0 and cell_len(f"{title} · {count}") > width
    text.append("\n" if apart else " · ")
    text.append(count)
    text.append("\n")
    try:
        table = any_game(game)
    except Exception:  # a game this app does not know: the host's words are all there is
        table = None
    for line in table.summary(players, options) if table is not None else ():
        text.append(line + "\n")
    text.append(_("Move timeout: {s} s").format(s=timeout))
    if on_timeout == "end":
        text.append(_(", then an offline player's game ends"))
    else:
        text.append(_(", then the others are asked"))
    return text


def lobby_status(
    *,
    advert: Advert | None,
    me: bytes,
    hosting: bool,
    connected: bool,
    ready: bool,
    room: str,
    broker: str,
    online: Mapping[bytes, bool],
) -> tuple[str, str]:
    """What the lobby waits for, and a tone: "you" (a key to press), "wait" or "end"."""
    if advert is None:
        if not connected:
            return _("Connecting to {broker}…").format(broker=broker), "wait"
        where = broker.removeprefix("mqtt://")
        return _("Room {room}: waiting for its host's advert on {broker}…").format(
            room=room, broker=where
        ), "wait"
    seated = next((s for s in advert.taken if s.player == me), None)
    if advert.state == CLOSED:
        return _("The host closed this room. q to leave."), "end"
    if advert.state == PLAYING:
        if seated is None:
            return _("The game started without you. q to leave."), "end"
        return _("Everyone is ready: the game starts…"), "wait"
    if seated is None:
        if advert.free == 0:
            return _("The room is full. q to leave."), "end"
        return _("Waiting for the host to seat you…"), "wait"
    if advert.free:
        n = advert.free
        if hosting:
            return ngettext(
                "Waiting for {n} more player: share the room code, or add a bot (a).",
                "Waiting for {n} more players: share the room code, or add bots (a).",
                n,
            ).format(n=n), "wait"
        return ngettext(
            "Waiting for {n} more player to join.", "Waiting for {n} more players to join.", n
        ).format(n=n), "wait"
    away = [s.name for s in advert.taken if not seat_online(s, online)]
    if away:
        return _("Waiting for {names} to come back online.").format(names=name_list(away)), "wait"
    if not ready:
        return _("Everyone is here. Press r when you are ready."), "you"
    unready = [s.name for s in advert.taken if not s.ready and s.player != me]
    if unready:
        return _("Waiting for {names} to get ready.").format(names=name_list(unready)), "wait"
    return _("Everyone is ready: the game starts…"), "wait"


def seat_online(seat: Seat, online: Mapping[bytes, bool]) -> bool:
    """Is the player in ``seat`` online? Bots are, while their host is."""
    return seat.online and online.get(seat.player, True)


def seat_names(seats: Sequence[Seat]) -> str:
    return name_list([s.name for s in seats])


def incident_text(error: object, text: str, advert: Advert | None) -> str:
    """A bad message from the room, naming its sender when the lobby knows them."""
    if not isinstance(error, ProtocolError):
        return _("A message was ignored: {error}").format(error=_(text))
    sender = error.peer
    name = _("someone")
    if isinstance(sender, bytes):
        seats = advert.taken if advert is not None else ()
        name = next(
            (s.name for s in seats if s.player == sender),
            _("a stranger ({fingerprint})").format(fingerprint=fingerprint(sender)),
        )
    elif isinstance(sender, int) and advert is not None and sender < len(advert.taken):
        name = advert.taken[sender].name
    return _("{name} sent a bad message: {reason}").format(name=name, reason=_(error.reason))


#: What the room runner reports in its own words, said in the app's.
ROOM_ERRORS = {
    "the game started without this player": N_("The game started without you."),
    JOURNAL_UNREADABLE: N_(
        "Your record of this game is damaged: your seat cannot go on without the keys kept "
        "in it. The others may end the game once your time is up."
    ),
    JOURNAL_UNWRITABLE: N_(
        "This game's record cannot be written here (is the disk full?): make some room, "
        "then join again."
    ),
}


def room_error_text(text: str) -> str:
    known = ROOM_ERRORS.get(text)
    return _(known) if known is not None else text


def room_closed_text(advert: Advert | None) -> str:
    """What a seat or a spectator is told when the host closed the room mid-game
    (``advert``: the host's advert saying so)."""
    host = advert.host_name if advert is not None else ""
    return _("{host} closed the room: this game ends here, unfinished.").format(
        host=host or _("The host")
    )

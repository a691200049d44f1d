"""What the Cake Duel screen shows, computed from one seat's view: no widgets here.

Each function turns a :class:`DuelView` (and the seats' names) into the values the
shared widgets display, so the screen only wires them together.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.actions import Take, Trade
from cakeparty.core.games.cake_duel.state import DUELS_TO_WIN, Phase, Play
from cakeparty.core.games.cake_duel.text import (
    card_effect,
    card_list,
    card_title,
    card_type,
    claim_text,
    describe,
    describe_action,
    describe_decision,
    score_text,
    seat_name,
)
from cakeparty.core.games.cake_duel.view import DuelView
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.games.cake_duel.chronicle import duel_specials, hidden_specials
from cakeparty.tui.table.session import TableSession as DuelGame
from cakeparty.tui.widgets.cards import Face, FacedownPile
from cakeparty.tui.widgets.fitted import cut, cut_apart, cut_rows, fit
from cakeparty.tui.widgets.seats import SeatRow


def hand_faces(view: DuelView, seen: Collection[int] | None = None) -> list[Face]:
    """The viewer's hand as card faces: title, short type, and type and effect in full.

    Cards not in ``seen`` (the hand at the viewer's last decision) are marked new.
    """
    faces = []
    for slot in view.hand:
        badge = _("new") if seen is not None and slot not in seen else ""
        name = view.card(slot)
        if name is None:
            faces.append(Face(slot, "?", "", _("a card you have not seen"), badge))
            continue
        detail = _("{type}. {effect}").format(type=card_type(name), effect=card_effect(name))
        faces.append(Face(slot, card_title(name), card_type(name, short=True), detail, badge))
    return faces


def title_and_players(
    view: DuelView, duel: DuelGame, turn: int | None, width: int | None = None
) -> tuple[Text, str]:
    """The title line (:func:`title_line`) and the players panel's title. A tournament's
    duel goes to the panel's title ("Players · duel 2 of 5 (1 – 0)") where the line could
    hold it only in short with the names cut below :data:`TITLE_NAME_MOST` columns (four
    players, a long game name: "Duelo de Pasteles 1/5 (0 – 0) · … Ann & Muf 0 – 0 Ecl &
    Bro"): the line is then a single duel's, names whole where they fit. The duels won
    read in the order of the trophies' sides on the line above."""
    line = title_line(view, duel, turn, width)
    players = _("Players")
    number = last_duel(view)
    if not view.options.tournament or duel_number_text(number) in line.plain:
        return line, players
    alone = title_line(view, duel, turn, width, tournament=False)
    most = 2 * DUELS_TO_WIN - 1
    return alone, _("Players · duel {n} of {most} ({duels})").format(
        n=number, most=most, duels=f"{view.duels[0]} – {view.duels[1]}"
    )


def table_title(line: Text, turn: int | None) -> str:
    """The table panel's title: "Table", and the bout's turn where the title ``line``
    had no room for it ("Table · turn 3": four players' names in Spanish or Polish)."""
    if turn is None or _("turn {n}").format(n=turn) in line.plain:
        return _("Table")
    return _("Table · turn {n}").format(n=turn)


def title_line(
    view: DuelView,
    duel: DuelGame,
    turn: int | None,
    width: int | None = None,
    *,
    tournament: bool | None = None,
) -> Text:
    """The top line: game, bout and turn of the bout (unless ``turn`` is None), and the
    trophies ("Trophies: Ann & Cy 1 – 0 Bo & Di"); in a tournament, the duel and the
    duels won too. Where the line is wider than ``width``, the players' names are cut
    first, each alike, so both sides and the score still show; then the turn goes, and a
    tournament's duel is told in short after the game's name, the names once, with the
    trophies ("Cake Duel 2/5 (1 – 0) · bout 3 · Trophies: Ann 2 – 1 Bo"); the game's name
    goes last, only where nothing else makes the line fit. ``tournament`` False leaves a
    tournament's duel out (:func:`title_and_players` shows it elsewhere)."""
    if tournament is None:
        tournament = view.options.tournament
    line = _title(view, duel, turn, duel.names, TITLE_GAME, tournament)
    if width is None or line.cell_len <= width:
        return line
    longest = max(cell_len(name) for name in duel.names)
    stages = (
        (TITLE_GAME, turn, TITLE_NAME_MOST),
        (TITLE_GAME, None, TITLE_NAME_MOST),
        (TITLE_SHORT, None, 3),
        (TITLE_NO_GAME, None, 3),
    )
    for game, shown_turn, fewest in stages:
        for most in range(longest, fewest - 1, -1):
            # a share too narrow for an ellipsis keeps one more letter of each name
            names = cut_apart(duel.names, most, "…" if most > 5 else "")
            line = _title(view, duel, shown_turn, names, game, tournament)
            if line.cell_len <= width:
                return line
    return line


#: The fewest columns the title cuts the players' names to before it leaves out the turn.
TITLE_NAME_MOST = 6
#: How the title names the game: in full, with a tournament's duel in short after it, or
#: not at all.
TITLE_GAME, TITLE_SHORT, TITLE_NO_GAME = "game", "short", "none"


def _title(
    view: DuelView,
    duel: DuelGame,
    turn: int | None,
    names: Sequence[str],
    game: str,
    tournament: bool,
) -> Text:
    """The title line with ``names`` for the players, the game named as ``game`` says, a
    tournament's duel in it if ``tournament``."""
    sides = [" & ".join(names[s] for s in range(duel.players) if s % 2 == side) for side in (0, 1)]
    duels = f"{view.duels[0]} – {view.duels[1]}"
    text = Text()
    if game != TITLE_NO_GAME and not (tournament and game == TITLE_SHORT):
        text.append(_("Cake Duel"), style="bold")
        text.append(" · ")
    # the names once: with the duels won in a tournament ("duel 2 of 5 (Ann 1 – 0 Bo)"),
    # else, and in a tournament's short line ("Cake Duel 2/5 (1 – 0)"), with the trophies
    named = not tournament
    if tournament and game == TITLE_SHORT:
        short = _("{game} {n}/{most}").format(
            game=_("Cake Duel"), n=last_duel(view), most=2 * DUELS_TO_WIN - 1
        )
        text.append(short, style="bold")
        text.append(" (")
        text.append(duels, style="bold")
        text.append(") · ")
        named = True
    elif tournament:
        text.append(duel_number_text(last_duel(view)))
        text.append(f" ({sides[0]} ")
        text.append(duels, style="bold")
        text.append(f" {sides[1]})")
        text.append(" · ")
    text.append(_("bout {n}").format(n=view.bout))
    if turn is not None:
        text.append(" · ")
        text.append(_("turn {n}").format(n=turn))
    text.append(" · ")
    text.append(_("Trophies:"))
    if named:
        text.append(f" {sides[0]}")
    text.append(" ")
    text.append(f"{view.trophies[0]} – {view.trophies[1]}", style="bold")
    if named:
        text.append(f" {sides[1]}")
    return text


def duel_number_text(number: int) -> str:
    """Which duel of a tournament: "duel 2 of 5"."""
    return _("duel {n} of {most}").format(n=number, most=2 * DUELS_TO_WIN - 1)


def last_duel(view: DuelView) -> int:
    """The number of the duel played last (or in play): 1 in a single duel; in a
    tournament ended by a proven breach, the duel it broke off, which nobody won."""
    played = view.duels[0] + view.duels[1]
    to_win = DUELS_TO_WIN if view.options.tournament else 1
    if view.winner is not None and view.duels[view.winner] >= to_win:
        return played
    return played + 1


def specials_line(cards: Sequence[str], duel: int | None = None) -> str:
    """The specials a duel that is over had in its deck: "The hidden specials were
    Oracle, Priest", or in a tournament, which plays several duels, "… of duel 2 were …"."""
    if duel is None:
        return _("The hidden specials were {cards}").format(cards=card_list(cards))
    return _("The hidden specials of duel {n} were {cards}").format(n=duel, cards=card_list(cards))


def audited_specials(table: Any, view: DuelView) -> dict[int, tuple[str, ...]]:
    """Each duel's hidden specials by its number, once the audit at the game's end has
    made every card known (none before it, nor where a ``table`` has no audit): the last
    duel's from the state replayed face up, a tournament's earlier ones from the replay's
    story of each duel won."""
    verdict = getattr(table, "verdict", None)
    replayed = verdict.replay if verdict is not None else None
    if replayed is None:
        return {}
    last = last_duel(view)
    specials = {last: hidden_specials(replayed.state, replayed.dealer)}
    if last > 1:
        for number, cards in enumerate(duel_specials(table.replay())[: last - 1], 1):
            specials[number] = cards
    return specials


def tournament_score(duels: tuple[int, int], names: Sequence[str]) -> str:
    """The duels won: "Tournament: Bea 2 – 1 Muffin, first to 3"."""
    return _("Tournament: {score}, first to {n}").format(
        score=score_text(duels, names), n=DUELS_TO_WIN
    )


def _tag(duel: DuelGame, seat: int, viewer: int | None) -> str:
    if seat == viewer:
        return _("(you)")
    mate = viewer is not None and duel.players == 4 and seat % 2 == viewer % 2
    tags = []
    if mate:
        tags.append(_("(partner)"))
    elif duel.shown_as_bot(seat):
        tags.append(_("(bot)"))
    if duel.away(seat):
        tags.append(_("(offline)"))
    return " ".join(tags)


#: The columns of :func:`seat_rows`, named on the players panel.
SEAT_COLUMNS = (N_("cakes"), N_("cards"), N_("trophies"))


def seat_rows(view: DuelView, duel: DuelGame, viewer: int | None) -> list[SeatRow]:
    """Every seat with cakes, trophies and cards in hand; the viewer's seat last."""
    order = [s for s in range(duel.players) if s != viewer]
    if viewer is not None:
        order.append(viewer)
    rows = []
    for seat in order:
        side = seat % 2
        facts = (str(view.cakes[side]), str(len(view.hands[seat])), str(view.trophies[side]))
        note = brief = ""
        if seat != viewer and viewer is not None:
            known = [view.known[s] for s in view.hands[seat] if s in view.known]
            known += view.glimpses.get(seat, ())  # seen in a look: the cards, not the slots
            unknown = max(0, len(view.hands[seat]) - len(known))
            if known:  # where the words do not fit: the cards alone, "?" for the others
                brief = card_list([*known, *[None] * unknown])
            if known and len(known) == len(view.hands[seat]):
                note = _("holds {cards}").format(cards=card_list(known))
            elif known:
                note = _("you know they hold {cards}").format(cards=card_list(known))
        rows.append(
            SeatRow(
                name=duel.names[seat],
                tag=_tag(duel, seat, viewer),
                facts=facts,
                note=note,
                brief=brief,
                active=seat in view.to_act,
                own=seat == viewer,
            )
        )
    return rows


def _play_lines(
    label: str, view: DuelView, duel: DuelGame, play: Play, width: int = 0
) -> tuple[Text, Text | None]:
    """A claim on the table, and the cards under it if the viewer knows them. Where the
    line is wider than ``width`` (0: no limit), the facedown blocks after the claim go,
    then the names are cut: the claim itself stays whole."""
    line, note = _play_line(label, view, duel, play, duel.names, True)
    if width and line.cell_len > width:
        longest = max(cell_len(name) for name in duel.names)
        for most in range(longest, 2, -1):
            names = cut_apart(duel.names, most)
            line, note = _play_line(label, view, duel, play, names, False)
            if line.cell_len <= width:
                break
    return line, note


def _play_line(
    label: str, view: DuelView, duel: DuelGame, play: Play, names: Sequence[str], pile: bool
) -> tuple[Text, Text | None]:
    """:func:`_play_lines` with ``names`` for the seats, the facedown blocks if ``pile``."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{label:<8}", style="bold")
    line.append(names[play.seat])
    if duel.players == 4 and view.target is not None and play.seat != view.target:
        line.append(" → " + names[view.target])
    line.append(": ")
    line.append(claim_text(play.count, play.name), style="bold")
    if pile:
        line.append("  ")
        line.append(FacedownPile.blocks(play.count, most=5), style="dim")
    if view.seat is None or not all(s in view.known for s in play.slots):
        return line, None
    # facedown cards the viewer knows: its own, a partner's, or cards it saw
    cards = card_list(view.known[s] for s in play.slots)
    note = Text(" " * 8, no_wrap=True, overflow="ellipsis")
    if play.seat == view.seat:
        note.append(_("yours: {cards}").format(cards=cards), style="italic")
    else:
        note.append(_("you know: {cards}").format(cards=cards), style="italic")
    return line, note


def table_text(
    view: DuelView, duel: DuelGame, last_turn: Sequence[str], size: tuple[int, int] = (0, 0)
) -> Text:
    """The table: the attack and block claims, or the last turn's, as many of its newest
    lines as fit in ``size`` (columns, rows; 0: no limit). The claims themselves always
    show; what the viewer knows of their cards, where there is room."""
    width, rows = size
    if view.attack is not None:
        attack, attack_note = _play_lines(_("Attack"), view, duel, view.attack, width)
        if view.block is not None:
            block, block_note = _play_lines(_("Block"), view, duel, view.block, width)
        else:
            block = Text(f"{_('Block'):<8}", style="bold")
            block.append("—", style="dim")
            block_note = None
        room = rows - 2 if rows else 2
        lines = [attack]
        if attack_note is not None and room > 0:
            lines.append(attack_note)
            room -= 1
        lines.append(block)
        if block_note is not None and room > 0:
            lines.append(block_note)
        if width:  # one row each, so the block never falls below the box
            for line in lines:
                line.truncate(width, overflow="ellipsis")
        return Text("\n").join(lines)
    text = Text()
    if last_turn:
        if width and rows:
            header = rows > 2
            shown = fit_lines(last_turn, width, rows - 1 if header else rows)
        else:
            header, shown = True, list(last_turn[-5:])
        if header:
            text.append(_("Last turn"), style="bold")
            text.append("\n")
        text.append("\n".join(f"  {line}" for line in shown), style="dim")
    else:
        text.append(_("No claim on the table yet."), style="dim")
    return text


def deck_text(view: DuelView, shown: bool = False) -> str:
    """Deck and discard counts and the number of hidden specials: the table's subtitle
    (once the duel's end has ``shown`` them by name, how many it showed)."""
    parts = [
        _("deck {n}").format(n=view.deck_count),
        _("discard {n}").format(n=view.discard_count),
    ]
    count = view.specials_in_deck
    if count and shown:
        parts.append(ngettext("{n} special shown", "{n} specials shown", count).format(n=count))
    elif count:
        parts.append(ngettext("{n} hidden special", "{n} hidden specials", count).format(n=count))
    else:
        parts.append(_("core game"))
    return " · ".join(parts)


def specials_text(view: DuelView, hidden: Sequence[str] = ()) -> Text:
    """The specials this seat knows to be in this duel's deck, on one line; once the duel
    is over, its ``hidden`` specials where they are known (as its end names them)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if view.winner is not None and hidden:
        duel = last_duel(view) if view.options.tournament else None
        text.append(specials_line(hidden, duel), style="italic")
    elif view.specials_seen:
        seen = card_list(sorted(view.specials_seen))
        text.append(_("Specials seen: {cards}").format(cards=seen), style="italic")
    return text


def last_turn_lines(entries: Sequence[object], names: Sequence[str], keep: list[str]) -> list[str]:
    """Update ``keep`` (what happened in the last turn) with new entries' events; a plain
    string among them is a line that explains the event before it (a block's result)."""
    for entry in entries:
        if isinstance(entry, str):
            keep.append(entry)
            continue
        event = getattr(entry, "event", entry)
        if isinstance(event, ev.BoutStarted):
            keep.clear()
        elif isinstance(event, ev.Claimed | ev.Passed):
            keep.clear()
            keep.append(describe(event, names, brief=True))
        elif not isinstance(event, ev.Drew | ev.BoutWon | ev.DuelWon | ev.LeadChosen):
            keep.append(describe(event, names, brief=True))
    return keep


def fit_lines(lines: Sequence[str], width: int, rows: int, indent: int = 2) -> list[str]:
    """The last of ``lines`` that fit in ``rows`` rows of ``width`` columns once wrapped:
    the newest line is never the one cut off."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        need = max(1, -(-(Text(line).cell_len + indent) // max(1, width)))
        if used + need > rows and kept:
            break
        kept.append(line)
        used += need
    kept.reverse()
    return kept


@dataclass(frozen=True)
class Hint:
    """What the viewer's own step asks, with its keys: ``words`` in full (where a
    ``seat`` is named, the name of the seat it answers, a format string with ``{seat}``
    for it), and ``keys``, the keys alone, said where the line has no room for the rest
    (the table shows the claim too)."""

    words: str
    keys: str
    seat: str = ""

    @property
    def text(self) -> str:
        return self.words.format(seat=self.seat) if self.seat else self.words

    def fit(self, line: str, width: int) -> str:
        """``line``, which holds this hint's :attr:`text` (after a networked clock, say),
        in ``width`` columns with every key whole: the seat's name is cut first, to no
        fewer than :data:`HINT_NAME_MOST` columns, then the keys are said alone; where a
        line is too wide even so, the keys come first and the rest is cut."""
        full = self.text
        if cell_len(line) <= width or full not in line:
            return line
        if self.seat:
            for most in range(cell_len(self.seat) - 1, HINT_NAME_MOST - 1, -1):
                shorter = line.replace(full, self.words.format(seat=cut(self.seat, most)))
                if cell_len(shorter) <= width:
                    return shorter
        alone = line.replace(full, self.keys)
        if cell_len(alone) <= width:
            return alone
        rest = line.replace(full, "").strip(" ·")
        return f"{self.keys} · {rest}" if rest else self.keys


#: The fewest columns a seat's name is cut to in a hint before the hint says only its keys.
HINT_NAME_MOST = 6


def own_hint(view: DuelView, duel: DuelGame) -> Hint:
    """The viewer's own step in words, and its keys."""
    phase = view.phase
    names = duel.names
    if phase is Phase.ATTACK:
        return Hint(
            _("Your attack: pick cards (space, 1–9) · c claim · p pass"),
            _("space or 1–9 pick cards · c claim · p pass"),
        )
    if phase is Phase.RESPOND and view.attack is not None:
        claim = claim_text(view.attack.count, view.attack.name)
        return Hint(
            _("{seat} claims {claim}: x challenge · b block · a accept").replace(
                "{claim}", _literal(claim)
            ),
            _("x challenge · b block · a accept"),
            names[view.attack.seat],
        )
    if phase is Phase.REPLY and view.block is not None:
        claim = claim_text(view.block.count, view.block.name)
        return Hint(
            _("{seat} blocks with {claim}: x challenge · a accept").replace(
                "{claim}", _literal(claim)
            ),
            _("x challenge · a accept"),
            names[view.block.seat],
        )
    if phase is Phase.PRIEST:
        return Hint(_("Your Priest takes a card of the attack: t to choose"), _("t choose"))
    if phase is Phase.SUMMON:
        return Hint(_("Your Summoner calls for a card: s to name it"), _("s name a card"))
    if phase is Phase.LEAD:
        return Hint(_("Your team starts: f to choose who goes first"), _("f who goes first"))
    if phase is Phase.TRADE:
        return Hint(
            _("Trade with your partner? o offer · k keep your hand"),
            _("o offer a trade · k keep your hand"),
        )
    if phase is Phase.WOLFY:
        return Hint(
            _("You played Sir Wolfy: w reveal it · h keep it hidden"),
            _("w reveal Sir Wolfy · h keep it hidden"),
        )
    if phase is Phase.TRADE_ANSWER and isinstance(view.trade_offer, Trade):
        offer = view.trade_offer
        mate = view.attacker if view.attacker is not None else 0
        flipped = Trade(offer.take, offer.give)  # as the answering seat sees it
        what = describe_action(flipped, names, known=view.known)
        return Hint(
            _("{seat} offers a trade ({what}): y agree · n refuse").replace(
                "{what}", _literal(what)
            ),
            _("y agree to the trade · n refuse"),
            names[mate],
        )
    text = describe_decision(phase, view.seat, names)
    return Hint(text, text)


def _literal(text: str) -> str:
    """``text`` as part of a format string: its braces stand for themselves."""
    return text.replace("{", "{{").replace("}", "}}")


def status_line(view: DuelView, duel: DuelGame, viewer: int | None) -> tuple[str, str]:
    """The status line and its tone, for whoever is to act."""
    if view.winner is not None:
        over = (
            N_("{side} wins the tournament. r replay · d new tournament · e results · q quit")
            if view.options.tournament
            else N_("The duel is over: {side} wins. r replay · d new duel · e results · q quit")
        )
        return _(over).format(
            side=seat_name(view.winner, duel.names)
            if duel.players == 2
            else " & ".join(duel.names[s] for s in range(duel.players) if s % 2 == view.winner)
        ), "end"
    seat = view.to_act[0] if view.to_act else None
    if seat is None:
        return _("Dealing…"), "wait"
    if view.phase is Phase.WOLFY and not view.options.tournament:
        # the app makes this step for every seat: nobody is deciding anything
        return _("The turn ends: a Sir Wolfy played, if any, is shown …"), "wait"
    if seat == viewer:
        return own_hint(view, duel).text, "you"
    if duel.shown_as_bot(seat):
        return describe_decision(view.phase, seat, duel.names) + " …", "wait"
    return describe_decision(view.phase, seat, duel.names), "wait"


def take_label(view: DuelView, action: Take) -> str:
    """A Priest's choice: which of the attack's facedown cards, by position."""
    assert view.attack is not None
    places = [str(view.attack.slots.index(s) + 1) for s in action.slots]
    return ngettext(
        "Facedown card {places} of the attack",
        "Facedown cards {places} of the attack",
        len(places),
    ).format(places=", ".join(places))


def board(table: DuelGame, view: DuelView, width: int) -> Text:
    """A spectator's table: the bout and trophies, every seat's cakes and cards in hand
    (▶ the seat that decides), the claims on the table, and the deck; once the game is
    over and audited, each duel's hidden specials by name in place of the deck."""
    title = title_line(view, table, None, width)
    labels = [_(label) for label in SEAT_COLUMNS[:2]]
    name_width = max(10, *(cell_len(table.names[s]) + 2 for s in range(table.players)))
    name_width = min(name_width, max(10, width - 2 - sum(len(x) + 2 for x in labels)))
    header = Text(" " + "".ljust(name_width), style="dim")
    header.append("".join(label.rjust(len(label) + 2) for label in labels))
    rows = [title, header]
    shown = cut_apart(table.names, name_width - 1)
    for seat in range(table.players):
        row = Text("▶" if seat in view.to_act and view.winner is None else " ", style="bold")
        row.append(fit(shown[seat], name_width - 1) + " ")
        facts = (str(view.cakes[seat % 2]), str(len(view.hands[seat])))
        for label, fact in zip(labels, facts, strict=True):
            row.append(fact.rjust(len(label) + 2))
        rows.append(row)
    if view.winner is None:
        rows.append(table_text(view, table, (), (width, 2)))
        named = []
    else:
        rows.append(Text(_("Game over"), style="bold"))
        # after the audit, the hidden specials by name, as the players' end says them
        named = [(n, cards) for n, cards in sorted(audited_specials(table, view).items()) if cards]
    if named:
        tournament = view.options.tournament
        for number, cards in named:
            rows.append(Text(specials_line(cards, number if tournament else None), style="italic"))
        return cut_rows(rows, width)
    deck = Text(deck_text(view), style="dim")
    if view.specials_seen:
        deck.append(" · ")
        deck.append_text(specials_text(view))
    rows.append(deck)
    return cut_rows(rows, width)

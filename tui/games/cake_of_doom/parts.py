"""What the Cake of Doom screen shows, computed from one seat's view: no widgets here.

The hand is shown by sort — cards of one sort are worth the same and the rules treat them
alike — so an offer or a discard is built by counts: "Sponge Cake 2/3" is two of the
three sponge cakes in hand. A specialty carries its continent ("Tiramisu·Eu"), and in an
offer the +1 it gets on the target ("Tiramisu+1"). A region's row reads: name, continent,
minimum (≥), who holds it and the value lying on it, and in the advanced game its control
bonus in short.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.text import Text

from cakeparty.core.actions import Action
from cakeparty.core.games.cake_of_doom.actions import ChooseMix, Draw, Peek, PickCard, Remove, Rob
from cakeparty.core.games.cake_of_doom.cards import (
    ALIENS,
    DOOM,
    DOOM_REGIONS,
    FREYA,
    REGIONS,
    SORT_TITLES,
    SORTS,
    card,
)
from cakeparty.core.games.cake_of_doom.rules import units
from cakeparty.core.games.cake_of_doom.state import Phase
from cakeparty.core.games.cake_of_doom.text import (
    continent_title,
    describe_action,
    removal_words,
    target_title,
)
from cakeparty.core.games.cake_of_doom.view import DoomView, OfferView
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui.widgets.fitted import cut, cut_apart, fit

#: A continent in two letters, after a specialty's name and in a region's row.
CONTINENT_SHORT: dict[str, str] = {
    "europe": N_("Eu"),
    "asia": N_("As"),
    "africa": N_("Af"),
    "americas": N_("Am"),
    "oceania": N_("Oc"),
    "poles": N_("Po"),
}

#: Each alien's power in a few words, for the players' panel (the help has it in full).
POWER_SHORT: dict[str, str] = {
    "freya": N_("+1 neutral"),
    "glorp": N_("limit 12"),
    "zix": N_("sees steal"),
    "mumbo": N_("fail: draw"),
    "vashti": N_("eaten: 1"),
    "krell": N_("2 sabotage"),
    "pib": N_("draw +1"),
    "ozzy": N_("+1 always"),
}

#: Each region's control bonus in a few words (advanced game), for the regions' panel.
BONUS_SHORT: dict[str, str] = {
    "north-america": N_("draw 2"),
    "south-america": N_("draw cake"),
    "western-europe": N_("top cake"),
    "eastern-europe": N_("top misch"),
    "east-asia": N_("steal 1"),
    "south-asia": N_("draw misch"),
    "middle-east": N_("look, take"),
    "north-africa": N_("swap cards"),
    "west-africa": N_("draw 1"),
    "southern-africa": N_("all drop 1"),
    "australia": N_("pick misch"),
    "pacific-islands": N_("2 cakes −1"),
    "arctic": N_("rob left"),
    "antarctica": N_("rob right"),
}

#: Each region's name in at most 10 columns, for a row too narrow for the whole name (a
#: spectator's two columns of regions).
REGION_SHORT: dict[str, str] = {
    "north-america": N_("N. America"),
    "south-america": N_("S. America"),
    "western-europe": N_("W. Europe"),
    "eastern-europe": N_("E. Europe"),
    "east-asia": N_("E. Asia"),
    "south-asia": N_("S. Asia"),
    "middle-east": N_("Mid. East"),
    "north-africa": N_("N. Africa"),
    "west-africa": N_("W. Africa"),
    "southern-africa": N_("S. Africa"),
    "australia": N_("Australia"),
    "pacific-islands": N_("Pac. Isl."),
    "arctic": N_("Arctic"),
    "antarctica": N_("Antarctica"),
}

#: The order sorts are shown in a hand: sponge cake, specialties, then mischief.
SORT_ORDER = {sort: index for index, sort in enumerate(SORTS)}


def region_title(name: str, width: int) -> str:
    """The region's name in at most ``width`` columns: whole, or else its short name."""
    title = _(REGIONS[name].title)
    return title if len(title) <= width else cut(_(REGION_SHORT[name]), width)


def sort_title(sort: str) -> str:
    return _(SORT_TITLES[sort])


def card_title(name: str | None) -> str:
    """A card's name in words ("Tiramisu"), or "a face-down card"."""
    if name is None:
        return _("a face-down card")
    return sort_title(card(name).sort)


def sort_label(sort: str) -> str:
    """A sort as the hand shows it: "Tiramisu·Eu" (a specialty with its continent)."""
    continent = SORTS[sort][1]
    if continent is None:
        return sort_title(sort)
    return f"{sort_title(sort)}·{_(CONTINENT_SHORT[continent])}"


def seat_name(seat: int | None, names: Sequence[str]) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


# -- the hand, by sort ----------------------------------------------------------------------


@dataclass(frozen=True)
class Sort:
    """The cards of one sort in a hand: the sort and its slots, lowest first."""

    sort: str
    slots: tuple[int, ...]

    @property
    def cake(self) -> bool:
        return SORTS[self.sort][0] == "cake"


def hand_sorts(view: DoomView) -> list[Sort]:
    """The viewer's hand grouped by sort: cake cards first, then mischief."""
    groups: dict[str, list[int]] = {}
    for slot in sorted(view.hand):
        name = view.card(slot)
        if name is not None:
            groups.setdefault(card(name).sort, []).append(slot)
    ordered = sorted(groups, key=lambda s: SORT_ORDER[s])
    return [Sort(s, tuple(groups[s])) for s in ordered]


def sort_counts(sorts: Sequence[Sort]) -> Counter[str]:
    """How many cards of each sort a hand holds."""
    return Counter({g.sort: len(g.slots) for g in sorts})


@dataclass
class Marks:
    """A choice being built: an offer (its target and the cards by sort) or a discard."""

    mode: str | None = None  # "bribe" or "discard"
    target: str | None = None  # the bribe's target
    picked: dict[str, int] = field(default_factory=dict)  # sort → cards chosen

    def clear(self) -> None:
        self.mode = self.target = None
        self.picked.clear()

    @property
    def count(self) -> int:
        return sum(self.picked.values())

    def slots(self, sorts: Sequence[Sort]) -> tuple[int, ...]:
        """The chosen cards: the lowest slots of each sort, as the legal moves name them."""
        out: list[int] = []
        for group in sorts:
            out.extend(group.slots[: self.picked.get(group.sort, 0)])
        return tuple(sorted(out))


def hand_lines(
    view: DoomView,
    sorts: Sequence[Sort],
    cursor: int,
    marks: Marks,
    width: int,
    *,
    live: bool,
    new: Mapping[str, int] | None = None,
) -> Text:
    """Two lines: the cake cards, then the mischief cards, each sort with its count (and
    how many are chosen); the sort under the cursor is highlighted, a sort with ``new``
    cards (come since this seat's last move: drawn, stolen, taken) is starred. A line too
    long for ``width`` shows the part around the cursor."""
    lines = []
    headings = ((True, _("Cake")), (False, _("Mischief")))
    heads = max(len(f"{h} {len(view.hand)}: ") for _c, h in headings)
    for cake, heading in headings:
        parts: list[tuple[Text, bool]] = []
        for index, group in enumerate(sorts):
            if group.cake != cake:
                continue
            chosen = marks.picked.get(group.sort, 0)
            label = sort_label(group.sort)
            if chosen:
                label += f" {chosen}/{len(group.slots)}"
            elif len(group.slots) > 1:
                label += f"×{len(group.slots)}"
            if new and new.get(group.sort, 0) > 0:
                label += "*"
            here = live and index == cursor
            style = "reverse bold" if here else ("bold underline" if chosen else "")
            parts.append((Text(label, style=style), here))
        count = sum(len(g.slots) for g in sorts if g.cake == cake)
        head = Text(f"{heading} {count}: ".ljust(heads), style="bold")
        if not parts:
            lines.append(head + Text(_("none"), style="dim"))
            continue
        lines.append(head + _window(parts, width - head.cell_len))
    return Text("\n").join(lines)


def _window(parts: Sequence[tuple[Text, bool]], width: int) -> Text:
    """The parts joined by two spaces; when too wide, the run around the highlighted one,
    with ‹ › saying how many more lie to each side, starred when a new card is among
    them ("‹1 … 2*›")."""
    gap = "  "
    full = Text(gap).join(p for p, _here in parts)
    if full.cell_len <= width:
        return full
    focus = next((i for i, (_p, here) in enumerate(parts) if here), 0)
    start = focus
    end = focus + 1
    used = parts[focus][0].cell_len
    room = width - 8  # the marks at both ends
    while True:
        grown = False
        if end < len(parts) and used + len(gap) + parts[end][0].cell_len <= room:
            used += len(gap) + parts[end][0].cell_len
            end += 1
            grown = True
        if start > 0 and used + len(gap) + parts[start - 1][0].cell_len <= room:
            start -= 1
            used += len(gap) + parts[start][0].cell_len
            grown = True
        if not grown:
            break

    def more(hidden: Sequence[tuple[Text, bool]]) -> str:
        starred = any(p.plain.endswith("*") for p, _here in hidden)
        return f"{len(hidden)}{'*' if starred else ''}"

    out = Text(f"‹{more(parts[:start])} " if start > 0 else "", style="dim")
    out.append_text(Text(gap).join(p for p, _here in parts[start:end]))
    if end < len(parts):
        out.append(f" {more(parts[end:])}›", style="dim")
    out.truncate(width, overflow="ellipsis")
    return out


# -- offers ---------------------------------------------------------------------------------


def requirement(view: DoomView, seat: int, target: str) -> int | None:
    """What ``seat``'s offer for ``target`` must reach, or ``None`` when it may not bribe
    it (as the rules say it, from the public view)."""
    if target == DOOM:
        return view.doom.minimum if len(view.regions_of(seat)) >= DOOM_REGIONS else None
    region = next((r for r in view.regions if r.name == target), None)
    if region is None or region.holder == seat:
        return None
    return region.minimum if region.holder is None else region.value + 1


def target_continent(view: DoomView, target: str) -> str | None:
    return view.doom.favourite if target == DOOM else REGIONS[target].continent


def freya_plus(view: DoomView, seat: int, target: str) -> int:
    """Freya's +1 on a bribe of a neutral region."""
    if view.aliens[seat] != FREYA or target == DOOM:
        return 0
    region = next((r for r in view.regions if r.name == target), None)
    return 1 if region is not None and region.holder is None else 0


def offer_worth(
    view: DoomView, seat: int, target: str, names: Sequence[str]
) -> tuple[list[tuple[str, int]], int, int]:
    """The cards of an offer with what each is worth on ``target``, Freya's +1 and the
    total."""
    continent = target_continent(view, target)
    alien = view.aliens[seat]
    worth = [(name, units(name, continent, alien)) for name in names]
    plus = freya_plus(view, seat, target)
    return worth, plus, sum(w for _n, w in worth) + plus


def _worth_text(name: str, value: int) -> str:
    title = card_title(name)
    return f"{title}+1" if value == 2 else title


def _value_text(value: int, need: int | None) -> Text:
    """ " = 4, needs 3 ✓" in green when reached, red when not."""
    reached = need is not None and value >= need
    style = "bold green" if reached else "bold red"
    words = _("= {value}, needs {need}").format(value=value, need=need if need else "?")
    return Text(f" {words} {'✓' if reached else '✗'}", style=style)


def packed(head: Text, parts: Sequence[Text], width: int, rows: int) -> Text:
    """``head``, then ``parts`` after " · ", over at most ``rows`` lines of ``width``
    columns: a part that does not fit on a line starts the next ("· Pavlova+1"), never
    split; the last line takes the rest (the screen cuts it with "…")."""
    lines = [head.copy()]
    for part in parts:
        line = lines[-1]
        if len(lines) < rows and line.cell_len + 3 + part.cell_len > width:
            lines.append(Text("· ") + part)
        else:
            line.append(" · ")
            line.append_text(part)
    return Text("\n").join(lines)


def builder_line(
    view: DoomView, marks: Marks, sorts: Sequence[Sort], width: int = 0, rows: int = 1
) -> Text:
    """The offer being built: its value with every bonus against what it must reach, then
    its cards by sort with their +1s, over at most ``rows`` lines of ``width`` columns."""
    assert view.seat is not None and marks.target is not None
    need = requirement(view, view.seat, marks.target)
    chosen = [view.card(s) for s in marks.slots(sorts)]
    _worth, plus, total = offer_worth(view, view.seat, marks.target, [n for n in chosen if n])
    continent = target_continent(view, marks.target)
    alien = view.aliens[view.seat]
    text = Text()
    text.append(_("Offer for {target}").format(target=target_title(marks.target)), style="bold")
    text.append_text(_value_text(total, need))
    parts = []
    for group in sorts:
        count = marks.picked.get(group.sort, 0)
        name = view.card(group.slots[0]) if count else None
        if name is None:
            continue
        label = _worth_text(name, units(name, continent, alien))
        parts.append(Text(f"{label}×{count}" if count > 1 else label))
    if plus:
        parts.append(Text(_("Freya +1")))
    return packed(text, parts or [Text(_("no card yet"))], width, rows)


def offer_lines(view: DoomView, names: Sequence[str], width: int = 0, rows: int = 1) -> Text:
    """The bribe on the table: who offers for which target, its value with every bonus and
    removal against what it must reach, its cards (over at most ``rows`` lines of
    ``width`` columns); then the sabotages so far and who is asked next."""
    offer = view.offer
    assert offer is not None
    who = seat_name(offer.seat, names)
    text = Text()
    text.append(
        _("{name} bribes {target}").format(name=who, target=target_title(offer.target)),
        style="bold",
    )
    if not offer.opened:
        text.append(" · ")
        text.append(
            ngettext("{n} face-down card", "{n} face-down cards", len(offer.slots)).format(
                n=len(offer.slots)
            ),
            style="italic",
        )
        text.append(" · " + _("needs {need}").format(need=offer.need), style="bold")
    else:
        value = offer.value if offer.value is not None else 0
        text.append_text(_value_text(value, offer.need))
        text = packed(text, _offer_cards(view, offer), width, rows)
    second = sabotage_text(view, offer, names)
    return Text("\n").join([text, second])


def _offer_cards(view: DoomView, offer: OfferView) -> list[Text]:
    """The cards of an offer on the table, alike ones together ("Sponge Cake×2"): with
    their +1s, a card the sabotage turned sideways (its +1 gone), a card removed (−)."""
    continent = target_continent(view, offer.target)
    alien = view.aliens[offer.seat]
    shown: list[tuple[str, str]] = []
    for index, slot in enumerate(offer.slots):
        name = view.card(slot)
        if name is None:
            shown.append(("?", ""))
            continue
        full = units(name, continent, alien)
        left = offer.left[index] if index < len(offer.left) else full
        if left <= 0:
            shown.append(("−" + card_title(name), "strike dim"))
        elif left < full:
            shown.append((_("{card} sideways").format(card=card_title(name)), "italic"))
        else:
            shown.append((_worth_text(name, full), ""))
    if offer.freya:
        removed = bool(offer.freya_removed)
        shown.append((("−" if removed else "") + _("Freya +1"), "strike dim" if removed else ""))
    out = []
    index = 0
    while index < len(shown):
        label, style = shown[index]
        count = 1
        while index + count < len(shown) and shown[index + count] == (label, style):
            count += 1
        out.append(Text(f"{label}×{count}" if count > 1 else label, style=style))
        index += count
    return out


def sabotage_text(view: DoomView, offer: OfferView, names: Sequence[str]) -> Text:
    """The sabotages against the offer, and whose answer is awaited."""
    parts = []
    for play in offer.sabotages:
        part = _("{name}: {card}").format(
            name=seat_name(play.seat, names), card=sort_title(play.kind)
        )
        if play.blocked_by is not None:
            part += " " + _("(Force Field)")
        elif play.removal is not None:
            removed = len(play.removal) + play.freya
            part += " −" + str(removed)
        parts.append(part)
    text = Text()
    if offer.protected:
        text.append(_("Protected: two regions of one continent, no sabotage"), style="italic")
    elif parts:
        text.append(_("Sabotage: "), style="bold")
        text.append(" · ".join(parts))
    else:
        text.append(_("No sabotage yet"), style="dim")
    later = ", ".join(seat_name(s, names) for s in view.asking)
    if view.phase is Phase.SABOTAGE and view.to_act:
        now = ", ".join(seat_name(s, names) for s in view.to_act)
        asked = (
            _("asking {names}, then {later}").format(names=now, later=later)
            if later
            else _("asking {names}").format(names=now)
        )
        text.append("  " + asked, style="dim")
    elif later:
        text.append("  " + _("asked next: {names}").format(names=later), style="dim")
    return text


# -- regions and players --------------------------------------------------------------------


def regions_text(
    view: DoomView,
    names: Sequence[str],
    width: int,
    target: str | None = None,
    rows: int | None = None,
) -> Text:
    """One row per region in play, then DOOM; the ``target`` of an offer is highlighted
    (the one being built, or the one on the table). DOOM's last words ("needs 2 regions"),
    where they would push its row out of the regions' columns, go on a line of their own
    under it if the panel has ``rows`` for it, else its row gives up its name's padding."""
    advanced = view.options.advanced
    lines = []
    name_width = max(len(_(REGIONS[r.name].title)) for r in view.regions) if view.regions else 10
    # the other columns take 23 (28 with a bonus): a longer name uses the room left, and
    # is cut short (to 12 at the least) where the holder and value would be; with a bonus
    # in a narrow column (a spectator's two columns at 80), the holder gives up a column and
    # the name is cut to 10, so that the bonus's words still fit
    others = 28 if advanced else 23
    holder_width = 7
    if advanced and width < 12 + others:
        holder_width, others = 6, others - 1
    name_width = min(name_width, max(10 if advanced else 12, width - others))
    holders = cut_apart(names, holder_width)
    for region in view.regions:
        row = Text()
        row.append(region_title(region.name, name_width).ljust(name_width), style="bold")
        continent = (
            _(CONTINENT_SHORT[region.continent]) if advanced else continent_title(region.continent)
        )
        row.append(" " + continent.ljust(2 if advanced else 8))
        row.append(f" ≥{region.minimum}")
        if region.holder is None:  # a longer word than the holder's takes the value's columns
            word = (_("neutral") if not advanced else "—").ljust(holder_width)
            row.append(" " + word, style="dim")
            row.append(" " * max(0, holder_width + 3 - len(word)))
        else:
            holder = fit(seat_name(region.holder, holders), holder_width)
            own = view.seat is not None and region.holder == view.seat
            row.append(" " + holder, style="bold" if own else "")
            row.append(f" {region.value:>2}")
        if advanced:
            row.append(" " + _(BONUS_SHORT.get(region.name, "")), style="italic")
        row.truncate(width, overflow="ellipsis")
        if region.name == target:
            row.pad_right(width - row.cell_len)
            row.stylize("reverse")
        lines.append(row)
    doom = Text()
    fav = view.doom.favourite
    holder = (
        seat_name(view.doom.holder, names) if view.doom.holder is not None else _("needs 2 regions")
    )
    rest = (3 if advanced else 9) + 4 + len(holder)
    below = name_width + rest > width and rows is not None and len(view.regions) + 2 <= rows
    # else DOOM's row gives up the padding of its name before its last words are cut
    doom_width = name_width if below else min(name_width, max(len(_("DOOM")), width - rest))
    doom.append(_("DOOM").ljust(doom_width), style="bold reverse")
    doom.append(
        " "
        + (_(CONTINENT_SHORT[fav]) if advanced and fav else continent_title(fav)).ljust(
            2 if advanced else 8
        )
    )
    doom.append(f" ≥{view.doom.minimum}")
    held = Text(holder, style="bold" if view.doom.holder is not None else "dim")
    under = Text()
    if below:  # right under the row, to the panel's right edge
        under = Text(" " * max(0, width - held.cell_len)) + held
        under.truncate(width, overflow="ellipsis")
    else:
        doom.append(" ")
        doom.append_text(held)
    doom.truncate(width, overflow="ellipsis")
    for line in (doom, under) if below else (doom,):
        if target == DOOM:
            line.pad_right(width - line.cell_len)
            line.stylize("reverse")
        lines.append(line)
    return Text("\n").join(lines)


def players_text(
    view: DoomView,
    names: Sequence[str],
    active: int | None,
    width: int,
    away: Collection[int] = (),
) -> Text:
    """One row per player: the alien and its power, cards in hand (▯), regions held (⚑);
    a player ``away`` tagged offline in place of the power."""
    lines = []
    name_width = max(4, min(8, width - 26))
    shown = cut_apart(names, name_width)
    for seat in range(view.players):
        row = Text()
        row.append("▶" if seat == active else " ", style="bold")
        own = seat == view.seat
        row.append(fit(seat_name(seat, shown), name_width), style="bold" if own else "")
        alien = view.aliens[seat] if seat < len(view.aliens) else None
        if alien is not None:
            tag = _("offline") if seat in away else None
            wide = tag is not None and cell_len(tag) > 10  # it takes the alien's place too
            if not wide:
                row.append(" " + _(ALIENS[alien].title).ljust(6), style="italic")
            if tag is None:
                row.append(" " + _(POWER_SHORT[alien]).ljust(10), style="dim")
            else:
                room = 17 if wide else 10
                tag = cut(tag, room)
                row.append(" ")
                row.append(tag, style="bold reverse")
                row.append(" " * (room - cell_len(tag)))
        row.append(f" ▯{view.hand_sizes[seat]:<2}")
        row.append(f" ⚑{len(view.regions_of(seat))}")
        row.truncate(width, overflow="ellipsis")
        lines.append(row)
    return Text("\n").join(lines)


def discard_tops(view: DoomView) -> str:
    """The draw piles' counts and the discard piles' top cards."""
    return _("piles {cakes}/{mischief} · {discards}").format(
        cakes=view.cake_pile, mischief=view.mischief_pile, discards=discard_words(view)
    )


def discard_words(view: DoomView) -> str:
    """The discard piles' top cards: "discards Pavlova | Abduction"."""
    cake_top = view.card(view.cake_discard[-1]) if view.cake_discard else None
    mischief_top = view.card(view.mischief_discard[-1]) if view.mischief_discard else None
    return _("discards {cake_top} | {mischief_top}").format(
        cake_top=card_title(cake_top) if cake_top else "—",
        mischief_top=card_title(mischief_top) if mischief_top else "—",
    )


# -- the moves of a list ----------------------------------------------------------------------


def move_label(view: DoomView, action: Action, names: Sequence[str]) -> str:
    """A move of a step's list in words (the opening mix, a draw, a player to steal from
    or look at, a card to take, a removal); any other move as the rules word it."""
    if isinstance(action, ChooseMix):
        cakes = ngettext("{n} cake card", "{n} cake cards", action.cakes)
        mischief = ngettext("{n} mischief card", "{n} mischief cards", action.mischief)
        return f"{cakes.format(n=action.cakes)} · {mischief.format(n=action.mischief)}"
    if isinstance(action, Draw):
        return _("{cakes} from the cake pile, {mischief} from the mischief pile").format(
            cakes=action.cakes, mischief=action.mischief
        )
    if isinstance(action, Rob | Peek):
        size = view.hand_sizes[action.victim]
        return ngettext("{name} ({n} card)", "{name} ({n} cards)", size).format(
            name=seat_name(action.victim, names), n=size
        )
    if isinstance(action, PickCard):
        return card_title(view.card(action.slot))
    if isinstance(action, Remove):
        return removal_words(view, action)  # the list's title says what it is for
    return describe_action(view, action, names)

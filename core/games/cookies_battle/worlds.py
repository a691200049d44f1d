"""Worlds drawn from a view: a whole game, every slot named, that one seat cannot tell
from the game it is playing (what a search plays out).

A world is built from the view alone. What the seat sees is kept as it is: its hand, its
pieces and markers, every card played, every slot it knows. Where every slot lies is
public (the deal fills hands with consecutive slots, a pass names its slots, pieces and
markers move in the open; the view's ``known_by`` tells who may know which slot), so only
identities are drawn, at random among those the seat cannot place, within what the story
tells:

* cards: a seat that did not follow the turn suit this round (its card was not drawn by a
  Puppet) holds none of it for the rest of the round;
* pieces: every piece held was shown as a piece in dispute; the pile holds the others.
  Who holds each is drawn by playing the story forward: a take the seat could not follow
  moves a random piece of its victim, as the dealer's draw did, so a breeze moves one
  piece of each seat and no more (a draw that contradicts what the seat saw is thrown
  away and drawn again). Where no draw fits, a piece stays with the seats that may hold
  it (its winner, then every seat a take or a Swap the seat could not follow may have
  moved it to);
* markers: the kinds used are known; the rest are drawn among the markers not seen.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from cakeparty.core.game import World
from cakeparty.core.games.cookies_battle import events as ev
from cakeparty.core.games.cookies_battle.actions import UseMarker
from cakeparty.core.games.cookies_battle.cards import (
    DEAL,
    SUIT,
    box,
    cards,
    marker_kind,
    markers,
    pieces,
)
from cakeparty.core.games.cookies_battle.state import CookiesState, Phase
from cakeparty.core.games.cookies_battle.steps import readings
from cakeparty.core.games.cookies_battle.tricks import turn_suit
from cakeparty.core.games.cookies_battle.view import CookiesView
from cakeparty.core.knowledge import PUBLIC, Knowledge
from cakeparty.core.requests import Commit

SEATS = PUBLIC - 1  # the bits of every seat in a mask
#: draws of the pieces' story before a world falls back on placing them by who may hold
#: them (a draw is thrown away when it contradicts the view)
TRIES = 20


def determinize(view: CookiesView, rng: random.Random) -> World | None:
    """A world consistent with ``view``, the unknown identities drawn with ``rng``;
    ``None`` for a spectator's view or one waiting on the dealer (nobody decides there)."""
    if view.seat is None or view.waiting or len(view.known_by) != len(box(view.variant)):
        return None
    entry = _PLANS.get(id(view))
    if entry is None or entry[0] is not view:
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        entry = _PLANS[id(view)] = (view, _Builder(view))
    return entry[1].draw(rng)


#: the plans of the last few views (a search draws many worlds from one view): what
#: follows from the view alone is worked out once; a view is held with its plan, so its
#: ``id`` is not reused while the plan lives
_PLANS: dict[int, tuple[CookiesView, _Builder]] = {}
_PLANS_MAX = 32


class _Builder:
    """The plan of the worlds of one view: where every slot lies and which names each
    unknown slot may take, worked out once; :meth:`draw` then deals the names."""

    def __init__(self, view: CookiesView) -> None:
        self.view = view
        self.n = view.players
        self.items = box(view.variant)
        self.cards = len(cards(view.variant))
        self.piece_slots = range(self.cards, self.cards + len(pieces()))
        self.marker_slots = range(self.piece_slots.stop, len(self.items))
        self.truth: list[str | None] = [None] * len(self.items)
        for slot, name in view.known.items():
            self.truth[slot] = name
        self.fills: list[tuple[list[str], list[tuple[list[int], Allowed]]]] = []
        # the story of the pieces: who won which, every take and Swap, and the markers
        # used (the takes of one breeze follow its marker together)
        self.story = [
            e
            for e in view.events
            if type(e) in (ev.TrickWon, ev.PieceTaken, ev.Swapped, ev.MarkerUsed)
        ]
        self.template = self.plan()

    # -- where the slots lie ---------------------------------------------------------------

    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's hand: the dealt slots of the current round, each passed card with
        the seat it went to (the two seats that know it: its giver dealt, its receiver)."""
        v, n = self.view, self.n
        size = DEAL[n]
        gone = {*v.played, *(slot for _, slot in v.trick)}
        held: list[list[int]] = [[] for _ in range(n)]
        for slot in range(n * size):
            if slot in gone:
                continue
            dealt = slot // size
            holder = dealt
            others = v.known_by[slot] & SEATS & ~(1 << dealt)
            if others and v.phase is not Phase.PASS:
                holder = others.bit_length() - 1
            held[holder].append(slot)
        held[v.seat] = list(v.hand)  # type: ignore[index]
        return tuple(tuple(h) for h in held)

    def seat_markers(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's markers: those shown to it alone (earned, not used yet)."""
        v = self.view
        out: list[list[int]] = [[] for _ in range(self.n)]
        for slot in self.marker_slots:
            mask = v.known_by[slot]
            if mask and not mask & PUBLIC:
                out[mask.bit_length() - 1].append(slot)
        assert v.seat is not None
        out[v.seat] = [slot for slot, _ in v.markers]
        return tuple(tuple(m) for m in out)

    def used(self) -> tuple[int, ...]:
        """The markers used, in the order of use: each a slot its user earned."""
        v = self.view
        earner = {
            self.marker_slots[k]: e.seat
            for k, e in enumerate(e for e in v.events if isinstance(e, ev.MarkerEarned))
        }
        public = [s for s in self.marker_slots if v.known_by[s] & PUBLIC and s in v.known]
        out: list[int] = []
        for event in v.events:
            if isinstance(event, ev.MarkerUsed):
                user, kind = event.seat, event.kind
            elif isinstance(event, ev.Defended):
                user, kind = event.seat, "defense"
            else:
                continue
            match = next(
                (
                    s
                    for s in public
                    if s not in out and earner.get(s) == user and marker_kind(v.known[s]) == kind
                ),
                None,
            )
            if match is not None:
                out.append(match)
        out.extend(s for s in public if s not in out)
        return tuple(out)

    # -- who is what -----------------------------------------------------------------------

    def voids(self) -> list[set[str]]:
        """The suits each seat has shown it holds none of this round."""
        out: list[set[str]] = [set() for _ in range(self.n)]
        table: list[str] = []
        for event in self.view.events:
            if isinstance(event, ev.RoundStarted):
                out = [set() for _ in range(self.n)]
            elif isinstance(event, ev.PieceShown):
                table = []
            elif isinstance(event, ev.CardPlayed) and event.card is not None:
                suit = turn_suit(table)
                played = SUIT[event.card]
                if not event.forced and suit is not None and played not in (suit, None):
                    out[event.seat].add(suit)
                table.append(event.card)
        return out

    def holders(self) -> dict[str, set[int]]:
        """The seats that may hold each piece shown, as the public story has moved it."""
        may: dict[str, set[int]] = {}

        def moved(giver: int, taker: int, name: str | None) -> None:
            if name is not None:
                may[name] = {taker}
                return
            for seats in may.values():
                if giver in seats:
                    seats.add(taker)

        for event in self.view.events:
            if isinstance(event, ev.TrickWon) and event.piece is not None:
                may[event.piece] = {event.seat}
            elif isinstance(event, ev.PieceTaken):
                moved(event.victim, event.taker, event.piece)
            elif isinstance(event, ev.Swapped):
                before = {name: set(seats) for name, seats in may.items()}
                moved(event.seat, event.target, event.given)
                if event.received is not None:
                    may[event.received] = {event.seat}
                else:
                    for name, seats in before.items():
                        if event.target in seats:
                            may[name].add(event.seat)
        return may

    def deal_cards(self, hands: Sequence[Sequence[int]]) -> None:
        v = self.view
        seen = set(v.known.values())
        names = [c for c in cards(v.variant) if c not in seen]
        voids = self.voids()
        groups: list[tuple[list[int], set[str]]] = []
        for seat, hand in enumerate(hands):
            if seat != v.seat:
                slots = [s for s in hand if self.truth[s] is None]
                groups.append((slots, voids[seat]))
        size = DEAL[self.n]
        out = [s for s in range(self.n * size, self.cards) if self.truth[s] is None]
        groups.append((out, set()))
        self._plan(names, [(slots, _suit_ok(void)) for slots, void in groups])

    def deal_pieces(self, held: Sequence[Sequence[int]], pile: Iterable[int]) -> None:
        v = self.view
        shown = [e.piece for e in v.events if isinstance(e, ev.PieceShown) and e.piece]
        placed = set(v.known.values())
        loose = [p for p in shown if p not in placed]
        shown_set = set(shown)
        unseen = [p for p in pieces() if p not in shown_set and p not in placed]
        may = self.holders()
        groups = []
        for seat, slots in enumerate(held):
            hidden = [s for s in slots if self.truth[s] is None]
            if hidden:
                groups.append((hidden, _held_by(may, seat)))
        self.held_plan = len(self.fills)  # the fill :meth:`history` may stand in for
        self._plan(loose, groups)
        self.held_groups = [
            (seat, [s for s in slots if self.truth[s] is None]) for seat, slots in enumerate(held)
        ]
        # the pieces of each seat this seat can name
        self.held_known: list[Counter[str]] = [
            Counter(name for name in map(self.truth.__getitem__, slots) if name is not None)
            for slots in held
        ]
        self._plan(unseen, [([s for s in pile if self.truth[s] is None], _any)])

    def deal_markers(self) -> None:
        seen = set(self.view.known.values())
        names = [m for m in markers() if m not in seen]
        slots = [s for s in self.marker_slots if self.truth[s] is None]
        self._plan(names, [(slots, _any)])

    def _plan(self, names: list[str], groups: list[tuple[list[int], Allowed]]) -> None:
        """Plan to give ``names`` to the slots of ``groups``, the most constrained first."""
        total = sum(len(slots) for slots, _ in groups)
        if total != len(names):
            raise ValueError(f"{len(names)} names for {total} slots: the view is inconsistent")
        order = sorted(groups, key=lambda g: sum(map(g[1], names)) - len(g[0]))
        self.fills.append((names, [g for g in order if g[0]]))

    # -- the world -------------------------------------------------------------------------

    def plan(self) -> CookiesState:
        """Every part of the world the view fixes, the unknown names still to be drawn."""
        v, n = self.view, self.n
        hands = self.hands()
        self.deal_cards(hands)
        pile = tuple(self.piece_slots[len(self.piece_slots) - v.piece_pile :])
        self.deal_pieces(v.pieces, pile)
        held_markers: tuple[tuple[int, ...], ...] = ((),) * n
        used: tuple[int, ...] = ()
        marker_pile: tuple[int, ...] = ()
        if v.options.markers:
            held_markers = self.seat_markers()
            used = self.used()
            marker_pile = tuple(self.marker_slots[len(self.marker_slots) - v.marker_pile :])
            self.deal_markers()
        # the markers others earned, named in each world after its slot (the k-th marker
        # earned is the k-th of the pile)
        self.secrets = [
            (i, readings(e, n)) for i, e in enumerate(v.events) if isinstance(e, ev.SECRET)
        ]
        at = {i: j for j, (i, _) in enumerate(self.secrets)}
        # (event index, index in the secrets, slot, seat)
        self.earned: list[tuple[int, int, int, int]] = []
        k = 0
        for i, event in enumerate(v.events):
            if isinstance(event, ev.MarkerEarned):
                if event.kind is None:
                    self.earned.append((i, at[i], self.marker_slots[k], event.seat))
                k += 1
        state = CookiesState(
            options=v.options,
            box=self.items,
            knowledge=Knowledge((), ()),
            phase=v.phase,
            queue=(Commit(tuple(range(n))),) if v.phase is Phase.PASS else (),
            piece_pile=pile,
            marker_pile=marker_pile,
            hands=hands,
            out=tuple(range(n * DEAL[n], self.cards)),
            played=v.played,
            pieces=v.pieces,
            markers=held_markers,
            used=used,
            round=v.round,
            trick_no=v.trick_no,
            first=v.first,
            leader=v.leader,
            trick=v.trick,
            last_trick=v.last_trick,
            last_winner=v.last_winner,
            turn_suit=v.turn_suit,
            dispute=v.dispute,
            puppets=v.puppets,
            won_face_up=v.won_face_up,
            tricks_won=tuple(len(w) for w in v.won_face_up),
            markers_earned=self.count(ev.MarkerEarned),
            markers_used=self.count(ev.MarkerUsed, ev.Defended),
            results=v.results,
            winners=v.winners,
            tummy_ache=v.tummy_ache,
            shared=v.shared,
            cheat=v.cheat,
            cheat_reason=next((e.reason for e in v.events if isinstance(e, ev.Cheated)), ""),
            events=v.events,
            secrets=tuple(self.secrets),
            state_id=v.state_id,
        )
        return state.evolve(**self.asking(used))

    def draw(self, rng: random.Random) -> World:
        """One world: the unknown names dealt with ``rng``."""
        truth = list(self.truth)
        held = None
        for _ in range(TRIES):
            held = self.history(rng)
            if held is not None:
                break
        for i, (names, groups) in enumerate(self.fills):
            if i == self.held_plan and held is not None:
                for seat, slots in self.held_groups:
                    rng.shuffle(held[seat])
                    for slot, name in zip(slots, held[seat], strict=True):
                        truth[slot] = name
                continue
            _fill(truth, names, groups, rng)
        if None in truth:
            raise ValueError("a slot was left without a name: the view is inconsistent")
        named = cast("list[str]", truth)
        masks = self.view.known_by
        knowledge = Knowledge(
            tuple([name if mask else None for name, mask in zip(named, masks, strict=True)]),
            masks,
        )
        state = self.template
        if self.earned:
            events = list(state.events)
            secrets = list(self.secrets)
            for i, at, slot, seat in self.earned:
                # its earner reads the kind; everyone else reads the view's blank
                blank = events[i]
                events[i] = told = ev.MarkerEarned(seat, marker_kind(named[slot]))
                secrets[at] = (i, (*(told if s == seat else blank for s in range(self.n)), blank))
            state = state.evolve(knowledge=knowledge, events=tuple(events), secrets=tuple(secrets))
        else:
            state = state.evolve(knowledge=knowledge)
        return World(state, tuple(named))

    def history(self, rng: random.Random) -> list[list[str]] | None:
        """The pieces every seat holds and this seat cannot name, drawn by playing the
        public story forward: each take this seat could not follow picks one of its
        victim's pieces at random, as the dealer did (a breeze's takes all from the
        holdings before it), and each piece of a Swap it could not follow is one of its
        giver's at random. ``None`` where the draw contradicts what the seat saw (a piece
        it took, or knows a seat holds, that the draw had put elsewhere)."""
        held: list[list[str]] = [[] for _ in range(self.n)]
        takes: list[ev.PieceTaken] = []

        def taken() -> bool:
            picks = []
            for take in takes:
                source = held[take.victim]
                if take.piece is None:
                    if not source:
                        return False
                    picks.append(rng.choice(source))
                elif take.piece in source:
                    picks.append(take.piece)
                else:
                    return False
            for take, name in zip(takes, picks, strict=True):
                held[take.victim].remove(name)
                held[take.taker].append(name)
            takes.clear()
            return True

        for event in self.story:
            if type(event) is ev.PieceTaken:
                takes.append(event)
                continue
            if takes and not taken():
                return None
            if type(event) is ev.TrickWon:
                if event.piece is not None:
                    held[event.seat].append(event.piece)
            elif type(event) is ev.Swapped:
                mine, theirs = held[event.seat], held[event.target]
                given = event.given or (rng.choice(mine) if mine else None)
                received = event.received or (rng.choice(theirs) if theirs else None)
                if given not in mine or received not in theirs:
                    return None
                assert given is not None and received is not None
                mine.remove(given)
                theirs.remove(received)
                mine.append(received)
                theirs.append(given)
        if takes and not taken():
            return None
        out: list[list[str]] = []
        for (seat, slots), known in zip(self.held_groups, self.held_known, strict=True):
            rest = Counter(held[seat])
            rest.subtract(known)
            if any(count < 0 for count in rest.values()) or rest.total() != len(slots):
                return None
            out.append(list(rest.elements()))
        return out

    def asking(self, used: Sequence[int]) -> dict[str, object]:
        """Who is asked what now: the seat asked, the marker window and the Defense window
        still to ask, and the marker being resolved."""
        v, n = self.view, self.n
        phase = v.phase
        actor = (
            v.to_act[0] if phase in (Phase.PLAY, Phase.MARKER, Phase.DEFENSE, Phase.SWAP) else None
        )
        out: dict[str, object] = {"actor": actor}
        after_card: tuple[int, ...] = ()
        if v.trick:
            player = v.trick[-1][0]
            after_card = tuple((player + i) % n for i in range(1, n + 1))
        if phase is Phase.MARKER and actor is not None:
            out.update(window=after_card[after_card.index(actor) + 1 :], resume="window")
        w = v.window
        if phase in (Phase.DEFENSE, Phase.SWAP) and w is not None:
            out.update(
                user=w.user,
                using=UseMarker(
                    used[-1],
                    w.kind,
                    () if w.target is None else (w.target,),
                    () if w.piece is None else (w.piece,),
                ),
                resume="play" if w.on_turn else "window",
            )
            if not w.on_turn:
                out["window"] = after_card[after_card.index(w.user) + 1 :]
            if phase is Phase.DEFENSE and actor is not None:
                asks = tuple((w.user + i) % n for i in range(1, n))
                out["defense"] = asks[asks.index(actor) + 1 :]
        return out

    def count(self, *kinds: type) -> tuple[int, ...]:
        """How many events of ``kinds`` name each seat (their ``seat``)."""
        out = [0] * self.n
        for event in self.view.events:
            if isinstance(event, kinds):
                out[getattr(event, "seat")] += 1  # noqa: B009 (each of ``kinds`` has one)
        return tuple(out)


#: which names a group of slots may take
Allowed = Callable[[str], bool]


def _any(name: str) -> bool:
    return True


def _suit_ok(void: set[str]) -> Allowed:
    if not void:
        return _any
    return lambda name: SUIT[name] not in void


def _held_by(may: dict[str, set[int]], seat: int) -> Allowed:
    return lambda name: seat in may.get(name, ())


def _match(
    names: list[str], groups: list[tuple[list[int], Allowed]]
) -> list[tuple[list[int], list[str]]]:
    """Names for every slot of ``groups`` by augmenting paths (a group's slots are alike,
    so a path runs through groups): found whenever one exists, in the order ``names``
    come in."""
    allowed = [[g for g, (_, ok) in enumerate(groups) if ok(name)] for name in names]
    room = [len(slots) for slots, _ in groups]
    members: list[list[int]] = [[] for _ in groups]

    def place(name: int, seen: set[int]) -> bool:
        for g in allowed[name]:
            if g in seen:
                continue
            seen.add(g)
            if len(members[g]) < room[g]:
                members[g].append(name)
                return True
            for other in members[g]:
                if place(other, seen):
                    members[g].remove(other)
                    members[g].append(name)
                    return True
        return False

    for name in range(len(names)):
        if not place(name, set()):
            raise ValueError("no world fits the view: it is inconsistent")
    return [(slots, [names[i] for i in members[g]]) for g, (slots, _) in enumerate(groups)]


def _fill(
    truth: list[str | None],
    names: list[str],
    groups: list[tuple[list[int], Allowed]],
    rng: random.Random,
) -> None:
    """Give ``names`` to the slots of ``groups``, each slot a name its group allows, at
    random: each group in turn draws among the names it allows that are left; an
    assignment by augmenting paths if drawing that way runs into a dead end."""
    names = list(names)
    rng.shuffle(names)
    if len(groups) == 1 and groups[0][1] is _any:
        for slot, name in zip(groups[0][0], names, strict=True):
            truth[slot] = name
        return
    left = names
    chosen: list[tuple[list[int], list[str]]] = []
    for slots, ok in groups:
        fits = [n for n in left if ok(n)] if ok is not _any else left
        if len(fits) < len(slots):
            chosen = _match(names, groups)
            break
        picked = fits[: len(slots)]
        taken = set(picked)
        left = [n for n in left if n not in taken]
        chosen.append((slots, picked))
    for slots, picked in chosen:
        for slot, name in zip(slots, picked, strict=True):
            truth[slot] = name

"""Every seat's own copy of a game, learning only what it may (as a networked peer does),
stays in step with the others: the same public facts, the same story, no breach."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import Action, get_game
from cakeparty.core.actions import Remixed, Revealed
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.games.cake_of_doom.bots import random_bot
from cakeparty.core.games.cake_of_doom.state import DoomState

from .helpers import VARIANTS

GAME = get_game("cake-of-doom")


class Table:
    """Every seat's copy of one game and a spectator's, each told only what it may know."""

    def __init__(self, players: int, seed: int, options: dict[str, bool]) -> None:
        start = GAME.new_state(players, options)
        self.dealer = LocalDealer(GAME.box(start), seed)
        self.copies: dict[int | None, DoomState] = {s: start for s in [None, *range(players)]}
        self._settle()

    @staticmethod
    def _told(seat: int | None, answer: Action) -> Action:
        if isinstance(answer, Revealed) and answer.to is not None and seat not in answer.to:
            return answer.redacted()
        if isinstance(answer, Remixed) and seat not in answer.to:
            return Remixed(answer.seat, answer.slots, (None,) * len(answer.slots), answer.to)
        return answer

    def _all(self, action: Action, seat: int | None) -> None:
        for copy_of, state in self.copies.items():
            self.copies[copy_of] = GAME.apply(state, self._told(copy_of, action), seat)

    def _settle(self) -> None:
        some = self.copies[None]
        while (request := GAME.pending(some)) is not None:
            # the dealer syncs on public identities only, which every copy holds
            self._all(self.dealer.fulfil(request, GAME.knowledge(some)), None)
            some = self.copies[None]

    @staticmethod
    def public(state: DoomState) -> tuple[object, ...]:
        return (
            state.phase,
            state.queue,
            state.agenda,
            state.task,
            state.hands,
            state.cake_pile,
            state.mischief_pile,
            state.cake_discard,
            state.mischief_discard,
            state.regions,
            state.offer,
            state.asking,
            state.round,
            state.current,
            state.knowledge.known_by,
            state.events,
            state.state_id,
            GAME.outcome(state),
        )

    def step(self, rng: random.Random) -> bool:
        assert len({self.public(s) for s in self.copies.values()}) == 1
        some = self.copies[None]
        if GAME.outcome(some) is not None:
            return False
        (seat,) = GAME.to_act(some)
        self._all(random_bot(GAME.view(self.copies[seat], seat), rng), seat)
        self._settle()
        return True


@pytest.mark.parametrize(
    ("players", "variant"), [(3, "basic"), (4, "advanced-blind"), (6, "advanced")]
)
def test_every_seats_copy_stays_in_step_and_none_records_a_breach(players, variant) -> None:
    table = Table(players, seed=players, options=VARIANTS[variant])
    rng = random.Random(players)
    while table.step(rng):
        pass
    for copy_of, state in table.copies.items():
        assert not state.breaches, copy_of
        assert GAME.outcome(state) is not None


def _garbage(rng: random.Random, players: int) -> Action:
    from cakeparty.core.games.cake_of_doom import actions as a

    slot = rng.choice([0, 5, 89, 90, 129, 130, 999])
    seat = rng.choice([0, 1, players - 1, players, 7])
    slots = tuple(sorted(rng.sample(range(135), rng.randrange(0, 5))))
    return rng.choice(
        [
            a.ChooseMix(rng.randrange(9)),
            a.Grab(slot, rng.choice(["cake", "mischief"])),
            a.Abduct(slot, seat),
            a.Bribe(rng.choice(["doom", "arctic", "north-america"]), slots or (1,)),
            a.NoBribe(),
            a.Sabotage(slot, rng.choice(["space-teddy", "cake-monster"])),
            a.NoSabotage(),
            a.ForceField(slot),
            a.NoForceField(),
            a.Remove(slots, rng.randrange(2)),
            a.Draw(rng.randrange(4), rng.randrange(4)),
            a.Discard(slots),
            a.PickCard(slot),
            a.Rob(seat),
            a.Peek(seat),
        ]
    )


@pytest.mark.parametrize("variant", ["basic", "advanced-blind"])
def test_whatever_a_seat_sends_is_applied_or_refused_with_a_clear_error(variant) -> None:
    from cakeparty.core import CakePartyError

    table = Table(4, seed=11, options=VARIANTS[variant])
    rng = random.Random(11)
    refused = 0
    while True:
        for _ in range(12):
            seat = rng.randrange(4)
            try:
                GAME.apply(table.copies[seat], _garbage(rng, 4), seat)
            except CakePartyError:
                refused += 1
        if not table.step(rng):
            break
    assert refused > 100

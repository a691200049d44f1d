"""Single-observer information-set MCTS over the engine contract.

The searching seat sees only its view. Each iteration draws one world consistent with that
view (:meth:`~cakeparty.core.game.Game.determinize`) and a dealer over its truth, then
walks one tree shared by every world:

* **Chance.** The dealer's answers (shuffles, draws, re-mixes, random numbers) are not
  nodes: the world's own dealer samples them afresh on every walk, as a real dealer would,
  so a node stands for the seats' choices that led to it (an open-loop tree).
* **Hidden information.** A node's statistics are pooled over every world that reached it,
  so no seat's choice can depend on cards that only one world holds; an action legal in
  some worlds and not in others is judged by how often it was *available* (UCB with
  availability counts, Cowling et al. 2012), not by how often the node was visited.
* **Simultaneous choices.** At a ``Commit`` each seat of the commit chooses from its own
  statistics at the node, without seeing the others' choices (decoupled UCB); the node's
  child is the joint choice, which the opening makes public.
* **How deep.** By default (``depth=1``) the tree holds the searching seat's own choice
  and the others play as in a rollout (the game's normal bot): a search of a few dozen
  walks learns nothing from the others' untried replies. With ``depth=None`` every seat's
  choices are searched, each seat for itself, as deep as the walks reach.
* **Several players.** A walk ends in a reward for every seat (win 1, a shared win split,
  loss 0, plus a little of the seat's normalised score); each seat's statistics hold its
  own reward, so every seat plays for itself.

The search is pure and seeded: with an iteration budget the same view and seed give the
same choice. A time budget (``seconds``) reads only its clock (:func:`time.perf_counter`
unless told otherwise).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cakeparty.core.actions import Action, Committed
from cakeparty.core.dealer import LocalDealer
from cakeparty.core.errors import CakePartyError
from cakeparty.core.game import Bot, Game, Outcome
from cakeparty.core.requests import Commit

#: A seat's choice at a node, or the joint choice of a commit: the key of its statistics.
Key = tuple[int, Action]


@dataclass(frozen=True)
class Budget:
    """How long a search may run, and how it plays.

    ``iterations``: walks at most (``None``: no limit); ``seconds``: time at most (``None``:
    no limit); at least one of the two bounds it. ``exploration``: the UCB constant.
    ``prior``: walks credited, when the choice is made, to the move the game's prior bot
    (:meth:`~cakeparty.core.game.Game.prior_bot`, its ``normal`` bot unless the game names
    another) would make, at the root's mean value, so a short search departs from it only on
    evidence: another move must lead it by ``confidence`` standard deviations of the means
    (and a search that finished no walk makes it). ``depth``: how many of its own moves
    the searching seat plans in the tree, the other seats playing as in a rollout between
    them (a short search learns little from the others' untried replies); ``None``: every
    seat's moves are searched, each seat for itself, as deep as the walks reach.
    ``rollout``: ``"normal"`` plays the rest of a walk with the game's normal bot (slower,
    but a bluff or a draft played out at random says little about the move tried);
    ``"random"`` plays it uniformly at random. ``score_weight``: the share
    of a seat's reward that is its normalised score rather than the win. ``max_actions``:
    a walk that has not ended after this many actions counts as a draw. ``clock``: what
    ``seconds`` are read on (the wall clock; a simulation gives the thread's CPU time).
    ``least``: walks another move needs before it may replace the prior bot's.
    ``paired``: instead of the tree, every move searched is walked in each world drawn,
    with the same dealer and the same rollout choices (common random numbers), and a move
    replaces the prior bot's only when its lead, walk for walk, is clear of the noise of
    those differences: a few worlds then tell apart moves whose values differ by much less
    than one world's luck.

    A walk ends where the game can judge it (:meth:`~cakeparty.core.game.Game.cutoff`),
    and its rest is played by the game's rollout policy
    (:meth:`~cakeparty.core.game.Game.rollout_bot`).
    """

    iterations: int | None = None
    seconds: float | None = None
    exploration: float = 0.7
    prior: float = 4.0
    rollout: str = "normal"
    score_weight: float = 0.1
    max_actions: int = 4000
    confidence: float = 1.0
    depth: int | None = 1
    clock: Callable[[], float] = time.perf_counter
    least: int = 2
    paired: bool = False

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search needs an iteration or a time budget")
        if self.rollout not in ("random", "normal"):
            raise ValueError(f"unknown rollout policy {self.rollout!r}")


class _OutOfTime(Exception):
    """The time budget ran out in the middle of a walk, which is then left unfinished."""


#: Actions a rollout plays between two looks at the clock.
CLOCK_EVERY = 8


class Node:
    """One point of the tree: the statistics of every choice made here, and the children.

    ``stats[key]`` is ``[visits, reward sum, availability]`` for ``key = (seat, action)``.
    """

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.stats: dict[Key, list[float]] = {}
        self.children: dict[Any, Node] = {}

    def child(self, key: Any) -> Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = Node()
        return node


@dataclass
class Result:
    """What a search found: the choice, and figures a test or a bench can read."""

    action: Action
    iterations: int = 0
    failures: int = 0  # walks abandoned because the engine refused a world
    visits: dict[Action, float] = field(default_factory=dict)


def rewards(outcome: Outcome, players: int, score_weight: float) -> list[float]:
    """Each seat's reward for ``outcome``: a win is 1 (split when the win is shared), a loss
    0, and ``score_weight`` of it goes by the seat's score between the lowest and highest."""
    win = [0.0] * players
    if outcome.winners:
        share = 1.0 / len(outcome.winners) if outcome.shared else 1.0
        for seat in outcome.winners:
            if 0 <= seat < players:
                win[seat] = share
    scores = outcome.scores
    if score_weight <= 0 or len(scores) != players:
        return win
    low, high = min(scores), max(scores)
    spread = high - low
    return [
        (1 - score_weight) * w + score_weight * ((s - low) / spread if spread else 0.5)
        for w, s in zip(win, scores, strict=True)
    ]


class Search:
    """The search of one decision of one seat, from that seat's view."""

    def __init__(self, game: Game, view: Any, rng: random.Random, budget: Budget) -> None:
        self.game = game
        self.view = view
        self.seat: int = view.seat
        self.rng = rng
        self.budget = budget
        self.root = Node()
        self.players = 0
        self.clock = budget.clock
        self.deadline: float | None = None
        if budget.seconds is not None:
            self.deadline = self.clock() + budget.seconds
        # the move kept unless another beats it: the game's prior bot's
        self.prior_bot: Bot | None = game.prior_bot()
        # rollouts by the game's own rollout policy, else at random
        self.roller = game.rollout_bot() if budget.rollout == "normal" else None
        self.start: Any = None  # the world a walk began in, for the game's cut-off
        # the root moves searched: those the game names as worth it (none: only the normal
        # bot's), else every legal one
        picked = game.search_moves(view)
        self.moves: Sequence[Action] = view.legal if picked is None else list(picked)
        self.among = picked is not None

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> Result:
        prior = self._prior_action(self.view.legal)
        legal = self.moves
        if prior is not None and prior not in legal:
            legal = [prior, *legal]
            self.moves = legal
        if not legal:
            # no move named and no prior bot to make: every legal move is weighed
            legal = self.moves = self.view.legal
            self.among = False
        if len(legal) == 1:
            # one move left (the game's one, or the prior bot's): nothing to weigh
            return Result(legal[0])
        if self.budget.paired:
            return self._run_paired(legal, prior)
        deadline = self.deadline
        limit = self.budget.iterations
        done = failures = 0
        clock = self.clock
        while (limit is None or done + failures < limit) and (
            deadline is None or clock() < deadline
        ):
            world = self.game.determinize(self.view, self.rng)
            if world is None:
                break
            self.players = _players(world.state)
            dealer = LocalDealer(world.truth, self.rng.getrandbits(32))
            try:
                self._walk(world.state, dealer)
            except _OutOfTime:
                break
            except CakePartyError:
                failures += 1
                continue
            done += 1
        return self._choose(legal, prior, done, failures)

    def _run_paired(self, legal: Sequence[Action], prior: Action | None) -> Result:
        """Every move walked in each world drawn, with common random numbers."""
        deadline, clock, limit = self.deadline, self.clock, self.budget.iterations
        outer = self.rng
        rows: list[list[float]] = []
        failures = 0
        while (limit is None or len(rows) + failures < limit) and (
            deadline is None or clock() < deadline
        ):
            world = self.game.determinize(self.view, outer)
            if world is None:
                break
            self.players = _players(world.state)
            dealt, rolled = outer.getrandbits(32), outer.getrandbits(32)
            row: list[float] = []
            try:
                for move in legal:
                    self.rng = random.Random(rolled)
                    row.append(self._walk(world.state, LocalDealer(world.truth, dealt), move))
            except _OutOfTime:
                break
            except CakePartyError:
                failures += 1
                continue
            finally:
                self.rng = outer
            rows.append(row)
        return self._choose_paired(legal, prior, rows, failures)

    def _choose_paired(
        self, legal: Sequence[Action], prior: Action | None, rows: list[list[float]], failures: int
    ) -> Result:
        n = len(rows)
        visits = {a: float(n) for a in legal}
        means = [sum(row[i] for row in rows) / n if n else 0.0 for i in range(len(legal))]
        if prior is None:
            index = max(range(len(legal)), key=lambda i: (means[i], -i))
            return Result(legal[index], n, failures, visits)
        base = legal.index(prior)
        choice, margin = prior, 0.0
        if n < max(2, self.budget.least):
            return Result(choice, n, failures, visits)
        for i, action in enumerate(legal):
            if i == base:
                continue
            lead = means[i] - means[base]
            spread = statistics.stdev(row[i] - row[base] for row in rows)
            lead -= self.budget.confidence * spread / math.sqrt(n)
            if lead > margin:
                choice, margin = action, lead
        return Result(choice, n, failures, visits)

    def _prior_action(self, legal: Sequence[Action]) -> Action | None:
        if self.prior_bot is None or self.budget.prior <= 0:
            return None
        choice = self.prior_bot(self.view, random.Random(self.rng.getrandbits(32)))
        return choice if choice in legal else None

    def _choose(
        self, legal: Sequence[Action], prior: Action | None, done: int, failures: int
    ) -> Result:
        stats = self.root.stats
        mine = [(stats.get((self.seat, a)) or [0.0, 0.0, 0.0]) for a in legal]
        visits = {a: s[0] for a, s in zip(legal, mine, strict=True)}
        if prior is None:
            # most visits; ties by value, then by the order of the legal list
            index = max(
                range(len(legal)),
                key=lambda i: (mine[i][0], mine[i][1] / mine[i][0] if mine[i][0] else 0, -i),
            )
            return Result(legal[index], done, failures, visits)
        # Keep the prior bot's move unless another one did better by more than the noise
        # of so few walks: a reward lies in [0, 1], so a mean over n walks is off by at most
        # 1 / (2 sqrt n) in one standard deviation. The prior move is credited ``prior``
        # walks at the root's mean.
        count = sum(s[0] for s in mine)
        mean = sum(s[1] for s in mine) / count if count else 0.0
        n_p, w_p, _ = mine[legal.index(prior)]
        n_p, w_p = n_p + self.budget.prior, w_p + self.budget.prior * mean
        visits[prior] = n_p
        base = w_p / n_p
        choice, margin = prior, 0.0
        for action, (n, w, _) in zip(legal, mine, strict=True):
            if action == prior or n < max(2, self.budget.least):
                continue
            lead = w / n - base - self.budget.confidence * 0.5 * math.sqrt(1 / n + 1 / n_p)
            if lead > margin:
                choice, margin = action, lead
        return Result(choice, done, failures, visits)

    # -- one walk --------------------------------------------------------------------------

    def _walk(self, state: Any, dealer: LocalDealer, forced: Action | None = None) -> float:
        """One walk from ``state``; ``forced``: the searching seat's first move, else chosen
        in the tree. The searching seat's reward."""
        game = self.game
        node = self.root
        path: list[tuple[Node, Key]] = []
        depth = self.budget.depth
        planned = 0  # the searching seat's own choices made in the tree so far
        self.start = state
        reward: Sequence[float] | None = None
        for _ in range(self.budget.max_actions):
            if game.outcome(state) is not None:
                break
            reward = game.cutoff(self.start, state)
            if reward is not None:
                break
            request = game.pending(state)
            if request is not None and not isinstance(request, Commit):
                state = game.apply(state, dealer.fulfil(request, game.knowledge(state)), None)
                continue
            seats = request.seats if isinstance(request, Commit) else game.to_act(state)[:1]
            if depth is not None and self.seat in seats and planned >= depth:
                break
            choices = []
            fresh = False
            for seat in seats:
                if depth is None or seat == self.seat:
                    if forced is not None and node is self.root and seat == self.seat:
                        action, new = forced, False
                        node.stats.setdefault((seat, forced), [0.0, 0.0, 1.0])
                    else:
                        options = game.legal_actions(state, seat)
                        if node is self.root and seat == self.seat and self.among:
                            # in the listed order (a legal list may be lazy, quick to ask)
                            options = [a for a in self.moves if a in options] or options
                        action, new = self._select(node, seat, options)
                    path.append((node, (seat, action)))
                    fresh = fresh or new
                    planned += seat == self.seat
                else:
                    # the others play as the rollout does: what the search plans is its
                    # own seat's moves against them
                    action = self._policy(state, seat)
                choices.append((seat, action))
            if isinstance(request, Commit):
                move: Action = Committed(tuple(choices))
                state = game.apply(state, move, None)
                node = node.child(move)
            else:
                seat, move = choices[0]
                state = game.apply(state, move, seat)
                node = node.child((seat, move))
            if fresh:
                break
        if reward is None:
            reward = self._rollout(state, dealer)
        for at, key in path:
            stat = at.stats[key]
            stat[0] += 1
            stat[1] += reward[key[0]]
        return reward[self.seat]

    def _policy(self, state: Any, seat: int) -> Action:
        """``seat``'s move as the rollout plays it."""
        if self.roller is not None:
            return self.roller(self.game.view(state, seat), self.rng)
        return self.rng.choice(self.game.legal_actions(state, seat))

    def _select(self, node: Node, seat: int, legal: Sequence[Action]) -> tuple[Action, bool]:
        """The choice of ``seat`` at ``node`` among ``legal`` (this world's legal actions),
        and whether it is tried here for the first time."""
        stats = node.stats
        if len(legal) == 1:
            key = (seat, legal[0])
            stat = stats.get(key)
            if stat is None:
                stats[key] = [0.0, 0.0, 1.0]
                return legal[0], False
            stat[2] += 1
            return legal[0], False
        untried: list[Action] = []
        best = -1.0
        choice = legal[0]
        c = self.budget.exploration
        for action in legal:
            key = (seat, action)
            stat = stats.get(key)
            if stat is None:
                stat = stats[key] = [0.0, 0.0, 0.0]
            stat[2] += 1
            n = stat[0]
            if n == 0:
                untried.append(action)
                continue
            if untried:
                continue
            value = stat[1] / n + c * math.sqrt(math.log(stat[2]) / n)
            if value > best:
                best, choice = value, action
        if untried:
            return self.rng.choice(untried), True
        return choice, False

    # -- the rest of a walk ----------------------------------------------------------------

    def _rollout(self, state: Any, dealer: LocalDealer) -> Sequence[float]:
        game, deadline, clock, start = self.game, self.deadline, self.clock, self.start
        # a normal bot's decision takes a while: the clock is read before each of them
        every = 1 if self.roller is not None else CLOCK_EVERY
        for step in range(self.budget.max_actions):
            due = step % every == every - 1
            if due and deadline is not None and clock() > deadline:
                raise _OutOfTime
            outcome = game.outcome(state)
            if outcome is not None:
                return rewards(outcome, self.players, self.budget.score_weight)
            judged = game.cutoff(start, state)
            if judged is not None:
                return judged
            request = game.pending(state)
            if request is None:
                seat = game.to_act(state)[0]
                state = game.apply(state, self._policy(state, seat), seat)
            elif isinstance(request, Commit):
                choices = []
                for seat in request.seats:
                    if every == 1 and deadline is not None and clock() > deadline:
                        raise _OutOfTime
                    choices.append((seat, self._policy(state, seat)))
                state = game.apply(state, Committed(tuple(choices)), None)
            else:
                state = game.apply(state, dealer.fulfil(request, game.knowledge(state)), None)
        return [1.0 / self.players] * self.players


def _players(state: Any) -> int:
    players = getattr(state, "players", None)
    if not isinstance(players, int):
        raise CakePartyError("a searched game's state must count its seats (state.players)")
    return players


def search(game: Game, view: Any, rng: random.Random, budget: Budget) -> Result:
    """Search the decision of ``view``'s seat; a seat with one legal action answers at once."""
    legal: Sequence[Action] = view.legal
    if not legal:
        raise CakePartyError("the seat has nothing to decide")
    if len(legal) == 1:
        return Result(legal[0])
    return Search(game, view, rng, budget).run()

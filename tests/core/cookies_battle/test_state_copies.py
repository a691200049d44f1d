"""States stay values while ``apply`` works on one draft, and views read like before."""

from __future__ import annotations

import random

import pytest

from cakeparty.core import new_match
from cakeparty.core.games.cookies_battle.bots import random_bot
from cakeparty.core.games.cookies_battle.state import CookiesState


def test_apply_never_changes_the_state_it_is_given() -> None:
    m = new_match("cookies-battle", players=4, seed=2)
    rng = random.Random(2)
    while m.outcome is None:
        before = m.state
        fields = dict(vars(before))
        seat = m.to_act[0]
        m.apply(random_bot(m.view(seat), rng), seat)
        assert vars(before) == fields
        assert vars(m.state).keys() == fields.keys()  # no draft left behind
        if m.state is not before:  # (a sealed pass waits for the other seats')
            assert m.state.state_id > before.state_id


def test_a_misspelt_field_is_refused_in_a_copy_and_in_a_draft() -> None:
    state = new_match("cookies-battle", players=3, seed=1).state
    with pytest.raises(TypeError, match="trik"):
        state.evolve(trik=())
    draft = state.draft()
    assert draft.evolve(trick=()) is draft  # a draft changes in place
    draft.evolve(trik=())
    with pytest.raises(TypeError, match="trik"):
        draft.done()


def test_a_copy_is_a_new_value() -> None:
    state: CookiesState = new_match("cookies-battle", players=3, seed=1).state
    other = state.evolve(round=2)
    assert (state.round, other.round) == (1, 2)
    assert other.evolve(round=1) == state


def test_a_views_known_cards_read_as_a_mapping_in_slot_order() -> None:
    m = new_match("cookies-battle", players=4, seed=5)
    view = m.view(1)
    names = m.state.knowledge.visible(1)
    assert view.known == names and dict(view.known) == names
    assert list(view.known) == sorted(names) == list(view.known.keys())
    assert all(view.known[s] == n and view.known.get(s) == n for s, n in names.items())
    assert view.known.get(-1) is None and -1 not in view.known
    assert len(view.known) == len(names) and list(view.known.items()) == sorted(names.items())
    assert view == m.view(1)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_working_on_a_draft_changes_nothing_but_speed(players, monkeypatch) -> None:
    """``apply`` changes a private draft in place instead of copying the state at every
    step: the same games, move by move, as copying every time (a value read from the draft
    after it changed would differ)."""

    def play() -> list[dict[str, object]]:
        m = new_match("cookies-battle", players=players, seed=players)
        rng = random.Random(players)
        out = []
        while m.outcome is None:
            seat = m.to_act[0]
            m.apply(rng.choice(m.legal_actions(seat)), seat)
            out.append(dict(vars(m.state)))
        return out

    drafted = play()
    monkeypatch.setattr(CookiesState, "draft", lambda self: self.evolve())  # every step copies
    copied = play()
    assert len(drafted) == len(copied) and drafted[-1]["round"] == 3
    for n, (a, b) in enumerate(zip(drafted, copied, strict=True)):
        assert a == b, f"the games part after move {n}"

"""Actions round-trip through their text and wire forms; bad input is always refused."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cakeparty.core import (
    Action,
    ActionSyntaxError,
    Committed,
    from_data,
    parse,
    to_data,
)
from cakeparty.core.actions import Kind, registered
from cakeparty.core.games.cake_duel import CHALLENGE, PASS, Block, Claim, Trade

ints = st.integers(min_value=0, max_value=2**31 - 1)
names = st.from_regex(r"[a-z0-9][a-z0-9-]{0,12}", fullmatch=True)


def field_values(kind: Kind) -> st.SearchStrategy[Any]:
    if kind is Kind.INT:
        return ints
    if kind is Kind.INTS:
        return st.lists(ints, max_size=6).map(tuple)
    if kind is Kind.NAME:
        return names
    if kind is Kind.CARDS:
        return st.lists(st.none() | names, max_size=6).map(tuple)
    if kind is Kind.SEATS:
        return st.none() | st.lists(st.integers(0, 7), max_size=4).map(tuple)
    raise AssertionError(kind)


def simple_action(cls: type[Action]) -> st.SearchStrategy[Action]:
    fields = [field_values(k) for k in cls.KINDS]

    def build(values: tuple[Any, ...]) -> Action | None:
        try:
            return cls(*values)
        except ValueError:
            return None

    return st.tuples(*fields).map(build).filter(lambda a: a is not None)  # type: ignore[return-value]


SIMPLE = [c for c in registered().values() if Kind.CHOICES not in c.KINDS]
simple_actions = st.one_of([simple_action(c) for c in SIMPLE])
committed = st.lists(st.tuples(st.integers(0, 5), simple_actions), max_size=4).map(
    lambda pairs: Committed(tuple(sorted(dict(pairs).items())))
)
any_action = simple_actions | committed


@settings(max_examples=400)
@given(any_action)
def test_text_form_round_trips(action: Action) -> None:
    assert parse(str(action)) == action


@settings(max_examples=400)
@given(any_action)
def test_wire_form_round_trips_through_msgpack(action: Action) -> None:
    packed = msgpack.packb(to_data(action))
    assert from_data(msgpack.unpackb(packed)) == action


def test_every_action_kind_is_covered() -> None:
    tags = {c.TAG for c in registered().values()}
    assert {"claim", "pass", "block", "challenge", "accept", "take", "summon", "declare"} <= tags
    assert {"lead", "trade", "no-trade", "agree", "refuse", "taunt"} <= tags
    assert {"revealed", "shuffled", "random", "committed"} <= tags


def test_text_forms_read_as_documented() -> None:
    assert str(Claim((3, 7), "wizard", 1)) == "claim 3,7 wizard 1"
    assert str(PASS) == "pass"
    assert str(Block((12,), "defender")) == "block 12 defender"
    assert str(Trade((4,), ())) == "trade 4 -"
    assert parse("challenge") == CHALLENGE
    assert str(Committed(((0, PASS), (2, Block((1,), "priest"))))) == (
        "committed 0:pass;2:block 1 priest"
    )
    assert repr(PASS) == "Pass()"


def test_wire_form_is_stable() -> None:
    # journals and peers keep these bytes: changing them breaks old rooms
    assert to_data(Claim((3, 7), "wizard", 1)) == ["claim", [3, 7], "wizard", 1]
    assert msgpack.packb(to_data(PASS)) == b"\x91\xa4pass"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "claim",
        "claim 3,7 wizard",
        "claim 3,x wizard 1",
        "claim 3,7 Wizard 1",
        "claim 3,7 wizard 1 extra",
        "fly 1",
        "trade - -",
        "random 3 3",
        "committed 1:pass;0:pass",
        "committed 0:committed 0:pass",
        "claim 99999999999 wizard 1",
        "revealed 1,2 soldier all",
    ],
)
def test_badly_written_text_is_refused_with_a_named_error(text: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse(text)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "pass",
        ["pass", 1],
        ["claim", [3, 7], "wizard"],
        ["claim", [3, -7], "wizard", 1],
        ["claim", [3, True], "wizard", 1],
        ["claim", [3, 7], "WIZARD", 1],
        ["claim", "3,7", "wizard", 1],
        ["claim", [3, 7], "wizard", 2**40],
        [b"pass"],
        ["committed", [[0, ["committed", []]]]],
        ["committed", [[0]]],
        ["revealed", [1], ["soldier", None], None],
        ["claim", list(range(300)), "wizard", 1],
    ],
)
def test_malformed_wire_data_is_refused_with_a_named_error(data: Any) -> None:
    with pytest.raises(ActionSyntaxError):
        from_data(data)


@settings(max_examples=500)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.binary(max_size=8),
        lambda inner: st.lists(inner, max_size=5),
        max_leaves=20,
    )
)
def test_arbitrary_wire_data_never_escapes_as_another_error(data: Any) -> None:
    try:
        action = from_data(data)
    except ActionSyntaxError:
        return
    assert from_data(to_data(action)) == action


@settings(max_examples=500)
@given(st.text(max_size=40))
def test_arbitrary_text_never_escapes_as_another_error(text: str) -> None:
    try:
        action = parse(text)
    except ActionSyntaxError:
        return
    assert parse(str(action)) == action


def test_actions_are_frozen_and_hashable() -> None:
    claim = Claim((1,), "soldier", 1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        claim.name = "wizard"  # type: ignore[misc]
    assert len({claim, Claim((1,), "soldier", 1)}) == 1

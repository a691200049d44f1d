"""Equal display names are told apart by the players' keys, the same way everywhere."""

from __future__ import annotations

import pytest

from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.names import distinct_names

A, B, C = bytes(32), bytes([1]) * 32, bytes([2]) * 32


def test_only_names_chosen_twice_get_the_first_group_of_the_key() -> None:
    names = distinct_names(("Player", "Ann", "Player"), (A, B, C))
    assert names == (f"Player {fingerprint(A)[:4]}", "Ann", f"Player {fingerprint(C)[:4]}")
    assert names[0] != names[2]


def test_names_all_different_are_left_as_they_are() -> None:
    assert distinct_names(("Ann", "Bob"), (A, B)) == ("Ann", "Bob")
    assert distinct_names((), ()) == ()


def test_a_name_is_told_apart_by_its_own_key_wherever_its_seat_is() -> None:
    assert distinct_names(("Ann", "Ann"), (A, B)) == distinct_names(("Ann", "Ann"), (B, A))[::-1]


def test_every_seat_needs_its_player() -> None:
    with pytest.raises(ValueError):
        distinct_names(("Ann", "Ann"), (A,))


@pytest.mark.parametrize(
    "impostor",
    [
        *("ann", "ANN", "Ａｎｎ", "\u0410nn", "\u0391nn", "Аnn", "Ann  ", "AnN"),
        # printable, yet drawn as nothing or blank: a grapheme joiner, variation
        # selectors, a Mongolian one, Hangul fillers (full and half width), blank Braille
        *("A\u034fnn", "Ann\ufe0f", "A\U000e0100nn", "An\u180bn"),
        *("Ann\u3164", "\uffa0Ann", "Ann\u2800", "A\u115fnn", "A nn"),
    ],
    ids=repr,
)
def test_a_name_that_only_looks_like_another_is_told_apart_too(impostor: str) -> None:
    names = distinct_names(("Ann", impostor, "Bob"), (A, B, C))
    assert names == (f"Ann {fingerprint(A)[:4]}", f"{impostor} {fingerprint(B)[:4]}", "Bob")


def test_names_that_differ_to_the_eye_stay_as_they_are() -> None:
    assert distinct_names(("Ann", "Anna", "Ánn"), (A, B, C)) == ("Ann", "Anna", "Ánn")
    assert distinct_names(("Paweł", "Pawel"), (A, B)) == ("Paweł", "Pawel")


def test_a_name_that_looks_like_nothing_is_shown_with_its_key() -> None:
    blank = "\u3164\ufe0f"  # a Hangul filler and a variation selector: drawn blank
    assert distinct_names((blank, "Bob"), (A, B)) == (f"{blank} {fingerprint(A)[:4]}", "Bob")

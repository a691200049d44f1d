"""Taste points, the ring geometry, every customer, the matching and the stars."""

from __future__ import annotations

import pytest

from cakeparty.core.games.cake_master.cards import CAKE_CARDS, CARDS, CUSTOMER_CARDS, FRUITS
from cakeparty.core.games.cake_master.scoring import (
    Taste,
    best_matching,
    meets,
    rosettes,
    taste,
    taste_stars,
    unmatched,
)


def test_the_box_holds_72_distinct_cake_cards_and_18_customers() -> None:
    assert len(CAKE_CARDS) == len(set(CAKE_CARDS)) == 72
    assert len(CUSTOMER_CARDS) == 18
    for icing in ("pink", "white", "chocolate"):
        mine = [c for c in CARDS.values() if c.icing == icing]
        assert len(mine) == 24
        assert {(c.left, c.right) for c in mine} == {(a, b) for a in (0, 1) for b in (0, 1)}
        assert {(c.raspberries, c.blueberries) for c in mine} == set(FRUITS.values())


def test_worked_example_eight_taste_points() -> None:
    # 4 Pink cards, rosettes on seams 1–2 and 3–4, plain seams between, 3 raspberries and
    # 2 blueberries: 3 (icing) + 2 (rosettes) + 1 (no half) + 2 (pairs) = 8
    cake = ("pink-ph-rb", "pink-hp-rb", "pink-ph-r", "pink-hp-none")
    assert rosettes(cake) == 2
    assert unmatched(cake) == 0
    assert taste(cake) == Taste(icing=3, rosettes=2, no_half=1, pairs=2)
    assert taste(cake).total == 8


def test_worked_example_pink_pink_white_chocolate_icing_zero() -> None:
    cake = ("pink-pp-none", "pink-pp-r", "white-pp-b", "chocolate-pp-none")
    assert taste(cake).icing == 0
    # rosettes and fruit as placed: all plain, so no half (+1), and one pair (+1)
    assert taste(cake) == Taste(icing=0, rosettes=0, no_half=1, pairs=1)


def test_icing_points_by_the_number_of_colours() -> None:
    assert taste(("white-pp-none",) * 1 + ("white-pp-r", "white-pp-b", "white-pp-rb")).icing == 3
    assert taste(("white-pp-none", "white-pp-r", "pink-pp-b", "pink-pp-rb")).icing == 1


def test_the_ring_closes_quarter_four_touches_quarter_one() -> None:
    # the only rosette is on the seam from quarter 4 back to quarter 1
    cake = ("pink-hp-none", "pink-pp-none", "pink-pp-none", "pink-ph-none")
    assert rosettes(cake) == 1
    assert unmatched(cake) == 0
    assert taste(cake).no_half == 1


def test_a_half_rosette_facing_a_plain_edge_is_unmatched() -> None:
    cake = ("pink-ph-none", "pink-pp-none", "pink-pp-none", "pink-pp-none")
    assert rosettes(cake) == 0
    assert unmatched(cake) == 1
    assert taste(cake).no_half == 0


def test_a_half_facing_an_empty_quarter_is_unmatched_no_half_needs_a_finished_cake() -> None:
    open_cake = ("pink-ph-none", None, None, None)
    assert unmatched(open_cake) == 1
    plain_open = ("pink-pp-none", None, None, None)
    assert unmatched(plain_open) == 0
    assert taste(plain_open).no_half == 0


def test_pairs_count_one_raspberry_with_one_blueberry() -> None:
    cake = ("pink-pp-rr", "pink-pp-rr", "pink-pp-b", "pink-pp-none")
    assert taste(cake).pairs == 1
    cake = ("pink-pp-rb", "pink-pp-rb", "pink-pp-bb", "pink-pp-rr")
    assert taste(cake).pairs == 4


def test_four_complete_rosettes() -> None:
    cake = ("white-hh-none",) * 1 + ("white-hh-r", "white-hh-b", "white-hh-rb")
    assert rosettes(cake) == 4
    assert taste(cake) == Taste(icing=3, rosettes=4, no_half=1, pairs=2)


MIXED = ("pink-pp", "white-pp", "chocolate-pp", "pink-hh")


def _c(*specs: str) -> tuple[str, ...]:
    """A cake of four distinct cards with these fruit patterns (mixed icings and edges),
    unless a spec is a full card name."""
    return tuple(s if s in CARDS else f"{MIXED[i]}-{s}" for i, s in enumerate(specs))


def _one(prefix: str, *fruits: str) -> tuple[str, ...]:
    return tuple(f"{prefix}-{f}" for f in fruits)


THREE_ROSETTES = ("pink-hh-none", "pink-hh-r", "pink-hh-b", "pink-hp-rb")
TWO_ROSETTES = ("pink-hh-none", "pink-hh-r", "pink-hp-b", "pink-pp-rb")

# customer: (a cake that meets it, one that just misses it)
CASES = {
    1: (_c("rr", "rr", "none", "b"), _c("rr", "rr", "r", "b")),
    2: (_c("rr", "rr", "r", "none"), _c("rr", "rr", "none", "none")),
    3: (_c("rr", "rr", "rr", "none"), _c("rr", "rr", "r", "none")),
    4: (_c("bb", "bb", "none", "r"), _c("bb", "bb", "b", "r")),
    5: (_c("bb", "bb", "b", "none"), _c("bb", "bb", "none", "none")),
    6: (_c("bb", "bb", "bb", "none"), _c("bb", "bb", "b", "none")),
    7: (
        _one("pink-pp", "none", "r", "b", "rb"),
        ("pink-pp-none", "pink-pp-r", "pink-pp-b", "white-pp-rb"),
    ),
    8: (
        _one("white-hh", "none", "r", "b", "rb"),
        ("white-hh-none", "white-hh-r", "white-hh-b", "pink-hh-rb"),
    ),
    9: (
        _one("chocolate-ph", "none", "r", "b", "rb"),
        ("chocolate-ph-none", "chocolate-ph-r", "white-ph-b", "chocolate-ph-rb"),
    ),
    10: (THREE_ROSETTES, TWO_ROSETTES),
    11: (_one("pink-hh", "none", "r", "b", "rb"), THREE_ROSETTES),
    12: (
        _one("white-pp", "none", "r", "b", "rr"),
        ("white-pp-none", "white-pp-r", "white-pp-b", "white-hp-rr"),
    ),
    13: (_c("none", "none", "none", "none"), _c("none", "none", "none", "r")),
    14: (_c("rb", "rb", "rb", "none"), _c("rb", "rb", "r", "none")),
    15: (
        ("pink-pp-none", "pink-pp-r", "white-pp-none", "chocolate-pp-none"),
        ("pink-pp-none", "pink-pp-r", "white-pp-none", "white-pp-r"),
    ),
    16: (
        ("pink-pp-none", "pink-pp-r", "white-pp-none", "white-pp-r"),
        ("pink-pp-none", "pink-pp-r", "pink-pp-b", "white-pp-r"),
    ),
    17: (_c("rr", "bb", "rb", "rr"), _c("rr", "bb", "rb", "r")),
    18: (_c("rr", "none", "none", "none"), _c("rr", "none", "b", "none")),
}


def test_every_customer_has_a_case() -> None:
    assert sorted(CASES) == list(range(1, 19))


@pytest.mark.parametrize("number", sorted(CASES))
def test_a_cake_meets_the_customer_and_a_near_one_just_misses(number: int) -> None:
    good, near = CASES[number]
    assert len(set(good)) == len(set(near)) == 4, "a cake holds four distinct cards"
    customer = f"customer-{number}"
    assert meets(customer, good)
    assert not meets(customer, near)


def test_an_unfinished_cake_meets_nobody() -> None:
    assert not meets("customer-13", ("pink-pp-none", "white-pp-none", None, None))


def test_customer_scoring_is_a_maximum_matching() -> None:
    all_pink = _one("pink-pp", "r", "b", "rb", "rr")  # meets all Pink only
    pink_no_fruit = ("pink-pp-none", "pink-hh-none", "pink-ph-none", "pink-hp-none")
    white_no_fruit = ("white-pp-none", "white-hh-none", "white-ph-none", "white-hp-none")
    customers = ("customer-13", "customer-7")  # no fruit, all Pink
    # the Pink no-fruit cake meets both; giving it "all Pink" would leave "no fruit" to the
    # White cake: the matching finds the assignment that meets both
    pairs = best_matching((pink_no_fruit, white_no_fruit), customers)
    assert len(pairs) == 2
    assert dict(pairs) == {0: 1, 1: 0}
    pairs = best_matching((pink_no_fruit, all_pink), customers)
    assert dict(pairs) == {0: 0, 1: 1}
    # one cake wins one customer only, even if it meets several
    assert len(best_matching((pink_no_fruit,), customers)) == 1
    # several cakes meeting one customer still score it once
    assert len(best_matching((pink_no_fruit, white_no_fruit), ("customer-13",))) == 1


def test_stars_for_taste_with_the_decided_ties() -> None:
    assert taste_stars([10, 7, 3]) == (2, 1, 0)
    assert taste_stars([10, 10, 3, 5]) == (2, 2, 0, 1)
    assert taste_stars([10, 3, 3]) == (2, 0, 0)
    assert taste_stars([6, 6, 6]) == (2, 2, 2)
    assert taste_stars([9, 4]) == (2, 0)
    assert taste_stars([4, 4]) == (2, 2)

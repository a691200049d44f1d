"""Cake Master's customers panel: every open customer's request whole, in every language
and at every size the screen is made for; a request too long for a line goes on under its
first letter, never where it would read as another customer, and one that fits a line in
English fits a line in every language."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import pytest
from textual.pilot import Pilot

from cakeparty.core.games.cake_master.cards import CUSTOMERS
from cakeparty.core.games.cake_master.text import customer_words
from cakeparty.core.games.cake_master.view import MasterView
from cakeparty.tui.games.cake_master.parts import customers_text
from cakeparty.tui.games.cake_master.screen import MasterScreen
from cakeparty.tui.table.local import GameSetup
from cakeparty.tui.widgets import FittedText
from cakeparty.tui.widgets.fitted import wrap

from .languages import speaking
from .pilot import SIZE, make_app, until
from .test_cake_master import screen_text, settle

LANGUAGES = ("en", "es", "pl")
NUMBERED = re.compile(r"\d+ ")


def longest_first() -> list[str]:
    """Every customer, the longest request (in the language in effect) first."""
    return sorted(CUSTOMERS, key=lambda name: (-len(customer_words(name)), name))


def threes(names: Sequence[str]) -> list[tuple[str, ...]]:
    """``names`` three at a time (the most a table has open): the first three together."""
    return [tuple(names[i : i + 3]) for i in range(0, len(names), 3)]


def with_customers(view: MasterView, names: Sequence[str]) -> MasterView:
    """``view`` with ``names`` the open customers (slots no card has)."""
    slots = tuple(10_000 + i for i in range(len(names)))
    known = {**view.known, **dict(zip(slots, names, strict=True))}
    return dataclasses.replace(view, customers=slots, known=known)


def panel_rows(screen: MasterScreen) -> list[str]:
    """The rows inside the customers panel as the terminal shows them."""
    panel = screen.query_one("#cm-customers", FittedText)
    region = panel.content_region
    rows = screen_text(screen.app).splitlines()[region.y : region.bottom]
    return [row[region.x : region.right].rstrip() for row in rows]


def read_customers(rows: Sequence[str]) -> list[str]:
    """The requests the rows show, by number: a row that starts with a number starts a
    customer, an indented one goes on with the last."""
    requests: list[str] = []
    for row in rows:
        if not row.strip():
            continue
        if NUMBERED.match(row):
            number, words = row.split(" ", 1)
            assert number == str(len(requests) + 1), f"{row!r} reads as another customer"
            requests.append(words.strip())
        else:
            assert row.startswith(" ") and requests, f"{row!r} belongs to no customer"
            requests[-1] += " " + row.strip()
    return requests


def lines_each(rows: Sequence[str]) -> list[int]:
    """How many rows each request the rows show takes, in order."""
    counts: list[int] = []
    for row in rows:
        if NUMBERED.match(row):
            counts.append(1)
        elif row.strip():
            counts[-1] += 1
    return counts


async def show_customers(pilot: Pilot[Any], screen: MasterScreen, names: Sequence[str]) -> None:
    """Draw the screen with ``names`` the open customers; wait until every word shows."""
    view = with_customers(screen.table.view(screen.viewer), names)
    screen.view = lambda: view  # type: ignore[method-assign]
    screen.refresh_view()
    wanted = {word for name in names for word in customer_words(name).split()}
    await until(
        pilot,
        lambda: wanted <= set(" ".join(panel_rows(screen)).split()),
        f"the requests {names}",
        timeout=5,
    )


@pytest.mark.parametrize(
    ("language", "players", "size"),
    [
        *((language, 1, SIZE) for language in LANGUAGES),
        *((language, 2, SIZE) for language in LANGUAGES),
        ("es", 2, (100, 30)),
        ("es", 1, (120, 45)),
    ],
)
async def test_every_customer_s_request_is_whole(
    language: str, players: int, size: tuple[int, int]
) -> None:
    """Each request, three at a time (the longest three together), reads whole in the
    panel: a customer by its number, the rest of its words indented under it."""
    with speaking(language):
        setup = GameSetup(game="cake-master", players=players, seed=22)
        app = make_app(setup, language=language)
        async with app.run_test(size=size) as pilot:
            screen = await settle(pilot)
            assert isinstance(screen, MasterScreen)
            tall = screen.has_class("-tall")
            for names in threes(longest_first()):
                await show_customers(pilot, screen, names)
                rows = panel_rows(screen)
                shown = read_customers(rows)
                assert shown == [customer_words(n) for n in names], rows
                if size == SIZE:  # a request one line holds in English, one line holds
                    # here too: never a short one broken in the middle of its words
                    room = screen.query_one("#cm-customers").content_region.width - 2
                    for name, taken in zip(names, lines_each(rows), strict=True):
                        if len(CUSTOMERS[name].request) <= room:
                            assert taken == 1, rows
                # no request takes more than two lines at 80 columns: the top row grows by
                # one line at most, and the log below keeps four lines to read
                assert screen.query_one("#cm-log").region.height >= 6
                assert screen.has_class("-tall") == tall
                # the hand as tall as its cards (4 solo, else 3) and its edges
                hand = screen.query_one("#cm-hand").region.height
                assert hand == len(screen.view().hand) + 2


def test_a_long_request_goes_on_under_its_first_letter() -> None:
    """In a narrow panel, every line after a request's first starts under its first
    letter: only a customer's first line starts with a number."""
    view = with_customers(_solo_view(), ("customer-14", "customer-16", "customer-18"))
    rows = customers_text(view, 20).plain.splitlines()
    assert all(len(row) <= 20 for row in rows)
    assert [row[:2] for row in rows if NUMBERED.match(row)] == ["1 ", "2 ", "3 "]
    assert all(row.startswith("  ") for row in rows if not NUMBERED.match(row))
    assert read_customers(rows) == [
        customer_words(n) for n in ("customer-14", "customer-16", "customer-18")
    ]
    # a face-down customer (a networked game's, not yet revealed) is indented alike
    hidden = dataclasses.replace(view, known={k: v for k, v in view.known.items() if k < 10_000})
    assert customers_text(hidden, 8).plain.splitlines()[:2] == ["1 face", "  down"]


def test_wrap_breaks_between_words_and_a_word_too_long_between_its_letters() -> None:
    assert wrap("at least 3 raspberries", 10) == ["at least 3", "raspberries"[:10], "s"]
    assert wrap("a b c", 3) == ["a b", "c"]
    assert wrap("", 5) == [""]
    assert wrap("tantas frambuesas como", 22) == ["tantas frambuesas como"]


def _solo_view() -> MasterView:
    from cakeparty.tui.table.local import LocalTable

    table = LocalTable(GameSetup(game="cake-master", players=1, seed=22))
    view: MasterView = table.view(0)
    return view

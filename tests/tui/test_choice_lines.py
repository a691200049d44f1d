"""A list's entries at 80×24: a detail too long to sit beside its label goes on lines of
its own, every one of them under the label's start (none back at the list's edge, where
it would read as an entry of its own)."""

from __future__ import annotations

from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen

from .pilot import SIZE, make_app
from .test_table_says import screen_text

LONG = (
    "magic attacker — Name a card, look at the opponent's hand, steal 2 cakes per copy of "
    "it there, and then some more words so that the detail takes three lines of the list"
)


async def test_a_long_detail_stays_under_its_label() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        choices = [Choice("1 × Summoner", 1, LONG), Choice("1 × Soldier", 2, "short")]
        await app.push_screen(ChoiceScreen("Your claim", choices))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        first = next(i for i, row in enumerate(rows) if "1. 1 × Summoner" in row)
        start = rows[first].index("1. 1 × Summoner")
        detail = []
        for row in rows[first + 1 :]:
            if "2. 1 × Soldier" in row:
                break
            detail.append(row)
        assert len(detail) >= 2, rows  # the detail wraps over lines of its own
        for row in detail:
            inside = row[start:]
            assert inside.startswith("   ") and inside[3] != " ", row  # under the label
        words = " ".join(" ".join(row[start:].split("│")[0].split()) for row in detail)
        assert words == LONG  # every word, in order, none lost at the edge

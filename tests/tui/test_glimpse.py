"""The players panel after a look: the cards seen in a hand, not their slots."""

from __future__ import annotations

from cakeparty.tui.games.cake_duel.parts import seat_rows
from tests.core.cake_duel.play import accept, claim
from tests.core.cake_duel.stacking import stacked


def test_the_players_panel_shows_what_the_looker_saw_in_the_hand() -> None:
    class _Duel:
        players = 2
        names = ("Ann", "Bob")

        def shown_as_bot(self, seat: int) -> bool:
            return False

        def away(self, seat: int) -> bool:
            return False

    m = stacked(
        [["oracle", "archer", "defender", "defender"], ["wizard", "wizard", "soldier", "priest"]],
        specials=["oracle", "priest"],
    )
    claim(m, 0, ["oracle"], "oracle")
    accept(m)
    (bob,) = [row for row in seat_rows(m.view(0), _Duel(), 0) if row.name == "Bob"]
    assert "Wizard" in bob.note and "Priest" in bob.note

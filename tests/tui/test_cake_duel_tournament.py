"""A Cake Duel tournament at 80×24, played by keys: every bout and every duel ends with its
dialog, the title line keeps the duel and the score, and the last dialog fits the screen.

Ann challenges every claim and claims one card at a time, so bouts end fast; the random
bot does the rest. Every assertion reads what the terminal shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

from cakeparty.core.games.cake_duel import events as ev
from cakeparty.core.games.cake_duel.cards import SIR_WOLFY
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.games.cake_duel.text import card_title
from cakeparty.tui.games.cake_duel.screen import (
    END_KEYS,
    TOURNAMENT_END_KEYS,
    DuelEndScreen,
    DuelScreen,
    TournamentEndScreen,
)
from cakeparty.tui.screens.dialogs import ChoiceScreen, NoticeScreen
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.results import EndScreen

from .pilot import SIZE, make_app, rows, settle, shown, until

#: Ann's key for each decision of hers: claim the first card, challenge every claim, keep
#: a Sir Wolfy hidden (the tournament leaves it to her)
KEYS = {
    Phase.ATTACK: ("1", "c"),
    Phase.RESPOND: ("x",),
    Phase.REPLY: ("x",),
    Phase.WOLFY: ("h",),
}


def keys_for(screen: DuelScreen) -> tuple[str, ...]:
    """Ann's keys now; an attack plays her Sir Wolfy when she holds it (to be kept hidden
    or revealed after the turn, a tournament's choice)."""
    view = screen.view()
    if view.phase is Phase.ATTACK:
        for place, slot in enumerate(view.hand, 1):
            if view.card(slot) == SIR_WOLFY:
                return (str(place), "c")
    return KEYS[view.phase]


def fits(screen: Screen[Any], box: Widget) -> bool:
    """Whether the dialog's box lies wholly on an 80×24 screen."""
    width, height = SIZE
    region = box.region
    return region.x >= 0 and region.y >= 0 and region.right <= width and region.bottom <= height


async def play_tournament(seed: int, **options: Any) -> dict[str, Any]:
    """Play a tournament to its end dialog; what each dialog and the title line showed,
    and the specials Ann saw in each duel."""
    options = {"tournament": True, **options}
    setup = GameSetup("cake-duel", 2, bots="random", seed=seed, options=options)
    app = make_app(setup)
    seen: dict[str, Any] = {"notices": [], "titles": set(), "specials": {}}
    async with app.run_test(size=SIZE) as pilot:
        duel_screen = app.screen_stack[1]
        assert isinstance(duel_screen, DuelScreen)
        for _step in range(2000):
            screen = await settle(pilot)
            if isinstance(screen, EndScreen):
                box = screen.query_one("#end-box")
                keys = screen.query_one("#end-keys")
                seen["end"] = {
                    "title": screen.title_text,
                    "headline": screen.headline,
                    "lines": list(screen.lines),
                    "fits": fits(screen, box),
                    "keys": shown(app, keys),
                    "screen": "\n".join(rows(app)),
                }
                await pilot.press("enter")  # put away: the table, its footer
                await until(pilot, lambda: app.screen is duel_screen, "the table")
                await settle(pilot)
                seen["footer"] = footer_keys(app)
                break
            if isinstance(screen, NoticeScreen):
                box = screen.query_one("#dialog")
                seen["notices"].append(
                    {
                        "title": screen.title_text,
                        "lines": [str(line) for line in screen.lines],
                        "fits": fits(screen, box),
                        "keys": shown(app, screen.query_one("#dialog-keys")),
                        "bout": duel_screen.view().bout,
                    }
                )
                await pilot.press("enter")
                continue
            if isinstance(screen, ChoiceScreen):  # a claim's name, a Priest's or a Summoner's
                await pilot.press("1")
                continue
            assert screen is duel_screen and screen.awaiting == 0
            seen["titles"].add(shown(app, screen.query_one("#duel-title")))
            view = screen.view()
            seen["specials"].setdefault(sum(view.duels) + 1, set()).update(view.specials_seen)
            if screen.view().phase is Phase.WOLFY:
                seen["wolfy"] = screen.status.text
            await pilot.press(*keys_for(screen))
        else:
            raise AssertionError("the tournament did not end")
        table = duel_screen.duel
        assert isinstance(table, LocalTable)
        seen["story"] = [e.event for e in table.story]
        seen["names"] = table.names
        seen["replay"] = table.replay()
    return seen


async def test_every_bout_and_every_duel_of_a_tournament_ends_with_its_dialog() -> None:
    seen = await play_tournament(seed=3)
    story = seen["story"]
    bouts = [e for e in story if isinstance(e, ev.BoutWon)]
    duels = [e for e in story if isinstance(e, ev.DuelWon)]
    assert len(duels) >= 3 and len(bouts) >= 9
    notices = seen["notices"]
    ended = [n for n in notices if " wins bout " in n["title"] or " wins duel " in n["title"]]
    # one dialog per bout but the last, which the end dialog tells
    assert len(ended) == len(bouts) - 1, [n["title"] for n in ended]
    names = dict(enumerate(seen["names"]))
    duel_ends = [n for n in ended if " wins duel " in n["title"]]
    assert len(duel_ends) == len(duels) - 1
    for number, (notice, duel) in enumerate(zip(duel_ends, duels, strict=False), 1):
        winner = names[duel.side]
        assert notice["title"] == f"{winner} wins duel {number}"
        text = " ".join(notice["lines"])
        score = f"Ann {duel.duels[0]} – {duel.duels[1]} Muffin"
        assert f"Tournament: {score}, first to 3" in text
        assert f"The hidden specials of duel {number} were " in text
        assert f"Next: duel {number + 1} of 5" in text
    for notice in notices:
        assert notice["fits"] and "enter to continue" in notice["keys"], notice
    # the title line names the duel and the score in every duel
    titles = seen["titles"]
    for number in range(1, len(duels) + 1):
        assert any(f"duel {number} of 5" in t for t in titles), titles
    assert any("(Ann 1 – 0 Muffin)" in t or "(Ann 0 – 1 Muffin)" in t for t in titles)
    # the last dialog says who won the tournament, and fits with every key
    end = seen["end"]
    last = duels[-1]
    assert end["title"] == "The tournament is over"
    assert end["headline"] == f"{names[last.side]} wins the tournament!"
    text = " ".join(end["lines"])
    assert f"Ann {last.duels[0]} – {last.duels[1]} Muffin" in text
    assert text.count("wins the bout") == 1  # only the last bout: the others were told
    assert end["fits"], end["screen"]
    for key in ("r replay face up", "d new tournament", "enter see the table", "q quit"):
        assert key in end["keys"], end["screen"]
    # the table's footer, the dialog put away, offers the same
    assert "d New tournament" in seen["footer"] and "New duel" not in seen["footer"]


async def test_each_duel_s_end_names_that_duel_s_own_specials() -> None:
    """With the specials shown as each duel is dealt, the end of each duel names the very
    ones: not the next duel's, nor the first duel's again."""
    seen = await play_tournament(seed=5, show_specials=True)
    told = [n for n in seen["notices"] if " wins duel " in n["title"]]
    assert len(told) >= 2
    for number, notice in enumerate(told, 1):
        cards = ", ".join(card_title(c) for c in sorted(seen["specials"][number]))
        assert f"The hidden specials of duel {number} were {cards}" in notice["lines"]


#: a tournament in which Ann's Sir Wolfy goes unchallenged: she is asked to reveal it
WOLFY_SEED = 8


async def test_a_tournament_s_sir_wolfy_choice_says_its_keys_once() -> None:
    seen = await play_tournament(seed=WOLFY_SEED)
    assert seen["wolfy"] == "You played Sir Wolfy: w reveal it · h keep it hidden"


def footer_keys(app: App[Any]) -> str:
    """The footer's row as the terminal shows it."""
    drawn = rows(app)
    return " ".join(drawn[-1].split()) if drawn else ""


@pytest.mark.parametrize("kind", ["end", "notice"])
async def test_a_dialog_too_tall_for_the_terminal_scrolls_by_keys_it_shows(kind: str) -> None:
    """More lines than 24 rows hold: the box stays on the screen, its keys' line in view
    and naming the scrolling keys, which bring the last line into view."""
    lines = [f"line {n} of what the game has to tell, one after another" for n in range(1, 41)]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if kind == "end":
            dialog: Screen[Any] = TournamentEndScreen(
                "Ann wins the tournament!",
                lines,
                True,
                title="The tournament is over",
                keys=TOURNAMENT_END_KEYS,
            )
            box_id, keys_id = "#end-box", "#end-keys"
        else:
            dialog = NoticeScreen("Ann wins duel 1", lines, classes="bout-end duel-end")
            box_id, keys_id = "#dialog", "#dialog-keys"
        app.push_screen(dialog)

        def keys_line() -> str:
            on = app.screen is dialog and dialog.is_mounted and dialog.query(keys_id)
            return shown(app, dialog.query_one(keys_id)) if on else ""

        await until(pilot, lambda: "PgDn" in keys_line(), "the scrolling keys")
        assert fits(dialog, dialog.query_one(box_id))
        keys = shown(app, dialog.query_one(keys_id))
        if kind == "end":
            for key in ("r replay face up", "d new tournament", "enter see the table", "q quit"):
                assert key in keys
        else:
            assert "enter to continue" in keys
        screen = "\n".join(rows(app))
        assert "line 1 of" in screen and "line 40 of" not in screen
        await pilot.press("end")
        await until(pilot, lambda: "line 40 of" in "\n".join(rows(app)), "the last line")
        assert "PgDn" in keys_line()  # the keys stay in view
        await pilot.press("home")
        await until(pilot, lambda: "line 1 of" in "\n".join(rows(app)), "the first line")


@pytest.mark.parametrize(
    ("box", "keys", "word"),
    [(DuelEndScreen, END_KEYS, "duel"), (TournamentEndScreen, TOURNAMENT_END_KEYS, "tournament")],
)
async def test_the_end_footer_names_the_new_game_as_the_keys_line_does(
    box: type[EndScreen], keys: dict[str, str], word: str
) -> None:
    """A duel's end offers d "new duel" in its box and its footer alike; a tournament's,
    "new tournament" (the table's footer after a tournament: the first test)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        dialog = box("Ann wins!", ["a line"], True, keys=keys)
        app.push_screen(dialog)

        def offered() -> bool:
            return app.screen is dialog and dialog.is_mounted and f"New {word}" in footer_keys(app)

        await until(pilot, offered, f"d New {word} in the footer")
        assert f"d new {word}" in shown(app, dialog.query_one("#end-keys"))
        assert "New game" not in footer_keys(app)

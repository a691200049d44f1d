"""Cake Duel at 80×24 in English, Spanish and Polish, read off the screen: the keys of a
hint beside a networked clock, the table's subtitle once the duel is over, and the
title line, which keeps the game's name."""

from __future__ import annotations

import random
import re
import secrets
import time
from typing import Any

import pytest

from cakeparty.core import get_game, i18n
from cakeparty.core.games.cake_duel.state import Phase
from cakeparty.core.games.cake_duel.text import card_title, claim_text
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.session import GameSession
from cakeparty.protocol.table import Table
from cakeparty.tui.games.cake_duel.chronicle import hidden_specials
from cakeparty.tui.games.cake_duel.netscreen import NetDuelScreen
from cakeparty.tui.games.cake_duel.parts import specials_line
from cakeparty.tui.games.cake_duel.screen import DuelScreen
from cakeparty.tui.screens.dialogs import PassScreen
from cakeparty.tui.table import registration
from cakeparty.tui.table.local import GameSetup, LocalTable
from cakeparty.tui.table.net import NetTable
from cakeparty.tui.table.results import EndScreen
from cakeparty.tui.widgets import SeatList

from .languages import speaking
from .netseats import Runner, deliver, guest_room
from .pilot import SIZE, OneScreen, rows, shown, until

BOT = get_game("cake-duel").bots["random"]

#: Two names as long as a networked name may be (32 characters).
LONG_NAMES = ("Maximiliano Fernández de la Cruz", "Bartholomew Alexander Worthingto")

#: A day: the longest clock a room allows, five digits on the status line.
DAY = 86400

#: Each language's words of the keys when an attack is to be answered.
RESPOND_KEYS = {
    "en": ("x challenge", "b block", "a accept"),
    "es": ("x desafiar", "b bloquear", "a aceptar"),
    "pl": ("x sprawdź", "b blokuj", "a przyjmij"),
}
CLOCK_WORDS = {"en": "Your clock:", "es": "Tu reloj:", "pl": "Twój czas:"}


def long_named_duel(now: float) -> tuple[NetTable, NetTable]:
    """Two seats with the longest names, on a day's clock started at ``now``, the full
    game (hidden specials)."""
    people = [Identity.generate(name) for name in LONG_NAMES]
    table = Table.of(
        "ROOM45",
        "cake-duel",
        [(p.player_id, p.name) for p in people],
        {"full": True},
        timeout=DAY,
        nonce=secrets.token_bytes(16),
    )
    seats = []
    for seat, person in enumerate(people):
        runner = Runner(GameSession(table, [person], now=now), person, seat)
        seats.append(NetTable(runner, {people[1].player_id: True}))
    return seats[0], seats[1]


def until_ann_answers_an_attack(seats: tuple[NetTable, NetTable], seed: int) -> None:
    """Both seats play by the random bot until the first seat is to answer an attack."""
    ann = seats[0]
    rng = random.Random(seed)
    deliver(seats, time.monotonic())
    for _ in range(500):
        view = ann.view(ann.seat)
        if ann.to_act == ann.seat and view.phase is Phase.RESPOND:
            return
        moved = False
        for seat in seats:
            if seat.to_act is not None:
                seat.act(seat.to_act, BOT(seat.view(seat.to_act), rng))
                moved = True
        assert moved, "the duel waits on nobody"
        deliver(seats, time.monotonic())
    raise AssertionError("the first seat never answered an attack")


def status_row(app: Any, screen: NetDuelScreen) -> str:
    region = screen.status.region
    return rows(app)[region.y][region.x : region.right]


def table_box(app: Any, screen: DuelScreen) -> list[str]:
    """The rows of the Table panel, its borders with them."""
    region = screen.query_one("#duel-table").region
    return [row[region.x : region.right] for row in rows(app)[region.y : region.bottom]]


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_every_key_to_answer_an_attack_shows_beside_a_long_clock(language: str) -> None:
    """Ann, to answer an attack by a player whose name is 32 characters long, has a day
    on her clock: the status line keeps the clock and every key (x, b, a) whole, the
    attacker's name and claim giving way; the claim shows whole on the table, the name
    cut there instead."""
    with speaking(language):
        seats = ann, _bob = long_named_duel(time.monotonic())
        until_ann_answers_an_attack(seats, 4)
        screen = NetDuelScreen(ann, guest_room())
        app = OneScreen(screen)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen.awaiting == ann.seat, "Ann's decision")
            await until(pilot, lambda: CLOCK_WORDS[language] in screen.status.text, "the clock")
            await pilot.pause()
            line = status_row(app, screen)
            assert CLOCK_WORDS[language] in line, line
            for keys in RESPOND_KEYS[language]:
                assert keys in line, (keys, line)
            # the claim answered, which the status line left out, stays whole on the table
            attack = ann.view(ann.seat).attack
            assert attack is not None
            claim = claim_text(attack.count, attack.name)
            box = table_box(app, screen)
            assert any(f": {claim}" in row for row in box), (claim, box)


#: Each language's words for hidden specials in the table's subtitle, while the duel is
#: on, and once it is over.
HIDDEN_WORDS = {
    "en": ("· 2 hidden specials", "· 2 specials shown"),
    "es": ("· 2 esp. ocultas", "· 2 esp. vistas"),
    "pl": ("· 2 ukryte specjalne", "· 2 specjalne odkryte"),
}


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_after_the_end_names_the_specials_the_table_says_they_were_hidden(
    language: str,
) -> None:
    """A duel of the full game played to its end: once the end has named its hidden
    specials, the table no longer counts them as hidden (its subtitle says how many the end showed),
    and names them under the claims, as the end did."""
    with speaking(language):
        table = LocalTable(GameSetup(players=2, bots="random", seed=5), "Ann")
        rng = random.Random(3)
        while not table.over:  # Ann's moves too, by the random bot
            seat = table.to_act
            assert seat is not None
            table.act(seat, BOT(table.view(seat), rng))
        match = table.match
        hidden = hidden_specials(match.state, match.dealer)
        assert len(hidden) == 2
        screen = DuelScreen(table)
        app = OneScreen(screen)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end dialog")
            assert any(card_title(c) in " ".join(rows(app)) for c in hidden)
            await pilot.press("escape")  # see the table
            await until(pilot, lambda: app.screen is screen, "the table")
            await pilot.pause()
            box = table_box(app, screen)
            during, after = HIDDEN_WORDS[language]
            subtitle = box[-1]
            assert during not in subtitle and after in subtitle, subtitle
            inside = " ".join(" ".join(row.strip("│ ").split()) for row in box[1:-1])
            assert specials_line(hidden) in inside, inside


#: Six names as long as a networked name may be, each its own from its first letters.
SIX_LONG = (
    "Maximiliano Fernández de la Cruz",
    "Bartholomew Alexander Worthingto",
    "Konstantynopolitańczykowianeczka",
    "Guadalupe Esperanza Villanueva R",
    "Wilhelmina Charlotte Montgomery",
    "Przemysław Grzegorz Brzęczyszcki",
)

#: Each game's title in Spanish and Polish, and the tables checked: (players, options).
TITLES = {
    "cake-duel": (
        {"es": "Duelo de Pasteles", "pl": "Pojedynek na Ciastka"},
        [(2, {}), (4, {}), (2, {"tournament": True}), (4, {"tournament": True})],
    ),
    "cake-master": (
        {"es": "Maestro Pastelero", "pl": "Mistrz Cukiernik"},
        [(n, {}) for n in range(2, 7)],
    ),
    "cookies-battle": (
        {"es": "Batalla de Galletas", "pl": "Ciasteczkowa Bitwa"},
        [(n, {}) for n in range(2, 7)] + [(6, {"variant": "beginners"})],
    ),
    "cake-of-doom": (
        {"es": "Pastel de la Perdición", "pl": "Tort Zagłady"},
        [(n, {}) for n in range(3, 7)] + [(6, {"advanced": True, "blind": True})],
    ),
}


def title_row(screen: Any) -> str:
    """The top row of a game's screen, as drawn (a hot-seat's pass dialog may be in
    front of it)."""
    drawn = [strip.text for strip in screen._compositor.render_strips()]
    return drawn[0] if drawn else ""


@pytest.mark.parametrize("language", ["es", "pl"])
@pytest.mark.parametrize("game", sorted(TITLES))
async def test_each_title_keeps_the_game_s_name_at_80_columns(game: str, language: str) -> None:
    """Every game's title line at 80×24, in Spanish and in Polish, from two to six players
    (as the game allows), every player with a name of 32 characters: the game's name
    opens it whole; in Cake Master, every seat's stars show, each name with at least four
    letters of its own."""
    titles, tables = TITLES[game]
    title = titles[language]
    with speaking(language):
        for players, options in tables:
            names = SIX_LONG[:players]
            setup = GameSetup(game, players, options=options, seed=2, hotseat=True, names=names)
            table = LocalTable(setup, names[0])
            make = registration.lookup(game).local_screen
            assert make is not None
            screen = make(table, bot_delay=0.0)
            app = OneScreen(screen)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: title_row(screen).strip(), "the title")  # noqa: B023
                await pilot.pause()
                line = title_row(screen)
                where = (game, players, options, line)
                assert line.startswith(f" {title} "), where
                if game == "cake-master":
                    shown = [n.strip() for n in re.split(r"★\d+", line.split(" · ")[-1])[:-1]]
                    assert len(shown) == players, where
                    assert all(len(name.rstrip("…")) >= 4 for name in shown), where


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_a_four_player_duel_shows_its_turn_in_every_language(language: str) -> None:
    """A four-player duel at 80×24 shows the bout's turn: on the title line where it fits
    (English), else in the table panel's title ("Mesa · turno 1"), never nowhere, and
    never twice."""
    names = ("Ann", "Eclair", "Muffin", "Brownie")
    setup = GameSetup("cake-duel", 4, seed=2, hotseat=True, names=names)
    with speaking(language):
        table = LocalTable(setup, names[0])
        screen = DuelScreen(table, bot_delay=0.0)
        app = OneScreen(screen)

        def turn() -> str:  # the bout's turn now, in the words of the title
            return i18n._("turn {n}").format(n=screen.view().turn - screen.first_turn + 1)

        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PassScreen), "the keyboard")
            await pilot.press("enter")  # the hand passes to its first player
            # read as the duel draws itself: a dialog may open in front of it at once
            await until(pilot, lambda: turn() in " ".join(rows(app, screen)), "the turn shown")
            drawn = [" ".join(row.split()) for row in rows(app, screen)]
            assert sum(row.count(turn()) for row in drawn) == 1, drawn
            assert (turn() in drawn[0]) is (language == "en"), drawn


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_a_seat_s_tag_shows_whole_and_the_name_gives_way(language: str) -> None:
    """The players panel of a four-player duel at 80×24: a partner's tag ("(pareja)")
    shows whole, the name cut where both do not fit ("Brown… (pareja)", "Bartholomew
    Alex… (partner)"), never the tag ("Brownie (parej…"); the partner's known hand shows
    every card whole."""
    for names in (("Ann", "Eclair", "Muffin", "Brownie"), SIX_LONG[:4]):
        with speaking(language):
            tag = i18n._("(partner)")
        setup = GameSetup("cake-duel", 4, seed=2, hotseat=True, names=names)
        with speaking(language):
            table = LocalTable(setup, names[0])
            screen = DuelScreen(table, bot_delay=0.0)
            app = OneScreen(screen)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: screen.query(SeatList), "the seats")  # noqa: B023
                await pilot.press("enter")  # the hand passes to its first player
                await until(
                    pilot,
                    lambda: any(r.tag == tag for r in screen.query_one(SeatList).rows),  # noqa: B023
                    "the partner's tag",
                )
                await pilot.pause()
                panel = shown(app, screen.query_one(SeatList), screen)
                partner = [row for row in screen.query_one(SeatList).rows if row.tag == tag]
        assert len(partner) == 1, (names, panel)
        name = partner[0].name
        assert f" {tag}" in panel, (names, panel)
        shown_name = panel.split(f" {tag}")[0].split("│")[-1].strip().lstrip("▶ ")
        if language == "en" and len(name) < 10:  # English leaves room for both
            assert shown_name == name, (shown_name, panel)
        elif shown_name != name:
            assert shown_name.endswith("…") and name.startswith(shown_name[:-1]), panel
            assert len(shown_name) >= 5, panel
        # the partner's hand, known: each card whole, in fewer words where the note
        # does not fit ("Obrońca, Żołnierz, Łucznik, Czarodziej", not "ma: … Czarod…")
        note = partner[0].note
        assert note and partner[0].brief, partner
        for card in partner[0].brief.split(", "):
            assert card in panel, (card, panel)
        assert note in panel or partner[0].brief in panel, panel


@pytest.mark.parametrize("language", ["en", "es", "pl"])
async def test_a_tournament_s_duel_moves_to_the_players_panel_rather_than_cut_the_names(
    language: str,
) -> None:
    """A four-player tournament at 80×24: in Spanish and Polish the title could hold the
    duel only in short, the names cut to three letters ("Ann & Muf 0 – 0 Ecl & Bro"). The
    duel goes to the players panel's title instead ("Jugadores · duelo 1 de 5 (0 – 0)"),
    and the title names the teams whole; a two-player tournament in English keeps it on
    the title line."""
    names = ("Ann", "Eclair", "Muffin", "Brownie")
    for players in (2, 4):
        setup = GameSetup(
            "cake-duel", players, options={"tournament": True}, seed=2, hotseat=True,
            names=names[:players],
        )  # fmt: skip
        with speaking(language):
            duel = i18n._("duel {n} of {most}").format(n=1, most=5)
            panel = i18n._("Players")
            screen = DuelScreen(LocalTable(setup, names[0]), bot_delay=0.0)
            app = OneScreen(screen)
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: title_row(screen).strip(), "the title")  # noqa: B023
                await pilot.pause()
                drawn = [strip.text for strip in screen._compositor.render_strips()]
        title, border = drawn[0], drawn[1]
        teams = ("Ann & Muffin 0 – 0 Eclair & Brownie", "Ann 0 – 0 Eclair")[players == 2]
        where = (players, title, border)
        if language == "en" and players == 2:
            assert f"{duel} (Ann 0 – 0 Eclair)" in title, where
            assert f"─ {panel} ─" in border, where
        else:
            assert teams in title and duel not in title, where
            assert f"─ {panel} · {duel} (0 – 0) ─" in border, where


def test_the_cards_box_of_a_core_duel_names_no_special() -> None:
    """A tall terminal's Cards box lists the core deck and, in the full game, the
    specials that may be hidden in it; a core duel has none, and its box names none."""
    from cakeparty.core.games.cake_duel.cards import CARDS
    from cakeparty.tui.games.cake_duel.help import reference_entries

    def named(specials: bool) -> set[str]:
        firsts = {entry.plain.split(" ×")[0] for entry in reference_entries(specials)}
        return {name for name in CARDS if card_title(name) in firsts}

    assert named(True) == set(CARDS)
    assert named(False) == {name for name, card in CARDS.items() if not card.special}

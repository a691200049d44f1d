"""Every game the app has a screen for: one line per game, in the menu's order.

A game is its rules (``core/games/<game>/``), its screen package (``tui/games/<game>/``,
whose ``GAME`` is a :class:`~cakeparty.tui.table.registration.TableGame`) and its line
here: the package's name.
"""

from __future__ import annotations

from importlib import import_module

from cakeparty.tui.table.registration import TableGame

PACKAGES = [
    "cake_duel",
    "cake_master",
    "cookies_battle",
    "cake_of_doom",
]

GAMES: tuple[TableGame, ...] = tuple(
    import_module(f"{__name__}.{package}").GAME for package in PACKAGES
)

"""Nothing game-agnostic knows a game: outside a game's rules package
(``core/games/<game>/``) and its screen package (``tui/games/<game>/``), a game is named
only on its registration lines — one in ``core/games/__init__.py`` (its rules) and one in
``tui/games/__init__.py`` (its screen) — and on the short documented list below.

The games come from the registries (the rules' and the screens'), so a new game is
checked as soon as it is registered. What counts as naming a game: its name
("cake-duel"), its package ("cake_duel"), its title ("Cake Duel"), and the names of the
classes its packages define around its title's own word (``CakeDuel``, ``DuelView``, …).
The installed source is scanned: every ``.py`` and ``.tcss`` file of ``core``,
``protocol``, ``broker`` and ``tui``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from cakeparty.core.game import game_names, get_game
from cakeparty.tui.table.registration import table_names

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ("core", "protocol", "broker", "tui")

#: Whole files that still know a game, and why (each must still need its place here).
DOCUMENTED_FILES: dict[str, dict[str, str]] = {}

#: Single lines that name a game, and why.
DOCUMENTED_LINES: dict[str, dict[str, str]] = {
    "cake-duel": {
        "core/__init__.py": "the API example of the rules engine's docstring",
        "core/match.py": "the doctest-style example of new_match",
    },
}


def _packages(game: str) -> tuple[str, ...]:
    package = game.replace("-", "_")
    return (f"cakeparty.core.games.{package}", f"cakeparty.tui.games.{package}")


def _own_words(game: str) -> set[str]:
    """The words of a game's title no other game's title has ("Duel" of "Cake Duel")."""
    words = set(get_game(game).title.split())
    for other in all_games():
        if other != game:
            words -= set(get_game(other).title.split())
    return words


def _class_names(game: str) -> set[str]:
    """The classes a game's packages define whose name holds its title's own word."""
    own = _own_words(game)
    names = {type(get_game(game)).__name__}
    for root in _packages(game):
        try:
            package = importlib.import_module(root)
        except ModuleNotFoundError:
            continue
        modules = [package]
        for info in pkgutil.walk_packages(package.__path__, f"{root}."):
            modules.append(importlib.import_module(info.name))
        for module in modules:
            for name, value in vars(module).items():
                if (
                    inspect.isclass(value)
                    and value.__module__.startswith(root)
                    and any(word in name for word in own)
                ):
                    names.add(name)
    return names


def all_games() -> tuple[str, ...]:
    """The shipped games: those whose rules live in ``core/games/`` (a test may register a
    toy game of its own elsewhere), and those with a screen."""
    shipped = (
        g for g in game_names() if type(get_game(g)).__module__.startswith("cakeparty.core.games.")
    )
    return tuple(dict.fromkeys((*shipped, *table_names())))


def _pattern(game: str) -> re.Pattern[str]:
    words = {game, game.replace("-", "_"), get_game(game).title, *_class_names(game)} - {""}
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")


def _sources() -> list[Path]:
    files: list[Path] = []
    for folder in SOURCE:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".tcss") and ".venv" not in path.parts:
                files.append(path)
    return files


def _own(path: str, game: str) -> bool:
    package = game.replace("-", "_")
    return path.startswith((f"core/games/{package}/", f"tui/games/{package}/"))


def naming_lines(game: str) -> dict[str, list[str]]:
    """Every file outside the game's own packages that names it: its naming lines."""
    pattern = _pattern(game)
    found: dict[str, list[str]] = {}
    for path in _sources():
        relative = path.relative_to(ROOT).as_posix()
        if _own(relative, game):
            continue
        lines = [
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if pattern.search(line)
        ]
        if lines:
            found[relative] = lines
    return found


def test_every_game_is_named_only_where_it_is_registered_or_documented() -> None:
    games = all_games()
    assert games, "no game registered"
    for game in games:
        package = game.replace("-", "_")
        found = naming_lines(game)
        expected_files = set(DOCUMENTED_FILES.get(game, {}))
        lines = DOCUMENTED_LINES.get(game, {})
        registration = {
            # the rules' registry imports each game's package: one line each
            # (its lone import, or its line in the grouped import)
            "core/games/__init__.py": [f"{package},"],
            # the screens' registry lists each game's package: one line each
        }
        if game in table_names():
            registration["tui/games/__init__.py"] = [f'"{package}",']
        unexpected = {
            path: named
            for path, named in found.items()
            if path not in expected_files and path not in lines and path not in registration
        }
        assert not unexpected, f"{game} is named outside its packages: {unexpected}"
        for path, wanted in registration.items():
            named = [line.split("  #")[0] for line in found.get(path, [])]
            named = [f"{package}," if n.endswith(f" import {package}") else n for n in named]
            assert named == wanted, f"{path} should name {game} on its one registration line"
        for path in lines:
            assert len(found.get(path, [])) == 1, f"{path}: one documented line for {game}"
        # a documented exception that is no longer needed must leave the list
        stale = (expected_files | set(lines)) - set(found)
        assert not stale, f"{game} is no longer named in {sorted(stale)}: drop them"


def test_the_scan_sees_a_game_where_it_is_named(tmp_path: Path) -> None:
    """The pattern finds each kind of name, and not a mere word inside another."""
    for game in all_games():
        pattern = _pattern(game)
        title = get_game(game).title
        package = game.replace("-", "_")
        for text in (f'get_game("{game}")', f"import {package}", f"_('{title}')"):
            assert pattern.search(text), text
        assert pattern.search(type(get_game(game)).__name__)
        assert not pattern.search(f"x{package}y") and not pattern.search(f"{game}-extra")


def test_a_registered_screen_belongs_to_a_game_with_rules() -> None:
    assert set(table_names()) <= set(game_names())

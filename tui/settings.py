"""The player's settings: a small JSON file in the user config dir.

``CAKEPARTY_CONFIG_DIR`` overrides the directory (tests, portable installs). A missing or
unreadable file gives the defaults; an unknown or ill-typed key is ignored, so an older
app reads a newer file.
"""

from __future__ import annotations

import getpass
import json
import math
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir

from cakeparty.core.i18n import LANGUAGES, N_, _
from cakeparty.protocol.looks import readable

ENV_DIR = "CAKEPARTY_CONFIG_DIR"
FILE_NAME = "settings.json"
#: Every bot level a game may offer, weakest first, marked for translation in this one
#: place and shown with ``_(level)``. Which of them a game offers is
#: :func:`cakeparty.core.game.bot_levels`; ``strong`` only where the game can be searched.
BOT_LEVELS = (N_("random"), N_("normal"), N_("strong"))
BOT_DELAYS = (0.0, 0.3, 0.6, 1.0, 1.5, 2.5)
#: Seconds a strong bot may think per decision (the default is the engine's).
THINK_TIMES = (0.5, 1.0, 2.0, 5.0)
DEFAULT_THINK = 1.0  # the same as cakeparty.core.game.DEFAULT_THINK, read without the engine
NAME_LENGTH = 16


def _default_name() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    user = user.strip()[:NAME_LENGTH].strip()
    if not readable(user) or user == "root":
        return _("Player")  # the language is chosen before the app reads its settings
    return user[:1].upper() + user[1:]


@dataclass(frozen=True)
class Settings:
    """What the player chose in the settings screen."""

    name: str = ""
    bot_level: str = "normal"
    bot_delay: float = 0.6  # seconds a bot waits before acting, so people can follow
    bot_think: float = DEFAULT_THINK  # seconds a strong bot thinks per decision
    colours: bool = True
    language: str = ""  # "": from the environment (LC_ALL, LC_MESSAGES, LANG); or a code
    bell: bool = True  # the terminal's bell when a networked game waits on this player

    def __post_init__(self) -> None:
        name = self.name.strip()[:NAME_LENGTH].strip()
        if not readable(name):  # a file changed by hand: the suggestion instead
            name = _default_name()
        object.__setattr__(self, "name", name)
        if self.bot_level not in BOT_LEVELS:
            object.__setattr__(self, "bot_level", "normal")
        if self.language not in LANGUAGES:
            object.__setattr__(self, "language", "")
        delay = min(max(float(self.bot_delay), 0.0), 5.0)
        object.__setattr__(self, "bot_delay", delay)
        think = min(max(float(self.bot_think), 0.1), 60.0)
        object.__setattr__(self, "bot_think", think)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def offered_level(levels: tuple[str, ...], wanted: str) -> str:
    """``wanted`` if it is one of ``levels`` (a game's, weakest first); else the strongest
    offered below it, else ``normal`` if offered, else the first."""
    if wanted in levels:
        return wanted
    if wanted in BOT_LEVELS:
        weaker = BOT_LEVELS[: BOT_LEVELS.index(wanted)]
        below = [level for level in levels if level in weaker]
        if below:
            return max(below, key=BOT_LEVELS.index)
    return "normal" if "normal" in levels else levels[0]


def config_dir() -> Path:
    """Where settings live: ``$CAKEPARTY_CONFIG_DIR`` or the platform's config dir."""
    override = os.environ.get(ENV_DIR)
    return Path(override) if override else Path(user_config_dir("cakeparty"))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def shown(path: Path) -> str:
    """``path`` as a person reads it: under their home, from ``~`` (a player served over
    SSH sees the file in the home the server gave them, not the server's layout)."""
    home = os.environ.get("HOME")
    if home:
        try:
            return str(Path("~", path.relative_to(home)))
        except ValueError:
            pass
    return str(path)


def finite(value: Any) -> float | None:
    """A number a file of the player's own says, as a finite float; ``None`` where it says
    none: not a number (a flag is none), NaN, infinite, or past any float."""
    if type(value) not in (int, float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _valid(key: str, value: Any) -> bool:
    if key in ("name", "bot_level", "language"):
        return isinstance(value, str)
    if key in ("bot_delay", "bot_think"):
        return finite(value) is not None
    if key in ("colours", "bell"):
        return isinstance(value, bool)
    return False


def load() -> Settings:
    """The saved settings, or the defaults."""
    data = _saved()
    clean = {key: value for key, value in data.items() if _valid(key, value)}
    return Settings(**clean)


def named() -> bool:
    """The settings file holds a name the player chose: none yet (the first run), or one
    lost (a file that is no settings, a name that is no text), and the app asks again."""
    name = _saved().get("name")
    return isinstance(name, str) and bool(name.strip())


def _saved() -> dict[str, Any]:
    """The settings file's JSON object; empty if there is none, or it is no object."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def save(settings: Settings) -> Path:
    """Write ``settings``; return the file written. Raises ``OSError`` on failure."""
    from cakeparty.protocol.journal import write_private  # (not needed to start the app)

    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = asdict(settings)
    if not data["language"]:  # not chosen: the environment decides, as with no file
        del data["language"]
    write_private(path, json.dumps(data, indent=2) + "\n")
    return path

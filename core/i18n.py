"""Translations for every user-facing string.

``_`` looks the text up in the active catalog when it is called, so a module can mark its
strings at import time and a language chosen later still applies. ``N_`` only marks a string
for extraction; the caller translates it when shown.

A string translated early (a key binding's description, a constant built with ``_`` at
import) follows a later change of language too: ``_`` of a translation gives the same
message in the active language, so whatever shows a stored string (the footer, a keys list)
passes it through ``_`` again when it draws it.

The language is one of :data:`LANGUAGES`; English is the source text and has no catalog.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "cakeparty"
SOURCE_LANGUAGE = "en"
LANGUAGES = ("en", "es", "pl")
#: Each language in its own words, as offered in the settings (never translated).
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "es": "Español", "pl": "Polski"}
#: Where the language comes from when the settings leave it open, first non-empty wins.
ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")
#: The language when that locale names none of :data:`LANGUAGES` (``C``, ``POSIX``,
#: another language, or none set): ``serve-ssh --lang`` gives it to its players' apps.
DEFAULT_ENV = "CAKEPARTY_LANG"

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_msgids: set[str] = set()  # the msgids of every catalog loaded so far
_sources: dict[str, str] = {}  # a translation given out so far -> its msgid


def locale_dir() -> Path:
    """Where the compiled catalogs live (shipped with the app)."""
    return Path(__file__).resolve().parent.parent / "tui" / "locale"


def catalog_path(language: str, localedir: Path | str | None = None) -> Path:
    """The compiled catalog of ``language`` (it may not exist)."""
    base = Path(localedir) if localedir is not None else locale_dir()
    return base / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def normalize(value: str | None) -> str:
    """The language a locale name stands for: ``es_ES.UTF-8`` → ``es``, ``pl_PL`` → ``pl``;
    ``C``, ``POSIX``, empty and anything not translated → ``en``."""
    code = _code(value)
    return code if code in LANGUAGES else SOURCE_LANGUAGE


def _code(value: str | None) -> str:
    """The language part of a locale name, lower case (``es_ES.UTF-8`` → ``es``)."""
    if not value:
        return ""
    code = value.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0]
    return code.strip().lower()


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` name (the first one set); where
    it is none of ours, ``CAKEPARTY_LANG``'s, else English."""
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name, "")
        if value:
            code = _code(value)
            if code in LANGUAGES:
                return code
            break
    default = _code(env.get(DEFAULT_ENV))
    return default if default in LANGUAGES else SOURCE_LANGUAGE


def choose_language(
    setting: str | None = None,
    option: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The language to show: the command line's ``option``, else the ``setting`` (empty:
    not chosen), else the environment's."""
    for chosen in (option, setting):
        if chosen:
            return normalize(chosen)
    return language_from_environment(environ)


def _load(language: str, localedir: Path | str | None) -> _gettext.NullTranslations | None:
    # read the file each time (gettext.translation caches by path, which would keep a
    # catalog rebuilt in place out of sight)
    try:
        with catalog_path(language, localedir).open("rb") as fp:
            return _gettext.GNUTranslations(fp)
    except OSError:
        return None


def use_language(language: str | None, localedir: Path | str | None = None) -> str:
    """Activate ``language`` (``None``: the environment's) from the catalogs in
    ``localedir`` (default: the shipped ones); return the language now in effect, which is
    English when the catalog is missing."""
    global _translation, _language
    wanted = normalize(language) if language else language_from_environment()
    loaded = None if wanted == SOURCE_LANGUAGE else _load(wanted, localedir)
    if loaded is None:
        _translation, _language = _gettext.NullTranslations(), SOURCE_LANGUAGE
        return _language
    catalog: Mapping[object, object] = getattr(loaded, "_catalog", {})
    _msgids.update(key for key in catalog if isinstance(key, str) and key)
    _translation, _language = loaded, wanted
    return _language


def set_language(language: str | None) -> str:
    """Activate ``language`` (``None``: from the environment); return the one in use."""
    return use_language(language)


def current_language() -> str:
    """The language in effect."""
    return _language


def _(message: str) -> str:
    """Translate ``message`` into the active language (``message`` may also be a
    translation given out earlier, in any language)."""
    if message not in _msgids:
        message = _sources.get(message, message)
    translated = _translation.gettext(message)
    if translated != message:
        _sources[translated] = message
    return translated


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now."""
    return message

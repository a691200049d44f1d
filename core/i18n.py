"""Translations for every user-facing string.

``_`` looks the text up in the active catalog when it is called, so a module can mark its
strings at import time and a language chosen later still applies. ``N_`` only marks a string
for extraction; the caller translates it when shown.
"""

from __future__ import annotations

import gettext as _gettext
from pathlib import Path

DOMAIN = "cakeparty"
LANGUAGES = ("en", "es", "pl")

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def locale_dir() -> Path:
    """Where the compiled catalogs live (shipped with the app)."""
    return Path(__file__).resolve().parent.parent / "tui" / "locale"


def set_language(language: str | None) -> str:
    """Activate ``language`` (``None``: from the environment); return the one in use."""
    global _translation
    languages = [language] if language else None
    try:
        _translation = _gettext.translation(DOMAIN, str(locale_dir()), languages=languages)
    except OSError:
        _translation = _gettext.NullTranslations()
        return "en"
    info = _translation.info()
    return info.get("language", language or "en")


def _(message: str) -> str:
    """Translate ``message`` into the active language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count."""
    return _translation.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now."""
    return message

"""The rules of each game, as shown to players, in their language."""

from __future__ import annotations

from importlib import resources

from cakeparty.core.i18n import _

_FALLBACK = "en"


def rules_text(game: str, language: str = _FALLBACK) -> str:
    """The rules of ``game`` in ``language`` (English where not translated)."""
    base = resources.files("cakeparty.tui") / "data" / "rules"
    for lang in (language, _FALLBACK):
        doc = base / lang / f"{game}.md"
        if doc.is_file():
            return doc.read_text(encoding="utf-8")
    return _("No rules are written for {game} yet.").format(game=game)

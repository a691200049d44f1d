"""The active language on screen: what Textual draws from stored text follows it.

Key bindings are declared once, at import, with their descriptions already through
``_``; Textual's footer draws those descriptions as they were stored. :func:`install`
makes the footer pass each one through ``_`` again when it builds its keys, so the footer
speaks the language in effect at that moment, whatever it was when the screen's module
was imported (``_`` of a translation gives the same message in the active language).
"""

from __future__ import annotations

from typing import Any

from textual.widgets import _footer

from cakeparty.core.i18n import _


class TranslatedFooterKey(_footer.FooterKey):
    """A footer key whose description and tooltip are in the active language."""

    def __init__(
        self,
        key: str,
        key_display: str,
        description: str,
        action: str,
        disabled: bool = False,
        tooltip: str = "",
        classes: str = "",
    ) -> None:
        super().__init__(
            key,
            key_display,
            _(description) if description else description,
            action,
            disabled=disabled,
            tooltip=_(tooltip) if tooltip else tooltip,
            classes=classes,
        )


class TranslatedFooterLabel(_footer.FooterLabel):
    """A footer group's label in the active language."""

    def __init__(self, content: Any = "", *args: Any, **kwargs: Any) -> None:
        text = _(content) if isinstance(content, str) and content else content
        super().__init__(text, *args, **kwargs)


def install() -> None:
    """Make every footer draw its keys in the active language (idempotent)."""
    _footer.FooterKey = TranslatedFooterKey  # type: ignore[misc]
    _footer.FooterLabel = TranslatedFooterLabel  # type: ignore[misc]

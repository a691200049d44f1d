"""Small gettext catalogs built on the spot, for tests that switch languages."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from cakeparty.core import i18n

PLURAL_FORMS = {
    "es": "nplurals=2; plural=(n != 1);",
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
}

Entries = Mapping[str | tuple[str, str], str | tuple[str, ...]]


def write_catalog(localedir: Path, language: str, entries: Entries) -> Path:
    """Compile ``entries`` (msgid → msgstr; ``(singular, plural)`` → the forms) as the
    catalog of ``language`` under ``localedir``; return the ``.mo`` written."""
    catalog = Catalog(locale=language, domain=i18n.DOMAIN)
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    path = i18n.catalog_path(language, localedir)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_mo(fp, catalog)
    return path


@contextmanager
def language(code: str, localedir: Path | str | None = None) -> Iterator[str]:
    """``code`` in effect inside the block (from ``localedir``), English after it."""
    try:
        yield i18n.use_language(code, localedir)
    finally:
        i18n.use_language("en")

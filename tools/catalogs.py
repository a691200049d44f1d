"""The translation catalogs: extract the messages, update the ``.po`` files, compile them.

    python tools/catalogs.py extract            # tui/locale/cakeparty.pot from the code
    python tools/catalogs.py update [LANG ...]  # every .po gains the new msgids (a new
                                                # language gets its .po), keeps translations
    python tools/catalogs.py compile [LANG ...] # the .mo files the app reads
    python tools/catalogs.py check [LANG ...]   # complete, consistent, compiled? (exit 1 if not)
    python tools/catalogs.py merge PART.po ...  # translations from partial catalogs into the
                                                # .po of each one's Language (then compile)

Messages are the arguments of ``_``, ``N_`` and ``ngettext`` (singular and plural) in
``core``, ``protocol``, ``broker`` and ``tui``, plus argparse's own words (``usage:``, its
errors), which the command line takes from the app's catalog. Needs Babel (the ``dev`` or
``test`` extra).
"""

from __future__ import annotations

import argparse
import gettext
import io
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("core", "protocol", "broker", "tui")
LOCALE = ROOT / "tui" / "locale"
DOMAIN = "cakeparty"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
TRANSLATED = ("es", "pl")  # every language but English, which is the source text

#: The Plural-Forms header of each language (GNU gettext's, which the translations follow).
PLURAL_FORMS = {
    "es": "nplurals=2; plural=(n != 1);",
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
}

#: argparse's words that a user of ``cakeparty`` meets (Python 3.11–3.13 share them).
ARGPARSE: tuple[str | tuple[str, str], ...] = (
    "usage: ",
    "positional arguments",
    "options",
    "show this help message and exit",
    "argument %(argument_name)s: %(message)s",
    "unrecognized arguments: %s",
    "not allowed with argument %s",
    "ignored explicit argument %r",
    "the following arguments are required: %s",
    "one of the arguments %s is required",
    "expected one argument",
    "expected at most one argument",
    "expected at least one argument",
    ("expected %s argument", "expected %s arguments"),
    "ambiguous option: %(option)s could match %(matches)s",
    "unexpected option string: %s",
    "invalid %(type)s value: %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)",
)


def po_path(language: str, locale: Path = LOCALE) -> Path:
    return locale / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str, locale: Path = LOCALE) -> Path:
    return po_path(language, locale).with_suffix(".mo")


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the code under ``root``, with where it is used."""
    template = Catalog(project="Cake Party", domain=DOMAIN, fuzzy=False)
    for folder in SOURCES:
        found = extract_from_dir(
            root / folder,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            location = (f"{folder}/{filename}", lineno)
            template.add(message, None, [location], auto_comments=comments, context=context)
    for message in ARGPARSE:
        template.add(message, None, [("argparse", 0)])
    return template


def msgids(catalog: Catalog) -> set[str]:
    """The msgids of ``catalog`` (a plural message by its singular)."""
    return {_singular(m) for m in catalog if m.id}


def _singular(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def _read(path: Path, language: str) -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp, locale=language, domain=DOMAIN)


def _write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, ignore_obsolete=True, include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def new_catalog(language: str) -> Catalog:
    """An empty catalog of ``language`` with its headers."""
    catalog = Catalog(locale=language, domain=DOMAIN, project="Cake Party", fuzzy=False)
    forms = PLURAL_FORMS.get(language)
    if forms is not None:
        catalog.mime_headers = [("Plural-Forms", forms)]
    return catalog


def write_template(path: Path = TEMPLATE, root: Path = ROOT) -> Catalog:
    template = extract(root)
    _write(path, template)
    return template


def update(languages: Iterable[str], locale: Path = LOCALE, root: Path = ROOT) -> None:
    """Bring each language's ``.po`` up to the code: new msgids empty, gone ones dropped,
    translations kept."""
    template = extract(root)
    for language in languages:
        path = po_path(language, locale)
        catalog = _read(path, language) if path.exists() else new_catalog(language)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        _write(path, catalog)


def compiled(language: str, locale: Path = LOCALE) -> bytes:
    """The ``.mo`` that the ``.po`` of ``language`` compiles to."""
    catalog = _read(po_path(language, locale), language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def _entries(mo: bytes) -> dict[object, str]:
    return dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]


def up_to_date(language: str, locale: Path = LOCALE) -> bool:
    """Does the committed ``.mo`` hold exactly what its ``.po`` compiles to (every
    translation and the headers)?"""
    mo = mo_path(language, locale)
    if not mo.exists():
        return False
    return _entries(mo.read_bytes()) == _entries(compiled(language, locale))


def compile_catalogs(languages: Iterable[str], locale: Path = LOCALE) -> None:
    for language in languages:
        mo_path(language, locale).write_bytes(compiled(language, locale))


def merge(parts: Iterable[Path], locale: Path = LOCALE) -> list[str]:
    """Copy the translations of partial catalogs (each says its ``Language``) into the
    ``.po`` files, for the msgids those hold; return what was not taken, one line each
    (a msgid the code no longer has, or a second, different translation of one)."""
    notes: list[str] = []
    catalogs: dict[str, Catalog] = {}
    taken_from: dict[tuple[str, str, str | None], Path] = {}
    for part in parts:
        with part.open("rb") as fp:
            partial = read_po(fp)
        language = str(partial.locale) if partial.locale else ""
        if language not in catalogs:
            path = po_path(language, locale)
            if not path.exists():
                notes.append(f"{part.name}: no catalog for language {language!r}")
                continue
            catalogs[language] = _read(path, language)
        catalog = catalogs[language]
        for message in partial:
            if not message.id or message.fuzzy or not all(_forms(message)):
                continue
            target = catalog.get(message.id, message.context)
            name = _singular(message)
            if target is None:
                notes.append(f"{part.name}: not a message of the code: {name!r}")
                continue
            key = (language, name, target.context)
            if key in taken_from and _forms(target) != _forms(message):
                notes.append(
                    f"{part.name}: {name!r} also translated in {taken_from[key].name}; "
                    "this one is kept"
                )
            target.string = message.string
            taken_from[key] = part
    for language, catalog in catalogs.items():
        _write(po_path(language, locale), catalog)
    return notes


# ---------------------------------------------------------------- checks

_FIELD = re.compile(r"\{[^{}]*\}")
_PERCENT = re.compile(r"%(?:\([A-Za-z_]+\))?[sdrf]")
_MARKUP = re.compile(r"\[/?[@A-Za-z#$][^\[\]]*\]|\[/\]")


def placeholders(text: str) -> list[str]:
    """The ``{fields}`` and ``%(fields)s`` of ``text``, in sorted order."""
    return sorted(_FIELD.findall(text) + _PERCENT.findall(text))


def markup(text: str) -> list[str]:
    """The Rich/Textual markup tags of ``text`` (``[b]``, ``[/b]``, ``[@click=…]``)."""
    return sorted(_MARKUP.findall(text))


@dataclass(frozen=True)
class Problem:
    language: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.what}: {self.msgid!r}"


def _forms(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def consistency(language: str, catalog: Catalog) -> list[Problem]:
    """Translations that lose or add a placeholder or a markup tag, have the wrong number
    of plural forms, or are fuzzy."""
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = list(message.id) if isinstance(message.id, tuple | list) else [message.id]
        forms = _forms(message)
        name = ids[0]
        if message.fuzzy and any(forms):
            problems.append(Problem(language, name, "fuzzy"))
        if message.pluralizable and len(forms) != catalog.num_plurals:
            problems.append(
                Problem(language, name, f"{len(forms)} plural forms, not {catalog.num_plurals}")
            )
        wanted = {tuple(placeholders(i)) for i in ids}
        tags = markup(ids[0])
        for form in forms:
            if not form:
                continue
            if tuple(placeholders(form)) not in wanted:
                problems.append(
                    Problem(language, name, f"placeholders {placeholders(form)} in {form!r}")
                )
            if markup(form) != tags:
                problems.append(Problem(language, name, f"markup {markup(form)} in {form!r}"))
    return problems


def missing(language: str, catalog: Catalog, template: Catalog) -> list[str]:
    """The msgids of ``template`` that ``catalog`` does not translate."""
    out = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        if found is None or found.fuzzy or not all(_forms(found)):
            out.append(_singular(message))
    return sorted(out)


def check(
    languages: Sequence[str] = TRANSLATED, locale: Path = LOCALE, root: Path = ROOT
) -> list[str]:
    """Everything wrong with the catalogs, one line each (nothing: all is well)."""
    template = extract(root)
    lines: list[str] = []
    for language in languages:
        path = po_path(language, locale)
        if not path.exists():
            lines.append(f"{language}: no catalog at {path}")
            continue
        catalog = _read(path, language)
        lines.extend(
            f"{language}: untranslated: {m!r}" for m in missing(language, catalog, template)
        )
        lines.extend(str(p) for p in consistency(language, catalog))
        if not up_to_date(language, locale):
            lines.append(f"{language}: {mo_path(language).name} is not compiled from {path.name}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="catalogs", description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("extract", "update", "compile", "check", "merge"))
    parser.add_argument(
        "languages",
        nargs="*",
        help="default: " + ", ".join(TRANSLATED) + " (merge: the partial .po files)",
    )
    args = parser.parse_args(argv)
    languages = args.languages or list(TRANSLATED)
    if args.step == "merge":
        for line in merge(Path(p) for p in args.languages):
            print(line)
    elif args.step == "extract":
        template = write_template()
        print(f"{len(template)} messages in {TEMPLATE.relative_to(ROOT)}")
    elif args.step == "update":
        update(languages)
        print("updated: " + ", ".join(str(po_path(lang).relative_to(ROOT)) for lang in languages))
    elif args.step == "compile":
        compile_catalogs(languages)
        print("compiled: " + ", ".join(str(mo_path(lang).relative_to(ROOT)) for lang in languages))
    else:
        problems = check(languages)
        for line in problems:
            print(line)
        print(f"{len(problems)} problems" if problems else "the catalogs are complete")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

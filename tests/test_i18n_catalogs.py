"""The shipped catalogs: compiled, complete for the code, faithful to each msgid's
placeholders and markup, with the plural rules of their language; and the tool that
keeps them so."""

from __future__ import annotations

import fnmatch
import gettext
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cakeparty.core import game_names, get_game, i18n
from cakeparty.tui.rules import rules_dir, rules_text
from tools import catalogs

ROOT = catalogs.ROOT
LANGUAGES = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]


@pytest.fixture(scope="module")
def template() -> object:
    return catalogs.extract()


def read(language: str) -> object:
    with catalogs.po_path(language).open("rb") as fp:
        return read_po(fp, locale=language)


def test_the_tool_translates_every_language_the_app_offers() -> None:
    assert tuple(LANGUAGES) == catalogs.TRANSLATED
    assert set(catalogs.PLURAL_FORMS) == set(LANGUAGES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalog_says_its_language_and_plural_rule(language: str) -> None:
    catalog = read(language)
    headers = dict(catalog.mime_headers)
    assert headers["Language"] == language
    assert headers["Plural-Forms"] == catalogs.PLURAL_FORMS[language]
    assert "charset=utf-8" in headers["Content-Type"].lower()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_what_its_po_compiles_to(language: str) -> None:
    assert catalogs.up_to_date(language), (
        f"run: python tools/catalogs.py compile {language}  (and commit the .mo)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated(language: str, template: object) -> None:
    missing = catalogs.missing(language, read(language), template)
    assert not missing, (
        f"{len(missing)} messages have no {language} translation "
        f"(python tools/catalogs.py update {language}, then translate):\n" + "\n".join(missing)
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_placeholders_and_markup(language: str) -> None:
    problems = catalogs.consistency(language, read(language))
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_language_gives_every_game_a_title_of_its_own_or_none(language: str) -> None:
    """The four titles are all translated or all kept as their English names: Spanish
    kept "Cake Duel" beside "Batalla de Galletas", Polish "Cake Master" beside "Tort
    Zagłady". The rules in that language open with the title the app shows."""
    # the app's games, those whose rules it ships (a test may register a game of its own)
    names = [name for name in game_names() if (rules_dir() / "en" / f"{name}.md").is_file()]
    titles = [get_game(name).title for name in names]
    assert len(titles) == 4
    try:
        assert i18n.use_language(language) == language
        shown = {title: i18n._(title) for title in titles}
        rules = {name: rules_text(name, language) for name in names}
    finally:
        i18n.use_language(i18n.SOURCE_LANGUAGE)
    kept = [title for title, words in shown.items() if words == title]
    assert kept in ([], titles), shown
    for name, title in zip(names, titles, strict=True):
        assert rules[name].startswith(f"# {shown[title]} "), (name, rules[name][:60])


def test_the_wheel_ships_every_compiled_catalog() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["cakeparty.tui"]
    shipped = sorted((ROOT / "tui" / "locale").glob("*/LC_MESSAGES/*.mo"))
    assert {p.parent.parent.name for p in shipped} == set(LANGUAGES)
    for path in shipped:
        inside = path.relative_to(ROOT / "tui").as_posix()
        assert any(fnmatch.fnmatch(inside, glob) for glob in globs), inside


def test_the_app_finds_the_shipped_catalogs() -> None:
    for language in LANGUAGES:
        assert i18n.catalog_path(language).is_file()
        assert i18n.catalog_path(language) == catalogs.mo_path(language)


# ---------------------------------------------------------------- plurals


POLISH_COUNTS = {1: 0, 2: 1, 5: 2, 12: 2, 22: 1, 25: 2}


def test_the_polish_plural_formula_picks_the_forms_of_1_2_5() -> None:
    forms = gettext.c2py(catalogs.PLURAL_FORMS["pl"].split("plural=", 1)[1].rstrip(";"))
    assert {n: forms(n) for n in POLISH_COUNTS} == POLISH_COUNTS
    assert [forms(n) for n in (0, 11, 13, 14, 21, 102, 104, 111, 112, 1000)] == [
        2,
        2,
        2,
        2,
        2,
        1,
        1,
        2,
        2,
        2,
    ]


def test_a_count_of_cakes_in_polish_takes_three_forms() -> None:
    """The real catalog, through ``ngettext``: 1, 22 and 25 cakes each in the form the
    Polish catalog gives for 1, 2 and 5."""
    msgid, plural = "{n} cake", "{n} cakes"
    message = read("pl").get((msgid, plural))
    assert message is not None, f"{msgid!r} is no longer a message of the code"
    assert all(message.string) and len(set(message.string)) == 3, message.string
    try:
        assert i18n.use_language("pl") == "pl"
        shown = {n: i18n.ngettext(msgid, plural, n).format(n=n) for n in POLISH_COUNTS}
    finally:
        i18n.use_language("en")
    assert shown == {n: message.string[form].format(n=n) for n, form in POLISH_COUNTS.items()}


# ---------------------------------------------------------------- the tool


def _source_tree(root: Path, code: str) -> None:
    for folder in catalogs.SOURCES:
        (root / folder).mkdir(parents=True)
    (root / "tui" / "screen.py").write_text(code, encoding="utf-8")


def test_update_keeps_translations_adds_new_messages_and_drops_gone_ones(
    tmp_path: Path,
) -> None:
    locale = tmp_path / "locale"
    _source_tree(
        tmp_path,
        "from cakeparty.core.i18n import N_, _, ngettext\n"
        'A = _("Save")\nB = N_("Gone soon")\n'
        'def f(n):\n    return ngettext("{n} cookie", "{n} cookies", n)\n',
    )
    catalogs.update(["pl"], locale, tmp_path)
    path = catalogs.po_path("pl", locale)
    text = path.read_text(encoding="utf-8")
    assert catalogs.PLURAL_FORMS["pl"] in text
    text = text.replace('msgid "Save"\nmsgstr ""', 'msgid "Save"\nmsgstr "Zapisz"')
    path.write_text(text, encoding="utf-8")

    (tmp_path / "tui" / "screen.py").write_text(
        'A = _("Save")\nC = _("Back")\n'
        'def f(n):\n    return ngettext("{n} cookie", "{n} cookies", n)\n',
        encoding="utf-8",
    )
    catalogs.update(["pl"], locale, tmp_path)
    catalog = read_po(path.open("rb"), locale="pl")
    assert catalog.get("Save").string == "Zapisz"
    assert catalog.get("Back").string == ""
    assert catalog.get("Gone soon") is None
    assert catalog.get(("{n} cookie", "{n} cookies")).string == ("", "", "")
    problems = catalogs.check(["pl"], locale, tmp_path)
    assert "pl: untranslated: 'Back'" in problems
    assert "pl: untranslated: 'Save'" not in problems
    assert any("is not compiled" in line for line in problems)


def test_check_names_lost_placeholders_and_markup(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    _source_tree(
        tmp_path,
        '_("{name} wins")\n_("[b]Bold[/b] move")\n_("{a} and {b}")\n'
        'ngettext("{n} cookie", "{n} cookies", 2)\n',
    )
    catalogs.update(["pl"], locale, tmp_path)
    path = catalogs.po_path("pl", locale)
    text = path.read_text(encoding="utf-8")
    for msgid, msgstr in {
        "{name} wins": "{imie} wygrywa",
        "[b]Bold[/b] move": "[b]Śmiały ruch",
        "{a} and {b}": "{b} i {a}",  # reordered: fine
    }.items():
        text = text.replace(f'msgid "{msgid}"\nmsgstr ""', f'msgid "{msgid}"\nmsgstr "{msgstr}"')
    empty = 'msgid_plural "{n} cookies"\nmsgstr[0] ""\nmsgstr[1] ""\nmsgstr[2] ""'
    forms = '"{n} ciastko"\nmsgstr[1] "{n} ciastka"\nmsgstr[2] "ciastek"'
    text = text.replace(empty, 'msgid_plural "{n} cookies"\nmsgstr[0] ' + forms)
    path.write_text(text, encoding="utf-8")
    catalogs.compile_catalogs(["pl"], locale)
    problems = [p for p in catalogs.check(["pl"], locale, tmp_path) if "untranslated" not in p]
    assert len(problems) == 3, problems
    assert any("'{name} wins'" in p and "placeholders" in p for p in problems)
    assert any("'[b]Bold[/b] move'" in p and "markup" in p for p in problems)
    assert any("'{n} cookie'" in p and "'ciastek'" in p for p in problems)
    assert not any("{a} and {b}" in p for p in problems)


def test_merge_takes_the_translations_of_partial_catalogs(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    _source_tree(tmp_path, '_("Save")\n_("Back")\nngettext("{n} cookie", "{n} cookies", 2)\n')
    catalogs.update(["pl"], locale, tmp_path)
    header = (
        'msgid ""\nmsgstr ""\n"Language: pl\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        f'"Plural-Forms: {catalogs.PLURAL_FORMS["pl"]}\\n"\n\n'
    )
    first = tmp_path / "pl-one.po"
    first.write_text(
        header + 'msgid "Save"\nmsgstr "Zapisz"\n\nmsgid "Gone"\nmsgstr "Nie ma"\n\n'
        'msgid "{n} cookie"\nmsgid_plural "{n} cookies"\n'
        'msgstr[0] "{n} ciastko"\nmsgstr[1] "{n} ciastka"\nmsgstr[2] "{n} ciastek"\n',
        encoding="utf-8",
    )
    second = tmp_path / "pl-two.po"
    second.write_text(
        header + 'msgid "Save"\nmsgstr "Zachowaj"\n\nmsgid "Back"\nmsgstr "Wróć"\n',
        encoding="utf-8",
    )
    notes = catalogs.merge([first, second], locale)
    assert notes == [
        "pl-one.po: not a message of the code: 'Gone'",
        "pl-two.po: 'Save' also translated in pl-one.po; this one is kept",
    ]
    catalogs.compile_catalogs(["pl"], locale)
    argparse_words = {m if isinstance(m, str) else m[0] for m in catalogs.ARGPARSE}
    assert catalogs.check(["pl"], locale, tmp_path) == [
        f"pl: untranslated: {m!r}" for m in sorted(argparse_words)
    ]
    try:
        assert i18n.use_language("pl", locale) == "pl"
        assert i18n._("Back") == "Wróć" and i18n._("Save") == "Zachowaj"
        assert i18n.ngettext("{n} cookie", "{n} cookies", 22) == "{n} ciastka"
    finally:
        i18n.use_language("en")

"""The language machinery: choosing a language, switching it, and strings translated
before the switch following it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cakeparty.core import i18n
from cakeparty.core.i18n import N_, _, ngettext
from tests.i18n_catalogs import language, write_catalog

SPANISH = {
    "Save": "Guardar",
    "Back": "Volver",
    ("{n} cake", "{n} cakes"): ("{n} pastel", "{n} pasteles"),
}
POLISH = {
    "Save": "Zapisz",
    "Back": "Wróć",
    ("{n} cookie", "{n} cookies"): ("{n} ciastko", "{n} ciastka", "{n} ciastek"),
}


@pytest.fixture
def localedir(tmp_path: Path) -> Iterator[Path]:
    write_catalog(tmp_path, "es", SPANISH)
    write_catalog(tmp_path, "pl", POLISH)
    yield tmp_path
    i18n.use_language("en")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("es_ES.UTF-8", "es"),
        ("es", "es"),
        ("es_MX", "es"),
        ("pl_PL", "pl"),
        ("pl_PL.UTF-8@euro", "pl"),
        ("pl-PL", "pl"),
        ("PL", "pl"),
        ("C", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("de_DE.UTF-8", "en"),
        ("en_GB", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_locale_name_stands_for_a_language(value: str | None, expected: str) -> None:
    assert i18n.normalize(value) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LC_ALL": "pl_PL.UTF-8", "LC_MESSAGES": "es_ES", "LANG": "en_US"}, "pl"),
        ({"LC_ALL": "", "LC_MESSAGES": "es_ES", "LANG": "pl_PL"}, "es"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "en"),  # the first one set decides
        ({"LANGUAGE": "es"}, "en"),
        ({}, "en"),
        # the default for a locale that names none of ours (serve-ssh --lang sets it)
        ({"CAKEPARTY_LANG": "pl"}, "pl"),
        ({"LC_ALL": "C.UTF-8", "LANG": "es_ES.UTF-8", "CAKEPARTY_LANG": "pl"}, "pl"),
        ({"LANG": "de_DE.UTF-8", "CAKEPARTY_LANG": "es"}, "es"),
        ({"LANG": "en_GB.UTF-8", "CAKEPARTY_LANG": "es"}, "en"),
        ({"LANG": "pl_PL.UTF-8", "CAKEPARTY_LANG": "es"}, "pl"),
        ({"CAKEPARTY_LANG": "klingon"}, "en"),
    ],
)
def test_the_environment_names_the_language(environ: dict[str, str], expected: str) -> None:
    assert i18n.language_from_environment(environ) == expected


def test_the_option_wins_over_the_setting_which_wins_over_the_environment() -> None:
    env = {"LANG": "es_ES.UTF-8"}
    assert i18n.choose_language("", None, env) == "es"
    assert i18n.choose_language("pl", None, env) == "pl"
    assert i18n.choose_language("pl", "en", env) == "en"
    assert i18n.choose_language("", "pl", env) == "pl"


def test_a_catalog_from_a_directory_is_used_and_reported(localedir: Path) -> None:
    assert i18n.use_language("es", localedir) == "es"
    assert i18n.current_language() == "es"
    assert _("Save") == "Guardar"
    assert _("Not in the catalog") == "Not in the catalog"
    assert i18n.use_language("en") == "en"
    assert _("Save") == "Save"


def test_a_missing_catalog_falls_back_to_english(tmp_path: Path) -> None:
    assert i18n.use_language("pl", tmp_path) == "en"
    assert i18n.current_language() == "en"
    assert _("Save") == "Save"


def test_a_string_translated_before_a_switch_follows_it(localedir: Path) -> None:
    with language("es", localedir):
        early = _("Save")  # as a module constant would be, at import
        assert early == "Guardar"
        i18n.use_language("pl", localedir)
        assert _(early) == "Zapisz"
        i18n.use_language("en")
        assert _(early) == "Save"
        i18n.use_language("es", localedir)
        assert _(early) == "Guardar"
        assert _(_("Back")) == "Volver"  # translating twice changes nothing


def test_a_marked_string_is_translated_where_shown(localedir: Path) -> None:
    title = N_("Back")
    assert title == "Back"
    with language("pl", localedir):
        assert _(title) == "Wróć"


def test_plural_forms_follow_the_catalogs_formula(localedir: Path) -> None:
    with language("pl", localedir):
        shown = {
            n: ngettext("{n} cookie", "{n} cookies", n).format(n=n) for n in (1, 2, 5, 12, 22, 25)
        }
    assert shown == {
        1: "1 ciastko",
        2: "2 ciastka",
        5: "5 ciastek",
        12: "12 ciastek",
        22: "22 ciastka",
        25: "25 ciastek",
    }
    with language("es", localedir):
        assert ngettext("{n} cake", "{n} cakes", 1) == "{n} pastel"
        assert ngettext("{n} cake", "{n} cakes", 0) == "{n} pasteles"

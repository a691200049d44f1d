"""The command line in the player's language: where the language comes from, ``--lang``
on every command, argparse's own words, and the rules in that language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cakeparty.core import i18n
from cakeparty.tui import cli, rules
from tests.i18n_catalogs import write_catalog

SPANISH = {
    "usage: ": "uso: ",
    "options": "opciones",
    "positional arguments": "argumentos posicionales",
    "show this help message and exit": "muestra esta ayuda y sale",
    "print the rules of a game": "muestra las reglas de un juego",
    "argument %(argument_name)s: %(message)s": "argumento %(argument_name)s: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "opción no válida: %(value)r (elige entre %(choices)s)"
    ),
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A config dir of its own, catalogs standing in for the shipped ones, and an
    environment that names no language."""
    folder = tmp_path / "locale"
    write_catalog(folder, "es", SPANISH)
    write_catalog(folder, "pl", {"usage: ": "użycie: "})
    monkeypatch.setattr(i18n, "locale_dir", lambda: folder)
    monkeypatch.setenv("CAKEPARTY_CONFIG_DIR", str(tmp_path / "config"))
    for name in i18n.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)
    yield tmp_path / "config"
    i18n.use_language("en")


def choose(config: Path, language: str | None) -> None:
    config.mkdir(parents=True, exist_ok=True)
    data = {"name": "Ann"} | ({"language": language} if language else {})
    (config / "settings.json").write_text(json.dumps(data), encoding="utf-8")


def test_the_environment_decides_when_nothing_else_does(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cli.start_language(["rules", "cake-duel"]) == "en"
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    assert cli.start_language(["rules", "cake-duel"]) == "pl"
    monkeypatch.setenv("LC_MESSAGES", "es_ES.UTF-8")
    assert cli.start_language([]) == "es"
    monkeypatch.setenv("LC_ALL", "C")
    assert cli.start_language([]) == "en"


def test_the_settings_win_over_the_environment_and_the_option_over_both(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    choose(home, "es")
    assert cli.start_language(["rules", "cake-duel"]) == "es"
    assert cli.start_language(["rules", "cake-duel", "--lang", "pl"]) == "pl"
    assert cli.start_language(["--lang=en", "rules", "cake-duel"]) == "en"
    choose(home, None)  # back to "from the environment"
    assert cli.start_language(["rules", "cake-duel"]) == "pl"


def test_the_settings_are_read_from_the_config_dir_given(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "elsewhere"
    choose(other, "pl")
    assert cli.start_language(["--config-dir", str(other), "rules", "cake-duel"]) == "pl"


def test_every_command_takes_lang() -> None:
    parser = cli.build_parser()
    commands = cli._commands(parser)
    assert len(commands) >= 10
    for command in [parser, *commands]:
        assert any("--lang" in a.option_strings for a in command._actions), command.prog


@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "xx", "rules", "cake-duel"],
        ["rules", "cake-duel", "--lang", "de"],
        ["simulate", "cake-duel", "--lang=fr"],
        ["join", "--lang", "EN"],
    ],
)
def test_a_wrong_language_is_a_clear_error(
    home: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        cli.main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "--lang" in err and "'en', 'es', 'pl'" in err


def test_argparse_speaks_the_language_too(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["rules", "--help", "--lang", "es"])
    out = capsys.readouterr().out
    assert out.startswith("uso: cakeparty rules")
    assert "opciones:" in out and "argumentos posicionales:" in out
    assert "muestra esta ayuda y sale" in out
    with pytest.raises(SystemExit):
        cli.main(["--lang", "es", "rules", "no-such-game"])
    err = capsys.readouterr().err
    assert "opción no válida: 'no-such-game' (elige entre" in err
    assert err.splitlines()[0].startswith("uso: ")
    with pytest.raises(SystemExit):
        cli.main(["rules", "--help"])  # back in English
    assert capsys.readouterr().out.startswith("usage: cakeparty rules")


@pytest.fixture
def rulebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "rules"
    (folder / "en").mkdir(parents=True)
    (folder / "en" / "cake-duel.md").write_text("# Cake Duel\n\nEnglish rules.\n")
    (folder / "es").mkdir()
    (folder / "es" / "cake-duel.md").write_text("# Duelo de Pasteles\n\nReglas.\n")
    monkeypatch.setattr(rules, "rules_dir", lambda: folder)
    return folder


def test_the_rules_print_in_the_language_asked_for(
    home: Path, rulebooks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["rules", "cake-duel", "--lang", "es"]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("# Duelo de Pasteles") and printed.err == ""


def test_untranslated_rules_print_in_english_with_a_note(
    home: Path, rulebooks: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--lang", "pl", "rules", "cake-duel"]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("# Cake Duel\n\nEnglish rules.")
    assert printed.err.count("\n") == 1 and "Polski" in printed.err

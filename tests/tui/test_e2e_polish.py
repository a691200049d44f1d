"""The installed `cakeparty` binary in Polish (`--lang pl`), in a real terminal (tmux) at
80×24: a Cake Duel against a bot up to Ann's first claim, as the English end-to-end test
plays it. Every text looked for is read from the compiled Polish catalog, so the test
checks that the screen shows what the catalog says."""

from __future__ import annotations

import gettext
import os
import re
import time
from pathlib import Path

import pytest

from cakeparty.core.i18n import catalog_path

from .test_e2e_tmux import BINARY, TMUX, Terminal, _log, player_home

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed (pip install -e .)"),
]


def polish() -> gettext.GNUTranslations:
    """The shipped Polish catalog."""
    path = catalog_path("pl")
    assert path.is_file(), f"no compiled Polish catalog: {path}"
    with path.open("rb") as fp:
        return gettext.GNUTranslations(fp)


def longest_words(template: str) -> str:
    """The longest piece of ``template`` between its ``{placeholders}``: what a line made
    from it shows whatever fills them."""
    return max((p.strip() for p in re.split(r"\{[^{}]*\}", template)), key=len)


def _footer(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def test_the_binary_plays_a_claim_in_polish(tmp_path: Path) -> None:
    pl = polish()
    t = pl.gettext
    english = (
        "Players",
        "Table",
        "Log",
        "Claim",
        "Accept",
        "Quit this duel?",
        "Your hand — {name}",
        "{seat} claims {claim}",
    )
    missing = [m for m in english if t(m) == m]
    assert not missing, f"the Polish catalog does not translate {missing}"
    env = player_home(tmp_path, "Ann", bot_delay=0.1)
    command = [str(BINARY), "play", "cake-duel", "--seed", "3", "--bots", "random"]
    command += ["--lang", "pl"]
    term = Terminal(f"cakeparty-e2e-pl-{os.getpid()}", command, env)
    hand = t("Your hand — {name}").format(name="Ann")
    claim_key, accept_key = f"c {t('Claim')}", f"a {t('Accept')}"
    go_on = t("enter to continue")
    try:
        panels = (t("Players"), t("Table"), t("Log"), hand)
        screen = term.wait_for(lambda s: all(p in s for p in panels), "the Polish game screen")
        lines = screen.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "Your hand" not in screen and "Players" not in screen
        claimed = False
        deadline = time.monotonic() + 30
        while not claimed and time.monotonic() < deadline:
            screen = term.wait_for(
                lambda s: claim_key in _footer(s) or accept_key in _footer(s) or go_on in s,
                "a decision for Ann",
            )
            if go_on in screen:
                term.keys("Enter")
            elif claim_key in _footer(screen):
                term.keys("1", "c")
                title = (
                    pl.ngettext("Claim {n} facedown card as…", "Claim {n} facedown cards as…", 1)
                    .format(n=1)
                    .rstrip("…")
                )
                term.wait_for(lambda s, w=title: w in s, "the list of claims")
                term.keys("1")
                said = longest_words(t("{seat} claims {claim}"))
                screen = term.wait_for(
                    lambda s, w=said: w in _log(s) and "Ann" in _log(s), "Ann's claim in the log"
                )
                claimed = True
            else:
                term.keys("a")
                term.wait_for(lambda s: accept_key not in _footer(s), "the answer to be taken")
        assert claimed, f"Ann never had a turn to attack:\n{screen}"
        term.keys("q")
        term.wait_for(lambda s: t("Quit this duel?") in s, "the quit question in Polish")
        term.keys("y")
        term.wait_for(lambda s: hand not in s, "the app to quit")
    finally:
        term.close()

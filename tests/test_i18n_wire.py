"""Nothing language-dependent goes on the wire: a seeded networked game (peers through the
mental deck) logs the same envelopes whatever language its peers show, and none of them
holds a word of a catalog."""

from __future__ import annotations

import random
from pathlib import Path

import msgpack
import pytest

from cakeparty.core import i18n
from cakeparty.core.game import get_game
from cakeparty.protocol.mental import MentalMatch
from tests.i18n_catalogs import write_catalog
from tools import catalogs

MARK = "⟦"  # every pseudo-translation starts with it; no code or name of the app does


def pseudo(text: str) -> str:
    return f"{MARK}{text}⟧"


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A catalog translating every message of the code into a marked copy of itself."""
    entries: dict[str | tuple[str, str], str | tuple[str, ...]] = {}
    for message in catalogs.extract():
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            singular, plural = message.id[0], message.id[1]
            entries[(singular, plural)] = (pseudo(singular), pseudo(plural))
        else:
            entries[message.id] = pseudo(message.id)
    folder = tmp_path_factory.mktemp("pseudo")
    write_catalog(folder, "es", entries)
    return folder


def log_of(game: str, players: int, seed: int) -> list[bytes]:
    """Every envelope of a seeded game among bots, as the first peer logged them (each
    peer logs the same)."""
    spec = get_game(game)
    match = MentalMatch(game, players, seed)
    match.play([spec.bots["normal"]] * players, random.Random(seed))
    logs = [peer.envelopes_since(0) for peer in match.peers]
    assert all(log == logs[0] for log in logs)
    return logs[0]


def strings_in(data: object) -> list[str]:
    """Every text inside a msgpack value, map keys too."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, bytes):
        try:
            return strings_in(msgpack.unpackb(data, raw=False, strict_map_key=False))
        except (TypeError, ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
            return []
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in strings_in(k) + strings_in(v)]
    if isinstance(data, list | tuple):
        return [s for item in data for s in strings_in(item)]
    return []


def test_the_pseudo_locale_translates_the_games_words(pseudo_locale: Path) -> None:
    try:
        assert i18n.use_language("es", pseudo_locale) == "es"
        assert i18n._("Cake Duel").startswith(MARK)
        assert i18n.ngettext("{n} cake", "{n} cakes", 3).startswith(MARK)
    finally:
        i18n.use_language("en")


def test_a_seeded_game_logs_the_same_envelopes_in_any_language(pseudo_locale: Path) -> None:
    english = log_of("cake-duel", 2, seed=11)
    try:
        assert i18n.use_language("es", pseudo_locale) == "es"
        translated = log_of("cake-duel", 2, seed=11)
    finally:
        i18n.use_language("en")
    assert len(english) > 50
    assert translated == english
    texts = {s for envelope in translated for s in strings_in(envelope)}
    assert texts, "the envelopes hold some text (kinds, codes)"
    assert not [s for s in texts if MARK in s]

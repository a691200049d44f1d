"""The long-lived player identity: storage, fingerprint, private boxes."""

from __future__ import annotations

import json
import re
import stat
import time
from pathlib import Path

import platformdirs
import pytest

from cakeparty.protocol.errors import BadBox, MalformedMessage
from cakeparty.protocol.group import RandomBytes
from cakeparty.protocol.identity import (
    ENV_VAR,
    KEY_FILE,
    Identity,
    KeyFileError,
    check_name,
    config_dir,
    default_name,
    fingerprint,
    load,
    load_or_create,
)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


RACE = (
    "import os, sys, time\n"
    "from cakeparty.protocol.identity import load_or_create\n"
    "folder, go, ready = sys.argv[1:]\n"
    "open(ready, 'w').close()\n"
    "while not os.path.exists(go):\n"
    "    time.sleep(0.0002)\n"
    "print(load_or_create(directory=folder).player_id.hex())\n"
)


def test_processes_starting_at_once_on_a_fresh_install_end_with_one_key(tmp_path: Path) -> None:
    """Two windows opened at once on a fresh install (a new SSH key's first sessions, two
    browser tabs): each made a key, and the last one stored replaced the others, whose
    processes then played with keys no longer on disk (another fingerprint on their next
    start, their games' journals another player's). The key stored first is everyone's."""
    import subprocess
    import sys

    for attempt in range(3):  # the processes meet within a millisecond: each try is a race
        folder, go = tmp_path / f"config{attempt}", tmp_path / f"go{attempt}"
        ready = [tmp_path / f"ready{attempt}-{i}" for i in range(6)]
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", RACE, str(folder), str(go), str(mark)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for mark in ready
        ]
        deadline = time.monotonic() + 60
        while not all(mark.exists() for mark in ready):  # every one of them waits for go
            assert time.monotonic() < deadline
            time.sleep(0.01)
        go.touch()
        keys = {p.communicate(timeout=60)[0].strip() for p in procs}
        stored = load(folder)
        assert stored is not None
        assert keys == {stored.player_id.hex()}
        assert [f.name for f in folder.iterdir()] == [KEY_FILE]


def test_created_on_first_use_then_reloaded(tmp_path: Path) -> None:
    assert load(tmp_path) is None
    first = load_or_create("Ada", directory=tmp_path)
    path = tmp_path / KEY_FILE
    assert mode(path) == 0o600
    again = load_or_create(directory=tmp_path)
    assert again.player_id == first.player_id and again.name == "Ada"


def test_directory_is_created_private(tmp_path: Path) -> None:
    folder = tmp_path / "deep" / "cakeparty"
    load_or_create("Ada", directory=folder)
    assert mode(folder) & 0o077 == 0


def test_rename_keeps_the_key(tmp_path: Path) -> None:
    first = load_or_create("Ada", directory=tmp_path)
    renamed = load_or_create("Grace", directory=tmp_path)
    assert renamed.player_id == first.player_id
    assert load(tmp_path) == renamed


def test_env_var_and_argument_override_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert config_dir() == Path(platformdirs.user_config_dir("cakeparty"))
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env"))
    assert config_dir() == tmp_path / "env"
    assert config_dir(tmp_path / "arg") == tmp_path / "arg"
    made = load_or_create("Ada")
    assert (tmp_path / "env" / KEY_FILE).exists()
    assert load_or_create(directory=tmp_path / "env") == made


def test_loose_permissions_are_tightened(tmp_path: Path) -> None:
    load_or_create("Ada", directory=tmp_path)
    path = tmp_path / KEY_FILE
    path.chmod(0o644)
    load(tmp_path)
    assert mode(path) == 0o600


@pytest.mark.parametrize(
    "text", ["", "{}", '{"version": 1, "name": "A", "seed": "00"}', "not json"], ids=repr
)
def test_corrupt_file_is_a_clear_error(tmp_path: Path, text: str) -> None:
    (tmp_path / KEY_FILE).write_text(text)
    with pytest.raises(KeyFileError, match="is damaged or unreadable: move it away") as caught:
        load(tmp_path)
    assert caught.value.path == tmp_path / KEY_FILE and str(tmp_path) in str(caught.value)
    with pytest.raises(KeyFileError):  # never replaced by a new key unasked
        load_or_create("Ada", directory=tmp_path)
    assert (tmp_path / KEY_FILE).read_text() == text


def test_a_key_file_whose_name_is_refused_now_keeps_its_key(tmp_path: Path) -> None:
    """A name an earlier version took and this one refuses (one drawn blank) is not a
    damaged key: the key, and the fingerprint others know, stay; the name is the default
    one until the app names it again."""
    made = load_or_create("Ada", directory=tmp_path)
    record = json.loads((tmp_path / KEY_FILE).read_text())
    (tmp_path / KEY_FILE).write_text(json.dumps({**record, "name": "\u3164"}))
    found = load(tmp_path)
    assert found is not None and found.player_id == made.player_id
    assert found.name == default_name()
    assert load_or_create("Bo", directory=tmp_path).player_id == made.player_id


def test_an_unreadable_key_file_is_the_same_clear_error(tmp_path: Path) -> None:
    (tmp_path / KEY_FILE).mkdir()  # no file at all where the key should be
    with pytest.raises(KeyFileError):
        load(tmp_path)
    (tmp_path / KEY_FILE).rmdir()
    (tmp_path / KEY_FILE).write_bytes(b"\xff\xfe{")  # no text
    with pytest.raises(KeyFileError):
        load(tmp_path)


def test_fingerprint_is_short_and_stable(rb: RandomBytes) -> None:
    me = Identity.generate("Ada", rb)
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", me.fingerprint)
    assert me.fingerprint == fingerprint(me.player_id)
    assert str(me) == f"Ada ({me.fingerprint})"
    assert fingerprint(b"\x00" * 32) != fingerprint(b"\x01" + b"\x00" * 31)
    assert "signing_key" not in repr(me)


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 33, "bell\x07", "\u3164", "\u2800 \ufe0f"], ids=repr
)
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        check_name(name)


def test_box_for_one_seat(rb: RandomBytes) -> None:
    alice, bob, eve = (Identity.generate(n, rb) for n in ("alice", "bob", "eve"))
    sealed = alice.seal_for(bob.player_id, b"share of card 7", rb)
    assert bob.open_from(alice.player_id, sealed) == b"share of card 7"
    with pytest.raises(BadBox) as info:
        eve.open_from(alice.player_id, sealed)
    assert info.value.peer == alice.player_id
    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    with pytest.raises(BadBox):
        bob.open_from(alice.player_id, tampered)
    with pytest.raises(BadBox):
        bob.open_from(eve.player_id, sealed)  # the box also proves who wrote it
    with pytest.raises(BadBox):
        bob.open_from(alice.player_id, b"short")


def test_invalid_player_id_is_malformed(rb: RandomBytes) -> None:
    alice = Identity.generate("alice", rb)
    for bad in (b"\x00" * 32, b"\x01" * 5):
        with pytest.raises(MalformedMessage):
            alice.seal_for(bad, b"hi", rb)

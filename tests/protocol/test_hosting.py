"""What a host remembers of its room keeps any game's options, and a record written
before the options were kept together still reads, its options intact."""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cakeparty.protocol import hosting, journal
from cakeparty.protocol.codec import seal
from cakeparty.protocol.identity import Identity
from cakeparty.protocol.steps import ACTION, AUDIT
from cakeparty.protocol.table import Table
from cakeparty.tui.netroom import HostPlan
from cakeparty.tui.table import registration


def test_a_record_keeps_the_options_it_was_given(tmp_path: Path) -> None:
    record = hosting.HostRecord(
        room="K7QM2X",
        host="ab" * 32,
        game="some-game",
        players=3,
        options={"rounds": 5, "variant": "long", "open": False},
    )
    hosting.save(record, tmp_path)
    again = hosting.load("K7QM2X", tmp_path)
    assert again == record
    assert again is not None and again.options == {"rounds": 5, "variant": "long", "open": False}


def test_an_older_record_with_one_field_per_option_still_reads(tmp_path: Path) -> None:
    path = hosting.path_of("ZZQM22", tmp_path)
    path.parent.mkdir(parents=True)
    older = {
        "room": "ZZQM22",
        "host": "cd" * 32,
        "game": "cake-duel",
        "players": 4,
        "full": False,
        "timeout": 60,
        "tournament": True,
        "show_specials": False,
        "on_timeout": "end",
        "bots": {"ef" * 32: "normal"},
    }
    path.write_text(json.dumps(older), encoding="utf-8")
    record = hosting.load("ZZQM22", tmp_path)
    assert record is not None
    assert record.options == {"full": False, "tournament": True, "show_specials": False}
    assert (record.timeout, record.on_timeout, record.players) == (60, "end", 4)
    assert record.bots == {"ef" * 32: "normal"}


def test_a_record_whose_options_are_not_a_mapping_is_no_record(tmp_path: Path) -> None:
    path = hosting.path_of("BADREC", tmp_path)
    path.parent.mkdir(parents=True)
    bad = {"room": "BADREC", "host": "00", "game": "g", "players": 2, "options": [1, 2]}
    path.write_text(json.dumps(bad), encoding="utf-8")
    assert hosting.load("BADREC", tmp_path) is None
    path.write_text("[" * 100_000, encoding="utf-8")  # nested past any parser's depth
    assert hosting.load("BADREC", tmp_path) is None


@pytest.mark.parametrize(
    "change",
    [
        {"players": "two"},
        {"players": True},
        {"pid": 10**400},  # past any process id (and any C integer)
        {"pid": "1234"},
        {"port": 70_000},
        {"timeout": 1.5},
        {"lan": "yes"},
        {"bots": {"ab": 3}},
        {"bots": ["ab"]},
        {"table": None},
        {"updated": float("nan")},
    ],
    ids=repr,
)
def test_a_record_changed_by_hand_is_no_record(tmp_path: Path, change: dict[str, Any]) -> None:
    record = hosting.HostRecord(room="BADREC", host="00", game="cake-duel", players=2, pid=99)
    hosting.save(record, tmp_path)
    assert hosting.load("BADREC", tmp_path) == record  # as written, it reads
    path = hosting.path_of("BADREC", tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, **change}), encoding="utf-8")
    assert hosting.load("BADREC", tmp_path) is None


def test_a_resumed_room_keeps_its_games_options() -> None:
    for table in registration.registered():
        players = (table.players(networked=True) or table.players())[-1]
        # every option away from its default, where it has another choice
        chosen = {
            o.key: next((c.value for c in o.choices if c.value != o.default), o.default)
            for o in table.options
        }
        plan = HostPlan(game=table.name, players=players, options=chosen)
        record = hosting.HostRecord(
            room="K7QM2X",
            host="ab" * 32,
            game=table.name,
            players=players,
            options=dict(plan.options),
        )
        resumed = HostPlan.resuming(record)
        assert resumed.options == plan.options and resumed.players == players
        assert resumed.rule_options == plan.rule_options
        # an option the game no longer has is dropped, not an error
        stale = hosting.HostRecord(
            room="K7QM2X", host="ab" * 32, game=table.name, players=players, options={"gone": 1}
        )
        assert HostPlan.resuming(stale).options == HostPlan(table.name, players).options


# -- records of rooms with nothing to come back to go ------------------------------------


def _record(table: Any, started: bool = True, updated: float = 0.0) -> hosting.HostRecord:
    host = table.players[0]
    record = hosting.HostRecord(
        room=table.room,
        host=host.hex(),
        game=table.game,
        players=table.seats,
        table=table.digest().hex() if started else "",
    )
    return replace(record, updated=updated or time.time())


def _game(room: str) -> tuple[Any, list[Identity]]:
    people = [Identity.generate(n) for n in ("Hank", "Gina")]
    table = Table.of(room, "cake-duel", [(p.player_id, p.name) for p in people], timeout=30)
    return table, people


def test_a_finished_games_record_goes_and_a_game_in_progress_keeps_its_own(
    tmp_path: Path,
) -> None:
    """``host --resume`` offers the game still going, not the one audited since."""
    done, (hank, _gina) = _game("DONE22")
    going, (hank2, _) = _game("GOING2")
    for table, ident, last in ((done, hank, AUDIT), (going, hank2, ACTION)):
        jn = journal.Journal(journal.journal_path(table, ident.player_id, tmp_path), table)
        body = {"x": bytes(32)} if last == AUDIT else {"a": []}
        envelope = seal(
            ident.signing_key, room=table.room, seq=5, prev=bytes(32), kind=last, body=body
        )
        jn.append(envelope.to_bytes())
        jn.close()
    hosting.save(_record(going, updated=100.0), tmp_path)
    hosting.save(_record(done, updated=200.0), tmp_path)  # the more recent one
    assert hosting.resumable(hank.player_id, None, tmp_path) is None  # over: none of Hank's
    assert not hosting.path_of("DONE22", tmp_path).exists()  # … and its record is gone
    found = hosting.resumable(hank2.player_id, None, tmp_path)
    assert found is not None and found.room == "GOING2"
    assert [r.room for r in hosting.records(tmp_path)] == ["GOING2"]


def test_an_abandoned_games_record_goes_but_one_vote_of_three_keeps_it(tmp_path: Path) -> None:
    from tests.protocol.test_session import play_until, relay, room

    for players, gone in ((2, True), (4, False)):
        where = tmp_path / f"{players}"
        sessions, table = room(players, where, timeout=5)
        play_until(sessions, 0.0, 3, random.Random(players))
        relay(sessions, 0.0)
        ((late, peer, _view),) = [(s, p, v) for s in sessions for p, v in s.due()]
        host = next(s for s in sessions if s is not late)
        n = sessions.index(host)
        assert host.vote(peer.seat, 100.0)
        assert (host.abandoned is not None) is gone  # a duel's one vote ends it
        record = replace(_record(table), host=table.players[n].hex())
        hosting.save(record, where / f"p{n}")
        assert hosting.path_of(table.room, where / f"p{n}").exists()
        kept = [r.room for r in hosting.records(where / f"p{n}")]
        assert kept == ([] if gone else [table.room])


def test_a_record_whose_journals_are_gone_or_that_never_started_ages_out(
    tmp_path: Path,
) -> None:
    pruned, _ = _game("PRUNED")
    lobby, _ = _game("LOBBY2")
    fresh, _ = _game("FRESH2")
    now = 1_000_000.0
    hosting.save(_record(pruned), tmp_path)  # started, but no journal is left of it
    for table, written in ((lobby, now - 2 * 86400), (fresh, now - 3600)):
        path = hosting.save(_record(table, started=False, updated=written), tmp_path)
        os.utime(path, (written, written))
    assert [r.room for r in hosting.records(tmp_path, now=now)] == ["FRESH2"]
    assert sorted(p.stem for p in hosting.folder(tmp_path).glob("*.json")) == ["FRESH2"]

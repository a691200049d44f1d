"""What a host remembers of its room keeps any game's options, and a record written
before the options were kept together still reads, its options intact."""

from __future__ import annotations

import json
from pathlib import Path

from cakeparty.protocol import hosting
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

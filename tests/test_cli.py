"""The headless command line, run as the installed ``cakeparty`` binary."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

BIN = shutil.which("cakeparty") or str(Path(sys.executable).with_name("cakeparty"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=120)


def test_simulate_prints_exactly_one_json_object() -> None:
    out = run(
        "simulate", "cake-duel", "--games", "20", "--seed", "1", "--bots", "normal,random", "--json"
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report) == {
        "game",
        "players",
        "games",
        "wins",
        "shared",
        "errors",
        "endings",
        "seconds",
        "bouts_per_game",
        "turns_per_game",
    }
    assert report["game"] == "cake-duel" and report["games"] == 20 and report["players"] == 2
    assert set(report["wins"]) == {"normal", "random"}
    assert sum(report["wins"].values()) + report["shared"] + report["errors"] == 20
    assert report["errors"] == 0
    assert sum(report["endings"].values()) == 20
    assert 3 <= report["bouts_per_game"] <= 5  # three trophies win; at most five bouts


def test_simulate_is_reproducible_and_keys_twins_by_seat() -> None:
    first = json.loads(
        run("simulate", "cake-duel", "--games", "6", "--bots", "random,random", "--json").stdout
    )
    again = json.loads(
        run("simulate", "cake-duel", "--games", "6", "--bots", "random,random", "--json").stdout
    )
    assert set(first["wins"]) == {"random#0", "random#1"}
    assert first["wins"] == again["wins"]


@pytest.mark.parametrize(
    ("game", "players", "labels"),
    [
        ("cake-of-doom", None, {"normal", "random#1", "random#2"}),  # its usual three
        ("cookies-battle", "5", {"normal", "random#1", "random#2", "random#3", "random#4"}),
        ("cookies-battle", "4", {"normal", "random"}),  # two sides of two seats
        ("cake-master", "2", {"normal", "random"}),
    ],
)
def test_simulate_without_bots_plays_normal_against_random_at_any_count(
    game: str, players: str | None, labels: set[str]
) -> None:
    count = ["--players", players] if players else []
    out = run("simulate", game, *count, "--games", "2", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report["wins"]) == labels and report["errors"] == 0


def test_simulate_team_mode() -> None:
    out = run("simulate", "cake-duel", "--games", "4", "--players", "4", "--core", "--json")
    assert out.returncode == 0, out.stderr
    assert sum(json.loads(out.stdout)["wins"].values()) == 4


def test_simulate_prints_a_summary_without_json() -> None:
    out = run("simulate", "cake-duel", "--games", "3")
    assert out.returncode == 0
    assert "normal" in out.stdout and "errors" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "cake-fight"], "invalid choice"),
        (["simulate", "cake-duel", "--bots", "genius"], "unknown bot 'genius'"),
        (["simulate", "cake-duel", "--games", "0"], "at least 1"),
        (["simulate", "cake-duel", "--games", "many"], "not a whole number"),
        (["simulate", "cake-duel", "--players", "3"], "2 or 4 players"),
        (["simulate", "cake-duel", "--bots", "normal,random,random"], "one bot per side"),
        # an empty entry is an error, not dropped (these played a game each)
        (["simulate", "cake-duel", "--bots", "normal,"], "'normal,' has an empty entry"),
        (["simulate", "cake-duel", "--bots", "normal,,random"], "has an empty entry"),
        (["simulate", "cake-duel", "--bots", ","], "',' has an empty entry"),
        (["simulate", "cake-duel", "--bots", ""], "'' has an empty entry"),
        (["rules", "chess"], "invalid choice"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_give_a_clear_message_and_exit_2(args: list[str], message: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_rules_prints_the_rules() -> None:
    out = run("rules", "cake-duel")
    assert out.returncode == 0
    assert out.stdout.startswith("# Cake Duel")
    assert "Sir Wolfy" in out.stdout and "[decided" not in out.stdout


def test_simulate_through_the_mental_dealer_reports_the_audits() -> None:
    out = run(
        "simulate",
        "cake-duel",
        "--dealer",
        "mental",
        "--games",
        "2",
        "--seed",
        "3",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["audit"] == {"fair": 2, "unfair": 0}
    assert 0 < report["crypto_seconds"] <= report["seconds"] * 1.5
    assert sum(report["wins"].values()) == 2


def test_the_network_commands_refuse_bad_arguments() -> None:
    for args, message in [
        (["bot", "cake-duel", "--room", "x!", "--broker", "mqtt://h"], "not a room code"),
        (["bot", "cake-duel", "--room", "ABCD", "--broker", "http://h"], "mqtt://"),
        (["broker", "--port", "70000"], "between 0 and 65535"),
        (["selfplay", "cake-duel", "--players", "3", "--broker", "mqtt://h"], "2 or 4"),
        # a name no other player's app would take, a wait that never ends
        (
            ["bot", "cake-duel", "--room", "ABCD", "--broker", "mqtt://h", "--name", "\u3164"],
            "no display name",
        ),
        (
            ["bot", "cake-duel", "--room", "ABCD", "--broker", "mqtt://h", "--name", "Eve\x1b[2J"],
            "no display name",
        ),
        (
            ["bot", "cake-duel", "--room", "ABCD", "--broker", "mqtt://h", "--delay", "inf"],
            "from 0 to 60",
        ),
        (
            ["bot", "cake-duel", "--room", "ABCD", "--broker", "mqtt://h", "--delay", "-1"],
            "from 0 to 60",
        ),
    ]:
        out = run(*args)
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr and "Traceback" not in out.stderr


def test_a_room_code_argument_is_taken_as_it_was_read_and_written_as_the_app_writes_it() -> None:
    from cakeparty.tui import arguments

    for typed in ("k7qm2x 4etjq 2rstu", "K 7 Q M 2 X - 4 E T J Q - 2 R S T U", "K7QM2X4ETJQ2RSTU"):
        assert arguments.room(typed) == "K7QM2X-4ETJQ-2RSTU"
    with pytest.raises(argparse.ArgumentTypeError, match="is not a room code"):
        arguments.room("K7QM2X-4ETJQ-9RST8")


@pytest.mark.parametrize(
    "args",
    [
        ["host", "cake-duel", "--lambda", "4"],
        ["simulate", "cake-duel", "--dealer", "mental", "--lambda", "4"],
        ["selfplay", "cake-duel", "--broker", "mqtt://h", "--lambda", "4"],
    ],
    ids=["host", "simulate", "selfplay"],
)
def test_no_command_can_weaken_the_shuffle_proofs(args: list[str]) -> None:
    out = run(*args)
    assert out.returncode == 2, out.stderr
    assert "unrecognized arguments: --lambda" in out.stderr


def _free_port() -> int:
    from cakeparty.broker.embedded import free_port

    return free_port()


def _wait_listening(port: int) -> None:
    from tests.brokers import wait_listening

    wait_listening(port, 20)


def test_broker_on_a_port_in_use_says_so_and_exits_2() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run("broker", "--port", str(port))  # would hang (then trace back) before
    assert out.returncode == 2, out.stderr
    assert f"cannot listen on port {port}" in out.stderr and "already in use" in out.stderr
    assert "Traceback" not in out.stderr


def test_broker_with_idle_stops_by_itself_once_no_client_is_left() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [BIN, "broker", "--port", str(port), "--host", "127.0.0.1", "--idle", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_listening(port)
        import socket

        # while a client stays connected the broker stays up, well past its idle time
        with socket.create_connection(("127.0.0.1", port)) as client:
            client.sendall(_mqtt_connect("stay"))
            assert client.recv(4)[:1] == b"\x20"  # CONNACK
            with pytest.raises(subprocess.TimeoutExpired):
                proc.wait(5)
        assert proc.wait(30) == 0  # then, idle, it ends
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _mqtt_string(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(2, "big") + data


def _mqtt_packet(kind: int, body: bytes) -> bytes:
    assert len(body) < 128
    return bytes([kind, len(body)]) + body


def _mqtt_connect(client: str) -> bytes:
    # MQTT 3.1.1, clean session, keepalive 60 s
    return _mqtt_packet(0x10, _mqtt_string("MQTT") + b"\x04\x02\x00\x3c" + _mqtt_string(client))


def test_broker_warnings_and_puback_timeouts_stay_off_the_terminal(tmp_path: Path) -> None:
    import socket

    port = _free_port()
    log = tmp_path / "broker.log"
    proc = subprocess.Popen(
        [BIN, "broker", "--port", str(port), "--host", "127.0.0.1", "--log", str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_listening(port)
        with (
            socket.create_connection(("127.0.0.1", port)) as slow,
            socket.create_connection(("127.0.0.1", port)) as talker,
        ):
            # a subscriber that never acknowledges what it is sent at QoS 1
            slow.sendall(_mqtt_connect("slow"))
            slow.recv(4)
            slow.sendall(_mqtt_packet(0x82, b"\x00\x01" + _mqtt_string("t/x") + b"\x01"))
            slow.recv(5)  # SUBACK
            talker.sendall(_mqtt_connect("talker"))
            talker.recv(4)
            talker.sendall(_mqtt_packet(0x32, _mqtt_string("t/x") + b"\x00\x07" + b"hello"))
            deadline = time.monotonic() + 60
            while "PUBACK" not in (log.read_text() if log.exists() else ""):
                assert time.monotonic() < deadline, "the broker never gave up on its PUBACK"
                time.sleep(0.2)
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=30)
    assert "Timeout waiting for PUBACK" in log.read_text()  # in the file …
    assert "PUBACK" not in err and "Traceback" not in err  # … and not on the terminal


def test_host_resume_with_nothing_hosted_here_says_so(tmp_path: Path) -> None:
    import os

    env = {
        **os.environ,
        "CAKEPARTY_CONFIG_DIR": str(tmp_path / "config"),
        "CAKEPARTY_DATA_DIR": str(tmp_path / "data"),
    }
    for args, message in [
        (["host", "--resume"], "no room hosted here to come back to"),
        (["host", "--resume", "K7QM2X"], "no room K7QM2X hosted here to come back to"),
        (["host", "cake-duel", "--resume"], "leave out GAME"),
        (["host"], "the game to host is missing"),
    ]:
        out = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60, env=env)
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)


def test_a_damaged_player_key_is_named_and_kept_not_a_traceback(tmp_path: Path) -> None:
    import os

    config = tmp_path / "config"
    config.mkdir()
    key = config / "identity.json"
    key.write_text('{"garbage": true}')
    env = {**os.environ, "CAKEPARTY_CONFIG_DIR": str(config)}
    env["CAKEPARTY_DATA_DIR"] = str(tmp_path / "data")
    for args in (
        ["host", "--resume"],
        ["bot", "cake-duel", "--room", "K7QM2X-4ETJQ-2RSTU", "--broker", "127.0.0.1:9"],
        ["whoami"],
    ):
        out = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60, env=env)
        assert out.returncode == 1, (args, out.stderr)
        assert f"your player key {key} is damaged or unreadable: move it away" in out.stderr
        assert "Traceback" not in out.stderr, out.stderr
    assert key.read_text() == '{"garbage": true}'  # never replaced unasked


def test_the_hosts_own_join_code_comes_back_to_its_room_as_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # before, the host's own `cakeparty join CODE` joined as a guest and waited for an
    # advert only the host itself could send
    from cakeparty.protocol import hosting
    from cakeparty.protocol.identity import Identity, load_or_create
    from cakeparty.protocol.lobby import room_code
    from cakeparty.tui import roomcli
    from cakeparty.tui.cli import build_parser
    from cakeparty.tui.netroom import HostPlan

    monkeypatch.setenv("CAKEPARTY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAKEPARTY_DATA_DIR", str(tmp_path / "data"))
    me = load_or_create("Ann").player_id
    record = hosting.HostRecord(
        room="K7QM2X", host=me.hex(), game="cake-duel", players=2, port=18999, share="x"
    )
    hosting.save(record)
    opened: list[object] = []
    monkeypatch.setattr(roomcli, "_open", lambda plan: opened.append(plan) or 0)
    parser = build_parser()
    for code in ("K7QM2X", room_code("K7QM2X", me), "k7qm2x"):
        args = parser.parse_args(["join", code])
        assert args.run(args, args.parser) == 0
    assert opened == [HostPlan.resuming(record)] * 3
    # another host's code of the same room id, or another room, joins as a guest
    other = room_code("K7QM2X", Identity.generate("Mallory").player_id)
    for code in (other, "ZZZZ22"):
        args = parser.parse_args(["join", code, "--broker", "mqtt://127.0.0.1:1"])
        args.run(args, args.parser)
    assert [type(p).__name__ for p in opened[3:]] == ["JoinPlan", "JoinPlan"]


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    out = run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"cakeparty {version('cakeparty')}"


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (["rules", "cake-duel", "--wide"], "usage: cakeparty rules"),
        (["simulate", "cake-duel", "--fast"], "usage: cakeparty simulate"),
        (["play", "cake-duel", "--colour"], "usage: cakeparty play"),
    ],
)
def test_a_subcommands_bad_flag_prints_that_subcommands_usage(args: list[str], usage: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stderr.startswith(usage), out.stderr
    assert f"unrecognized arguments: {args[-1]}" in out.stderr


def test_piped_rules_fit_80_columns_with_tables_as_lines() -> None:
    out = run("rules", "cake-duel")
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert not any(line.startswith("|") for line in lines)
    assert "- Soldier (5, weapon attacker): steal 1 cake" in lines
    # the header, in the rows' shape, says which number is which
    assert lines.index("card (copies, type): effect") < lines.index(
        "- Soldier (5, weapon attacker): steal 1 cake"
    )
    pieces = run("rules", "cookies-battle").stdout.splitlines()
    assert pieces.index("kind (pieces, one piece): whole cookie (4 pieces)") + 1 == (
        pieces.index("- Traditional (16, 1): 6")
    )
    assert "marker: what it does" not in pieces  # two columns say themselves
    raw = (Path(__file__).parents[1] / "tui/data/rules/en/cake-duel.md").read_text()
    assert max(len(line) for line in raw.splitlines()) > 80  # the source is wider


def _read_to_end(master: int) -> bytes:
    """What a pseudo-terminal's child writes until it closes the terminal."""
    import os

    seen = b""
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # the child closed the terminal
            return seen
        if not data:
            return seen
        seen += data


def _in_terminal(args: list[str], env: dict[str, str], cols: int, rows: int) -> bytes:
    """What ``cakeparty args`` writes to a pseudo-terminal of ``cols``×``rows``."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen([BIN, *args], stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = _read_to_end(master)
    proc.wait(60)
    os.close(master)
    return seen


def test_sigterm_leaves_as_ctrl_q_does_and_gives_the_terminal_back(tmp_path: Path) -> None:
    """``kill`` (a shutdown, another window taking a room over): the app leaves the way
    ctrl+q does, switching the alternate screen and the mouse reports off on its way out.
    Left to Python's default, the process just ended, the terminal left in the app's
    screen, the cursor hidden and every mouse move typed into the shell."""
    import os
    import pty
    import select
    import signal

    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text('{"name": "Ana"}')
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", CAKEPARTY_CONFIG_DIR=str(config))
    master, slave = pty.openpty()
    proc = subprocess.Popen([BIN, "--lang", "en"], stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"Hello, Ana" not in seen:  # the menu is drawn
            assert time.monotonic() < deadline, seen[-500:]
            if select.select([master], [], [], 1)[0]:
                seen += os.read(master, 1 << 16)
        assert b"\x1b[?1049h" in seen and b"\x1b[?1003h" in seen  # its screen, the mouse
        proc.send_signal(signal.SIGTERM)
        seen += _read_to_end(master)
        assert proc.wait(60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    tail = seen[seen.rindex(b"\x1b[?1049h") :]
    assert b"\x1b[?1049l" in tail and b"\x1b[?1003l" in tail and b"\x1b[?25h" in tail


def test_rules_in_a_terminal_render_markdown_to_its_width_and_page(tmp_path: Path) -> None:
    import os

    paged = tmp_path / "paged.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", NO_COLOR="1", PAGER=f"cat > {paged}")
    shown = _in_terminal(["rules", "cake-duel"], env, 100, 30)
    text = paged.read_text() if paged.exists() else ""
    assert "Sir Wolfy" in text, shown[:500]  # longer than 30 rows: it went to the pager
    import re

    sgr = re.compile(r"\x1b\[([0-9;]*)m")
    codes = {int(c) for params in sgr.findall(text) for c in params.split(";") if c}
    assert not codes & {*range(30, 50), *range(90, 108)}  # NO_COLOR: bold, never colour
    lines = sgr.sub("", text).splitlines()
    assert max(len(line) for line in lines) <= 100
    assert max(len(line) for line in lines) > 80  # the terminal's width is used
    assert not any(line.lstrip().startswith(("# ", "| card")) for line in lines)  # rendered


# -- any registered game ---------------------------------------------------------------


def _no_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for a game with rules but no screen package yet: nothing in the screens' registry."""
    import cakeparty.tui.games as games

    monkeypatch.setattr(games, "GAMES", ())


def test_headless_commands_need_only_the_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cakeparty.tui import cli

    _no_screens(monkeypatch)
    argv = ["simulate", "cake-duel", "--games", "2", "--seed", "4", "--players", "4", "--json"]
    assert cli.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["errors"] == 0
    # the rules' own player counts still hold it to what the game allows
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["simulate", "cake-duel", "--players", "3"])
    assert exit_info.value.code == 2
    assert "2 or 4 players, not 3" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "host"])
def test_play_and_host_need_the_game_s_screen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from cakeparty.tui import cli

    _no_screens(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        cli.main([command, "cake-duel"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "cake-duel cannot be played here yet" in err and "Traceback" not in err


def test_a_game_s_options_become_flags_and_another_game_s_flag_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Flags come from every registration; each game takes only its own."""
    from dataclasses import replace

    import cakeparty.tui.games as games
    from cakeparty.tui import arguments, cli
    from cakeparty.tui.table.registration import Choice, GameOption, lookup

    duel = lookup("cake-duel")
    rounds = GameOption(
        "rounds", "Rounds", (Choice(3, "three"), Choice(5, "five", "five", "--long", "longer")), 3
    )
    other = replace(duel, name="other-game", label="Other", options=(rounds,))
    monkeypatch.setattr(games, "GAMES", (duel, other))
    args = cli.build_parser().parse_args(["simulate", "cake-duel", "--long"])
    assert arguments.game_options(args) == {"rounds": 5}
    # the flag as it was typed, and whose it is (it said "cake-duel has no option rounds")
    with pytest.raises(argparse.ArgumentTypeError, match="--long is an option of Other, not Cake"):
        arguments.game_options(args, "cake-duel")
    assert other.rule_options(arguments.game_options(args)) == {"rounds": 5}
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["simulate", "cake-duel", "--games", "1", "--long"])
    assert exit_info.value.code == 2
    assert "--long is an option of Other, not " in capsys.readouterr().err


def test_whoami_tells_the_key_and_the_login_a_public_broker_needs(tmp_path: Path) -> None:
    """A public broker with the sample policy logs each player in by its player id: the
    player learns it here (and the fingerprint others see beside the name)."""
    from cakeparty.protocol.identity import fingerprint, load_or_create
    from cakeparty.protocol.network import presence_id

    config = tmp_path / "config"
    # the app run once (its name chosen) has made no key yet: the first room makes it,
    # and a broker with logins needs the login before that, so asking makes it
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"name": "Ann"}))
    out = run("--config-dir", str(config), "whoami", "--json")
    assert out.returncode == 0, out.stderr
    me = load_or_create(directory=config)
    assert me.name == "Ann"
    out = run("--config-dir", str(config), "whoami", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "name": "Ann",
        "fingerprint": fingerprint(me.player_id),
        "login": presence_id(me.player_id),
    }
    out = run("--config-dir", str(config), "whoami")
    assert out.stdout.splitlines()[0] == "Ann"
    assert f"broker login: {presence_id(me.player_id)}" in out.stdout


def test_a_login_in_the_broker_address_is_kept_for_host_join_and_watch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # before, the address was made text without its password: the login was refused
    from cakeparty.protocol.transport import BrokerAddress
    from cakeparty.tui import roomcli, watchcli
    from cakeparty.tui.cli import build_parser

    monkeypatch.setenv("CAKEPARTY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAKEPARTY_DATA_DIR", str(tmp_path / "data"))
    opened: list[Any] = []
    monkeypatch.setattr(roomcli, "_open", lambda plan: opened.append(plan) or 0)
    monkeypatch.setattr(watchcli, "_open", lambda plan: opened.append(plan) or 0)
    parser = build_parser()
    url = "mqtts://ann:s%40cret@broker.example:8884"
    for argv in (
        ["host", "cake-duel", "--broker", url],
        ["join", "K7QM2X-4ETJQ-2RSTU", "--broker", url],
        ["join", "--broker", url],
        ["watch", "K7QM2X-4ETJQ-2RSTU", "--broker", url],
    ):
        args = parser.parse_args(argv)
        assert args.run(args, args.parser) == 0
    brokers = [getattr(p, "broker", None) or p.brokers[0] for p in opened]
    assert [BrokerAddress.parse(b).password for b in brokers] == ["s@cret"] * 4

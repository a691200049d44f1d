"""``cakeparty serve-ssh``: what a client may ask for, where players live, and the real
server driven by the real OpenSSH client in tmux at 80×24."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import stat
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncssh
import pytest

from cakeparty.tui.serving import idle_notice
from cakeparty.tui.sshserve.command import CommandRefused, app_arguments
from cakeparty.tui.sshserve.homes import PlayerHome, load_host_key
from cakeparty.tui.sshserve.session import Launch, how_ended, login_name
from tests.tui.sshclient import (
    BINARY,
    NO_SSH,
    NO_TMUX,
    SSH,
    TMUX,
    Cable,
    ClientKey,
    SSHServer,
    Terminal,
)

# -- what a client may ask for -------------------------------------------------------------


def test_no_command_opens_the_menu() -> None:
    assert app_arguments(None) == []
    assert app_arguments("   ") == []
    assert app_arguments("cakeparty") == []


def test_only_host_loses_the_option_of_a_port() -> None:
    assert app_arguments("host cake-duel --players 2") == ["host", "cake-duel", "--players", "2"]
    assert app_arguments("join K7QM2X --broker mqtt://h:1883") == [
        "join",
        "K7QM2X",
        "--broker",
        "mqtt://h:1883",
    ]


def test_the_apps_own_commands_are_split_without_a_shell() -> None:
    assert app_arguments("join K7QM2X") == ["join", "K7QM2X"]
    assert app_arguments("cakeparty play cake-duel --bots random") == [
        "play",
        "cake-duel",
        "--bots",
        "random",
    ]
    # a shell would run the second command; here it is just more words for the app
    assert app_arguments("join 'K7QM2X; rm -rf ~' $(id)") == ["join", "K7QM2X; rm -rf ~", "$(id)"]


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("serve-ssh --port 1", "'serve-ssh' is not available here"),
        ("serve-web", "'serve-web' is not available here"),
        ("broker", "'broker' is not available here"),
        ("simulate cake-duel --games 100000000", "'simulate' is not available here"),
        ("sh -c id", "'sh' is not available here"),
        ("--config-dir /tmp play cake-duel", "'--config-dir' is not available here"),
        ("join K7QM2X --config-dir=/elsewhere", "--config-dir=/elsewhere is not available"),
        ("join K7QM2X --config /elsewhere", "--config is not available"),
        # the server picks the port of a host's broker: never one a stranger chose
        ("host cake-duel --port 22", "--port is not available"),
        ("host --port=8080 cake-duel", "--port=8080 is not available"),
        ("host --po 8080", "--po is not available"),
        ("join 'K7QM2X", "Cannot read that command"),
        ("join K7\x1bQM2X", "control characters"),
        ("join " + "K" * 2000, "too long"),
    ],
)
def test_anything_else_is_refused_with_a_reason(command: str, says: str) -> None:
    with pytest.raises(CommandRefused, match=re.escape(says)):
        app_arguments(command)


# -- where players live ----------------------------------------------------------------------


def test_a_players_home_is_named_by_their_key_and_private(tmp_path: Path) -> None:
    ann = asyncssh.generate_private_key("ssh-ed25519")
    bob = asyncssh.generate_private_key("ssh-ed25519")
    home = PlayerHome.of(ann, tmp_path / "players").make()
    again = PlayerHome.of(asyncssh.import_public_key(ann.export_public_key()), tmp_path / "players")
    assert again.root == home.root  # the same key, whatever its comment: the same home
    assert PlayerHome.of(bob, tmp_path / "players").root != home.root
    assert re.fullmatch(r"[0-9a-f]{64}", home.root.name)
    assert home.fingerprint == ann.get_fingerprint("sha256")
    for folder in (tmp_path / "players", home.root, home.config, home.data):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_the_host_key_is_made_once_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAKEPARTY_DATA_DIR", str(tmp_path / "server"))
    first = load_host_key(None)
    path = tmp_path / "server" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_host_key(None).public_data == first.public_data


def test_the_app_gets_a_clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERVER_SECRET", "hunter2")
    home = PlayerHome("ab" * 32, "SHA256:x", tmp_path / ("ab" * 32))
    client = {
        "LANG": "es_ES.UTF-8",
        "LD_PRELOAD": "/tmp/evil.so",
        "NO_COLOR": "1",
        "LC_ALL": "$(id)",
    }
    launch = Launch.of(["play", "cake-duel"], home, "ann\x1b[2J", "xterm-kitty", client)
    env = launch.env
    assert env["CAKEPARTY_CONFIG_DIR"] == str(home.config)
    assert env["CAKEPARTY_DATA_DIR"] == str(home.data)
    assert env["HOME"] == str(home.root)
    assert env["TERM"] == "xterm-kitty"
    assert env["LANG"] == "es_ES.UTF-8" and env["NO_COLOR"] == "1"
    assert env["USER"] == env["LOGNAME"] == "ann2J"
    assert env["LESSSECURE"] == "1"
    for absent in ("SERVER_SECRET", "LD_PRELOAD", "LC_ALL", "CAKEPARTY_LANG"):
        assert absent not in env
    # the server's language, for a player whose settings and locale choose none
    told = Launch.of([], home, "ann", "xterm", {**client, "CAKEPARTY_LANG": "pl"}, "es")
    assert told.env["CAKEPARTY_LANG"] == "es"
    odd = Launch.of([], home, "", "xterm; rm -rf /", {})
    assert odd.env["TERM"] == "xterm-256color" and "USER" not in odd.env


def test_login_names_keep_only_plain_characters() -> None:
    assert login_name("ann") == "ann"
    assert login_name("../../etc") == "....etc"
    assert login_name("a" * 40) == "a" * 16


def test_the_log_says_how_a_session_ended() -> None:
    assert how_ended(0) == "the app quit"
    assert how_ended(3) == "the app exited with status 3"
    assert how_ended(-9) == "the app was killed by SIGKILL"
    assert how_ended(-200) == "the app was killed by 200"
    # a dropped connection hangs the app up, whatever status that gives
    assert how_ended(-1, hung_up=True) == how_ended(0, hung_up=True) == "the connection closed"
    assert how_ended(-1, hung_up=True, idle=True) == "closed for want of a key press"


def test_the_idle_notice_counts_in_the_right_unit() -> None:
    assert "30 seconds" in idle_notice(30)
    assert "1 second " in idle_notice(1)
    assert "30 minutes" in idle_notice(1800)


# -- the real server and the real OpenSSH client --------------------------------------------


def real(test: Callable[..., None]) -> Callable[..., None]:
    """A test of the real server through the real OpenSSH client in tmux."""
    for mark in (
        pytest.mark.skipif(SSH is None, reason=NO_SSH),
        pytest.mark.skipif(TMUX is None, reason=NO_TMUX),
        pytest.mark.skipif(not BINARY.exists(), reason=f"{BINARY} is not installed"),
    ):
        test = mark(test)
    return test


def _tag() -> str:
    return f"{os.getpid()}-{time.monotonic_ns()}"


def _turn(screen: str) -> int:
    found = re.search(r"turn (\d+)", screen)
    return int(found.group(1)) if found else 0


def _footer(screen: str) -> str:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1] if lines else ""


def _widest(screen: str) -> int:
    return max((len(line.rstrip()) for line in screen.splitlines()), default=0)


@real
def test_over_ssh_the_menu_opens_a_duel_against_a_bot_that_follows_the_window(
    tmp_path: Path,
) -> None:
    server = SSHServer(tmp_path, "--keepalive", "1")
    ann_key = ClientKey(tmp_path, "ann_key")
    term = Terminal(f"cakeparty-ssh-{_tag()}", server.ssh_args(ann_key, "ann"))
    try:
        # the first visit asks for a name, offering the SSH user name
        screen = term.wait_for(lambda s: "Welcome to Cake Party" in s, "the name question")
        assert "Ann" in screen
        term.keys("Enter")
        term.wait_for(lambda s: "Hello, Ann." in s and "Play a game against bots" in s, "the menu")
        term.keys("b")
        term.wait_for(lambda s: "Which game?" in s, "the game picker")
        term.keys("1")
        term.wait_for(lambda s: "Cake Duel against bots" in s, "the duel's setup")
        term.keys("Enter")
        panels = ("Players", "Table", "Log", "Your hand — Ann")
        screen = term.wait_for(lambda s: all(p in s for p in panels), "the duel")
        assert len(screen.splitlines()) <= 24 and _widest(screen) <= 80
        # a few turns by keys: claim when attacking, accept when attacked
        claimed = False
        deadline = time.monotonic() + 180
        # (a bout may end on the way: its dialog is closed before the window changes)
        while not (
            claimed
            and (_turn(screen) >= 3 or "bout 2" in screen)
            and "enter to continue" not in screen
        ):
            assert time.monotonic() < deadline, f"the duel did not move on:\n{screen}"
            screen = term.wait_for(
                lambda s: (
                    any(m in _footer(s) for m in ("c Claim", "a Accept"))
                    or "enter to continue" in s
                ),
                "a decision for Ann",
            )
            if "enter to continue" in screen:
                term.keys("Enter")
                term.wait_for(lambda s: "enter to continue" not in s, "the next step")
            elif "c Claim" in _footer(screen):
                term.keys("1", "c")
                term.wait_for(lambda s: "Claim 1 facedown card as" in s, "the list of claims")
                term.keys("1")
                # the list gone and the table's keys drawn again (the list's own footer,
                # blank for a moment, says nothing of the claim)
                screen = term.wait_for(
                    lambda s: "facedown card as" not in s and "c Claim" not in _footer(s),
                    "Ann's claim",
                )
                claimed = True
            else:
                turn = _turn(screen)
                term.keys("a")
                screen = term.wait_for(
                    lambda s, t=turn: "a Accept" not in _footer(s) or _turn(s) != t, "the answer"
                )
            screen = term.screen()
        # the window grows: the app redraws at the new size
        term.resize(100, 30)
        screen = term.wait_for(
            lambda s: _widest(s) > 80 and "Your hand — Ann" in s, "the duel at 100×30"
        )
        assert len(screen.splitlines()) == 30
        term.resize(80, 24)
        term.wait_for(lambda s: _widest(s) <= 80 and "Your hand — Ann" in s, "the duel at 80×24")
        # leaving ends the app and the SSH session
        # (the bot may end a bout meanwhile: its dialog is closed first)
        for _attempt in range(5):
            term.keys("q")
            screen = term.wait_for(
                lambda s: "Quit this duel?" in s or "enter to continue" in s, "the quit question"
            )
            if "Quit this duel?" in screen:
                break
            term.keys("Enter")
            term.wait_for(lambda s: "enter to continue" not in s, "the dialog to close")
        assert "Quit this duel?" in screen, screen
        term.keys("y")
        term.wait_for(lambda s: "Hello, Ann." in s, "the menu again")
        term.keys("q")
        term.wait_ended("the session to end")
        home = server.players / ann_key.home_name
        settings = json.loads((home / "config" / "settings.json").read_text())
        assert settings["name"] == "Ann"
    finally:
        term.close()
        server.stop()
    log = server.log.read_text()
    assert "ann (" + ann_key.key.get_fingerprint("sha256") in log
    assert re.search(r"session \d+: ended: the app quit$", log, re.M), log


@real
def test_a_dropped_connection_ends_its_session_soon_and_its_game_is_taken_up_again(
    tmp_path: Path,
) -> None:
    """The link goes silent (no FIN, no reset): the server's keepalive checks go
    unanswered, so the session ends in seconds, not minutes, and the player, connecting
    again, resumes the game the dropped session held."""
    server = SSHServer(tmp_path, "--keepalive", "1")
    key = ClientKey(tmp_path, "ann_key")
    cable = Cable(server.port)
    tag = _tag()
    first = Terminal(
        f"cakeparty-ssh-drop-{tag}",
        server.ssh_args(key, "ann", "play", "cake-duel", "--bots", "random", port=cable.port),
    )
    again: Terminal | None = None
    try:
        first.wait_for(lambda s: "Welcome to Cake Party" in s, "the name question")
        first.keys("Enter")
        first.wait_for(lambda s: "Your hand — Ann" in s, "the duel")
        cable.cut()
        deadline = time.monotonic() + 60
        while not re.search(
            r"session \d+: ended: the connection closed$", server.log.read_text(), re.M
        ):
            assert time.monotonic() < deadline, f"the session went on:\n{server.log.read_text()}"
            time.sleep(0.2)
        again = Terminal(f"cakeparty-ssh-again-{tag}", server.ssh_args(key, "ann"))
        again.wait_for(lambda s: "Resume Cake Duel against bots" in s, "the game kept")
        again.keys("c")
        screen = again.wait_for(lambda s: "Your hand — Ann" in s, "the duel again")
        assert "Another window of yours" not in screen
    finally:
        first.close()
        if again is not None:
            again.close()
        cable.close()
        server.stop()


@real
def test_two_keys_are_two_players_who_meet_in_a_room(tmp_path: Path) -> None:
    server = SSHServer(tmp_path, "--keepalive", "1")
    ann_key, bob_key = ClientKey(tmp_path, "ann_key"), ClientKey(tmp_path, "bob_key")
    tag = _tag()
    # the room's broker on a port Bob's app finds free itself (one chosen here could be
    # taken by another connection while the session starts)
    bob = Terminal(
        f"cakeparty-ssh-bob-{tag}", server.ssh_args(bob_key, "bob", "host", "cake-duel", "--no-lan")
    )
    ann: Terminal | None = None
    try:
        bob.wait_for(lambda s: "Welcome to Cake Party" in s and "Bob" in s, "Bob's name question")
        bob.keys("Enter")
        screen = bob.wait_for(lambda s: "Bob (you, host)" in s, "Bob's lobby")
        found = re.search(r"cakeparty join ([A-Z0-9]+-[A-Z2-7]{5}-[A-Z2-7]{5})", screen)
        broker = re.search(r"Broker mqtt://[^\s:]+:(\d+) · runs here", screen)
        assert found and broker, screen
        port = int(broker.group(1))
        ann = Terminal(
            f"cakeparty-ssh-ann-{tag}",
            server.ssh_args(
                ann_key,
                "ann",
                "join",
                found.group(1),
                "--broker",
                f"mqtt://127.0.0.1:{port}",
                "--no-lan",
            ),
        )
        ann.wait_for(lambda s: "Welcome to Cake Party" in s, "Ann's name question")
        ann.keys("Enter")
        screen = ann.wait_for(lambda s: "Ann (you)" in s and "Bob (host)" in s, "Ann's seat")
        shown = {
            m.group(1): m.group(2)
            for m in re.finditer(
                r"(Ann|Bob) \((?:you|host)[^)]*\)\s+([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})", screen
            )
        }
        assert set(shown) == {"Ann", "Bob"}, screen
        assert shown["Ann"] != shown["Bob"]
        from cakeparty.protocol import identity

        homes = {}
        for name, key in (("Ann", ann_key), ("Bob", bob_key)):
            home = server.players / key.home_name
            homes[name] = home
            mine = identity.load(home / "config")
            assert mine is not None and mine.fingerprint == shown[name]
            assert json.loads((home / "config" / "settings.json").read_text())["name"] == name
            for folder in (server.players, home, home / "config", home / "data"):
                assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        assert sorted(p.name for p in server.players.iterdir()) == sorted(
            [ann_key.home_name, bob_key.home_name]
        )
        # Ann's app crashes: her session ends and is reaped, Bob's goes on
        bob.wait_for(lambda s: "Seats — 2 of 2 taken" in s, "Ann seated at Bob's")
        pid = int(re.search(r"session (\d+): ann \(", server.log.read_text()).group(1))
        os.kill(pid, signal.SIGKILL)
        ann.wait_ended("Ann's session to end")
        deadline = time.monotonic() + 60
        while Path(f"/proc/{pid}").exists():  # a zombie would stay listed
            assert time.monotonic() < deadline, f"session {pid} was not reaped"
            time.sleep(0.1)
        bob.wait_for(lambda s: "Seats — 1 of 2 taken" in s, "Ann's seat free again at Bob's")
        assert f"session {pid}: ended: the app was killed by SIGKILL" in server.log.read_text()
        bob.keys("m")
        bob.wait_for(lambda s: "esc Close chat" in _footer(s), "Bob's chat line")
        bob.keys("s", "t", "i", "l", "l", " ", "h", "e", "r", "e", "Enter")
        bob.wait_for(lambda s: "still here" in s, "Bob's message in the chat")
        ann.close()
        # coming back with the same key (whatever the user name), Ann is the same player
        ann = Terminal(f"cakeparty-ssh-ann2-{tag}", server.ssh_args(ann_key, "someone-else"))
        ann.wait_for(lambda s: "Hello, Ann." in s, "Ann's menu, her name kept")
        # her client goes away: the app is hung up, and the log says so
        ann.close()
        deadline = time.monotonic() + 60
        while "ended: the connection closed" not in server.log.read_text():
            assert time.monotonic() < deadline, server.log.read_text()
            time.sleep(0.1)
    finally:
        bob.close()
        if ann is not None:
            ann.close()
        server.stop()


@real
def test_only_listed_keys_no_passwords_no_other_commands_and_no_more_than_allowed(
    tmp_path: Path,
) -> None:
    ann_key, eve_key = ClientKey(tmp_path, "ann_key"), ClientKey(tmp_path, "eve_key")
    listed = tmp_path / "authorized_keys"
    listed.write_text(ann_key.public_line + "\n")
    server = SSHServer(
        tmp_path, "--authorized-keys", str(listed), "--max-sessions", "1", "--idle-timeout", "8"
    )
    term: Terminal | None = None
    try:
        # a key not in the list is refused, and a password is never even offered
        done = server.run(eve_key, "eve")
        assert done.returncode == 255 and "Permission denied (publickey" in done.stderr
        assert "password" not in done.stderr
        assert not server.players.exists() or not any(server.players.iterdir())
        assert asyncio.run(_password_login(server.port)) == "refused"
        # only the app's own commands, and only in a terminal
        done = server.run(ann_key, "ann", "serve-ssh", "--port", "1")
        assert done.returncode == 2 and "'serve-ssh' is not available here" in done.stdout
        done = server.run(ann_key, "ann", "play", "cake-duel", tty=False)
        assert done.returncode == 2 and "needs a terminal" in done.stdout
        # one session at a time: a second one is told the server is full
        term = Terminal(f"cakeparty-ssh-{_tag()}", server.ssh_args(ann_key, "ann"))
        term.wait_for(lambda s: "Welcome to Cake Party" in s, "the first session")
        with _kept_busy(term):  # however long the second login takes, the first stays
            done = server.run(ann_key, "ann")
        assert done.returncode == 2 and "The server is full (1 player)" in done.stdout
        # left without a key press, the session closes by itself and frees its place
        term.wait_for(lambda s: "Closed after 8 seconds" in s, "the idle session to close", 180)
        term.close()
        term = Terminal(f"cakeparty-ssh-{_tag()}", server.ssh_args(ann_key, "ann"))
        term.wait_for(lambda s: "Welcome to Cake Party" in s, "a new session")
    finally:
        if term is not None:
            term.close()
        server.stop()


def _ssh_as_a_person(server: SSHServer, key: ClientKey | None) -> subprocess.CompletedProcess[str]:
    """The OpenSSH client as a person runs it (no batch mode), with ``key`` or none."""
    assert SSH is not None
    env = {k: v for k, v in os.environ.items() if k != "SSH_AUTH_SOCK"}
    identity = str(key.path) if key is not None else str(server.folder / "no-such-key")
    return subprocess.run(
        [
            SSH,
            *("-p", str(server.port), "-F", "/dev/null", "-i", identity),
            *("-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no"),
            *("-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=INFO"),
            "someone@127.0.0.1",
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


@real
def test_a_person_whose_keys_do_not_get_in_is_told_why_and_what_to_do(tmp_path: Path) -> None:
    ann_key, eve_key = ClientKey(tmp_path, "ann_key"), ClientKey(tmp_path, "eve_key")
    listed = tmp_path / "authorized_keys"
    listed.write_text(ann_key.public_line + "\n")
    server = SSHServer(tmp_path, "--authorized-keys", str(listed))
    try:
        done = _ssh_as_a_person(server, eve_key)
        assert done.returncode == 255, done.stderr
        assert done.stderr.count("none of the keys this ssh offered is admitted here") == 1
        assert "send them your public key" in done.stderr
        done = _ssh_as_a_person(server, None)
        assert done.returncode == 255, done.stderr
        assert done.stderr.count("Make one with: ssh-keygen -t ed25519") == 1
        assert "send them your public key" in done.stderr
        assert not server.players.exists() or not any(server.players.iterdir())
    finally:
        server.stop()
    (tmp_path / "open").mkdir()
    open_server = SSHServer(tmp_path / "open")
    try:  # where any key gets in, a person with none is told to make one
        done = _ssh_as_a_person(open_server, None)
        assert done.returncode == 255, done.stderr
        assert "Make one with: ssh-keygen -t ed25519" in done.stderr
        assert "then connect again." in done.stderr
        assert "send them" not in done.stderr
    finally:
        open_server.stop()


@real
def test_the_servers_language_is_for_players_whose_locale_names_none(tmp_path: Path) -> None:
    server = SSHServer(tmp_path, "--lang", "es")
    ann_key, bob_key = ClientKey(tmp_path, "ann_key"), ClientKey(tmp_path, "bob_key")
    ann: Terminal | None = None
    bob: Terminal | None = None
    try:
        # the server's own words are in its language
        done = server.run(ann_key, "ann", "play", "cake-duel", tty=False)
        assert done.returncode == 2 and "necesita una terminal" in done.stdout
        # a client that sends no locale (this one reads no ssh_config): the server's
        ann = Terminal(f"cakeparty-ssh-ann-{_tag()}", server.ssh_args(ann_key, "ann"))
        ann.wait_for(lambda s: "Te damos la bienvenida a Cake Party" in s, "a Spanish welcome")
        # a client whose locale names one of the app's languages keeps it
        ssh, *rest = server.ssh_args(bob_key, "bob")
        bob = Terminal(f"cakeparty-ssh-bob-{_tag()}", [ssh, "-o", "SetEnv=LANG=pl_PL.UTF-8", *rest])
        bob.wait_for(lambda s: "Witaj w Cake Party" in s, "a Polish welcome")
    finally:
        for term in (ann, bob):
            if term is not None:
                term.close()
        server.stop()
    # the console says where the server listens first, and no library's warnings
    console = server.log.read_text()
    assert console.startswith("Cake Party por SSH"), console
    assert "Warning" not in console and "Traceback" not in console, console


@contextlib.contextmanager
def _kept_busy(term: Terminal) -> Iterator[None]:
    """Press a key that changes nothing (→ in the name field) every second meanwhile, so an
    idle timeout cannot end the session whatever the machine's load."""
    done = threading.Event()

    def press() -> None:
        while not done.wait(1.0):
            term.keys("Right")

    presser = threading.Thread(target=press, daemon=True)
    term.keys("Right")
    presser.start()
    try:
        yield
    finally:
        done.set()
        presser.join()


async def _password_login(port: int) -> str:
    try:
        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username="ann",
            password="cake",
            client_keys=None,
            known_hosts=None,
            agent_path=None,
            preferred_auth="password,keyboard-interactive",
        )
    except asyncssh.PermissionDenied:
        return "refused"
    conn.close()
    return "admitted"


def _brokers_of(home: Path) -> list[int]:
    """The brokers running for the player whose home is ``home`` (their logs lie there)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and b"cakeparty.broker" in args and any(bytes(home) in a for a in args):
            found.append(int(proc.name))
    return found


def _host_and_find_the_broker(server: SSHServer, key: ClientKey, name: str) -> Terminal:
    term = Terminal(
        f"cakeparty-ssh-{name}-{_tag()}",
        server.ssh_args(key, name, "host", "cake-duel", "--no-lan"),
    )
    screen = term.wait_for(
        lambda s: "Welcome to Cake Party" in s or "(you, host)" in s, "the name or the lobby"
    )
    if "Welcome to Cake Party" in screen:
        term.keys("Enter")
    term.wait_for(lambda s: "(you, host)" in s and "· runs here" in s, "the lobby")
    return term


@real
def test_when_the_server_stops_the_players_terminal_is_put_back_and_told(tmp_path: Path) -> None:
    """Stopped mid-session, the server left the player's terminal in the app's alternate
    screen with the mouse reported (every move of it typed into their shell), and the
    player not told why."""
    key = ClientKey(tmp_path, "ann_key")
    server = SSHServer(tmp_path, "--keepalive", "1")
    term: Terminal | None = None
    try:
        term = Terminal(f"cakeparty-ssh-{_tag()}", server.ssh_args(key, "ann"))
        term.wait_for(lambda s: "Welcome to Cake Party" in s, "the app")
        server.stop()
        screen = term.wait_ended("ssh to end with the server")
        assert "The Cake Party server is stopping" in screen
        modes = term.tmux("display", "-p", "-t", term.name, "#{alternate_on} #{mouse_any_flag}")
        assert modes.stdout.split() == ["0", "0"]  # the main screen, and no mouse reported
        assert "ended: the server stopped" in server.log.read_text()
    finally:
        if term is not None:
            term.close()
        server.stop()


def _wait_none(home: Path, what: str) -> None:
    deadline = time.monotonic() + 60
    while _brokers_of(home):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@real
def test_a_broker_started_over_ssh_ends_with_its_session_and_with_the_server(
    tmp_path: Path,
) -> None:
    server = SSHServer(tmp_path, "--keepalive", "1")
    key = ClientKey(tmp_path, "bob_key")
    home = server.players / key.home_name
    term = _host_and_find_the_broker(server, key, "bob")
    try:
        assert len(_brokers_of(home)) == 1
        # the client goes away: the app is hung up, and the room's broker ends with it
        term.close()
        _wait_none(home, "the broker outlived the session")
        # the server stops: every session ends, and every broker with it
        term = _host_and_find_the_broker(server, key, "bob")
        assert len(_brokers_of(home)) == 1
        server.stop()
        _wait_none(home, "the broker outlived the server")
    finally:
        term.close()
        server.stop()

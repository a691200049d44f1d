"""Headless network commands: ``broker``, ``bot`` and ``selfplay``.

They import no UI library. ``selfplay`` hosts a room (without a seat of its own), starts
one ``cakeparty bot`` process per seat, each with its own key and journal, and reports the
outcome and the audit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cakeparty.core.game import DEFAULT_THINK
from cakeparty.core.i18n import N_, _, ngettext
from cakeparty.tui import arguments as arg

DEFAULT_BROKER_PORT = 1883


def _level(game: str, level: str, parser: argparse.ArgumentParser) -> str:
    try:
        return arg.check_level(game, level)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))


def add_commands(sub: Any) -> None:
    """Register the network commands on the ``cakeparty`` parser."""
    serve = sub.add_parser("broker", help=_("run the embedded MQTT broker"))
    serve.add_argument(
        "--port", type=arg.port, default=DEFAULT_BROKER_PORT, help=_("TCP port (default 1883)")
    )
    serve.add_argument("--host", default="0.0.0.0", help=_("address to listen on (default: all)"))
    serve.add_argument(
        "--idle",
        type=arg.positive,
        default=None,
        metavar="S",
        help=_("stop after S seconds with no client connected"),
    )
    serve.add_argument(
        "--log", default=None, metavar="FILE", help=_("write the broker's warnings to FILE")
    )
    serve.set_defaults(run=_cmd_broker, parser=serve)

    bot = sub.add_parser("bot", help=_("join a networked room as a bot"))
    arg.add_game(bot)
    bot.add_argument("--room", type=arg.room, required=True, help=_("the room code"))
    bot.add_argument("--broker", type=arg.broker, required=True, help=_("mqtt://host:port"))
    bot.add_argument("--level", default="normal", help=_("bot level (default normal)"))
    bot.add_argument("--name", type=arg.display_name, default=None, help=_("display name"))
    bot.add_argument(
        "--delay", type=arg.delay_seconds, default=0.0, help=_("seconds before each move")
    )
    arg.add_think(bot, _("{s} s").format(s=DEFAULT_THINK))
    bot.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    bot.set_defaults(run=_cmd_bot, parser=bot)

    selfplay = sub.add_parser(
        "selfplay", help=_("play bots against each other as separate processes through a broker")
    )
    arg.add_game(selfplay)
    arg.add_players(selfplay, networked=True)
    selfplay.add_argument("--broker", type=arg.broker, required=True, help=_("mqtt://host:port"))
    selfplay.add_argument("--level", default="normal", help=_("bot level (default normal)"))
    arg.add_think(selfplay, _("{s} s").format(s=DEFAULT_THINK))
    arg.add_game_options(selfplay)
    selfplay.add_argument(
        "--timeout", type=arg.positive, default=600, help=_("give up after this many seconds")
    )
    selfplay.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))
    selfplay.set_defaults(run=_cmd_selfplay, parser=selfplay)


# -- broker ------------------------------------------------------------------------------


def _cmd_broker(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.broker.runner import run

    def ready() -> None:
        print(
            _("Cake Party broker listening on {host}:{port} (Ctrl-C to stop)").format(
                host=args.host, port=args.port
            ),
            flush=True,
        )

    try:
        run(args.host, args.port, idle=args.idle, log_file=args.log, on_ready=ready)
    except OSError as exc:
        parser.error(_("cannot listen on port {port}: {reason}").format(port=args.port, reason=exc))
    return 0


# -- bot ---------------------------------------------------------------------------------


def _result(runner: Any, started: float) -> dict[str, Any]:
    """A bot's result, as its JSON says it: seats counted from 0 (``seat``, ``winner`` and
    the seat an ``audit`` names), ``names`` the players in seat order."""
    session = runner.session
    out: dict[str, Any] = {"seat": runner.my_seat, "seconds": round(time.monotonic() - started, 3)}
    if session is None:
        out.update(names=[], winner=None, audit="no game")
        return out
    out.update(names=list(session.table.names))
    peer = session.peer(runner.my_seat) if runner.my_seat is not None else session.peers[0]
    ended = session.abandoned
    if ended is not None:
        out.update(winner=None, audit=f"abandoned by seat {ended.seat}")
    else:
        outcome = peer.outcome
        verdict = peer.verdict
        out.update(
            winner=list(outcome.winners) if outcome else None,
            audit=str(verdict) if verdict is not None else "not audited",
        )
        if verdict is not None and not verdict.fair:
            out.update(breach=breach_of(verdict))
        if runner.closed_by_host and peer.verdict is None:
            out.update(audit="room closed by its host")
    out.update(
        messages=session.messages,
        bytes=session.bytes,
        incidents=[str(i) for i in peer.incidents + session.incidents],
    )
    return out


def won_words(winners: Sequence[int] | None, names: Sequence[str]) -> str:
    """Who won, by name: "won by Bot 1 and Bot 3", or "no winner"."""
    from cakeparty.tui.table.net import name_list, seat_name

    if not winners:
        return _("no winner")
    won = name_list([seat_name(int(seat), names) for seat in winners])
    return ngettext("won by {names}", "won by {names}", len(winners)).format(names=won)


def breach_of(verdict: Any) -> dict[str, Any]:
    """An unfair verdict's reason as a bot's JSON keeps it beside the ``audit`` line: the
    untranslated ``reason`` and the ``params`` that fill it, so that the words can be said
    in the reader's language (the line itself is the protocol's English)."""
    return {"reason": verdict.reason, "params": dict(verdict.params)}


def audit_words(audit: str, names: Sequence[str], breach: dict[str, Any] | None = None) -> str:
    """A bot's audit (its JSON's words, seats counted from 0) as a person reads it, every
    seat named; ``breach`` (:func:`breach_of`) words an unfair verdict's reason in the
    reader's language, fields and all."""
    from cakeparty.core.actions import forfeit_words
    from cakeparty.tui.table.net import seat_name

    def reason_words(reason: str) -> str:
        if not breach or not isinstance(breach.get("reason"), str):
            return _(reason)
        params = breach.get("params")
        fields = tuple(
            (str(name), value)
            for name, value in (params.items() if isinstance(params, dict) else ())
            if isinstance(value, (str, int))
        )
        return forfeit_words(breach["reason"], fields)

    if audit in AUDIT_WORDS:
        return _(AUDIT_WORDS[audit])
    if found := re.fullmatch(r"abandoned by seat (\d+)", audit):
        return _("abandoned by {name}, no audit").format(name=seat_name(int(found[1]), names))
    if found := re.fullmatch(r"seat (\d+): (.*?): (.*)", audit, re.DOTALL):
        seat, move, reason = found.groups()
        return _("audit: {name} cheated ({move}): {reason}").format(
            name=seat_name(int(seat), names), move=move, reason=reason_words(reason)
        )
    if found := re.fullmatch(r"seat None: (?:None: )?(.*)", audit, re.DOTALL):
        return _("audit: something is wrong: {reason}").format(reason=reason_words(found[1]))
    return audit


#: The audits a bot's JSON gives in fixed words, and how a person reads them.
AUDIT_WORDS = {
    "fair": N_("audit: fair"),
    "not audited": N_("not audited"),
    "no game": N_("no game was played"),
    "no result": N_("a bot gave no result"),
    "room closed by its host": N_("the host closed the room, no audit"),
}


def bot_line(result: dict[str, Any], name: str) -> str:
    """A bot's result in words: where it sat (counted from 1), who won, the audit."""
    from cakeparty.tui.table.net import seat_name

    names = result.get("names") or []
    seat = result.get("seat")
    if seat is None or result.get("audit") == "no game":
        return _("{name}: no game was played").format(name=name)
    return _("{name} in seat {seat} of {seats}: {won}, {audit}").format(
        name=seat_name(seat, names),
        seat=seat + 1,
        seats=len(names),
        won=won_words(result.get("winner"), names),
        audit=audit_words(str(result.get("audit")), names, result.get("breach")),
    )


def _cmd_bot(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.protocol.identity import load_or_create
    from cakeparty.protocol.journal import RoomInUse
    from cakeparty.protocol.lobby import CLOSED
    from cakeparty.protocol.network import RoomRunner
    from cakeparty.protocol.transport import TransportError

    level = _level(args.game, args.level, parser)
    identity = load_or_create(args.name or _("Bot"))
    if args.name and identity.name != args.name:
        identity = identity.with_name(args.name)
    runner = RoomRunner(
        broker=args.broker,
        identity=identity,
        room=args.room,
        bot=level,
        bot_delay=args.delay,
        bot_think=args.think or DEFAULT_THINK,
        game=args.game,
    )
    started = time.monotonic()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, runner.stop)
        printer = asyncio.create_task(_follow(runner, quiet=args.json))
        try:
            await runner.run()
        finally:
            printer.cancel()

    try:
        asyncio.run(main())
    except TransportError as exc:
        print(_("cakeparty bot: {reason}").format(reason=exc.said(_)), file=sys.stderr)
        return 1
    except RoomInUse as exc:
        holder = "?" if exc.pid is None else str(exc.pid)
        print(
            _(
                "cakeparty bot: this player is in room {room} already (process {pid}); a bot "
                "needs a player key of its own: give it --config-dir DIR"
            ).format(room=exc.room, pid=holder),
            file=sys.stderr,
        )
        return 1
    if runner.wrong_game is not None:
        from cakeparty.tui.table.registration import game_title

        parser.error(
            _("room {room} is a {game} room, not {wanted}").format(
                room=args.room,
                game=game_title(runner.wrong_game.game),
                wanted=game_title(args.game),
            )
        )
    advert = runner.advert
    if runner.session is None and advert is not None and advert.state == CLOSED:
        print(
            _("cakeparty bot: {host} closed room {room} before its game started").format(
                host=advert.host_name, room=runner.code
            ),
            file=sys.stderr,
        )
        return 1
    result = _result(runner, started)
    if args.json:
        print(json.dumps(result))
    else:
        print(bot_line(result, identity.name))
    return 0 if runner.session is not None and runner.session.finished else 1


#: The events a bot says on its standard error, each with the word that tags its line.
SHOWN_EVENTS = {
    "connection": N_("connection"),
    "seated": N_("seated"),
    "started": N_("started"),
    "finished": N_("finished"),
    "incident": N_("incident"),
    "stumbled": N_("stumbled"),
    "error": N_("error"),
    "refused": N_("refused"),
    "chat": N_("chat"),
    "absent": N_("absent"),
    "closed": N_("closed"),
    "host-away": N_("host away"),
    "host-back": N_("host back"),
}


async def _follow(runner: Any, quiet: bool) -> None:
    """Say on standard error what happens in ``runner``'s room (nothing if ``quiet``), in
    the user's language; stop the bot when the host closes the room before its game starts
    (nobody will seat it there any more)."""
    from cakeparty.protocol.lobby import CLOSED

    seat = None
    host_away = False
    while True:
        event = await runner.events.get()
        said: list[tuple[str, str]] = []
        if event.kind == "advert" and event.data is not None:
            if event.data.state == CLOSED and runner.session is None:
                runner.stop()  # the command says so as it ends
            now = _seat_in(event.data, runner.identity.player_id)
            if now is not None and now != seat:  # seated, or moved up a seat
                said.append(("seated", _seated_text(runner, event.data, now)))
            seat = now
        if event.kind in SHOWN_EVENTS:
            said.append((event.kind, event_text(event, runner)))
        away = _host_away(runner)
        if away != host_away:
            host_away = away
            said.append(
                ("host-away", _away_text(runner)) if away else ("host-back", _back_text(runner))
            )
        for kind, text in said if not quiet else ():
            print(f"[{_(SHOWN_EVENTS[kind])}] {text}", file=sys.stderr, flush=True)


def event_text(event: Any, runner: Any) -> str:
    """What a room's ``event`` tells a bot's user, in the user's language."""
    kind = event.kind
    if kind == "started":
        from cakeparty.tui.table.net import name_list

        return _("the game starts: {names}").format(names=name_list(list(event.data.names)))
    if kind == "finished":
        return _("the game is over")
    if kind == "incident" and hasattr(event.data, "reason"):
        return _bad_message(event.data, runner)
    if kind == "refused" and hasattr(event.data, "reason"):
        from cakeparty.protocol.identity import fingerprint

        advert = runner.advert
        return _("Refused the table of {host} ({fingerprint}): {reason}.").format(
            host=advert.host_name if advert is not None else _("the host"),
            fingerprint=fingerprint(advert.host) if advert is not None else "?",
            reason=_(event.data.reason),
        )
    if kind == "closed":
        return _("{host} closed the room: this game ends here, unfinished.").format(
            host=event.data.host_name
        )
    return event.said(_) or kind


def _bad_message(error: Any, runner: Any) -> str:
    """A message refused (``error``: a protocol error, or an incident), its sender named
    as the room knows them."""
    from cakeparty.protocol.identity import fingerprint
    from cakeparty.tui.table.net import seat_name

    table = runner.table
    peer = error.peer
    if isinstance(peer, int):
        name = seat_name(peer, table.names if table is not None else ())
    elif isinstance(peer, bytes):
        seats = runner.advert.taken if runner.advert is not None else ()
        name = next(
            (s.name for s in seats if s.player == peer),
            _("a stranger ({fingerprint})").format(fingerprint=fingerprint(peer)),
        )
    else:
        name = _("someone")
    reason = _(error.reason)  # the protocol's reasons are marked for translation
    if error.seq is None:
        return _("{name} sent a bad message: {reason}").format(name=name, reason=reason)
    return _("{name} sent a bad message (step {seq}): {reason}").format(
        name=name, seq=error.seq, reason=reason
    )


def _host_away(runner: Any) -> bool:
    """Whether the room's host said it went offline (its app gone, or its last will),
    and did not close the room (that is said on its own)."""
    from cakeparty.protocol.lobby import CLOSED

    advert = runner.advert
    if runner.closed_by_host or (advert is not None and advert.state == CLOSED):
        return False
    host = runner.host
    return (
        host is not None and host != runner.identity.player_id and runner.online.get(host) is False
    )


def _away_text(runner: Any) -> str:
    host = runner.advert.host_name if runner.advert is not None else ""
    if runner.session is None:
        return _(
            "{host}, the host of room {room}, is offline: waiting for it to come back "
            "(Ctrl-C to leave)"
        ).format(host=host, room=runner.code)
    return _("{host}, the host of room {room}, is offline").format(host=host, room=runner.code)


def _back_text(runner: Any) -> str:
    host = runner.advert.host_name if runner.advert is not None else ""
    return _("{host}, the host of room {room}, is back online").format(host=host, room=runner.code)


def _seat_in(advert: Any, player: bytes) -> int | None:
    """``player``'s seat in the lobby ``advert`` shows (the seat it has in the game, once
    the game starts), or ``None``."""
    return next((i for i, s in enumerate(advert.taken) if s.player == player), None)


def _seated_text(runner: Any, advert: Any, seat: int) -> str:
    from cakeparty.tui.table.registration import game_title

    return _("{name} sits in seat {seat} of {seats} in room {room} ({game})").format(
        name=runner.identity.name,
        seat=seat + 1,
        seats=advert.seats,
        room=runner.code,
        game=game_title(advert.game),
    )


# -- selfplay ----------------------------------------------------------------------------


def _cmd_selfplay(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from cakeparty.protocol.identity import Identity, load_or_create
    from cakeparty.protocol.lobby import new_room_code
    from cakeparty.protocol.network import HostSetup, RoomRunner
    from cakeparty.protocol.transport import TransportError

    try:
        args.players = arg.check_players(args.game, args.players, networked=True)
        options = arg.game_options(args, args.game, args.players)
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    level = _level(args.game, args.level, parser)
    room = new_room_code()
    work = Path(tempfile.mkdtemp(prefix="cakeparty-selfplay-"))
    host = RoomRunner(
        broker=args.broker,
        identity=Identity.generate(_("Referee")),
        room=room,
        host=HostSetup(args.game, args.players, options),
        seated=False,
        journal_dir=work / "host",
    )
    # each bot's key is made here, in its own config dir, so that Bot N sits in seat N
    # whichever process reaches the room first
    homes = [work / f"bot{n}" for n in range(1, args.players + 1)]
    bots = [
        load_or_create(f"Bot {n}", directory=home / "config")
        for n, home in enumerate(homes, start=1)
    ]
    host.keep_order([bot.player_id for bot in bots])
    started = time.monotonic()
    exe = Path(sys.executable).with_name("cakeparty")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "cakeparty.tui"]

    async def main() -> list[dict[str, Any]]:
        runner = asyncio.create_task(host.run())
        try:
            await _hosted(host, runner)  # the broker cannot be reached: TransportError
        except BaseException:
            await _stop_host(host, runner)
            raise
        procs = []
        try:
            for bot, home in zip(bots, homes, strict=True):
                env = {
                    **os.environ,
                    "CAKEPARTY_CONFIG_DIR": str(home / "config"),
                    "CAKEPARTY_DATA_DIR": str(home / "data"),
                }
                procs.append(
                    await asyncio.create_subprocess_exec(
                        *command,
                        "bot",
                        args.game,
                        "--room",
                        host.code,
                        "--broker",
                        args.broker.url,
                        "--level",
                        level,
                        "--think",
                        str(args.think or DEFAULT_THINK),
                        "--name",
                        bot.name,
                        "--json",
                        env=env,
                        stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.PIPE,
                    )
                )
            outs = await asyncio.wait_for(
                asyncio.gather(*(p.communicate() for p in procs)), args.timeout
            )
        finally:
            for p in procs:
                if p.returncode is None:
                    p.kill()
            # the game is over (or given up): the room closes, its advert goes
            await _stop_host(host, runner)
        results = []
        for seat, (proc, (out, err)) in enumerate(zip(procs, outs, strict=True)):
            lines = out.decode(errors="replace").strip().splitlines()
            with contextlib.suppress(ValueError):
                if lines:
                    results.append(json.loads(lines[-1]))
                    continue
            said = err.decode(errors="replace").strip().splitlines()
            print(
                _("cakeparty selfplay: bot {n} gave no result: {why}").format(
                    n=seat + 1, why=said[-1] if said else _ended(proc.returncode)
                ),
                file=sys.stderr,
            )
        return results

    try:
        results = asyncio.run(main())
    except TransportError as exc:
        print(_("cakeparty selfplay: {reason}").format(reason=exc.said(_)), file=sys.stderr)
        shutil.rmtree(work, ignore_errors=True)  # nothing was played
        return 1
    except TimeoutError:
        print(
            _("cakeparty selfplay: no result within {s} s").format(s=args.timeout), file=sys.stderr
        )
        _keep_for_a_look(work)
        return 1
    audits = {str(r.get("audit")) for r in results}
    breaches = {str(r["audit"]): r["breach"] for r in results if r.get("breach")}
    if len(results) < args.players:
        audits.add("no result")
    first = results[0] if results else {}
    report = {
        "game": args.game,
        "players": args.players,
        "room": host.code,
        "names": first.get("names") or [bot.name for bot in bots],
        "winner": first.get("winner"),
        "audit": "fair" if audits == {"fair"} else sorted(audits),
        **({"breaches": breaches} if breaches else {}),
        "seconds": round(time.monotonic() - started, 3),
        "messages": host.log_messages,
        "bytes": host.log_bytes,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(report_line(report))
    if report["audit"] != "fair":
        _keep_for_a_look(work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


def _ended(status: int | None) -> str:
    """How a process that said nothing ended, from its exit ``status``."""
    if status is not None and status < 0:
        with contextlib.suppress(ValueError):
            return _("killed by {signal}").format(signal=signal.Signals(-status).name)
    return _("exit status {status}, and nothing said").format(status=status)


async def _hosted(host: Any, running: asyncio.Task[None]) -> None:
    """Return once ``host`` has put its room on the broker; raise what stopped it before
    (:class:`~cakeparty.protocol.transport.TransportError`: no broker there)."""

    async def advertised() -> None:
        while (await host.events.get()).kind != "advert":
            pass

    heard = asyncio.create_task(advertised())
    try:
        await asyncio.wait({running, heard}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        heard.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await heard
    if running.done():
        running.result()


async def _stop_host(host: Any, running: asyncio.Task[None]) -> None:
    """Close ``host``'s room for good (its advert taken off the broker) and wait for it."""
    host.close()
    with contextlib.suppress(Exception):
        await running


def report_line(report: dict[str, Any]) -> str:
    """The self-play's report in words: the game's title, the winners by name, the
    audit's verdict with every seat named (the JSON report keeps the game's and the
    verdict's codes, and counts seats from 0)."""
    from cakeparty.tui.table.registration import game_title

    names = report.get("names") or []
    audit = report["audit"]
    audits = [audit] if isinstance(audit, str) else audit
    breaches = report.get("breaches") or {}
    return _(
        "{game}, {players} players: {won}, {audit}, {seconds} s, {messages} messages, {bytes} bytes"
    ).format(
        game=game_title(report["game"]),
        players=report["players"],
        won=won_words(report["winner"], names),
        audit="; ".join(audit_words(a, names, breaches.get(a)) for a in audits),
        seconds=report["seconds"],
        messages=report["messages"],
        bytes=report["bytes"],
    )


def _keep_for_a_look(work: Path) -> None:
    """A self-play that went wrong keeps its players' keys and journals in ``work``,
    and says where; one that ended fair leaves nothing behind."""
    print(
        _("cakeparty selfplay: the players' keys and journals are kept in {folder}").format(
            folder=work
        ),
        file=sys.stderr,
    )

"""Words other players choose — a name, a chat line, a room's advert — are shown as
written. Textual reads ``[...]`` in a string as markup unless told not to: a name such as
``[/]`` made the app that showed it stop (a ``MarkupError`` when the guest's name reached
the host's game title, its toasts or a dialog's border), and ``[@click=app.quit]`` would
have made a click on it quit. Every widget the app draws words in takes them plain, and
so does every toast and every border title; the last test keeps it so in the source."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from textual.app import App

import cakeparty.tui
from cakeparty.broker.embedded import EmbeddedBroker
from cakeparty.protocol.lobby import new_room_code
from cakeparty.tui.netroom import JoinSearch
from cakeparty.tui.screens.dialogs import Choice, ChoiceScreen, ConfirmScreen, NoticeScreen
from cakeparty.tui.screens.lobby import LobbyScreen
from cakeparty.tui.screens.rooms import JoinScreen

from .pilot import SIZE, make_app, until
from .rooms import hosted_duel
from .test_lobby import app_with, ready_into_the_duel
from .test_table_says import screen_text

#: a name of 28 printable characters (names take up to 32): an auto-closing tag with
#: nothing to close, a click action, a closing tag that matches nothing
HOSTILE = "[/]Eve[@click=app.quit]x[/b]"
#: what of it every panel shows, however narrow (a seat's column cuts names)
SHOWN = "[/]Eve[@click"


def shown(app: App[Any]) -> str:
    """The screen as the terminal shows it, with the toasts on top."""
    return screen_text(app)


async def test_a_host_named_in_markup_is_shown_as_written_from_the_list_to_the_game() -> None:
    """The join list, the lobby and its chat, the duel, and the toast when the host goes:
    the name as typed, and the app runs on."""
    async with EmbeddedBroker(host="127.0.0.1", port=0) as broker:
        code = new_room_code()
        async with hosted_duel(broker.url, code, name=HOSTILE, ready=True) as host:
            app = app_with(JoinSearch(brokers=(broker.url,), lan=False, every=None))
            async with app.run_test(size=SIZE, notifications=True) as pilot:
                join = app.screen
                assert isinstance(join, JoinScreen)
                await until(pilot, lambda: join.rooms and not join.searching, "the room list")
                await pilot.pause()
                # as written, as much of it as the room's one line leaves it
                assert SHOWN in shown(app)
                join.query_one("#join-rooms").focus()
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
                lobby = app.screen
                assert isinstance(lobby, LobbyScreen)
                # the host's advert read: the guest listens to the room's chat by then (chat
                # is not kept on the broker: a line said before that would go unheard)
                await until(
                    pilot,
                    lambda: lobby.room is not None and lobby.room.advert is not None,
                    "the host's advert",
                )
                host.say(f"hi {HOSTILE}")
                await until(pilot, lambda: lobby.chat_lines, "the host's chat line")
                await pilot.pause()
                assert f"{HOSTILE}: hi {HOSTILE}" in lobby.chat_lines
                assert SHOWN in shown(app)
                _, duel = await ready_into_the_duel(pilot)
                await pilot.pause()
                assert SHOWN in shown(app)
                host.stop()  # the host's app goes: a toast names them
                await until(pilot, lambda: duel.notices, "the notice that the host went")
                await pilot.pause()
                assert any(note.startswith(HOSTILE) for note in duel.notices), duel.notices
                assert app.is_running and app.screen is duel
                assert SHOWN in shown(app)


async def test_dialogs_and_toasts_show_their_words_as_written() -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify(f"{HOSTILE} went offline")
        app.screen.notify(f"{HOSTILE} is back", markup=True)  # asked for, refused
        await until(pilot, lambda: "is back" in shown(app), "the toasts")
        text = " ".join(shown(app).split())
        assert f"{HOSTILE} went offline" in text and f"{HOSTILE} is back" in text
        choices = [Choice(f"Wait for {HOSTILE}", 1, f"or not, {HOSTILE}")]
        for dialog, words in (
            (ChoiceScreen(f"{HOSTILE}'s time", choices, f"{HOSTILE} is away"), "'s time"),
            (ConfirmScreen(f"Leave {HOSTILE}?", f"{HOSTILE} waits"), " waits"),
            (NoticeScreen(f"{HOSTILE} wins", [f"{HOSTILE}: 3 points"]), " wins"),
        ):
            await app.push_screen(dialog)
            await pilot.pause()
            assert app.screen is dialog
            assert HOSTILE + words in shown(app)
            dialog.dismiss(None)
            await pilot.pause()
        assert app.is_running


#: the widgets that read markup from a string unless ``markup=False`` is given
READERS = {"Static", "Label", "OptionList", "Notification"}


def test_every_widget_and_border_title_of_the_app_takes_its_words_plain() -> None:
    """Read from the source: every widget that would read markup is made with
    ``markup=False`` (a class of the app that derives from one passes it on or is made
    with it); every border title is a plain ``Content`` (a string there is markup)."""
    root = Path(cakeparty.tui.__file__).parent
    trees = {path: ast.parse(path.read_text()) for path in sorted(root.rglob("*.py"))}
    readers = set(READERS)
    plain_inside: set[str] = set()
    grew = True
    while grew:  # the app's own classes deriving from a reader are readers too
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in readers:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & readers:
                        readers.add(node.name)
                        grew = True
                        if any(_plain(call) for call in _super_inits(node)):
                            plain_inside.add(node.name)
    wrong = []
    for path, tree in trees.items():
        where = path.relative_to(root)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _called(node)
                if name in readers and name not in plain_inside and not _plain(node):
                    wrong.append(f"{where}:{node.lineno}: {name}(…) without markup=False")
            elif isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    titled = isinstance(target, ast.Attribute) and target.attr in (
                        "border_title",
                        "border_subtitle",
                    )
                    if titled and not _content(node.value, isinstance(node, ast.AugAssign)):
                        wrong.append(f"{where}:{node.lineno}: {target.attr} set to a string")
    assert not wrong, "\n".join(wrong)


def _called(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _plain(call: ast.Call) -> bool:
    return any(
        k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in call.keywords
    )


def _super_inits(node: ast.ClassDef) -> list[ast.Call]:
    return [
        call
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "__init__"
        and isinstance(call.func.value, ast.Call)
        and _called(call.func.value) == "super"
    ]


def _content(value: ast.expr, added: bool) -> bool:
    """A plain ``Content(…)``, or an empty string (nothing to read); never added to."""
    if added:
        return False
    if isinstance(value, ast.Constant):
        return value.value == ""
    return isinstance(value, ast.Call) and _called(value) == "Content"

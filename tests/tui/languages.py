"""Languages in Pilot tests: a pseudo catalog made from the code's own msgids, the real
catalogs, and reading what a screen shows widget by widget.

The pseudo language maps every ASCII letter of a msgid to an accented look-alike of the
same width (a→á, e→ë, …), keeping ``{placeholders}``, ``%s`` formats and ``[markup]``
unchanged. Text on screen still made of plain ASCII letters therefore did not come
through a catalog: a name, a key, or a string that was never translated.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import OptionList

from cakeparty.core import i18n
from cakeparty.tui.table.local import BOT_NAMES

#: The folders of the package whose strings reach a screen or the CLI.
SOURCES = ("core", "protocol", "broker", "tui")
ROOT = Path(__file__).resolve().parents[2]

_LOWER = "áƀçďëƒĝĥïĵķĺṁñöṗʠŕšţüṽŵẋýž"
_UPPER = "ÁƁÇĎËƑĜĤÏĴĶĹṀÑÖṖǪŔŠŢÜṼŴẊÝŽ"
PSEUDO = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", _LOWER + _UPPER)
# what a translation keeps as written: {placeholders}, %-formats, [markup], escapes
_KEPT = re.compile(r"(\{[^{}]*\}|%(?:\([a-z_]+\))?[-#0 +]?\d*(?:\.\d+)?[sdifr%]|\[[^\[\]]*\])")


def pseudo(text: str) -> str:
    """``text`` with every letter outside placeholders and markup turned into a look-alike."""
    parts = _KEPT.split(text)
    return "".join(p if i % 2 else p.translate(PSEUDO) for i, p in enumerate(parts))


@functools.cache
def msgids() -> tuple[tuple[str, str | None], ...]:
    """Every (msgid, plural msgid) the package marks, extracted from its sources now."""
    keywords: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2)}
    found: dict[str, str | None] = {}
    for folder in SOURCES:
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / folder), [("**.py", "python")], keywords=keywords
        ):
            if isinstance(message, tuple):
                found[message[0]] = message[1]
            elif message:
                found.setdefault(message, None)
    return tuple(found.items())


@functools.cache
def pseudo_mo() -> bytes:
    """The pseudo catalog, compiled."""
    catalog = Catalog(locale="en", domain=i18n.DOMAIN)
    for singular, plural in msgids():
        if plural is None:
            catalog.add(singular, pseudo(singular))
        else:
            catalog.add((singular, plural), (pseudo(singular), pseudo(plural)))
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def write_pseudo(folder: Path, language: str = "es") -> Path:
    """The pseudo catalog in ``folder`` as the catalog of ``language`` (it stands in for
    that language, whose rules files the help then shows); the folder."""
    target = i18n.catalog_path(language, folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(pseudo_mo())
    return folder


@contextmanager
def speaking(language: str, localedir: Path | None = None) -> Iterator[None]:
    """Run in ``language`` (its catalog from ``localedir``, else the app's), then in
    English again."""
    try:
        assert i18n.use_language(language, localedir) == language, f"no catalog for {language}"
        yield
    finally:
        i18n.use_language(i18n.SOURCE_LANGUAGE)


# -- reading the screen -------------------------------------------------------------------

#: Words on screen that are not the app's text: names (of people, and of each language in
#: its own words) and the keys the footer draws.
NAMES = frozenset({"Ann", "Bob", *BOT_NAMES, *i18n.LANGUAGE_NAMES.values()})
KEYS = frozenset(
    {
        "esc",
        "enter",
        "space",
        "tab",
        "shift",
        "ctrl",
        "up",
        "down",
        "left",
        "right",
        "home",
        "end",
        "pgup",
        "pgdn",
        "del",
        "backspace",
        "PgUp",
        "PgDn",
        "Home",
        "End",
    }
)
_WORD = re.compile(r"[^\W\d_]+")
# not words: addresses, commands to type, room codes and fingerprints (letters and digits)
_NOT_WORDS = re.compile(
    r"\S+://\S+|\bcakeparty(?: +[A-Za-z0-9.:/_-]+)*|\b[A-Z0-9]{4,}(?:-[A-Z0-9]{4,})+\b|"
    r"\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{4,}\b"
)
_ASCII = re.compile(r"[A-Za-z]+")


def screen_lines(app: App[Any], hide: tuple[type[Widget], ...] = ()) -> list[str]:
    """Every row of the screen as the terminal shows it, with the widgets of the kinds
    ``hide`` blanked (text that is not from a catalog: rules, what a person typed)."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    for widget in app.screen.query(",".join(k.__name__ for k in hide)) if hide else ():
        if not isinstance(widget, hide):
            continue
        region = widget.region.intersection(app.screen.region)
        for y in range(region.y, region.bottom):
            row = lines[y]
            lines[y] = row[: region.x] + " " * region.width + row[region.right :]
    return lines


def untranslated(lines: Iterable[str], allowed: Iterable[str] = ()) -> list[str]:
    """The words of plain ASCII letters on screen (two letters or more) that are neither a
    name (or the start of one, cut short) nor a key, each with the row it is on."""
    ok = NAMES | KEYS | set(allowed)
    found: list[str] = []
    for row in lines:
        for word in _WORD.findall(_NOT_WORDS.sub(" ", row)):
            if len(word) < 2 or not _ASCII.fullmatch(word) or word in ok:
                continue
            if not any(name.startswith(word) for name in NAMES):  # else a name cut short
                found.append(f"{word!r} in {row.strip()!r}")
    return found


# -- widget by widget ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A widget's whole text and whether all of it is visible on the screen."""

    path: str
    text: str
    fits: bool


def _plain(widget: Widget) -> str | None:
    try:
        drawn = widget.render()
    except Exception:  # a widget that draws line by line has no whole text
        return None
    if isinstance(drawn, str):
        return Content.from_markup(drawn).plain
    if isinstance(drawn, (Text, Content)):
        return drawn.plain
    return None


def _squash(text: str) -> str:
    return " ".join(text.split())


def path_of(widget: Widget) -> str:
    """A name for the widget that is the same in every language: its place in the tree."""
    names = []
    node: Any = widget
    while node is not None and not isinstance(node, App):
        parent = node.parent
        siblings = list(parent.children) if parent is not None else [node]
        name = type(node).__name__ + (f"#{node.id}" if node.id else "")
        names.append(f"{name}[{siblings.index(node)}]")
        node = parent
    return "/".join(reversed(names))


def _markup(text: object) -> str:
    return Content.from_markup(text).plain if isinstance(text, str) else str(text or "")


def _seen(lines: list[str], region: Region, text: str) -> bool:
    """Is all of ``text`` (however wrapped) on the screen rows inside ``region``?"""
    visible = [line[region.x : region.right] for line in lines[region.y : region.bottom]]
    return _squash(text) in _squash(" ".join(visible))


def shown(app: App[Any]) -> dict[str, Shown]:
    """Every visible text of the screen by its place (a widget's own text, a panel's
    border title and subtitle): is all of it on screen?"""
    lines = screen_lines(app)
    result: dict[str, Shown] = {}
    screen = app.screen

    def note(path: str, text: str, fits: bool) -> None:
        if text.strip():
            result[path] = Shown(path, _squash(text), fits)

    for widget in screen.walk_children(Widget):
        if not widget.display or not widget.visible:
            continue
        path = path_of(widget)
        outer = widget.region.intersection(screen.region)
        for side, title, row in (
            ("title", widget.border_title, outer.y),
            ("subtitle", widget.border_subtitle, outer.bottom - 1),
        ):
            if title and outer.height:
                text = _markup(title)
                note(
                    f"{path}.{side}", text, _seen(lines, Region(outer.x, row, outer.width, 1), text)
                )
        if widget.children:
            continue
        if isinstance(widget, OptionList):  # each entry on a line of its own
            region = widget.content_region.intersection(screen.region)
            for n in range(widget.option_count):
                entry = _markup(widget.get_option_at_index(n).prompt)
                note(f"{path}.option{n}", entry, _seen(lines, region, entry))
            continue
        text = _plain(widget)
        if text is not None:
            region = widget.content_region.intersection(screen.region)
            note(path, text, _seen(lines, region, text))
    return result


def cut_off(english: dict[str, Shown], other: dict[str, Shown]) -> list[str]:
    """The widgets whose text is all visible in English but not in the other language."""
    return [
        f"{path}: {other[path].text!r} (English {english[path].text!r})"
        for path in english
        if path in other and english[path].fits and not other[path].fits
    ]

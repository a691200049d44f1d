"""The rules of each game, as shown to players, in their language.

``cakeparty rules`` prints them for where they go: rich Markdown at the terminal's width
(through a pager when longer than the screen), or, piped, plain text wrapped to at most
80 columns — tables become one wrapped line per row under their header in the same
shape, so no raw Markdown runs past the edge.
"""

from __future__ import annotations

import os
import textwrap
from importlib import resources
from importlib.resources.abc import Traversable

from cakeparty.core.i18n import SOURCE_LANGUAGE, _, current_language

_FALLBACK = SOURCE_LANGUAGE


def rules_dir() -> Traversable:
    """Where the rules are: ``<language>/<game>.md``, shipped with the app."""
    return resources.files("cakeparty.tui") / "data" / "rules"


def rules_for(game: str, language: str | None = None) -> tuple[str, str]:
    """The rules of ``game`` in ``language`` (default: the one in effect), or in English
    where they are not translated; and the language they are written in."""
    wanted = language or current_language()
    base = rules_dir()
    for lang in dict.fromkeys((wanted, _FALLBACK)):
        doc = base / lang / f"{game}.md"
        if doc.is_file():
            return doc.read_text(encoding="utf-8"), lang
    return _("No rules are written for {game} yet.").format(game=game), wanted


def rules_text(game: str, language: str | None = None) -> str:
    """The rules of ``game`` in ``language`` (default: the one in effect; English where
    not translated)."""
    return rules_for(game, language)[0]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _row(cells: list[str]) -> str:
    """A table's row in one line: "first (middle, …): last"."""
    first, *rest = cells
    middle, last = rest[:-1], rest[-1] if rest else ""
    return f"{first} ({', '.join(middle)}): {last}" if middle else f"{first}: {last}"


def _table(rows: list[str], width: int) -> list[str]:
    """A Markdown table as one wrapped item per row, "first (middle, …): last", under its
    header in the same shape where a row has more than two cells (so that "Traditional
    (16, 1): 6" says which number is which)."""
    header, *body = rows
    body = [r for r in body if set(r.replace("|", "").strip()) - set("-: ")]
    out = []
    if len(_cells(header)) < 2 or len(body) == len(rows) - 1:  # no header row
        body = rows
    elif len(_cells(header)) > 2:
        out.extend(textwrap.wrap(_row(_cells(header)), width, subsequent_indent="  "))
    for row in body:
        out.extend(
            textwrap.wrap(_row(_cells(row)), width, initial_indent="- ", subsequent_indent="  ")
        )
    return out


def _marker(body: str) -> str:
    """The list marker ``body`` starts with ("- ", "3. "), or ""."""
    if body[:2] in ("- ", "* ", "+ "):
        return body[:2]
    number = body.split(" ", 1)[0]
    if len(number) > 1 and number[:-1].isdigit() and number.endswith("."):
        return number + " "
    return ""


def plain_rules(text: str, width: int = 80) -> str:
    """``text`` (Markdown) reflowed so that no line is longer than ``width`` columns:
    paragraphs and list items are re-wrapped, tables become one item per row."""
    out: list[str] = []
    item: list[str] = []  # the words of the paragraph or list item being gathered
    first = hang = ""

    def flush() -> None:
        if item:
            out.extend(
                textwrap.wrap(
                    " ".join(item),
                    width,
                    initial_indent=first,
                    subsequent_indent=hang,
                    break_on_hyphens=False,
                )
            )
            item.clear()

    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        body = line.strip()
        indent = " " * (len(line) - len(line.lstrip()))
        if body.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.extend(_table(rows, width))
            continue
        i += 1
        if not body or body.startswith(("#", "```", "---")):
            flush()
            out.extend(textwrap.wrap(body, width) or [""])
            continue
        marker = _marker(body)
        if marker or not item:
            flush()
            first, hang = indent + marker, indent + " " * len(marker)
            body = body[len(marker) :]
        item.append(body)
    flush()
    return "\n".join(out)


def print_rules(text: str) -> None:
    """``text`` as rich Markdown at the terminal's width, through a pager when it is
    longer than the screen (``NO_COLOR`` is honoured by rich: no colour codes then)."""
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console()
    document = Markdown(text)
    lines = console.render_lines(document, console.options, pad=False)
    if len(lines) <= console.height:
        console.print(document)
        return
    os.environ.setdefault("LESS", "-R")  # let less show the styles instead of escapes
    with console.pager(styles=console.color_system is not None):
        console.print(document)

"""The lines of a game's setup forms (playing here, hosting a room), from its
registration: how many players, then each of its options."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from textual.widget import Widget

from cakeparty.core.i18n import _
from cakeparty.tui.table.registration import TableGame
from cakeparty.tui.widgets.cycler import Cycler


def game_cyclers(
    table: TableGame, players: int, options: Mapping[str, Any], *, networked: bool = False
) -> Iterator[Cycler]:
    """A line for the player count (when there is a choice) and one per option."""
    counts = [c for c in table.counts if (c.networked if networked else c.local)]
    yield Cycler("players", _("Players"), [(_(c.label), c.count) for c in counts], players)
    for option in table.options:
        yield Cycler(
            option.key,
            _(option.label),
            [(_(c.label), c.value) for c in option.choices],
            options.get(option.key, option.default),
        )


def chosen_options(table: TableGame, form: Widget) -> dict[str, Any]:
    """The options ``form``'s lines show now (a hidden line's value is set aside by the
    setup it goes into: :meth:`~.registration.TableGame.complete`)."""
    values = {c.name: c.value for c in form.query(Cycler)}
    return {o.key: values.get(o.key, o.default) for o in table.options}


def fit_options(table: TableGame, form: Widget, players: int) -> None:
    """Show the lines of the options that are for ``players`` players, hide the others."""
    for cycler in form.query(Cycler):
        option = table.option(cycler.name or "")
        if option is not None:
            cycler.display = option.applies(players)


def chosen_players(form: Widget, default: int) -> int:
    for cycler in form.query(Cycler):
        if cycler.name == "players":
            value = cycler.value
            assert isinstance(value, int)
            return value
    return default

"""Small widgets shared by every game's screens.

Each widget's module loads when the widget is first asked for (``from
cakeparty.tui.widgets import HandView``), so a screen that needs one widget, the menu's
``Cycler``, does not load the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cakeparty.tui.widgets.cards import CardView, Face, FacedownPile
    from cakeparty.tui.widgets.chat import ChatInput
    from cakeparty.tui.widgets.cycler import Cycler
    from cakeparty.tui.widgets.fitted import FittedText
    from cakeparty.tui.widgets.hand import HandView
    from cakeparty.tui.widgets.line import LineInput
    from cakeparty.tui.widgets.log import LogView
    from cakeparty.tui.widgets.roomcode import RoomCode
    from cakeparty.tui.widgets.seats import SeatList, SeatRow
    from cakeparty.tui.widgets.spare import SpareRows
    from cakeparty.tui.widgets.status import StatusBar

#: Where each widget lives.
_EXPORTS: dict[str, str] = {
    "CardView": "cards",
    "Face": "cards",
    "FacedownPile": "cards",
    "ChatInput": "chat",
    "Cycler": "cycler",
    "FittedText": "fitted",
    "HandView": "hand",
    "LineInput": "line",
    "LogView": "log",
    "RoomCode": "roomcode",
    "SeatList": "seats",
    "SeatRow": "seats",
    "SpareRows": "spare",
    "StatusBar": "status",
}


def __getattr__(name: str) -> Any:
    """A widget, imported from its module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "CardView",
    "ChatInput",
    "Cycler",
    "Face",
    "FacedownPile",
    "FittedText",
    "HandView",
    "LineInput",
    "LogView",
    "RoomCode",
    "SeatList",
    "SeatRow",
    "SpareRows",
    "StatusBar",
]

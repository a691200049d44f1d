"""Small widgets shared by every game's screens."""

from __future__ import annotations

from cakeparty.tui.widgets.cards import CardView, Face, FacedownPile
from cakeparty.tui.widgets.chat import ChatInput
from cakeparty.tui.widgets.cycler import Cycler
from cakeparty.tui.widgets.fitted import FittedText
from cakeparty.tui.widgets.hand import HandView
from cakeparty.tui.widgets.log import LogView
from cakeparty.tui.widgets.roomcode import RoomCode
from cakeparty.tui.widgets.seats import SeatList, SeatRow
from cakeparty.tui.widgets.status import StatusBar

__all__ = [
    "CardView",
    "ChatInput",
    "Cycler",
    "Face",
    "FacedownPile",
    "FittedText",
    "HandView",
    "LogView",
    "RoomCode",
    "SeatList",
    "SeatRow",
    "StatusBar",
]

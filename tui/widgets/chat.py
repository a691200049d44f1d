"""The chat line: one line of text to type, enter to send, esc to put it away."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from cakeparty.core.i18n import _
from cakeparty.tui.messages import ChatClosed, ChatSent
from cakeparty.tui.widgets.line import LineInput

#: The longest chat line the room carries.
CHAT_LENGTH = 200


class ChatInput(LineInput):
    """A borderless one-line input; posts :class:`ChatSent` and :class:`ChatClosed`."""

    DEFAULT_CSS = """
    ChatInput {
        height: 1;
        border: none;
        padding: 0 1;
        background: $accent 20%;
        &:focus {
            border: none;
            background: $accent 30%;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Close chat"), id="chat.close"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            placeholder=_("Say something to the table · enter send · esc close"),
            max_length=CHAT_LENGTH,
            select_on_focus=False,  # a line opened with text goes on where it was
            id=id,
            classes=classes,
        )
        self._told: str | None = None  # the line held back last, told of once

    async def action_submit(self) -> None:
        text = self.value.strip()
        self.value = ""
        self.post_message(ChatSent(text) if text else ChatClosed())

    def held_back(self, text: str) -> None:
        """``text`` was not sent, the lines coming faster than the room shows them: it
        stays here, for enter to send again in a moment."""
        self.value = text
        self.cursor_position = len(text)
        if text == self._told:
            return  # enter again, still too soon: the notice is there already
        self._told = text
        self.notify(
            _(
                "Too fast: the others are shown a few lines at once, then about one a "
                "second. Your line is kept here; enter sends it."
            ),
            severity="warning",
            timeout=5,
        )

    def on_blur(self) -> None:
        self._told = None  # the chat line put away (sent, or closed)

    def action_close(self) -> None:
        self.value = ""
        self.post_message(ChatClosed())

"""A one-line text field whose paste goes in as one line, cut to the room it has left.

Textual's own ``Input`` keeps the first line of a paste only, and takes nothing at all
when that line is longer than the field's ``max_length``: a name or a chat line pasted
from elsewhere, a little too long, vanished without a word.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class LineInput(Input):
    """An ``Input`` whose paste keeps every line (joined by spaces) and as much of them as
    ``max_length`` still allows."""

    def _on_paste(self, event: events.Paste) -> None:
        event.prevent_default()  # not Input's own: first line only, all or nothing
        event.stop()
        line = " ".join(part.strip() for part in event.text.splitlines() if part.strip())
        start, end = sorted(self.selection)
        if self.max_length:
            line = line[: max(0, self.max_length - (len(self.value) - (end - start)))]
        if not line:
            return
        if start == end:
            self.insert_text_at_cursor(line)
        else:
            self.replace(line, start, end)

"""What the two servers of the app (``serve-web`` and ``serve-ssh``) share: the largest
terminal a visitor may ask for, and the notice of a session closed for want of a key
press."""

from __future__ import annotations

from cakeparty.core.i18n import ngettext

#: the largest terminal side, in cells, a browser page or an SSH client may ask for
MOST_CELLS = 1000


def idle_notice(timeout: float) -> str:
    """The lines a session closed after ``timeout`` seconds without a key press ends on."""
    seconds = round(timeout)
    if seconds < 120:
        text = ngettext(
            "Closed after {n} second without a key press; your unfinished games are kept.",
            "Closed after {n} seconds without a key press; your unfinished games are kept.",
            seconds,
        )
    else:
        text = ngettext(
            "Closed after {n} minute without a key press; your unfinished games are kept.",
            "Closed after {n} minutes without a key press; your unfinished games are kept.",
            round(seconds / 60),
        )
        seconds = round(seconds / 60)
    return "\r\n" + text.format(n=seconds) + "\r\n"

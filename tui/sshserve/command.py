"""What an SSH client may ask for: the app's own commands, parsed without a shell.

``ssh -t host join K7QM2X`` runs ``cakeparty join K7QM2X`` for that player. The command
line is split like a shell would (quotes) but never given to one; only the commands that
open the app are allowed, and nothing that would choose another folder or run a server,
nor a port for the broker a ``host`` starts on the server (the app picks a free one).
"""

from __future__ import annotations

import shlex

from cakeparty.core.i18n import _

#: The commands a player may give: each opens the app in the player's own terminal.
ALLOWED = ("play", "host", "join", "watch")
#: Options that would point the app at someone else's settings, keys or journals.
FORBIDDEN_OPTIONS = ("--config-dir",)
#: Options of one command that are the server's to choose: where a host's broker listens.
FORBIDDEN_FOR = {"host": ("--port",)}
MAX_COMMAND = 1024


class CommandRefused(ValueError):
    """A command an SSH client may not run; the message says why."""


def app_arguments(command: str | None) -> list[str]:
    """The app's arguments for an SSH command (none: the menu); :class:`CommandRefused`
    with a message for the player otherwise."""
    if command is None or not command.strip():
        return []
    if len(command) > MAX_COMMAND or not command.isprintable():
        raise CommandRefused(_("That command is too long or holds control characters."))
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise CommandRefused(_("Cannot read that command: {reason}.").format(reason=exc)) from None
    if argv and argv[0] == "cakeparty":  # ``ssh host cakeparty join X`` means the same
        argv = argv[1:]
    if not argv:
        return []
    if argv[0] not in ALLOWED:
        raise CommandRefused(
            _("{command!r} is not available here; you may run: {allowed}.").format(
                command=argv[0], allowed=", ".join(ALLOWED)
            )
        )
    forbidden = FORBIDDEN_OPTIONS + FORBIDDEN_FOR.get(argv[0], ())
    for word in argv[1:]:
        name = word.split("=", 1)[0]
        # argparse takes any unambiguous prefix of a long option (``--config``)
        if len(name) > 2 and any(o.startswith(name) for o in forbidden):
            raise CommandRefused(_("{option} is not available here.").format(option=word))
    return argv

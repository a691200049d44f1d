"""Players' names as a room shows them: two players may choose the same display name, so
where they did, each is told apart by its key."""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.protocol.identity import fingerprint


def distinct_names(names: Sequence[str], players: Sequence[bytes]) -> tuple[str, ...]:
    """The seats' names, told apart where two players chose the same one: the first group
    of each one's key fingerprint is added ("Player JIZJ")."""
    return tuple(
        f"{name} {fingerprint(player)[:4]}" if names.count(name) > 1 else name
        for name, player in zip(names, players, strict=True)
    )

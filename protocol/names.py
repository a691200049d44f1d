"""Players' names as a room shows them: two players may choose the same display name, so
where they did, each is told apart by its key. Names that only look the same count as the
same: another case, full-width letters, Cyrillic and Greek letters that look Latin ("Аnn"
with a Cyrillic А), or letters a terminal draws as nothing or as a blank (a variation
selector, a Hangul filler), so nobody passes for another player by a look-alike name.
(Characters that are not printable at all never make a name, nor does a name drawn as
nothing but blanks: the codec refuses them.)"""

from __future__ import annotations

from collections.abc import Sequence

from cakeparty.protocol.identity import fingerprint
from cakeparty.protocol.looks import look


def distinct_names(names: Sequence[str], players: Sequence[bytes]) -> tuple[str, ...]:
    """The seats' names, told apart where two players chose the same one or two that look
    the same: the first group of each one's key fingerprint is added ("Player JIZJ"). A
    name that looks like nothing at all (blank characters only, which the codec refuses:
    a name of an older journal) is shown with it too."""
    looks = [look(name) for name in names]
    return tuple(
        f"{name} {fingerprint(player)[:4]}" if looks.count(seen) > 1 or not seen else name
        for name, seen, player in zip(names, looks, players, strict=True)
    )

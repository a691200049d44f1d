"""Players' names as a room shows them: two players may choose the same display name, so
where they did, each is told apart by its key. Names that only look the same count as the
same: another case, full-width letters, or Cyrillic and Greek letters that look Latin
("Аnn" with a Cyrillic А), so nobody passes for another player by a look-alike name."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from cakeparty.protocol.identity import fingerprint

#: Cyrillic and Greek letters drawn like Latin ones (after case folding), as the Latin
#: letter they pass for
_LOOK_ALIKE = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        **dict.fromkeys("вβ", "b"),
        **dict.fromkeys("сϲ", "c"),
        **dict.fromkeys("ԁ", "d"),
        **dict.fromkeys("еε", "e"),
        **dict.fromkeys("һ", "h"),
        **dict.fromkeys("іιӏ", "i"),
        **dict.fromkeys("ј", "j"),
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("мμ", "m"),
        **dict.fromkeys("нη", "n"),
        **dict.fromkeys("оοσ", "o"),
        **dict.fromkeys("рρ", "p"),
        **dict.fromkeys("ԛ", "q"),
        **dict.fromkeys("ѕ", "s"),
        **dict.fromkeys("тτ", "t"),
        **dict.fromkeys("υ", "u"),
        **dict.fromkeys("ѵν", "v"),
        **dict.fromkeys("ԝω", "w"),
        **dict.fromkeys("хχ", "x"),
        **dict.fromkeys("уγ", "y"),
        **dict.fromkeys("ζ", "z"),
        **dict.fromkeys("0", "o"),
        **dict.fromkeys("1|", "l"),
    }
)


def look(name: str) -> str:
    """What ``name`` looks like, for telling names apart: two names with the same look
    are shown with their keys."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(folded.translate(_LOOK_ALIKE).replace("i", "l").split())


def distinct_names(names: Sequence[str], players: Sequence[bytes]) -> tuple[str, ...]:
    """The seats' names, told apart where two players chose the same one or two that look
    the same: the first group of each one's key fingerprint is added ("Player JIZJ")."""
    looks = [look(name) for name in names]
    return tuple(
        f"{name} {fingerprint(player)[:4]}" if looks.count(seen) > 1 else name
        for name, seen, player in zip(names, looks, players, strict=True)
    )

"""Players' names as a room shows them: two players may choose the same display name, so
where they did, each is told apart by its key. Names that only look the same count as the
same: another case, full-width letters, Cyrillic and Greek letters that look Latin ("Аnn"
with a Cyrillic А), or letters a terminal draws as nothing or as a blank (a variation
selector, a Hangul filler), so nobody passes for another player by a look-alike name.
(Characters that are not printable at all never make a name: the codec refuses them.)"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from cakeparty.protocol.identity import fingerprint

#: Cyrillic and Greek letters drawn like Latin ones (after case folding), as the Latin
#: letter they pass for; printable characters drawn as nothing, or blank, as that
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
        # drawn as nothing: a grapheme joiner, Khmer's inherent vowels, variation selectors
        **dict.fromkeys(map(chr, (0x34F, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F))),
        **dict.fromkeys(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])),
        # drawn blank: the Hangul fillers and the blank Braille pattern
        **dict.fromkeys(map(chr, (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800)), " "),
    }
)


def look(name: str) -> str:
    """What ``name`` looks like, for telling names apart: two names with the same look
    are shown with their keys."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    # without its blanks: "Ann" and "A nn" are apart to the eye, but a blank drawn by a
    # filler is not to be told from a space, nor its width from none
    return "".join(folded.translate(_LOOK_ALIKE).replace("i", "l").split())


def distinct_names(names: Sequence[str], players: Sequence[bytes]) -> tuple[str, ...]:
    """The seats' names, told apart where two players chose the same one or two that look
    the same: the first group of each one's key fingerprint is added ("Player JIZJ"). A
    name that looks like nothing at all (blank characters only) is shown with it too."""
    looks = [look(name) for name in names]
    return tuple(
        f"{name} {fingerprint(player)[:4]}" if looks.count(seen) > 1 or not seen else name
        for name, seen, player in zip(names, looks, players, strict=True)
    )

"""What a display name looks like on a terminal, for telling names apart and for refusing
one that shows nothing. No I/O and no crypto here: the codec checks every name it
decodes against it, the names of a room tell look-alikes apart by it."""

from __future__ import annotations

import unicodedata

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


def readable(name: str) -> bool:
    """``name`` can be read as a name: every character printable, and drawn as something a
    player can see (not only blanks and characters a terminal draws as nothing, such as a
    Hangul filler or a variation selector). Every app checks a name it sends or is sent
    by this one rule."""
    return name.isprintable() and bool(look(name))

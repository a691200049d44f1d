"""What a runner (a room's, a spectator's) tells the user interface it runs under: an
event of a kind, its data, and its text in English with the message id and the values
that word it again in the interface's own language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self


@dataclass(frozen=True)
class Event:
    """Something a runner's user interface should know (each runner names its kinds)."""

    kind: str
    text: str = ""  # in English
    data: Any = None
    #: ``text``'s message id (marked with ``N_``) and the values it is formatted with, so
    #: that a user interface says it in its own language (:meth:`said`)
    words: str = ""
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, kind: str, words: str, data: Any = None, **params: Any) -> Self:
        """The event ``kind`` whose text is ``words`` (a message id) with ``params``."""
        return cls(kind, words.format(**params), data, words, tuple(params.items()))

    def said(self, translate: Callable[[str], str]) -> str:
        """The event's text in the language of ``translate`` (the UI's ``_``)."""
        if not self.words:
            return self.text
        return translate(self.words).format(**dict(self.params))

"""Actions: small frozen values with a text form and a wire form that both round-trip.

Every action is a frozen dataclass registered under a unique ``TAG``. Its fields are of a
few plain kinds (see :class:`Kind`), which gives every action, generically:

* a text form, ``str(action)``, read back by :func:`parse` (``parse(str(a)) == a``);
* a wire form, :func:`to_data`, a list of ints, strings, ``None`` and lists — what the
  protocol packs with msgpack — read back, with strict checks, by :func:`from_data`.

Untrusted input only ever meets :func:`parse` and :func:`from_data`; both raise
:class:`~cakeparty.core.errors.ActionSyntaxError` and nothing else.

The actions by which a dealer answers a request (:class:`Revealed`, :class:`Shuffled`,
:class:`Remixed`, :class:`RandomResult`, :class:`Committed`) live here too, since every game
shares them.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from cakeparty.core.errors import ActionSyntaxError
from cakeparty.core.i18n import N_, _

MAX_ITEMS = 256
MAX_INT = 2**31 - 1
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}\Z")


class Kind(enum.Enum):
    """The kinds of field an action may have."""

    INT = "int"  # a non-negative int
    INTS = "ints"  # a tuple of non-negative ints ("-" when empty)
    NAME = "name"  # a lower-case token such as a card name
    CARDS = "cards"  # a tuple of card names, None where not known ("?")
    SEATS = "seats"  # a tuple of seats, or None meaning every seat ("all")
    CHOICES = "choices"  # a tuple of (seat, action) pairs


A = TypeVar("A", bound="Action")

_REGISTRY: dict[str, type[Action]] = {}


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action. Subclasses set ``TAG`` and ``KINDS`` (one kind per field)."""

    TAG: ClassVar[str] = ""
    KINDS: ClassVar[tuple[Kind, ...]] = ()

    def __str__(self) -> str:
        parts = [self.TAG]
        for f, kind in zip(dataclasses.fields(self), self.KINDS, strict=True):
            parts.append(_text_of(kind, getattr(self, f.name)))
        return " ".join(parts)


def register(cls: type[A]) -> type[A]:
    """Class decorator: make ``cls`` known to :func:`parse` and :func:`from_data`."""
    if not cls.TAG or not _NAME.match(cls.TAG):
        raise TypeError(f"{cls.__name__} needs a lower-case TAG")
    if cls.TAG in _REGISTRY and _REGISTRY[cls.TAG] is not cls:
        raise TypeError(f"action tag {cls.TAG!r} is already taken by {_REGISTRY[cls.TAG]}")
    if len(dataclasses.fields(cls)) != len(cls.KINDS):
        raise TypeError(f"{cls.__name__}: one Kind per field")
    _REGISTRY[cls.TAG] = cls
    return cls


def registered() -> dict[str, type[Action]]:
    """Every registered action class by tag (a copy)."""
    return dict(_REGISTRY)


# -- text form -------------------------------------------------------------------------


def _text_of(kind: Kind, value: Any) -> str:
    if kind is Kind.INT:
        return str(value)
    if kind is Kind.INTS:
        return ",".join(str(v) for v in value) if value else "-"
    if kind is Kind.NAME:
        return str(value)
    if kind is Kind.CARDS:
        return ",".join("?" if v is None else v for v in value) if value else "-"
    if kind is Kind.SEATS:
        return "all" if value is None else (",".join(str(v) for v in value) or "-")
    if kind is Kind.CHOICES:
        return ";".join(f"{seat}:{action}" for seat, action in value) or "-"
    raise AssertionError(kind)


def _int_token(text: str, token: str) -> int:
    if not (token.isascii() and token.isdigit()) or len(token) > 10:
        raise ActionSyntaxError(text, f"{token!r} is not a number")
    value = int(token)
    if value > MAX_INT:
        raise ActionSyntaxError(text, f"{token} is too large")
    return value


def _list_token(text: str, token: str) -> list[str]:
    items = [] if token == "-" else token.split(",")
    if len(items) > MAX_ITEMS:
        raise ActionSyntaxError(text, "too many items")
    return items


def _name_token(text: str, token: str) -> str:
    if not _NAME.match(token):
        raise ActionSyntaxError(text, f"{token!r} is not a name")
    return token


def _value_of(text: str, kind: Kind, token: str) -> Any:
    if kind is Kind.INT:
        return _int_token(text, token)
    if kind is Kind.INTS:
        return tuple(_int_token(text, t) for t in _list_token(text, token))
    if kind is Kind.NAME:
        return _name_token(text, token)
    if kind is Kind.CARDS:
        return tuple(None if t == "?" else _name_token(text, t) for t in _list_token(text, token))
    if kind is Kind.SEATS:
        if token == "all":
            return None
        return tuple(_int_token(text, t) for t in _list_token(text, token))
    if kind is Kind.CHOICES:
        choices = []
        for item in [] if token == "-" else token.split(";"):
            seat, sep, rest = item.partition(":")
            if not sep:
                raise ActionSyntaxError(text, f"{item!r} is not seat:action")
            inner = parse(rest)
            if isinstance(inner, Committed):
                raise ActionSyntaxError(text, "choices cannot nest")
            choices.append((_int_token(text, seat), inner))
        if len(choices) > MAX_ITEMS:
            raise ActionSyntaxError(text, "too many items")
        return tuple(choices)
    raise AssertionError(kind)


def parse(text: str) -> Action:
    """Read an action from its text form; the inverse of ``str(action)``."""
    if not isinstance(text, str):
        raise ActionSyntaxError(text, "not text")
    if len(text) > 16384:
        raise ActionSyntaxError(text[:40] + "…", "too long")
    tag, _, rest = text.strip().partition(" ")
    cls = _REGISTRY.get(tag)
    if cls is None:
        raise ActionSyntaxError(text, f"unknown action {tag!r}")
    kinds = cls.KINDS
    if kinds and kinds[-1] is Kind.CHOICES:
        # the last field is a list of whole actions and takes the rest of the line
        tokens = rest.split(None, len(kinds) - 1)
    else:
        tokens = rest.split()
    if len(tokens) != len(kinds) or any(not t for t in tokens):
        raise ActionSyntaxError(text, f"{tag} takes {len(kinds)} argument(s)")
    values = [_value_of(text, k, t) for k, t in zip(kinds, tokens, strict=True)]
    return _build(cls, values, text)


# -- wire form -------------------------------------------------------------------------


def _data_of(kind: Kind, value: Any) -> Any:
    if kind in (Kind.INTS, Kind.CARDS):
        return list(value)
    if kind is Kind.SEATS:
        return None if value is None else list(value)
    if kind is Kind.CHOICES:
        return [[seat, to_data(action)] for seat, action in value]
    return value


def to_data(action: Action) -> list[Any]:
    """The wire form: ``[tag, field, ...]`` of plain values, stable across versions."""
    return [
        action.TAG,
        *(
            _data_of(kind, getattr(action, f.name))
            for f, kind in zip(dataclasses.fields(action), action.KINDS, strict=True)
        ),
    ]


def _check_int(obj: Any, value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MAX_INT:
        raise ActionSyntaxError(obj, f"{value!r} is not a valid number")
    return value


def _check_list(obj: Any, value: Any) -> list[Any]:
    if not isinstance(value, (list, tuple)) or len(value) > MAX_ITEMS:
        raise ActionSyntaxError(obj, "expected a short list")
    return list(value)


def _check_name(obj: Any, value: Any) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise ActionSyntaxError(obj, f"{value!r} is not a name")
    return value


def _from_field(obj: Any, kind: Kind, value: Any, depth: int) -> Any:
    if kind is Kind.INT:
        return _check_int(obj, value)
    if kind is Kind.INTS:
        return tuple(_check_int(obj, v) for v in _check_list(obj, value))
    if kind is Kind.NAME:
        return _check_name(obj, value)
    if kind is Kind.CARDS:
        return tuple(None if v is None else _check_name(obj, v) for v in _check_list(obj, value))
    if kind is Kind.SEATS:
        if value is None:
            return None
        return tuple(_check_int(obj, v) for v in _check_list(obj, value))
    if kind is Kind.CHOICES:
        if depth > 0:
            raise ActionSyntaxError(obj, "choices cannot nest")
        choices = []
        for item in _check_list(obj, value):
            pair = _check_list(obj, item)
            if len(pair) != 2:
                raise ActionSyntaxError(obj, "a choice is [seat, action]")
            choices.append((_check_int(obj, pair[0]), _from_data(pair[1], depth + 1)))
        return tuple(choices)
    raise AssertionError(kind)


def _from_data(obj: Any, depth: int) -> Action:
    if not isinstance(obj, (list, tuple)) or not obj or len(obj) > 16:
        raise ActionSyntaxError(obj, "an action is a non-empty list")
    tag = obj[0]
    cls = _REGISTRY.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ActionSyntaxError(obj, f"unknown action {tag!r}")
    if len(obj) - 1 != len(cls.KINDS):
        raise ActionSyntaxError(obj, f"{tag} takes {len(cls.KINDS)} argument(s)")
    values = [
        _from_field(obj, kind, value, depth) for kind, value in zip(cls.KINDS, obj[1:], strict=True)
    ]
    return _build(cls, values, obj)


def from_data(obj: Any) -> Action:
    """Read an action from its wire form, checking every field; the inverse of
    :func:`to_data`. Raises :class:`ActionSyntaxError` on anything malformed."""
    return _from_data(obj, 0)


def _build(cls: type[Action], values: Sequence[Any], source: Any) -> Action:
    try:
        return cls(*values)
    except (TypeError, ValueError) as exc:
        raise ActionSyntaxError(source, str(exc)) from exc


# -- the dealer's answers to requests --------------------------------------------------


@register
@dataclasses.dataclass(frozen=True)
class Revealed(Action):
    """The identities of ``slots`` made known to the seats ``to`` (``None``: everyone).

    A peer that may not learn them receives the same action with ``None`` in ``cards``.
    """

    slots: tuple[int, ...]
    cards: tuple[str | None, ...]
    to: tuple[int, ...] | None

    TAG: ClassVar[str] = "revealed"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS, Kind.CARDS, Kind.SEATS)

    def __post_init__(self) -> None:
        if len(self.slots) != len(self.cards):
            raise ValueError("one card per slot")

    def redacted(self) -> Revealed:
        """The same reveal as seen by a peer that may not learn the cards."""
        return Revealed(self.slots, (None,) * len(self.slots), self.to)


@register
@dataclasses.dataclass(frozen=True)
class Shuffled(Action):
    """The identities behind ``slots`` were permuted at random; nobody knows them now."""

    slots: tuple[int, ...]

    TAG: ClassVar[str] = "shuffled"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INTS,)


@register
@dataclasses.dataclass(frozen=True)
class Remixed(Action):
    """``seat`` re-mixed its own ``slots``: ``cards`` are their identities in the new order,
    known to the seats ``to`` only; every other seat knows none of them any more.

    A peer that may not learn them receives the same action with ``None`` in ``cards``.
    """

    seat: int
    slots: tuple[int, ...]
    cards: tuple[str | None, ...]
    to: tuple[int, ...]

    TAG: ClassVar[str] = "remixed"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INTS, Kind.CARDS, Kind.SEATS)

    def __post_init__(self) -> None:
        if len(self.slots) != len(self.cards):
            raise ValueError("one card per slot")
        if self.to is None or self.seat not in self.to:
            raise ValueError("the holder keeps knowing its cards")


@register
@dataclasses.dataclass(frozen=True)
class Forfeited(Action):
    """``seat`` loses the game at once: a rule breach was proven against it (``reason``),
    by a witness's evidence every peer checked. Fed by the peers, never by a seat."""

    seat: int
    reason: str

    TAG: ClassVar[str] = "forfeited"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.NAME)


#: Why a seat forfeits: the peers name the breach with a code (the same on every peer);
#: each peer says it in its own language.
FORFEIT_REASONS: dict[str, str] = {
    "false-opening": N_("a sealed choice opened to something else"),
    "illegal-choice": N_("a choice the rules do not allow"),
    "false-count": N_("a move the cards, once opened, prove against the rules"),
    "false-accusation": N_("an accusation the cards, once opened, do not bear out"),
}


#: The fields a reason's words are filled with, by name: a text is a message marked for
#: translation too (a card's title), said in the reader's language; a number as it is.
ReasonParams = tuple[tuple[str, str | int], ...]


def forfeit_words(reason: str, params: ReasonParams = ()) -> str:
    """A forfeit's or a breach's reason in words: a code of :data:`FORFEIT_REASONS`, else a
    reason the game wrote (marked for translation where it is written, its ``{fields}``
    filled from ``params``), in the reader's language.

    A game keeps the reason untranslated in its state and events, so that it reads in the
    language of whoever reads it (a peer, a spectator, a replay), not in the language the
    move was applied in."""
    words = _(FORFEIT_REASONS.get(reason, reason))
    if not params:
        return words
    fields = {name: _(value) if isinstance(value, str) else value for name, value in params}
    for text in (words, reason):  # a translation naming another field: the source text
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            continue
    return reason


@register
@dataclasses.dataclass(frozen=True)
class RandomResult(Action):
    """A fair number ``value`` in ``range(n)``."""

    n: int
    value: int

    TAG: ClassVar[str] = "random"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.INT, Kind.INT)

    def __post_init__(self) -> None:
        if not 0 <= self.value < self.n:
            raise ValueError(f"{self.value} is not in range({self.n})")


@register
@dataclasses.dataclass(frozen=True)
class Committed(Action):
    """The simultaneous choices of several seats, opened together, in seat order."""

    choices: tuple[tuple[int, Action], ...]

    TAG: ClassVar[str] = "committed"
    KINDS: ClassVar[tuple[Kind, ...]] = (Kind.CHOICES,)

    def __post_init__(self) -> None:
        seats = [seat for seat, _ in self.choices]
        if seats != sorted(set(seats)):
            raise ValueError("choices are one per seat, in seat order")


DealerAction = Revealed | Shuffled | Remixed | RandomResult | Committed | Forfeited

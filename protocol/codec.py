"""The room log's envelopes: the one place where bytes meet the protocol.

An envelope is a msgpack map ``{v, room, seq, prev, from, kind, body, sig}``:

* ``v`` — format version, :data:`VERSION`;
* ``room`` — the room id; every signature and every hash is bound to it;
* ``seq`` / ``prev`` — position in the log and the SHA-256 of the previous accepted
  envelope (:func:`genesis` for the first), so the log is a hash chain: nobody can insert,
  drop or reorder an entry without every peer noticing;
* ``from`` — the sender's player id (its Ed25519 public key);
* ``kind`` / ``body`` — what the entry says, as plain msgpack data;
* ``sig`` — the sender's Ed25519 signature over :data:`SIGN_DOMAIN` and the canonical
  packing of all the other fields, in that order.

Decoding meets untrusted bytes: it runs msgpack with hard limits, checks every type, and
accepts only the canonical encoding (the bytes must be exactly what re-packing the
decoded value gives), so one envelope has one byte string and one digest. Whatever is
wrong, :func:`decode` raises :class:`MalformedMessage` or :class:`BadSignature` and
nothing else.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]
import nacl.exceptions
import nacl.signing

from cakeparty.core.i18n import N_
from cakeparty.protocol.errors import BadChain, BadSignature, MalformedMessage
from cakeparty.protocol.looks import readable

VERSION = 1
FIELDS = ("v", "room", "seq", "prev", "from", "kind", "body", "sig")
SIGN_DOMAIN = b"cakeparty/v1/envelope\x00"
GENESIS_DOMAIN = b"cakeparty/v1/genesis\x00"

MAX_ENVELOPE_BYTES = 2 * 1024 * 1024
MAX_STR_LEN = 64 * 1024
MAX_BIN_LEN = 1024 * 1024
MAX_ARRAY_LEN = 4096
MAX_MAP_LEN = 64
MAX_DEPTH = 16
MAX_SEQ = 2**63 - 1

ROOM_RE = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
KIND_RE = re.compile(r"[a-z][a-z0-9-]{0,31}\Z")


# -- plain data --------------------------------------------------------------------------


def pack(obj: Any) -> bytes:
    """The canonical msgpack form of plain data (bin for bytes, str for text)."""
    packed: bytes = msgpack.packb(obj, use_bin_type=True)
    return packed


def _reject_ext(code: int, data: bytes) -> Any:
    raise MalformedMessage(f"msgpack extension type {code} is not allowed")


def _check_plain(obj: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise MalformedMessage(N_("data nested too deeply"))
    if obj is None or type(obj) in (bool, int, str, bytes):
        return
    if type(obj) is list:
        for item in obj:
            _check_plain(item, depth + 1)
        return
    if type(obj) is dict:
        for key, value in obj.items():
            if type(key) is not str:
                raise MalformedMessage(N_("map keys must be text"))
            _check_plain(value, depth + 1)
        return
    raise MalformedMessage(f"{type(obj).__name__} is not allowed")


def unpack(data: object) -> Any:
    """Plain data from untrusted bytes, within every limit, in canonical form only."""
    if not isinstance(data, bytes):
        raise MalformedMessage(N_("message is not bytes"))
    if len(data) > MAX_ENVELOPE_BYTES:
        raise MalformedMessage(N_("message too long"))
    try:
        unpacker = msgpack.Unpacker(
            max_buffer_size=MAX_ENVELOPE_BYTES,
            max_str_len=MAX_STR_LEN,
            max_bin_len=MAX_BIN_LEN,
            max_array_len=MAX_ARRAY_LEN,
            max_map_len=MAX_MAP_LEN,
            max_ext_len=0,
            strict_map_key=True,
            raw=False,
            use_list=True,
            ext_hook=_reject_ext,
        )
        unpacker.feed(data)
        obj = unpacker.unpack()
        consumed = unpacker.tell()
    except MalformedMessage:
        raise
    except Exception as exc:  # msgpack raises many kinds; all mean "not a message"
        raise MalformedMessage(f"not valid msgpack ({type(exc).__name__})") from exc
    if consumed != len(data):
        raise MalformedMessage(N_("trailing bytes after the message"))
    _check_plain(obj, 0)
    # msgpack allows several encodings of one value (an int in a wider format, say); only
    # the canonical one is accepted, so a relay cannot alter the bytes of a signed entry
    # without changing its digest and breaking the chain
    if pack(obj) != data:
        raise MalformedMessage(N_("not in canonical form"))
    return obj


# -- checked readers for decoded data -----------------------------------------------------


def expect_bytes(obj: Any, what: str, size: int | None = None) -> bytes:
    """``obj`` as bytes (of exactly ``size`` bytes if given)."""
    if type(obj) is not bytes or (size is not None and len(obj) != size):
        raise MalformedMessage(f"{what}: expected {size or 'some'} bytes")
    return obj


def expect_int(obj: Any, what: str, lo: int = 0, hi: int = MAX_SEQ) -> int:
    """``obj`` as an int in ``lo..hi``."""
    if type(obj) is not int or not lo <= obj <= hi:
        raise MalformedMessage(f"{what}: expected an integer in {lo}..{hi}")
    return obj


def expect_str(obj: Any, what: str, pattern: re.Pattern[str] | None = None) -> str:
    """``obj`` as text (matching ``pattern`` if given)."""
    if type(obj) is not str or (pattern is not None and not pattern.match(obj)):
        raise MalformedMessage(f"{what}: expected well-formed text")
    return obj


#: the longest display name (a player's, a spectator's)
NAME_MAX = 32


def expect_text(obj: Any, what: str, longest: int, least: int = 0) -> str:
    """``obj`` as text a screen may show: ``least`` to ``longest`` characters, each one
    printable. A line break would forge a line of its own (a seat, a chat line from
    another player); an escape sequence or a direction override would reach the
    terminal."""
    if type(obj) is not str or not least <= len(obj) <= longest or not obj.isprintable():
        raise MalformedMessage(f"{what}: expected {least} to {longest} printable characters")
    return obj


def expect_name(obj: Any, what: str = "name") -> str:
    """``obj`` as a display name: 1 to :data:`NAME_MAX` printable characters, no space at
    either end, drawn as something (not only a Hangul filler, say: a seat nobody can read
    is no seat's name). One that looks like another player's name is that name."""
    name = expect_text(obj, what, NAME_MAX, 1)
    if name != name.strip():
        raise MalformedMessage(f"{what}: a name has no space at either end")
    if not readable(name):
        raise MalformedMessage(f"{what}: a name is drawn as something, not blanks only")
    return name


def shown_line(text: str, longest: int) -> str:
    """``text`` cut to ``longest`` characters, each one that is not printable (a line
    break, a tab, an escape sequence, a direction override) made a space."""
    return "".join(c if c.isprintable() else " " for c in text[:longest])


def expect_list(obj: Any, what: str, size: int | None = None) -> list[Any]:
    """``obj`` as a list (of exactly ``size`` items if given)."""
    if type(obj) is not list or (size is not None and len(obj) != size):
        raise MalformedMessage(f"{what}: expected a list of {size or 'some'} items")
    return obj


# -- envelopes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Envelope:
    """One signed entry of a room log. ``sender`` is the wire's ``from``."""

    v: int
    room: str
    seq: int
    prev: bytes
    sender: bytes
    kind: str
    body: Any
    sig: bytes

    def unsigned(self) -> dict[str, Any]:
        """Every field but ``sig``, in wire order."""
        return {
            "v": self.v,
            "room": self.room,
            "seq": self.seq,
            "prev": self.prev,
            "from": self.sender,
            "kind": self.kind,
            "body": self.body,
        }

    def signed_bytes(self) -> bytes:
        """What the signature covers."""
        return SIGN_DOMAIN + pack(self.unsigned())

    def to_bytes(self) -> bytes:
        """The canonical wire form."""
        return pack({**self.unsigned(), "sig": self.sig})

    def digest(self) -> bytes:
        """SHA-256 of the wire form: the next envelope's ``prev``."""
        return hashlib.sha256(self.to_bytes()).digest()


def genesis(room: str) -> bytes:
    """The ``prev`` of a room's first envelope."""
    return hashlib.sha256(GENESIS_DOMAIN + room.encode()).digest()


def seal(
    key: nacl.signing.SigningKey, *, room: str, seq: int, prev: bytes, kind: str, body: Any
) -> Envelope:
    """A new envelope signed with ``key``. ``body`` must be plain data (no floats)."""
    if not ROOM_RE.match(room) or not KIND_RE.match(kind):
        raise ValueError(f"bad room or kind: {room!r}, {kind!r}")
    if not 0 <= seq <= MAX_SEQ or len(prev) != 32:
        raise ValueError("bad seq or prev")
    _check_plain(body, 1)
    draft = Envelope(VERSION, room, seq, prev, bytes(key.verify_key), kind, body, b"")
    sig = key.sign(draft.signed_bytes()).signature
    return Envelope(VERSION, room, seq, prev, draft.sender, kind, body, sig)


def encode(envelope: Envelope) -> bytes:
    """The wire form of ``envelope``."""
    return envelope.to_bytes()


def decode(data: object, *, verify: bool = True) -> Envelope:
    """An envelope from untrusted bytes, its signature checked unless ``verify`` is false.

    Raises :class:`MalformedMessage` for anything that is not a well-formed envelope, and
    :class:`BadSignature` (naming nobody) for a signature that does not verify.
    """
    obj = unpack(data)
    if type(obj) is not dict or tuple(obj) != FIELDS:
        raise MalformedMessage(N_("not an envelope"))
    v = expect_int(obj["v"], "v")
    if v != VERSION:
        raise MalformedMessage(f"unsupported envelope version {v}")
    envelope = Envelope(
        v=v,
        room=expect_str(obj["room"], "room", ROOM_RE),
        seq=expect_int(obj["seq"], "seq"),
        prev=expect_bytes(obj["prev"], "prev", 32),
        sender=expect_bytes(obj["from"], "from", 32),
        kind=expect_str(obj["kind"], "kind", KIND_RE),
        body=obj["body"],
        sig=expect_bytes(obj["sig"], "sig", 64),
    )
    if verify:
        check_signature(envelope)
    return envelope


def check_signature(envelope: Envelope) -> None:
    """Raise :class:`BadSignature` unless ``envelope.sig`` is its sender's signature."""
    try:
        nacl.signing.VerifyKey(envelope.sender).verify(envelope.signed_bytes(), envelope.sig)
    except (nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
        # not evidence against the named sender: anyone can put any ``from`` on bytes
        raise BadSignature(N_("signature does not verify"), peer=None, seq=envelope.seq) from exc


def check_next(envelope: Envelope, *, room: str, seq: int, prev: bytes) -> None:
    """Raise :class:`BadChain` unless ``envelope`` is entry ``seq`` of ``room`` following the
    entry whose digest is ``prev``. A replayed envelope fails here: its ``seq``/``prev``
    point at a place in the log that is already taken."""
    if envelope.room != room:
        raise BadChain(N_("envelope is for another room"), peer=envelope.sender, seq=envelope.seq)
    if envelope.seq != seq or envelope.prev != prev:
        raise BadChain(
            f"envelope does not follow entry {seq - 1}", peer=envelope.sender, seq=envelope.seq
        )

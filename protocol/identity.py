"""A player's long-lived identity: an Ed25519 key kept in the user config dir.

The player id *is* the 32-byte public key; people compare it as a short fingerprint shown
beside the display name (anyone can pick any name, nobody can pick a fingerprint). The
key signs every envelope the player sends, and its X25519 twin opens NaCl boxes meant for
this player alone (a card shown to one seat).

This key is never used for the mental deck: game keys are fresh per game and published at
the end for the audit, while this one must stay secret for as long as the player exists.
"""

from __future__ import annotations

import base64
import contextlib
import getpass
import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

import nacl.exceptions
import nacl.public
import nacl.signing
import platformdirs

from cakeparty.core.i18n import N_, _
from cakeparty.protocol.codec import NAME_MAX
from cakeparty.protocol.errors import BadBox, MalformedMessage
from cakeparty.protocol.group import RandomBytes
from cakeparty.protocol.journal import write_private
from cakeparty.protocol.looks import readable

ENV_VAR = "CAKEPARTY_CONFIG_DIR"
KEY_FILE = "identity.json"
FILE_VERSION = 1


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where the identity lives: ``override``, else ``$CAKEPARTY_CONFIG_DIR``, else the
    platform's user config dir for "cakeparty"."""
    if override is not None:
        return Path(override)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return Path(platformdirs.user_config_dir("cakeparty"))


def fingerprint(player_id: bytes) -> str:
    """``XXXX-XXXX-XXXX-XXXX``: the first 80 bits of SHA-256 of the key, in base32."""
    text = base64.b32encode(hashlib.sha256(player_id).digest()).decode()[:16]
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


def check_name(name: str) -> str:
    """A display name, trimmed: 1 to 32 printable characters, drawn as something."""
    name = name.strip()
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise ValueError(f"a display name has 1 to {NAME_MAX} printable characters")
    if not readable(name):
        raise ValueError("a display name is drawn as something, not blanks only")
    return name


def default_name() -> str:
    """The login name, or "player"."""
    try:
        return check_name(getpass.getuser()[:NAME_MAX])
    except (OSError, KeyError, ValueError):
        return "player"


def curve_public_key(player_id: bytes) -> nacl.public.PublicKey:
    """The X25519 key of a player id; :class:`MalformedMessage` if it is no valid key."""
    try:
        return nacl.signing.VerifyKey(player_id).to_curve25519_public_key()
    except (nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
        raise MalformedMessage(N_("not a valid player id"), peer=bytes(player_id)) from exc


@dataclass(frozen=True)
class Identity:
    """A player's signing key and display name."""

    signing_key: nacl.signing.SigningKey = field(repr=False)
    name: str

    @classmethod
    def generate(cls, name: str, random_bytes: RandomBytes = os.urandom) -> Identity:
        """A new identity."""
        return cls(nacl.signing.SigningKey(random_bytes(32)), check_name(name))

    @property
    def player_id(self) -> bytes:
        """The 32-byte public key that identifies this player everywhere."""
        return bytes(self.signing_key.verify_key)

    @property
    def fingerprint(self) -> str:
        """The short form of :attr:`player_id`."""
        return fingerprint(self.player_id)

    def __str__(self) -> str:
        return f"{self.name} ({self.fingerprint})"

    def with_name(self, name: str) -> Identity:
        """The same key under another display name."""
        return Identity(self.signing_key, check_name(name))

    def box_for(self, peer: bytes) -> nacl.public.Box:
        """The NaCl box shared with the player ``peer`` (both directions use it)."""
        mine = self.signing_key.to_curve25519_private_key()
        return nacl.public.Box(mine, curve_public_key(peer))

    def seal_for(
        self, peer: bytes, message: bytes, random_bytes: RandomBytes = os.urandom
    ) -> bytes:
        """``message`` encrypted and authenticated for ``peer`` only (nonce included).

        The box proves to ``peer`` that this player wrote it; it does not say in which
        room or at which move, so put it inside a signed envelope, which does."""
        box = self.box_for(peer)
        return bytes(box.encrypt(message, random_bytes(nacl.public.Box.NONCE_SIZE)))

    def open_from(self, peer: bytes, data: bytes) -> bytes:
        """The message ``peer`` sealed for this player; :class:`BadBox` names ``peer`` if
        it does not open (forged, altered, or meant for someone else)."""
        box = self.box_for(peer)
        try:
            return box.decrypt(data)
        except (nacl.exceptions.CryptoError, ValueError, TypeError) as exc:
            raise BadBox(N_("private message does not open"), peer=bytes(peer)) from exc


def save(identity: Identity, directory: str | os.PathLike[str] | None = None) -> Path:
    """Store ``identity`` (readable by this user only); returns the file's path."""
    path = _key_path(directory)
    write_private(path, _record(identity))
    return path


def _key_path(directory: str | os.PathLike[str] | None) -> Path:
    folder = config_dir(directory)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    return folder / KEY_FILE


def _record(identity: Identity) -> str:
    record = {
        "version": FILE_VERSION,
        "name": identity.name,
        "seed": bytes(identity.signing_key).hex(),
    }
    return json.dumps(record, indent=2) + "\n"


def _save_new(identity: Identity, directory: str | os.PathLike[str] | None) -> Identity:
    """Store a new ``identity`` unless another process stored one meanwhile (two windows
    opened at once on a fresh install, a new SSH key's first two sessions): then the one
    stored first is this user's, and is returned. Replacing it would leave the first
    process playing with a key no longer on disk."""
    path = _key_path(directory)
    fresh = path.with_name(f"{KEY_FILE}.{os.getpid()}.new")
    write_private(fresh, _record(identity))
    try:
        os.link(fresh, path)  # only if there is none: a whole file or nothing
    except FileExistsError:
        stored = load(directory)
        if stored is None:  # gone again meanwhile: store this one after all
            write_private(path, _record(identity))
            return identity
        return stored
    finally:
        with contextlib.suppress(OSError):
            fresh.unlink()
    return identity


class KeyFileError(ValueError):
    """The player's key file is there but gives no key (damaged, or not readable). It is
    never replaced unasked: the fingerprint others know the player by would change
    without a word."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(str(path))

    def __str__(self) -> str:
        return _(
            "your player key {path} is damaged or unreadable: move it away and a new key "
            "is made (others then see a new fingerprint)"
        ).format(path=self.path)


def load(directory: str | os.PathLike[str] | None = None) -> Identity | None:
    """The stored identity, or ``None`` if there is none yet; :class:`KeyFileError` if
    the file is there but gives no key."""
    path = config_dir(directory) / KEY_FILE
    try:
        text = path.read_text()
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise KeyFileError(path) from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        with contextlib.suppress(OSError):
            path.chmod(0o600)  # a secret key must not stay readable by others
    try:
        record = json.loads(text)
        if record["version"] != FILE_VERSION:
            raise ValueError("unknown version")
        seed = bytes.fromhex(record["seed"])
        if len(seed) != 32:
            raise ValueError("bad seed")
        name = record["name"]
        if type(name) is not str:
            raise TypeError("the name is no text")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise KeyFileError(path) from exc
    try:
        name = check_name(name)
    except ValueError:  # a name this version refuses (one drawn blank): the key stays
        name = default_name()
    return Identity(nacl.signing.SigningKey(seed), name)


def load_or_create(
    name: str | None = None,
    *,
    directory: str | os.PathLike[str] | None = None,
    random_bytes: RandomBytes = os.urandom,
) -> Identity:
    """This user's identity, created (and saved) on first use. A ``name`` given renames
    the stored identity; the key never changes."""
    identity = load(directory)
    if identity is None:
        identity = _save_new(Identity.generate(name or default_name(), random_bytes), directory)
    if name is not None and check_name(name) != identity.name:
        identity = identity.with_name(name)
        save(identity, directory)
    return identity

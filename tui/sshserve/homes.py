"""Where the SSH server keeps its host key and each player's home.

A player is their SSH key: the home's name is the SHA-256 of the key's public blob, so it
comes from the key alone and never from anything the client typed (user name, command),
and no player can name another's folder. Every folder is created 0700.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import asyncssh

HOST_KEY_FILE = "ssh_host_ed25519_key"
PLAYERS_DIR = "ssh-players"


def server_dir() -> Path:
    """The server's own data dir (``$CAKEPARTY_DATA_DIR`` and the like are honoured)."""
    from cakeparty.protocol.journal import data_dir

    return data_dir()


def private_dir(path: Path) -> Path:
    """``path`` made (with its parents) and set to 0700."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    path.chmod(0o700)
    return path


def load_host_key(path: Path | None) -> asyncssh.SSHKey:
    """The server's host key: ``path``, which must exist, or the one in the data dir,
    made on the first run and kept (0600) so clients recognise the server next time."""
    if path is not None:
        return asyncssh.read_private_key(path)
    default = private_dir(server_dir()) / HOST_KEY_FILE
    if not default.exists():
        key = asyncssh.generate_private_key("ssh-ed25519", comment="cakeparty serve-ssh")
        fd = os.open(default, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
        return key
    return asyncssh.read_private_key(default)


@dataclass(frozen=True)
class PlayerHome:
    """One SSH key's settings (config) and journals (data)."""

    key_id: str  # hex SHA-256 of the public key blob
    fingerprint: str  # what ``ssh-keygen -l`` prints for the key
    root: Path

    @property
    def config(self) -> Path:
        return self.root / "config"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @classmethod
    def of(cls, key: asyncssh.SSHKey, base: Path | None = None) -> PlayerHome:
        key_id = hashlib.sha256(key.public_data).hexdigest()
        base = base if base is not None else server_dir() / PLAYERS_DIR
        return cls(key_id, key.get_fingerprint("sha256"), base / key_id)

    def make(self) -> PlayerHome:
        """Create the home (0700 all the way down from the players' folder)."""
        private_dir(self.root.parent)
        for folder in (self.root, self.config, self.data):
            private_dir(folder)
        return self

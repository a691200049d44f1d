"""Cake Party's peer-to-peer protocol: no trusted server.

The cryptographic foundation, one concern per module:

* :mod:`~cakeparty.protocol.group` — the prime-order subgroup of Ed25519 (libsodium);
* :mod:`~cakeparty.protocol.elgamal` — the mental deck: ciphertexts, mixes, shares;
* :mod:`~cakeparty.protocol.proofs` — key, decryption-share and shuffle proofs;
* :mod:`~cakeparty.protocol.commit` — commit-reveal and fair joint randomness;
* :mod:`~cakeparty.protocol.codec` — signed, hash-chained envelopes of the room log;
* :mod:`~cakeparty.protocol.wire` — wire forms of the values above;
* :mod:`~cakeparty.protocol.identity` — the player's long-lived key and private boxes;
* :mod:`~cakeparty.protocol.errors` — the one error family, naming the cheating seat.

Nothing here imports a user interface.
"""

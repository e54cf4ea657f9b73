"""The signer port: a key kept outside the database that signs checkpoints and receipts.

The point of signing is that whoever can rewrite the database (a superuser who recomputes
every hash) still cannot sign: the key lives in a file the database never sees. The service
only needs to sign bytes and to name the key; verifying is a plain function of a public key
(``SignatureCheck``), so the offline verifier needs no key at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

# (public key, message, signature) -> whether the signature is the key's over the message.
SignatureCheck = Callable[[bytes, bytes, bytes], bool]


class Signer(Protocol):
    @property
    def name(self) -> str:
        """The key's name, as it appears in signed notes (e.g. ``gin-rummy``)."""
        ...

    @property
    def public_key(self) -> bytes:
        """The raw 32-byte Ed25519 public key."""
        ...

    def sign(self, message: bytes) -> bytes:
        """A 64-byte Ed25519 signature of ``message``."""
        ...

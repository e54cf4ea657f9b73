"""Ed25519 signing with ``cryptography``, the key read from a PEM file (PKCS#8).

``key_from_file`` creates the file on first use (the embedded/dev default) and never replaces
one that exists: several server workers may start at once, so the new key is written to a
temporary file and linked into place, and a worker that loses the race reads the winner's key.
A key made with ``openssl genpkey -algorithm ed25519 -out key.pem`` works as well.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

DEFAULT_KEY_NAME = "gin-rummy"


class Ed25519Signer:
    def __init__(self, private_key: Ed25519PrivateKey, name: str = DEFAULT_KEY_NAME) -> None:
        self._key = private_key
        self._name = name
        self._public = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls, name: str = DEFAULT_KEY_NAME) -> Ed25519Signer:
        return cls(Ed25519PrivateKey.generate(), name)

    @property
    def name(self) -> str:
        return self._name

    @property
    def public_key(self) -> bytes:
        return self._public

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def key_from_file(
    path: Path, name: str = DEFAULT_KEY_NAME, *, create: bool = True
) -> Ed25519Signer:
    """The signer of the key in ``path``; with ``create``, a new key is made if there is none."""
    if create and not path.exists():
        _create_key_file(path)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return Ed25519Signer(key, name)


def _create_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".signing-key-")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(pem)
        os.chmod(temporary, 0o600)
        with contextlib.suppress(FileExistsError):  # another worker made it first: use theirs
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def verify_ed25519(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """``service.ports.signer.SignatureCheck`` for Ed25519."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True

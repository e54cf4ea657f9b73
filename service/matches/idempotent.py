"""Creations that a retry cannot repeat: the same ``Idempotency-Key`` and request get the first
answer back, seat tokens included, for ``WINDOW`` after the first creation.

The answer holds seat tokens, so it is never stored as written: it is sealed with AES-GCM under
a key derived (HKDF-SHA256, a random salt per key) from the Idempotency-Key, which is stored
only as a hash. Reading the database alone does not give the tokens; a retry, which brings the
key again, does. When the window is over the sealed answer is wiped (every creation with a key
wipes the expired ones, and none is read after its window even before it is wiped).

The encryption is ``cryptography``'s, like the signatures of ``adapters/ed25519_signer.py``:
pure computation on what the request brings, so no port stands in front of it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import msgspec
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.errors import IdempotencyKeyInFlight, IdempotencyKeyReused, IdempotencyWindowOver
from service.ports.match_creations import MatchCreations, PastCreation

WINDOW = timedelta(hours=24)
# Longer than any creation takes; a claim older than this belongs to a process that died.
HOLD = timedelta(seconds=60)
NONCE = bytes(12)  # each sealing key is used once (its salt is fresh), so a fixed nonce is safe

T = TypeVar("T")


def fingerprint(scope: str, request: object) -> bytes:
    """What a retry under the same key must repeat: who sends it and what it asks for."""
    return hashlib.sha256(msgspec.json.encode([scope, request])).digest()


class IdempotentCreations:
    def __init__(self, creations: MatchCreations, window: timedelta = WINDOW) -> None:
        self._creations = creations
        self._window = window

    async def once(
        self,
        *,
        scope: str,
        key: str | None,
        request: object,
        create: Callable[[], Awaitable[T]],
        answer: type[T],
        upcast: Callable[[Any], Any] = lambda kept: kept,
    ) -> T:
        """``create()``'s answer, made once per ``scope`` and ``key``: a retry with the same
        request gets it again; a different request with the key is refused. Without a key,
        made each time it is asked for."""
        if key is None:
            return await create()
        key_hash = hashlib.sha256(f"{scope}\0{key}".encode()).digest()
        print_ = fingerprint(scope, request)
        salt = os.urandom(16)
        past = await self._creations.claim(key_hash, print_, salt, HOLD)
        if past is not None:
            return _again(key, print_, past, answer, upcast)
        try:
            made = await create()
        except BaseException:
            await self._creations.release(key_hash)
            raise
        sealed = AESGCM(_sealing_key(key, salt)).encrypt(NONCE, msgspec.json.encode(made), None)
        await self._creations.finish(key_hash, sealed, self._window)
        return made


def _again(
    key: str, print_: bytes, past: PastCreation, answer: type[T], upcast: Callable[[Any], Any]
) -> T:
    if past.fingerprint != print_:
        raise IdempotencyKeyReused("this Idempotency-Key was already used for a different request")
    if past.state == "running":
        raise IdempotencyKeyInFlight(
            "the first request with this Idempotency-Key is still being handled; send it again"
        )
    if past.sealed is None:
        raise IdempotencyWindowOver(
            f"answers are kept for {WINDOW}; what the first request created stands, and can "
            "be found by its external ref"
        )
    opened = AESGCM(_sealing_key(key, past.salt)).decrypt(NONCE, past.sealed, None)
    kept = msgspec.json.decode(opened)
    upcast_kept = upcast(kept)
    if upcast_kept is not kept:  # decoded again from JSON, whose object keys are strings
        opened = msgspec.json.encode(upcast_kept)
    return msgspec.json.decode(opened, type=answer)


def _sealing_key(key: str, salt: bytes) -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=b"gin creation answer")
    return hkdf.derive(key.encode())

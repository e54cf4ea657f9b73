"""Seat tokens and invite codes: random secrets the server keeps only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_PREFIX = "gin_"
INVITE_PREFIX = "inv_"


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def new_invite_code() -> str:
    return INVITE_PREFIX + secrets.token_urlsafe(12)


def secret_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def secret_matches(secret: str, stored_hash: bytes) -> bool:
    # Constant time, so response timing says nothing about how much of a guess was right.
    return hmac.compare_digest(secret_hash(secret), stored_hash)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None if there is none."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token

"""Signed deliveries: ``X-Gin-Signature: sha256=<hex HMAC-SHA256(secret, timestamp "." body)>``.

The timestamp (``X-Gin-Timestamp``, Unix seconds) is inside the signed text, so a receiver that
refuses old timestamps cannot be fed a captured delivery again later.
"""

from __future__ import annotations

import hashlib
import hmac

TIMESTAMP_HEADER = "X-Gin-Timestamp"
SIGNATURE_HEADER = "X-Gin-Signature"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def signature_headers(secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }


def verify(
    secret: str, body: bytes, timestamp: str, signed: str, *, now: float, tolerance: float = 300
) -> bool:
    """What a receiver checks: a fresh timestamp and a matching signature."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, int(timestamp), body), signed)

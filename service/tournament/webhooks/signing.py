"""Signed deliveries, by the Standard Webhooks scheme (``webhook-id``, ``webhook-timestamp``,
``webhook-signature: v1,<base64 HMAC-SHA256>``), and for this release also by the scheme of
our own it replaces: ``X-Gin-Signature: sha256=<hex HMAC-SHA256(secret, timestamp "." body)>``.

The standard's signature comes from the ``standardwebhooks`` library, the one receivers verify
with, so both ends compute the same thing by the same code rather than by our reading of the
specification. Its key is the secret's base64 after ``whsec_`` (what the service makes); a
secret an operator chose in another form is used as its UTF-8 bytes, and receivers pass
``Webhook(secret.encode())``.

The timestamp is inside the signed text, so a receiver that refuses old timestamps cannot be
fed a captured delivery again later.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from datetime import UTC, datetime

from standardwebhooks import Webhook

TIMESTAMP_HEADER = "X-Gin-Timestamp"
SIGNATURE_HEADER = "X-Gin-Signature"
SECRET_PREFIX = "whsec_"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def signature_headers(secret: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: signature(secret, timestamp, body),
    }


def standard_headers(
    secret: str, message_id: str, timestamp: int, body: bytes, *, previous: str | None = None
) -> dict[str, str]:
    """The Standard Webhooks headers; ``message_id`` is the same on every attempt. With
    ``previous`` (a rotated-out secret in its overlap) the signature header holds both
    signatures, space-separated as the standard allows, so a receiver with either verifies."""
    at = datetime.fromtimestamp(timestamp, UTC)
    signed = signer(secret).sign(message_id, at, body.decode())
    if previous is not None:
        signed += " " + signer(previous).sign(message_id, at, body.decode())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signed,
    }


def signer(secret: str) -> Webhook:
    """The Standard Webhooks signer a receiver makes from the same secret."""
    if secret.startswith(SECRET_PREFIX):
        try:
            base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
            return Webhook(secret)
        except binascii.Error:
            pass
    return Webhook(secret.encode())


def verify(
    secret: str, body: bytes, timestamp: str, signed: str, *, now: float, tolerance: float = 300
) -> bool:
    """What a receiver checks: a fresh timestamp and a matching signature."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, int(timestamp), body), signed)

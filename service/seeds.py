"""Where each shuffle's seed material comes from.

A seed is HMAC-SHA256 keyed by the match's server secret (random, kept server-side, never in an
event or a response) over the step it is for and the entropy each seat contributed, so neither
the server alone before the match nor a seat alone can choose a deal. Kept in this one function
so a provably-fair scheme (commit-reveal) can replace it in one place.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

SECRET_BYTES = 32


def new_server_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def derive_seed(server_secret: bytes, seat_entropy: Sequence[str], step: str) -> str:
    """Hex seed material for one shuffle; ``step`` names it, e.g. ``"cut"`` or ``"deal:3"``."""
    message = bytearray()
    for part in (step, *seat_entropy):
        encoded = part.encode()
        # Length prefixes keep ("ab", "c") and ("a", "bc") from giving the same message.
        message += len(encoded).to_bytes(4, "big") + encoded
    return hmac.new(server_secret, bytes(message), hashlib.sha256).hexdigest()

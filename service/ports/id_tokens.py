"""The ID token port: who an OpenID Connect provider says signed in.

The verifier checks the token against the issuers the operator trusts (signature by the
issuer's published keys, ``iss``, ``aud``, ``exp``, ``nbf``, ``iat``, allowed algorithms only)
and raises the ``service.errors`` refusal that says what was wrong, never what the token held.
"""

from __future__ import annotations

from typing import Protocol

import msgspec


class VerifiedSubject(msgspec.Struct, frozen=True):
    issuer: str
    subject: str


class IdTokenVerifier(Protocol):
    async def verify(self, id_token: str) -> VerifiedSubject: ...

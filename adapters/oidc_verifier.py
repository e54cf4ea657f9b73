"""ID tokens verified with PyJWT against the issuers the operator trusts.

PyJWT (with ``cryptography``, already the service's) does the signature and the registered
claims; this module chooses the issuer and its key and says which refusal a failure is:

- the issuer is read from the token before anything is trusted only to choose which of the
  configured issuers to verify against; then ``iss`` is verified like every other claim;
- the algorithm must be one the issuer allows, all asymmetric (``none`` and HMAC never are, so a
  public key can never be used as an HMAC secret), and fit the key's type;
- the key is the JWKS key named by ``kid`` (or the only one, if the token names none). A URL's
  keys are cached (``PyJWKClient``, for ``jwks_cache_seconds``) and fetched again, once for all
  verifications waiting, when a token names a key not among them: that is how a provider's key
  rotation arrives. Such a fetch comes at most once per ``REFETCH_COOLDOWN_SECONDS``, so tokens
  naming made-up keys cannot turn every sign-in into a request to the provider. A file's keys
  are read again when the file changes.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt import PyJWK, PyJWKClient, PyJWKSet

from service.accounts.settings import TrustedIssuer
from service.errors import (
    IdTokenExpired,
    IdTokenWrongAudience,
    InvalidIdToken,
    IssuerUnavailable,
    UnknownIssuer,
)
from service.ports.id_tokens import VerifiedSubject

REQUIRED_CLAIMS = ["iss", "sub", "aud", "exp", "iat"]
FETCH_TIMEOUT_SECONDS = 5
REFETCH_COOLDOWN_SECONDS = 10.0


def _fits(algorithm: str, key: object) -> bool:
    if algorithm.startswith(("RS", "PS")):
        return isinstance(key, rsa.RSAPublicKey)
    if algorithm.startswith("ES"):
        return isinstance(key, ec.EllipticCurvePublicKey)
    return False


@dataclass
class _Keys:
    """One issuer's keys, from its JWKS URL or file."""

    trusted: TrustedIssuer
    cache_seconds: int
    cooldown_seconds: float
    client: PyJWKClient | None = None
    refetched_at: float | None = None  # time.monotonic() of the last fetch for an unknown key
    file_keys: tuple[float, PyJWKSet] | None = None
    refreshing: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        if self.trusted.jwks_url is not None:
            self.client = PyJWKClient(
                self.trusted.jwks_url,
                cache_jwk_set=True,
                lifespan=self.cache_seconds,
                timeout=FETCH_TIMEOUT_SECONDS,
            )

    def _read(self, refresh: bool) -> PyJWKSet:
        try:
            if self.client is not None:
                return self.client.get_jwk_set(refresh=refresh)
            assert self.trusted.jwks_file is not None
            changed = os.stat(self.trusted.jwks_file).st_mtime
            if self.file_keys is None or self.file_keys[0] != changed or refresh:
                with open(self.trusted.jwks_file, encoding="utf-8") as document:
                    self.file_keys = (changed, PyJWKSet.from_json(document.read()))
            return self.file_keys[1]
        except (jwt.PyJWKClientError, jwt.exceptions.PyJWKSetError, OSError, ValueError):
            raise IssuerUnavailable("the issuer's keys could not be read") from None

    async def key(self, kid: str | None) -> PyJWK:
        found = _choose(await asyncio.to_thread(self._read, False), kid)
        if found is None:
            # A key not seen yet: the issuer may have rotated. Verifications arriving together
            # wait for one fetch.
            async with self.refreshing:
                found = _choose(await asyncio.to_thread(self._read, False), kid)
                now = time.monotonic()
                cooled = (
                    self.refetched_at is None or now - self.refetched_at >= self.cooldown_seconds
                )
                if found is None and cooled:
                    self.refetched_at = now
                    found = _choose(await asyncio.to_thread(self._read, True), kid)
        if found is None:
            raise InvalidIdToken("the token is not signed by any of the issuer's keys")
        return found


def _choose(keys: PyJWKSet, kid: str | None) -> PyJWK | None:
    usable = [key for key in keys.keys if key.public_key_use in (None, "sig")]
    if kid is None:
        return usable[0] if len(usable) == 1 else None
    return next((key for key in usable if key.key_id == kid), None)


class PyJwtVerifier:
    def __init__(
        self,
        issuers: Iterable[TrustedIssuer],
        *,
        leeway_seconds: int,
        cache_seconds: int,
        refetch_cooldown_seconds: float = REFETCH_COOLDOWN_SECONDS,
    ) -> None:
        self._issuers = {
            trusted.issuer: _Keys(trusted, cache_seconds, refetch_cooldown_seconds)
            for trusted in issuers
        }
        self._leeway = leeway_seconds

    async def verify(self, id_token: str) -> VerifiedSubject:
        try:
            header = jwt.get_unverified_header(id_token)
            unverified: dict[str, Any] = jwt.decode(id_token, options={"verify_signature": False})
        except jwt.InvalidTokenError:
            raise InvalidIdToken("this is not a signed JWT") from None
        issuer = unverified.get("iss")
        if not isinstance(issuer, str):
            raise InvalidIdToken("the token names no issuer")
        keys = self._issuers.get(issuer)
        if keys is None:
            raise UnknownIssuer("the token's issuer is not one this service trusts")
        algorithm = header.get("alg")
        if algorithm not in keys.trusted.algorithms:
            raise InvalidIdToken("the token's algorithm is not one this issuer may use")
        kid = header.get("kid")
        key = await keys.key(kid if isinstance(kid, str) else None)
        if not _fits(algorithm, key.key):
            raise InvalidIdToken("the token's algorithm does not fit the issuer's key")
        try:
            claims: dict[str, Any] = jwt.decode(
                id_token,
                key.key,
                algorithms=[algorithm],
                audience=keys.trusted.audience,
                issuer=keys.trusted.issuer,
                leeway=self._leeway,
                options={"require": REQUIRED_CLAIMS},
            )
        except jwt.ExpiredSignatureError:
            raise IdTokenExpired("the token has expired") from None
        except jwt.InvalidAudienceError:
            raise IdTokenWrongAudience("the token was issued for another audience") from None
        except jwt.InvalidIssuerError:
            raise UnknownIssuer("the token's issuer is not one this service trusts") from None
        except jwt.ImmatureSignatureError:
            raise InvalidIdToken("the token is not valid yet") from None
        except jwt.InvalidTokenError:
            raise InvalidIdToken("the token's signature or claims do not verify") from None
        subject = claims.get("sub")
        if not isinstance(subject, str) or not subject or len(subject) > 255:
            raise InvalidIdToken("the token names no subject")
        return VerifiedSubject(keys.trusted.issuer, subject)

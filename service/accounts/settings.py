"""How long sessions last and which identity providers are trusted: the operator's choice, read
from the environment by ``web.settings`` (docs/operations.md, docs/api.md "Accounts")."""

from __future__ import annotations

from datetime import timedelta

import msgspec

# Asymmetric signatures only: an HMAC algorithm would take the issuer's public key as a shared
# secret (the key-confusion attack), and "none" is no signature at all.
ALLOWED_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384")


class TrustedIssuer(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An OpenID Connect provider whose ID tokens sign players in. Its keys are a JWKS document
    at ``jwks_url`` (fetched, cached, fetched again for a key id it has not seen) or in
    ``jwks_file``: exactly one of the two."""

    issuer: str
    audience: str
    jwks_url: str | None = None
    jwks_file: str | None = None
    algorithms: tuple[str, ...] = ALLOWED_ALGORITHMS

    def __post_init__(self) -> None:
        if not self.issuer or not self.audience:
            raise ValueError("an issuer needs its issuer and audience")
        if (self.jwks_url is None) == (self.jwks_file is None):
            raise ValueError("an issuer needs exactly one of jwks_url and jwks_file")
        if not self.algorithms or any(alg not in ALLOWED_ALGORITHMS for alg in self.algorithms):
            raise ValueError(f"algorithms must be among {', '.join(ALLOWED_ALGORITHMS)}")


class AccountSettings(msgspec.Struct, frozen=True, kw_only=True):
    access_seconds: int = 15 * 60
    refresh_seconds: int = 30 * 24 * 3600
    # How far a provider's clock may be from ours when exp, nbf and iat are checked.
    leeway_seconds: int = 60
    # How long fetched keys are kept before they are fetched again.
    jwks_cache_seconds: int = 300
    issuers: tuple[TrustedIssuer, ...] = ()

    @property
    def access_lifetime(self) -> timedelta:
        return timedelta(seconds=self.access_seconds)

    @property
    def refresh_lifetime(self) -> timedelta:
        return timedelta(seconds=self.refresh_seconds)


def issuers_from_json(text: str) -> tuple[TrustedIssuer, ...]:
    """A JSON list of issuers, each named once (``GIN_OIDC_ISSUERS``); empty text: none.
    Raises ``ValueError`` for anything else."""
    if not text.strip():
        return ()
    try:
        issuers = msgspec.json.decode(text, type=tuple[TrustedIssuer, ...])
    except msgspec.DecodeError as error:  # a ValidationError is one
        raise ValueError(text) from error
    if len({trusted.issuer for trusted in issuers}) != len(issuers):
        raise ValueError(text)
    return issuers

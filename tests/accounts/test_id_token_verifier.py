"""ID tokens from a real provider on a loopback port, verified by the service's verifier: what
it accepts, and each attack it refuses with its own kind."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.oidc_verifier import PyJwtVerifier
from service.accounts.settings import TrustedIssuer
from service.errors import (
    IdTokenExpired,
    IdTokenWrongAudience,
    InvalidIdToken,
    IssuerUnavailable,
    ServiceError,
    UnknownIssuer,
)
from service.ports.id_tokens import VerifiedSubject
from tests.accounts.oidc_provider import AUDIENCE, HOUR, Provider, new_key, running_provider

LEEWAY = 60


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider() as running:
        yield running


@pytest.fixture(scope="module")
def stranger() -> Iterator[Provider]:
    """A provider the service does not trust."""
    with running_provider("ES256") as running:
        yield running


def trusting(*providers: Provider, leeway: int = LEEWAY) -> PyJwtVerifier:
    return PyJwtVerifier(
        [TrustedIssuer(issuer=p.issuer, audience=AUDIENCE, jwks_url=p.jwks_url) for p in providers],
        leeway_seconds=leeway,
        cache_seconds=300,
    )


async def refused(verifier: PyJwtVerifier, token: str, kind: type[ServiceError]) -> str:
    with pytest.raises(kind) as refusal:
        await verifier.verify(token)
    assert type(refusal.value) is kind
    return str(refusal.value)


async def test_a_token_of_a_trusted_issuer_names_its_subject(provider: Provider) -> None:
    subject = await trusting(provider).verify(provider.id_token("user-1"))

    assert subject == VerifiedSubject(provider.issuer, "user-1")


async def test_an_elliptic_curve_key_verifies_too(stranger: Provider) -> None:
    assert await trusting(stranger).verify(stranger.id_token("ec-user")) == VerifiedSubject(
        stranger.issuer, "ec-user"
    )


async def test_alg_none_is_refused(provider: Provider) -> None:
    await refused(trusting(provider), provider.unsigned_token("user-1"), InvalidIdToken)


async def test_hmac_keyed_with_the_public_key_is_refused(provider: Provider) -> None:
    await refused(trusting(provider), provider.hmac_with_public_key("user-1"), InvalidIdToken)


async def test_an_algorithm_the_issuer_does_not_allow_is_refused(provider: Provider) -> None:
    only_es = PyJwtVerifier(
        [
            TrustedIssuer(
                issuer=provider.issuer,
                audience=AUDIENCE,
                jwks_url=provider.jwks_url,
                algorithms=("ES256",),
            )
        ],
        leeway_seconds=LEEWAY,
        cache_seconds=300,
    )

    await refused(only_es, provider.id_token("user-1"), InvalidIdToken)


async def test_another_audience_is_refused(provider: Provider) -> None:
    token = provider.id_token("user-1", aud="some-other-app")

    detail = await refused(trusting(provider), token, IdTokenWrongAudience)

    assert "some-other-app" not in detail


async def test_an_expired_token_is_refused(provider: Provider) -> None:
    now = int(time.time())
    token = provider.id_token("user-1", iat=now - 3 * HOUR, nbf=now - 3 * HOUR, exp=now - HOUR)

    await refused(trusting(provider), token, IdTokenExpired)


async def test_a_token_expired_within_the_leeway_is_taken(provider: Provider) -> None:
    now = int(time.time())
    token = provider.id_token("user-1", iat=now - HOUR, exp=now - 30)

    assert await trusting(provider, leeway=HOUR).verify(token) == VerifiedSubject(
        provider.issuer, "user-1"
    )


@pytest.mark.parametrize("claim", ["nbf", "iat"])
async def test_a_token_from_the_future_is_refused(provider: Provider, claim: str) -> None:
    future: dict[str, Any] = {claim: int(time.time()) + HOUR}
    token = provider.id_token("user-1", **future)

    await refused(trusting(provider), token, InvalidIdToken)


@pytest.mark.parametrize("claim", ["exp", "iat", "sub", "aud"])
async def test_a_token_without_a_required_claim_is_refused(provider: Provider, claim: str) -> None:
    token = provider.id_token("user-1", **{claim: None})

    await refused(trusting(provider), token, InvalidIdToken)


async def test_a_token_of_another_issuer_is_refused(provider: Provider, stranger: Provider) -> None:
    detail = await refused(trusting(provider), stranger.id_token("user-1"), UnknownIssuer)

    assert stranger.issuer not in detail


async def test_a_token_naming_a_trusted_issuer_but_signed_by_another_is_refused(
    provider: Provider, stranger: Provider
) -> None:
    forged = stranger.id_token("user-1", iss=provider.issuer)

    await refused(trusting(provider), forged, InvalidIdToken)


async def test_a_tampered_token_is_refused(provider: Provider) -> None:
    header, body, signature = provider.id_token("user-1").split(".")
    other_body = provider.id_token("admin").split(".")[1]

    await refused(trusting(provider), f"{header}.{other_body}.{signature}", InvalidIdToken)
    assert body != other_body


async def test_garbage_is_refused(provider: Provider) -> None:
    for token in ["", "not a token", "a.b.c", "eyJhbGciOiJSUzI1NiJ9.e30."]:
        await refused(trusting(provider), token, InvalidIdToken)


async def test_keys_are_fetched_once_and_fetched_again_for_a_rotated_key() -> None:
    with running_provider() as provider:
        verifier = trusting(provider)
        await verifier.verify(provider.id_token("user-1"))
        await verifier.verify(provider.id_token("user-2"))
        assert provider.jwks_fetches == 1
        old = provider.current

        provider.rotate(keep_old=False)

        assert await verifier.verify(provider.id_token("user-3")) == VerifiedSubject(
            provider.issuer, "user-3"
        )
        assert provider.jwks_fetches == 2
        # The retired key is gone from the document: its tokens no longer verify.
        await refused(verifier, provider.id_token("user-1", key=old), InvalidIdToken)


async def test_tokens_naming_made_up_keys_fetch_the_keys_once_per_cooldown() -> None:
    with running_provider() as provider:
        verifier = PyJwtVerifier(
            [TrustedIssuer(issuer=provider.issuer, audience=AUDIENCE, jwks_url=provider.jwks_url)],
            leeway_seconds=LEEWAY,
            cache_seconds=300,
            refetch_cooldown_seconds=HOUR,
        )
        await verifier.verify(provider.id_token("user-1"))

        for _ in range(3):
            await refused(verifier, provider.id_token("user-1", key=new_key()), InvalidIdToken)

        assert provider.jwks_fetches == 2  # the first look, and one fetch for an unknown key
        assert await verifier.verify(provider.id_token("user-2")) == VerifiedSubject(
            provider.issuer, "user-2"
        )


async def test_keys_in_a_file_are_read_again_for_a_rotated_key(
    provider: Provider, tmp_path: Path
) -> None:
    keys = tmp_path / "jwks.json"
    keys.write_text(json.dumps(provider.jwks()))
    verifier = PyJwtVerifier(
        [TrustedIssuer(issuer=provider.issuer, audience=AUDIENCE, jwks_file=str(keys))],
        leeway_seconds=LEEWAY,
        cache_seconds=300,
    )
    assert await verifier.verify(provider.id_token("user-1")) == VerifiedSubject(
        provider.issuer, "user-1"
    )
    with running_provider() as rotating:
        rotated = rotating.current
        keys.write_text(json.dumps({"keys": [rotated.jwk()]}))

        token = provider.id_token("user-2", key=rotated)

        assert await verifier.verify(token) == VerifiedSubject(provider.issuer, "user-2")


async def test_an_unreachable_issuer_is_unavailable_not_a_bad_token() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    with running_provider() as provider:
        token = provider.id_token("user-1")
    verifier = PyJwtVerifier(
        [
            TrustedIssuer(
                issuer=provider.issuer,
                audience=AUDIENCE,
                jwks_url=f"http://127.0.0.1:{port}/jwks",
            )
        ],
        leeway_seconds=LEEWAY,
        cache_seconds=300,
    )

    await refused(verifier, token, IssuerUnavailable)

"""Requests the accounts' HTTP tests send, and the settings of an app that trusts a provider."""

from __future__ import annotations

import uuid
from typing import Any

import msgspec

from service.accounts.settings import AccountSettings, TrustedIssuer
from tests.accounts.oidc_provider import AUDIENCE, Provider
from tests.api.conftest import Asgi, settings_for
from tests.api.players import bearer

Json = dict[str, Any]


def with_issuer(database_url: str, provider: Provider) -> Any:
    settings = settings_for(database_url)
    trusted = TrustedIssuer(issuer=provider.issuer, audience=AUDIENCE, jwks_url=provider.jwks_url)
    return msgspec.structs.replace(settings, accounts=AccountSettings(issuers=(trusted,)))


async def oidc(asgi: Asgi, token: str, name: str | None = None) -> Any:
    body = {"id_token": token} | ({"display_name": name} if name else {})
    return await asgi.client.post("/sessions/oidc", json=body)


async def session_of(asgi: Asgi, token: str, name: str | None = None) -> Json:
    response = await oidc(asgi, token, name)
    assert response.status_code == 201, response.text
    found: Json = response.json()
    return found


async def device(asgi: Asgi, device_id: str, secret: str, name: str | None = None) -> Any:
    body = {"device_id": device_id, "device_secret": secret}
    return await asgi.client.post(
        "/sessions/device", json=body | ({"display_name": name} if name else {})
    )


async def refresh(asgi: Asgi, refresh_token: str) -> Any:
    return await asgi.client.post("/sessions/refresh", json={"refresh_token": refresh_token})


def me(session: Json) -> dict[str, str]:
    return bearer(session["access_token"])


def as_player(session: Json) -> Json:
    """A session in the shape the players' helpers take (they send ``credential``)."""
    return {"credential": session["access_token"]}


def subject() -> str:
    return f"user-{uuid.uuid4()}"

"""Signing in on the in-memory adapters, with ID tokens from a real provider on a loopback
port. (Sign-ins at once are tested over HTTP on PostgreSQL, where they truly interleave.)"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator

import pytest

from adapters.memory.event_store import InMemoryEventStore
from adapters.memory.identities import InMemoryIdentities
from adapters.memory.match_registry import InMemoryMatchRegistry
from adapters.memory.players import InMemoryPlayers
from adapters.memory.sessions import InMemorySessions
from adapters.oidc_verifier import PyJwtVerifier
from service.accounts.sessions import Sessions
from service.accounts.settings import AccountSettings, TrustedIssuer
from service.accounts.sign_in import SignIn
from service.errors import LastIdentity, WrongDeviceSecret
from service.matches.use_cases import MatchService
from service.players.accounts import Accounts
from service.ports.identities import Identity, IdentityKind
from service.store.match_streams import MatchStreams
from tests.accounts.oidc_provider import AUDIENCE, Provider, running_provider


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with running_provider() as running:
        yield running


class LookedTooEarly(InMemoryIdentities):
    """Identities whose first look-up misses, as the first look-up of a sign-in does when
    another sign-in of the same device id commits right after it."""

    def __init__(self) -> None:
        super().__init__()
        self.missed = False

    async def find(self, kind: IdentityKind, issuer: str, subject: str) -> Identity | None:
        if not self.missed:
            self.missed = True
            return None
        return await super().find(kind, issuer, subject)


def signing_in(provider: Provider, identities: InMemoryIdentities | None = None) -> SignIn:
    registry = InMemoryMatchRegistry()
    players = InMemoryPlayers(registry)
    accounts = Accounts(players, MatchService(MatchStreams(InMemoryEventStore()), registry))
    settings = AccountSettings(
        issuers=(
            TrustedIssuer(issuer=provider.issuer, audience=AUDIENCE, jwks_url=provider.jwks_url),
        )
    )
    sessions = Sessions(InMemorySessions(players), settings)
    accounts.access_holder = sessions.player_of
    verifier = PyJwtVerifier(settings.issuers, leeway_seconds=60, cache_seconds=300)
    return SignIn(accounts, sessions, identities or InMemoryIdentities(), verifier)


async def test_a_player_made_by_a_sign_in_keeps_a_way_in(provider: Provider) -> None:
    sign_in = signing_in(provider)
    tokens, _ = await sign_in.with_id_token(provider.id_token("only-way"), "Ada")
    player = await sign_in.accounts.authenticate(tokens.access_token)
    [only] = await sign_in.identities_of(player)

    with pytest.raises(LastIdentity):
        await sign_in.unlink(player, only.identity_id)

    again, made = await sign_in.with_id_token(provider.id_token("only-way"), None)
    assert again.player_id == player.player_id
    assert not made


@pytest.mark.parametrize("same_secret", [True, False])
async def test_a_device_claimed_between_two_look_ups_still_needs_its_secret(
    provider: Provider, same_secret: bool
) -> None:
    identities = LookedTooEarly()
    sign_in = signing_in(provider, identities)
    device_id, secret = f"device-{uuid.uuid4()}", secrets.token_urlsafe(32)
    identities.missed = True  # the first sign-in sees the truth: nobody has the device id
    first, made = await sign_in.with_device(device_id, secret, None)
    assert made
    identities.missed = False

    if not same_secret:
        with pytest.raises(WrongDeviceSecret):
            await sign_in.with_device(device_id, secrets.token_urlsafe(32), None)
        return
    second, made = await sign_in.with_device(device_id, secret, None)
    assert not made
    assert second.player_id == first.player_id

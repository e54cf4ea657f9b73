"""``/sessions`` and ``/players/me/identities``: signing in with the credential, an identity
provider or a device; refreshing and signing out; the identities linked to the account.

Linking, unlinking and listing sessions take the account's session (its access token), never
a bare credential: a credential copied once would otherwise add a way in for good.
"""

from __future__ import annotations

from typing import Annotated, cast
from uuid import UUID

from litestar import Controller, delete, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.params import JSONBody, PathParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED, HTTP_204_NO_CONTENT

from service.accounts.sessions import Sessions, SessionTokens, Signed, is_access_token
from service.accounts.sign_in import SignIn
from service.errors import MissingCredential, SessionRequired
from service.matches.tokens import bearer_token
from service.ports.identities import Identity
from web.account_schemas import (
    DeviceSignIn,
    LinkDevice,
    LinkedIdentities,
    LinkedIdentity,
    LinkProvider,
    LiveSession,
    LiveSessions,
    ProviderSignIn,
    RefreshRequest,
    Session,
    SignedOut,
)
from web.docs import problems
from web.params import Authorization
from web.players import PLAYER_CREDENTIAL

PLAYER_SESSION = "PlayerSession"
SESSION_SECURITY: list[dict[str, list[str]]] = [{PLAYER_SESSION: []}]

SignInDependency = NamedDependency[SignIn]
SessionId = Annotated[UUID, PathParameter(name="session_id", description="A session's id")]
IdentityId = Annotated[UUID, PathParameter(name="identity_id", description="An identity's id")]


def provide_sign_in(state: State) -> SignIn:
    return cast(SignIn, state.sign_in)


DEPENDENCIES = {"sign_in": Provide(provide_sign_in, sync_to_thread=False)}


def _session(tokens: SessionTokens, *, new_player: bool = False) -> Session:
    return Session(
        session_id=tokens.session_id,
        player_id=tokens.player_id,
        access_token=tokens.access_token,
        expires_in=tokens.expires_in,
        refresh_token=tokens.refresh_token,
        refresh_expires_in=tokens.refresh_expires_in,
        new_player=new_player,
    )


async def signed_in(sessions: Sessions, authorization: str | None) -> Signed:
    """The player and session of the request's access token."""
    token = bearer_token(authorization)
    if token is None:
        raise MissingCredential("send the session's access token as 'Authorization: Bearer'")
    if not is_access_token(token):
        raise SessionRequired(
            "sign in for a session (POST /sessions/...) and send its access token"
        )
    return await sessions.holder(token)


class SessionsController(Controller):
    path = "/sessions"
    tags = ("sessions",)
    dependencies = DEPENDENCIES

    @post(
        "/credential",
        status_code=HTTP_201_CREATED,
        summary="Sign in with the player's credential",
        security=[{PLAYER_CREDENTIAL: []}],
        responses=problems(400, 401),
    )
    async def with_credential(
        self, sign_in: SignInDependency, authorization: Authorization = None
    ) -> Session:
        """A session for the player of the credential (from ``POST /players``), which keeps
        working."""
        return _session(await sign_in.with_credential(bearer_token(authorization)))

    @post(
        "/oidc",
        status_code=HTTP_201_CREATED,
        summary="Sign in with an identity provider's ID token",
        responses=problems(400, 401, 422, 503),
    )
    async def with_id_token(
        self, data: JSONBody[ProviderSignIn], sign_in: SignInDependency
    ) -> Session:
        """An OpenID Connect ID token from an issuer the operator trusts. The first sign-in of
        an (issuer, subject) makes its player."""
        tokens, made = await sign_in.with_id_token(data.id_token, data.display_name)
        return _session(tokens, new_player=made)

    @post(
        "/device",
        status_code=HTTP_201_CREATED,
        summary="Sign in with a device id and its secret",
        responses=problems(400, 401, 422),
    )
    async def with_device(self, data: JSONBody[DeviceSignIn], sign_in: SignInDependency) -> Session:
        """The first sign-in of a device id makes its player and keeps the secret's hash; later
        ones need the same secret."""
        tokens, made = await sign_in.with_device(
            data.device_id, data.device_secret, data.display_name
        )
        return _session(tokens, new_player=made)

    @post(
        "/refresh",
        status_code=HTTP_200_OK,
        summary="Trade the refresh token for a new pair",
        responses=problems(400, 401, 422),
    )
    async def refresh(self, data: JSONBody[RefreshRequest], sign_in: SignInDependency) -> Session:
        """The refresh token works once. Sent again, it signs its session out: the app that
        kept the newer pair signs in again, and so does whoever copied the old one."""
        return _session(await sign_in.sessions.refresh(data.refresh_token))

    @get(
        "/",
        summary="This player's sessions",
        security=SESSION_SECURITY,
        responses=problems(400, 401),
    )
    async def live(
        self, sign_in: SignInDependency, authorization: Authorization = None
    ) -> LiveSessions:
        me = await signed_in(sign_in.sessions, authorization)
        return LiveSessions(
            sessions=[
                LiveSession(
                    session_id=info.session_id,
                    signed_in_with=info.signed_in_with,
                    created_at=info.created_at,
                    refreshed_at=info.refreshed_at,
                    current=info.session_id == me.session_id,
                )
                for info in await sign_in.sessions.live(me.player.player_id)
            ]
        )

    @delete(
        "/current",
        status_code=HTTP_204_NO_CONTENT,
        summary="Sign out of this device",
        security=SESSION_SECURITY,
        responses=problems(400, 401, 404),
    )
    async def sign_out(
        self, sign_in: SignInDependency, authorization: Authorization = None
    ) -> None:
        me = await signed_in(sign_in.sessions, authorization)
        await sign_in.sessions.sign_out(me.player.player_id, me.session_id)

    @delete(
        "/{session_id:uuid}",
        status_code=HTTP_204_NO_CONTENT,
        summary="Sign out of another device",
        security=SESSION_SECURITY,
        responses=problems(400, 401, 404),
    )
    async def sign_out_other(
        self, session_id: SessionId, sign_in: SignInDependency, authorization: Authorization = None
    ) -> None:
        me = await signed_in(sign_in.sessions, authorization)
        await sign_in.sessions.sign_out(me.player.player_id, str(session_id))

    @post(
        "/sign-out-everywhere",
        status_code=HTTP_200_OK,
        summary="Sign out of every device",
        security=SESSION_SECURITY,
        responses=problems(400, 401),
    )
    async def sign_out_everywhere(
        self, sign_in: SignInDependency, authorization: Authorization = None
    ) -> SignedOut:
        """Every session of the player ends, this one too. The credential, if the account has
        one, is not a session: replace it with ``POST /players/me/credential``."""
        me = await signed_in(sign_in.sessions, authorization)
        return SignedOut(signed_out=await sign_in.sessions.sign_out_everywhere(me.player.player_id))


def _identity(identity: Identity) -> LinkedIdentity:
    return LinkedIdentity(
        identity_id=identity.identity_id,
        kind=identity.kind,
        issuer=identity.issuer or None,
        subject=identity.subject,
        created_at=identity.created_at,
    )


class IdentitiesController(Controller):
    path = "/players/me/identities"
    tags = ("sessions",)
    dependencies = DEPENDENCIES

    @get(
        "/",
        summary="The account's ways in",
        security=SESSION_SECURITY,
        responses=problems(400, 401),
    )
    async def identities(
        self, sign_in: SignInDependency, authorization: Authorization = None
    ) -> LinkedIdentities:
        me = await signed_in(sign_in.sessions, authorization)
        return LinkedIdentities(
            identities=[_identity(found) for found in await sign_in.identities_of(me.player)]
        )

    @post(
        "/oidc",
        status_code=HTTP_201_CREATED,
        summary="Link an identity provider's account",
        security=SESSION_SECURITY,
        responses=problems(400, 401, 409, 422, 503),
    )
    async def link_provider(
        self,
        data: JSONBody[LinkProvider],
        sign_in: SignInDependency,
        authorization: Authorization = None,
    ) -> LinkedIdentity:
        me = await signed_in(sign_in.sessions, authorization)
        return _identity(await sign_in.link_id_token(me.player, data.id_token))

    @post(
        "/device",
        status_code=HTTP_201_CREATED,
        summary="Link a device",
        security=SESSION_SECURITY,
        responses=problems(400, 401, 409, 422),
    )
    async def link_device(
        self,
        data: JSONBody[LinkDevice],
        sign_in: SignInDependency,
        authorization: Authorization = None,
    ) -> LinkedIdentity:
        me = await signed_in(sign_in.sessions, authorization)
        return _identity(await sign_in.link_device(me.player, data.device_id, data.device_secret))

    @delete(
        "/{identity_id:uuid}",
        status_code=HTTP_204_NO_CONTENT,
        summary="Unlink an identity",
        security=SESSION_SECURITY,
        responses=problems(400, 401, 404, 409),
    )
    async def unlink(
        self,
        identity_id: IdentityId,
        sign_in: SignInDependency,
        authorization: Authorization = None,
    ) -> None:
        """Refused for the account's last identity: link another first."""
        me = await signed_in(sign_in.sessions, authorization)
        await sign_in.unlink(me.player, str(identity_id))

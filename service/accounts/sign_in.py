"""Signing in, and the identities that may: the player's credential, an OpenID Connect
provider's ID token, or a device id with its secret.

A provider's (issuer, subject) or a device id that signs in for the first time makes a player
for it. A device id alone never signs in: its secret, kept as a SHA-256 hash, must come with
it. A device secret is the app's own random secret (at least 32 characters, kept in the
platform's secure storage), so a fast hash is enough, as for credentials and seat tokens: there
is no guessable password to slow down.

Linking adds an identity to the account of a session; removing one is refused when it is the
account's last, so an account that had a way in keeps one. The credential of an account made
with ``POST /players`` is not among them: it is replaced (``POST /players/me/credential``),
never removed, so such an account always has it.
"""

from __future__ import annotations

import hmac
import uuid

from service.accounts.sessions import Sessions, SessionTokens, is_access_token
from service.errors import (
    IdentityNotFound,
    IdentityTaken,
    InvalidRequest,
    LastIdentity,
    WrongCredential,
    WrongDeviceSecret,
)
from service.matches.tokens import secret_hash, secret_matches
from service.players.accounts import Accounts
from service.ports.id_tokens import IdTokenVerifier
from service.ports.identities import DuplicateIdentity, Identity, IdentityKind, IdentityStore
from service.ports.players import Player

MIN_DEVICE_SECRET = 32
MAX_DEVICE_FIELD = 256
DEFAULT_NAME = "Player"


class SignIn:
    def __init__(
        self,
        accounts: Accounts,
        sessions: Sessions,
        identities: IdentityStore,
        verifier: IdTokenVerifier,
    ) -> None:
        self.accounts = accounts
        self.sessions = sessions
        self.identities = identities
        self.verifier = verifier

    async def with_credential(self, credential: str | None) -> SessionTokens:
        # Never with an access token: one stolen would otherwise outlive its few minutes.
        if credential is not None and is_access_token(credential):
            raise WrongCredential("a session is started with the player's credential")
        player = await self.accounts.authenticate(credential)
        return await self.sessions.start(player.player_id, "credential")

    async def with_id_token(self, id_token: str, name: str | None) -> tuple[SessionTokens, bool]:
        """A session for the player of the token's issuer and subject; whether the player was
        made now."""
        subject = await self.verifier.verify(id_token)
        player_id, made = await self._player_of("oidc", subject.issuer, subject.subject, None, name)
        return await self.sessions.start(player_id, "oidc"), made

    async def with_device(
        self, device_id: str, secret: str, name: str | None
    ) -> tuple[SessionTokens, bool]:
        _check_device(device_id, secret)
        found = await self.identities.find("device", "", device_id)
        if found is not None:
            if found.secret_hash is None or not secret_matches(secret, found.secret_hash):
                raise WrongDeviceSecret("the device id and secret do not match")
            return await self.sessions.start(found.player_id, "device"), False
        player_id, made = await self._player_of("device", "", device_id, secret_hash(secret), name)
        return await self.sessions.start(player_id, "device"), made

    async def _player_of(
        self, kind: IdentityKind, issuer: str, subject: str, hashed: bytes | None, name: str | None
    ) -> tuple[str, bool]:
        found = await self.identities.find(kind, issuer, subject)
        if found is not None:
            # Made by another sign-in since the caller looked: its secret must still match.
            return _known_player(found, hashed), False
        # A player's credential is never shown here: the account's ways in are its identities.
        signed = await self.accounts.sign_up(name if name is not None else DEFAULT_NAME)
        try:
            await self.identities.add(
                Identity(
                    identity_id=str(uuid.uuid4()),
                    player_id=signed.player.player_id,
                    kind=kind,
                    issuer=issuer,
                    subject=subject,
                    secret_hash=hashed,
                )
            )
        except DuplicateIdentity:
            # Signed in twice at once for the first time: the other sign-in made the player.
            # This one's player is left with no way in, and so never used.
            found = await self.identities.find(kind, issuer, subject)
            if found is None:
                raise WrongDeviceSecret("the device id and secret do not match") from None
            return _known_player(found, hashed), False
        return signed.player.player_id, True

    async def link_id_token(self, player: Player, id_token: str) -> Identity:
        subject = await self.verifier.verify(id_token)
        return await self._link(player, "oidc", subject.issuer, subject.subject, None)

    async def link_device(self, player: Player, device_id: str, secret: str) -> Identity:
        _check_device(device_id, secret)
        return await self._link(player, "device", "", device_id, secret_hash(secret))

    async def _link(
        self, player: Player, kind: IdentityKind, issuer: str, subject: str, hashed: bytes | None
    ) -> Identity:
        try:
            return await self.identities.add(
                Identity(
                    identity_id=str(uuid.uuid4()),
                    player_id=player.player_id,
                    kind=kind,
                    issuer=issuer,
                    subject=subject,
                    secret_hash=hashed,
                )
            )
        except DuplicateIdentity:
            raise IdentityTaken(
                "this identity already signs a player in (this one or another); unlink it"
                " there first"
            ) from None

    async def unlink(self, player: Player, identity_id: str) -> None:
        outcome = await self.identities.remove(player.player_id, identity_id)
        if outcome == "unknown":
            raise IdentityNotFound("this player has no identity with this id")
        if outcome == "last":
            raise LastIdentity("link another identity before removing this one")

    async def identities_of(self, player: Player) -> list[Identity]:
        return await self.identities.of_player(player.player_id)


def _known_player(found: Identity, hashed: bytes | None) -> str:
    """The player of an identity another sign-in made, if this one's secret (if any) is its."""
    if hashed is not None and (
        found.secret_hash is None or not hmac.compare_digest(found.secret_hash, hashed)
    ):
        raise WrongDeviceSecret("the device id and secret do not match")
    return found.player_id


def _check_device(device_id: str, secret: str) -> None:
    if not device_id.strip() or len(device_id) > MAX_DEVICE_FIELD:
        raise InvalidRequest(f"a device id has 1 to {MAX_DEVICE_FIELD} characters")
    if not MIN_DEVICE_SECRET <= len(secret) <= MAX_DEVICE_FIELD:
        raise InvalidRequest(
            f"a device secret has {MIN_DEVICE_SECRET} to {MAX_DEVICE_FIELD} characters: make"
            " it with a secure random generator and keep it in the platform's secure storage"
        )

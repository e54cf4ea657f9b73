"""Operators: tournament systems with API keys, each key limited to its scopes.

A key is a random secret shown once when it is made (``gin operator create-key``); the server
keeps its SHA-256 hash, as it does for seat tokens. Keys and seat tokens never stand in for
each other: a seat token sent to an operator endpoint is refused as one, and an operator key
opens no seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

import msgspec

from service.errors import (
    MissingOperatorKey,
    MissingScope,
    SeatTokenNotOperatorKey,
    UnknownOperatorKey,
)
from service.matches import tokens
from service.ports.match_registry import MatchRegistry
from service.ports.operator_keys import SCOPES, KeyInfo, Operator, OperatorKeyStore, Scope

KEY_PREFIX = "gop_"


class NewKey(msgspec.Struct, frozen=True):
    operator: Operator
    key: str  # shown once; only its hash is stored


def check_scopes(scopes: Iterable[str]) -> tuple[Scope, ...]:
    chosen = tuple(dict.fromkeys(scopes))
    unknown = [scope for scope in chosen if scope not in SCOPES]
    if unknown or not chosen:
        raise ValueError(f"scopes are one or more of {', '.join(SCOPES)}; not {unknown or []}")
    return chosen  # type: ignore[return-value]


class OperatorKeys:
    def __init__(self, keys: OperatorKeyStore, matches: MatchRegistry) -> None:
        """``matches`` tells a seat token sent by mistake from a key nobody knows."""
        self._keys = keys
        self._matches = matches

    async def create_key(self, name: str, scopes: Iterable[str]) -> NewKey:
        """A new key for operator ``name`` (created on its first key)."""
        chosen = check_scopes(scopes)
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        operator = await self._keys.add_key(name, tokens.secret_hash(key), chosen)
        return NewKey(operator, key)

    async def authenticate(self, key: str | None, scope: Scope) -> Operator:
        """The operator ``key`` belongs to, if it is live and holds ``scope``."""
        if key is None:
            raise MissingOperatorKey("send an operator key as 'Authorization: Bearer <key>'")
        key_hash = tokens.secret_hash(key)
        operator = await self._keys.live_key(key_hash)
        if operator is None:
            if await self._matches.is_seat_token(key_hash):
                raise SeatTokenNotOperatorKey(
                    "this is a seat token: it plays its seat and nothing else"
                )
            raise UnknownOperatorKey("this operator key is unknown or has been revoked")
        if scope not in operator.scopes:
            raise MissingScope(f"this needs an operator key with the scope {scope}")
        return operator

    async def list_keys(self) -> list[KeyInfo]:
        return await self._keys.list_keys()

    async def revoke_key(self, key_id: str) -> bool:
        """Revoke a key for good; False if there is no live key with this id."""
        return await self._keys.revoke_key(key_id)

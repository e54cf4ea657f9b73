"""Operator keys on the HTTP face: the header, the injected key store, and the check."""

from __future__ import annotations

from typing import Annotated, cast

from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.params import HeaderParameter

from service.matches.tokens import bearer_token
from service.ports.operator_keys import Operator, Scope
from service.tournament.operators import OperatorKeys

OPERATOR_KEY = "OperatorKey"

Operators = NamedDependency[OperatorKeys]
OperatorAuthorization = Annotated[
    str | None,
    HeaderParameter(name="Authorization", description="Bearer <an operator key>"),
]


def provide_operator_keys(state: State) -> OperatorKeys:
    return cast(OperatorKeys, state.operator_keys)


async def operator_for(keys: OperatorKeys, authorization: str | None, scope: Scope) -> Operator:
    """The operator whose key the request carries, if that key holds ``scope`` (401/403)."""
    return await keys.authenticate(bearer_token(authorization), scope)


async def creating_operator(
    keys: OperatorKeys, authorization: str | None, *, tournament_ids: bool
) -> Operator | None:
    """Who creates a match: nobody in particular (anyone may create one), unless a key is sent
    or tournament ids are asked for; then it must be an operator key with ``matches:create``."""
    if authorization is None and not tournament_ids:
        return None
    return await operator_for(keys, authorization, "matches:create")

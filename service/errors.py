"""What the service refuses, beyond the rules of the game.

Each error has a stable ``kind`` (the problem type clients can switch on) and an HTTP status;
``str(error)`` is the human-readable detail and never names a hidden card.
"""

from __future__ import annotations

from typing import ClassVar


class ServiceError(Exception):
    kind: ClassVar[str] = "service-error"
    status: ClassVar[int] = 400
    title: ClassVar[str] = "The request was refused"


class MalformedJson(ServiceError):  # noqa: N818
    kind = "malformed-json"
    title = "The request body is not valid JSON"


class InvalidRequest(ServiceError):  # noqa: N818
    kind = "invalid-request"
    status = 422
    title = "The request does not have the expected shape"


class InvalidParameter(ServiceError):  # noqa: N818
    kind = "invalid-parameter"
    title = "A query, path or header parameter is invalid"


class UnknownCommand(ServiceError):  # noqa: N818
    kind = "unknown-command"
    status = 422
    title = "There is no such command"


class MissingToken(ServiceError):  # noqa: N818
    kind = "missing-token"
    status = 401
    title = "A seat token is required"


class WrongToken(ServiceError):  # noqa: N818
    kind = "wrong-token"
    status = 403
    title = "This token does not open a seat in this match"


class NotYourSeat(ServiceError):  # noqa: N818
    kind = "not-your-seat"
    status = 403
    title = "A seat token acts only for its own seat"


class MatchNotFound(ServiceError):  # noqa: N818
    kind = "match-not-found"
    status = 404
    title = "There is no such match"


class InviteNotFound(ServiceError):  # noqa: N818
    kind = "invite-not-found"
    status = 404
    title = "There is no open invite with this code"


class WaitingForOpponent(ServiceError):  # noqa: N818
    kind = "waiting-for-opponent"
    status = 409
    title = "The match starts when the invited player joins"


class VersionConflict(ServiceError):  # noqa: N818
    kind = "version-conflict"
    status = 409
    title = "The match changed while the command was handled"


class StaleVersion(ServiceError):  # noqa: N818
    kind = "stale-version"
    status = 412
    title = "The match has moved on since the version in If-Match"


class IdempotencyKeyReused(ServiceError):  # noqa: N818
    kind = "idempotency-key-reused"
    status = 422
    title = "This Idempotency-Key was already used for a different command"

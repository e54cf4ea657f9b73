"""What the service refuses, beyond the rules of the game.

Each error has a stable ``kind`` (the problem type clients can switch on) and a ``title``;
``str(error)`` is the human-readable detail and never names a hidden card. How a kind is
answered over HTTP is the web layer's business (``web.problems``), not the use cases'.
"""

from __future__ import annotations

from typing import ClassVar


class ServiceError(Exception):
    kind: ClassVar[str] = "service-error"
    title: ClassVar[str] = "The request was refused"


class MalformedJson(ServiceError):  # noqa: N818
    kind = "malformed-json"
    title = "The request body is not valid JSON"


class InvalidRequest(ServiceError):  # noqa: N818
    kind = "invalid-request"
    title = "The request does not have the expected shape"


class InvalidParameter(ServiceError):  # noqa: N818
    kind = "invalid-parameter"
    title = "A query, path or header parameter is invalid"


class UnknownCommand(ServiceError):  # noqa: N818
    kind = "unknown-command"
    title = "There is no such command"


class MissingToken(ServiceError):  # noqa: N818
    kind = "missing-token"
    title = "A seat token is required"


class WrongToken(ServiceError):  # noqa: N818
    kind = "wrong-token"
    title = "This token does not open a seat in this match"


class NotYourSeat(ServiceError):  # noqa: N818
    kind = "not-your-seat"
    title = "A seat token acts only for its own seat"


class MatchNotFound(ServiceError):  # noqa: N818
    kind = "match-not-found"
    title = "There is no such match"


class InviteNotFound(ServiceError):  # noqa: N818
    kind = "invite-not-found"
    title = "There is no open invite with this code"


class WaitingForOpponent(ServiceError):  # noqa: N818
    kind = "waiting-for-opponent"
    title = "The match starts when the invited player joins"


class VersionConflict(ServiceError):  # noqa: N818
    kind = "version-conflict"
    title = "The match changed while the command was handled"


class StaleVersion(ServiceError):  # noqa: N818
    kind = "stale-version"
    title = "The match has moved on since the version in If-Match"


class IdempotencyKeyReused(ServiceError):  # noqa: N818
    """Raised by the event store itself (see ``service.ports.event_store``): the key is kept
    with the append it was first used for, so a use case needs no error of its own."""

    kind = "idempotency-key-reused"
    title = "This Idempotency-Key was already used for a different command"

    def __init__(self, detail: str = "this idempotency key was already used for another request"):
        super().__init__(detail)


class InvalidBotSeats(ServiceError):  # noqa: N818
    kind = "invalid-bot-seats"
    title = "These seats cannot be played by bots"


class UnknownFeedPosition(ServiceError):  # noqa: N818
    kind = "unknown-position"
    title = "There is no event at this position"


class WebhookNotFound(ServiceError):  # noqa: N818
    kind = "webhook-not-found"
    title = "There is no such webhook"


class MissingScope(ServiceError):  # noqa: N818
    kind = "missing-scope"
    title = "This operator key lacks the scope this needs"


class SeatTokenNotOperatorKey(ServiceError):  # noqa: N818
    kind = "seat-token-not-operator-key"
    title = "A seat token cannot act as an operator"


class UnknownOperatorKey(ServiceError):  # noqa: N818
    kind = "unknown-operator-key"
    title = "This operator key is unknown or revoked"


class MissingOperatorKey(ServiceError):  # noqa: N818
    kind = "missing-operator-key"
    title = "An operator key is required"


class VersionInPlay(ServiceError):  # noqa: N818
    kind = "version-in-play"
    title = "This event belongs to the hand in progress"


class LogTooShort(ServiceError):  # noqa: N818
    kind = "log-too-short"
    title = "The global log does not reach that far (yet)"


class VersionNotFound(ServiceError):  # noqa: N818
    kind = "version-not-found"
    title = "The match has no event with this version"


class HandNotFinished(ServiceError):  # noqa: N818
    kind = "hand-not-finished"
    title = "The match has no finished hand with this number"


class EntropyBeforeCommitment(ServiceError):  # noqa: N818
    kind = "entropy-before-commitment"
    title = "Entropy at creation needs a commitment made first"


class UnknownCommitment(ServiceError):  # noqa: N818
    kind = "unknown-commitment"
    title = "There is no unused commitment with this value"


class MissingCredential(ServiceError):  # noqa: N818
    kind = "missing-credential"
    title = "A player's credential is required"


class WrongCredential(ServiceError):  # noqa: N818
    kind = "wrong-credential"
    title = "This credential is unknown or was replaced"


class PlayerNotFound(ServiceError):  # noqa: N818
    kind = "player-not-found"
    title = "There is no such player"


class DisplayNameTooLong(ServiceError):  # noqa: N818
    kind = "display-name-too-long"
    title = "The display name is too long"


class InvalidDisplayName(ServiceError):  # noqa: N818
    kind = "invalid-display-name"
    title = "The display name is empty or holds characters a name cannot have"


class AlreadyQueued(ServiceError):  # noqa: N818
    kind = "already-queued"
    title = "This player is already waiting for a quick match"


class NotQueued(ServiceError):  # noqa: N818
    kind = "not-queued"
    title = "This player is not waiting for a quick match"


class InviteExpired(ServiceError):  # noqa: N818
    kind = "invite-expired"
    title = "The invite has expired"


class InviteNotForYou(ServiceError):  # noqa: N818
    kind = "invite-not-for-you"
    title = "This invite or rematch offer was made to another player"


class RematchNotAvailable(ServiceError):  # noqa: N818
    kind = "rematch-not-available"
    title = "A rematch can be offered only by a player of a finished match"


class DatabaseUnavailable(ServiceError):  # noqa: N818
    """Raised by the adapters (any port) when the store cannot be reached in time: nothing was
    done, and the same request may be sent again once it is back."""

    kind = "database-unavailable"
    title = "The database is unreachable for now; try again shortly"

    def __init__(self, detail: str = "the database did not answer in time; nothing was done"):
        super().__init__(detail)


class InvalidStreamTicket(ServiceError):  # noqa: N818
    kind = "invalid-stream-ticket"
    title = "This stream ticket is unknown, used up or expired"


class OriginNotAllowed(ServiceError):  # noqa: N818
    kind = "origin-not-allowed"
    title = "Pages from this origin may not call the API"


class ExternalRefTaken(ServiceError):  # noqa: N818
    kind = "external-ref-taken"
    title = "This operator already has a match with this external ref"


class IdempotencyKeyInFlight(ServiceError):  # noqa: N818
    kind = "idempotency-key-in-flight"
    title = "A request with this Idempotency-Key is still being handled"


class IdempotencyWindowOver(ServiceError):  # noqa: N818
    kind = "idempotency-window-over"
    title = "This Idempotency-Key was used longer ago than the server keeps answers"


class RoundNotFound(ServiceError):  # noqa: N818
    kind = "round-not-found"
    title = "This operator has no such round"


class InvalidRound(ServiceError):  # noqa: N818
    kind = "invalid-round"
    title = "This round cannot be created as asked; nothing was created"


class DeadlinePassed(ServiceError):  # noqa: N818
    kind = "deadline-passed"
    title = "The seat's time ran out: the server makes its default move"


class MatchNotStarted(ServiceError):  # noqa: N818
    kind = "match-not-started"
    title = "The match's clocks have not started: no move is taken before its start time"


class NotYourMatch(ServiceError):  # noqa: N818
    kind = "not-your-match"
    title = "This match belongs to another operator"


class RoundStarted(ServiceError):  # noqa: N818
    kind = "round-started"
    title = "This round has started: its start cannot move"


class DeliveryNotFailed(ServiceError):  # noqa: N818
    kind = "delivery-not-failed"
    title = "Only a failed delivery is sent again"


class WebhookUrlRefused(ServiceError):  # noqa: N818
    kind = "webhook-url-refused"
    title = "Webhooks may not point at loopback, private, link-local or metadata addresses"


# Accounts: sessions, sign-in with an identity provider or a device, linked identities. Each
# refusal has its own kind, so an app knows whether to refresh, sign in again or give up; none
# repeats anything a token holds.


class AccessTokenExpired(ServiceError):  # noqa: N818
    kind = "access-token-expired"
    title = "This access token has expired; refresh the session for a new one"


class RefreshTokenUnknown(ServiceError):  # noqa: N818
    kind = "refresh-token-unknown"
    title = "This refresh token is not one the service issued"


class RefreshTokenExpired(ServiceError):  # noqa: N818
    kind = "refresh-token-expired"
    title = "This refresh token has expired; sign in again"


class SessionRevoked(ServiceError):  # noqa: N818
    kind = "session-revoked"
    title = "This session was signed out; sign in again"


class RefreshTokenReused(ServiceError):  # noqa: N818
    kind = "refresh-token-reused"
    title = "This refresh token was already used: the session is revoked; sign in again"


class SessionNotFound(ServiceError):  # noqa: N818
    kind = "session-not-found"
    title = "This player has no such live session"


class IdTokenExpired(ServiceError):  # noqa: N818
    kind = "id-token-expired"
    title = "The identity provider's token has expired"


class IdTokenWrongAudience(ServiceError):  # noqa: N818
    kind = "id-token-wrong-audience"
    title = "The identity provider's token was issued for another audience"


class UnknownIssuer(ServiceError):  # noqa: N818
    kind = "unknown-issuer"
    title = "The token's issuer is not one this service trusts"


class InvalidIdToken(ServiceError):  # noqa: N818
    kind = "invalid-id-token"
    title = "The identity provider's token is malformed, not yet valid or not signed by its keys"


class IssuerUnavailable(ServiceError):  # noqa: N818
    kind = "issuer-unavailable"
    title = "The identity provider's keys cannot be fetched now; try again shortly"


class WrongDeviceSecret(ServiceError):  # noqa: N818
    kind = "wrong-device-secret"
    title = "This device id and secret do not sign anyone in"


class IdentityTaken(ServiceError):  # noqa: N818
    kind = "identity-taken"
    title = "This identity already signs in another player"


class IdentityNotFound(ServiceError):  # noqa: N818
    kind = "identity-not-found"
    title = "This player has no such identity"


class LastIdentity(ServiceError):  # noqa: N818
    kind = "last-identity"
    title = "This is the account's last way in: link another before removing it"


class SessionRequired(ServiceError):  # noqa: N818
    kind = "session-required"
    title = "This needs the account's session (an access token), not a credential or seat token"


class HistoryMissing(ServiceError):  # noqa: N818
    """The log lacks events a published log checkpoint covers (a restore from an older backup,
    or a rewrite): nothing is written until an operator decides (``gin db accept-restore``)."""

    kind = "history-missing"
    title = "Acknowledged history is missing from the log; writes wait for an operator"

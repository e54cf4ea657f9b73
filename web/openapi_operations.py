"""What the client document says of each operation beyond what Litestar derives from its handler:
a readable id, its credential as a security scheme only, and the answers every route may give
whatever its handler says (304 to ``If-None-Match``, 429 over a rate limit, 503 in a database
outage, and the feed's 404 for a match the key may not know of)."""

from __future__ import annotations

import copy
import re
from typing import Any

from web.rate_limits import COMMANDS, CREATING

Json = dict[str, Any]
PROBLEM = "#/components/schemas/Problem"
PROBLEM_MEDIA_TYPE = "application/problem+json"

# Ids a generated client names its functions by (``get_match_view``, ``getMatchView``): one
# per operation, verb first, stable within a version.
OPERATION_IDS: dict[tuple[str, str], str] = {
    ("post", "/matches"): "createMatch",
    ("post", "/matches/join"): "joinMatch",
    ("get", "/matches/{match_id}"): "getMatchSummary",
    ("get", "/matches/{match_id}/view"): "getMatchView",
    ("post", "/matches/{match_id}/commands"): "sendCommand",
    ("get", "/matches/{match_id}/events"): "listMatchEvents",
    ("get", "/matches/{match_id}/stream"): "streamMatchEvents",
    ("post", "/matches/{match_id}/stream-tickets"): "createStreamTicket",
    ("get", "/matches/{match_id}/result"): "getMatchResult",
    ("post", "/matches/{match_id}/adjudication"): "adjudicateMatch",
    ("get", "/matches/{match_id}/hands/{hand}/history"): "getHandHistory",
    ("get", "/matches/{match_id}/record"): "getMatchRecord",
    ("get", "/matches/{match_id}/replay"): "getMatchReplay",
    ("get", "/matches/{match_id}/checkpoint"): "getMatchCheckpoint",
    ("get", "/checkpoints/key"): "getCheckpointKey",
    ("get", "/log/checkpoint"): "getLogCheckpoint",
    ("get", "/log/proofs/consistency"): "proveLogConsistency",
    ("get", "/log/proofs/inclusion"): "proveLogInclusion",
    ("post", "/commitments"): "createCommitment",
    ("get", "/feed"): "readFeed",
    ("get", "/webhooks"): "listWebhooks",
    ("post", "/webhooks"): "createWebhook",
    ("get", "/webhooks/{webhook_id}/deliveries"): "listWebhookDeliveries",
    ("delete", "/webhooks/{webhook_id}"): "deleteWebhook",
    ("post", "/webhooks/{webhook_id}/ping"): "pingWebhook",
    ("post", "/webhooks/{webhook_id}/deliveries/{delivery_id}/redelivery"): "redeliverWebhook",
    ("post", "/webhooks/{webhook_id}/secret"): "rotateWebhookSecret",
    ("get", "/rounds"): "listRounds",
    ("post", "/rounds"): "createRound",
    ("get", "/rounds/{round_id}"): "getRoundResults",
    ("post", "/rounds/{round_id}/cancel"): "cancelRound",
    ("post", "/rounds/{round_id}/start"): "startRound",
    ("post", "/matches/{match_id}/seats/{seat}/token"): "reissueSeatToken",
    ("get", "/operator/matches/by-ref"): "getOperatorMatchByRef",
    ("get", "/operator/matches"): "listOperatorMatches",
    ("get", "/players/me/matches"): "listMyMatches",
    ("post", "/players/me/matches"): "createMyMatch",
    ("get", "/players/me/inbox"): "readMyInbox",
    ("get", "/players/me"): "getMe",
    ("post", "/players/me/credential"): "rotateMyCredential",
    ("post", "/players"): "signUp",
    ("get", "/sessions"): "listSessions",
    ("post", "/sessions/refresh"): "refreshSession",
    ("delete", "/sessions/current"): "signOut",
    ("post", "/sessions/sign-out-everywhere"): "signOutEverywhere",
    ("delete", "/sessions/{session_id}"): "endSession",
    ("post", "/sessions/credential"): "signInWithCredential",
    ("post", "/sessions/device"): "signInWithDevice",
    ("post", "/sessions/oidc"): "signInWithOidc",
    ("get", "/players/me/identities"): "listMyIdentities",
    ("post", "/players/me/identities/device"): "linkDevice",
    ("post", "/players/me/identities/oidc"): "linkOidcAccount",
    ("delete", "/players/me/identities/{identity_id}"): "unlinkIdentity",
    ("get", "/players/me/quick-match"): "getQuickMatch",
    ("post", "/players/me/quick-match"): "askQuickMatch",
    ("delete", "/players/me/quick-match"): "cancelQuickMatch",
    ("post", "/players/me/invites"): "invitePlayer",
    ("post", "/players/me/join"): "joinByInvite",
    ("post", "/players/me/matches/{match_id}/rematch"): "askRematch",
    ("get", "/health"): "getHealth",
    ("get", "/health/live"): "getLiveness",
    ("get", "/health/ready"): "getReadiness",
}
# Answered without the database: never a 503 problem (the health checks answer their own 503).
NO_DATABASE = {("get", "/health/live"), ("get", "/checkpoints/key")}
OWN_UNAVAILABLE = {("get", "/health"), ("get", "/health/ready")}
# The operator's optional key on routes anybody may call (a tournament's ids need one).
OPTIONAL_OPERATOR_KEY = {("post", "/matches")}
OPTIONAL_KEY_NOTE = (
    "\n\nAnybody may call it; a tournament's ids need an operator key "
    "(`Authorization: Bearer <key>`, the `OperatorKey` scheme)."
)
METHODS = ("get", "post", "put", "patch", "delete")


def refine_operations(document: Json) -> None:
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            key = (method, path)
            operation["operationId"] = OPERATION_IDS.get(key) or _fallback_id(method, path)
            _authorization_as_security(key, operation)
            responses: Json = operation.setdefault("responses", {})
            if _has_header(operation, "If-None-Match"):
                responses["304"] = {
                    "description": "Not Modified: the seat's view is the one its ETag names",
                    "headers": {"ETag": {"schema": {"type": "string"}}},
                }
            if "requestBody" in operation and "413" not in responses:
                responses["413"] = _problem("Content Too Large")
            if method == "post" and _rate_limited(path):
                responses["429"] = _problem("Too Many Requests", retry_after=True)
            if key not in NO_DATABASE | OWN_UNAVAILABLE:
                responses["503"] = _problem("Service Unavailable", retry_after=True)
            elif key in OWN_UNAVAILABLE:
                answer = copy.deepcopy(responses["200"])
                answer["description"] = "Service Unavailable: the database is not ready"
                responses["503"] = answer
    feed = document["paths"]["/feed"]["get"]["responses"]
    feed["404"] = _problem("Not Found: no match of yours has this id or reference")


def _fallback_id(method: str, path: str) -> str:
    """A route missing from the table still gets a readable id (the table's test names it)."""
    words = [part for part in re.split(r"[/{}_-]+", path) if part]
    return method + "".join(word.title() for word in words)


def _authorization_as_security(key: tuple[str, str], operation: Json) -> None:
    """The credential is the operation's ``security``; an ``Authorization`` parameter beside
    it would have every generated function take the token twice."""
    parameters = operation.get("parameters", [])
    kept = [p for p in parameters if not (p["in"] == "header" and p["name"] == "Authorization")]
    if key in OPTIONAL_OPERATOR_KEY:
        # No ``security``: generators would then require a credential of everybody. A
        # generated client sends the key when made with one (``AuthenticatedClient``).
        operation["description"] = operation.get("description", "") + OPTIONAL_KEY_NOTE
    if kept:
        operation["parameters"] = kept
    else:
        operation.pop("parameters", None)


def _has_header(operation: Json, name: str) -> bool:
    return any(p["in"] == "header" and p["name"] == name for p in operation.get("parameters", []))


def _rate_limited(path: str) -> bool:
    concrete = re.sub(r"\{[^}]+\}", "x", path)
    return bool(CREATING.match(concrete) or COMMANDS.match(concrete))


def _problem(description: str, *, retry_after: bool = False) -> Json:
    answer: Json = {
        "description": f"{description} (RFC 9457 problem details)",
        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": PROBLEM}}},
    }
    if retry_after:
        answer["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again",
                "schema": {"type": "string"},
            }
        }
    return answer
